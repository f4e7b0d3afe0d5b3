"""Cartographic displacement: points pushed apart, as atlases do, each within a bound of its true place."""

from __future__ import annotations

import math
from collections.abc import Mapping

from printkit.layout.geo import Box4, Pt

TURN = 30.0
"""Degrees a displaced pair may turn from its true bearing before it is pushed along the true bearing."""


def displace(points: dict[str, Pt], min_gap: dict[tuple[str, str], float], bound: float | Mapping[str, float],
             keep_in: Box4 | None = None, rounds: int = 300) -> dict[str, Pt]:
    """Points moved apart, as atlases do, until each pair (a, b) in ``min_gap`` keeps that distance.

    No point moves more than ``bound`` from where it was (one bound for all,
    or one per point: a crowded place may move further); where that is not
    enough the pair stays closer (the layout check then names it). Pairs are
    pushed apart along the line joining their true places (so neither turns
    round the other), half each way, in ``min_gap``'s order, so the result is
    reproducible. Points stay inside ``keep_in`` (x0, y0, x1, y1), those
    outside are first moved into it, within the same bound.
    """
    bounds = bound if isinstance(bound, Mapping) else dict.fromkeys(points, bound)

    def clamp(key: str, x: float, y: float) -> Pt:
        if keep_in is not None:
            x, y = min(max(x, keep_in[0]), keep_in[2]), min(max(y, keep_in[1]), keep_in[3])
        ox, oy = points[key]
        d = math.hypot(x - ox, y - oy)
        most = bounds[key]
        return (x, y) if d <= most else (ox + (x - ox) * most / d, oy + (y - oy) * most / d)

    cur = {k: clamp(k, x, y) for k, (x, y) in points.items()}

    for _ in range(rounds):
        moved = False
        for (a, b), need in min_gap.items():
            (ax, ay), (bx, by) = cur[a], cur[b]
            d = math.hypot(bx - ax, by - ay)
            if d >= need - 1e-6:
                continue
            ux, uy = _away(points[a], points[b], cur[a], cur[b])
            push = (need - d) / 2 + 0.01
            na, nb = clamp(a, ax - ux * push, ay - uy * push), clamp(b, bx + ux * push, by + uy * push)
            if math.dist(na, cur[a]) + math.dist(nb, cur[b]) > 1e-4:
                cur[a], cur[b] = na, nb
                moved = True
        if not moved:
            break
    return cur


def _away(a0: Pt, b0: Pt, a: Pt, b: Pt) -> Pt:
    """The unit direction to push b from a: as they lie now, unless that has turned ``TURN`` from how they truly lie."""
    now = _unit(a, b)
    true = _unit(a0, b0)
    if now is None or (true is not None and now[0] * true[0] + now[1] * true[1] < math.cos(math.radians(TURN))):
        return true or now or (1.0, 0.0)
    return now


def _unit(a: Pt, b: Pt) -> Pt | None:
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d) if d > 1e-9 else None
