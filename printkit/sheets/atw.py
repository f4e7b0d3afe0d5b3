"""Around the World in 15 Minutes' sheets, each handed the map it is drawn for."""

from __future__ import annotations

from typing import NamedTuple

from printkit.layout.primitives import Document
from printkit.model.maps import GameMap
from printkit.sheets import identity, mappages
from printkit.sheets.builder import Prepared, SheetBuilder


def map_sheet(m: GameMap, names: list[str], paper: str) -> Document:
    """Map sheets with the corner markers and QR code ``printkit scan`` reads them by."""
    return identity.identify(mappages.build(m, names, paper), m, paper)


def tracker_sheet(m: GameMap, names: list[str], paper: str) -> Document:
    """The turn tracker (imported when drawn: a map sheet does not load it)."""
    from printkit.sheets import tracker

    return tracker.build(m, names, paper)


def scorepad_sheet(m: GameMap, names: list[str], paper: str) -> Document:
    """The score pad (imported when drawn)."""
    from printkit.sheets import scorepad

    return scorepad.build(m, names, paper)


SHEETS: dict[str, SheetBuilder[GameMap]] = {"map": map_sheet, "tracker": tracker_sheet, "scorepad": scorepad_sheet}
"""Sheets of an Around the World map: kind -> builder(map, names, paper)."""

class MapLayout(NamedTuple):
    """A map sheet's layout and the marks :func:`printkit.sheets.identity.identify` adds to it."""

    pages: mappages.Pages
    marked: identity.Marked


def _map_layout(m: GameMap, paper: str) -> MapLayout:
    """Lay the map sheet out and mark it."""
    made = mappages.pages(m, paper)
    return MapLayout(made, identity.marked(m.id, paper, made.fields_json, made.fields.width))


def _keep_map_layout(m: GameMap, paper: str, made: MapLayout) -> None:
    """Hand a kept layout and its marks to the modules that draw them."""
    mappages.keep_pages(m, paper, made.pages)
    identity.keep_marked(m.id, paper, made.pages.fields_json, made.marked)


PREPARED: dict[str, Prepared[GameMap, MapLayout]] = {
    "map": Prepared(MapLayout, _map_layout, _keep_map_layout),
}
"""What a kind's pages share, kept on disk by the registry: the map sheet's layout (see docs/render.md)."""
