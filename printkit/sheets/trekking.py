"""Trekking the World score pad: players as columns, as many games as fit a page.

Rows: up to 8 Tour values, end-game Encounters, Suitcase, Total, then Money
for the tie-break; the end trigger for each player count is printed beside
the table. Every number comes from ``maps/trekking-the-world.toml``.
"""

from __future__ import annotations

from collections.abc import Callable

from printkit.loading.games import load_trekking
from printkit.model.games import Trekking
from printkit.layout.common import (
    BODY_SIZE,
    GREY,
    INK,
    LIGHT,
    MARGIN,
    THIN,
    LayoutError,
    document,
    fitted,
    name_text,
    paragraph,
    start_sheet,
    text,
)
from printkit.layout.primitives import (
    Document,
    Form,
    Item,
    Line,
    Page,
    Rect,
    Style,
    UseForm,
)

LABEL_W = 165.0
HEADER_H, TOUR_H, ROW_H, TOTAL_H = 24.0, 16.5, 28.0, 30.0
BOLD_LINE = Style(stroke=INK, width=1.5)
SHADED = Style(stroke=None, fill=LIGHT)


def end_rule(game: Trekking) -> str:
    """``Ends when a player takes their 5th Tour (2-3 players) or 4th (4-5) ...`` from the data."""
    parts = [f"{t.tours}th tour ({min(t.players)}-{max(t.players)} players)" for t in game.end_triggers]
    return (f"Game end: when a player takes their {' or '.join(parts)}; house rule: up to "
            f"{game.max_end_trigger}. Finish the round so all have equal turns.")  # fmt: skip


def _rows(game: Trekking) -> list[tuple[str, str, float, bool]]:
    """(label, hint, height, shaded) of each row below the player header."""
    cols = " ".join(str(p) for p in game.suitcase_points)
    rows = [(f"Tour {i}", "", TOUR_H, False) for i in range(1, game.tour_slots + 1)]
    rows += [
        ("Tours", "sum of the tours above", ROW_H, False),
        ("Encounters", "\"At game's end\" cards", ROW_H, False),
        ("Suitcase", f"right-most full column: {cols}", ROW_H, False),
        ("Total", "", TOTAL_H, True),
        ("Money", f"tie-break only: most wins (max ${game.money_cap})", ROW_H, False),
    ]
    return rows


def _grid(game: Trekking, x: float, y: float, w: float, cols: int) -> tuple[list[Item], float, float]:
    """One empty game table; returns (items, header baseline, bottom)."""
    rows = _rows(game)
    col_w = (w - LABEL_W) / cols
    items: list[Item] = [Rect(x, y, w, HEADER_H, SHADED), text(x + 6, y + HEADER_H / 2 + 4, "Player", 11, "bold")]
    yy = y + HEADER_H
    for label, hint, h, shaded in rows:
        if shaded:
            items.append(Rect(x, yy, w, h, SHADED))
        if h == TOUR_H:
            items.append(text(x + 6, yy + h / 2 + 3.5, label, BODY_SIZE, fill=GREY))
        elif hint:
            items.append(fitted(x + 6, yy + 12, label, LABEL_W - 12, 10.5, "bold"))
            items.append(fitted(x + 6, yy + 24.5, hint, LABEL_W - 12, 7.5, fill=GREY))
        else:
            items.append(text(x + 6, yy + h / 2 + 5, label, 14, "bold"))
        strong = label in ("Tours", "Total", "Money")
        items.append(Line(x, yy, x + w, yy, BOLD_LINE if strong else THIN))
        yy += h
    items.append(Rect(x, y, w, yy - y, Style(stroke=INK, width=1.4)))
    items.append(Line(x + LABEL_W, y, x + LABEL_W, yy, Style(stroke=INK, width=1.2)))
    items += [Line(x + LABEL_W + c * col_w, y, x + LABEL_W + c * col_w, yy, THIN) for c in range(1, cols)]
    return items, y + HEADER_H / 2 + 4.5, yy


def scorepad(names: list[str], paper: str) -> Document:
    """Score pad pages: one column per player (up to 5 a page), as many games as fit."""
    game = load_trekking()
    sheet = start_sheet(paper, "Trekking the World", "Score pad - one column per player")
    width, height, x, w, shared = sheet.width, sheet.height, sheet.x, sheet.w, sheet.items
    cols = game.max_players
    notes = (end_rule(game) + " Score: tours + end-game encounters + the points under your suitcase's "
             "right-most completely filled column (check these values against your suitcase). "
             "Ties: most money wins; still tied, victory is shared.")  # fmt: skip
    _, note_h = paragraph(x, 0, w, notes, BODY_SIZE, fill=GREY)
    limit = height - MARGIN - note_h - 8
    y = sheet.y
    bases: list[float] = []
    while True:
        grid, base, bottom = _grid(game, x, y, w, cols)
        if bottom > limit:
            if not bases:
                raise LayoutError(f"Trekking the World score pad does not fit a {paper} page")
            break
        shared += grid
        bases.append(base)
        y = bottom + 18
    para, _ = paragraph(x, height - MARGIN - note_h, w, notes, BODY_SIZE, fill=GREY)
    shared += para
    col_w = (w - LABEL_W) / cols
    chunks = [names[i : i + cols] for i in range(0, len(names), cols)] or [[]]
    pages: list[Page] = []
    for p, chunk in enumerate(chunks):
        items: list[Item] = [UseForm("trekking-scorepad")]
        for c, name in enumerate(chunk):
            if name:
                cx = x + LABEL_W + c * col_w + col_w / 2
                items += [name_text(cx, b, name, col_w - 6, 11, "middle") for b in bases]
        if len(chunks) > 1:
            items.append(text(x + w, MARGIN + 12, f"page {p + 1} of {len(chunks)}", BODY_SIZE, anchor="end", fill=GREY))
        pages.append(Page(tuple(items), label=", ".join(n for n in chunk if n)))
    form = Form("trekking-scorepad", tuple(shared))
    return document(width, height, pages, [form], "Trekking the World - score pad")


SHEETS: dict[str, Callable[[list[str], str], Document]] = {"scorepad": scorepad}
