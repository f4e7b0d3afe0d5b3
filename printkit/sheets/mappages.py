"""A map sheet's pages from its layout: what a cached layout needs, without the layout code.

:func:`pages` is :func:`printkit.sheets.mapsheet.compose` and its layout check
(imported only when a layout is made), memoised per (map, paper); the registry
hands in one kept on disk with :func:`keep_pages`, so a render from the cache
never loads the planner, the city tags or the layout check.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from printkit.layout.common import LayoutError, NameSlot, pack, symbols_for
from printkit.layout.primitives import Document, Item, Symbol
from printkit.model.maps import GameMap
from printkit.sheets.fields import FIELDS_META, Fields

NAME_SLOT_META = "name_slot"
"""The Document meta key of the name line's slot: ``"x y width size"`` (where a pack prints the name)."""
KEPT = 16
"""Layouts remembered per process."""


class Pages(NamedTuple):
    """What every page of a map sheet shares (and the icons it draws), where names go, its geometry (and as
    JSON), its layout problems.

    Picklable: the registry keeps it on disk (see docs/render.md).
    """

    shared: tuple[Item, ...]
    slot: NameSlot
    fields: Fields
    problems: tuple[str, ...]
    fields_json: str
    symbols: tuple[Symbol, ...]  # the icons the shared items use: a page adds only its name


_PAGES: dict[tuple[GameMap, str], Pages] = {}


def pages(m: GameMap, paper: str) -> Pages:
    """The map sheet's layout and its check, memoised; :func:`keep_pages` hands in one made before (a cache's)."""
    made = _PAGES.get((m, paper))
    if made is None:
        from printkit.sheets import mapsheet
        from printkit.sheets.fields import dumps

        shared, slot, fields, _ = mapsheet.compose(m, paper)
        problems = tuple(mapsheet._problems(m, paper, shared, fields))  # noqa: SLF001 - the sheet's own check
        made = Pages(shared, slot, fields, problems, dumps(fields), symbols_for(shared))
        keep_pages(m, paper, made)
    return made


def keep_pages(m: GameMap, paper: str, made: Pages) -> None:
    """Remember ``made`` as the pages of ``m`` on ``paper`` (the registry's disk cache hands them in)."""
    if len(_PAGES) >= KEPT:
        _PAGES.clear()
    _PAGES[(m, paper)] = made


def build(m: GameMap, names: list[str], paper: str) -> Document:
    """Map sheets for ``m``: one landscape page per player name (at least one); refuses a crowded map."""
    shared, slot, fields, problems, fields_json, symbols = pages(m, paper)
    if problems:
        raise LayoutError("\n".join(problems))
    doc = pack(fields.width, fields.height, shared, names, slot, f"{m.title} - map sheet", "map", symbols)
    where = f"{slot.x} {slot.y} {slot.width} {slot.size}"
    return replace(doc, meta={**doc.meta, FIELDS_META: fields_json, NAME_SLOT_META: where})
