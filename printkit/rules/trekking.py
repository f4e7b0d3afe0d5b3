"""Trekking the World scoring: tours + end-game encounters + suitcase; ties on money.

Scores a :class:`~printkit.model.records.TrekkingRecord`; game files are read by
:mod:`printkit.loading.records.trekking`.
"""

from __future__ import annotations

from collections.abc import Sequence

from printkit.model.games import Trekking
from printkit.model.records import TrekkingPlayer, TrekkingRecord
from printkit.rules.report import GameScore, PlayerScore, Section, winners_by

GAME = "trekking-the-world"


def _plus(values: tuple[int, ...]) -> str:
    return " + ".join(str(v) for v in values)


def score_player(game: Trekking, p: TrekkingPlayer) -> PlayerScore:
    """A player's Tours, Encounters and Suitcase sections."""
    tours = Section("tours", "Tours", sum(p.tours), f"{len(p.tours)} tours: {_plus(p.tours)}" if p.tours else "no tours")
    enc = Section(
        "encounters", "Encounters", sum(p.encounters),
        f"at game's end: {_plus(p.encounters)}" if len(p.encounters) > 1 else "at game's end" if p.encounters else "none",
    )
    if p.suitcase_columns is None:
        why = f"{p.suitcase_points} points as given"
    elif p.suitcase_columns == 0:
        why = "no completely filled column"
    else:
        why = f"right-most full column {p.suitcase_columns} ({game.suitcase_check})"
    return PlayerScore(p.name, (tours, enc, Section("suitcase", "Suitcase", p.suitcase_points, why)))


def pick_winners(scores: tuple[PlayerScore, ...], money: dict[str, int]) -> tuple[tuple[str, ...], str]:
    """Most points; ties: most money, then a shared victory."""
    return winners_by(scores, money, "high", "money", lambda n: f"{n} ${money[n]}", "most money wins ({name})")


def score_game(game: Trekking, players: Sequence[TrekkingPlayer]) -> GameScore:
    """Score every player and name the winner(s)."""
    scores = tuple(score_player(game, p) for p in players)
    winners, tiebreak = pick_winners(scores, {p.name: p.money for p in players})
    return GameScore(GAME, "", "multiplayer", scores, winners, tiebreak)


def score_record(record: TrekkingRecord) -> GameScore:
    """Score a checked Trekking the World record."""
    return score_game(record.game, record.players)
