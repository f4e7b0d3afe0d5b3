"""Trekking the World score pad: players as columns, as many games as fit a page.

Rows: up to 8 Tour values, end-game Encounters, Suitcase, Total, then Money
for the tie-break; the end trigger for each player count is printed beside
the table. Every number comes from ``maps/trekking-the-world.toml``.
"""

from __future__ import annotations

from printkit.layout.columns import ColumnPad, Drawn, column_pad
from printkit.layout.common import BODY_SIZE, GREY, INK, LIGHT, THIN, fitted, start_sheet, text
from printkit.layout.primitives import Item, Line, Rect, Style
from printkit.model.games import Trekking
from printkit.sheets.builder import Sheet, SheetBuilder

LABEL_W = 165.0
HEADER_H, TOUR_H, ROW_H, TOTAL_H = 24.0, 16.5, 28.0, 38.0
BOLD_LINE = Style(stroke=INK, width=1.5)
SHADED = Style(stroke=None, fill=LIGHT)


def end_rule(game: Trekking) -> str:
    """``Ends when a player takes their 5th Tour (2-3 players) or 4th (4-5) ...`` from the data."""
    parts = [f"{t.tours}th tour ({min(t.players)}-{max(t.players)} players)" for t in game.end_triggers]
    return (f"Game end: when a player takes their {' or '.join(parts)}; house rule: up to "
            f"{game.max_end_trigger}. Finish the round so all have equal turns.")  # fmt: skip


def _rows(game: Trekking) -> list[tuple[str, str, float, bool]]:
    """(label, hint, normal height, shaded) of each row below the player header."""
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


def _grid(game: Trekking, x: float, y: float, w: float, scale: float) -> Drawn:
    """One empty game table (its player columns are each page's), rows at ``scale`` of their normal height."""
    rows = _rows(game)
    header_h = HEADER_H * scale
    total = (0.0, 0.0)
    items: list[Item] = [Rect(x, y, w, header_h, SHADED), text(x + 6, y + header_h / 2 + 4, "Player", 11, "bold")]
    yy = y + header_h
    for label, hint, normal_h, shaded in rows:
        h = normal_h * scale
        if shaded:
            items.append(Rect(x, yy, w, h, SHADED))
            total = (yy, yy + h)
        if normal_h == TOUR_H:
            items.append(text(x + 6, yy + h / 2 + 3.5, label, BODY_SIZE, fill=GREY))
        elif hint:
            items.append(fitted(x + 6, yy + h / 2 - 2, label, LABEL_W - 12, 10.5, "bold"))
            items.append(fitted(x + 6, yy + h / 2 + 10.5, hint, LABEL_W - 12, 7.5, fill=GREY))
        else:
            items.append(text(x + 6, yy + h / 2 + 5, label, 14, "bold"))
        strong = label in ("Tours", "Total", "Money")
        items.append(Line(x, yy, x + w, yy, BOLD_LINE if strong else THIN))
        yy += h
    items.append(Rect(x, y, w, yy - y, Style(stroke=INK, width=1.4)))
    items.append(Line(x + LABEL_W, y, x + LABEL_W, yy, Style(stroke=INK, width=1.2)))
    return Drawn(items, y + header_h / 2 + 4.5, y, yy, total)


def scorepad(game: Trekking, names: list[str], paper: str) -> Sheet:
    """Score pad pages: one column per player (up to 5 a page), as many games as fit."""
    sheet = start_sheet(paper, game.name, "Score pad - one column per player")
    cols = game.max_players
    notes = (end_rule(game) + " Score: tours + end-game encounters + the points under your suitcase's "
             "right-most completely filled column (check these values against your suitcase). "
             "Ties: most money wins; still tied, victory is shared.")  # fmt: skip
    pad = ColumnPad(sheet, LABEL_W, cols, notes, gap=18.0, form="trekking-scorepad",
                    title=f"{game.name} - score pad", overflow=f"{game.name} score pad does not fit a {paper} page",
                    min_scale=0.93, name_room=HEADER_H * 0.93 - 2.0)
    return Sheet(column_pad(pad, lambda y, scale: _grid(game, sheet.x, y, sheet.w, scale), names))


SHEETS: dict[str, SheetBuilder[Trekking]] = {"scorepad": scorepad}
"""Trekking the World's sheets: kind -> builder(game, names, paper)."""
