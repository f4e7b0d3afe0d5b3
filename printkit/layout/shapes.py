"""Closed shapes as path commands: circles, boxes and icons' outlines, placed on the page.

Each is drawn clockwise on the page (y down), so that overlapping shapes in one
:class:`~printkit.layout.primitives.Path` fill as one under the non-zero rule.
"""

from __future__ import annotations

from printkit.layout import icons, pathdata
from printkit.layout.boxes import Box
from printkit.layout.geo import Pt
from printkit.layout.primitives import PathCommand

KAPPA = 0.5523
"""A quarter circle's Bézier control distance, per unit of radius."""


def disc(c: Pt, r: float) -> list[PathCommand]:
    """A circle of radius ``r`` round ``c`` as four Bézier quarters."""
    x, y, k = c[0], c[1], r * KAPPA
    return [("M", x + r, y), ("C", x + r, y + k, x + k, y + r, x, y + r), ("C", x - k, y + r, x - r, y + k, x - r, y),
            ("C", x - r, y - k, x - k, y - r, x, y - r), ("C", x + k, y - r, x + r, y - k, x + r, y), ("Z",)]


def box(b: Box) -> list[PathCommand]:
    """A box along its top, down its right side, back along its bottom."""
    return [("M", b.x, b.y), ("L", b.right, b.y), ("L", b.right, b.bottom), ("L", b.x, b.bottom), ("Z",)]


def outline(name: str, c: Pt, size: float) -> tuple[PathCommand, ...]:
    """Icon ``name``'s first silhouette, ``size`` points square, centred on ``c`` (to draw as an outlined shape)."""
    unit = icons.symbol(name).paths[0].commands
    return pathdata.transform(unit, size, c[0] - size / 2, c[1] - size / 2)
