"""Closed rings: traced from a sampled field, smoothed, simplified, and measured (pure geometry, no drawing)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Pt = tuple[float, float]


def foot(q: Pt, a: Pt, b: Pt) -> tuple[float, Pt]:
    """Distance from ``q`` to segment a-b and the nearest point on it."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / ll))
    f = (a[0] + t * dx, a[1] + t * dy)
    return math.dist(q, f), f


def seg_gap(a: Pt, b: Pt, c: Pt, d: Pt) -> float:
    """Least distance between segments a-b and c-d (0 where they cross)."""
    def side(p: Pt, q: Pt, r: Pt) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    if side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0:
        return 0.0
    return min(foot(a, c, d)[0], foot(b, c, d)[0], foot(c, a, b)[0], foot(d, a, b)[0])


def centroid(pts: Sequence[Pt]) -> Pt:
    """The mean of the points."""
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def signed_area(ring: Sequence[Pt]) -> float:
    """Shoelace area (positive for an outer ring as traced here)."""
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, [*ring[1:], ring[0]])) / 2


def inside(p: Pt, ring: Sequence[Pt]) -> bool:
    """Whether ``p`` is inside the closed ring (even-odd rule)."""
    x, y = p
    hit = False
    for (ax, ay), (bx, by) in zip(ring, [*ring[-1:], *ring[:-1]]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


def ray_exit(q: Pt, d: Pt, ring: Sequence[Pt]) -> float:
    """Distance along the ray from ``q`` in direction ``d`` to its first crossing of the ring."""
    best = math.inf
    for a, b in zip(ring, [*ring[1:], ring[0]]):
        ex, ey = b[0] - a[0], b[1] - a[1]
        den = d[0] * ey - d[1] * ex
        if abs(den) < 1e-12:
            continue
        wx, wy = a[0] - q[0], a[1] - q[1]
        t, u = (wx * ey - wy * ex) / den, (wx * d[1] - wy * d[0]) / den
        if t > 0 and 0 <= u < 1:
            best = min(best, t)
    return best


def chaikin(ring: Sequence[Pt]) -> list[Pt]:
    """One round of Chaikin's corner cutting on a closed ring."""
    out: list[Pt] = []
    for a, b in zip(ring, [*ring[1:], ring[0]]):
        out += [(0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1]), (0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1])]
    return out


def simplify(ring: Sequence[Pt], most: int = 120, least: float = 0.25) -> list[Pt]:
    """The ring by Douglas-Peucker, at the least tolerance (at least ``least`` pt) that leaves at most ``most`` points."""
    n = len(ring)
    if n <= 3:
        return list(ring)
    x0, y0 = ring[0]
    dists = [(x - x0) ** 2 + (y - y0) ** 2 for x, y in ring]
    far = dists.index(max(dists))
    pts = [*ring, ring[0]]
    rank = [math.inf] * (n + 1)  # the tolerance each point survives: its own deviation, capped by its parent's
    stack = [(0, far, math.inf), (far, n, math.inf)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    while stack:
        a, b, cap = stack.pop()
        ax, ay = xs[a], ys[a]
        dx, dy = xs[b] - ax, ys[b] - ay
        idx, best = -1, -1.0
        for i in range(a + 1, b):
            e = abs((xs[i] - ax) * dy - (ys[i] - ay) * dx)
            if e > best:
                idx, best = i, e
        dev = best / (math.hypot(dx, dy) or 1.0)
        if idx < 0:
            continue
        rank[idx] = min(dev, cap)
        stack += [(a, idx, rank[idx]), (idx, b, rank[idx])]
    ranks = sorted(rank[:n], reverse=True)
    tol = max(least, ranks[most] if n > most else 0.0)
    return [ring[i] for i in range(n) if rank[i] > tol]


def depth(p: Pt, ring: Sequence[Pt]) -> float:
    """Distance from ``p`` to the ring's nearest edge."""
    px, py = p
    best = math.inf
    for (ax, ay), (bx, by) in zip(ring, [*ring[1:], ring[0]]):
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else ((px - ax) * dx + (py - ay) * dy) / ll
        t = 0.0 if t < 0 else 1.0 if t > 1 else t
        ex, ey = ax + t * dx - px, ay + t * dy - py
        e = ex * ex + ey * ey
        if e < best:
            best = e
    return math.sqrt(best)


def contours(v: Sequence[float], nx: int, ny: int, ox: float, oy: float, step: float) -> list[list[Pt]]:
    """The closed zero lines round the positive part of a field sampled row by row on an ``nx`` x ``ny`` grid.

    Marching squares, interpolated along the cell edges, a saddle joined when the cell's mean is positive; the
    grid's point (i, j) is at (ox + i * step, oy + j * step); each outer line has a positive :func:`signed_area`,
    each hole a negative one. The field must be negative all round the grid's border.
    """
    nxt: dict[int, int] = {}
    pos: dict[int, Pt] = {}

    def cross(e: int, p: int, q: int) -> int:
        if e not in pos:
            t = v[p] / (v[p] - v[q])
            pos[e] = (ox + (p % nx + t * (q % nx - p % nx)) * step, oy + (p // nx + t * (q // nx - p // nx)) * step)
        return e

    inn = [x > 0 for x in v]
    for j in range(ny - 1):
        for i in range(nx - 1):
            a = j * nx + i
            b, d = a + 1, a + nx
            c = d + 1
            if inn[a] == inn[b] == inn[c] == inn[d]:
                continue
            walk = ((a, b, 2 * a), (b, c, 2 * b + 1), (c, d, 2 * d), (d, a, 2 * a + 1))
            hits = [(cross(e, p, q), inn[p]) for p, q, e in walk if inn[p] != inn[q]]
            joined = v[a] + v[b] + v[c] + v[d] > 0
            for n, (e, leaving) in enumerate(hits):
                if leaving:
                    nxt[e] = hits[(n + 1) % len(hits)][0] if joined else hits[n - 1][0]
    loops = []
    while nxt:
        start = next(iter(nxt))
        loop, e = [], start
        while e in nxt:
            loop.append(pos[e])
            e = nxt.pop(e)
        loops.append(loop)
    return loops
