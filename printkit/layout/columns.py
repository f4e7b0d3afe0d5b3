"""Score pads with one column per player: empty tables stacked down a page, players paged across.

Both column-per-player pads (Around the World's and Trekking the World's)
share this flow: as many copies of the table as fit above the notes at the
page's foot are drawn once as a Form; each page then draws its player
columns (the rules between them and a box in each Total cell) and prints its
players' names over them, with ``page p of n`` when the players need more than
one page.

Every name is printed whole at ``NAME_MIN`` or more, on one line or two
(:func:`printkit.layout.common.name_fit`): a column is as wide as its name
needs, the others share what is left (each at least ``MIN_COLUMN`` to write a
score in), and a page takes fewer players when their names need more than the
page's width.

The table is drawn at a row scale: the pad takes the most tables that fit with
rows at least ``ColumnPad.min_scale`` of their normal height (where a row's
label and hint still clear the next row's), then the tallest rows (up to
``MAX_SCALE``) at which that many still fit, so the tables use the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from printkit.layout.common import (
    BODY_SIZE,
    GREY,
    INK,
    MARGIN,
    PAPER_WHITE,
    THIN,
    LayoutError,
    Sheet,
    document,
    name_texts,
    name_width,
    paragraph,
    text,
)
from printkit.layout.primitives import Document, Form, Item, Line, Page, Rect, Style, UseForm


class Drawn(NamedTuple):
    """One empty table: its items, its player header's baseline, its top and bottom, and its Total row's top and
    bottom (each player's Total cell gets a box)."""

    items: list[Item]
    base: float
    top: float
    bottom: float
    total: tuple[float, float]


Table = Callable[[float, float], Drawn]
"""Draws one empty table with its top at y, rows at a scale."""

MAX_SCALE = 1.5
SCALE_STEP = 0.02
NAME_SIZE = 11.0
"""A player's name over its column, shrunk to ``NAME_MIN`` before it takes two lines."""
NAME_PAD = 6.0
"""Room (points) a name leaves in its column, both sides together."""
MIN_COLUMN = 40.0
"""The narrowest a player's column gets (points): room to write a score."""
TOTAL_BOX = Style(stroke=INK, fill=PAPER_WHITE, width=1.6)
"""The box in each player's Total cell: white on the shaded row, its frame heavier than any rule."""
TOTAL_INSET = 3.0


@dataclass(frozen=True)
class ColumnPad:
    """A column-per-player pad: its begun page, the label column, the columns and the texts around."""

    sheet: Sheet
    label_w: float
    cols: int
    notes: str
    gap: float
    form: str
    title: str
    overflow: str
    """The error message when not even one table fits the page."""
    min_scale: float = 0.84
    """The shortest rows allowed, as a share of their normal height."""
    name_room: float = 19.8
    """The height (points) a name's two lines may take in the header row at its shortest."""

    @property
    def room(self) -> float:
        """The width (points) the player columns share."""
        return self.sheet.w - self.label_w


def stack(table: Table, top: float, limit: float, gap: float, scale: float = 1.0) -> tuple[list[Item], list[Drawn]]:
    """As many tables as fit between ``top`` and ``limit``, ``gap`` apart: (items, the tables)."""
    items: list[Item] = []
    tables: list[Drawn] = []
    y = top
    while True:
        drawn = table(y, scale)
        if drawn.bottom > limit:
            return items, tables
        items += drawn.items
        tables.append(drawn)
        y = drawn.bottom + gap


def fill_scale(table: Table, top: float, limit: float, gap: float, min_scale: float) -> float:
    """The row scale (``min_scale`` to ``MAX_SCALE``) at which the most tables fit, and among those the tallest rows."""
    def count(scale: float) -> int:
        height = table(top, scale).bottom - top
        return int((limit - top + gap) // (height + gap))

    most = count(min_scale)
    steps = int((MAX_SCALE - min_scale) / SCALE_STEP)
    return next((s for s in (round(MAX_SCALE - SCALE_STEP * i, 2) for i in range(steps)) if count(s) >= most),
                min_scale)


def needs(name: str) -> float:
    """The width (points) a player's column needs for ``name`` (at least ``MIN_COLUMN``)."""
    return max(MIN_COLUMN, name_width(name) + NAME_PAD) if name else MIN_COLUMN


def widths(names: Sequence[str], cols: int, room: float) -> list[float]:
    """Each column's width: ``room`` shared out equally, except that a name needing more gets what it needs (and a
    page of such names only shares what is left over)."""
    want = [needs(n) for n in names] + [MIN_COLUMN] * (cols - len(names))
    wide: set[int] = set()
    level = room / cols
    while len(wide) < cols:
        more = {k for k, w in enumerate(want) if w > level}
        if more == wide:
            break
        wide = more
        level = (room - sum(want[k] for k in wide)) / (cols - len(wide)) if len(wide) < cols else 0.0
    if len(wide) == cols:
        spare = (room - sum(want)) / cols
        return [w + spare for w in want]
    return [want[k] if k in wide else level for k in range(cols)]


def chunks(names: Sequence[str], cols: int, room: float) -> list[tuple[list[str], int]]:
    """The players' names page by page, each with its count of columns: up to ``cols`` a page (blank columns to
    fill), fewer (no blank column) where their names need more than ``room``."""
    pages: list[tuple[list[str], int]] = []
    group: list[str] = []
    for name in names:
        fits = sum(needs(n) for n in (*group, name)) <= room
        if group and (len(group) == cols or not fits):
            pages.append((group, cols if len(group) == cols else len(group)))
            group = []
        group.append(name)
    full = sum(needs(n) for n in group) + MIN_COLUMN * (cols - len(group)) <= room
    pages.append((group, cols if full else len(group)))
    return pages


def columns(pad: ColumnPad, names: Sequence[str], count: int, tables: Sequence[Drawn]) -> list[Item]:
    """One page's player columns in every table: the rules between them, a box in each Total cell, the names."""
    items: list[Item] = []
    x = pad.sheet.x + pad.label_w
    for k, w in enumerate(widths(names, count, pad.room)):
        for t in tables:
            if k:
                items.append(Line(x, t.top, x, t.bottom, THIN))
            y0, y1 = t.total
            items.append(Rect(x + TOTAL_INSET, y0 + TOTAL_INSET, w - 2 * TOTAL_INSET, y1 - y0 - 2 * TOTAL_INSET,
                              TOTAL_BOX, radius=2.5))
            if k < len(names) and names[k]:
                items += name_texts(x + w / 2, t.base, names[k], w - NAME_PAD, NAME_SIZE, "middle",
                                    middle=True, height=pad.name_room)
        x += w
    return items


def player_pages(pad: ColumnPad, names: Sequence[str], tables: Sequence[Drawn]) -> list[Page]:
    """One page per group of names (at least one): the Form, then the players' columns and names."""
    groups = chunks(names, pad.cols, pad.room) if names else [([], pad.cols)]
    pages: list[Page] = []
    for p, (group, count) in enumerate(groups):
        items: list[Item] = [UseForm(pad.form), *columns(pad, group, count, tables)]
        if len(groups) > 1:
            items.append(text(pad.sheet.x + pad.sheet.w, MARGIN + 12, f"page {p + 1} of {len(groups)}",
                              BODY_SIZE, anchor="end", fill=GREY))
        pages.append(Page(tuple(items), label=", ".join(n for n in group if n)))
    return pages


def column_pad(pad: ColumnPad, table: Table, names: Sequence[str]) -> Document:
    """The whole pad: tables stacked above the notes, then the players' pages."""
    s = pad.sheet
    _, note_h = paragraph(s.x, 0, s.w, pad.notes, BODY_SIZE, fill=GREY)
    limit = s.height - MARGIN - note_h - 8
    items, tables = stack(table, s.y, limit, pad.gap, fill_scale(table, s.y, limit, pad.gap, pad.min_scale))
    if not tables:
        raise LayoutError(pad.overflow)
    notes, _ = paragraph(s.x, s.height - MARGIN - note_h, s.w, pad.notes, BODY_SIZE, fill=GREY)
    form = Form(pad.form, tuple(s.items + items + notes))
    return document(s.width, s.height, player_pages(pad, names, tables), [form], pad.title)
