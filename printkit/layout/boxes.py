"""Boxes of drawn items: what a primitive covers, overlaps, and the printable area check.

Used by layout code to keep things apart and by tests to prove that no two
labels collide and that nothing leaves the printable area.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from printkit.layout import fonts
from printkit.layout.geo import Box4, clip_segment
from printkit.layout.primitives import Cells, Circle, Clipped, Form, Icon, Item, Line, Path, Rect, Text, UseForm


class Box(NamedTuple):
    """An axis-aligned box (top-left x, y; width, height)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        """x of the right edge."""
        return self.x + self.w

    @property
    def bottom(self) -> float:
        """y of the bottom edge."""
        return self.y + self.h

    def intersects(self, other: Box, pad: float = 0.0) -> bool:
        """Whether the boxes overlap (touching edges do not count); ``pad`` grows self."""
        return (
            self.x - pad < other.right
            and other.x < self.right + pad
            and self.y - pad < other.bottom
            and other.y < self.bottom + pad
        )

    def inside(self, other: Box, tol: float = 0.01) -> bool:
        """Whether this box lies within ``other``."""
        return (
            self.x >= other.x - tol
            and self.y >= other.y - tol
            and self.right <= other.right + tol
            and self.bottom <= other.bottom + tol
        )

    def grow(self, d: float) -> Box:
        """The box enlarged by ``d`` on every side."""
        return Box(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)


def corners(b: Box) -> Box4:
    """``b`` as (x0, y0, x1, y1)."""
    return (b.x, b.y, b.right, b.bottom)


def text_box(t: Text) -> Box:
    """The box a Text covers: advance width by ascent + descent."""
    w = fonts.text_width(t.text, t.size, t.weight)
    left = t.x - (w / 2 if t.anchor == "middle" else w if t.anchor == "end" else 0.0)
    top = t.y - fonts.ascent(t.size, t.weight)
    return Box(left, top, w, fonts.ascent(t.size, t.weight) + fonts.descent(t.size, t.weight))


def _path_box(p: Path, sx: float = 1.0, ox: float = 0.0, oy: float = 0.0) -> Box | None:
    xs: list[float] = []
    ys: list[float] = []
    for cmd in p.commands:
        nums = [float(v) for v in cmd[1:]]
        xs.extend(ox + v * sx for v in nums[0::2])
        ys.extend(oy + v * sx for v in nums[1::2])
    if not xs:
        return None
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def item_box(item: Item) -> Box | None:
    """The box an item covers on the page (strokes included); None for UseForm."""
    if isinstance(item, Text):
        return text_box(item)
    if isinstance(item, Rect):
        half = item.style.width / 2 if item.style.stroke else 0.0
        return Box(item.x, item.y, item.w, item.h).grow(half)
    if isinstance(item, Circle):
        half = item.style.width / 2 if item.style.stroke else 0.0
        return Box(item.cx - item.r, item.cy - item.r, 2 * item.r, 2 * item.r).grow(half)
    if isinstance(item, Line):
        # butt caps: the stroke widens a line only across its direction
        half = item.style.width / 2
        dx, dy = abs(item.x2 - item.x1), abs(item.y2 - item.y1)
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        gx, gy = half * dy / length, half * dx / length
        x, y = min(item.x1, item.x2), min(item.y1, item.y2)
        return Box(x - gx, y - gy, dx + 2 * gx, dy + 2 * gy)
    if isinstance(item, Icon):
        return Box(item.x, item.y, item.size, item.size)
    if isinstance(item, Cells):
        return Box(item.x, item.y, item.columns * item.cell, len(item.black) // item.columns * item.cell)
    if isinstance(item, Path):
        box = _path_box(item)
        half = item.style.width / 2 if item.style.stroke else 0.0
        return box.grow(half) if box else None
    if isinstance(item, Clipped):
        return _path_box(Path(item.clip))
    return None


def flatten(items: Iterable[Item], forms: Sequence[Form] = ()) -> list[Item]:
    """Items with every UseForm replaced by its form's items."""
    by_name = {f.name: f for f in forms}
    out: list[Item] = []
    for item in items:
        if isinstance(item, UseForm):
            out.extend(flatten(by_name[item.name].items, forms))
        else:
            out.append(item)
    return out


def overlapping_texts(items: Iterable[Item], pad: float = 0.0) -> list[tuple[Text, Text]]:
    """Pairs of Text items whose boxes intersect."""
    texts = [i for i in items if isinstance(i, Text)]
    boxes = [text_box(t) for t in texts]
    pairs: list[tuple[Text, Text]] = []
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if boxes[i].intersects(boxes[j], pad):
                pairs.append((texts[i], texts[j]))
    return pairs


def outside(items: Iterable[Item], area: Box, tol: float = 1.0) -> list[Item]:
    """Items not within ``area``; a stroke may straddle its edge by ``tol`` points."""
    found: list[Item] = []
    for item in items:
        box = item_box(item)
        if box is not None and not box.inside(area, tol):
            found.append(item)
    return found


def segment_hits(box: Box, x1: float, y1: float, x2: float, y2: float, pad: float = 0.0) -> bool:
    """Whether the segment (x1, y1)-(x2, y2) passes through ``box`` grown by ``pad`` (touching is not)."""
    b = box.grow(pad)
    return clip_segment((x1, y1), (x2, y2), corners(b), strict=True) is not None


def blank_band(items: Iterable[Item], area: Box) -> tuple[float, float]:
    """The tallest horizontal band of ``area`` that no item's box reaches: (top y, height).

    Every item (text, rule, box, icon) covers the rows of its box; the band is
    the largest stretch of rows inside ``area`` covered by none of them, the
    top and bottom margins' edges included. Shows paper a sheet leaves unused.
    """
    spans = sorted(
        (max(b.y, area.y), min(b.bottom, area.bottom))
        for b in (item_box(i) for i in items)
        if b is not None and b.bottom > area.y and b.y < area.bottom
    )
    best = (area.y, 0.0)
    reached = area.y
    for top, bottom in spans + [(area.bottom, area.bottom)]:
        if top - reached > best[1]:
            best = (reached, top - reached)
        reached = max(reached, bottom)
    return best
