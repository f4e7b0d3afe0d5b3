"""The cache's typed JSON: the real layout and map round-trip exactly; anything that does not match is refused."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Optional, Union

import pytest

from printkit import plaindata
from printkit.layout.primitives import Cells, Item, Path, Rect, Style, Text
from printkit.loading.maps import load_map
from printkit.model.maps import GameMap
from printkit.plaindata import Refused, dumps, loads
from printkit.sheets import atw, mappages


class Point(NamedTuple):
    x: float
    y: float


class Shape(NamedTuple):
    name: str
    corners: tuple[Point, ...]
    tag: Optional[str] = None
    kind: Literal["box", "ring"] = "box"
    mark: Union[Point, bytes, None] = None
    extra: dict[str, int] = {}
    pair: tuple[int, str] = (0, "")


@dataclass(frozen=True)
class Frozen:
    label: str
    shape: Shape
    flags: tuple[bool, ...] = ()


SHAPE = Shape("a", (Point(0.5, -1.0), Point(3, 1e-300)), "t", "ring", Point(1.0, 2.0), {"k": 3}, (7, "seven"))


@pytest.mark.parametrize("name", ["world", "us"])
def test_the_real_layout_and_map_round_trip(name: str) -> None:
    m = load_map(name)
    assert loads(dumps(m, GameMap), GameMap) == m and type(loads(dumps(m, GameMap), GameMap)) is GameMap
    layout = mappages.prepare(m, "a4")
    back = loads(dumps(layout, atw.MapLayout), atw.MapLayout)
    assert back == layout  # items compare only with items of their own type: the union members came back right
    assert [type(i) for i in back.shared] == [type(i) for i in layout.shared] and len(layout.shared) > 100
    assert back.blank_qr.black == layout.blank_qr.black and type(back.blank_qr) is Cells


def test_synthetic_types_round_trip() -> None:
    for value, kind in [(SHAPE, Shape), (Frozen("f", SHAPE, (True, False)), Frozen), (b"\x00\xff", bytes),
                        ({"a": [1, 2.5, None, {"b": True}]}, dict), ((1, "x"), tuple), (None, Optional[int]),
                        (Shape("b", (), mark=b"\x01"), Shape), ((), tuple[()])]:
        assert loads(dumps(value, kind), kind) == value
        assert type(loads(dumps(value, kind), kind)) is type(value)


def test_an_int_where_a_float_is_annotated_stays_an_int() -> None:
    back = loads(dumps(Point(3, 2.0), Point), Point)
    assert back == (3, 2.0) and type(back.x) is int and type(back.y) is float


@pytest.mark.parametrize("text", [
    '["a",[[0.5]],null,"box",null,{},[0,""]]',  # a point short of a field
    '["a",[[0.5,-1.0,2.0]],null,"box",null,{},[0,""]]',  # a field too many
    '["a",[],null,"box",null,{},[0,""],1]',  # a field too many at the top
    '["a",[],null,"square",null,{},[0,""]]',  # not one of the literals
    '["a",[],1,"box",null,{},[0,""]]',  # an int for a str
    '["a",[],null,"box",null,{"k":1.5},[0,""]]',  # a float for an int
    '["a",[],null,"box",null,{"k":true},[0,""]]',  # a bool for an int
    '["a",[[NaN,1.0]],null,"box",null,{},[0,""]]',  # NaN
    '["a",[[1e999,1.0]],null,"box",null,{},[0,""]]',  # infinity
    '["a",[],null,"box",[1,"not base64!"],{},[0,""]]',  # bytes that are not base64
    '["a",[],null,"box",[5,[1.0,2.0]],{},[0,""]]',  # no such member of the union
    '["a",[],null,"box",null,{"k":1,"k":2},[0,""]]',  # a key twice
    '["a",[],null,"box",null,{},[0,"",1]]',  # a fixed tuple of three
    '{"name":"a"}',  # an object for a named tuple
    '["a",[],null,"box",null,{},[0,""]',  # cut short
])
def test_anything_that_does_not_match_exactly_is_refused(text: str) -> None:
    assert loads(b'["a",[],null,"box",null,{},[0,""]]', Shape) == Shape("a", ())  # the shape that is right
    with pytest.raises(Refused):
        loads(text.encode(), Shape)


def test_a_value_that_does_not_match_its_type_is_not_written() -> None:
    for value, kind in [(Point(float("nan"), 0.0), Point), (Point("1", 0.0), Point), (Shape("a", [Point(1, 2)]), Shape),
                        (Rect(0, 0, 1, 1, style=Text(0, 0, "x", 1)), Rect), ({"a": (1, 2)}, dict), (True, int),
                        ("\ud800", str)]:
        with pytest.raises(Refused):
            dumps(value, kind)


def test_a_type_that_is_not_plain_data_is_a_type_error() -> None:
    class Opaque(NamedTuple):
        run: Any = None
        call: object = None

    for kind in (object, set[int], Opaque, dict[int, str]):
        with pytest.raises(TypeError, match="not plain data"):
            plaindata.codec(kind)


def test_the_json_is_plain_and_compact() -> None:
    items: tuple[Item, ...] = (Rect(1.0, 2.0, 3.0, 4.0), Path((("M", 0.0, 1.0), ("Z",)), Style(dash=(1.0,))))
    text = dumps(items, tuple[Item, ...]).decode()
    assert json.loads(text) == [[1, [1.0, 2.0, 3.0, 4.0, ["#000000", None, 1.0, [], 1.0], 0.0]],
                                [3, [[["M", 0.0, 1.0], ["Z"]], ["#000000", None, 1.0, [1.0], 1.0], False]]]
    assert loads(text.encode(), tuple[Item, ...]) == items
