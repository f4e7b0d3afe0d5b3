"""Label placement: text beside points, clear of obstacles and of each other (map sheets)."""

from __future__ import annotations

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

    def near(self, box: Box) -> LabelPlacer:
        """A placer holding only what lies near ``box`` (a sheet has hundreds of obstacles and route pieces):
        the same answers as this one for labels at least ``gap`` inside it, found faster."""
        local = LabelPlacer(self.area, [o for o in self.obstacles if o.intersects(box)], self.gap)
        local.soft = [o for o in self.soft if o.intersects(box)]
        local.lines = [ln for ln in self.lines if segment_hits(box, ln[0], ln[1], ln[2], ln[3], ln[4])]
        return local

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
