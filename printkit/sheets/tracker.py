"""The solo/party turn-tracker sheet: turn spaces, dice legend, speed bonus, rating chart."""

from __future__ import annotations

from printkit.layout import fonts
from printkit.layout.common import (
    BODY_SIZE,
    GREY,
    INK,
    MARGIN,
    PAPER_WHITE,
    LayoutError,
    fitted,
    pack,
    paragraph,
    section_header,
    start_sheet,
    table,
    text,
)
from printkit.layout.primitives import Circle, Document, Item, Rect, Style
from printkit.model.maps import GameMap
from printkit.sheets.wording import cities_needed, one_explored


def _action_help(m: GameMap) -> dict[str, str]:
    """What each action means on this map."""
    seen = one_explored(m)
    return {
        "Travel": "draw a line along an open route to a connected city",
        "Collect": "mark a souvenir of your current region",
        "Explore": f"mark {seen} of your current city",
    }


def _turn_spaces(x: float, y: float, w: float, turns: int, cell_h: float) -> tuple[list[Item], float]:
    """Numbered turn spaces, 5 per row, each with its finish bonus."""
    per_row = 5
    gap = 8.0
    cell_w = (w - gap * (per_row - 1)) / per_row
    items: list[Item] = []
    rows = (turns + per_row - 1) // per_row
    for t in range(1, turns + 1):
        r, c = divmod(t - 1, per_row)
        cx = x + c * (cell_w + gap)
        cy = y + r * (cell_h + gap)
        items.append(Rect(cx, cy, cell_w, cell_h, Style(stroke=INK, fill="#ffffff", width=1.2), radius=6))
        items.append(text(cx + 8, cy + 26, str(t), 22, "bold"))
        bonus = turns - t
        items.append(text(cx + cell_w - 7, cy + cell_h - 8, f"finish: {bonus}", BODY_SIZE, anchor="end", fill=GREY))
    return items, rows * cell_h + (rows - 1) * gap


def die_face(x: float, y: float, size: float, value: int) -> list[Item]:
    """A die showing ``value`` pips, top-left at (x, y)."""
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }[value]
    items: list[Item] = [Rect(x, y, size, size, Style(stroke=INK, fill=PAPER_WHITE, width=0.9), radius=size * 0.18)]
    items.extend(Circle(x + px * size, y + py * size, size * 0.09, Style(stroke=None, fill=INK)) for px, py in pips)
    return items


def _dice_legend(m: GameMap, x: float, y: float, w: float) -> tuple[list[Item], float]:
    """One row per action: its two die faces, its name and what to do."""
    items: list[Item] = []
    die = 22.0
    row_h = die + 8
    for i, action in enumerate(m.dice.names):
        faces = list(m.dice.faces_of(action))
        ry = y + i * row_h
        for k, face in enumerate(faces):
            items.extend(die_face(x + k * (die + 5), ry, die, face))
        tx = x + len(faces) * (die + 5) + 8
        label = " or ".join(str(f) for f in faces)
        base = ry + die / 2 + 4
        items.append(text(tx, base, f"{label}:", 11, "bold"))
        tx2 = tx + fonts.text_width(f"{label}:", 11, "bold") + 5
        items.append(text(tx2, base, action, 11, "bold"))
        tx3 = tx2 + fonts.text_width(action, 11, "bold") + 8
        items.append(fitted(tx3, base, "- " + _action_help(m).get(action, ""), x + w - tx3, BODY_SIZE))
    used = len(m.dice.names) * row_h
    rule = (
        "Both dice show the same action: take that action once, plus one action of your choice "
        "(it may be the same). Otherwise take both actions, in either order. Move the token "
        "to the next number after each roll."
    )
    para, h = paragraph(x, y + used + 2, w, rule, BODY_SIZE)
    return items + para, used + 2 + h


def _rating_rows(m: GameMap) -> list[tuple[str, str]]:
    """(points range, title) rows of the rating chart, best first."""
    rows: list[tuple[str, str]] = []
    ratings = m.solo.ratings
    for i, r in enumerate(ratings):
        upper = ratings[i - 1].min_points - 1 if i > 0 else None
        if upper is None:
            span = f"{r.min_points} or more"
        elif i == len(ratings) - 1:
            span = f"{upper} or less"
        else:
            span = f"{r.min_points}-{upper}"
        rows.append((span, r.title))
    return rows


def _solo_notes(m: GameMap) -> list[str]:
    """Solo/party scoring differences that apply to this map, from its data."""
    notes: list[str] = []
    if m.region_scoring.mode == "majority":
        notes.append("Regions: no majority. Score each region's reward when you visited all of its cities.")
    for track in m.explore:
        if track.majority is not None:
            notes.append(f"{track.name}: no majority bonus.")
        if track.first_bonus:
            notes.append(f"{track.name}: everyone scores the +{track.first_bonus} first bonus.")
    notes.append("No multiplayer speed bonus: the finish bonus above replaces it.")
    return notes


def build(m: GameMap, names: list[str], paper: str) -> Document:
    """The turn tracker for ``m`` (one page; names are ignored: it is shared)."""
    sheet = start_sheet(paper, "Turn tracker", f"{m.title} - solo and party mode", gap=14.0)
    width, height, x, w, items, y = sheet.width, sheet.height, sheet.x, sheet.w, sheet.items, sheet.y

    head, hh = section_header(x, y, w, f"Turns 1-{m.solo.turns}", "token starts on 1")
    items += head
    spaces, sh = _turn_spaces(x, y + hh + 2, w, m.solo.turns, 56.0 if height > 830 else 46.0)
    items += spaces
    y += hh + 2 + sh + 16

    head, hh = section_header(x, y, w, "Roll two dice each turn")
    items += head
    legend, lh = _dice_legend(m, x, y + hh + 2, w)
    items += legend
    y += hh + 2 + lh + 14

    regions_rule = cities_needed(m, "one city")
    head, hh = section_header(x, y, w, "Finishing your trip")
    items += head
    finish = (
        f"When you have visited {regions_rule} in every region and are back at your starting city on turn t, "
        f"score {m.solo.turns} - t points (the finish number of that turn) and take no more actions. "
        f"Example: back on turn 16 scores {m.solo.turns - 16}. The game ends after turn {m.solo.turns}, "
        "or earlier when every player has finished."
    )
    para, ph = paragraph(x, y + hh + 2, w, finish, BODY_SIZE)
    items += para
    y += hh + 2 + ph + 6
    for note in _solo_notes(m):
        para, ph = paragraph(x + 10, y, w - 10, note, BODY_SIZE)
        items += [text(x + 2, y + fonts.ascent(BODY_SIZE), "-", BODY_SIZE)] + para
        y += ph + 3
    y += 12

    head, hh = section_header(x, y, w, "How did you do?", "your total")
    items += head
    rows = _rating_rows(m)
    row_h = 15.0
    cells: dict[tuple[int, int], str] = {(0, 0): "Points", (0, 1): "Rating"}
    for i, (span, title) in enumerate(rows, start=1):
        cells[(i, 0)] = span
        cells[(i, 1)] = title
    col0 = 110.0
    items += table(x, y + hh + 2, [col0, w - col0], [row_h] * (len(rows) + 1), cells,
                   bold_rows=[0], shade_rows=[0], anchors={0: "start", 1: "start"})
    y += hh + 2 + row_h * (len(rows) + 1)
    if y > height - MARGIN:
        raise LayoutError(f"tracker for {m.id}: content overflows the {paper} page by {y - (height - MARGIN):.1f} pt")
    return pack(width, height, items, [], None, f"Turn tracker - {m.name}", "tracker")
