"""Which sheets exist: ``printkit render KIND SUBJECT`` resolves here.

SUBJECT is an Around the World map (a bundled id or a ``.toml`` path), whose
kinds are in :data:`SHEETS`, or another game ("trekking-the-world",
"globetrotting", "wereldsteden"), whose module in :data:`GAME_MODULES`
(``printkit/layout/trekking_sheets.py``, ...) exposes its own ``SHEETS`` of
``builder(names, paper)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import cast

from printkit.layout.common import LayoutError
from printkit.layout.primitives import Document

SheetBuilder = Callable[[str, list[str], str], Document]
GameSheetBuilder = Callable[[list[str], str], Document]

GAME_MODULES: dict[str, str] = {
    "trekking-the-world": "printkit.sheets.trekking",
    "globetrotting": "printkit.sheets.globetrotting",
    "wereldsteden": "printkit.sheets.wereldsteden",
}
OTHER_GAMES: tuple[str, ...] = tuple(GAME_MODULES)


class UnknownSheet(LayoutError):
    """A sheet kind the subject does not have (a usage error on the command line)."""


def _map_sheet(subject: str, names: list[str], paper: str) -> Document:
    from printkit.sheets import mapsheet
    from printkit.loading.maps import load_map

    return mapsheet.build(load_map(subject), names, paper)


def _tracker(subject: str, names: list[str], paper: str) -> Document:
    from printkit.sheets import tracker
    from printkit.loading.maps import load_map

    return tracker.build(load_map(subject), names, paper)


def _scorepad(subject: str, names: list[str], paper: str) -> Document:
    from printkit.sheets import scorepad
    from printkit.loading.maps import load_map

    return scorepad.build(load_map(subject), names, paper)


SHEETS: dict[str, SheetBuilder] = {"map": _map_sheet, "tracker": _tracker, "scorepad": _scorepad}
"""Sheets of an Around the World map: kind -> builder(subject, names, paper)."""


def game_sheets(game: str) -> dict[str, GameSheetBuilder]:
    """The SHEETS registry of another game's sheet module."""
    module_name = GAME_MODULES[game]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise UnknownSheet(f"{game} has no printable sheets in this printkit") from None
    return cast(dict[str, GameSheetBuilder], getattr(module, "SHEETS"))


def kinds_for(subject: str) -> tuple[str, ...]:
    """The sheet kinds SUBJECT has, in listing order."""
    if subject in OTHER_GAMES:
        return tuple(game_sheets(subject))
    return tuple(SHEETS)


def build(kind: str, subject: str, names: list[str], paper: str) -> Document:
    """Lay out sheet ``kind`` of ``subject`` for these players on ``paper``."""
    kinds = kinds_for(subject)
    if kind not in kinds:
        what = subject if subject in OTHER_GAMES else "an Around the World map"
        raise UnknownSheet(f"no sheet {kind!r} for {what}; choose one of: {', '.join(kinds)}")
    if subject in OTHER_GAMES:
        return game_sheets(subject)[kind](names, paper)
    return SHEETS[kind](subject, names, paper)
