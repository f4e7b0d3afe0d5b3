"""Fitting a map's cities, routes and tags together until the sheet reads clearly.

Each round displaces the cities (:mod:`printkit.sheets.displacement`), shapes
the routes (:mod:`printkit.sheets.routeshape`: straight, or a gentle curve),
places every city's tag (:mod:`printkit.sheets.citytags`) and runs the layout
check (:mod:`printkit.sheets.layoutcheck`). What fails asks for the next
round to do better:

- a tag that finds no room clear of the routes is kept free, and the routes
  are bent round it;
- a tag that still finds none, a tag that finds no room at all, or a city the
  check names (a route too short to itself, a name too near another circle)
  asks for room: its city is moved apart from the others, ``ROOM_STEP``
  further each time.

After ``ROUNDS`` the round with the fewest problems is kept (the check then
names what is still wrong), or, when no round placed every tag,
:class:`NoRoom` is raised.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from printkit.layout.boxes import Box, corners
from printkit.layout.common import LayoutError
from printkit.layout.labels import LabelPlacer
from printkit.layout.primitives import Item
from printkit.model.maps import City, GameMap
from printkit.sheets.citytags import Tag, TagPlacer
from printkit.sheets.displacement import CITY_R, Points, displaced
from printkit.sheets.fields import CityField, Fields, Rect4, RouteField
from printkit.sheets.layoutcheck import check
from printkit.sheets.routeshape import Bend, Pt, shaped

if TYPE_CHECKING:
    from printkit.layout.geo import MapFrame

ROUNDS = 8
"""How many rounds of displacing, shaping, tagging and checking a map gets."""
ROOM_STEP = 8.0
"""How much further (points) a city asking for room is moved from the others each round."""
NUDGE = 3.0
"""How much further (points) a city the layout check names is moved from the others."""
CROWD = 45.0
"""Cities nearer than this (points) crowd each other: they get their tags first."""
CASING_PAD = 1.7
"""Half a route's white casing and 0.3 pt: how far labels keep from a route's line."""


class NoRoom(LayoutError):
    """A city's tag finds no room on the map."""

    def __init__(self, message: str, city: str) -> None:
        super().__init__(message)
        self.city = city


class Fit(NamedTuple):
    """A map's cities, routes and tags, fitted: where each is and what placed them."""

    points: Points
    lines: list[tuple[Pt, ...]]
    bends: list[Bend]
    tags: dict[str, Tag]
    placer: LabelPlacer
    framed: list[Item]


def _nearest(points: Points, city: str) -> float:
    """The distance (points) from ``city`` to the nearest other city."""
    return min(math.dist(points[city], p) for cid, p in points.items() if cid != city)


def fields_of(m: GameMap, fit: Fit) -> tuple[list[CityField], list[RouteField]]:
    """The cities and routes of a fitted map, as the sheet's geometry gives them."""
    cities = [CityField(c.id, fit.points[c.id], CITY_R, corners(fit.tags[c.id].box), corners(fit.tags[c.id].name),
                        tuple(corners(i) for i in fit.tags[c.id].icons)) for c in m.cities]
    routes = [RouteField(r.a, r.b, pts) for r, pts in zip(m.routes, fit.lines)]
    return cities, routes


def fitted(m: GameMap, frame: MapFrame, box: Box, framing: Callable[[LabelPlacer], list[Item]]) -> Fit:
    """Cities, routes and tags of ``m`` in ``frame`` (the map's ``box``), fitted round by round.

    ``framing`` draws what labels must keep off before any is placed (the insets) and returns it.
    """
    area = box.grow(-3)
    insets = [(x, y, x + w, y + h) for x, y, w, h in frame.inset_boxes]
    keep: dict[str, Rect4] = {}
    room: dict[str, float] = {}
    bends: list[Bend] = []
    best: tuple[int, Fit] | None = None
    for attempt in range(ROUNDS):
        last = attempt == ROUNDS - 1
        points = displaced(m, frame, room)
        lines, bends = shaped(points, [(r.a, r.b) for r in m.routes], CITY_R,
                              corners(area), insets, keep, bends)
        placer = LabelPlacer(box.grow(-2), gap=1.2)
        framed = framing(placer)
        for pts in lines:
            for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
                placer.avoid_line(x1, y1, x2, y2, CASING_PAD)
        for c in m.cities:
            px, py = points[c.id]
            placer.block(Box(px - CITY_R - 1, py - CITY_R - 1, 2 * CITY_R + 2, 2 * CITY_R + 2))
        try:
            tags, wanted = city_tags(m, points, placer, {(r.a, r.b): pts for r, pts in zip(m.routes, lines)}, last)
        except NoRoom as exc:
            if last and best is None:
                raise
            room[exc.city] = room.get(exc.city, _nearest(points, exc.city)) + ROOM_STEP
            keep.clear()
            continue
        fit = Fit(points, lines, bends, tags, placer, framed)
        if not wanted:
            cities, routes = fields_of(m, fit)
            problems = check(Fields("map", m.id, "", 0.0, 0.0, tuple(cities), tuple(routes)))
            if not problems:
                return fit
            if best is None or len(problems) < best[0]:
                best = (len(problems), fit)
            for cid in {cid for p in problems for cid in p.cities}:  # a little more room
                room[cid] = room.get(cid, _nearest(points, cid)) + NUDGE
            continue
        for cid in [cid for cid in wanted if cid in keep]:  # bending the routes did not clear it: move apart
            room[cid] = room.get(cid, _nearest(points, cid)) + ROOM_STEP
            del keep[cid], wanted[cid]
        keep.update({cid: corners(b) for cid, b in wanted.items()})
    assert best is not None  # the last round returns, raises, or leaves the best to keep
    return best[1]


def city_tags(m: GameMap, points: Points, placer: LabelPlacer, lines: dict[tuple[str, str], tuple[Pt, ...]],
              last: bool) -> tuple[dict[str, Tag], dict[str, Box]]:
    """Each city's tag (name and icons), the most crowded cities first, while there is still room, and where
    the tags that found no room clear of the routes would go (routes bent round them may leave room)."""

    def crowd(c: City) -> int:
        px, py = points[c.id]
        return sum(1 for o in m.cities if math.hypot(points[o.id][0] - px, points[o.id][1] - py) < CROWD)

    tagger = TagPlacer(m, points, CITY_R, placer, lines)
    tags: dict[str, Tag] = {}
    wanted: dict[str, Box] = {}
    for c in sorted(m.cities, key=crowd, reverse=True):  # stable: file order among equals
        tag = tagger.place(c)
        if tag is None and not last:
            tag = tagger.place(c, anywhere=True)
            if tag is not None:
                wanted[c.id] = tag.box
        if tag is None:
            px, py = points[c.id]
            near = [o.name for o in m.cities if o.id != c.id
                    and math.hypot(points[o.id][0] - px, points[o.id][1] - py) < CROWD]
            around = f" among {', '.join(near)}" if near else ""
            raise NoRoom(f"{m.source or m.id}: map sheet: no room for the tag of {c.name}{around}; "
                         "move these cities apart or leave one out", c.id)
        tags[c.id] = tag
        placer.block(tag.box)
    return tags, wanted
