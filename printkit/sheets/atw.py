"""Around the World in 15 Minutes' sheets, each handed the map it is drawn for."""

from __future__ import annotations

from printkit.model.maps import GameMap
from printkit.sheets import mapsheet, scorepad, tracker
from printkit.sheets.builder import SheetBuilder

SHEETS: dict[str, SheetBuilder[GameMap]] = {"map": mapsheet.build, "tracker": tracker.build, "scorepad": scorepad.build}
"""Sheets of an Around the World map: kind -> builder(map, names, paper)."""
