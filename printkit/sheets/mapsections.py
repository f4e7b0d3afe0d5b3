"""The scoring sections printed beside a map: Collect, Explore tracks, regions, totals.

Rows are kinds, columns are levels (RULINGS.md). Every number printed comes
from the map data: a row's points at the row's end (Collect) or under the
boxes it scores (Explore), a column's points under that column. A
:class:`Metrics` scale makes the write-in boxes, icons and rows roomier when
the sheet has space to spare (text sizes stay the same).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from printkit.layout import fonts
from printkit.layout.common import (
    BODY_SIZE,
    INK,
    LIGHT,
    PAPER_WHITE,
    checkbox,
    fitted,
    paragraph,
    section_header,
    text,
)
from printkit.layout.primitives import Circle, Icon, Item, Rect, Style
from printkit.model.maps import GameMap, Track
from printkit.sheets.citymarks import shield
from printkit.sheets.wording import cities_needed, explored

BOX = 13.0
GAP = 3.5
ROW_H = 16.5
ICON = 12.0
NAME_W = 76.0
SCORE_CLEAR = 48.0
"""Room a row of boxes leaves at a block's right edge for the ``= [ ]`` score box."""
SMALL = 8.0  # captions under boxes (grey); numbers themselves are BODY_SIZE
CAPTION = "#3d3d3d"
"""Captions on the map sheet: dark grey, so that a halftoning printer keeps them solid enough to read."""
TURNS_PER_ROW = 10
"""Finish-turn boxes per row on the map sheet's speed bonus."""
SMALL_TEXT = 7.5
"""The smallest text on a map sheet (the finish-turn numbers)."""

BoxIds = list[tuple[str, Rect]]
"""Write-in boxes a block drew, each with its game-file key (``souvenirs.hats.1``)."""


class Drawn(NamedTuple):
    """What a block drew at a place: its items, its height and its named boxes."""

    items: list[Item]
    height: float
    boxes: BoxIds


Block = Callable[[float, float, float], Drawn]
MAX_SCALE = 1.3
"""The largest box scale: boxes 13 -> 16.9 pt (rows may stretch further, see Metrics.rows)."""


@dataclass(frozen=True)
class Metrics:
    """Sizes of the write-in boxes, icons and rows, all ``scale`` times the defaults.

    ``rows`` stretches the rows' height alone (boxes and icons keep their size),
    to spend height a column has to spare when wider boxes would not fit.
    """

    scale: float = 1.0
    rows: float = 1.0

    @property
    def box(self) -> float:
        """Side of a write-in box."""
        return BOX * self.scale

    @property
    def gap(self) -> float:
        """Space between boxes in a row."""
        return GAP * self.scale

    @property
    def row_h(self) -> float:
        """Height of one kind's row."""
        return ROW_H * self.scale * self.rows

    @property
    def icon(self) -> float:
        """Size of a kind's icon."""
        return ICON * self.scale


DEFAULT = Metrics()


def _badge(cx: float, cy: float, value: str) -> list[Item]:
    """Points printed in a small shaded circle."""
    r = 7.5
    return [
        Circle(cx, cy, r, Style(stroke=INK, fill=LIGHT, width=0.6)),
        text(cx, cy + 3.2, value, BODY_SIZE, "bold", "middle"),
    ]


def _score_box(x: float, y: float, ids: BoxIds, key: str, label: str = "=") -> list[Item]:
    """A write-in box for a section's points, right edge at x, named ``score.<key>`` in ``ids``."""
    w, h = 34.0, 18.0
    box = Rect(x - w, y, w, h, Style(stroke=INK, fill=PAPER_WHITE, width=1.1), radius=2)
    ids.append((f"score.{key}", box))
    return [text(x - w - 4, y + 12.5, label, BODY_SIZE, "bold", "end"), box]


def _named_row(x: float, y: float, count: int, mt: Metrics, ids: BoxIds, key: str) -> list[Item]:
    """``count`` boxes in a row, named ``<key>.1`` (leftmost) ... in ``ids``."""
    row = [checkbox(x + i * (mt.box + mt.gap), y, mt.box) for i in range(count)]
    ids += [(f"{key}.{n}", r) for n, r in enumerate(row, 1)]
    return list(row)


def _kind_label(x: float, y: float, icon: str, name: str, mt: Metrics) -> list[Item]:
    """Icon + name at the start of a row (y = row top)."""
    return [
        Icon(icon, x, y + (mt.row_h - mt.icon) / 2 - 1, mt.icon),
        fitted(x + mt.icon + 4, y + mt.row_h / 2 + 2, name, NAME_W - mt.icon - 6, BODY_SIZE, "bold"),
    ]


def _points_under(bx: float, y: float, values: list[str], caption: str, mt: Metrics) -> list[Item]:
    """A caption and one number under each box column."""
    items: list[Item] = [text(bx - 6, y, caption, SMALL, anchor="end", fill=CAPTION)]
    for i, v in enumerate(values):
        items.append(text(bx + i * (mt.box + mt.gap) + mt.box / 2, y, v, BODY_SIZE, "bold", "middle"))
    return items


def _threshold_row(t: Track) -> bool:
    """Whether only a full row scores (Collect), so its points go at the row's end."""
    return all(p == 0 for p in t.row_points[:-1])


def track_block(t: Track, key: str, subtitle: str = "", mt: Metrics = DEFAULT) -> Block:
    """A block for one mark section (rows of boxes, or single boxes for rare kinds); boxes ``key.<kind>.<n>``."""

    def draw(x: float, y: float, w: float) -> Drawn:
        notes: list[str] = []
        if t.majority is not None:
            notes.append(f"most marks +{t.majority.most}, tied +{t.majority.tied} (multiplayer)")
        if t.first_bonus:
            notes.append(f"+{t.first_bonus} if you marked it first (solo: always)")
        items, hh = section_header(x, y, w, t.name, subtitle)
        ids: BoxIds = []
        yy = y + hh
        bx = x + NAME_W
        if t.boxes == 1:
            return _single_boxes(t, key, (x, yy, w, y), items, notes, mt)
        threshold = _threshold_row(t)
        if bx + t.boxes * (mt.box + mt.gap) > x + w - SCORE_CLEAR:
            return Drawn(items, math.inf, ids)  # too wide at this scale: the planner takes a smaller one
        badge_x = bx + t.boxes * (mt.box + mt.gap) + 10
        if threshold:
            items.append(text(badge_x, yy + 7, "row", SMALL, anchor="middle", fill=CAPTION))
            yy += 9
        for kind in t.kinds:
            items += _kind_label(x, yy, kind.icon, kind.name, mt)
            items += _named_row(bx, yy + (mt.row_h - mt.box) / 2, t.boxes, mt, ids, f"{key}.{kind.id}")
            if threshold:
                items += _badge(badge_x, yy + mt.row_h / 2, str(t.row_points[-1]))
            yy += mt.row_h
        yy += 10
        if not threshold:
            items += _points_under(bx, yy, [str(p) for p in t.row_points[1:]], "row by marks", mt)
            yy += 13
        if t.column_points:
            items += _points_under(bx, yy, [str(t.column_points)] * t.boxes, "full column", mt)
            yy += 4
        for note in notes:
            yy += 12
            items.append(fitted(x, yy, note, w - 50, BODY_SIZE, fill=INK))
        items += _score_box(x + w, yy - 13, ids, t.id)
        return Drawn(items, yy - y + 6, ids)

    return draw


def _single_boxes(
    t: Track, key: str, at: tuple[float, float, float, float], items: list[Item], notes: list[str], mt: Metrics
) -> Drawn:
    """Rare kinds: one box each (``key.<kind>.1``), two per line, the points printed once.

    ``at`` is (x, top of the rows, width, top of the block).
    """
    x, yy, w, top = at
    ids: BoxIds = []
    boxes_w = (2 * mt.box + mt.gap + 6) if t.first_bonus else mt.box + 6
    col_w2 = (w - 40) / 2
    fits = all(fonts.text_width(k.name, 8.5, "bold") <= col_w2 - mt.icon - boxes_w - 8 for k in t.kinds)
    per_line = 2 if fits else 1
    col_w = (w - 40) / per_line
    if t.first_bonus:  # which box is which: the mark, and "I marked it first" (multiplayer)
        for c in range(per_line):
            bx = x + c * col_w + col_w - boxes_w
            items.append(text(bx + mt.box / 2, yy + 6, "seen", SMALL_TEXT, anchor="middle", fill=CAPTION))
            items.append(text(bx + 1.5 * mt.box + mt.gap, yy + 6, "1st", SMALL_TEXT, anchor="middle", fill=CAPTION))
        yy += 9
    for i, kind in enumerate(t.kinds):
        r, c = divmod(i, per_line)
        kx = x + c * col_w
        ky = yy + r * mt.row_h
        bx = kx + col_w - boxes_w
        items.append(Icon(kind.icon, kx, ky + (mt.row_h - mt.icon) / 2 - 1, mt.icon))
        items.append(fitted(kx + mt.icon + 4, ky + mt.row_h / 2 + 2, kind.name, col_w - mt.icon - boxes_w - 8,
                            BODY_SIZE, "bold"))
        items += _named_row(bx, ky + (mt.row_h - mt.box) / 2, 1, mt, ids, f"{key}.{kind.id}")
        if t.first_bonus:
            first = checkbox(bx + mt.box + mt.gap, ky + (mt.row_h - mt.box) / 2, mt.box)
            ids.append((f"first_rare.{kind.id}", first))
            items.append(first)
    lines = (len(t.kinds) + per_line - 1) // per_line
    yy += lines * mt.row_h + 11
    parts = [f"{t.row_points[1]} each"] + notes
    items.append(fitted(x, yy, ", ".join(parts), w - 50, BODY_SIZE))
    items += _score_box(x + w, yy - 13, ids, t.id)
    return Drawn(items, yy - top + 6, ids)


def regions_block(m: GameMap, mt: Metrics = DEFAULT) -> Block:
    """Regions: each with its souvenirs and a box, then how completed regions score."""
    rs = m.region_scoring

    def draw(x: float, y: float, w: float) -> Drawn:
        note = {
            "table": "all cities visited",
            "per_region": f"all cities visited: {rs.points} each",
            "majority": "most cities visited",
        }[rs.mode]
        items, hh = section_header(x, y, w, "Regions", note)
        ids: BoxIds = []
        yy = y + hh
        row_h = 15.0 * mt.scale * mt.rows
        tick = 12.0 * mt.scale
        tally = 10.0 * mt.scale
        for region in m.regions:
            tick_box = checkbox(x, yy + (row_h - tick) / 2, tick)
            ids.append((f"regions.{region.id}", tick_box))
            items.append(tick_box)
            items.append(fitted(x + tick + 5, yy + row_h / 2 + 3.5, region.name, 108 - tick, BODY_SIZE, "bold"))
            for k, sid in enumerate(region.souvenirs):
                icon = m.collect.kind(sid).icon if sid in m.collect.kind_ids else sid
                items.append(Icon(icon, x + 116 + k * (tick + 2), yy + (row_h - tick) / 2, tick))
            if region.reward is not None:
                items.append(text(x + w, yy + row_h / 2 + 3.5, f"most: {region.reward}", BODY_SIZE, "bold", "end"))
            yy += row_h
            if rs.mode == "majority":  # the count of cities visited, for the majority
                count = len(m.region_cities(region.id))
                items.append(text(x + 112, yy + tally - 2.5, "visited", SMALL_TEXT, anchor="end", fill=CAPTION))
                row = [checkbox(x + 116 + k * (tally + 2), yy, tally) for k in range(count)]
                ids += [(f"visited.{region.id}.{n}", b) for n, b in enumerate(row, 1)]
                items += row
                yy += tally + 4
        yy += 4
        if rs.mode == "table":
            counts = [str(n) for n in range(1, len(rs.table))]
            pts = [str(p) for p in rs.table[1:]]
            cw = min(22.0, (w - 64 - 44) / max(1, len(counts)))
            items.append(text(x + 58, yy + 9, "regions", SMALL, anchor="end", fill=CAPTION))
            items.append(text(x + 58, yy + 22.5, "points", SMALL, anchor="end", fill=CAPTION))
            for i, (c, p) in enumerate(zip(counts, pts)):
                cx = x + 64 + i * cw + cw / 2
                items.append(text(cx, yy + 9, c, BODY_SIZE, anchor="middle"))
                items.append(text(cx, yy + 22.5, p, BODY_SIZE, "bold", "middle"))
            yy += 27.5
        elif rs.mode == "majority":
            items.append(fitted(x, yy + 9, f"Tied for most: {rs.tied} each. Solo: reward if all visited.",
                                w - 50, BODY_SIZE))
            yy += 14
        else:
            items.append(fitted(x, yy + 9, f"{rs.points} points per completed region", w - 50, BODY_SIZE))
            yy += 14
        items += _score_box(x + w, yy - 20, ids, "regions")
        return Drawn(items, yy - y + 2, ids)

    return draw


def iconic_block(m: GameMap, mt: Metrics = DEFAULT) -> Block:
    """Iconic (shield) cities: the shield the map draws them with, a box per city visited, the points under each
    count."""

    def draw(x: float, y: float, w: float) -> Drawn:
        items, hh = section_header(x, y, w, "Iconic cities", "shield cities visited")
        ids: BoxIds = []
        yy = y + hh
        items.append(shield((x + mt.icon / 2, yy + 2 + mt.icon / 2), mt.icon))  # as the map draws them
        n = len(m.iconic_table) - 1
        bx = x + NAME_W
        items += _named_row(bx, yy + 2, n, mt, ids, "iconic")
        yy += mt.row_h + 10
        items += _points_under(bx, yy, [str(p) for p in m.iconic_table[1:]], "visited", mt)
        items += _score_box(x + w, yy - 13, ids, "iconic")
        return Drawn(items, yy - y + 10, ids)

    return draw


def finish_block(m: GameMap, mt: Metrics = DEFAULT) -> Block:
    """Speed bonus (the multiplayer tick, the solo/party turn row) and the grand total."""
    need = cities_needed(m)
    turns = m.solo.turns
    solo = f"Solo/party: tick the turn you finished on; it scores {turns} - that turn."

    def draw(x: float, y: float, w: float) -> Drawn:
        items, hh = section_header(x, y, w, "Speed bonus")
        ids: BoxIds = []
        yy = y + hh
        speed = checkbox(x, yy + 2, 12)
        ids.append(("speed", speed))
        items.append(speed)
        para, ph = paragraph(x + 17, yy + 2, w - 100, f"{need} in every region, back at start", BODY_SIZE)
        items += para
        items += _badge(x + w - 60, yy + 8, str(m.speed_bonus))
        items += _score_box(x + w, yy - 1, ids, "speed")
        yy += max(22.0, ph + 8)
        para, ph = paragraph(x, yy, w, f"Multiplayer: {m.speed_bonus} when you finish. {solo}", SMALL)
        items += para
        yy += ph + 4
        per_row = math.ceil(turns / math.ceil(turns / TURNS_PER_ROW))
        step = w / per_row
        side = min(mt.box, step - 4)
        for n in range(1, turns + 1):
            row, col = divmod(n - 1, per_row)
            bx, by = x + col * step + (step - side) / 2, yy + row * (side + 11)
            box = checkbox(bx, by, side)
            ids.append((f"finished_turn.{n}", box))
            items.append(box)
            items.append(text(bx + side / 2, by + side + 8, str(n), SMALL_TEXT, anchor="middle", fill=INK))
        yy += math.ceil(turns / per_row) * (side + 11) + 4
        total_h = 30 * mt.scale
        items.append(Rect(x, yy, w, total_h, Style(stroke=INK, fill=LIGHT, width=1.4), radius=3))
        items.append(text(x + 8, yy + total_h / 2 + 5, "TOTAL", 13, "bold"))
        total = Rect(x + w - 70, yy + 4, 64, total_h - 8, Style(stroke=INK, fill=PAPER_WHITE, width=1.2), radius=2)
        ids.append(("total", total))
        items.append(total)
        return Drawn(items, yy + total_h - y, ids)

    return draw


def blocks(m: GameMap, mt: Metrics = DEFAULT) -> list[Block]:
    """Every scoring block of the map, in reading order (Speed bonus and TOTAL last)."""
    out: list[Block] = [track_block(m.collect, "souvenirs", "souvenirs of your region", mt)]
    for t in m.explore:
        out.append(track_block(t, m.explore_key, f"{explored(m)} of your city", mt))
    out.append(regions_block(m, mt))
    if m.iconic_table:
        out.append(iconic_block(m, mt))
    out.append(finish_block(m, mt))
    return out


def measure(block: Block, w: float) -> float:
    """The height a block needs at width ``w``."""
    return block(0.0, 0.0, w)[1]
