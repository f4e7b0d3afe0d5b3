"""Region areas on a map: each region a soft blob holding exactly its cities (pure geometry, no drawing).

Each region claims the plane by a field: ``reach`` minus the distance to its
cities (and to the bands that join its far-apart cities), the discs joined by a
smooth union, and cut where another region's claim is as strong (a Voronoi split
between the regions, kept ``gap`` apart). The field is sampled on a grid, its
zero line traced by marching squares, smoothed and simplified into one ring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from printkit.layout.rings import (
    centroid,
    chaikin,
    contours,
    depth,
    foot,
    inside,
    ray_exit,
    seg_gap,
    signed_area,
    simplify,
)

Pt = tuple[float, float]
Rect = tuple[float, float, float, float]
Site = tuple[float, float, float, float, float, int]  # ax, ay, bx, by, radius, region index: a disc or a band

CELL = 6.0
"""Grid step (pt) of the sampled fields; the traced line is interpolated, so it is far finer."""
BRIDGE = 20.0
"""Half width (pt) of the band that joins two far-apart cities of one region."""
CLEAR = 33.0
"""A band keeps this far (pt) from other regions' cities, bending round them, so both keep their room."""
FILLET = 30.0
"""Width (pt) of the smooth union between one region's discs and bands: no cusp where two discs meet."""
ROUND = 8.0
"""Width (pt) of the rounding where a region's hull meets a split line."""
CUT = 22.0
"""How far (pt) outside its hull a disc's claim is still sampled."""
MARGIN = 1.0
"""Extra gap (pt) between areas, kept for the smoothing and the simplifying."""
EDGE = 2.0
"""Room (pt) kept from the map frame and the keep-out rectangles."""
OWN_ROOM = 11.0
"""A channel passes the region's own cities at least this far (pt) from its side, so they stay 8 pt inside."""
MAX_POINTS = 120
"""Most points in an area's ring."""
SPOT_BAND = 4.0
"""Spots whose depths fall in one band of this many pt count as equally deep (then the nearer the centroid, the better)."""
SPOTS = 8
"""Most label spots offered per area."""
LONG = 1.5
"""A region's spanning link longer than this many ``reach`` gets a band."""
FILL = 3.0
"""Two cities of a region at most this many ``reach`` apart get a band too, where it is clear of other regions."""


class Area(NamedTuple):
    """A region's area: its ring (top-left origin, y down) and the best label spots in it with their depths."""

    polygon: tuple[Pt, ...]
    spots: tuple[Pt, ...]
    depths: tuple[float, ...]


class _Grid(NamedTuple):
    x0: float
    y0: float
    nx: int
    ny: int


class _Claims(NamedTuple):
    h1: list[float]  # strongest claim at each grid point
    r1: list[int]  # its region
    hb: list[float]  # the same region's next strongest claim (for the smooth union)
    h2: list[float]  # strongest claim of any other region
    r2: list[int]


def region_areas(cities: Sequence[tuple[str | None, Pt]], box: Rect, *, reach: float = 28.0, gap: float = 3.0,
                 keep_out: Sequence[Rect] = ()) -> dict[str, Area]:
    """Each region's area by region id: one soft simple ring holding exactly its cities, ``gap`` from the others.

    ``cities`` are (region id or None, centre) for every city on the map, ``box`` (x0, y0, x1, y1) the map
    frame the areas stay inside. An area keeps out of each ``keep_out`` rectangle (an inset) unless all its
    cities are in it, and then stays inside it (a rectangle holding some of its cities only is not heeded).
    Its ring is a list of points (last joins first, positive shoelace area with y down), its own cities at
    least 8 pt inside its edge and every other region's at least 6 pt outside, where the cities leave room
    for that; a region with no city has no area. Same input, same floats.
    """
    groups: dict[str, list[Pt]] = {}
    for rid, p in cities:
        if rid is not None:
            groups.setdefault(rid, []).append((float(p[0]), float(p[1])))
    ids = sorted(groups)
    pts = [groups[r] for r in ids]
    sites = _sites(pts, reach, gap)
    grid = _Grid(box[0], box[1], int((box[2] - box[0]) / CELL) + 2, int((box[3] - box[1]) / CELL) + 2)
    claims = _splat(sites, grid)
    out: dict[str, Area] = {}
    for k, rid in enumerate(ids):
        others = [p for j, g in enumerate(pts) if j != k for p in g]
        limits = _limits(pts[k], box, keep_out)
        own_sites = [s for s in sites if s[5] == k]
        out[rid] = _area(k, pts[k], others, own_sites, grid, claims, limits, gap + MARGIN)
    return out


def _mst(pts: Sequence[Pt]) -> list[tuple[int, int]]:
    """The shortest links joining all points (Prim's minimum spanning tree), in a fixed order."""
    if len(pts) < 2:
        return []
    best = {i: (math.dist(pts[0], pts[i]), 0) for i in range(1, len(pts))}
    edges = []
    while best:
        i = min(best, key=lambda n: (best[n][0], n))
        edges.append((best.pop(i)[1], i))
        for n in best:
            d = math.dist(pts[i], pts[n])
            if d < best[n][0]:
                best[n] = (d, i)
    return edges


def _route(a: Pt, b: Pt, obstacles: Sequence[Pt], tries: int = 4) -> list[Pt]:
    """A polyline from a to b that bends round the obstacles it would pass nearer than ``CLEAR``."""
    worst: tuple[float, Pt, Pt] | None = None
    for q in obstacles:
        if math.dist(q, a) < CLEAR or math.dist(q, b) < CLEAR:
            continue  # too near an end to go round
        d, f = foot(q, a, b)
        if d < CLEAR and (worst is None or d < worst[0]):
            worst = (d, q, f)
    if worst is None or tries == 0:
        return [a, b]
    d, q, f = worst
    ln = math.dist(a, b)
    sides = [((f[0] - q[0]) / d, (f[1] - q[1]) / d)] if d > 1e-6 else \
        [((a[1] - b[1]) / ln, (b[0] - a[0]) / ln), ((b[1] - a[1]) / ln, (a[0] - b[0]) / ln)]
    ways = [(q[0] + n[0] * (CLEAR + 2), q[1] + n[1] * (CLEAR + 2)) for n in sides]
    w = max(ways, key=lambda p: min((math.dist(p, o) for o in obstacles if o != q), default=0.0))
    return _route(a, w, obstacles, tries - 1)[:-1] + _route(w, b, obstacles, tries - 1)


def _sites(groups: Sequence[Sequence[Pt]], reach: float, gap: float) -> list[Site]:
    """Every region's discs (its cities) and bands (long spanning links bent round strangers, clear near pairs)."""
    sites: list[Site] = []
    links: list[tuple[Pt, Pt, int]] = []
    for k, pts in enumerate(groups):
        sites += [(p[0], p[1], p[0], p[1], reach, k) for p in pts]
        others = [p for j, g in enumerate(groups) if j != k for p in g]
        for i, j in _mst(pts):
            if math.dist(pts[i], pts[j]) > LONG * reach:
                line = _route(pts[i], pts[j], others)
                links += [(a, b, k) for a, b in zip(line, line[1:])]
    near = [(a, b, k) for k, pts in enumerate(groups) for n, a in enumerate(pts) for b in pts[n + 1:]
            if LONG * reach < math.dist(a, b) <= FILL * reach]
    room = 2 * BRIDGE + gap
    grow = max(room, CLEAR)
    for a, b, k in near:
        x0, x1, y0, y1 = min(a[0], b[0]) - grow, max(a[0], b[0]) + grow, min(a[1], b[1]) - grow, max(a[1], b[1]) + grow
        if (a, b, k) in links or any(x0 < q[0] < x1 and y0 < q[1] < y1 and foot(q, a, b)[0] < CLEAR
                                     for j, g in enumerate(groups) if j != k for q in g):
            continue
        if all(j == k or max(c[0], d[0]) < x0 or min(c[0], d[0]) > x1 or max(c[1], d[1]) < y0 or min(c[1], d[1]) > y1
               or seg_gap(a, b, c, d) > room for c, d, j in links):
            links.append((a, b, k))
    return sites + [(a[0], a[1], b[0], b[1], BRIDGE, k) for a, b, k in links]


def _row_span(ax: float, ay: float, bx: float, by: float, py: float, span: float) -> tuple[float, float]:
    """The x range of the row at ``py`` within ``span`` of segment a-b (a little wide for a slanted segment)."""
    if ay == by or ax == bx:
        e = span * span - max(0.0, min(ay, by) - py, py - max(ay, by)) ** 2
        half = math.sqrt(e) if e > 0 else -1.0
        return min(ax, bx) - half, max(ax, bx) + half
    ta, tb = sorted(((py - span - ay) / (by - ay), (py + span - ay) / (by - ay)))
    ta, tb = max(0.0, ta), min(1.0, tb)
    if ta > tb:
        return 0.0, -1.0
    xa, xb = sorted((ax + ta * (bx - ax), ax + tb * (bx - ax)))
    return xa - span, xb + span


def _splat(sites: Sequence[Site], grid: _Grid) -> _Claims:
    """The two strongest regions' claims at every grid point (each site's claim: its radius minus the distance)."""
    x0, y0, nx, ny = grid
    n = nx * ny
    h1, hb, h2 = [-CUT] * n, [-CUT] * n, [-CUT] * n
    r1, r2 = [-1] * n, [-1] * n
    for ax, ay, bx, by, rad, ri in sites:
        span = rad + CUT
        i0, i1 = max(0, int((min(ax, bx) - span - x0) / CELL)), min(nx - 1, int((max(ax, bx) + span - x0) / CELL) + 1)
        j0, j1 = max(0, int((min(ay, by) - span - y0) / CELL)), min(ny - 1, int((max(ay, by) + span - y0) / CELL) + 1)
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        for j in range(j0, j1 + 1):
            py = y0 + j * CELL
            row = j * nx
            lo, hi = _row_span(ax, ay, bx, by, py, span)
            ey = ay - py
            for i in range(max(i0, int((lo - x0) / CELL)), min(i1, int((hi - x0) / CELL) + 1) + 1):
                ex = ax - x0 - i * CELL
                if ll > 0:
                    t = (-ex * dx - ey * dy) / ll
                    t = 0.0 if t < 0 else 1.0 if t > 1 else t
                    v = rad - math.sqrt((ex + t * dx) ** 2 + (ey + t * dy) ** 2)
                else:
                    v = rad - math.sqrt(ex * ex + ey * ey)
                if v <= -CUT:
                    continue
                k = row + i
                if r1[k] == ri:
                    if v > h1[k]:
                        hb[k], h1[k] = h1[k], v
                    elif v > hb[k]:
                        hb[k] = v
                elif v > h1[k]:  # a new strongest region: its own earlier claim, if second, is its next best
                    hb[k] = h2[k] if r2[k] == ri else -CUT
                    h2[k], r2[k], h1[k], r1[k] = h1[k], r1[k], v, ri
                elif v > h2[k]:
                    h2[k], r2[k] = v, ri
    return _Claims(h1, r1, hb, h2, r2)


def _limits(own: Sequence[Pt], box: Rect, keep_out: Sequence[Rect]) -> list[tuple[Rect, bool]]:
    """Rectangles the area must stay inside (True: the frame, an inset holding all its cities) or outside (False)."""
    out: list[tuple[Rect, bool]] = [(box, True)]
    for r in keep_out:
        held = [r[0] < p[0] < r[2] and r[1] < p[1] < r[3] for p in own]
        if all(held):
            out.append((r, True))
        elif not any(held):
            out.append((r, False))
    return out


def _rect_room(px: float, py: float, r: Rect) -> float:
    """Signed room (pt) at a point outside the rectangle: how far out it is, negative inside."""
    deep = min(px - r[0], r[2] - px, py - r[1], r[3] - py)
    if deep > 0:
        return -deep
    dx, dy = max(r[0] - px, 0.0, px - r[2]), max(r[1] - py, 0.0, py - r[3])
    return math.hypot(dx, dy)


def _active(win: tuple[int, int, int, int], grid: _Grid, limits: Sequence[tuple[Rect, bool]]) -> list[tuple[Rect, bool]]:
    """The limits that can bind somewhere in the window (one far from every edge is left out)."""
    wx0, wy0 = grid.x0 + win[0] * CELL, grid.y0 + win[1] * CELL
    wx1, wy1 = grid.x0 + win[2] * CELL, grid.y0 + win[3] * CELL
    far = 2 * CUT + 4 * CELL
    out = []
    for r, inn in limits:
        if inn and r[0] + far < wx0 and wx1 < r[2] - far and r[1] + far < wy0 and wy1 < r[3] - far:
            continue
        if not inn and (wx1 < r[0] - far or r[2] + far < wx0 or wy1 < r[1] - far or r[3] + far < wy0):
            continue
        out.append((r, inn))
    return out


def _values(k: int, grid: _Grid, claims: _Claims, win: tuple[int, int, int, int], limits: Sequence[tuple[Rect, bool]],
            cuts: Sequence[tuple[Pt, Pt, float]], gap: float) -> list[float]:
    """Region ``k``'s field over the window (i0, j0, i1, j1): positive inside its area, its border negative."""
    h1, r1, hb, h2, r2 = claims
    i0, j0, i1, j1 = win
    active = _active(win, grid, limits)
    out: list[float] = []
    for j in range(j0, j1 + 1):
        row = j * grid.nx
        for n in range(row + i0, row + i1 + 1):
            if r1[n] == k:
                a = h1[n]
                dd = a - hb[n]
                own = a + (FILLET - dd) ** 2 / (4 * FILLET) if dd < FILLET else a  # smooth union with the next disc
                split = (a - h2[n] - gap) / 2  # the raw claims: each region split alike from both sides
                lo, dd = (split, own - split) if split < own else (own, split - own)
                v = lo - (ROUND - dd) ** 2 / (4 * ROUND) if dd < ROUND else lo  # rounded where hull meets split
            elif r2[n] == k:
                v = min(-0.5, (h2[n] - h1[n] - gap) / 2)
            else:
                v = -CUT
            if v > -2 * CELL and (active or cuts):
                p = (grid.x0 + (n - row) * CELL, grid.y0 + j * CELL)
                for r, inn in active:
                    room = min(p[0] - r[0], r[2] - p[0], p[1] - r[1], r[3] - p[1]) if inn else _rect_room(p[0], p[1], r)
                    v = min(v, room - EDGE)
                for c0, c1, w in cuts:
                    v = min(v, foot(p, c0, c1)[0] - w)
            out.append(v if v != 0 else -1e-9)
    nx = i1 - i0 + 1
    for n in range(len(out)):
        if n < nx or n >= len(out) - nx or n % nx in (0, nx - 1):
            out[n] = -1.0
    return out


def _window(sites: Sequence[Site], grid: _Grid) -> tuple[int, int, int, int]:
    """The grid window (i0, j0, i1, j1) that holds every site of a region with its reach and a border."""
    xs = [v for s in sites for v in (min(s[0], s[2]) - s[4], max(s[0], s[2]) + s[4])]
    ys = [v for s in sites for v in (min(s[1], s[3]) - s[4], max(s[1], s[3]) + s[4])]
    i0, i1 = int((min(xs) - grid.x0) / CELL) - 2, int((max(xs) - grid.x0) / CELL) + 3
    j0, j1 = int((min(ys) - grid.y0) / CELL) - 2, int((max(ys) - grid.y0) / CELL) + 3
    return max(0, i0), max(0, j0), min(grid.nx - 1, i1), min(grid.ny - 1, j1)


def _pick(loops: Sequence[list[Pt]], own: Sequence[Pt]) -> tuple[list[Pt], list[list[Pt]]]:
    """The outer ring holding most of the region's cities, and the holes inside it."""
    outers = [lp for lp in loops if signed_area(lp) > 0]
    if not outers:
        return [], []
    outer = max(outers, key=lambda lp: (sum(inside(p, lp) for p in own), signed_area(lp)))
    holes = [lp for lp in loops if signed_area(lp) < 0 and inside(lp[0], outer)]
    return outer, holes


def _channel(hole: Sequence[Pt], outer: Sequence[Pt], own: Sequence[Pt], others: Sequence[Pt],
             gap: float) -> tuple[Pt, Pt, float] | None:
    """A straight cut from another region's city in a hole out of the area (so its ring stays simple), or None."""
    q = next((p for p in others if inside(p, hole)), None)
    if q is None:
        return None  # an empty hole: filled
    w = gap / 2 + 1
    best: tuple[float, Pt] | None = None
    for n in range(32):
        d = (math.cos(n * math.pi / 16), math.sin(n * math.pi / 16))
        t = ray_exit(q, d, outer) + 2 * CELL
        if t == math.inf:
            continue
        end = (q[0] + d[0] * t, q[1] + d[1] * t)
        room = min(foot(c, q, end)[0] for c in own) - w
        cost = t if room >= OWN_ROOM else t + 1000 * (OWN_ROOM - room)
        if best is None or cost < best[0]:
            best = (cost, end)
    return None if best is None else (q, best[1], w)


def _spots(ring: Sequence[Pt], vals: Sequence[float], win: tuple[int, int, int, int], grid: _Grid,
           own: Sequence[Pt]) -> tuple[tuple[Pt, ...], tuple[float, ...]]:
    """Label spots inside the ring, deepest first, among equally deep ones the nearest the cities' centroid."""
    i0, j0, i1, _ = win
    nx = i1 - i0 + 1
    order = sorted((n for n, v in enumerate(vals) if v > 3), key=vals.__getitem__, reverse=True)  # stable: ties by n
    picked: list[Pt] = []
    for n in order:
        p = (grid.x0 + (i0 + n % nx) * CELL, grid.y0 + (j0 + n // nx) * CELL)
        if all(math.dist(p, o) >= 12 for o in picked):
            picked.append(p)
            if len(picked) == SPOTS:
                break
    cx, cy = centroid(own)
    deep = [(round(depth(p, ring), 2), p) for p in picked if inside(p, ring)]
    deep.sort(key=lambda dp: (-math.floor(dp[0] / SPOT_BAND), math.hypot(dp[1][0] - cx, dp[1][1] - cy), dp[1]))
    return tuple(p for _, p in deep[:SPOTS]), tuple(d for d, _ in deep[:SPOTS])


def _area(k: int, own: Sequence[Pt], others: Sequence[Pt], sites: Sequence[Site], grid: _Grid, claims: _Claims,
          limits: Sequence[tuple[Rect, bool]], gap: float) -> Area:
    """Region ``k``'s area: its field traced, a hole round another region's city opened by a channel, smoothed."""
    win = _window(sites, grid)
    cuts: list[tuple[Pt, Pt, float]] = []
    for _ in range(4):
        vals = _values(k, grid, claims, win, limits, cuts, gap)
        i0, j0, i1, j1 = win
        loops = contours(vals, i1 - i0 + 1, j1 - j0 + 1, grid.x0 + i0 * CELL, grid.y0 + j0 * CELL, CELL)
        outer, holes = _pick(loops, own)
        new = [c for h in holes if (c := _channel(h, outer, own, others, gap)) is not None]
        if not new:
            break
        cuts += new
    if len(outer) < 3:
        return Area((), (), ())
    ring = simplify(chaikin(chaikin(simplify(outer, 10**6, 0.5))), MAX_POINTS)
    spots, depths = _spots(ring, vals, win, grid, own)
    return Area(tuple(ring), spots, depths)
