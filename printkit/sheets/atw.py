"""Around the World in 15 Minutes' sheets, each handed the map it is drawn for."""

from __future__ import annotations

from printkit.model.maps import GameMap
from printkit.sheets import mappages
from printkit.sheets.builder import Prepared, Sheet, SheetBuilder
from printkit.sheets.mappages import MapLayout as MapLayout  # what PREPARED keeps (the registry names it)


def map_sheet(m: GameMap, names: list[str], paper: str) -> Sheet:
    """Map sheets with the corner markers and QR code ``printkit scan`` reads them by (laid out afresh)."""
    return mappages.build(m, names, paper, mappages.prepare(m, paper))


def tracker_sheet(m: GameMap, names: list[str], paper: str) -> Sheet:
    """The turn tracker (imported when drawn: a map sheet does not load it)."""
    from printkit.sheets import tracker

    return Sheet(tracker.build(m, names, paper))


def scorepad_sheet(m: GameMap, names: list[str], paper: str) -> Sheet:
    """The score pad (imported when drawn)."""
    from printkit.sheets import scorepad

    return Sheet(scorepad.build(m, names, paper))


SHEETS: dict[str, SheetBuilder[GameMap]] = {"map": map_sheet, "tracker": tracker_sheet, "scorepad": scorepad_sheet}
"""Sheets of an Around the World map: kind -> builder(map, names, paper)."""

PREPARED: dict[str, Prepared[GameMap, MapLayout]] = {
    "map": Prepared(MapLayout, mappages.prepare, mappages.build),
}
"""What a kind's pages share, kept on disk by the registry, and the builder handed it (see docs/render.md)."""
