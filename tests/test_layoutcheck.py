"""The map sheet's layout check: thresholds, the cities it names, bundled maps pass, crowded maps are refused."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import layoutcheck as lc
from printkit.sheets import mapsheet
from printkit.sheets.fields import CityField, Fields, RouteField
from printkit.sheets.stretch import exclusive_stretch

DATA = Path(__file__).parent / "data" / "maps"
CROWDED = DATA / "crowded.toml"
CROWDED_MESSAGE = (f"Error: {CROWDED}: map sheet: no room for the tag of Perth among Reykjavík, Łódź, São Paulo, "
                   "Cairo; move these cities apart or leave one out\n")
INLINE = DATA / "inline.toml"
K5 = DATA / "k5.toml"
K5_CROSSING = "Cairo and Reykjavík and Łódź and São Paulo: routes cairo-reykjavik and lodz-sao-paulo cross; " \
              "move the cities apart or drop a route"
K5_MESSAGE = "".join(f"Error: {K5}: map sheet (Letter): {c}\n" for c in (
    K5_CROSSING,
    "Perth and Reykjavík and Łódź and São Paulo: routes perth-reykjavik and lodz-sao-paulo cross; "
    "move the cities apart or drop a route",
    "Perth and Reykjavík and Cairo and São Paulo: routes perth-reykjavik and cairo-sao-paulo cross; "
    "move the cities apart or drop a route"))
"""Five cities, every pair joined: no drawing parts all ten routes (K5 is not planar)."""
NAMES = {"a": "Ayr", "b": "Bree", "c": "Cork"}


def city(cid: str, x: float, y: float, tag: tuple[float, float, float, float] | None = None) -> CityField:
    return CityField(cid, (x, y), 4.6, tag or (x + 6, y - 5, x + 40, y + 5))


def fields(*cities: CityField, routes: tuple[RouteField, ...] = ()) -> Fields:
    return Fields("map", "t", "a4", 842, 595, cities, routes)


def described(f: Fields, sizes: tuple[tuple[str, float], ...] = ()) -> list[str]:
    return [lc.describe(p, NAMES) for p in lc.check(f, sizes)]


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("map_id", bundled_maps())
def test_every_bundled_map_sheet_passes(map_id: str, paper: str) -> None:
    m = load_map(map_id)
    assert mapsheet.layout_problems(m, paper) == []
    f = mapsheet.sheet_fields(m, paper)
    assert lc.check(f) == []
    # the thresholds hold with room to spare nowhere needed: measure them directly too
    for r in f.routes:
        assert lc.visible_length(r, f) >= lc.ROUTE_VISIBLE
        assert exclusive_stretch(r, f) >= lc.ROUTE_STRETCH  # room to draw it and to read it (issue 12)


def test_a_clear_sheet_has_no_problems() -> None:
    f = fields(city("a", 100, 100), city("b", 100, 150), routes=(RouteField("a", "b", ((100, 100), (100, 150))),))
    assert described(f) == []


def test_a_route_without_12_pt_to_itself_is_named() -> None:
    # 40 pt between the centres: 40 - 2 x (4.6 + 10) = 10.8 pt of line clear of both ends
    f = fields(city("a", 100, 100), city("b", 100, 140), routes=(RouteField("a", "b", ((100, 100), (100, 140))),))
    assert described(f) == ["Ayr and Bree: route keeps 10.8 pt of line to itself (10 pt past its circles, 6 pt from "
                            "other routes and circles; need 12); move the cities apart or drop the route"]


def test_maps_validate_refuses_a_map_whose_routes_must_cross(runner: CliRunner) -> None:
    check = runner.invoke(cli, ["maps", "validate", str(K5)])
    assert check.exit_code == 1
    assert f"Error: {K5}: map sheet (A4): {K5_CROSSING}\n" in check.stderr
    assert f"Error: {K5}: map sheet (Letter): {K5_CROSSING}\n" in check.stderr


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_routes_along_each_other_are_parted_by_a_curve(paper: str) -> None:
    # three cities on one parallel: the outer cities' route bends round the middle one, clear of its circle and tag
    f = mapsheet.sheet_fields(load_map(str(INLINE)), paper)
    outer = next(r for r in f.routes if {r.a, r.b} == {"reykjavik", "fish"})
    middle = f.city("lodz")
    assert len(outer.points) > 2 and lc.check(f) == []
    assert min(math.dist(middle.center, p) for p in outer.points) > middle.radius + 3


def test_circles_closer_than_3_pt_are_named() -> None:
    f = fields(city("a", 100, 100, (60, 80, 90, 90)), city("b", 111.5, 100, (120, 110, 150, 120)))
    assert described(f) == ["Ayr and Bree: circles 2.3 pt apart edge to edge (need 3); "
                            "move the cities apart or leave one out"]


def test_a_route_hidden_by_a_tag_is_named() -> None:
    f = fields(city("a", 100, 100, (60, 80, 90, 90)), city("b", 100, 140, (110, 135, 150, 145)),
               city("c", 200, 200, (92, 104, 108, 136)),
               routes=(RouteField("a", "b", ((100, 100), (100, 140))),))
    assert "Ayr and Bree: route shows 0.0 pt outside circles and tags (need 8); " \
           "move the cities apart or drop the route" in described(f)
    assert lc.visible_length(f.routes[0], f) == pytest.approx(0.0)


def test_a_tag_nearer_another_city_or_over_it_is_named() -> None:
    near = fields(city("a", 100, 100, (140, 95, 170, 105)), city("b", 180, 100, (190, 95, 220, 105)))
    assert described(near) == ["Ayr and Bree: tag is as near the other city's circle as its own; move the cities apart"]
    over = fields(city("a", 100, 100, (106, 95, 185, 105)), city("b", 180, 100, (150, 110, 170, 120)))
    assert "Ayr and Bree: tag lies over the other city's circle; move the cities apart" in described(over)


def test_overlapping_tags_and_covered_route_ends_are_named() -> None:
    f = fields(city("a", 100, 100, (106, 95, 140, 105)), city("b", 100, 130, (106, 100, 140, 110)))
    assert "Ayr and Bree: tags overlap; move the cities apart" in described(f)
    g = fields(city("a", 100, 100, (94, 106, 104, 116)), city("b", 100, 160, (106, 155, 140, 165)),
               city("c", 60, 100, (20, 95, 50, 105)),
               routes=(RouteField("a", "b", ((100, 100), (100, 160))),))
    assert "Cork and Ayr: tag covers the end of route a-b at the other city; move the cities apart" not in described(g)
    h = fields(city("a", 100, 100, (60, 80, 90, 90)), city("b", 100, 160, (106, 155, 140, 165)),
               city("c", 80, 115, (96, 106, 116, 112)),
               routes=(RouteField("a", "b", ((100, 100), (100, 160))),))
    assert "Cork and Ayr: tag covers the end of route a-b at the other city; move the cities apart" in described(h)


def test_text_under_7_5_pt_is_named() -> None:
    assert described(fields(), (("Hawaii", 7.0), ("Ok", 7.5))) == ["text 'Hawaii' is 7.0 pt (need 7.5); shorten it"]


@pytest.mark.parametrize("data, message", [(CROWDED, CROWDED_MESSAGE), (K5, K5_MESSAGE)],
                         ids=["crowded", "routes that must cross"])
def test_render_refuses_a_map_that_fails_the_layout_check(runner: CliRunner, tmp_path: Path, data: Path,
                                                          message: str) -> None:
    target = tmp_path / "c.pdf"
    result = runner.invoke(cli, ["render", "map", str(data), "-o", str(target), "--paper", "letter"])
    assert result.exit_code == 1
    assert result.stderr == message
    assert not target.exists()


def test_maps_validate_runs_the_layout_check(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps", "validate", str(CROWDED), "maps/us.toml"])
    assert result.exit_code == 1
    assert result.stderr == CROWDED_MESSAGE  # told once for both papers
    assert result.stdout == "OK maps/us.toml: Around the US (6 regions, 22 cities, 28 routes)\n"


def test_printed_names_descenders_clear_the_name_rule() -> None:
    from printkit.layout import fonts
    from printkit.layout.boxes import flatten
    from printkit.layout.primitives import Line, Text

    doc = mapsheet.build(load_map("world"), ["Jiggly Pygmy Quaypoint"], "a4")
    items = flatten(doc.pages[0].items, doc.forms)
    (name,) = [i for i in items if isinstance(i, Text) and i.text.startswith("Jiggly")]
    rule = min((i for i in items if isinstance(i, Line) and i.y1 == i.y2 and i.y1 > name.y and i.x1 <= name.x),
               key=lambda i: i.y1 - name.y)
    assert name.y + fonts.descent(name.size, "bold") < rule.y1 - rule.style.width / 2
