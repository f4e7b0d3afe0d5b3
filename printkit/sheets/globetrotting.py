"""Globetrotting passport: the flights (from the data) with a running total, then every scoring section.

One page per player. Games of 1-2 players get the Festival section, 3-4
players the Travel Companion section (by the number of names or --players).
Every number comes from ``maps/globetrotting.toml``.
"""

from __future__ import annotations

from printkit.layout import fonts
from printkit.layout.common import (
    BODY_SIZE,
    GREY,
    INK,
    LIGHT,
    MARGIN,
    PAPER_WHITE,
    THIN,
    NameSlot,
    Sheet,
    checkbox,
    fitted,
    name_line,
    pack,
    paragraph,
    section_header,
    start_sheet,
    table,
    text,
)
from printkit.layout.primitives import Item, Line, Rect, Style
from printkit.model.games import Globetrotting
from printkit.sheets import builder
from printkit.sheets.builder import SheetBuilder

SHADED = Style(stroke=None, fill=LIGHT)
FRAME = Style(stroke=INK, width=1.2)
BOX = 26.0


TOTAL_H, TOTAL_W = 48.0, 110.0
"""The Total row's height and its write-in box's width (points): the one box that stands out."""
TOTAL_BOX = Style(stroke=INK, fill=PAPER_WHITE, width=1.8)
STRETCH_ROWS = 6
"""Rows that grow to use the page: the two flight rows and the four fulfillment rows."""
MAX_STRETCH = 28.0


def _flights(game: Globetrotting, x: float, y: float, w: float, stretch: float) -> tuple[list[Item], float]:
    """Flight boxes with a running-total line under them, ``stretch`` pt taller; returns (items, height)."""
    label_w = 86.0
    col = (w - label_w) / game.flights
    cells = {(0, 0): "Flight", (1, 0): "Airfare", (2, 0): "Running total"}
    cells.update({(0, i + 1): str(i + 1) for i in range(game.flights)})
    heights = [20.0, 30.0 + stretch, 30.0 + stretch]
    items: list[Item] = [Rect(x, y, w, heights[0], SHADED)]
    items += table(x, y, [label_w] + [col] * game.flights, heights, cells, bold_rows=[0], bold_cols=[0])
    items.append(Rect(x, y, w, sum(heights), FRAME))
    return items, sum(heights)


def _row(x: float, y: float, label: str, hint: str, label_w: float) -> list[Item]:
    return [fitted(x, y + 12, label, label_w - 8, 10.5, "bold"), fitted(x, y + 24, hint, label_w - 8, 7.5, fill=GREY)]


def _points_box(x: float, y: float) -> list[Item]:
    return [checkbox(x, y, BOX), text(x - 4, y + BOX / 2 + 3.5, "=", BODY_SIZE, anchor="end", fill=GREY)]


def _fulfillment_rows(game: Globetrotting, festivals: bool) -> list[tuple[str, str]]:
    """(label, hint) of each fulfillment row; Festivals or Travel Companions by the player count."""
    return [
        ("Airfare bonus", f"{game.airfare_bonus} per other player who spent more (ties do not count)"),
        ("Global objectives", f"{game.objective_first} if first turn anyone did it, else {game.objective_later}"),
        ("Bucket list", f"printed points of each completed card (up to {game.bucket_cards_max})"),
        ("Festivals", f"a 1 per festival, at most {game.festivals_per_season} per season") if festivals else
        ("Travel Companions", "a 1 per season shared with each neighbour"),
    ]  # fmt: skip


def _write_ins(game: Globetrotting, label: str, festivals: bool, bx: float, by: float) -> list[Item]:
    """The boxes a fulfillment row is filled in with: the airfare bonus a tick per other player who spent more."""
    items: list[Item] = []
    if label == "Airfare bonus":
        items.append(text(bx, by - 2, "a tick for each player who spent more", 7.5, fill=GREY))
        items += [checkbox(bx + i * 24, by + 2, 20) for i in range(game.max_players - 1)]
    elif label == "Global objectives":
        for i in range(game.objectives_in_play):
            ox = bx + i * 130
            label_text = f"#{i + 1}  turn"
            tw = fonts.text_width(label_text, BODY_SIZE)
            items += [text(ox, by + 14.5, label_text, BODY_SIZE), checkbox(ox + tw + 4, by, 22)]
            items += [text(ox + tw + 32, by + 14.5, "pts", BODY_SIZE), checkbox(ox + tw + 52, by, 22)]
    elif label == "Bucket list":
        items += [checkbox(bx + i * 27, by, 22) for i in range(game.bucket_cards_max)]
    else:
        per = game.festivals_per_season if festivals else game.companions_per_season
        for s, season in enumerate(game.seasons):
            sx = bx + s * 80
            items.append(text(sx, by - 2, season, 7.5, fill=GREY))
            items += [checkbox(sx + i * 24, by + 2, 20) for i in range(per)]
    return items


def _fulfillment(game: Globetrotting, festivals: bool, x: float, y: float, w: float,
                 stretch: float) -> tuple[list[Item], float]:
    """The fulfillment points section, framed, ending in the Total row; returns (items, y below it)."""
    head, hh = section_header(x, y, w, "Fulfillment points")
    items = head
    y += hh + 6
    label_w = 200.0
    rows = _fulfillment_rows(game, festivals)
    row_h = 46.0 + stretch
    for r, (label, hint) in enumerate(rows):
        ry = y + r * row_h
        if r:  # a rule between rows, not a grey band: grey hint text on a halftoned band breaks up in black and white
            items.append(Line(x, ry, x + w, ry, THIN))
        items += _row(x + 6, ry + row_h / 2 - 17, label, hint, label_w)
        items += _points_box(x + w - BOX - 6, ry + (row_h - BOX) / 2)
        items += _write_ins(game, label, festivals, x + label_w + 6, ry + (row_h - 22) / 2)
    y += len(rows) * row_h
    items.append(Rect(x, y - len(rows) * row_h, w, len(rows) * row_h, FRAME))
    y += 8
    items.append(Rect(x, y, w, TOTAL_H, Style(stroke=INK, fill=LIGHT, width=1.6)))
    items.append(text(x + 8, y + TOTAL_H / 2 + 6, "Total", 18, "bold"))
    items.append(Rect(x + w - TOTAL_W - 6, y + 6, TOTAL_W, TOTAL_H - 12, TOTAL_BOX, radius=3))
    return items, y + TOTAL_H + 12


def _passport(game: Globetrotting, festivals: bool, sheet: Sheet, stretch: float) -> tuple[list[Item], NameSlot, float]:
    """The passport's items with its rows ``stretch`` pt taller: (items, name slot, y below the notes)."""
    x, w, items, y = sheet.x, sheet.w, list(sheet.items), sheet.y
    line, slot = name_line(x, y, min(300.0, w))
    items += line
    y += 34
    head, hh = section_header(x, y, w, "Flights", "write each airfare, then the running total")
    items += head
    y += hh + 4
    grid, gh = _flights(game, x, y, w, stretch)
    items += grid
    y += gh + 8
    items += _row(x, y, "Total airfare", "the last running total; lower wins ties", 200)
    items += _points_box(x + w - BOX, y)
    y += 44
    section, y = _fulfillment(game, festivals, x, y, w, stretch)
    items += section
    notes = (f"Game end: after {game.flights} flights. Add up your airfare and reveal it, then your fulfillment points. "
             "Most points wins; tied: lower total airfare; still tied: shared victory. "
             "Solo: Abby's passport is kept by printkit abby.")  # fmt: skip
    para, ph = paragraph(x, y, w, notes, BODY_SIZE, fill=GREY)
    return items + para, slot, y + ph


def passport(game: Globetrotting, names: list[str], paper: str) -> builder.Sheet:
    """One passport page per player, its write-in rows grown to use the page."""
    sheet = start_sheet(paper, game.name, f"Passport - {game.flights} flights, then score")
    festivals = game.uses_festivals(max(1, len(names)))
    _, _, end = _passport(game, festivals, sheet, 0.0)
    stretch = max(0.0, min(MAX_STRETCH, (sheet.height - MARGIN - end) / STRETCH_ROWS))
    items, slot, _ = _passport(game, festivals, sheet, stretch)
    return builder.Sheet(pack(sheet.width, sheet.height, items, names, slot, f"{game.name} - passport",
                      "globetrotting-passport"))


SHEETS: dict[str, SheetBuilder[Globetrotting]] = {"passport": passport}
"""Globetrotting's sheets: kind -> builder(game, names, paper)."""
