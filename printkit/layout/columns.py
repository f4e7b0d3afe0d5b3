"""Score pads with one column per player: empty tables stacked down a page, players paged across.

Both column-per-player pads (Around the World's and Trekking the World's)
share this flow: as many copies of the table as fit above the notes at the
page's foot are drawn once as a Form; each page then prints up to ``cols``
player names over their columns in every table, with ``page p of n`` when the
players need more than one page.

The table is drawn at a row scale: the pad takes the most tables that fit with
rows at least ``ColumnPad.min_scale`` of their normal height (where a row's
label and hint still clear the next row's), then the tallest rows (up to
``MAX_SCALE``) at which that many still fit, so the tables use the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from printkit.layout.common import (
    BODY_SIZE,
    GREY,
    MARGIN,
    LayoutError,
    Sheet,
    document,
    name_text,
    paragraph,
    text,
)
from printkit.layout.primitives import Document, Form, Item, Page, UseForm

Table = Callable[[float, float], tuple[list[Item], float, float]]
"""Draws one empty table with its top at y, rows at a scale: (items, baseline of the player header, bottom)."""

NameDrawer = Callable[[float, float, str, float], list[Item]]
"""Draws a player's name centred at x over a header baseline, at most ``width`` wide: its items."""

MAX_SCALE = 1.5
SCALE_STEP = 0.02


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
    name: NameDrawer | None = None
    """Draws a player's name over its column (centre x, header baseline, name, width); default: one line."""

    @property
    def col_w(self) -> float:
        """Width of one player's column."""
        return (self.sheet.w - self.label_w) / self.cols

    def centre(self, column: int) -> float:
        """x of the middle of player column ``column`` (0-based)."""
        return self.sheet.x + self.label_w + column * self.col_w + self.col_w / 2


def stack(table: Table, top: float, limit: float, gap: float, scale: float = 1.0) -> tuple[list[Item], list[float]]:
    """As many tables as fit between ``top`` and ``limit``, ``gap`` apart: (items, header baselines)."""
    items: list[Item] = []
    bases: list[float] = []
    y = top
    while True:
        drawn, base, bottom = table(y, scale)
        if bottom > limit:
            return items, bases
        items += drawn
        bases.append(base)
        y = bottom + gap


def fill_scale(table: Table, top: float, limit: float, gap: float, min_scale: float) -> float:
    """The row scale (``min_scale`` to ``MAX_SCALE``) at which the most tables fit, and among those the tallest rows."""
    def count(scale: float) -> int:
        height = table(top, scale)[2] - top
        return int((limit - top + gap) // (height + gap))

    most = count(min_scale)
    steps = int((MAX_SCALE - min_scale) / SCALE_STEP)
    return next((s for s in (round(MAX_SCALE - SCALE_STEP * i, 2) for i in range(steps)) if count(s) >= most),
                min_scale)


def player_pages(pad: ColumnPad, names: Sequence[str], bases: Sequence[float]) -> list[Page]:
    """One page per ``pad.cols`` names (at least one): the Form plus each name over its column."""
    cols = pad.cols
    chunks = [list(names[i : i + cols]) for i in range(0, len(names), cols)] or [[]]
    pages: list[Page] = []
    for p, chunk in enumerate(chunks):
        items: list[Item] = [UseForm(pad.form)]
        for c, name in enumerate(chunk):
            if name and pad.name is not None:
                items += [i for b in bases for i in pad.name(pad.centre(c), b, name, pad.col_w - 6)]
            elif name:
                items += [name_text(pad.centre(c), b, name, pad.col_w - 6, 11, "middle") for b in bases]
        if len(chunks) > 1:
            items.append(text(pad.sheet.x + pad.sheet.w, MARGIN + 12, f"page {p + 1} of {len(chunks)}",
                              BODY_SIZE, anchor="end", fill=GREY))
        pages.append(Page(tuple(items), label=", ".join(n for n in chunk if n)))
    return pages


def column_pad(pad: ColumnPad, table: Table, names: Sequence[str]) -> Document:
    """The whole pad: tables stacked above the notes, then the players' pages."""
    s = pad.sheet
    _, note_h = paragraph(s.x, 0, s.w, pad.notes, BODY_SIZE, fill=GREY)
    limit = s.height - MARGIN - note_h - 8
    tables, bases = stack(table, s.y, limit, pad.gap, fill_scale(table, s.y, limit, pad.gap, pad.min_scale))
    if not bases:
        raise LayoutError(pad.overflow)
    notes, _ = paragraph(s.x, s.height - MARGIN - note_h, s.w, pad.notes, BODY_SIZE, fill=GREY)
    form = Form(pad.form, tuple(s.items + tables + notes))
    return document(s.width, s.height, player_pages(pad, names, bases), [form], pad.title)
