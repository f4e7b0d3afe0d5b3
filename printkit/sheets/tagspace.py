"""Where a city's tag may go: plain geometry on boxes and route segments, quick to reject what is far.

Boxes are (x0, y0, x1, y1) tuples or :class:`~printkit.layout.boxes.Box`;
segments are pairs of points. A tag search asks these thousands of times, so
segments come in short runs with their bounding box (:func:`grouped`) and a run
clear of the box is skipped whole.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from printkit.layout.boxes import Box, corners
from printkit.layout.geo import Box4, Pt, clip_segment

Line4 = tuple[tuple[Pt, Pt], ...]


def cross(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    """Whether segments a-b and c-d cross."""
    r0, r1, s0, s1 = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    den = r0 * s1 - r1 * s0
    if abs(den) < 1e-12:
        return False
    t = ((c[0] - a[0]) * s1 - (c[1] - a[1]) * s0) / den
    u = ((c[0] - a[0]) * r1 - (c[1] - a[1]) * r0) / den
    return 0 <= t <= 1 and 0 <= u <= 1


def hits(b: Box4, segments: Sequence[tuple[Pt, Pt]]) -> bool:
    """Whether any segment passes through the box (x0, y0, x1, y1), touching aside."""
    x0, y0, x1, y1 = b
    return any(not (p[0] <= x0 and q[0] <= x0 or p[0] >= x1 and q[0] >= x1 or p[1] <= y0 and q[1] <= y0
                    or p[1] >= y1 and q[1] >= y1) and clip_segment(p, q, b, strict=True) for p, q in segments)


def grouped(segments: Iterable[tuple[Pt, Pt]]) -> tuple[tuple[Box4, Line4], ...]:
    """Segments in runs of 8 with each run's bounding box, so a far run is skipped at once."""
    segs = list(segments)
    out = []
    for k in range(0, len(segs), 8):
        run = tuple(segs[k:k + 8])
        xs = [v[0] for seg in run for v in seg]
        ys = [v[1] for seg in run for v in seg]
        out.append(((min(xs), min(ys), max(xs), max(ys)), run))
    return tuple(out)


def hits_near(b: Box4, groups: Sequence[tuple[Box4, Line4]]) -> bool:
    """:func:`hits` over grouped segments, skipping the runs whose box is clear of ``b``."""
    return any(g[0] < b[2] and g[2] > b[0] and g[1] < b[3] and g[3] > b[1] and hits(b, segs) for g, segs in groups)


def overlaps(b: Box4, rects: Sequence[Box4], pad: float) -> bool:
    """Whether box ``b``, grown by ``pad``, overlaps any of ``rects`` (touching edges do not count)."""
    x0, y0, x1, y1 = b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad
    return any(x0 < r[2] and r[0] < x1 and y0 < r[3] and r[1] < y1 for r in rects)


def length_under(b: Box, groups: Sequence[tuple[Box4, Line4]]) -> float:
    """How much of the grouped segments runs inside box ``b``."""
    return sum(length_inside(p, q, b) for g, segs in groups if g[0] <= b.right and g[2] >= b.x and g[1] <= b.bottom
               and g[3] >= b.y for p, q in segs)


def rect_distance(b: Box, p: Pt) -> float:
    """The distance from point ``p`` to box ``b`` (0 inside it)."""
    dx = max(b.x - p[0], 0.0, p[0] - b.right)
    dy = max(b.y - p[1], 0.0, p[1] - b.bottom)
    return math.hypot(dx, dy)


def length_inside(p0: Pt, p1: Pt, b: Box) -> float:
    """Length of segment p0-p1 inside box ``b``."""
    seg = clip_segment(p0, p1, corners(b))
    return 0.0 if seg is None else math.dist(*seg)
