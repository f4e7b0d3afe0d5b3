"""Globetrotting scoring: airfare bonus, global objectives, bucket list, festivals/companions.

Scores a :class:`~printkit.model.records.GlobetrottingRecord`; game files are
read by :mod:`printkit.loading.records.globetrotting`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from printkit.model.games import Globetrotting
from printkit.model.records import GlobePlayer, GlobetrottingRecord
from printkit.rules.report import GameScore, PlayerScore, Section, winners_by

GAME = "globetrotting"


def objective_points(game: Globetrotting, turn: int, first_turn: int) -> int:
    """6 on the first turn anyone achieved the objective, 4 later."""
    return game.objective_first if turn <= first_turn else game.objective_later


def airfare_bonus(game: Globetrotting, mine: int, others: Sequence[int]) -> int:
    """2 points per other player who spent strictly more."""
    return game.airfare_bonus * sum(1 for o in others if o > mine)


def pick_winners(scores: Sequence[PlayerScore], airfare: Mapping[str, int]) -> tuple[tuple[str, ...], str]:
    """Most points; ties: lower total airfare, then a shared victory."""
    return winners_by(scores, airfare, "low", "airfare", lambda n: f"{n} {airfare[n]}", "lower airfare wins ({name})")


def score_game(game: Globetrotting, players: Sequence[GlobePlayer]) -> GameScore:
    """Score every player and name the winner(s)."""
    first: dict[str, int] = {}
    for p in players:
        for obj, turn in p.objectives.items():
            first[obj] = min(turn, first.get(obj, turn))
    marks_key = "festivals" if game.uses_festivals(len(players)) else "companions"
    marks_name = "Festivals" if marks_key == "festivals" else "Travel Companions"
    scores = []
    for p in players:
        others = [o.airfare for o in players if o is not p]
        more = sum(1 for o in others if o > p.airfare)
        objs = [(o, t, objective_points(game, t, first[o])) for o, t in sorted(p.objectives.items(), key=lambda x: x[1])]
        obj_why = ", ".join(f"{o} turn {t} ({'first' if pts == game.objective_first else 'later'}) {pts}" for o, t, pts in objs)
        n = len(p.bucket_list)
        bucket_why = f"{n} card{'s' * (n != 1)}: " + " + ".join(map(str, p.bucket_list)) if n else "none"
        scores.append(PlayerScore(p.name, (
            Section("airfare", "Airfare bonus", airfare_bonus(game, p.airfare, others),
                    f"spent {p.airfare}; {more} of {len(others)} spent more"),
            Section("objectives", "Global objectives", sum(x[2] for x in objs), obj_why or "none"),
            Section("bucket_list", "Bucket list", sum(p.bucket_list), bucket_why),
            Section(marks_key, marks_name, p.marks, f"{p.marks} marked"),
        )))  # fmt: skip
    winners, tiebreak = pick_winners(scores, {p.name: p.airfare for p in players})
    return GameScore(GAME, "", "multiplayer", tuple(scores), winners, tiebreak)


def score_record(record: GlobetrottingRecord) -> GameScore:
    """Score a checked Globetrotting record."""
    return score_game(record.game, record.players)
