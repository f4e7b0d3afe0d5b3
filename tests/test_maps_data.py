"""The four bundled maps: the rulebook's structure, real places, sensible routes."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from printkit.loading.maps import bundled_maps, load_map
from printkit.model.maps import City, GameMap

MAPS = ("world", "us", "europe", "south-america")

# Longest great-circle route allowed per map (km): a little above the longest
# route each map needs (World: Tokyo - Auckland 8,840; US: Anchorage - Honolulu
# 4,481; Europe: Reykjavík - Oslo 1,747; South America: Santiago - Ushuaia 2,381).
MAX_ROUTE_KM = {"world": 9000, "us": 4600, "europe": 1800, "south-america": 2500}
# A route may not pass (almost) through another city: going via any third city
# must be at least 3% longer than the route itself.
DETOUR = 1.03


def km(a: City, b: City) -> float:
    """Great-circle distance in km on a 6371 km sphere."""
    p1, p2, dl = math.radians(a.lat), math.radians(b.lat), math.radians(b.lon - a.lon)
    cos = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    return 6371.0 * math.acos(max(-1.0, min(1.0, cos)))


@pytest.fixture(scope="module", params=MAPS)
def m(request: pytest.FixtureRequest) -> GameMap:
    return load_map(request.param)


def test_bundled_list() -> None:
    assert bundled_maps() == MAPS


def test_every_city_has_two_routes_and_graph_is_connected(m: GameMap) -> None:
    degree = Counter(c for r in m.routes for c in (r.a, r.b))
    assert min(degree[c.id] for c in m.cities) >= 2
    seen, todo = {m.cities[0].id}, [m.cities[0].id]
    while todo:
        for n in m.neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == {c.id for c in m.cities}
    assert len(set(m.routes)) == len(m.routes)


def test_routes_are_sensible_geography(m: GameMap) -> None:
    for r in m.routes:
        a, b = m.city(r.a), m.city(r.b)
        assert km(a, b) <= MAX_ROUTE_KM[m.id], (a.name, b.name)
        assert abs(a.lon - b.lon) < 180, f"{a.name} - {b.name} crosses the 180th meridian"
        for c in m.cities:
            if c.id not in (r.a, r.b):
                assert km(a, c) + km(c, b) >= DETOUR * km(a, b), f"{a.name} - {b.name} passes through {c.name}"


def test_cities_inside_sheet_bounds(m: GameMap) -> None:
    areas = (m.projection.bounds, *(i.bounds for i in m.projection.insets))
    for c in m.cities:
        assert sum(lon0 <= c.lon <= lon1 and lat0 <= c.lat <= lat1 for lon0, lat0, lon1, lat1 in areas) >= 1, c.name


def test_collect_is_four_souvenirs_by_three(m: GameMap) -> None:
    assert len(m.collect.kinds) == 4
    assert (m.collect.boxes, m.collect.row_points, m.collect.column_points) == (3, (0, 0, 0, 6), 4)
    assert all(len(r.souvenirs) == 2 for r in m.regions)


def test_shared_facts(m: GameMap) -> None:
    assert m.speed_bonus == 3
    assert m.solo.turns == 20
    assert [(r.min_points, r.title) for r in m.solo.ratings][:2] == [(70, "The Perfect Vacation"), (60, "Timeless Trip")]
    assert m.solo.rating(19) == "Did You Lose Your Passport?"
    assert m.solo.rating(20) == "Horrible Holiday"


def test_world() -> None:
    m = load_map("world")
    assert [r.id for r in m.regions] == ["north-america", "south-america", "europe", "africa", "asia", "oceania"]
    assert all(len(m.region_cities(r.id)) == 3 for r in m.regions)
    assert [k.name for k in m.collect.kinds] == ["Mugs", "Clothes", "Postcards", "Textiles"]
    (sights,) = m.explore
    assert sights.kind_ids == ("culture", "history", "nature", "food")
    assert (sights.boxes, sights.row_points, sights.column_points) == (5, (0, 1, 2, 4, 6, 9), 5)
    assert all(len(c.sights) == 2 for c in m.cities)
    assert m.region_scoring.mode == "table" and m.region_scoring.table == (0, 2, 4, 7, 11, 16, 21)
    assert m.end_cities_per_region == 1
    assert m.projection.name == "natural-earth" and m.projection.outline == "world"
    assert m.city("cairo").lat == pytest.approx(30.04) and m.city("cairo").region == "africa"


def test_us() -> None:
    m = load_map("us")
    assert len(m.regions) == 6 and all(len(m.region_cities(r.id)) == 3 for r in m.regions)
    assert [c.name for c in m.iconic_cities] == ["Anchorage", "Honolulu", "Washington, D.C.", "San Juan"]
    for c in m.iconic_cities:
        assert c.region is None and c.sights == () and not c.can_start
        assert len(m.neighbours(c.id)) == 2
    assert all(c.can_start for c in m.cities if not c.iconic)
    assert [k.name for k in m.collect.kinds] == ["Sauce", "Candy", "Jewelry", "Keychains"]
    assert m.iconic_table == (0, 2, 5, 9, 15)
    assert (m.region_scoring.mode, m.region_scoring.points) == ("per_region", 3)
    p = m.projection
    assert (p.name, p.parallels, p.center_lat, p.center_lon, p.outline) == ("albers", (29.5, 45.5), 37.5, -96.0, "us-states")
    assert p.bounds == (-125.0, 17.5, -64.0, 49.5)
    assert [i.bounds for i in p.insets] == [(-170.0, 51.0, -129.0, 72.0), (-161.0, 18.5, -154.5, 22.5)]


def _inside(pt: tuple[float, float], box: tuple[float, float, float, float], margin: float = 0.0) -> bool:
    x, y, w, h = box
    return x + margin <= pt[0] <= x + w - margin and y + margin <= pt[1] <= y + h - margin


def _route_clearance(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
    """Distance from page point p to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


@pytest.mark.parametrize("size", [(500.0, 300.0), (480.0, 330.0)])  # about the A4 and Letter map boxes
def test_us_sheet_places_every_city_in_the_frame_or_its_inset(size: tuple[float, float]) -> None:
    from printkit.layout.geo import MapFrame, outline

    m = load_map("us")
    w, h = size
    frame = MapFrame(m.projection, 0.0, 0.0, w, h)
    alaska, hawaii = frame.inset_boxes
    pts = {c.id: frame.point(c.lat, c.lon) for c in m.cities}
    assert all(_inside(p, (0.0, 0.0, w, h), margin=5.0) for p in pts.values())  # a city circle fits
    assert _inside(pts["anchorage"], alaska, margin=5.0)
    assert _inside(pts["honolulu"], hawaii, margin=5.0)
    for c in m.cities:  # San Juan, Washington D.C. and the 18 others: mainland frame, under no inset
        if c.id not in ("anchorage", "honolulu"):
            assert _inside(pts[c.id], frame.content), c.name
            assert not any(_inside(pts[c.id], (x - 5, y - 5, bw + 10, bh + 10)) for x, y, bw, bh in (alaska, hawaii))
    # Seattle/San Francisco to Boston spans 65% of the width (about 40% with Alaska and Hawaii in one frame)
    xs = [pts[c.id][0] for c in m.cities if c.region is not None]
    assert max(xs) - min(xs) > 0.6 * w
    # no mainland coast under an inset box: land rings outside both insets' bounds stay clear of them
    main = MapFrame(m.projection, 0.0, 0.0, w, h, insets=())
    for ring in outline("us-states")["rings"]:
        lonlat = list(zip(ring[0::2], ring[1::2]))
        if any(all(i.bounds[0] <= lo <= i.bounds[2] and i.bounds[1] <= la <= i.bounds[3] for lo, la in lonlat)
               for i in m.projection.insets):
            continue
        assert not any(_inside(main.point(la, lo), box) for lo, la in lonlat for box in (alaska, hawaii))
    # the long routes out of the insets pass no third city (circle radius 4.6 pt) too closely
    for r in m.routes:
        if {r.a, r.b} & {"anchorage", "honolulu"}:
            for c in m.cities:
                if c.id not in (r.a, r.b):
                    assert _route_clearance(pts[r.a], pts[r.b], pts[c.id]) > 6.5, (r, c.name)


def test_europe() -> None:
    m = load_map("europe")
    assert len(m.cities) == 18 and len(m.regions) == 4
    assert all(r.reward is not None for r in m.regions)
    assert {r.id: r.reward for r in m.regions} == {
        "northern-europe": 8, "western-europe": 6, "central-europe": 7, "southern-europe": 9,
    }  # fmt: skip
    assert (m.region_scoring.mode, m.region_scoring.tied) == ("majority", 2)
    assert [k.name for k in m.collect.kinds] == ["Ornaments", "Statues", "Chocolate", "Ale"]
    assert m.end_cities_per_region == 2
    assert {"Reykjavík", "Łódź", "İstanbul", "Brașov"} <= {c.name for c in m.cities}
    assert (m.projection.name, m.projection.center_lat, m.projection.center_lon) == ("laea", 52.0, 10.0)


def test_south_america_animals() -> None:
    m = load_map("south-america")
    assert [k.name for k in m.collect.kinds] == ["Hats", "Emeralds", "Bags", "Coffee"]
    common, uncommon, rare = m.explore
    shown = Counter(s for c in m.cities for s in c.sights)
    assert all(shown[k] == 5 for k in common.kind_ids)
    assert all(shown[k] == 3 for k in uncommon.kind_ids)
    assert all(shown[k] == 1 for k in rare.kind_ids)
    assert all(len(c.sights) == 2 for c in m.cities)
    assert (common.boxes, common.row_points, common.majority) == (5, (0, 1, 2, 3, 4, 5), common.majority)
    assert common.majority is not None and (common.majority.most, common.majority.tied) == (5, 2)
    assert (uncommon.row_points, uncommon.column_points) == ((0, 1, 2, 4, 6, 9), 4)
    assert (rare.boxes, rare.row_points, rare.first_bonus) == (1, (0, 3), 2)
    assert m.region_scoring.table == (0, 2, 4, 7, 11)  # the World table for this map's 4 regions
    assert m.end_cities_per_region == 2
    assert {"São Paulo", "Bogotá", "Asunción", "Medellín", "Belém", "Brasília"} <= {c.name for c in m.cities}


def test_json_is_whole_and_stable() -> None:
    doc = load_map("world").to_json()
    assert list(doc) == [
        "id", "name", "regions", "cities", "iconic_cities", "routes", "collect", "explore", "region_scoring",
        "iconic_table", "end", "speed_bonus", "solo", "projection",
    ]  # fmt: skip
    assert doc["regions"][3] == {
        "id": "africa", "name": "Africa", "cities": ["cairo", "lagos", "cape-town"],
        "souvenirs": ["textiles", "clothes"], "reward": None,
    }  # fmt: skip
    assert doc["cities"][9] == {
        "id": "cairo", "name": "Cairo", "lat": 30.04, "lon": 31.24, "region": "africa",
        "sights": ["history", "nature"], "iconic": False,
    }  # fmt: skip
    assert ["cairo", "lagos"] in doc["routes"]
    assert doc["collect"]["kinds"][0] == {"id": "mugs", "name": "Mugs", "icon": "mug"}
    assert doc["end"] == {"cities_per_region": 1}


def test_every_kind_icon_is_drawable(m: GameMap) -> None:
    from printkit.layout.icons import icon_names

    names = set(icon_names())
    missing = [k.icon for t in m.tracks for k in t.kinds if k.icon not in names]
    assert missing == []


@pytest.mark.parametrize("name", ["world", "us", "europe"])
def test_sights_are_balanced(name: str) -> None:
    m = load_map(name)
    assert Counter(s for c in m.cities for s in c.sights) == {"culture": 9, "history": 9, "nature": 9, "food": 9}
