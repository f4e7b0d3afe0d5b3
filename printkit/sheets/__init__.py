"""Which sheets exist: ``printkit render KIND SUBJECT`` resolves here.

SUBJECT is an Around the World map (a bundled id or a ``.toml`` path), whose
kinds are in :data:`printkit.sheets.atw.SHEETS`, or another game
("trekking-the-world", "globetrotting", "wereldsteden"), whose module in
:data:`GAME_MODULES` (``printkit/sheets/trekking.py``, ...) exposes its own
``SHEETS`` of ``builder(game, names, paper)``. Every builder is handed its
model; this dispatcher is the one place that loads it (TODO(merge): the
lead's ``printkit/registry.py`` replaces this module's loading and lookup).
"""

from __future__ import annotations

import importlib
from typing import Union, cast

from printkit.layout.common import LayoutError
from printkit.layout.primitives import Document
from printkit.model.games import Globetrotting, Trekking, Wereldsteden
from printkit.sheets.builder import SheetBuilder

OtherGame = Union[Trekking, Globetrotting, Wereldsteden]

GAME_MODULES: dict[str, str] = {
    "trekking-the-world": "printkit.sheets.trekking",
    "globetrotting": "printkit.sheets.globetrotting",
    "wereldsteden": "printkit.sheets.wereldsteden",
}
OTHER_GAMES: tuple[str, ...] = tuple(GAME_MODULES)


class UnknownSheet(LayoutError):
    """A sheet kind the subject does not have (a usage error on the command line)."""


def game_sheets(game: str) -> dict[str, SheetBuilder[OtherGame]]:
    """The SHEETS registry of another game's sheet module."""
    module_name = GAME_MODULES[game]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise UnknownSheet(f"{game} has no printable sheets in this printkit") from None
    return cast(dict[str, SheetBuilder[OtherGame]], getattr(module, "SHEETS"))


def kinds_for(subject: str) -> tuple[str, ...]:
    """The sheet kinds SUBJECT has, in listing order."""
    if subject in OTHER_GAMES:
        return tuple(game_sheets(subject))
    from printkit.sheets import atw

    return tuple(atw.SHEETS)


def build(kind: str, subject: str, names: list[str], paper: str) -> Document:
    """Lay out sheet ``kind`` of ``subject`` for these players on ``paper``."""
    kinds = kinds_for(subject)
    if kind not in kinds:
        what = subject if subject in OTHER_GAMES else "an Around the World map"
        raise UnknownSheet(f"no sheet {kind!r} for {what}; choose one of: {', '.join(kinds)}")
    if subject in OTHER_GAMES:
        from printkit.loading.games import load_game  # TODO(merge): the registry loads the game

        return game_sheets(subject)[kind](load_game(subject), names, paper)
    from printkit.loading.maps import load_map  # TODO(merge): the registry loads the map
    from printkit.sheets import atw

    return atw.SHEETS[kind](load_map(subject), names, paper)
