"""Read a sheet's ink: each box marked or not, each route drawn or not, the starred city; with confidences."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from printkit.scan.locate import SCALE

if TYPE_CHECKING:
    from printkit.scan.images import Image
    from printkit.sheets.fields import Fields, RouteField

BOX_INSET = 2.2
"""Points: a box is read inside its outline by this much (the outline and a little mis-registration)."""
BOX_MARKED, BOX_EMPTY = 0.045, 0.015
"""Ink fraction of a box's inside at or above which it is marked, at or below which it is empty; between: uncertain."""
ROUTE_REACH = 3.0
"""Points: ink this close to a route's line counts as drawing over it (hand jitter)."""
ROUTE_DRAWN, ROUTE_EMPTY = 0.7, 0.2
"""Share of a route's visible stretch with ink on it: drawn at or above, not drawn at or below; between: uncertain."""
END_CLEAR = 10.0
"""Points beyond a route's end circles that are not read when the route is long enough (stars, other routes)."""
MIN_CORE = 8
"""Least sample points (1 pt apart) a route's middle stretch needs to be read on its own."""
TAG_FREE = 5
"""Least points of a route's line outside every tag for the points inside tags to be left out."""
MIN_SHORT = 3
"""A route with fewer visible sample points cannot be read at all (its circles touch)."""
SHORT_REACH = 2.0
"""Points: a short route counts only ink this close to its line (neighbours and stars lie beside it)."""
SHORT_EMPTY, SHORT_DRAWN = 0.1, 0.9
"""The stricter thresholds for a short route, read near its cities."""
UNREADABLE = -1.0
"""The measure of a route that cannot be read."""
STAR_RING = 8.0
"""Points beyond a city's circle within which a star marks the starting city."""
STAR_KEEP_OUT = 4.0
"""Points: the star ring leaves out this much on each side of every route line crossing it (a drawn route's ink)."""


@dataclass(frozen=True)
class Read:
    """One field read off the sheet: marked (box) / drawn (route), the measure it rests on, and how sure."""

    id: str
    on: bool
    measure: float
    confidence: float
    hidden: bool = False
    """A route whose whole stretch lies by a drawn neighbour or the star: its ink cannot tell."""
    why: str = ""
    """Why the picture cannot show this field ("" when it can): outside it, in deep shadow, out of place, faint."""

    @property
    def certain(self) -> bool:
        """Whether the measure is clearly on one side (confidence >= 0.5)."""
        return self.confidence >= 0.5


def _decide(rid: str, measure: float, empty: float, marked: float) -> Read:
    """A read from a measure and its two thresholds; confidence 0.5 at a threshold, 1 well past it."""
    mid = (empty + marked) / 2
    on = measure >= mid
    if on:
        conf = 0.5 + 0.5 * min(1.0, (measure - marked) / marked) if measure >= marked else 0.5 * (measure - mid) / (marked - mid)
    else:
        conf = 0.5 + 0.5 * min(1.0, (empty - measure) / empty) if measure <= empty else 0.5 * (mid - measure) / (mid - empty)
    return Read(rid, on, round(measure, 4), round(max(0.0, conf), 3))


def px(v: float) -> int:
    """The pixel (row or column) of the warped sheet holding page coordinate ``v`` (points)."""
    return math.floor(v * SCALE)


def read_boxes(ink: Image, fields: Fields) -> dict[str, Read]:
    """Every tick box (not the write-in score boxes) marked or not."""
    import numpy as np

    reads: dict[str, Read] = {}
    for box in fields.boxes:
        if box.id.startswith("score.") or box.id == "total":
            continue
        x0, y0, x1, y1 = (px(v) for v in (box.rect[0] + BOX_INSET, box.rect[1] + BOX_INSET,
                                           box.rect[2] - BOX_INSET, box.rect[3] - BOX_INSET))
        area = max(1, (x1 - x0) * (y1 - y0))
        inked = int(np.count_nonzero(ink[y0:y1, x0:x1]))
        reads[box.id] = _decide(box.id, inked / area, BOX_EMPTY, BOX_MARKED)
    return reads


def line_samples(route: RouteField, fields: Fields) -> list[tuple[float, float]]:
    """Points every 1 pt along a route's line, outside every city's circle."""
    circles = [(c.center, c.radius + 2.5) for c in fields.cities]
    visible: list[tuple[float, float]] = []
    for (ax, ay), (bx, by) in zip(route.points, route.points[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay)))
        for k in range(n + 1):
            x, y = ax + (bx - ax) * k / n, ay + (by - ay) * k / n
            if not any(math.hypot(x - cx, y - cy) < r for (cx, cy), r in circles):
                visible.append((x, y))
    return visible


def visible_samples(route: RouteField, fields: Fields) -> list[tuple[float, float]]:
    """Points every 1 pt along a route's line, outside every city's circle and, where enough is left, every tag.

    A tag's printed name and icons are subtracted with the blank sheet,
    but a blurred scan leaves specks along their edges; a route whose line
    crosses tags is read on the rest of it when at least TAG_FREE points are
    left (the layout check keeps 8 pt of every route outside circles and tags).
    """
    visible = line_samples(route, fields)
    tags = [c.tag for c in fields.cities]
    free = [(x, y) for x, y in visible if not any(t[0] - 1 <= x <= t[2] + 1 and t[1] - 1 <= y <= t[3] + 1 for t in tags)]
    return free if len(free) >= TAG_FREE else visible


def _samples(route: RouteField, fields: Fields) -> tuple[list[tuple[float, float]], bool]:
    """A route's visible points away from its ends where there is room, and whether it is short.

    Printed names and icons need no keeping out (the blank sheet is
    subtracted); near the route's own cities a start star or a neighbouring
    drawn route may lie on the line, so those stretches are left out unless
    the route is too short to read without them.
    """
    ends = [(c.center, c.radius + END_CLEAR) for c in fields.cities if c.id in (route.a, route.b)]
    visible = visible_samples(route, fields)
    core = [(x, y) for x, y in visible if not any(math.hypot(x - cx, y - cy) < r for (cx, cy), r in ends)]
    return (core, False) if len(core) >= MIN_CORE else (visible, True)


@lru_cache(maxsize=16)
def route_samples(fields: Fields) -> dict[str, tuple[tuple[tuple[float, float], ...], bool]]:
    """Each route's sample points and whether it is short (worked out once per sheet layout)."""
    out: dict[str, tuple[tuple[tuple[float, float], ...], bool]] = {}
    for route in fields.routes:
        points, short = _samples(route, fields)
        out[route.id] = (tuple(points), short)
    return out


def seg_dist(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance from (x, y) to the segment a-b."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / max(dx * dx + dy * dy, 1e-9)))
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


@dataclass(frozen=True)
class _RoutePlan:
    """One route's samples as the reader meets them on every sheet of a layout (worked out once per layout)."""

    points: tuple[tuple[float, float], ...]
    short: bool
    rows: Image
    cols: Image
    near: dict[str, Image]
    """Per other route: which samples lie within 2 x ROUTE_REACH of its line (its ink may reach them)."""
    stars: dict[str, Image]
    """Per city: which samples lie within END_CLEAR of its circle (its start star may ink them)."""


def _near_line(points: tuple[tuple[float, float], ...], line: tuple[tuple[float, float], ...], reach: float) -> Image:
    """Which of ``points`` lie within ``reach`` of ``line`` (each piece of a curved one); a far line's at once."""
    import numpy as np

    x0, y0 = min(q[0] for q in line) - reach, min(q[1] for q in line) - reach
    x1, y1 = max(q[0] for q in line) + reach, max(q[1] for q in line) + reach
    return np.array([x0 < p[0] < x1 and y0 < p[1] < y1 and any(seg_dist(*p, a, b) <= reach for a, b in zip(line, line[1:]))
                     for p in points], dtype=bool)


@lru_cache(maxsize=16)
def route_plans(fields: Fields) -> dict[str, _RoutePlan]:
    """Each route's samples, their pixels, and which neighbours' lines and stars lie by each (once per layout)."""
    import numpy as np

    out: dict[str, _RoutePlan] = {}
    for rid, (points, short) in route_samples(fields).items():
        pts = np.array(points, dtype=np.float64).reshape(-1, 2)
        near = {o.id: _near_line(points, o.points, 2 * ROUTE_REACH) for o in fields.routes if o.id != rid}
        stars = {c.id: np.array([math.dist(p, c.center) <= c.radius + END_CLEAR for p in points], dtype=bool)
                 for c in fields.cities}
        out[rid] = _RoutePlan(points, short, np.floor(pts[:, 1] * SCALE).astype(np.intp),
                              np.floor(pts[:, 0] * SCALE).astype(np.intp), near, stars)
    return out


@lru_cache(maxsize=4)
def _disc(reach: float) -> tuple[Image, Image]:
    """(row, column) offsets of the pixels in the ellipse of ``reach`` points: the kernel a route's ink is widened by."""
    import cv2
    import numpy as np

    k = px(reach)
    dy, dx = np.nonzero(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k * 2 + 1,) * 2))
    return dy - k, dx - k


def inked_near(ink: Image, rows: Image, cols: Image, reach: float) -> Image:
    """Which pixels (``rows``, ``cols``) have ink within the ellipse of ``reach`` points round them: the ink widened
    by that ellipse (``cv2.dilate``) read at those pixels only, without widening the whole sheet."""
    dy, dx = _disc(reach)
    r, c = rows[:, None] + dy[None, :], cols[:, None] + dx[None, :]
    inside = (r >= 0) & (r < ink.shape[0]) & (c >= 0) & (c < ink.shape[1])
    hit = (ink[r.clip(0, ink.shape[0] - 1), c.clip(0, ink.shape[1] - 1)] > 0) & inside
    out: Image = hit.any(axis=1)
    return out


def read_routes(ink: Image, fields: Fields, starred: frozenset[str] = frozenset()) -> dict[str, Read]:
    """Every route drawn over or not: the share of its visible stretch with ink near the line.

    A route by a drawn neighbour or a start star is read again on its
    samples clear of them (their ink may reach its line).
    """
    import numpy as np

    plans = route_plans(fields)
    hits = {rid: {reach: inked_near(ink, p.rows, p.cols, reach) for reach in (ROUTE_REACH, SHORT_REACH)}
            for rid, p in plans.items()}
    first = {rid: _route_read(rid, hits[rid], np.ones(len(p.points), bool), p.short) for rid, p in plans.items()}
    drawn = [rid for rid, r in first.items() if r.on]
    reads: dict[str, Read] = {}
    for rid, p in plans.items():
        by = [p.near[o] for o in drawn if o != rid] + [p.stars[c] for c in starred if c in p.stars]
        clear = ~np.logical_or.reduce(by) if by else np.ones(len(p.points), bool)
        kept = int(clear.sum())
        if kept == len(p.points) or first[rid].measure == UNREADABLE or (first[rid].certain and not first[rid].on):
            reads[rid] = first[rid]
        elif kept >= MIN_SHORT:
            reads[rid] = _route_read(rid, hits[rid], clear, p.short or kept < MIN_CORE)
        else:
            reads[rid] = Read(rid, first[rid].on, first[rid].measure, min(first[rid].confidence, 0.3), hidden=True)
    return reads


def _route_read(rid: str, hits: dict[float, Image], keep: Image, short: bool) -> Read:
    """One route's read from which of its samples (those in ``keep``) have ink near (a short route: only on) its line."""
    count = int(keep.sum())
    if count < MIN_SHORT:
        return Read(rid, False, UNREADABLE, 0.0)
    inked = int(hits[SHORT_REACH if short else ROUTE_REACH][keep].sum())
    empty, drawn = (SHORT_EMPTY, SHORT_DRAWN) if short else (ROUTE_EMPTY, ROUTE_DRAWN)
    return _decide(rid, inked / count, empty, drawn)


@lru_cache(maxsize=16)
def star_rings(fields: Fields) -> tuple[tuple[str, slice, slice, Image], ...]:
    """Per city, the pixel window round it and its star ring there, away from every route's line (once per layout)."""
    import numpy as np

    out: list[tuple[str, slice, slice, Image]] = []
    for c in fields.cities:
        cx, cy = c.center
        r0, r1 = c.radius + 1.5, c.radius + STAR_RING
        x0, x1, y0, y1 = max(0, px(cx - r1)), px(cx + r1) + 1, max(0, px(cy - r1)), px(cy + r1) + 1
        ys, xs = np.mgrid[y0:y1, x0:x1]
        gx, gy = (xs + 0.5) / SCALE, (ys + 0.5) / SCALE
        d = np.hypot(gx - cx, gy - cy)
        ring = (d >= r0) & (d <= r1)
        for route in fields.routes:  # each piece of its line (a curved route has many)
            for (ax, ay), (bx, by) in zip(route.points, route.points[1:]):
                if seg_dist(cx, cy, (ax, ay), (bx, by)) < r1 + STAR_KEEP_OUT:
                    ring &= _line_distance(gx, gy, ax, ay, bx, by) > STAR_KEEP_OUT
        out.append((c.id, slice(y0, y1), slice(x0, x1), ring))
    return tuple(out)


def star_ink(ink: Image, fields: Fields) -> dict[str, float]:
    """Per city, the ink share in a ring around its circle, away from its routes' lines: a star shows here."""
    out: dict[str, float] = {}
    for cid, rows, cols, ring in star_rings(fields):
        cells = int(ring.sum())
        out[cid] = float(ink[rows, cols][ring].sum()) / cells if cells else 0.0
    return out


def _line_distance(gx: Image, gy: Image, ax: float, ay: float, bx: float, by: float) -> Image:
    """Distance of each grid point to the segment a-b."""
    import numpy as np

    dx, dy = bx - ax, by - ay
    t = np.clip(((gx - ax) * dx + (gy - ay) * dy) / max(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
    dist: Image = np.hypot(gx - (ax + t * dx), gy - (ay + t * dy))
    return dist
