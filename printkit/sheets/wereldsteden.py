"""Wereldsteden sheets: a tracker per player (winning tiles, coin ledger) and a player aid.

Every city, tile, card and number comes from ``maps/wereldsteden.toml``.
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
    Sheet,
    checkbox,
    count_word,
    fitted,
    name_line,
    pack,
    paragraph,
    section_header,
    start_sheet,
    table,
    text,
)
from printkit.layout.primitives import Circle, Item, Line, Rect, Style
from printkit.model.games import Wereldsteden
from printkit.sheets import builder
from printkit.sheets.builder import SheetBuilder

DOTS = {  # action -> (fill, stroke, stroke width, letter): the board's dots; red and green print as the same
    # grey (and look alike to red-green colour-blind players), so they carry a letter too
    "buy": ("#d62828", INK, 1.2, "B"),
    "sell": ("#2a9d3a", INK, 1.2, "S"),
    "extra": (INK, INK, 0.6, ""),
    "special": (INK, "#e05a9c", 2.2, ""),  # drawn with a thin black ring outside the pink (see _dot)
}
SLOT = 52.0


def _tiles_section(game: Wereldsteden, x: float, y: float, w: float) -> tuple[list[Item], float]:
    """Winning-tile slots (the variant's extra ones dashed) and a checklist of the types."""
    top = y
    items, hh = section_header(x, y, w, "Winning tiles", f"{game.win_tiles} different wins; "
                               f"variant: {game.variant_win_tiles}; duplicates do not count")  # fmt: skip
    y += hh + 8
    gap = (w - game.variant_win_tiles * SLOT) / (game.variant_win_tiles - 1)
    for i in range(game.variant_win_tiles):
        sx = x + i * (SLOT + gap)
        variant = i >= game.win_tiles
        style = Style(stroke=INK if not variant else GREY, width=1.2 if not variant else 0.9,
                      dash=(3.0, 2.0) if variant else ())  # fmt: skip
        items.append(Rect(sx, y, SLOT, SLOT, style, radius=4))
        items.append(text(sx + SLOT / 2, y + SLOT + 11, "variant" if variant else str(i + 1), 7.5, anchor="middle",
                          fill=GREY))  # fmt: skip
    y += SLOT + 22
    for r, colour in enumerate(game.stacks):
        ry = y + r * 20
        items.append(text(x, ry + 11, f"{colour.capitalize()}:", BODY_SIZE, "bold"))
        kinds = [t for t in game.tiles if t.stack == colour]
        cell = (w - 60) / len(kinds)
        for k, tile in enumerate(kinds):
            cx = x + 60 + k * cell
            items.append(checkbox(cx, ry + 2, 11))
            items.append(fitted(cx + 15, ry + 11, tile.name, cell - 18, BODY_SIZE))
    return items, y + 20 * len(game.stacks) - top


def _ledger(game: Wereldsteden, x: float, y: float, w: float, bottom: float) -> list[Item]:
    """The coin ledger: two side-by-side tables of turn / paid / received / coins."""
    items, hh = section_header(x, y, w, "Coin ledger", f"start with {game.start_coins} coins; "
                               f"extra flight costs {game.extra_flight_cost}")  # fmt: skip
    y += hh + 6
    row_h = 19.0
    rows = int((bottom - y) // row_h)
    half = (w - 16) / 2
    cols = [half * 0.16, half * 0.28, half * 0.28, half * 0.28]
    heads = {(0, 0): "Turn", (0, 1): "Paid", (0, 2): "Received", (0, 3): "Coins"}
    for side in range(2):
        tx = x + side * (half + 16)
        cells = dict(heads)
        if side == 0:
            cells.update({(1, 0): "Start", (1, 3): str(game.start_coins)})
        items.append(Rect(tx, y, half, row_h, Style(stroke=None, fill=LIGHT)))
        items += table(tx, y, cols, [row_h] * rows, cells, bold_rows=[0])
    return items


def tracker(game: Wereldsteden, names: list[str], paper: str) -> builder.Sheet:
    """One tracker page per player: winning tiles and a coin ledger."""
    sheet = start_sheet(paper, game.name, "Player tracker - winning tiles and coins")
    width, height, x, w, items, y = sheet.width, sheet.height, sheet.x, sheet.w, sheet.items, sheet.y
    line, slot = name_line(x, y, min(300.0, w))
    items += line
    y += 34
    tiles, th = _tiles_section(game, x, y, w)
    items += tiles
    items += _ledger(game, x, y + th + 8, w, height - MARGIN)
    return builder.Sheet(pack(width, height, items, names, slot, f"{game.name} - tracker", "wereldsteden-tracker"))


DOT_R = 7.0


def _dot(kind: str, cx: float, cy: float) -> list[Item]:
    """The board's dot for an action; buy and sell carry a letter so that black-and-white prints tell them apart."""
    fill, stroke, width, letter = DOTS[kind]
    items: list[Item] = [Circle(cx, cy, DOT_R, Style(stroke=stroke, fill=fill, width=width))]
    if kind == "special":  # the pink edge prints light: a black ring around it tells it from the black dot
        items.append(Circle(cx, cy, DOT_R + width / 2 + 0.9, Style(stroke=INK, fill=None, width=0.7)))
    if letter:  # black on a white centre: halftoned red and green would swallow a white letter
        items.append(Circle(cx, cy, DOT_R - 2.4, Style(stroke=None, fill=PAPER_WHITE)))
        items.append(text(cx, cy + 2.7, letter, 7.5, "bold", "middle"))
    return items


def _entry(x: float, y: float, w: float, kind: str, title: str, body: str, size: float) -> tuple[list[Item], float]:
    """A dot, a bold title and wrapped text at ``size``; returns (items, height)."""
    items: list[Item] = _dot(kind, x + 9.5, y + 6) + [text(x + 24, y + 10, title, size + 0.5, "bold")]
    para, ph = paragraph(x + 24, y + 6 + size, w - 24, body, size)
    return items + para, 6 + size + ph + 8


def _actions(game: Wereldsteden) -> list[tuple[str, str, str]]:
    """(dot kind, title, text) of each city action, from the data."""
    flights = "; ".join(f"{a} - {b}" for a, b in game.extra_flight)
    entries = [
        ("buy", "Buy a souvenir (red dot, B)", "Pay the price shown and take a souvenir tile. In: " + ", ".join(game.buy) + "."),
        ("sell", "Sell a souvenir (green dot, S)", "Sell souvenirs matching a winning tile on display there: take the "
         "coins shown and the tile. In: " + ", ".join(game.sell) + "."),
        ("extra", "Extra flight (black dot)", f"Pay {game.extra_flight_cost} coins and cross to the other side of the "
         f"board: {flights}. You may travel on."),
    ]  # fmt: skip
    return entries + [("special", f"{s.city}: {s.name} (pink edge)", s.text) for s in game.special]


def _aid(game: Wereldsteden, sheet: Sheet, size: float) -> tuple[list[Item], float]:
    """The aid's items with its text at ``size``: (items, y below the last line)."""
    x, w, items, y = sheet.x, sheet.w, list(sheet.items), sheet.y
    head, hh = section_header(x, y, w, "Actions in cities", "your turn ends after the action (not after an extra flight)")
    items += head
    y += hh + 6
    for kind, title, body in _actions(game):
        part, ph = _entry(x, y, w, kind, title, body, size)
        items += part
        y += ph
    y += 4
    head, hh = section_header(x, y, w, "Winning tiles", f"win with {game.win_tiles} different "
                              f"(variant {game.variant_win_tiles})")  # fmt: skip
    items += head
    y += hh + 4
    for colour in game.stacks:
        spaces = ", ".join(s.city for s in game.spaces if s.stack == colour)
        kinds = ", ".join(f"{t.name} ({t.city})" for t in game.tiles if t.stack == colour)
        para, ph = paragraph(x, y, w, f"{colour.capitalize()} on {spaces}: {kinds}.", size)
        items += para
        y += ph + 4
    para, ph = paragraph(x, y, w, "No two identical tiles side by side: the three yellow tiles differ, the three "
                         "purple tiles differ, and Helsinki's two differ. A refill that breaks this goes beside "
                         "the board and the next tile is drawn.", size, fill=GREY)  # fmt: skip
    items += para
    y += ph + 10
    head, hh = section_header(x, y, w, f"Your {count_word(len(game.cards))} cards")
    items += head
    y += hh + 4
    name_w = max(fonts.text_width(c.name, size, "bold") for c in game.cards) + 12
    for card in game.cards:
        items.append(text(x, y + size + 1, card.name, size, "bold"))
        para, ph = paragraph(x + name_w, y + 1, w - name_w, card.text, size)
        items += para
        y += max(ph, size + 3) + 5 + (size - BODY_SIZE)
        items.append(Line(x, y - 2, x + w, y - 2, Style(stroke=LIGHT, width=0.6)))
    y += 6
    rules = ("Travel: play cards and move along lines of their colours; never through a city with another "
             "traveller (except with the Helicopter Flight) and never end your turn where you began.")  # fmt: skip
    para, ph = paragraph(x, y, w, rules, size, fill=GREY)
    return items + para, y + ph


AID_SIZES = (10.5, 10.0, 9.5, BODY_SIZE)
"""Text sizes the aid tries, largest first: the largest whose text fits the page is used."""


def aid(game: Wereldsteden, names: list[str], paper: str) -> builder.Sheet:
    """The one-page player aid: city actions, winning tiles, the travel cards (one copy per name)."""
    sheet = start_sheet(paper, game.name, "Player aid")
    for size in AID_SIZES:
        items, end = _aid(game, sheet, size)
        if end <= sheet.height - MARGIN:
            break
    doc = pack(sheet.width, sheet.height, items, [n or "" for n in names], None, f"{game.name} - player aid",
               "wereldsteden-aid")
    return builder.Sheet(doc)


SHEETS: dict[str, SheetBuilder[Wereldsteden]] = {"tracker": tracker, "aid": aid}
"""Wereldsteden's sheets: kind -> builder(game, names, paper)."""
