"""A map sheet's pages from its layout: what a cached layout needs, without the layout code.

:func:`prepare` lays the sheet out (:func:`printkit.sheets.mapsheet.compose`,
its layout check and its scan marks, imported only then); :func:`build` draws
the pages from a :class:`MapLayout` it is handed, so a render from the
registry's cache never loads the planner, the city tags or the layout check.
"""

from __future__ import annotations

from typing import NamedTuple

from printkit.layout.common import LayoutError, NameSlot, pack, symbols_for
from printkit.layout.primitives import Cells, Document, Item, Symbol
from printkit.model.maps import GameMap
from printkit.sheets import identity
from printkit.sheets.builder import Sheet
from printkit.sheets.fields import Geometry


class MapLayout(NamedTuple):
    """What every page of a map sheet shares (and the icons it draws), where names go, its geometry, its layout
    problems and a blank page 1's QR code.

    Plain data: the registry keeps it on disk (see docs/render.md).
    """

    shared: tuple[Item, ...]
    slot: NameSlot
    size: tuple[float, float]
    geometry: Geometry
    problems: tuple[str, ...]
    symbols: tuple[Symbol, ...]  # the icons the shared items use: a page adds only its name
    blank_qr: Cells


def prepare(m: GameMap, paper: str) -> MapLayout:
    """Lay the map sheet of ``m`` out on ``paper``, check it and mark it for the scan."""
    from printkit.sheets import mapsheet

    shared, slot, fields, _, start = mapsheet.compose(m, paper)
    problems = tuple(mapsheet._problems(m, paper, shared, fields))  # noqa: SLF001 - the sheet's own check
    geometry = identity.marked(fields, paper, start)
    qr = identity.blank_qr(m.id, paper, geometry.layout, fields.width)
    return MapLayout(shared, slot, (fields.width, fields.height), geometry, problems, symbols_for(shared), qr)


def pages(m: GameMap, names: list[str], made: MapLayout) -> Document:
    """The map sheet's pages from its layout, one landscape page per name (at least one), before the scan's marks;
    refuses a crowded map."""
    if made.problems:
        raise LayoutError("\n".join(made.problems))
    width, height = made.size
    return pack(width, height, made.shared, names, made.slot, f"{m.title} - map sheet", "map", made.symbols)


def build(m: GameMap, names: list[str], paper: str, made: MapLayout) -> Sheet:
    """Map sheets for ``m`` from its layout, each page with the markers and QR code ``printkit scan`` reads it by."""
    doc = identity.identify(pages(m, names, made), m, paper, made.geometry.layout, made.blank_qr)
    return Sheet(doc, made.geometry, made.slot)
