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
from dataclasses import dataclass, replace

from printkit.layout.boxes import Box
from printkit.layout.common import MARGIN
from printkit.model.maps import GameMap
from printkit.sheets.mapsections import MAX_SCALE, Block, Metrics, blocks, measure
from printkit.sheets.turnblock import turn_block

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

BAND = 0.15
"""No blank band on the sheet may be taller than this share of the printable height..."""
BAND_WEIGHT = 20.0
"""...or the plan pays this many times its area."""
TURN_WEIGHT = 0.05
"""A plan with the "Each turn" reminder gains this share of the largest map's area."""

TURNS = ((2, False), (1, False), (2, True), (1, True), (0, False))
"""The "Each turn" reminder tried: (0 none, 1 the actions, 2 and the game end; just before Speed bonus?)."""

MAX_STRETCH = 1.8
"""The most a column's rows stretch to fill its height."""

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
    late: bool = False
    """Whether the reminder comes just before Speed bonus (else first)."""


def fitted_box(aspect: float, box: Box) -> Box:
    """The part of ``box`` a map of content ``aspect`` (w / h) fills, padding kept, at its top left."""
    iw, ih = box.w - 2 * MAP_PAD, box.h - 2 * MAP_PAD
    w, h = (iw, iw / aspect) if iw / aspect <= ih else (ih * aspect, ih)
    return Box(box.x, box.y, w + 2 * MAP_PAD, h + 2 * MAP_PAD)


def sheet_blocks(m: GameMap, mt: Metrics, turn: int = 0, late: bool = False) -> list[Block]:
    """The map's scoring blocks at ``mt`` with the "Each turn" reminder (``turn``) first or ``late``."""
    bl = blocks(m, mt)
    if turn:
        bl.insert(len(bl) - 1 if late else 0, turn_block(m, mt, with_end=turn == 2))
    return bl


def stretched(m: GameMap, p: Plan, col: Column) -> tuple[list[Block], list[float]]:
    """A column's blocks with their rows stretched (up to ``MAX_STRETCH``) to fill the column's height."""
    best = [p.blocks[i] for i in col.blocks], list(col.heights)
    rows = p.metrics.rows
    while rows + 0.05 <= MAX_STRETCH:
        rows += 0.05
        bl = sheet_blocks(m, Metrics(p.metrics.scale, rows), p.turn, p.late)
        mine = [bl[i] for i in col.blocks]
        hs = [measure(b, col.box.w) for b in mine]
        if sum(hs) + BLOCK_GAP * (len(hs) - 1) > col.box.h:
            break
        best = mine, hs
    return best


def _band(c: Column) -> float:
    """The tallest blank band a column leaves once its blocks are spread out (its spare height between them)."""
    n = len(c.blocks)
    return c.box.h if n == 0 else c.box.h - c.used if n == 1 else (c.box.h - c.used) / (n - 1) + BLOCK_GAP


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


class _Sizes:
    """A map's blocks and their heights per (size, reminder, width), each block built and measured once.

    The blocks do not depend on the "Each turn" reminder, so they are measured once
    per (size, width) and the reminder once per (size, with the game end, width).
    """

    def __init__(self, m: GameMap) -> None:
        self.m = m
        self.built: dict[Metrics, list[Block]] = {}
        self.reminders: dict[tuple[Metrics, bool], Block] = {}
        self.heights: dict[tuple[Metrics, float], list[float]] = {}
        self.reminder_heights: dict[tuple[Metrics, bool, float], float] = {}
        self.done: dict[tuple[Metrics, int, bool, float], tuple[list[Block], list[float]]] = {}

    def __call__(self, mt: Metrics, turn: int, late: bool, w: float) -> tuple[list[Block], list[float]]:
        """The blocks at ``mt`` with the reminder ``turn`` (first or ``late``) and their heights at width ``w``."""
        key = (mt, turn, late, w)
        if key not in self.done:
            if mt not in self.built:
                self.built[mt] = blocks(self.m, mt)
            bl = list(self.built[mt])
            if (mt, w) not in self.heights:
                self.heights[(mt, w)] = [measure(b, w) for b in bl]
            hs = list(self.heights[(mt, w)])
            if turn:
                rk = (mt, turn == 2)
                if rk not in self.reminders:
                    self.reminders[rk] = turn_block(self.m, mt, with_end=turn == 2)
                if (*rk, w) not in self.reminder_heights:
                    self.reminder_heights[(*rk, w)] = measure(self.reminders[rk], w)
                at = len(bl) - 1 if late else 0
                bl.insert(at, self.reminders[rk])
                hs.insert(at, self.reminder_heights[(*rk, w)])
            self.done[key] = (bl, hs)
        return self.done[key]


def plan(m: GameMap, x: float, top: float, width: float, height: float,
         key_height: Callable[[float], float], least_map: float = 0.6, section_w: float = SECTION_W) -> Plan:
    """The best arrangement of map and sections in the body box (x, top, width, height).

    The map may shrink to ``least_map`` of its largest height to make room for
    the sections; right-hand section columns are ``section_w`` wide.
    """
    from printkit.layout.geo import MapFrame

    _, _, cw, ch = MapFrame(m.projection, 0.0, 0.0, 1000.0, 1000.0).content
    aspect = cw / ch
    sized = _Sizes(m)

    band_limit = BAND * (top + height - MARGIN)
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
            for turn, late in TURNS:
                for mt in METRICS:
                    hs = [sized(mt, turn, late, b.w)[1] for b in boxes]
                    placed = _flow(hs, [b.h for b in boxes])
                    if placed is None:
                        continue
                    cols = tuple(Column(b, tuple(p), tuple(hs[k][i] for i in p))
                                 for k, (b, p) in enumerate(zip(boxes, placed)))
                    # an empty column looks forgotten; space left at a column's foot less so
                    blank = sum((c.box.h - c.used) * c.box.w * (1 if c.blocks else EMPTY_WEIGHT) for c in cols)
                    blank += (left_w - mbox.w) * mbox.h  # beside a map narrower than its area
                    if not under_boxes:  # under the map and its key, when no column fits there
                        blank += left_w * max(0.0, top + height - under_top) * EMPTY_WEIGHT
                    score = (mbox.w - 2 * MAP_PAD) * (mbox.h - 2 * MAP_PAD) - BLANK_WEIGHT * blank
                    score -= BAND_WEIGHT * sum(max(0.0, _band(c) - band_limit) * c.box.w for c in cols)
                    score += TURN_WEIGHT * (turn > 0) * full.w * full.h
                    if best is None or score > best.score + 1e-6:
                        bl = sized(mt, turn, late, section_w)[0]
                        best = Plan(mbox, mbox.bottom + 2, left_w, tuple(bl), cols, mt, turn, score, late)
    if best is None:
        from printkit.layout.common import LayoutError

        raise LayoutError(f"{m.source or m.id}: the scoring sections do not fit beside the map")
    return grown(best, x)


def grown(p: Plan, x: float) -> Plan:
    """The plan with its map frame grown into the paper its map leaves empty: the full width of the map's column
    (a gutter beside a map narrower than it), and down into the height the columns under it leave spare."""
    under = [c for c in p.columns if c.box.y > p.map_box.y + 1 and c.box.x < x + p.left_w]
    spare = min((c.box.h - c.used for c in under), default=0.0)
    grow = max(0.0, spare - BLOCK_GAP) if under and spare > 2 * BLOCK_GAP else 0.0
    box = Box(p.map_box.x, p.map_box.y, p.left_w, p.map_box.h + grow)
    columns = tuple(Column(Box(c.box.x, c.box.y + grow, c.box.w, c.box.h - grow), c.blocks, c.heights)
                    if c in under else c for c in p.columns)
    return replace(p, map_box=box, key_y=p.key_y + grow, columns=columns)

