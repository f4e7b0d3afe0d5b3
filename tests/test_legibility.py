"""Every legibility rule, measured from the ``--fields`` JSON a render writes, on every bundled map and paper.

The measures are in tests/legibility.py (plain geometry on the JSON, no
printkit code), so they check the layout check's own arithmetic too; the
rules' unit tests below hand the check small geometries it must refuse.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import legibility as L
import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.loading.maps import bundled_maps, load_map
from printkit.render import Request, render_sheet
from printkit.sheets import layoutcheck as lc
from printkit.sheets.fields import CityField, Fields, RegionField, RouteField

DATA = Path(__file__).parent / "data" / "maps"
SHEETS = [(m, p) for m in bundled_maps() for p in ("a4", "letter")]


@lru_cache(maxsize=None)
def _fields(map_id: str, paper: str, folder: str) -> str:
    target = Path(folder) / f"{map_id}-{paper}.json"
    render_sheet(Request("map", map_id, ["Ann"], paper, output=str(Path(folder) / f"{map_id}-{paper}.pdf"),
                         fields=str(target)))
    return target.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("fields"))


def doc(map_id: str, paper: str, folder: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(_fields(map_id, paper, folder))
    return out


@pytest.mark.parametrize("map_id,paper", SHEETS)
def test_no_route_passes_near_a_city_it_does_not_join(map_id: str, paper: str, folder: str) -> None:
    near = L.routes_near_circles(doc(map_id, paper, folder))
    assert [n for n in near if n[1] < L.NEAR_CIRCLE] == []


@pytest.mark.parametrize("map_id,paper", SHEETS)
def test_no_route_runs_under_a_tag(map_id: str, paper: str, folder: str) -> None:
    under = L.routes_under_tags(doc(map_id, paper, folder))
    assert [u for u in under if not u[2]] == []  # never under another city's tag
    assert [u for u in under if u[2] and u[1] > L.OWN_TAG] == []  # at most 4 pt under its own
    assert L.splits(doc(map_id, paper, folder)) == []  # nor between a city's circle and its tag


@pytest.mark.parametrize("map_id,paper", SHEETS)
def test_no_two_routes_cross(map_id: str, paper: str, folder: str) -> None:
    assert L.crossings(doc(map_id, paper, folder)) == []


@pytest.mark.parametrize("map_id,paper", SHEETS)
def test_routes_leave_a_city_at_least_20_degrees_apart(map_id: str, paper: str, folder: str) -> None:
    angles = L.route_angles(doc(map_id, paper, folder))
    assert angles and [a for a in angles if a[1] < L.ANGLE] == []


@pytest.mark.parametrize("map_id,paper", SHEETS)
def test_every_name_and_icon_is_its_own_citys(map_id: str, paper: str, folder: str) -> None:
    d = doc(map_id, paper, folder)
    assert all(c["name"] and len(c["icons"]) == len(tag_icons(map_id, c["id"])) for c in d["cities"])
    owned = L.ownership(d)
    assert [o for o in owned if o[1] < L.OWNED] == []
    # and each lies in its tag
    for c in d["cities"]:
        x0, y0, x1, y1 = c["tag"]
        for r in [c["name"], *c["icons"]]:
            assert x0 - 0.01 <= r[0] <= r[2] <= x1 + 0.01 and y0 - 0.01 <= r[1] <= r[3] <= y1 + 0.01


def tag_icons(map_id: str, city_id: str) -> list[str]:
    m = load_map(map_id)
    c = m.city(city_id)
    return ["shield"] if c.iconic else list(c.sights)


@pytest.mark.parametrize("map_id,paper", [("us", "a4"), ("us", "letter")])
def test_the_alaska_and_hawaii_routes_are_curves_clear_of_los_angeles(map_id: str, paper: str, folder: str) -> None:
    d = doc(map_id, paper, folder)
    routes = {r["id"]: r for r in d["routes"]}
    assert len(routes["anchorage-seattle"]["points"]) > 2  # drawn as a curve
    la = next(c for c in d["cities"] if c["id"] == "los-angeles")
    gap = min(L.seg_dist(tuple(la["center"]), tuple(a), tuple(b))
              for a, b in zip(routes["anchorage-seattle"]["points"], routes["anchorage-seattle"]["points"][1:]))
    assert gap - la["radius"] >= L.NEAR_CIRCLE


def test_a_crowded_custom_map_is_refused_with_its_cities_named(tmp_path: Path) -> None:
    runner = CliRunner()
    target = tmp_path / "c.pdf"
    result = runner.invoke(cli, ["render", "map", str(DATA / "crowded.toml"), "-o", str(target)])
    assert result.exit_code == 1 and not target.exists()
    assert "no room for the tag of Perth among Reykjavík, Łódź, São Paulo, Cairo" in result.stderr


@pytest.mark.parametrize("map_id,paper", SHEETS)
def test_every_region_is_an_area_holding_exactly_its_cities_and_its_name(map_id: str, paper: str,
                                                                         folder: str) -> None:
    m = load_map(map_id)
    d = doc(map_id, paper, folder)
    assert [g["id"] for g in d["regions"]] == [r.id for r in m.regions]
    for g in d["regions"]:
        assert g["cities"] == [c.id for c in m.region_cities(g["id"])]
        assert len(g["area"]) >= 8  # a drawn shape, not a box
    assert L.region_problems(d, {c.id: c.region for c in m.cities}) == []


@pytest.mark.parametrize("map_id,paper", [("europe", "a4"), ("us", "letter")])
def test_every_region_area_is_drawn_tinted_and_outlined(map_id: str, paper: str, folder: str) -> None:
    import re

    from printkit.sheets.mapregions import LOOKS

    d = doc(map_id, paper, folder)
    svg = render_svg(map_id, paper, folder)
    for k, g in enumerate(d["regions"]):  # a ground and an outline of the area, each starting at its first point
        fill, edge = LOOKS[k].fill, LOOKS[k].ink
        start = "M{:g} {:g}L".format(*g["area"][0])
        tints = re.findall(rf'<path d="({start}[^"]*)"[^>]*fill="{fill}"', svg)
        lines = re.findall(rf'<path d="({start}[^"]*)"[^>]*stroke="{edge}"', svg)
        assert len(tints) == len(lines) == 1 and tints == lines
        assert tints[0].count("L") == len(g["area"]) - 1 and tints[0].endswith("Z")
        clips = re.findall(rf'<clipPath id="(clip-[0-9a-f]+)"><path d="({start}[^"]*)"', svg)  # its pattern
        assert [d for _, d in clips] == tints and f'clip-path="url(#{clips[0][0]})"' in svg
    labels = re.findall(r'aria-label="([^"]*)"', svg)  # each name printed, on one line or two
    for g in d["regions"]:
        name = g["name"].upper()
        assert name in labels or any(f"{a} {b}" == name for a, b in zip(labels, labels[1:]))


def render_svg(map_id: str, paper: str, folder: str) -> str:
    target = Path(folder) / f"{map_id}-{paper}.svg"
    if not target.exists():
        render_sheet(Request("map", map_id, ["Ann"], paper, output=str(target)))
    return target.read_text(encoding="utf-8")


# ---------------------------------------------------------------- the rules, one by one

NAMES = {"a": "Ayr", "b": "Bree", "c": "Cork", "d": "Derry"}


def city(cid: str, x: float, y: float, tag: tuple[float, float, float, float] | None = None,
         name: tuple[float, float, float, float] | None = None) -> CityField:
    t = tag or (x + 6, y - 5, x + 40, y + 5)
    return CityField(cid, (x, y), 4.6, t, name or t, ())


def problems(*cities: CityField, routes: tuple[RouteField, ...] = ()) -> list[str]:
    return [lc.describe(p, NAMES) for p in lc.check(Fields("map", "t", "a4", 842, 595, cities, routes))]


def route(a: CityField, b: CityField, *via: tuple[float, float]) -> RouteField:
    return RouteField(a.id, b.id, (a.center, *via, b.center))


def test_a_route_grazing_a_circle_it_does_not_join_is_named() -> None:
    a, b, c = city("a", 100, 100), city("b", 300, 100), city("c", 200, 106, (150, 120, 190, 130))
    found = problems(a, b, c, routes=(route(a, b),))
    assert "Ayr and Bree and Cork: route passes 1.4 pt from the circle of the third city (need 3); " \
           "move the cities apart or drop the route" in found


def test_a_route_under_another_citys_tag_or_long_under_its_own_is_named() -> None:
    a, b = city("a", 100, 100, (110, 95, 150, 105)), city("b", 300, 100, (250, 60, 290, 70))
    c = city("c", 200, 160, (190, 96, 230, 104))  # its tag lies over the route a-b
    found = problems(a, b, c, routes=(route(a, b),))
    assert "Ayr and Bree and Cork: route runs 40.0 pt under the tag of the third city; " \
           "move the cities apart or leave one out" in found
    assert "Ayr and Bree: route runs 40.0 pt under the tag of one of its cities (at most 4); " \
           "move the cities apart or leave one out" in found


def test_crossing_routes_are_named() -> None:
    a, b = city("a", 100, 100, (60, 60, 90, 70)), city("b", 300, 300, (310, 300, 340, 310))
    c, d = city("c", 100, 300, (60, 300, 90, 310)), city("d", 300, 100, (310, 60, 340, 70))
    found = problems(a, b, c, d, routes=(route(a, b), route(c, d)))
    assert "Ayr and Bree and Cork and Derry: routes a-b and c-d cross; move the cities apart or drop a route" in found


def test_routes_leaving_a_city_too_close_in_angle_are_named() -> None:
    a, b = city("a", 100, 100, (60, 60, 90, 70)), city("b", 300, 100, (310, 60, 340, 70))
    c = city("c", 300, 150, (310, 160, 340, 170))
    found = problems(a, b, c, routes=(route(a, b), route(a, c)))
    assert "Ayr and Bree and Cork: routes leave the first city 14.0 degrees apart 12 pt out (need 20); " \
           "move the cities apart or drop a route" in found


def test_a_name_nearer_another_circle_is_named() -> None:
    a = city("a", 100, 100, (104, 90, 150, 100), name=(104, 90, 150, 100))  # name centre (127, 95)
    b = city("b", 150, 100, (160, 90, 190, 100))
    found = problems(a, b)
    assert any(f.startswith("Ayr and Bree: the first city's name is only") for f in found)


def _square(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def test_a_region_area_missing_its_city_or_holding_another_is_named() -> None:
    a, b, c = city("a", 100, 100), city("b", 200, 100), city("c", 400, 100)
    north = RegionField("north", "North", ("a", "b"), _square(80, 80, 150, 120), (90, 95, 110, 104))
    south = RegionField("south", "South", ("c",), _square(180, 60, 460, 140), (300, 95, 330, 104))
    found = [lc.describe(p, NAMES) for p in lc.check(Fields("map", "t", "a4", 842, 595, (a, b, c), (), (),
                                                            (north, south)))]
    assert "Bree: the city's circle is not wholly inside the area of its region North; " \
           "move the cities apart or leave one out" in found
    assert "Bree: the city lies inside the area of another region, South; move the cities apart or leave one out" \
        in found
    assert not any(f.startswith("Ayr:") or f.startswith("Cork:") for f in found)


def test_a_region_name_outside_its_area_is_named() -> None:
    a = city("a", 100, 100)
    north = RegionField("north", "North", ("a",), _square(80, 80, 150, 120), (140, 95, 170, 104))
    found = [lc.describe(p, NAMES) for p in lc.check(Fields("map", "t", "a4", 842, 595, (a,), (), (), (north,)))]
    assert "the name of region North is not inside its area; move the cities apart or leave one out" in found
