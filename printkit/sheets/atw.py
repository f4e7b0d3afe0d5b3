"""Around the World in 15 Minutes' sheets, each handed the map it is drawn for."""

from __future__ import annotations

from printkit.layout.primitives import Document
from printkit.model.maps import GameMap
from printkit.sheets import mappages
from printkit.sheets.builder import Prepared, SheetBuilder
from printkit.sheets.identity import identify


def map_sheet(m: GameMap, names: list[str], paper: str) -> Document:
    """Map sheets with the corner markers and QR code ``printkit scan`` reads them by."""
    return identify(mappages.build(m, names, paper), m, paper)


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

PREPARED: dict[str, Prepared[GameMap, mappages.Pages]] = {
    "map": Prepared(mappages.Pages, mappages.pages, mappages.keep_pages),
}
"""What a kind's pages share, kept on disk by the registry: the map sheet's layout (see docs/render.md)."""
