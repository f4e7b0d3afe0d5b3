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
ROUTE_DRAWN, ROUTE_EMPTY = 0.7, 0.3
"""Share of a route's visible stretch with ink on it: drawn at or above, not drawn at or below; between: uncertain."""
STAR_RING = 8.0
"""Points beyond a city's circle within which a star marks the starting city."""


@dataclass(frozen=True)
class Read:
    """One field read off the sheet: marked (box) / drawn (route), the measure it rests on, and how sure."""

    id: str
    on: bool
    measure: float
    confidence: float

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


def _px(v: float) -> int:
    return round(v * SCALE)


def read_boxes(ink: Image, fields: Fields) -> dict[str, Read]:
    """Every tick box (not the write-in score boxes) marked or not."""
    import cv2

    total = cv2.integral(ink.astype("uint8"))
    reads: dict[str, Read] = {}
    for box in fields.boxes:
        if box.id.startswith("score.") or box.id == "total":
            continue
        x0, y0, x1, y1 = (_px(v) for v in (box.rect[0] + BOX_INSET, box.rect[1] + BOX_INSET,
                                           box.rect[2] - BOX_INSET, box.rect[3] - BOX_INSET))
        area = max(1, (x1 - x0) * (y1 - y0))
        inked = int(total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0])
        reads[box.id] = _decide(box.id, inked / area, BOX_EMPTY, BOX_MARKED)
    return reads


def _samples(route: RouteField, fields: Fields) -> list[tuple[float, float]]:
    """Points every 1 pt along a route's line, outside every circle and tag."""
    out: list[tuple[float, float]] = []
    keep_out = [(c.center, c.radius + 2.5) for c in fields.cities]
    tags = [c.tag for c in fields.cities]
    for (ax, ay), (bx, by) in zip(route.points, route.points[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay)))
        for k in range(n + 1):
            x, y = ax + (bx - ax) * k / n, ay + (by - ay) * k / n
            if any(math.hypot(x - cx, y - cy) < r for (cx, cy), r in keep_out):
                continue
            if any(t[0] - 0.5 <= x <= t[2] + 0.5 and t[1] - 0.5 <= y <= t[3] + 0.5 for t in tags):
                continue
            out.append((x, y))
    return out


@lru_cache(maxsize=16)
def route_samples(fields: Fields) -> dict[str, tuple[tuple[float, float], ...]]:
    """Each route's sample points (worked out once per sheet layout)."""
    return {route.id: tuple(_samples(route, fields)) for route in fields.routes}


def read_routes(ink: Image, fields: Fields) -> dict[str, Read]:
    """Every route drawn over or not: the share of its visible stretch with ink near the line."""
    import cv2

    k = _px(ROUTE_REACH) * 2 + 1
    near = cv2.dilate(ink.astype("uint8"), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    reads: dict[str, Read] = {}
    for rid, points in route_samples(fields).items():
        hits = sum(1 for x, y in points if near[_px(y), _px(x)])
        reads[rid] = _decide(rid, hits / max(1, len(points)), ROUTE_EMPTY, ROUTE_DRAWN)
    return reads


def star_ink(ink: Image, fields: Fields) -> dict[str, float]:
    """Per city, the ink share in a ring around its circle, away from its routes' lines: a star shows here."""
    import numpy as np

    out: dict[str, float] = {}
    for c in fields.cities:
        cx, cy = c.center
        r0, r1 = c.radius + 1.5, c.radius + STAR_RING
        x0, x1, y0, y1 = max(0, _px(cx - r1)), _px(cx + r1) + 1, max(0, _px(cy - r1)), _px(cy + r1) + 1
        ys, xs = np.mgrid[y0:y1, x0:x1]
        gx, gy = xs / SCALE, ys / SCALE
        d = np.hypot(gx - cx, gy - cy)
        ring = (d >= r0) & (d <= r1)
        for route in fields.routes:
            if c.id in (route.a, route.b):
                (ax, ay), (bx, by) = route.points[0], route.points[-1]
                ring &= _line_distance(gx, gy, ax, ay, bx, by) > ROUTE_REACH
        cells = int(ring.sum())
        out[c.id] = float(ink[y0:y1, x0:x1][ring].sum()) / cells if cells else 0.0
    return out


def _line_distance(gx: Image, gy: Image, ax: float, ay: float, bx: float, by: float) -> Image:
    """Distance of each grid point to the segment a-b."""
    import numpy as np

    dx, dy = bx - ax, by - ay
    t = np.clip(((gx - ax) * dx + (gy - ay) * dy) / max(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
    dist: Image = np.hypot(gx - (ax + t * dx), gy - (ay + t * dy))
    return dist
