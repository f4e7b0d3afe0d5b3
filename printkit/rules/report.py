"""The shape every game's scoring returns: sections with reasons, totals, winners."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Section:
    """Points of one scoring section and the reason, e.g. ``1 full column = 5``."""

    key: str
    name: str
    points: int
    reason: str


@dataclass(frozen=True)
class PlayerScore:
    """One player's sections; ``rating`` is the solo/party title, if any."""

    name: str
    sections: tuple[Section, ...]
    rating: str | None = None

    @property
    def total(self) -> int:
        """Sum of all sections."""
        return sum(s.points for s in self.sections)


@dataclass(frozen=True)
class GameScore:
    """A scored game: every player, the winner(s) and how ties were broken."""

    game: str
    map: str
    mode: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tiebreak: str = ""

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape printed by ``printkit score --json``."""
        return {
            "game": self.game,
            "map": self.map,
            "mode": self.mode,
            "players": [
                {
                    "name": p.name,
                    "total": p.total,
                    "sections": {s.key: s.points for s in p.sections},
                    "rating": p.rating,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
        }
