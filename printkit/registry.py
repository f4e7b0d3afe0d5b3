"""Games by a record's ``game`` key: each game's record reader and scorer (interim, until the lead's registry)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from printkit.errors import DataError
from printkit.loading.records import atw as atw_record, globetrotting as globe_record, load_record
from printkit.loading.records import trekking as trek_record, wereldsteden as steden_record
from printkit.rules import atw, globetrotting, trekking, wereldsteden
from printkit.rules.report import GameScore


class Titled(Protocol):
    """A game record: it knows its printed title."""

    @property
    def title(self) -> str:
        """The printed title of the game."""


R = TypeVar("R", bound=Titled)
Scorer = Callable[[dict[str, Any], str, Path], tuple[GameScore, str]]


def _game(read: Callable[[dict[str, Any], str, Path], R], score: Callable[[R], GameScore]) -> Scorer:
    def run(doc: dict[str, Any], source: str, base_dir: Path) -> tuple[GameScore, str]:
        record = read(doc, source, base_dir)
        return score(record), record.title

    return run


ATW = "around-the-world"
GAMES: dict[str, Scorer] = {
    ATW: _game(atw_record.read_record, atw.score_record),
    "trekking-the-world": _game(trek_record.read_record, trekking.score_record),
    "globetrotting": _game(globe_record.read_record, globetrotting.score_record),
    "wereldsteden": _game(steden_record.read_record, wereldsteden.score_record),
}


def score_document(doc: dict[str, Any], source: str, base_dir: Path) -> tuple[GameScore, str]:
    """Read and score a parsed record by its ``game`` key (Around the World if absent); also its title."""
    game = doc.get("game", ATW)
    if not isinstance(game, str) or game not in GAMES:
        raise DataError([f"{source}: game: unknown game {game!r} (games: {', '.join(GAMES)})"])
    return GAMES[game](doc, source, base_dir)


def score_file(path: str | Path) -> GameScore:
    """Read and score one game file."""
    p = Path(path)
    return score_document(load_record(p), str(path), p.parent)[0]
