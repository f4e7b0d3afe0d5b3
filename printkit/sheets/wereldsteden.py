"""Wereldsteden sheets: a tracker per player (winning tiles, coin ledger) and a player aid.

Every city, tile, card and number comes from ``maps/wereldsteden.toml``.
"""

from __future__ import annotations

from collections.abc import Callable

from printkit.loading.games import load_wereldsteden
from printkit.model.games import Wereldsteden
from printkit.layout import fonts
from printkit.layout.common import (
    BODY_SIZE,
    GREY,
    INK,
    LIGHT,
    MARGIN,
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
from printkit.layout.primitives import Circle, Document, Item, Line, Rect, Style

DOTS = {  # action -> (fill, stroke, stroke width): the board's dots, labelled so greyscale works too
    "buy": ("#d62828", INK, 1.2),
    "sell": ("#2a9d3a", INK, 1.2),
    "extra": (INK, INK, 0.6),
    "special": (INK, "#e05a9c", 2.2),
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


def tracker(names: list[str], paper: str) -> Document:
    """One tracker page per player: winning tiles and a coin ledger."""
    game = load_wereldsteden()
    sheet = start_sheet(paper, "Wereldsteden", "Player tracker - winning tiles and coins")
    width, height, x, w, items, y = sheet.width, sheet.height, sheet.x, sheet.w, sheet.items, sheet.y
    line, slot = name_line(x, y, min(300.0, w))
    items += line
    y += 34
    tiles, th = _tiles_section(game, x, y, w)
    items += tiles
    items += _ledger(game, x, y + th + 8, w, height - MARGIN)
    return pack(width, height, items, names, slot, "Wereldsteden - tracker", "wereldsteden-tracker")


def _dot(kind: str, cx: float, cy: float) -> Circle:
    fill, stroke, width = DOTS[kind]
    return Circle(cx, cy, 5.0, Style(stroke=stroke, fill=fill, width=width))


def _entry(x: float, y: float, w: float, kind: str, title: str, body: str) -> tuple[list[Item], float]:
    """A dot, a bold title and wrapped text; returns (items, height)."""
    items: list[Item] = [_dot(kind, x + 6, y + 6), text(x + 18, y + 10, title, BODY_SIZE + 0.5, "bold")]
    para, ph = paragraph(x + 18, y + 15, w - 18, body, BODY_SIZE)
    return items + para, 15 + ph + 8


def aid(names: list[str], paper: str) -> Document:
    """The one-page player aid: city actions, winning tiles, the nine cards (one copy per name)."""
    game = load_wereldsteden()
    sheet = start_sheet(paper, "Wereldsteden", "Player aid")
    width, height, x, w, items, y = sheet.width, sheet.height, sheet.x, sheet.w, sheet.items, sheet.y
    head, hh = section_header(x, y, w, "Actions in cities", "your turn ends after the action (not after an extra flight)")
    items += head
    y += hh + 6
    flights = "; ".join(f"{a} - {b}" for a, b in game.extra_flight)
    entries = [
        ("buy", "Buy a souvenir (red dot)", "Pay the price shown and take a souvenir tile. In: " + ", ".join(game.buy) + "."),
        ("sell", "Sell a souvenir (green dot)", "Sell souvenirs matching a winning tile on display there: take the coins "
         "shown and the tile. In: " + ", ".join(game.sell) + "."),
        ("extra", "Extra flight (black dot)", f"Pay {game.extra_flight_cost} coins and cross to the other side of the "
         f"board: {flights}. You may travel on."),
    ]  # fmt: skip
    entries += [("special", f"{s.city}: {s.name} (pink edge)", s.text) for s in game.special]
    for kind, title, body in entries:
        part, ph = _entry(x, y, w, kind, title, body)
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
        para, ph = paragraph(x, y, w, f"{colour.capitalize()} on {spaces}: {kinds}.", BODY_SIZE)
        items += para
        y += ph + 4
    para, ph = paragraph(x, y, w, "No two identical tiles side by side: the three yellow tiles differ, the three "
                         "purple tiles differ, and Helsinki's two differ. A refill that breaks this goes beside "
                         "the board and the next tile is drawn.", BODY_SIZE, fill=GREY)  # fmt: skip
    items += para
    y += ph + 10
    head, hh = section_header(x, y, w, "Your nine cards")
    items += head
    y += hh + 4
    name_w = max(fonts.text_width(c.name, BODY_SIZE, "bold") for c in game.cards) + 12
    for card in game.cards:
        items.append(text(x, y + 10, card.name, BODY_SIZE, "bold"))
        para, ph = paragraph(x + name_w, y + 1, w - name_w, card.text, BODY_SIZE)
        items += para
        y += max(ph, 12) + 5
        items.append(Line(x, y - 2, x + w, y - 2, Style(stroke=LIGHT, width=0.6)))
    y += 6
    rules = ("Travel: play cards and move along lines of their colours; never through a city with another "
             "traveller (except with the Helicopter Flight) and never end your turn where you began.")  # fmt: skip
    para, _ = paragraph(x, y, w, rules, BODY_SIZE, fill=GREY)
    items += para
    return pack(width, height, items, [n or "" for n in names], None, "Wereldsteden - player aid", "wereldsteden-aid")


SHEETS: dict[str, Callable[[list[str], str], Document]] = {"tracker": tracker, "aid": aid}
