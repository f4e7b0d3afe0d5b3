"""A route's exclusive stretch: the part of its line nothing else on the map comes near.

A person draws over a route between its two circles, and a scanner reads the
ink along it; both need a stretch that is clearly this route's and no other's:
more than ``END_MARGIN`` beyond both end circles (a start star, the other
routes meeting there) and more than ``CLEARANCE`` from every other route's line
and every other circle. :func:`exclusive_spans` gives that stretch exactly (the
lines are straight segments, the keep-out zones disks and capsules), so the
layout check, the map layout and the scan reader measure the same thing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from printkit.sheets.fields import Fields, Pt, RouteField
from printkit.sheets.routeshape import segments

END_MARGIN = 10.0
"""Points beyond a route's own end circles that are not its exclusive stretch (stars, routes meeting there)."""
CLEARANCE = 6.0
"""Points a route's exclusive stretch keeps from every other route's line and every other circle's edge."""
Span = tuple[float, float]


def disk_span(p0: Pt, p1: Pt, c: Pt, r: float) -> Span | None:
    """The part (t0, t1 in 0..1) of segment p0-p1 inside the disk (c, r)."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    fx, fy = p0[0] - c[0], p0[1] - c[1]
    a = dx * dx + dy * dy
    b = 2 * (fx * dx + fy * dy)
    k = fx * fx + fy * fy - r * r
    disc = b * b - 4 * a * k
    if a == 0 or disc <= 0:
        return None
    root = math.sqrt(disc)
    t0, t1 = max(0.0, (-b - root) / (2 * a)), min(1.0, (-b + root) / (2 * a))
    return (t0, t1) if t1 > t0 else None


def _band_span(p0: Pt, p1: Pt, q0: Pt, q1: Pt, r: float) -> Span | None:
    """The part of segment p0-p1 within ``r`` of the line q0-q1 between its ends (the capsule's body)."""
    length = math.dist(q0, q1)
    if length < 1e-9:
        return None
    ux, uy = (q1[0] - q0[0]) / length, (q1[1] - q0[1]) / length

    def local(p: Pt) -> Pt:
        dx, dy = p[0] - q0[0], p[1] - q0[1]
        return dx * ux + dy * uy, dy * ux - dx * uy

    a, b = local(p0), local(p1)
    t0, t1 = 0.0, 1.0
    for axis, lo, hi in ((0, 0.0, length), (1, -r, r)):
        d = b[axis] - a[axis]
        if abs(d) < 1e-12:
            if not lo < a[axis] < hi:
                return None
            continue
        s, e = (lo - a[axis]) / d, (hi - a[axis]) / d
        t0, t1 = max(t0, min(s, e)), min(t1, max(s, e))
    return (t0, t1) if t1 > t0 else None


def capsule_span(p0: Pt, p1: Pt, q0: Pt, q1: Pt, r: float) -> Span | None:
    """The part (t0, t1 in 0..1) of segment p0-p1 within ``r`` of segment q0-q1 (a convex capsule: one span)."""
    spans = [s for s in (disk_span(p0, p1, q0, r), disk_span(p0, p1, q1, r), _band_span(p0, p1, q0, q1, r)) if s]
    if not spans:
        return None
    return min(s[0] for s in spans), max(s[1] for s in spans)


def _uncovered(spans: Iterable[Span]) -> list[Span]:
    """The parts of 0..1 no span covers, in order."""
    out: list[Span] = []
    end = 0.0
    for a, b in sorted(spans):
        if a > end:
            out.append((end, a))
        end = max(end, b)
    if end < 1.0:
        out.append((end, 1.0))
    return out


def exclusive_spans(route: RouteField, f: Fields) -> list[Span]:
    """The route's exclusive stretch as spans of its line, in points from its first point, in order."""
    ends = {route.a, route.b}
    circles = [(c.center, c.radius + (END_MARGIN if c.id in ends else CLEARANCE)) for c in f.cities]
    others = [seg for r in f.routes if r.id != route.id for seg in segments(r.points)]
    out: list[Span] = []
    start = 0.0
    for p0, p1 in zip(route.points, route.points[1:]):
        length = math.dist(p0, p1)
        x0, y0 = min(p0[0], p1[0]) - CLEARANCE, min(p0[1], p1[1]) - CLEARANCE
        x1, y1 = max(p0[0], p1[0]) + CLEARANCE, max(p0[1], p1[1]) + CLEARANCE
        cut = [s for c, r in circles if x0 - r < c[0] < x1 + r and y0 - r < c[1] < y1 + r
               for s in [disk_span(p0, p1, c, r)] if s]
        cut += [s for q0, q1, qx0, qx1, qy0, qy1 in others if qx0 <= x1 and qx1 >= x0 and qy0 <= y1 and qy1 >= y0
                for s in [capsule_span(p0, p1, q0, q1, CLEARANCE)] if s]
        out += [(start + a * length, start + b * length) for a, b in _uncovered(cut) if (b - a) * length > 1e-6]
        start += length
    return out


def exclusive_stretch(route: RouteField, f: Fields) -> float:
    """How long (points) the route's exclusive stretch is, all its spans together."""
    return sum(b - a for a, b in exclusive_spans(route, f))


def exclusive_stretches(f: Fields) -> dict[str, float]:
    """Every route's exclusive stretch (points), by route id, in the map's order."""
    return {r.id: exclusive_stretch(r, f) for r in f.routes}
