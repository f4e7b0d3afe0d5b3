"""Around the World in 15 Minutes' sheets, each handed the map it is drawn for."""

from __future__ import annotations

from printkit.layout.primitives import Document
from printkit.model.maps import GameMap
from printkit.sheets import mapsheet, scorepad, tracker
from printkit.sheets.builder import SheetBuilder
from printkit.sheets.identity import identify


def map_sheet(m: GameMap, names: list[str], paper: str) -> Document:
    """Map sheets with the corner markers and QR code ``printkit scan`` reads them by."""
    return identify(mapsheet.build(m, names, paper), m, paper)


SHEETS: dict[str, SheetBuilder[GameMap]] = {"map": map_sheet, "tracker": tracker.build, "scorepad": scorepad.build}
"""Sheets of an Around the World map: kind -> builder(map, names, paper)."""
