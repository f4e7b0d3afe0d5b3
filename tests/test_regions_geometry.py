"""Region areas (printkit.layout.regions) measured on the bundled maps' real city positions and on hard cases.

The checks here are plain geometry of their own (even-odd point in polygon,
distances to edges, edge crossings), so they check the module's arithmetic too.
"""

from __future__ import annotations

import json
import math
import random
import time
import tomllib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import pytest

from printkit.layout.regions import Area, region_areas
from printkit.registry import build_sheet
from printkit.sheets.fields import dumps

Pt = tuple[float, float]
Box = tuple[float, float, float, float]
MAPS = Path(__file__).resolve().parent.parent / "maps"
ATW = ["europe", "us", "south-america", "world"]
OWN_IN, OTHER_OUT = 8.0, 6.0


def even_odd(p: Pt, ring: Sequence[Pt]) -> bool:
    """Whether ``p`` is inside the ring by the even-odd rule."""
    hit = False
    for i, (ax, ay) in enumerate(ring):
        bx, by = ring[i - 1]
        if (ay > p[1]) != (by > p[1]) and p[0] < ax + (p[1] - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


def seg_dist(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def edges(ring: Sequence[Pt]) -> list[tuple[Pt, Pt]]:
    return [(ring[i - 1], ring[i]) for i in range(len(ring))]


def edge_dist(p: Pt, ring: Sequence[Pt]) -> float:
    return min(seg_dist(p, a, b) for a, b in edges(ring))


def crosses(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    """Whether segments a-b and c-d cross or touch."""
    def orient(p: Pt, q: Pt, r: Pt) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return o1 * o2 <= 0 and o3 * o4 <= 0 and not (o1 == o2 == 0)


def self_crossings(ring: Sequence[Pt]) -> list[tuple[int, int]]:
    """Pairs of non-adjacent edges that cross."""
    es = edges(ring)
    n = len(es)
    return [(i, j) for i in range(n) for j in range(i + 2, n) if not (i == 0 and j == n - 1)
            and crosses(*es[i], *es[j])]


def ring_gap(r: Sequence[Pt], s: Sequence[Pt]) -> float:
    """Least distance between two rings (0 if they cross or one holds the other)."""
    if any(crosses(*e, *f) for e in edges(r) for f in edges(s)) or even_odd(r[0], s) or even_odd(s[0], r):
        return 0.0
    return min(min(edge_dist(p, s) for p in r), min(edge_dist(p, r) for p in s))


def turn(ring: Sequence[Pt], i: int) -> float:
    """Degrees the ring turns at point ``i``."""
    a, b, c = ring[i - 1], ring[i], ring[(i + 1) % len(ring)]
    h1, h2 = math.atan2(b[1] - a[1], b[0] - a[0]), math.atan2(c[1] - b[1], c[0] - b[0])
    return abs(math.degrees((h2 - h1 + math.pi) % (2 * math.pi) - math.pi))


def check(cities: Sequence[tuple[str | None, Pt]], box: Box, areas: dict[str, Area], gap: float = 3.0,
          keep_out: Sequence[Box] = ()) -> None:
    """Every rule of an area: its cities well inside, others' well outside, one simple ring, apart, spots."""
    regions = sorted({r for r, _ in cities if r is not None})
    assert sorted(areas) == regions
    for rid, area in areas.items():
        ring = area.polygon
        assert 12 <= len(ring) <= 120, (rid, len(ring))
        assert self_crossings(ring) == [], rid
        assert all(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in ring), rid
        for r, p in cities:
            if r == rid:
                assert even_odd(p, ring) and edge_dist(p, ring) >= OWN_IN, (rid, p, edge_dist(p, ring))
            elif r is not None:
                assert not even_odd(p, ring) and edge_dist(p, ring) >= OTHER_OUT, (rid, r, p)
        own = [p for r, p in cities if r == rid]
        for k in keep_out:
            holds = all(k[0] < x < k[2] and k[1] < y < k[3] for x, y in own)
            corners = [(k[0], k[1]), (k[2], k[1]), (k[2], k[3]), (k[0], k[3])]
            if holds:
                assert all(k[0] <= x <= k[2] and k[1] <= y <= k[3] for x, y in ring), (rid, k)
            elif not any(k[0] < x < k[2] and k[1] < y < k[3] for x, y in own):
                assert not any(k[0] < x < k[2] and k[1] < y < k[3] for x, y in ring), (rid, k)
                assert not any(even_odd(c, ring) for c in corners), (rid, k)
        check_spots(rid, area, own)
    for i, a in enumerate(regions):
        for b in regions[i + 1:]:
            assert ring_gap(areas[a].polygon, areas[b].polygon) >= gap - 0.01, (a, b)


def check_spots(rid: str, area: Area, own: Sequence[Pt]) -> None:
    """Spots inside, with their true depths, deepest band first, then nearest the cities' centroid."""
    assert len(area.spots) == len(area.depths) >= 1
    assert area.depths[0] >= 6.0, rid
    centroid = (sum(x for x, _ in own) / len(own), sum(y for _, y in own) / len(own))
    keys = []
    for p, d in zip(area.spots, area.depths):
        assert even_odd(p, area.polygon), (rid, p)
        assert abs(edge_dist(p, area.polygon) - d) < 0.01, (rid, p, d)
        keys.append((-math.floor(d / 4.0), math.dist(p, centroid)))
    assert keys == sorted(keys), rid


@lru_cache(maxsize=None)
def atw_cities(map_id: str) -> tuple[tuple[tuple[str | None, Pt], ...], Box, tuple[Box, ...]]:
    """A map's (region, centre) per city from its A4 sheet's --fields, the frame round them, its insets' boxes."""
    doc = json.loads(dumps(build_sheet("map", map_id, ["Ann"], "a4").geometry))  # type: ignore[arg-type]
    data = tomllib.loads((MAPS / f"{map_id}.toml").read_text(encoding="utf-8"))
    region = {c["id"]: c.get("region") for c in data["cities"]}
    cities = tuple((region[c["id"]], (float(c["center"][0]), float(c["center"][1]))) for c in doc["cities"])
    xs = [v for c in doc["cities"] for v in (c["center"][0], c["tag"][0], c["tag"][2])]
    ys = [v for c in doc["cities"] for v in (c["center"][1], c["tag"][1], c["tag"][3])]
    box = (min(xs) - 20, min(ys) - 20, max(xs) + 20, max(ys) + 20)
    w, h = box[2] - box[0], box[3] - box[1]
    insets = tuple((box[0] + fx * w, box[1] + fy * h, box[0] + (fx + fw) * w, box[1] + (fy + fh) * h)
                   for fx, fy, fw, fh in (i["box"] for i in data["projection"].get("insets", ())))
    return cities, box, insets


@pytest.mark.parametrize("map_id", ATW)
def test_bundled_maps_regions_hold_exactly_their_cities(map_id: str) -> None:
    cities, box, insets = atw_cities(map_id)
    areas = region_areas(cities, box, keep_out=insets)
    check(cities, box, areas, keep_out=insets)
    assert len(areas) == len(tomllib.loads((MAPS / f"{map_id}.toml").read_text(encoding="utf-8"))["regions"])


@pytest.mark.parametrize("map_id", ATW)
def test_bundled_maps_areas_are_soft(map_id: str) -> None:
    """No staircase: the ring turns gently at every point (a blob, not a grid's outline)."""
    cities, box, insets = atw_cities(map_id)
    for rid, area in region_areas(cities, box, keep_out=insets).items():
        turns = [turn(area.polygon, i) for i in range(len(area.polygon))]
        assert max(turns) < 60, (rid, max(turns))
        assert sum(t > 30 for t in turns) <= 4, (rid, sorted(turns)[-6:])


def test_us_insets_hold_only_cities_of_no_region() -> None:
    """Alaska and Hawaii hold only shield cities (no region): every area stays out of both (checked in ``check``)."""
    cities, box, insets = atw_cities("us")
    assert len(insets) == 2
    assert [r for r, p in cities if any(k[0] < p[0] < k[2] and k[1] < p[1] < k[3] for k in insets)] == [None, None]
    check(cities, box, region_areas(cities, box, keep_out=insets), keep_out=insets)


def test_same_input_same_floats() -> None:
    cities, box, insets = atw_cities("europe")
    assert region_areas(cities, box, keep_out=insets) == region_areas(list(cities), box, keep_out=list(insets))


def test_a_city_ringed_by_another_region() -> None:
    """B's city inside a ring of A's: A's ring is opened by a channel (one simple ring), B keeps its own area."""
    ring = [("a", (200 + 62 * math.cos(k * math.pi / 4), 170 + 62 * math.sin(k * math.pi / 4))) for k in range(8)]
    cities: list[tuple[str | None, Pt]] = [*ring, ("b", (200.0, 170.0)), (None, (330.0, 60.0))]
    box = (0.0, 0.0, 400.0, 340.0)
    areas = region_areas(cities, box)
    check(cities, box, areas)
    # the channel is narrow: A still goes round B on (nearly) every side
    seen = sum(any(even_odd((200 + r * math.cos(k * math.pi / 18), 170 + r * math.sin(k * math.pi / 18)),
                            areas["a"].polygon) for r in range(40, 80, 2)) for k in range(36))
    assert seen >= 33


def test_far_cities_joined_by_a_bridge_round_a_stranger() -> None:
    """Two far-apart A cities with a B city between them: one A area, its band bending round B's city."""
    cities: list[tuple[str | None, Pt]] = [("a", (60.0, 170.0)), ("a", (340.0, 170.0)), ("b", (200.0, 170.0))]
    box = (0.0, 0.0, 400.0, 340.0)
    areas = region_areas(cities, box)
    check(cities, box, areas)
    a = areas["a"].polygon
    column = [y for y in range(0, 341, 1) if even_odd((200.0, float(y)), a)]
    assert column and (min(column) > 170 + 20 or max(column) < 170 - 20)  # the band passes B well clear
    assert max(column) - min(column) >= 10  # and is at least 10 pt wide


def test_a_region_inside_an_inset_stays_inside_it() -> None:
    inset = (20.0, 210.0, 150.0, 320.0)
    cities: list[tuple[str | None, Pt]] = [("c", (60.0, 255.0)), ("c", (105.0, 280.0)), ("d", (178.0, 250.0)),
                                           ("d", (220.0, 220.0)), ("e", (80.0, 120.0)), (None, (120.0, 300.0))]
    box = (0.0, 0.0, 400.0, 340.0)
    areas = region_areas(cities, box, keep_out=[inset])
    check(cities, box, areas, keep_out=[inset])
    # D's disc would reach into the inset: it is cut at the inset's edge instead
    assert min(x for x, _ in areas["d"].polygon) >= inset[2]


def test_gap_is_kept_as_asked() -> None:
    cities: list[tuple[str | None, Pt]] = [("a", (100.0, 100.0)), ("a", (140.0, 120.0)), ("b", (170.0, 90.0)),
                                           ("b", (200.0, 130.0)), ("c", (130.0, 160.0))]
    box = (0.0, 0.0, 300.0, 240.0)
    for gap in (3.0, 8.0):
        check(cities, box, region_areas(cities, box, gap=gap), gap=gap)


def test_no_regions_no_areas() -> None:
    assert region_areas([(None, (10.0, 10.0))], (0.0, 0.0, 100.0, 100.0)) == {}


def fifty(seed: int = 7) -> list[tuple[str | None, Pt]]:
    """50 cities at least 34 pt apart on a 520 x 340 pt box, in 10 regions by nearness."""
    rnd = random.Random(seed)
    pts: list[Pt] = []
    while len(pts) < 50:
        p = (rnd.uniform(30, 490), rnd.uniform(30, 310))
        if all(math.dist(p, q) >= 34 for q in pts):
            pts.append(p)
    seeds = pts[:10]
    return [(f"r{min(range(10), key=lambda k: math.dist(p, seeds[k]))}", p) for p in pts]


def test_fifty_cities_fast_and_right() -> None:
    cities, box = fifty(), (0.0, 0.0, 520.0, 340.0)
    areas = region_areas(cities, box)
    check(cities, box, areas)
    best = math.inf
    for _ in range(3):
        t = time.process_time()
        region_areas(cities, box)
        best = min(best, time.process_time() - t)
    assert best < 0.25  # about 20-30 ms on one free core; generous for a busy test machine
