"""What the history keeps of a game: the typed values its functions take and return.

Pure: no file, no database. A game to record is a :class:`Scored` (the
:class:`~printkit.rules.report.GameScore`, the explanation as ``printkit score``
printed it, where and when it was played); a listing hands back
:class:`Summary` rows, ``bests`` :class:`Best` rows.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any, NamedTuple

from printkit.rules.report import GameScore

ID_DIGITS = 16
"""Hex digits of a standalone game file's id (the start of its SHA-256)."""


class Scored(NamedTuple):
    """A scored game to record: the score, its explanation as printed, the map and mode, when it was played."""

    score: GameScore
    explanation: str
    played_at: str  # ISO-8601 UTC, as utc_time() writes it: 2024-05-01T19:30:00Z
    map: str  # the map's id; for a game without maps, the game's id
    mode: str


class PlayerResult(NamedTuple):
    """One player of a recorded game: name as written, total, whether they won."""

    name: str
    total: int
    won: bool

    def to_json(self) -> dict[str, Any]:
        """``{"name", "total", "won"}``."""
        return {"name": self.name, "total": self.total, "won": self.won}


class Summary(NamedTuple):
    """One recorded game as listed: id, game, map, mode, when, and each player's result."""

    id: str
    game: str
    map: str
    mode: str
    played_at: str
    players: tuple[PlayerResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The shape of ``printkit history --json``'s games."""
        return {"id": self.id, "game": self.game, "map": self.map, "mode": self.mode,
                "played_at": self.played_at, "players": [p.to_json() for p in self.players]}


class Recorded(NamedTuple):
    """A recorded game in full: its summary, the explanation as ``score`` printed it, the score as JSON."""

    summary: Summary
    explanation: str
    score: dict[str, Any]


class Best(NamedTuple):
    """One player's record on one map and mode: games, wins, best total, average total."""

    name: str
    map: str
    mode: str
    games: int
    wins: int
    best: int
    average: float

    def to_json(self) -> dict[str, Any]:
        """The shape of ``printkit history bests --json``'s players."""
        return self._asdict()


def utc_time(text: str) -> str:
    """An ISO-8601 time with a zone as UTC, ``2024-05-01T19:30:00Z``; ValueError for anything else."""
    when = dt.datetime.fromisoformat(text)
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"time {text!r} has no time zone (write it as UTC, e.g. 2024-05-01T19:30:00Z)")
    return when.astimezone(dt.timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def now() -> str:
    """The current time as :func:`utc_time` writes it."""
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def scored(score: GameScore, explanation: str, *, played_at: str | None = None, map: str | None = None,
           mode: str | None = None) -> Scored:
    """A game to record: ``played_at`` (any zone, made UTC) defaults to now, map and mode to the score's.

    A game without maps (Trekking) is kept under its game's id as its map, so
    ``--map`` finds it and ``bests`` never mixes two such games.
    """
    return Scored(score, explanation, utc_time(played_at) if played_at is not None else now(),
                  (score.map or score.game) if map is None else map, score.mode if mode is None else mode)


def file_id(content: bytes) -> str:
    """The id of a standalone game file: the first :data:`ID_DIGITS` hex digits of its bytes' SHA-256."""
    return hashlib.sha256(content).hexdigest()[:ID_DIGITS]


def name_key(name: str) -> str:
    """A name as names are compared (ignoring case, as :mod:`printkit.model.names` says)."""
    return name.casefold()
