"""The legibility rules measured from a ``--fields`` JSON document alone (plain dicts, no printkit code).

Each function returns the worst cases it finds as ``(who, value)`` pairs, so a
test can assert the rule and print the numbers. The geometry is worked out
here independently of :mod:`printkit.sheets.layoutcheck`, so the two check
each other.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

Doc = dict[str, Any]
P = tuple[float, float]

NEAR_CIRCLE = 3.0
"""Least gap (pt) between a route and the circle of a city it does not join."""
OWN_TAG = 4.0
"""Most length (pt) of a route under its own city's tag."""
ANGLE = 20.0
"""Least angle (degrees) between two routes leaving one city, 12 pt outside its circle."""
ANGLE_AT = 12.0
OWNED = 6.0
"""A name or icon is nearer its own circle than any other by at least this (pt)."""


def _pts(v: Sequence[Sequence[float]]) -> list[P]:
    return [(float(p[0]), float(p[1])) for p in v]


def seg_dist(p: P, a: P, b: P) -> float:
    """Distance from ``p`` to segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _segments(route: Doc) -> Iterator[tuple[P, P]]:
    pts = _pts(route["points"])
    return zip(pts, pts[1:])


def routes_near_circles(doc: Doc) -> list[tuple[str, float]]:
    """Per (route, city it does not join): the gap between the route's line and the city's circle, if under 6 pt."""
    out = []
    for r in doc["routes"]:
        for c in doc["cities"]:
            if c["id"] in r["cities"]:
                continue
            centre = (float(c["center"][0]), float(c["center"][1]))
            gap = min(seg_dist(centre, a, b) for a, b in _segments(r)) - float(c["radius"])
            if gap < 2 * NEAR_CIRCLE:
                out.append((f"{r['id']} / {c['id']}", gap))
    return sorted(out, key=lambda x: x[1])


def _inside_length(a: P, b: P, rect: Sequence[float]) -> float:
    """Length of segment a-b inside the rectangle (x0, y0, x1, y1)."""
    t0, t1 = 0.0, 1.0
    d = (b[0] - a[0], b[1] - a[1])
    for axis, lo, hi in ((0, rect[0], rect[2]), (1, rect[1], rect[3])):
        if abs(d[axis]) < 1e-12:
            if not lo < a[axis] < hi:
                return 0.0
            continue
        s, e = (lo - a[axis]) / d[axis], (hi - a[axis]) / d[axis]
        t0, t1 = max(t0, min(s, e)), min(t1, max(s, e))
    return max(0.0, t1 - t0) * math.dist(a, b)


def routes_under_tags(doc: Doc) -> list[tuple[str, float, bool]]:
    """Per (route, tag) a route runs under: (who, length in pt, whether the tag is its own city's)."""
    out = []
    for r in doc["routes"]:
        for c in doc["cities"]:
            under = sum(_inside_length(a, b, c["tag"]) for a, b in _segments(r))
            if under > 0.01:
                out.append((f"{r['id']} under {c['id']}", under, c["id"] in r["cities"]))
    return sorted(out, key=lambda x: -x[1])


def splits(doc: Doc) -> list[str]:
    """Routes that pass between another city's circle and its tag (across the straight way from one to the other)."""
    out = []
    for r in doc["routes"]:
        for c in doc["cities"]:
            if c["id"] in r["cities"]:
                continue
            (cx, cy), t = c["center"], c["tag"]
            end = (min(max(cx, t[0]), t[2]), min(max(cy, t[1]), t[3]))
            if any(_cross((cx, cy), end, a, b) for a, b in _segments(r)):
                out.append(f"{r['id']} between {c['id']} and its tag")
    return out


def _cross(a: P, b: P, c: P, d: P) -> P | None:
    """Where segments a-b and c-d properly cross (None if they do not)."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-12:
        return None
    t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / den
    u = ((c[0] - a[0]) * r[1] - (c[1] - a[1]) * r[0]) / den
    if 0 < t < 1 and 0 < u < 1:
        return (a[0] + t * r[0], a[1] + t * r[1])
    return None


def crossings(doc: Doc) -> list[str]:
    """Every pair of routes whose lines cross (away from a city they share)."""
    centres = {c["id"]: ((float(c["center"][0]), float(c["center"][1])), float(c["radius"])) for c in doc["cities"]}
    out = []
    routes = doc["routes"]
    for i, r in enumerate(routes):
        for o in routes[i + 1:]:
            shared = set(r["cities"]) & set(o["cities"])
            for a, b in _segments(r):
                for c, d in _segments(o):
                    x = _cross(a, b, c, d)
                    if x and not any(math.dist(x, centres[s][0]) <= centres[s][1] for s in shared):
                        out.append(f"{r['id']} x {o['id']}")
    return sorted(set(out))


def _leaving(route: Doc, city: Doc, at: float) -> P | None:
    """Where the route's line first lies ``at`` from the city's centre, walking out from that city."""
    pts = _pts(route["points"])
    if route["cities"][0] != city["id"]:
        pts = pts[::-1]
    c = (float(city["center"][0]), float(city["center"][1]))
    for a, b in zip(pts, pts[1:]):
        if math.dist(b, c) >= at:
            lo, hi = 0.0, 1.0
            for _ in range(40):
                mid = (lo + hi) / 2
                p = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
                lo, hi = (mid, hi) if math.dist(p, c) < at else (lo, mid)
            return (a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi)
    return None


def route_angles(doc: Doc) -> list[tuple[str, float]]:
    """Per city, the smallest angle (degrees) between two of its routes 12 pt outside its circle."""
    out = []
    for c in doc["cities"]:
        at = float(c["radius"]) + ANGLE_AT
        cx, cy = float(c["center"][0]), float(c["center"][1])
        dirs = []
        for r in doc["routes"]:
            if c["id"] in r["cities"]:
                p = _leaving(r, c, at)
                if p is not None:
                    dirs.append((r["id"], math.degrees(math.atan2(p[1] - cy, p[0] - cx))))
        for i, (ra, a) in enumerate(dirs):
            for rb, b in dirs[i + 1:]:
                diff = abs((a - b + 180) % 360 - 180)
                out.append((f"{c['id']}: {ra} / {rb}", diff))
    return sorted(out, key=lambda x: x[1])


def _centre(rect: Sequence[float]) -> P:
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


def ownership(doc: Doc) -> list[tuple[str, float]]:
    """Per name and icon: how much nearer (pt) its centre is to its own circle's edge than to any other's."""
    out = []
    for c in doc["cities"]:
        parts = [("name", c["name"])] + [(f"icon {k + 1}", r) for k, r in enumerate(c["icons"])]
        for what, rect in parts:
            p = _centre(rect)
            own = math.dist(p, c["center"]) - c["radius"]
            other = min(math.dist(p, o["center"]) - o["radius"] for o in doc["cities"] if o["id"] != c["id"])
            out.append((f"{c['id']} {what}", other - own))
    return sorted(out, key=lambda x: x[1])


def inside(p: P, poly: Sequence[P]) -> bool:
    """Whether ``p`` lies inside the polygon (even-odd rule)."""
    hit = False
    for (x0, y0), (x1, y1) in zip(poly, list(poly[1:]) + [poly[0]]):
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def region_problems(doc: Doc, region_of: dict[str, str | None]) -> list[str]:
    """What is wrong with the regions' areas: a city outside its own, another region's city inside one,
    a name outside its area."""
    out = []
    for reg in doc["regions"]:
        poly = _pts(reg["area"])
        for c in doc["cities"]:
            mine = region_of[c["id"]] == reg["id"]
            there = inside((float(c["center"][0]), float(c["center"][1])), poly)
            if mine and not there:
                out.append(f"{c['id']} outside {reg['id']}")
            elif not mine and there and region_of[c["id"]] is not None:
                out.append(f"{c['id']} inside {reg['id']}")
        x0, y0, x1, y1 = reg["label"]
        if not all(inside(p, poly) for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))):
            out.append(f"name of {reg['id']} outside its area")
    return out
