"""Where things go on a map sheet: the map's box, and the scoring blocks flowed into columns.

The body of the sheet (under the title) is the map at the top left, its key
under it, then one or more section columns under the map, and ``r`` full
height section columns on the right. The blocks flow like a newspaper: the
columns under the map left to right, then the right columns, so the eye goes
map -> sections -> Speed bonus and TOTAL, which end the flow at the bottom right.

:func:`plan` tries every arrangement (right columns, map height, row scale,
with or without the "Each turn" reminder) and keeps the one with the largest
map and the least paper left blank. Nothing here knows a map by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from printkit.layout.boxes import Box
from printkit.sheets.mapsections import MAX_SCALE, Block, Metrics, blocks, measure, turn_block
from printkit.model.maps import GameMap

SECTION_W = 236.0
"""Width of a right-hand section column."""
UNDER_MIN_W = 224.0
"""The narrowest a section column under the map may be (they share the map's width)."""
COLUMN_GAP = 16.0
BLOCK_GAP = 10.0
MAP_PAD = 12.0
SCALES = (1.0, 1.1, 1.2, MAX_SCALE)
ROWS = (1.0, 1.15, 1.3)
"""Row-height stretches tried at a scale (boxes stay that scale's size)."""
BLANK_WEIGHT = 0.6
"""How much a square point of blank paper costs against one of map."""
EMPTY_WEIGHT = 2.0
"""Blank paper in a column with no block at all counts this many times over."""

METRICS = tuple(Metrics(s, r) for s in SCALES for r in ROWS)
"""Every section size tried, smallest first (a tie keeps the plainer one)."""


@dataclass(frozen=True)
class Column:
    """A section column on the page and the blocks it holds, top to bottom."""

    box: Box
    blocks: tuple[int, ...]
    heights: tuple[float, ...]

    @property
    def used(self) -> float:
        """Height its blocks take, gaps included."""
        return sum(self.heights) + BLOCK_GAP * max(0, len(self.heights) - 1)


@dataclass(frozen=True)
class Plan:
    """The chosen arrangement: the map's box (already fitted), the key's top, the columns."""

    map_box: Box
    key_y: float
    left_w: float
    blocks: tuple[Block, ...]
    columns: tuple[Column, ...]
    metrics: Metrics
    turn: int
    """0: no "Each turn" reminder; 1: the actions; 2: the actions and the game end."""
    score: float


def fitted_box(aspect: float, box: Box) -> Box:
    """The part of ``box`` a map of content ``aspect`` (w / h) fills, padding kept, at its top left."""
    iw, ih = box.w - 2 * MAP_PAD, box.h - 2 * MAP_PAD
    w, h = (iw, iw / aspect) if iw / aspect <= ih else (ih * aspect, ih)
    return Box(box.x, box.y, w + 2 * MAP_PAD, h + 2 * MAP_PAD)


def _flow(heights: Sequence[Sequence[float]], caps: Sequence[float]) -> list[list[int]] | None:
    """Blocks in order into slots in order (a slot that cannot take the next block is left empty).

    ``heights[slot][i]`` is block i's height at that slot's width.
    """
    out: list[list[int]] = [[] for _ in caps]
    slot, used = 0, 0.0
    for i in range(len(heights[0]) if heights else 0):
        while slot < len(caps):
            h = heights[slot][i]
            need = h if not out[slot] else used + BLOCK_GAP + h
            if need <= caps[slot]:
                out[slot].append(i)
                used = need
                break
            slot, used = slot + 1, 0.0
        else:
            return None
    return out


def plan(m: GameMap, x: float, top: float, width: float, height: float,
         key_height: Callable[[float], float], least_map: float = 0.6, section_w: float = SECTION_W) -> Plan:
    """The best arrangement of map and sections in the body box (x, top, width, height).

    The map may shrink to ``least_map`` of its largest height to make room for
    the sections; right-hand section columns are ``section_w`` wide.
    """
    from printkit.layout.geo import MapFrame

    _, _, cw, ch = MapFrame(m.projection, 0.0, 0.0, 1000.0, 1000.0).content
    aspect = cw / ch
    measured: dict[tuple[Metrics, int, float], tuple[list[Block], list[float]]] = {}

    def sized(mt: Metrics, turn: int, w: float) -> tuple[list[Block], list[float]]:
        if (mt, turn, w) not in measured:
            bl = ([turn_block(m, mt, with_end=turn == 2)] if turn else []) + blocks(m, mt)
            measured[(mt, turn, w)] = (bl, [measure(b, w) for b in bl])
        return measured[(mt, turn, w)]

    best: Plan | None = None
    for right in (1, 2, 3):
        left_w = width - right * (section_w + COLUMN_GAP)
        if left_w < 0.25 * width:
            break
        under = int((left_w + COLUMN_GAP) // (UNDER_MIN_W + COLUMN_GAP))
        under_w = (left_w - (under - 1) * COLUMN_GAP) / under if under else 0.0
        key_h = key_height(left_w)
        right_boxes = [Box(x + left_w + COLUMN_GAP + k * (section_w + COLUMN_GAP), top, section_w, height)
                       for k in range(right)]
        full = fitted_box(aspect, Box(x, top, left_w, height - key_h))
        for step in range(0, round((1 - least_map) / 0.02) + 1):  # the map from its largest down
            mbox = fitted_box(aspect, Box(x, top, left_w, full.h * (1 - 0.02 * step)))
            under_top = mbox.bottom + key_h + BLOCK_GAP
            under_h = top + height - under_top
            under_boxes = [Box(x + k * (under_w + COLUMN_GAP), under_top, under_w, under_h)
                           for k in range(under)] if under_h > 0 and under else []
            boxes = under_boxes + right_boxes
            for turn in (2, 1, 0):  # the "Each turn" reminder: with the game end, without, none
                for mt in METRICS:
                    hs = [sized(mt, turn, b.w)[1] for b in boxes]
                    placed = _flow(hs, [b.h for b in boxes])
                    if placed is None:
                        continue
                    cols = tuple(Column(b, tuple(p), tuple(hs[k][i] for i in p))
                                 for k, (b, p) in enumerate(zip(boxes, placed)))
                    # an empty column looks forgotten; space left at a column's foot less so
                    blank = sum((c.box.h - c.used) * c.box.w * (1 if c.blocks else EMPTY_WEIGHT) for c in cols)
                    blank += (left_w - mbox.w) * mbox.h  # beside a map narrower than its area
                    score = (mbox.w - 2 * MAP_PAD) * (mbox.h - 2 * MAP_PAD) - BLANK_WEIGHT * blank
                    if best is None or score > best.score + 1e-6:
                        bl = sized(mt, turn, section_w)[0]
                        best = Plan(mbox, mbox.bottom + 2, left_w, tuple(bl), cols, mt, turn, score)
    if best is None:
        from printkit.layout.common import LayoutError

        raise LayoutError(f"{m.source or m.id}: the scoring sections do not fit beside the map")
    return best

