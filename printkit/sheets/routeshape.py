"""The shape of each route on a map sheet: a straight line where one reads clearly, else a gentle curve.

A route is drawn straight unless that line crosses another route, comes
within ``NEAR_CIRCLE`` (plus ``SLACK``) of the circle of a city it does not
join, leaves one of its cities within ``ANGLE`` (plus slack) of another route
there, or runs through an inset it does not start in. Then it becomes one
cubic curve whose two control points sit off the straight line by ``bends``
(both alike: an arc; one only: a turn near one end), the smallest bend that
reads clearly, found route by route, worst first, a few rounds over. The
points of a curve are sampled (``SAMPLES``) for the sheet's geometry, so the
layout check and the scan read the line that is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Pt = tuple[float, float]
Box4 = tuple[float, float, float, float]
Bend = tuple[float, float]
"""How far (points, to the left of the way a -> b) each control point sits off the straight line."""

NEAR_CIRCLE = 3.0
"""Least gap (points) between a route's line and the circle of a city it does not join."""
ANGLE = 20.0
"""Least angle (degrees) between two routes leaving one city, ``ANGLE_AT`` outside its circle."""
ANGLE_AT = 12.0
SLACK = 2.5
"""Points (and degrees) the layout aims for beyond the check's thresholds."""
SAMPLES = 24
"""Segments a curved route's line is sampled into."""
STEPS = (4.0, 8.0, 12.0, 17.0, 23.0, 30.0, 40.0, 52.0, 66.0, 82.0, 100.0, 120.0)
MOST = 0.45
"""The largest bend, as a share of the route's length."""
ROUNDS = 4
STRETCH = 12.0
"""Least exclusive stretch of a route (the layout check's ``ROUTE_STRETCH``)."""
OWN_UNDER = 3.0
"""How much (points) of a box kept for its own city's tag a route may cross."""


def controls(a: Pt, b: Pt, bend: Bend) -> tuple[Pt, Pt]:
    """The cubic curve's two control points for ``bend``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = dy / length, -dx / length  # left of a -> b, y down
    return ((a[0] + dx / 3 + nx * bend[0], a[1] + dy / 3 + ny * bend[0]),
            (a[0] + 2 * dx / 3 + nx * bend[1], a[1] + 2 * dy / 3 + ny * bend[1]))


def line(a: Pt, b: Pt, bend: Bend) -> tuple[Pt, ...]:
    """The route's line as points: its two ends when straight, else the curve sampled."""
    if bend == (0.0, 0.0):
        return (a, b)
    c1, c2 = controls(a, b, bend)
    out = []
    for k in range(SAMPLES + 1):
        t = k / SAMPLES
        u = 1 - t
        out.append((u * u * u * a[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * b[0],
                    u * u * u * a[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * b[1]))
    return tuple(out)


def seg_dist(p: Pt, a: Pt, b: Pt) -> float:
    """Distance from ``p`` to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _crosses(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    r0, r1 = b[0] - a[0], b[1] - a[1]
    s0, s1 = d[0] - c[0], d[1] - c[1]
    den = r0 * s1 - r1 * s0
    if abs(den) < 1e-12:
        return False
    t = ((c[0] - a[0]) * s1 - (c[1] - a[1]) * s0) / den
    u = ((c[0] - a[0]) * r1 - (c[1] - a[1]) * r0) / den
    return 0 < t < 1 and 0 < u < 1


def _box(pts: Sequence[Pt]) -> Box4:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


Seg = tuple[Pt, Pt, float, float, float, float]
"""A segment and its bounding box: a, b, x0, x1, y0, y1."""


def segments(pts: Sequence[Pt]) -> tuple[Seg, ...]:
    """A line's segments, each with its bounding box."""
    return tuple((a, b, min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1]))
                 for a, b in zip(pts, pts[1:]))


def crossing(p: Sequence[Pt], q: Sequence[Pt], shared: Sequence[Pt], r: float) -> bool:
    """Whether two routes' lines cross away from the circles (centres ``shared``, radius ``r``) of cities they share."""
    bp, bq = _box(p), _box(q)
    if bp[0] > bq[2] or bq[0] > bp[2] or bp[1] > bq[3] or bq[1] > bp[3]:
        return False
    return crosses_between(segments(p), segments(q), bq, shared, r)


def crosses_between(ps: Sequence[Seg], qs: Sequence[Seg], bq: Box4, shared: Sequence[Pt], r: float) -> bool:
    """:func:`crossing` on lines given as :func:`segments` (``bq``: the second line's box)."""
    for a, b, x0, x1, y0, y1 in ps:
        if x0 > bq[2] or bq[0] > x1 or y0 > bq[3] or bq[1] > y1:
            continue
        for c, d, u0, u1, v0, v1 in qs:
            if x0 > u1 or u0 > x1 or y0 > v1 or v0 > y1:
                continue
            if _crosses(a, b, c, d) and not any(min(math.dist(a, s), math.dist(b, s)) <= r + 0.5 for s in shared):
                return True
    return False


def leaving(pts: Sequence[Pt], at: float) -> Pt | None:
    """Where a line (from its first point) first lies ``at`` from that point."""
    c = pts[0]
    for a, b in zip(pts, pts[1:]):
        if math.dist(b, c) >= at:
            lo, hi = 0.0, 1.0
            for _ in range(30):
                mid = (lo + hi) / 2
                p = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
                lo, hi = (mid, hi) if math.dist(p, c) < at else (lo, mid)
            return (a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi)
    return None


def direction(pts: Sequence[Pt], r: float) -> float | None:
    """The bearing (degrees) of a line ``ANGLE_AT`` outside the circle of radius ``r`` at its first point."""
    p = leaving(pts, r + ANGLE_AT)
    return None if p is None else math.degrees(math.atan2(p[1] - pts[0][1], p[0] - pts[0][0]))


def apart(a: float, b: float) -> float:
    """Degrees between two bearings (0..180)."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


class Shaper:
    """Chooses every route's bend on a map whose cities are placed."""

    def __init__(self, points: dict[str, Pt], routes: Sequence[tuple[str, str]], radius: float,
                 area: Box4, insets: Sequence[Box4] = (), keep_off: Mapping[str, Box4] | None = None,
                 start: Sequence[Bend] = ()) -> None:
        self.points, self.routes, self.r, self.area = points, list(routes), radius, area
        self.insets = list(insets)
        self.keep_off = dict(keep_off or {})
        self.home = {cid: [k for k, box in enumerate(self.insets) if _within(p, box)] for cid, p in points.items()}
        n = len(self.routes)
        self.bends: list[Bend] = [(0.0, 0.0)] * n
        self.lines: list[tuple[Pt, ...]] = [()] * n
        self.boxes: list[Box4] = [(0.0, 0.0, 0.0, 0.0)] * n
        self.segs: list[tuple[Seg, ...]] = [()] * n
        self.dirs: list[tuple[float | None, float | None]] = [(None, None)] * n
        for i in range(n):
            self._set(i, start[i] if start else (0.0, 0.0))

    def _set(self, i: int, bend: Bend) -> None:
        a, b = self.routes[i]
        self.bends[i] = bend
        pts = line(self.points[a], self.points[b], bend)
        self.lines[i] = pts
        self.boxes[i] = _box(pts)
        self.segs[i] = segments(pts)
        self.dirs[i] = (direction(pts, self.r), direction(pts[::-1], self.r))

    def cost(self, i: int, pts: Sequence[Pt], bound: float = math.inf) -> float:
        """How badly route ``i`` drawn as ``pts`` reads, with the other routes as they are (0: clearly);
        at least ``bound`` when it is known to be so before its exclusive stretch is measured."""
        a, b = self.routes[i]
        bx0, by0, bx1, by1 = _box(pts)
        reach = self.r + NEAR_CIRCLE + SLACK
        bad = 0.0
        own_segs = segments(pts)
        for cid, c in self.points.items():
            if cid not in (a, b) and bx0 - reach < c[0] < bx1 + reach and by0 - reach < c[1] < by1 + reach:
                gap = min(seg_dist(c, p, q) for p, q in zip(pts, pts[1:])) - self.r
                bad += 40.0 * max(0.0, NEAR_CIRCLE + SLACK - gap)
        for k, (oa, ob) in enumerate(self.routes):
            o = self.boxes[k]
            if k != i and not (bx0 > o[2] or o[0] > bx1 or by0 > o[3] or o[1] > by1):
                shared = [self.points[s] for s in {a, b} & {oa, ob}]
                if crosses_between(own_segs, self.segs[k], o, shared, self.r):
                    bad += 400.0
        for end, mine in ((a, direction(pts, self.r)), (b, direction(pts[::-1], self.r))):
            if mine is None:
                continue
            for k, (oa, ob) in enumerate(self.routes):
                if k != i and end in (oa, ob):
                    theirs = self.dirs[k][0 if oa == end else 1]
                    if theirs is not None:
                        bad += 20.0 * max(0.0, ANGLE + SLACK - apart(mine, theirs))
        for cid, box in self.keep_off.items():
            if not (bx0 > box[2] or box[0] > bx1 or by0 > box[3] or box[1] > by1):
                under = sum(_inside(p, q, box) for p, q in zip(pts, pts[1:]))
                bad += 30.0 * max(0.0, under - (OWN_UNDER if cid in (a, b) else 0.0))
        x0, y0, x1, y1 = self.area
        if bx0 < x0 or by0 < y0 or bx1 > x1 or by1 > y1:
            bad += 200.0
        mine_in = set(self.home[a]) | set(self.home[b])
        for k, box in enumerate(self.insets):
            if k not in mine_in and any(_within(p, box) for p in pts[1:-1]):
                bad += 200.0
        if bad >= bound:
            return bad
        short = STRETCH + SLACK - self._stretch(i, pts)
        if short > 0:
            bad += 20.0 * short
        return bad

    def _stretch(self, i: int, pts: Sequence[Pt]) -> float:
        """Route ``i``'s exclusive stretch (:mod:`printkit.sheets.stretch`) drawn as ``pts``: only the pieces of
        other routes and the circles near it can cut it."""
        from printkit.sheets.fields import CityField, Fields, RouteField
        from printkit.sheets.stretch import CLEARANCE, END_MARGIN, exclusive_stretch

        reach = CLEARANCE + 0.5
        bx0, by0, bx1, by1 = _box(pts)
        x0, y0, x1, y1 = bx0 - reach, by0 - reach, bx1 + reach, by1 + reach
        pieces = [RouteField(f"~{k}", str(j), (p, q)) for k, o in enumerate(self.lines) if k != i
                  for j, (p, q) in enumerate(zip(o, o[1:]))
                  if not (min(p[0], q[0]) > x1 or max(p[0], q[0]) < x0 or min(p[1], q[1]) > y1 or max(p[1], q[1]) < y0)]
        a, b = self.routes[i]
        far = self.r + END_MARGIN + CLEARANCE
        cities = tuple(CityField(cid, c, self.r, (*c, *c)) for cid, c in self.points.items()
                       if bx0 - far < c[0] < bx1 + far and by0 - far < c[1] < by1 + far)
        route = RouteField(a, b, tuple(pts))
        return exclusive_stretch(route, Fields("map", "", "", 0.0, 0.0, cities, (route, *pieces)))

    def _candidates(self, i: int) -> list[Bend]:
        a, b = self.routes[i]
        most = MOST * math.dist(self.points[a], self.points[b])
        out: list[Bend] = [(0.0, 0.0)]
        for s in STEPS:
            if s > most:
                break
            for h in (s, -s):
                out += [(h, h), (h, 0.0), (0.0, h)]
        return sorted(out, key=lambda bend: abs(bend[0]) + abs(bend[1]))

    def improve(self, i: int) -> None:
        """Route ``i``'s bend: the one that reads most clearly, the smallest of those."""
        a, b = self.routes[i]
        pa, pb = self.points[a], self.points[b]
        best: tuple[float, float, Bend] | None = None
        for bend in self._candidates(i):
            pts = line(pa, pb, bend)
            score = (self.cost(i, pts, best[0] if best else math.inf), abs(bend[0]) + abs(bend[1]), bend)
            if best is None or score[:2] < best[:2]:
                best = score
                if score[0] == 0.0:
                    break  # candidates come smallest first
        assert best is not None
        self._set(i, best[2])

    def shape(self) -> list[tuple[Pt, ...]]:
        """Every route's line, worst first, a few rounds over."""
        for _ in range(ROUNDS):
            costs = [(self.cost(i, self.lines[i]), i) for i in range(len(self.routes))]
            bad = sorted((c, i) for c, i in costs if c > 0)
            if not bad:
                break
            for _, i in reversed(bad):
                self.improve(i)
        return list(self.lines)


def _inside(p: Pt, q: Pt, box: Box4) -> float:
    """Length of segment p-q inside ``box`` (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    d = (q[0] - p[0], q[1] - p[1])
    for axis, lo, hi in ((0, box[0], box[2]), (1, box[1], box[3])):
        if abs(d[axis]) < 1e-12:
            if not lo < p[axis] < hi:
                return 0.0
            continue
        s, e = (lo - p[axis]) / d[axis], (hi - p[axis]) / d[axis]
        t0, t1 = max(t0, min(s, e)), min(t1, max(s, e))
    return max(0.0, t1 - t0) * math.dist(p, q)


def _within(p: Pt, box: Box4) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def shaped(points: dict[str, Pt], routes: Sequence[tuple[str, str]], radius: float, area: Box4,
           insets: Sequence[Box4] = (), keep_off: Mapping[str, Box4] | None = None, start: Sequence[Bend] = (),
           ) -> tuple[list[tuple[Pt, ...]], list[Bend]]:
    """Every route's line (in ``routes``' order) and its bend; ``keep_off`` holds boxes kept for city tags
    (by city: a route may cross ``OWN_UNDER`` of its own city's); ``start``: the bends to start from."""
    s = Shaper(points, routes, radius, area, insets, keep_off, start)
    lines = s.shape()
    return lines, list(s.bends)
