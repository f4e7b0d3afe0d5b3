"""The legibility rules of a map sheet, read from its geometry: no route a player could take for another.

Part of the layout check (:func:`printkit.sheets.layoutcheck.check`); each rule
reads only the sheet's :class:`~printkit.sheets.fields.Fields`:

- no route comes within ``NEAR_CIRCLE`` of the circle of a city it does not join;
- no route runs under another city's tag, nor more than ``OWN_TAG`` under its own,
  nor between another city's circle and its tag;
- no two routes cross (away from a city they share);
- routes leaving one city are at least ``ANGLE`` apart ``ANGLE_AT`` outside its circle;
- every city's name and icon is nearer its own circle than any other by ``OWNED``
  (from the centre of the text or icon to the circle's edge);
- each region's area holds exactly its cities (their circles wholly inside, no
  other region's city) and its name.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from printkit.layout.rings import depth, inside
from printkit.sheets.fields import Fields, Pt, Rect4, RouteField
from printkit.sheets.routeshape import ANGLE, ANGLE_AT, NEAR_CIRCLE, apart, crossing, direction, seg_dist

OWN_TAG = 4.0
"""Most length (points) of a route under its own city's tag."""
OWNED = 6.0
"""How much nearer (points) a name's or icon's centre is to its own circle's edge than to any other's."""
EPS = 0.01

Found = tuple[tuple[str, ...], str, str]
"""(city ids, what is wrong, what to change)."""
MOVE = "move the cities apart or leave one out"


def under(route: RouteField, rect: Rect4) -> float:
    """How long (points) a route's line runs inside ``rect``."""
    total = 0.0
    for p, q in zip(route.points, route.points[1:]):
        t0, t1 = 0.0, 1.0
        d = (q[0] - p[0], q[1] - p[1])
        for axis, lo, hi in ((0, rect[0], rect[2]), (1, rect[1], rect[3])):
            if abs(d[axis]) < 1e-12:
                if not lo < p[axis] < hi:
                    t1 = t0
                continue
            s, e = (lo - p[axis]) / d[axis], (hi - p[axis]) / d[axis]
            t0, t1 = max(t0, min(s, e)), min(t1, max(s, e))
        total += max(0.0, t1 - t0) * math.dist(p, q)
    return total


def _splits(route: RouteField, centre: Pt, tag: Rect4) -> bool:
    """Whether the route's line crosses the straight way from a circle's centre to its tag."""
    end = (min(max(centre[0], tag[0]), tag[2]), min(max(centre[1], tag[1]), tag[3]))
    return crossing((centre, end), route.points, (), 0.0)


def near_circles(f: Fields) -> list[Found]:
    """Routes passing within ``NEAR_CIRCLE`` of a circle they do not join."""
    out: list[Found] = []
    for r in f.routes:
        for c in f.cities:
            if c.id not in (r.a, r.b):
                gap = min(seg_dist(c.center, p, q) for p, q in zip(r.points, r.points[1:])) - c.radius
                if gap < NEAR_CIRCLE - EPS:
                    out.append(((r.a, r.b, c.id), f"route passes {max(gap, 0.0):.1f} pt from the circle of the third "
                                f"city (need {NEAR_CIRCLE:g})", "move the cities apart or drop the route"))
    return out


def under_tags(f: Fields) -> list[Found]:
    """Routes under another city's tag, or more than ``OWN_TAG`` under their own."""
    out: list[Found] = []
    for r in f.routes:
        for c in f.cities:
            length = under(r, c.tag)
            if c.id in (r.a, r.b) and length > OWN_TAG + EPS:
                out.append(((r.a, r.b), f"route runs {length:.1f} pt under the tag of one of its cities "
                            f"(at most {OWN_TAG:g})", MOVE))
            elif c.id not in (r.a, r.b) and length > EPS:
                out.append(((r.a, r.b, c.id), f"route runs {length:.1f} pt under the tag of the third city", MOVE))
            elif c.id not in (r.a, r.b) and _splits(r, c.center, c.tag):
                out.append(((r.a, r.b, c.id), "route runs between the third city's circle and its tag", MOVE))
    return out


def crossings(f: Fields) -> list[Found]:
    """Pairs of routes whose lines cross."""
    out: list[Found] = []
    centres = {c.id: c for c in f.cities}
    for i, r in enumerate(f.routes):
        for o in f.routes[i + 1:]:
            shared = [centres[s].center for s in {r.a, r.b} & {o.a, o.b}]
            radius = max((centres[s].radius for s in {r.a, r.b} & {o.a, o.b}), default=0.0)
            if crossing(r.points, o.points, shared, radius):
                who = tuple(dict.fromkeys((r.a, r.b, o.a, o.b)))
                out.append((who, f"routes {r.id} and {o.id} cross", "move the cities apart or drop a route"))
    return out


def angles(f: Fields) -> list[Found]:
    """Pairs of routes leaving one city less than ``ANGLE`` apart."""
    out: list[Found] = []
    for c in f.cities:
        dirs = []
        for r in f.routes:
            if c.id in (r.a, r.b):
                pts = r.points if r.a == c.id else r.points[::-1]
                bearing = direction(pts, c.radius)
                if bearing is not None:
                    dirs.append((r, bearing))
        for k, (r, a) in enumerate(dirs):
            for o, b in dirs[k + 1:]:
                if apart(a, b) < ANGLE - EPS:
                    others = tuple(x for x in (r.b if r.a == c.id else r.a, o.b if o.a == c.id else o.a))
                    out.append(((c.id, *others), f"routes leave the first city {apart(a, b):.1f} degrees apart "
                                f"{ANGLE_AT:g} pt out (need {ANGLE:g})", "move the cities apart or drop a route"))
    return out


def _margin(p: Pt, own: int, f: Fields) -> tuple[float, str]:
    """How much nearer ``p`` is to city ``own``'s circle edge than to the nearest other's, and that other city."""
    mine = f.cities[own]
    d = math.dist(p, mine.center) - mine.radius
    other = min((math.dist(p, o.center) - o.radius, o.id) for k, o in enumerate(f.cities) if k != own)
    return other[0] - d, other[1]


def owned(f: Fields) -> list[Found]:
    """Names and icons not clearly nearer their own circle than any other."""
    out: list[Found] = []
    centre: Callable[[Rect4], Pt] = lambda r: ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)  # noqa: E731
    for k, c in enumerate(f.cities):
        if c.name is None or len(f.cities) < 2:
            continue
        for what, rect in (("name", c.name), *(("icon", i) for i in c.icons)):
            margin, other = _margin(centre(rect), k, f)
            if margin < OWNED - EPS:
                out.append(((c.id, other), f"the first city's {what} is only {margin:.1f} pt nearer its own circle "
                            f"than the other's (need {OWNED:g})", "move the cities apart"))
    return out


def regions(f: Fields) -> list[Found]:
    """Regions whose area does not hold exactly their cities (each circle wholly inside), or not their name."""
    out: list[Found] = []
    where = {c: g.id for g in f.regions for c in g.cities}
    for g in f.regions:
        for c in f.cities:
            there = inside(c.center, g.area)
            if where.get(c.id) == g.id and (not there or depth(c.center, g.area) < c.radius + 1 - EPS):
                out.append(((c.id,), f"the city's circle is not wholly inside the area of its region {g.name}",
                            MOVE))
            elif where.get(c.id) not in (None, g.id) and there:
                out.append(((c.id,), f"the city lies inside the area of another region, {g.name}", MOVE))
        x0, y0, x1, y1 = g.label
        if not all(inside(p, g.area) for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))):
            out.append(((), f"the name of region {g.name} is not inside its area", MOVE))
    return out


def legibility(f: Fields) -> list[Found]:
    """Every legibility problem of the sheet ``f``."""
    return near_circles(f) + under_tags(f) + crossings(f) + angles(f) + owned(f) + regions(f)
