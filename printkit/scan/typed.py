"""What a player typed into a fillable sheet's text fields: the start city and the points in the score boxes.

A typed start city counts as a start star drawn round it (unless a drawn star
disagrees, which is unsure); typed points are checked against the scan's own
score once the game is scored, a disagreement unsure, naming both numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from printkit.model.maps import GameMap
    from printkit.rules.report import GameScore, PlayerScore
    from printkit.scan.sheet import SheetRead
    from printkit.sheets.fields import Fields

Stroke = list[tuple[float, float]]
TextField = Callable[[str], str]
"""A page's typed value of the text field of that full name ("" for none)."""


def folded(text: str) -> str:
    """``text`` compared ignoring case, accents and spacing: ``"  são  PAULO"`` and ``"Sao Paulo"`` alike."""
    import unicodedata

    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return " ".join(plain.casefold().replace("-", " ").split())


def typed_start(m: GameMap, typed: str) -> str | None:
    """The id of the city whose name (or id) is ``typed``, ignoring case and accents; None if none is."""
    want = folded(typed)
    return next((c.id for c in m.cities if want in (folded(c.name), folded(c.id))), None) if want else None


def ring(fields: Fields, city_id: str) -> Stroke:
    """A pen ring round the city's circle, as a start star is drawn: what a typed start city reads as."""
    c = fields.city(city_id)
    (cx, cy), r = c.center, c.radius + 4.5
    return [(cx + r * math.cos(k * math.pi / 12), cy + r * math.sin(k * math.pi / 12)) for k in range(25)]


def start_doubts(sheet: SheetRead, typed: str, city: str | None, starred: list[str]) -> None:
    """A typed start city that is no city of the map, or that another drawn star disagrees with, is unsure."""
    names = {c.id: c.name for c in sheet.m.cities}
    if typed and city is None:
        sheet.doubt("start", 0.0, f"start: the typed city {typed!r} is no city of {sheet.m.name}; check it")
    elif city is not None and any(c != city for c in starred):
        drawn = ", ".join(names[c] for c in starred)
        sheet.doubt("start", 0.3, f"start: {names[city]} typed, but the star is drawn at {drawn}")


def typed_points(text: TextField, prefix: str, fields: Fields, sheet: SheetRead) -> dict[str, int]:
    """The points typed in the write-in boxes (``score.collect``, ``total``...), by box id; a non-number is unsure."""
    from printkit.sheets.fillable import write_ins

    points: dict[str, int] = {}
    for box_id, _ in write_ins(fields):
        value = text(prefix + box_id)
        if not value:
            continue
        try:
            points[box_id] = int(value)
        except ValueError:
            sheet.doubt(box_id, 0.0, f"{box_id}: the typed {value!r} is not a number of points")
    return points


def check_typed_points(sheet: SheetRead, player: PlayerScore) -> None:
    """Each typed score box must say what the scan scores the sheet: a disagreement is unsure, naming both numbers.

    Explore boxes (one per Explore section on the sheet) are checked together,
    as the score's one Explore section, when every one of them is typed.
    """
    typed = sheet.typed
    sections = {s.key: s.points for s in player.sections}
    explore = [f"score.{t.id}" for t in sheet.m.explore]
    checks = [(f"score.{key}", typed.get(f"score.{key}"), sections.get(key)) for key in ("collect", "regions",
                                                                                         "iconic", "speed")]
    if all(b in typed for b in explore):
        checks.append((" + ".join(explore), sum(typed[b] for b in explore), sections.get("explore")))
    checks.append(("total", typed.get("total"), player.total))
    for box, written, scored in checks:
        if written is not None and scored is not None and written != scored:
            sheet.doubt(box, 0.3, f"{box}: {written} typed, but the sheet's marks score {scored}")


def check_typed(sheets: list[SheetRead], score: GameScore) -> None:
    """Every sheet's typed points checked against its player's score (sheets and players in one order)."""
    for sheet, player in zip(sheets, score.players):
        if sheet.typed:
            check_typed_points(sheet, player)
