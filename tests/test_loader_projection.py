"""The [projection] table and its insets: loaded as typed data, every mistake named by field path."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.errors import DataError
from printkit.loading.maps import load_map
from printkit.model.maps import Inset

TINY = (Path(__file__).parent / "data" / "maps" / "tiny.toml").read_text(encoding="utf-8")

# Reykjavík (64.15 N, 21.94 W) lies above these bounds, so it needs the inset.
GOOD = """
[projection]
name = "natural-earth"
bounds = [-60.0, -40.0, 120.0, 60.0]
insets = [
  { name = "Iceland", bounds = [-30.0, 60.0, -10.0, 70.0], box = [0.0, 0.0, 0.2, 0.25] },
  { bounds = [150, -50, 160, -40], box = [0.8, 0.75, 0.2, 0.25] },
]
"""


def load(tmp_path: Path, projection: str) -> list[str]:
    """Problems of tiny.toml with ``projection`` appended (folder stripped); [] if it loads."""
    path = tmp_path / "bad.toml"
    path.write_text(TINY + projection, encoding="utf-8")
    try:
        load_map(str(path))
    except DataError as exc:
        return [p.replace(f"{tmp_path}/", "") for p in exc.problems]
    return []


def with_insets(*insets: str) -> str:
    """A valid projection whose insets are the given inline tables."""
    return '\n[projection]\nname = "natural-earth"\nbounds = [-60.0, -40.0, 120.0, 70.0]\ninsets = [\n' + "".join(
        f"  {i},\n" for i in insets
    ) + "]\n"


def test_insets_load_as_typed_data_and_json(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text(TINY + GOOD, encoding="utf-8")
    m = load_map(str(path))
    assert m.projection.bounds == (-60.0, -40.0, 120.0, 60.0)
    assert m.projection.insets == (
        Inset(bounds=(-30.0, 60.0, -10.0, 70.0), box=(0.0, 0.0, 0.2, 0.25), name="Iceland"),
        Inset(bounds=(150.0, -50.0, 160.0, -40.0), box=(0.8, 0.75, 0.2, 0.25)),
    )
    assert all(isinstance(v, float) for i in m.projection.insets for v in (*i.bounds, *i.box))
    assert m.to_json()["projection"]["insets"] == [
        {"name": "Iceland", "bounds": [-30.0, 60.0, -10.0, 70.0], "box": [0.0, 0.0, 0.2, 0.25]},
        {"name": "", "bounds": [150.0, -50.0, 160.0, -40.0], "box": [0.8, 0.75, 0.2, 0.25]},
    ]


def test_array_of_tables_form_and_no_insets(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text(
        TINY + '\n[projection]\nname = "natural-earth"\n\n[[projection.insets]]\n'
        "bounds = [-30, 60, -10, 70]\nbox = [0, 0, 0.5, 0.5]\n",
        encoding="utf-8",
    )
    assert load_map(str(path)).projection.insets == (Inset((-30.0, 60.0, -10.0, 70.0), (0.0, 0.0, 0.5, 0.5)),)
    assert load_map("world").projection.insets == ()
    assert load_map("world").to_json()["projection"]["insets"] == []


def test_city_outside_the_bounds_and_every_inset(tmp_path: Path) -> None:
    no_inset = GOOD.replace('  { name = "Iceland", bounds = [-30.0, 60.0, -10.0, 70.0], box = [0.0, 0.0, 0.2, 0.25] },\n', "")
    assert load(tmp_path, no_inset) == [
        (
            "bad.toml: cities[0]: Reykjavík at lat 64.15, lon -21.94 lies outside projection.bounds "
            "[-60, -40, 120, 60] or any projection.insets bounds"
        ),
    ]
    no_insets = no_inset[: no_inset.index("insets = [")]
    assert load(tmp_path, no_insets) == [
        "bad.toml: cities[0]: Reykjavík at lat 64.15, lon -21.94 lies outside projection.bounds [-60, -40, 120, 60]",
    ]


@pytest.mark.parametrize(
    ("insets", "problem"),
    [
        ('\n[projection]\nname = "laea"\ninsets = 3\n',
         "projection.insets: expected a list of tables ([[insets]]), got integer 3"),
        (with_insets("[0, 0, 1, 1]"), "projection.insets[0]: expected a table, got a list"),
        (with_insets("{ box = [0, 0, 0.2, 0.2] }"),
         "projection.insets[0].bounds: missing (expected [lon_min, lat_min, lon_max, lat_max])"),
        (with_insets("{ bounds = [-30, 60, -10, 70] }"),
         "projection.insets[0].box: missing (expected [x, y, w, h] as fractions of the map box)"),
        (with_insets("{ bounds = [-30, 60, -10], box = [0, 0, 0.2, 0.2] }"),
         "projection.insets[0].bounds: expected a list of 4 numbers, got [-30, 60, -10]"),
        (with_insets('{ bounds = [-30, 60, -10, 70], box = [0, 0, "0.2", 0.2] }'),
         "projection.insets[0].box: expected a list of 4 numbers, got [0, 0, '0.2', 0.2]"),
        (with_insets("{ bounds = [-30, 60, -10, 70], box = 0.2 }"),
         "projection.insets[0].box: expected a list of 4 numbers, got number 0.2"),
        (with_insets("{ bounds = [-10, 60, -30, 70], box = [0, 0, 0.2, 0.2] }"),
         "projection.insets[0].bounds: expected [lon_min, lat_min, lon_max, lat_max] with min < max"),
        (with_insets("{ bounds = [-30, 60, -10, 95], box = [0, 0, 0.2, 0.2] }"),
         "projection.insets[0].bounds: longitudes must be within -180..180 and latitudes within -90..90"),
        (with_insets("{ bounds = [-30, 60, -10, 70], box = [0, 0, 0, 0.2] }"),
         "projection.insets[0].box: width and height must be more than 0, got 0 x 0.2"),
        (with_insets("{ bounds = [-30, 60, -10, 70], box = [0.9, 0.5, 0.2, 0.5] }"),
         "projection.insets[0].box: must lie inside the map box (0..1 each way), got x 0.9..1.1, y 0.5..1"),
        (with_insets("{ bounds = [-30, 60, -10, 70], box = [-0.1, 0, 0.2, 0.2] }"),
         "projection.insets[0].box: must lie inside the map box (0..1 each way), got x -0.1..0.1, y 0..0.2"),
        (with_insets("{ bounds = [-30, 60, -10, 70], boxes = [0, 0, 0.2, 0.2] }"),
         "projection.insets[0].boxes: unknown key (did you mean 'box'?)"),
    ],
)  # fmt: skip
def test_bad_inset_is_one_clear_line(tmp_path: Path, insets: str, problem: str) -> None:
    problems = load(tmp_path, insets)
    assert problems[0] == f"bad.toml: {problem}"
    # a bad projection is reported once; the cities are not also blamed for it
    assert len(problems) == (2 if "boxes" in problem else 1), problems


def test_overlapping_insets(tmp_path: Path) -> None:
    assert load(tmp_path, with_insets(
        "{ bounds = [-30, 60, -10, 70], box = [0, 0, 0.3, 0.3] }",
        "{ bounds = [-20, 65, 0, 80], box = [0.5, 0, 0.3, 0.3] }",
        "{ bounds = [100, 0, 110, 10], box = [0.2, 0.2, 0.3, 0.3] }",
        "{ bounds = [110, 0, 120, 10], box = [0.7, 0.7, 0.3, 0.3] }",  # shares edges only: fine
    )) == [
        ("bad.toml: projection.insets[1].bounds: overlaps projection.insets[0].bounds"
         " (a place can be in only one inset)"),
        "bad.toml: projection.insets[2].box: overlaps projection.insets[0].box",
    ]  # fmt: skip
