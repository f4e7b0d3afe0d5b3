"""The shape every game's scoring returns: sections with reasons, totals, winners."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple

from printkit.model.words import join_names


class Section(NamedTuple):
    """Points of one scoring section and the reason, e.g. ``1 full column = 5``."""

    key: str
    name: str
    points: int
    reason: str


class PlayerScore(NamedTuple):
    """One player's sections; ``rating`` is the solo/party title, if any."""

    name: str
    sections: tuple[Section, ...]
    rating: str | None = None

    @property
    def total(self) -> int:
        """Sum of all sections."""
        return sum(s.points for s in self.sections)


class GameScore(NamedTuple):
    """A scored game: every player, the winner(s) and how ties were broken."""

    game: str
    map: str
    mode: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tiebreak: str = ""
    warnings: tuple[str, ...] = ()  # what looks wrong in the record but does not stop the scoring

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
            **({"warnings": list(self.warnings)} if self.warnings else {}),
        }


def winners_by(
    scores: Sequence[PlayerScore],
    key: Mapping[str, int],
    prefer: Literal["low", "high"],
    label: str,
    show: Callable[[str], str],
    wins: str,
    shared: str = "shared victory",
) -> tuple[tuple[str, ...], str]:
    """Highest total wins; a tie goes to the lowest or highest ``key``, then is shared.

    Returns the winners and how a tie was broken, e.g. ``Ann and Bo tied on 40
    points; money: Ann $3, Bo $5: most money wins (Bo)``; ``wins`` may use
    ``{name}``, ``show`` renders one tied player's ``key`` for that sentence.
    """
    if not scores:
        return (), ""
    top = max(s.total for s in scores)
    tied = [s.name for s in scores if s.total == top]
    if len(tied) == 1:
        return (tied[0],), ""
    target = (min if prefer == "low" else max)(key[n] for n in tied)
    win = [n for n in tied if key[n] == target]
    head = f"{join_names(tied)} tied on {top} points; {label}: {', '.join(show(n) for n in tied)}"
    if len(win) == 1:
        return (win[0],), f"{head}: {wins.format(name=win[0])}"
    return tuple(win), f"{head}: {join_names(win)} still tied, {shared}"
