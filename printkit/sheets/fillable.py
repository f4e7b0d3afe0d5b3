"""Fillable map sheets for tablets: a check box over every tick box, text fields for what is written in.

The fields are named by the ``--fields`` box ids (``souvenirs.mugs.1``,
``score.collect``, ``total``) and ``name`` and ``start`` for the two header
lines; in a pack of several pages each page's names start with ``p<page>.``
so one file holds a whole party. Every field has a tooltip (``/TU``) saying
what it is for. Each page also carries a hidden, read-only text field
``sheet`` holding the page's QR payload (map, paper, layout, page, name, and
the game's id for a sheet printed for one game), so ``printkit scan`` knows
the sheet without decoding an image.
"""

from __future__ import annotations

from dataclasses import replace

from printkit.layout.common import NameSlot
from printkit.layout.marks import sheet_payload
from printkit.layout.primitives import FormField, Page, Text
from printkit.sheets.builder import Sheet
from printkit.sheets.fields import Fields, Rect4

KEYWORDS = "printkit fillable map sheet"
"""The PDF's Keywords: how a flattened copy (its fields gone) is still told from a scan."""
SHEET_FIELD = "sheet"
"""The hidden field holding the page's QR payload."""
NAME_FIELD = "name"
"""The text field for the player's name."""
START_FIELD = "start"
"""The text field on the Start line: the starting city's name, typed."""
WRITE_INS = ("score.", "total")
"""Box ids that are written in (points), not ticked: text fields, not check boxes."""

_FIXED = {NAME_FIELD: "Player name", START_FIELD: "Starting city (its name as on the map)", "total": "Total points",
          "speed": "Speed bonus: every region visited, back at the start"}
_POINTS = {"speed": "speed bonus", "iconic": "iconic cities"}
_SECTIONS = {"souvenirs": "Collect", "sights": "Sights", "animals": "Animals"}


def field_prefix(page: int, pages: int) -> str:
    """The field-name prefix of page ``page`` (from 1): ``p3.`` in a pack, nothing on a single sheet."""
    return f"p{page}." if pages > 1 else ""


def tick_boxes(fields: Fields) -> list[tuple[str, Rect4]]:
    """(box id, rect) of every box a player ticks (not the write-in score boxes)."""
    return [(b.id, b.rect) for b in fields.boxes if not b.id.startswith(WRITE_INS)]


def write_ins(fields: Fields) -> list[tuple[str, Rect4]]:
    """(box id, rect) of every box a player writes points in: ``score.<section>`` and ``total``."""
    return [(b.id, b.rect) for b in fields.boxes if b.id.startswith(WRITE_INS)]


_TIPS = {
    "finished_turn": "Trip finished on turn {n}",
    "iconic": "Iconic cities visited: box {n}",
    "visited": "Cities visited in {What}: box {n}",
    "regions": "Region: {What}",
    "first_rare": "Marked first: {what}",
}
"""Tooltips by a field id's first part: ``n`` its box number, ``what`` the rest in words (``What`` titled)."""


def _words(key: str, title: bool = False) -> str:
    words = key.replace("-", " ").replace("_", " ")
    return words.title() if title else words


def tooltip(box_id: str) -> str:
    """What a field is for, in a few words, from its id: ``Collect: mugs, box 1``, ``Region: North America``."""
    if box_id in _FIXED:
        return _FIXED[box_id]
    head, _, rest = box_id.partition(".")
    what, _, n = rest.rpartition(".")
    if not n.isdigit():
        what, n = rest, ""
    if head == "score":
        return f"Points: {_POINTS.get(rest, _words(rest))}"
    if head in _TIPS:
        return _TIPS[head].format(n=n, what=_words(what), What=_words(what, title=True))
    return f"{_SECTIONS.get(head, _words(head, title=True))}: {_words(what)}" + (f", box {n}" if n else "")


def _page(page: Page, k: int, total: int, payload: str, boxes: list[tuple[str, Rect4]],
          slot: NameSlot) -> Page:
    """One page with its fields; a printed name becomes the name field's value."""
    x, y, width, size = slot
    pre = field_prefix(k, total)
    items = tuple(i for i in page.items if not (isinstance(i, Text) and (i.x, i.y) == (x, y)))
    fields = [FormField(pre + box_id, "text" if box_id.startswith(WRITE_INS) or box_id == START_FIELD else "checkbox",
                        r[0], r[1], r[2] - r[0], r[3] - r[1], tooltip=tooltip(box_id)) for box_id, r in boxes]
    fields.append(FormField(pre + NAME_FIELD, "text", x - 2, y - size, width, size + 4, page.label,
                            tooltip=tooltip(NAME_FIELD)))
    fields.append(FormField(pre + SHEET_FIELD, "text", 0, 0, 1, 1, payload, hidden=True,
                            tooltip="printkit's sheet data (map, paper, layout, page, name): leave it"))
    return replace(page, items=items, fields=tuple(fields))


def has_form(sheet: Sheet) -> bool:
    """Whether ``sheet`` can be made fillable: it has fields and a name slot (a map sheet)."""
    return sheet.geometry is not None and sheet.name_slot is not None


def fillable(sheet: Sheet, game: str | None = None) -> Sheet:
    """The map sheet with form fields on every page (a ValueError if it is not a map sheet).

    ``game``: the id of the game the sheet is printed for, carried in every page's ``sheet`` field.
    """
    geometry, slot, document = sheet.geometry, sheet.name_slot, sheet.document
    if geometry is None or slot is None:
        raise ValueError("only a sheet with fields and a name slot (a map sheet) can be made fillable")
    f = geometry.fields
    boxes = tick_boxes(f) + write_ins(f) + ([(START_FIELD, geometry.start)] if geometry.start is not None else [])
    total = len(document.pages)
    pages = tuple(
        _page(p, k, total, sheet_payload(f.map, f.paper, geometry.layout, k, p.label, game), boxes, slot)
        for k, p in enumerate(document.pages, start=1)
    )
    return sheet._replace(document=replace(document, pages=pages, meta={**document.meta, "keywords": KEYWORDS}))
