"""The "Each turn" reminder on a map sheet: the three actions, who picks them, when the game ends."""

from __future__ import annotations

from printkit.layout import fonts
from printkit.layout.common import BODY_SIZE, fitted, paragraph, section_header, text
from printkit.model.maps import GameMap
from printkit.sheets.mapsections import CAPTION, DEFAULT, Block, Drawn, Metrics
from printkit.sheets.wording import cities_needed, one_explored


def turn_block(m: GameMap, mt: Metrics = DEFAULT, with_end: bool = True) -> Block:
    """A reminder of the three actions, who picks them and (``with_end``) when the game ends."""
    seen = one_explored(m)
    lines = [
        ("Travel", "draw over a route to a connected city"),
        ("Collect", f"mark a souvenir of your region (max {m.collect.boxes} each)"),
        ("Explore", f"mark {seen} of your city (leftmost box)"),
    ]
    need = cities_needed(m)
    end = (f"Game end: once someone has visited {need} in every region and is back at their start, "
           "finish that turn and score.")
    solo_from = m.max_multiplayer + 1
    faces = m.dice.legend()

    def draw(x: float, y: float, w: float) -> Drawn:
        items, hh = section_header(x, y, w, "Each turn", "everyone takes the action")
        yy = y + hh
        row_h = 13.0 * mt.scale * mt.rows
        label_w = max(fonts.text_width(a, BODY_SIZE, "bold") for a, _ in lines) + 6
        for action, what in lines:
            yy += row_h
            items.append(text(x, yy - 3, action, BODY_SIZE, "bold"))
            items.append(fitted(x + label_w, yy - 3, what, w - label_w, BODY_SIZE))
        yy += 14
        items.append(fitted(x, yy - 3, "The Navigator picks it and may take it twice.", w, BODY_SIZE - 1, fill=CAPTION))
        yy += 11
        solo = f"Solo or {solo_from}+ players, roll 2 dice: {faces}"
        items.append(fitted(x, yy - 3, solo, w, BODY_SIZE - 1, fill=CAPTION))
        if not with_end:
            return Drawn(items, yy - y, [])
        yy += 8
        para, ph = paragraph(x, yy, w, end, BODY_SIZE)
        items += para
        return Drawn(items, yy + ph - y, [])

    return draw
