"""Fill patterns as plain paths: hatches, cross-hatches, grids and dots over a box, format-free.

A pattern is one :class:`~printkit.layout.primitives.Path` of thin lines (or
rows of square dots, a dashed line each) covering a box, anchored to the page
(a line every ``spacing`` points from the origin), so that a backend draws it
inside a clipping path
(:class:`~printkit.layout.primitives.Clipped`) like any other path: no tiling
pattern, no transparency. Each kind keeps its look in a 1-bit print, where a
pale tint is lost: they differ by the directions their lines run in.
"""

from __future__ import annotations

import math
from typing import Literal

from printkit.layout.geo import Box4, clip_segment
from printkit.layout.primitives import Path, PathCommand, Style

Kind = Literal["hatch", "dots", "rows", "backhatch", "columns", "cross", "grid"]
KINDS: tuple[Kind, ...] = ("hatch", "dots", "rows", "backhatch", "columns", "cross", "grid")
"""Every pattern, in the order regions take them (the map file's order): on the bundled maps no two neighbouring
regions' patterns share a line direction."""
ANGLES: dict[Kind, tuple[float, ...]] = {
    "hatch": (45.0,), "rows": (0.0,), "backhatch": (135.0,), "columns": (90.0,),
    "cross": (45.0, 135.0), "grid": (0.0, 90.0), "dots": (),
}
"""The directions (degrees, anticlockwise from the x axis as seen on the page) each pattern's lines run in."""
DOT = 1.0
"""A dot's side (points): a dash of a row's line as long as the line is wide."""


def _lines(box: Box4, angle: float, spacing: float) -> list[PathCommand]:
    """Parallel lines ``spacing`` apart at ``angle`` across ``box``, anchored to the page's origin."""
    x0, y0, x1, y1 = box
    ux, uy = math.cos(math.radians(angle)), -math.sin(math.radians(angle))  # y down on the page
    nx, ny = -uy, ux
    corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    offsets = [cx * nx + cy * ny for cx, cy in corners]
    along = [cx * ux + cy * uy for cx, cy in corners]
    a0, a1 = min(along) - 1.0, max(along) + 1.0
    out: list[PathCommand] = []
    k = math.ceil(min(offsets) / spacing)
    while k * spacing <= max(offsets):
        d = k * spacing
        p = (nx * d + ux * a0, ny * d + uy * a0)
        q = (nx * d + ux * a1, ny * d + uy * a1)
        seg = clip_segment(p, q, box, strict=True)
        if seg is not None:
            (px, py), (qx, qy) = seg
            out += [("M", round(px, 2), round(py, 2)), ("L", round(qx, 2), round(qy, 2))]
        k += 1
    return out


def _dots(box: Box4, spacing: float) -> list[PathCommand]:
    """Rows of dots ``spacing`` apart across ``box``, every other row half a step along: each row one line, dashed
    into square dots by the pattern's style."""
    x0, y0, x1, y1 = box
    out: list[PathCommand] = []
    row_h = spacing * math.sqrt(3) / 2
    r = math.floor(y0 / row_h)
    while r * row_h <= y1:
        shift = spacing / 2 if r % 2 else 0.0
        first = math.floor((x0 - shift) / spacing) * spacing + shift  # anchored to the page
        out += [("M", round(first - DOT / 2, 2), round(r * row_h, 2)), ("L", round(x1 + spacing, 2), round(r * row_h, 2))]
        r += 1
    return out


def pattern(kind: Kind, box: Box4, spacing: float, ink: str, width: float) -> Path:
    """Pattern ``kind`` over ``box`` in ``ink``: lines ``width`` wide ``spacing`` apart, or square dots ``DOT`` wide
    ``spacing`` apart (the clipping path it is drawn in cuts it to shape)."""
    if kind == "dots":
        return Path(tuple(_dots(box, spacing)), Style(stroke=ink, width=DOT, dash=(DOT, spacing - DOT)))
    cmds: list[PathCommand] = []
    crossed = len(ANGLES[kind]) > 1
    for angle in ANGLES[kind]:
        cmds += _lines(box, angle, spacing * (1.5 if crossed else 1.0))  # a crossed pattern: about the same ink
    return Path(tuple(cmds), Style(stroke=ink, width=width))
