"""Label placement: text beside points, clear of obstacles and of each other (map sheets)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from printkit.layout import fonts
from printkit.layout.boxes import Box, segment_hits, text_box
from printkit.layout.common import INK, SMALL_SIZE, text
from printkit.layout.primitives import Anchor, FontWeight, Text


class LabelPlacer:
    """Places labels beside points without touching obstacles or each other.

    ``soft`` obstacles (e.g. route lines) are avoided when possible; hard ones
    (labels, city circles, icons) always.
    """

    # candidate positions: (dx sign, dy sign, anchor) around the point
    ORDER: tuple[tuple[float, float, Anchor], ...] = (
        (1, 0, "start"), (-1, 0, "end"), (0, -1, "middle"), (0, 1, "middle"),
        (1, -1, "start"), (1, 1, "start"), (-1, -1, "end"), (-1, 1, "end"),
    )

    STEPS: tuple[tuple[bool, float], ...] = (
        (True, 0.0), (True, 2.0), (True, 4.0), (False, 0.0), (False, 2.0), (False, 4.0),
        (True, 7.0), (False, 7.0), (True, 11.0), (False, 11.0), (True, 16.0), (False, 16.0),
        (True, 22.0), (False, 22.0),
    )
    """(soft, extra distance) in the order tried: near a point first, crossing a soft
    obstacle (a route) rather than moving far away and needing a leader line."""

    def __init__(self, area: Box, obstacles: Iterable[Box] = (), gap: float = 1.0) -> None:
        self.area = area
        self.obstacles: list[Box] = list(obstacles)
        self.soft: list[Box] = []
        self.lines: list[tuple[float, float, float, float, float]] = []
        self.gap = gap

    def block(self, box: Box) -> None:
        """Mark a box as taken."""
        self.obstacles.append(box)

    def avoid(self, box: Box) -> None:
        """Mark a box as best avoided (soft)."""
        self.soft.append(box)

    def avoid_line(self, x1: float, y1: float, x2: float, y2: float, pad: float = 1.0) -> None:
        """Mark a line (e.g. a route) as best avoided, ``pad`` points either side of it (soft)."""
        self.lines.append((x1, y1, x2, y2, pad))

    def free(self, box: Box, soft: bool = False) -> bool:
        """Whether a box is inside the area and clear of everything placed (and soft ones)."""
        if not box.inside(self.area) or any(box.intersects(o, self.gap) for o in self.obstacles):
            return False
        if not soft:
            return True
        if any(box.intersects(o) for o in self.soft):
            return False
        return not any(segment_hits(box, x1, y1, x2, y2, pad) for x1, y1, x2, y2, pad in self.lines)

    def place_near(
        self, value: str, cx: float, cy: float, reach: float, size: float = SMALL_SIZE,
        weight: FontWeight = "regular", fill: str = INK,
    ) -> Text | None:
        """A label centred as near (cx, cy) as it can be, within ``reach``, clear of soft obstacles too.

        Rings of 16 positions every 4 points out from the point; when none is
        clear, :meth:`place` (which may cross a soft obstacle) decides.
        """
        asc, desc = fonts.ascent(size, weight), fonts.descent(size, weight)
        mid = (asc - desc) / 2
        half = fonts.text_width(value, size, weight) / 2 + self.gap + 2
        near = Box(cx - reach - half, cy - reach - asc - self.gap - 2, 2 * (reach + half),
                   2 * reach + asc + desc + 2 * self.gap + 4)
        # only what the search can reach is checked (a sheet has hundreds of obstacles)
        local = LabelPlacer(self.area, [o for o in self.obstacles if o.intersects(near)], self.gap)
        local.soft = [o for o in self.soft if o.intersects(near)]
        local.lines = [ln for ln in self.lines if segment_hits(near, ln[0], ln[1], ln[2], ln[3], ln[4])]
        d = 0.0
        while d <= reach:
            ring = 1 if d == 0 else 16
            for k in range(ring):
                a = 2 * math.pi * k / ring
                candidate = text(cx + d * math.cos(a), cy + mid + d * math.sin(a), value, size, weight,
                                 "middle", fill)
                box = text_box(candidate)
                if local.free(box, soft=True):
                    self.block(box)
                    return candidate
            d += 4.0
        return self.place(value, cx, cy, 0.0, size, weight, fill)

    def place(
        self, value: str, cx: float, cy: float, clearance: float, size: float = SMALL_SIZE,
        weight: FontWeight = "regular", fill: str = INK,
    ) -> Text | None:
        """A label for the point (cx, cy), ``clearance`` away; None if nowhere is free."""
        asc, desc = fonts.ascent(size, weight), fonts.descent(size, weight)
        mid = (asc - desc) / 2
        for soft, extra in self.STEPS:
            d = clearance + extra
            for sx, sy, anchor in self.ORDER:
                x = cx + sx * d
                if sy < 0:
                    y = cy - d - desc
                elif sy > 0:
                    y = cy + d + asc
                else:
                    y = cy + mid
                if sy != 0 and sx != 0:
                    x = cx + sx * d * 0.7
                candidate = text(x, y, value, size, weight, anchor, fill)
                box = text_box(candidate)
                if self.free(box, soft):
                    self.block(box)
                    return candidate
        return None
