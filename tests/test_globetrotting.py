"""Globetrotting: hand-worked scores, objectives first/later, tie-breaks, bad records, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.errors import DataError
from printkit.loading.games import load_globetrotting
from printkit.loading.records.globetrotting import read_record
from printkit.rules import globetrotting
from printkit.rules.report import GameScore


def score_record(doc: dict[str, Any], source: str) -> GameScore:
    """Read and score a record, as `printkit score` does."""
    return globetrotting.score_record(read_record(doc, source, Path(".")))


def player(name: str, **fields: Any) -> dict[str, Any]:
    fare = {} if "airfares" in fields else {"airfare": 20}
    return {"name": name, **fare, **fields}


def record(*players: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"game": "globetrotting", **top, "players": list(players)}


def problems(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(DataError) as info:
        score_record(doc, "g.toml")
    return info.value.problems


def test_bundled_data() -> None:
    game = load_globetrotting()
    assert (game.flights, game.objective_first, game.objective_later, game.airfare_bonus) == (9, 6, 4, 2)
    assert game.seasons == ("Spring", "Summer", "Fall")
    assert game.uses_festivals(2) and not game.uses_festivals(3)
    assert (game.abby.per_bucket_card, game.abby.festivals, game.abby.objectives_turn) == (2, 3, 6)


def test_hand_worked_three_players_with_airfare_tiebreak() -> None:
    result = score_record(record(
        # airfare 3+4+2+5+3+4+2+3+1 = 27
        player("Ann", airfares=[3, 4, 2, 5, 3, 4, 2, 3, 1], objectives={"A": 4}, bucket_list=[3, 4],
               companions=[1, 0, 1]),
        player("Bo", airfare=30, objectives={"A": 4, "B": 7}, bucket_list=5, companions=[0, 1, 1]),
        player("Cy", airfare=27, objectives={"B": 6}),
    ), "g.toml")  # fmt: skip
    # Objective A: first achieved on turn 4 by Ann and Bo -> 6 each.
    # Objective B: first on turn 6 by Cy -> 6; Bo on turn 7 -> 4.
    # Airfare: Ann 27 < Bo 30 (Cy's 27 is a tie, not more) -> 2; Bo -> 0; Cy 27 < 30 -> 2.
    # Ann 2 + 6 + (3+4) + 2 = 17; Bo 0 + 10 + 5 + 2 = 17; Cy 2 + 6 + 0 + 0 = 8
    assert [(p.name, p.total) for p in result.players] == [("Ann", 17), ("Bo", 17), ("Cy", 8)]
    bo = {s.key: (s.points, s.reason) for s in result.players[1].sections}
    assert bo == {
        "airfare": (0, "spent 30; 0 of 2 spent more"),
        "objectives": (10, "A turn 4 (first) 6, B turn 7 (later) 4"),
        "bucket_list": (5, "1 card: 5"),
        "companions": (2, "2 marked"),
    }
    assert result.winners == ("Ann",)
    assert result.tiebreak == "Ann and Bo tied on 17 points; airfare: Ann 27, Bo 30: lower airfare wins (Ann)"


def test_same_points_and_airfare_is_shared() -> None:
    result = score_record(record(
        player("Ann", airfare=25, bucket_list=[4], festivals=[1, 0, 0]),   # 0 + 4 + 1 = 5
        player("Bo", airfare=25, bucket_list=[2, 2], festivals=1),          # 0 + 4 + 1 = 5
    ), "g.toml")  # fmt: skip
    assert result.winners == ("Ann", "Bo")
    assert result.tiebreak == "Ann and Bo tied on 5 points; airfare: Ann 25, Bo 25: Ann and Bo still tied, shared victory"
    assert result.players[0].sections[3].name == "Festivals"


def test_airfare_bonus_counts_each_player_who_spent_more() -> None:
    result = score_record(record(player("A", airfare=10), player("B", airfare=20), player("C", airfare=30),
                                 player("D", airfare=30)), "g.toml")  # fmt: skip
    # A: 3 spent more -> 6; B: 2 -> 4; C and D: none (they tie) -> 0
    assert [p.total for p in result.players] == [6, 4, 0, 0]


def test_impossible_records() -> None:
    doc = record(
        player("Ann", airfares=[3] * 8, festivals=[1, 3, 0], objectives={"A": 10}),
        player("Bo", companions=[1, 0, 0], bucket_list=[1] * 8),
    )
    assert problems(doc) == [
        "g.toml: players[0].airfares: 8 flights, expected 9",
        "g.toml: players[0].objectives.A: turn 10, but the game has 9 turns",
        "g.toml: players[0].festivals[1]: 3 in Summer, at most 2 per season",
        "g.toml: players[1].bucket_list: 8 cards, but a player has at most 7",
        "g.toml: players[1].companions: a 2-player game uses festivals, not companions",
    ]
    assert problems(record(player("Ann", airfare=-1, festivals=7), player("Bo", airfare=3, airfares=[1] * 9))) == [
        "g.toml: players[0].airfare: must be at least 0, got -1",
        "g.toml: players[0].festivals: 7 is above the most possible, 2 per season x 3",
        "g.toml: players[1]: give airfares (the 9 flights) or airfare (their total), not both",
    ]


def test_objective_names() -> None:
    three = record(player("Ann", objectives={"A": 1, "B": 2}), player("Bo", objectives={"C": 3}))
    assert problems(three) == ["g.toml: objectives: 3 different objectives named (A, B, C), but only 2 are in play"]
    named = record(player("Ann", objectives={"Islands": 2}), player("Bo"), objectives=["Continents", "Types"])
    assert problems(named) == [
        "g.toml: players[0].objectives.Islands: not one of the objectives in play (Continents, Types)"
    ]


def test_solo_record_points_to_abby() -> None:
    assert problems(record(player("Ann"))) == [
        "g.toml: players: 1 player: score a solo game against Abby with `printkit abby score`"
    ]


def test_score_command(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "globe.json"
    path.write_text(json.dumps(record(
        player("Ann", airfare=21, objectives={"A": 3}, bucket_list=[4, 5], festivals=[2, 1, 0]),
        player("Bo", airfare=24, objectives={"A": 5}, bucket_list=[6], festivals=[0, 0, 2]),
    )))  # fmt: skip
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 0, result.output
    # Ann: 2 (Bo spent more) + 6 + 9 + 3 = 20; Bo: 0 + 4 + 6 + 2 = 12
    lines = result.stdout.splitlines()
    assert [line.split() for line in lines if line.startswith("Total")] == [["Total", "20", "12"]]
    assert "Winner: Ann" in lines
