"""Cartographic displacement of a map sheet's cities: apart where they crowd, each route keeping its own stretch.

Cities start at their true places in the map's projection. Any two nearer
than ``APART`` are pushed apart, and the two ends of a route nearer than
``ROUTE_APART`` (too short to draw on and to read) are pushed apart along the
route, as atlases do; then any route still short of ``ROUTE_STRETCH`` of
exclusive stretch (:mod:`printkit.sheets.stretch`: another route or circle
runs close) asks for that much more length, a few times over, keeping the
best result. A city moves at most ``DISPLACE``, the ends of a crowded route
at most ``CROWDED_DISPLACE``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from printkit.model.maps import GameMap
from printkit.sheets.fields import CityField, Fields, RouteField
from printkit.sheets.layoutcheck import ROUTE_STRETCH
from printkit.sheets.mapplan import MAP_PAD
from printkit.sheets.stretch import END_MARGIN, exclusive_stretch

if TYPE_CHECKING:
    from printkit.layout.geo import MapFrame

CITY_R = 4.6
"""A city circle's radius (points)."""
APART = 2 * CITY_R + 6.0
"""Least distance between two city centres (room for their circles and tags)."""
STRETCH_SLACK = 1.0
"""Points of exclusive stretch the layout aims for beyond the layout check's ``ROUTE_STRETCH``."""
ROUTE_APART = 2 * (CITY_R + END_MARGIN) + ROUTE_STRETCH + STRETCH_SLACK
"""Least distance between two cities a route joins: its exclusive stretch between the margins of its ends."""
STRETCH_ROUNDS = 8
"""How many times the displacement is redone for routes still short of their exclusive stretch."""
DISPLACE = 12.0
"""How far (points) a city's circle may move from its true place to keep clear of another."""
CROWDED_DISPLACE = 45.0
"""How far (points) the two ends of a route too short to draw on may move, pushed apart along it."""
EDGE_ROOM = 22.0
"""How far (points) a city keeps from the map's frame where it can, so its tag fits beside it."""
Points = dict[str, tuple[float, float]]
"""Each city's point on the sheet, by city id."""


ROOM_DISPLACE = 24.0
"""How far (points) a city that asked for room for its tag may move, and its neighbours with it."""


def displaced(m: GameMap, frame: MapFrame, room: Mapping[str, float] | None = None) -> Points:
    """Each city's point, moved apart where cities crowd, until every route keeps its exclusive stretch.

    Cities move at most ``DISPLACE``; the two ends of a route too short to
    draw on (``ROUTE_APART``) up to ``CROWDED_DISPLACE``, pushed apart along
    the route. A route still short of ``ROUTE_STRETCH`` of exclusive stretch
    (another route or circle runs close) asks for that much more length.
    ``room`` asks, by city, for that much distance (points) between it and
    every other city (a city whose tag found no room), moving both up to
    ``ROOM_DISPLACE``.
    """
    from printkit.layout.displace import displace

    true: Points = {c.id: frame.point(c.lat, c.lon) for c in m.cities}
    order = {c.id: i for i, c in enumerate(m.cities)}
    linked = {(r.a, r.b) for r in m.routes} | {(r.b, r.a) for r in m.routes}
    gaps: dict[tuple[str, str], float] = {}
    for i, one in enumerate(m.cities):
        for other in m.cities[i + 1:]:
            need = ROUTE_APART if (one.id, other.id) in linked else APART
            if math.dist(true[one.id], true[other.id]) < need:
                gaps[(one.id, other.id)] = need
    bound = {c.id: DISPLACE for c in m.cities}
    for cid, need in (room or {}).items():
        for other in m.cities:
            if other.id != cid and math.dist(true[cid], true[other.id]) < need + 2 * ROOM_DISPLACE:
                pair = (cid, other.id) if order[cid] < order[other.id] else (other.id, cid)
                gaps[pair] = max(gaps.get(pair, 0.0), need)
                bound[cid] = max(bound[cid], ROOM_DISPLACE)
                bound[other.id] = max(bound[other.id], ROOM_DISPLACE)
    for a, b in gaps:
        if (a, b) in linked:
            bound[a] = bound[b] = CROWDED_DISPLACE
    e = EDGE_ROOM - MAP_PAD
    x0, y0, x1, y1 = frame.box
    keep_in = (x0 + e, y0 + e, x1 - e, y1 - e)
    points = displace(true, gaps, bound, keep_in)
    short = short_routes(m, points)
    best = (points, sum(short.values()))
    for _ in range(STRETCH_ROUNDS):
        if not short:
            break
        for (a, b), more in short.items():
            pair = (a, b) if order[a] < order[b] else (b, a)
            gaps[pair] = math.dist(points[a], points[b]) + more
            bound[a] = bound[b] = CROWDED_DISPLACE
        points = displace(true, gaps, bound, keep_in)
        short = short_routes(m, points)
        if sum(short.values()) < best[1]:
            best = (points, sum(short.values()))
    return best[0]


def short_routes(m: GameMap, points: Points) -> dict[tuple[str, str], float]:
    """The routes whose exclusive stretch is under ``ROUTE_STRETCH`` with cities at ``points``: how much they lack."""
    cities = tuple(CityField(c.id, points[c.id], CITY_R, (*points[c.id], *points[c.id])) for c in m.cities)
    routes = tuple(RouteField(r.a, r.b, (points[r.a], points[r.b])) for r in m.routes)
    sketch = Fields("map", m.id, "", 0.0, 0.0, cities, routes)
    out: dict[tuple[str, str], float] = {}
    for r in routes:
        stretch = exclusive_stretch(r, sketch)
        if stretch < ROUTE_STRETCH + STRETCH_SLACK:
            out[(r.a, r.b)] = ROUTE_STRETCH + 2 * STRETCH_SLACK - stretch
    return out
