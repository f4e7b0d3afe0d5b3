"""The map sheet's layout check: can a player tell every city, route and tag apart?

It reads exactly the sheet's :class:`~printkit.sheets.fields.Fields` (plus the
sizes of its texts) and names the cities involved in every problem:

- circles at least ``CIRCLE_GAP`` apart edge to edge;
- every route at least ``ROUTE_VISIBLE`` long outside all circles and tags;
- every route's exclusive stretch (:mod:`printkit.sheets.stretch`) at least
  ``ROUTE_STRETCH`` long: room to draw it and to read it, clear of its ends,
  other routes and other circles;
- every tag nearer its own circle than any other;
- no tag over another city's circle, another tag, or a route's end at another
  city (the first ``ROUTE_END`` points of a route outside that city's circle);
- no text under ``MIN_TEXT``;
- the legibility rules of :mod:`printkit.sheets.legible`: no route near a
  circle it does not join, under a tag, across another route or too near
  another leaving the same city; every name and icon clearly its own city's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from printkit.errors import shown
from printkit.sheets.fields import CityField, Fields, Pt, Rect4, RouteField
from printkit.sheets.stretch import CLEARANCE, END_MARGIN, disk_span, exclusive_stretch

CIRCLE_GAP = 3.0
ROUTE_VISIBLE = 8.0
ROUTE_STRETCH = 12.0
"""Least exclusive stretch of a route (points; see :mod:`printkit.sheets.stretch`): room to draw and to read it."""
ROUTE_END = 6.0
MIN_TEXT = 7.5
EPS = 0.01


@dataclass(frozen=True)
class Problem:
    """One thing a player could misread, with the ids of the cities involved."""

    cities: tuple[str, ...]
    what: str
    fix: str


def rect_distance(r: Rect4, p: Pt) -> float:
    """Distance from point ``p`` to rectangle ``r`` (0 inside)."""
    dx = max(r[0] - p[0], 0.0, p[0] - r[2])
    dy = max(r[1] - p[1], 0.0, p[1] - r[3])
    return math.hypot(dx, dy)


def _overlap(a: Rect4, b: Rect4) -> bool:
    return a[0] < b[2] - EPS and b[0] < a[2] - EPS and a[1] < b[3] - EPS and b[1] < a[3] - EPS


def _rect_span(p0: Pt, p1: Pt, r: Rect4) -> tuple[float, float] | None:
    """The part (t0, t1 in 0..1) of segment p0-p1 inside rectangle ``r`` (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    d = (p1[0] - p0[0], p1[1] - p0[1])
    for axis, lo, hi in ((0, r[0], r[2]), (1, r[1], r[3])):
        if abs(d[axis]) < 1e-12:
            if not lo < p0[axis] < hi:
                return None
            continue
        a, b = (lo - p0[axis]) / d[axis], (hi - p0[axis]) / d[axis]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return (t0, t1) if t1 > t0 else None


def _covered(spans: Iterable[tuple[float, float]]) -> float:
    """Total length (in t) of the union of spans."""
    total, end = 0.0, 0.0
    for a, b in sorted(spans):
        a = max(a, end)
        if b > a:
            total += b - a
            end = b
    return total


def visible_length(route: RouteField, f: Fields) -> float:
    """How much of a route's line (each piece of it, when curved) lies outside every circle and tag (points)."""
    total = 0.0
    for p0, p1 in zip(route.points, route.points[1:]):
        spans = [s for c in f.cities for s in [disk_span(p0, p1, c.center, c.radius)] if s]
        spans += [s for c in f.cities for s in [_rect_span(p0, p1, c.tag)] if s]
        total += math.dist(p0, p1) * (1 - _covered(spans))
    return total


def _route_end(route: RouteField, at: CityField) -> tuple[Pt, Pt]:
    """The first ``ROUTE_END`` points of ``route`` outside the circle of ``at``, one of its cities (along its
    line: where a curved route leaves the circle, in the direction it leaves)."""
    from printkit.sheets.routeshape import leaving

    pts = route.points if at.id == route.a else route.points[::-1]
    start = leaving(pts, at.radius) or pts[-1]
    return start, leaving(pts, at.radius + ROUTE_END) or pts[-1]


def _circles(f: Fields) -> list[Problem]:
    out = []
    for i, a in enumerate(f.cities):
        for b in f.cities[i + 1:]:
            gap = math.dist(a.center, b.center) - a.radius - b.radius
            if gap < CIRCLE_GAP - EPS:
                out.append(Problem((a.id, b.id), f"circles {max(gap, 0):.1f} pt apart edge to edge "
                                   f"(need {CIRCLE_GAP:g})", "move the cities apart or leave one out"))
    return out


def _short_routes(f: Fields, measure: Callable[[RouteField, Fields], float], least: float,
                  what: str) -> list[Problem]:
    """A problem for each route whose ``measure`` is under ``least``; ``what`` words the length found."""
    return [Problem((r.a, r.b), what.format(length=max(length, 0.0)), "move the cities apart or drop the route")
            for r in f.routes if (length := measure(r, f)) < least - EPS]


def _routes(f: Fields) -> list[Problem]:
    return _short_routes(f, visible_length, ROUTE_VISIBLE,
                         f"route shows {{length:.1f}} pt outside circles and tags (need {ROUTE_VISIBLE:g})")


def _stretches(f: Fields) -> list[Problem]:
    return _short_routes(f, exclusive_stretch, ROUTE_STRETCH,
                         f"route keeps {{length:.1f}} pt of line to itself ({END_MARGIN:g} pt past its circles, "
                         f"{CLEARANCE:g} pt from other routes and circles; need {ROUTE_STRETCH:g})")


def _tags(f: Fields) -> list[Problem]:
    out = []
    for c in f.cities:
        own = max(0.0, rect_distance(c.tag, c.center) - c.radius)
        for o in f.cities:
            if o.id == c.id:
                continue
            other = max(0.0, rect_distance(c.tag, o.center) - o.radius)
            if rect_distance(c.tag, o.center) < o.radius - EPS:
                out.append(Problem((c.id, o.id), "tag lies over the other city's circle", "move the cities apart"))
            elif other <= own + EPS:
                out.append(Problem((c.id, o.id), "tag is as near the other city's circle as its own",
                                   "move the cities apart"))
            if o.id > c.id and _overlap(c.tag, o.tag):
                out.append(Problem((c.id, o.id), "tags overlap", "move the cities apart"))
        for r in f.routes:
            for end in (r.a, r.b):
                if end == c.id:
                    continue
                e0, e1 = _route_end(r, f.city(end))
                if _rect_span(e0, e1, c.tag):
                    out.append(Problem((c.id, end), f"tag covers the end of route {r.id} at the other city",
                                       "move the cities apart"))
    return out


def check(f: Fields, text_sizes: Iterable[tuple[str, float]] = ()) -> list[Problem]:
    """Every problem of the sheet ``f`` (and of its texts, ``(text, size)``), cities first."""
    from printkit.sheets.legible import legibility

    out = _circles(f) + _routes(f) + _stretches(f) + _tags(f) + [Problem(*p) for p in legibility(f)]
    for value, size in text_sizes:
        if size < MIN_TEXT - EPS:
            out.append(Problem((), f"text {shown(value)} is {size:.1f} pt (need {MIN_TEXT:g})", "shorten it"))
    return out


def describe(p: Problem, names: dict[str, str]) -> str:
    """``New York, Philadelphia: circles 0.4 pt apart ...; move the cities apart ...``."""
    who = " and ".join(names.get(c, c) for c in p.cities)
    return f"{who + ': ' if who else ''}{p.what}; {p.fix}"
