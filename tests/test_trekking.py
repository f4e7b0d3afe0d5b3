"""Trekking the World: game data, hand-worked scores, tie-breaks, bad records, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.errors import DataError
from printkit.loading.games import load_trekking
from printkit.loading.records.trekking import read_record
from printkit.rules import trekking
from printkit.rules.report import GameScore


def score_record(doc: dict[str, Any], source: str) -> GameScore:
    """Read and score a record, as `printkit score` does."""
    return trekking.score_record(read_record(doc, source, Path(".")))


def player(name: str, **fields: Any) -> dict[str, Any]:
    suitcase = {} if "suitcase" in fields else {"suitcase_columns": 0}
    return {"name": name, "tours": [], **suitcase, "money": 0, **fields}


def record(*players: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"game": "trekking-the-world", **top, "players": list(players)}


def problems(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(DataError) as info:
        score_record(doc, "game.toml")
    return info.value.problems


def test_bundled_data() -> None:
    game = load_trekking()
    assert game.money_cap == 20
    assert [game.end_trigger(n) for n in (2, 3, 4, 5)] == [5, 5, 4, 4]
    assert game.max_end_trigger == 6 and game.tour_slots == 8
    assert game.suitcase_check == "check against your suitcase"
    assert game.suitcase_points == (1, 3, 6, 10, 15, 21, 28)


def test_hand_worked_three_players() -> None:
    result = score_record(record(
        # Ann: tours 22+9+14 = 45, encounters 3+2 = 5, 3 full columns -> 6: 56
        player("Ann", tours=[22, 9, 14], encounters=[3, 2], suitcase_columns=3, money=4),
        # Bo: tours 10+12+8+15+6 = 51, no encounters, 1 full column -> 1: 52
        player("Bo", tours=[10, 12, 8, 15, 6], suitcase_columns=1, money=20),
        # Cy: no tours, encounters total 4, suitcase points given as 15: 19
        player("Cy", encounters=4, suitcase=15, money=0),
    ), "game.toml")  # fmt: skip
    assert [(p.name, p.total) for p in result.players] == [("Ann", 56), ("Bo", 52), ("Cy", 19)]
    ann = {s.key: (s.points, s.reason) for s in result.players[0].sections}
    assert ann == {
        "tours": (45, "3 tours: 22 + 9 + 14"),
        "encounters": (5, "at game's end: 3 + 2"),
        "suitcase": (6, "right-most full column 3 (check against your suitcase)"),
    }
    assert result.players[2].sections[2].reason == "15 points as given"
    assert result.winners == ("Ann",) and result.tiebreak == ""


def test_tie_goes_to_most_money() -> None:
    result = score_record(record(
        player("Ann", tours=[20], suitcase_columns=2, money=5),  # 20 + 0 + 3 = 23
        player("Bo", tours=[10, 10], encounters=3, money=9),     # 20 + 3 + 0 = 23
    ), "game.toml")  # fmt: skip
    assert result.winners == ("Bo",)
    assert result.tiebreak == "Ann and Bo tied on 23 points; money: Ann $5, Bo $9: most money wins (Bo)"


def test_tie_on_points_and_money_is_shared() -> None:
    result = score_record(record(
        player("Ann", tours=[20], suitcase_columns=2, money=9),  # 20 + 3 = 23
        player("Bo", tours=[10, 10], encounters=3, money=9),     # 20 + 3 = 23
        player("Cy", tours=[5], money=20),                       # 5
    ), "game.toml")  # fmt: skip
    assert result.winners == ("Ann", "Bo")
    assert result.tiebreak == "Ann and Bo tied on 23 points; money: Ann $9, Bo $9: Ann and Bo still tied, shared victory"


def test_money_above_cap_and_negative_values() -> None:
    assert problems(record(player("Ann", money=23), player("Bo", tours=[4, -3]))) == [
        "game.toml: players[0].money: 23 is above the $20 cap",
        "game.toml: players[1].tours[1]: must be at least 0, got -3",
    ]
    assert problems(record(player("Ann", encounters=-1), player("Bo", suitcase=-2))) == [
        "game.toml: players[0].encounters: must be at least 0, got -1",
        "game.toml: players[1].suitcase: must be at least 0, got -2",
    ]


def test_too_many_tours_for_the_end_trigger() -> None:
    # 3 players: the 5th tour ends the game; 6 is possible only in the finishing round.
    six, seven = [1] * 6, [1] * 7
    doc = record(player("Ann", tours=six), player("Bo"), player("Cy", tours=seven))
    assert problems(doc) == [
        "game.toml: players[2].tours: 7 tours, but the game ends at the 5th tour (at most 6 counting the last round)",
    ]
    # 4 players end at the 4th tour
    doc = record(player("A", tours=[1] * 6), player("B"), player("C"), player("D"))
    assert problems(doc) == [
        "game.toml: players[0].tours: 6 tours, but the game ends at the 4th tour (at most 5 counting the last round)",
    ]
    # house rule: 6 tours, so 7 are fine
    assert score_record(record(player("Ann", tours=seven), player("Bo"), end_trigger=6), "g").players[0].total == 7


def test_end_trigger_house_rule_bounds() -> None:
    assert problems(record(player("Ann"), player("Bo"), end_trigger=7)) == [
        "game.toml: end_trigger: 7 is above the house-rule maximum of 6 tours"
    ]
    assert problems(record(player("A"), player("B"), player("C"), player("D"), end_trigger=3)) == [
        "game.toml: end_trigger: 3 is below the 4 tours of a 4-player game (a house rule may only raise it)"
    ]


def test_player_count_suitcase_and_keys() -> None:
    assert problems(record(player("Ann"))) == ["game.toml: players: 1 players, but Trekking the World is for 2-5"]
    assert problems(record(player("Ann", suitcase=3, suitcase_columns=1), player("Bo", suitcase_columns=8), player("Ann", cash=1))) == [
        "game.toml: players[0]: give suitcase_columns or suitcase (points), not both",
        "game.toml: players[1].suitcase_columns: 8 is more than the 7 suitcase columns",
        "game.toml: players[2].cash: unknown key (expected one of: name, tours, encounters, suitcase_columns, suitcase, money)",
        "game.toml: players[2].name: player name 'Ann' is given twice (names are compared ignoring case)",
    ]


def test_score_command_reads_a_game_file(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "trek.toml"
    path.write_text(
        'game = "trekking-the-world"\n'
        '[[players]]\nname = "Ann"\ntours = [22, 9]\nencounters = [3]\nsuitcase_columns = 2\nmoney = 1\n'
        '[[players]]\nname = "Bo"\ntours = [15]\nsuitcase = 10\nmoney = 3\n'
    )
    result = runner.invoke(cli, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    # Ann 22 + 9 + 3 + 3 (2 columns) = 37; Bo 15 + 0 + 10 = 25
    assert [(p["name"], p["total"], p["sections"]) for p in doc["players"]] == [
        ("Ann", 37, {"tours": 31, "encounters": 3, "suitcase": 3}),
        ("Bo", 25, {"tours": 15, "encounters": 0, "suitcase": 10}),
    ]
    assert doc["winners"] == ["Ann"]


def test_score_command_reports_bad_money(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "trek.json"
    path.write_text(json.dumps(record(player("Ann", money=21), player("Bo"))))
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {path}: players[0].money: 21 is above the $20 cap\n"


def test_bad_data_file_is_reported(tmp_path: Path) -> None:
    from printkit.loading.games import game_path, load_trekking

    bundled = game_path("trekking-the-world").read_text()
    bad = tmp_path / "trek.toml"
    bad.write_text(bundled.replace("money_cap = 20", 'money_cap = "20"').replace("tours = 4", "tours = 9"))
    with pytest.raises(DataError) as info:
        load_trekking(str(bad))
    assert info.value.problems == [
        f"{bad}: money_cap: expected a whole number, got string '20'",
        f"{bad}: end_trigger[1].tours: 9 is above max_end_trigger 6",
    ]


def test_another_games_data_file_is_refused_by_its_id(tmp_path: Path) -> None:
    from printkit.loading.games import game_path, load_trekking

    other = tmp_path / "globe.toml"
    other.write_text(game_path("globetrotting").read_text())
    with pytest.raises(DataError) as info:
        load_trekking(str(other))
    assert info.value.problems == [f"{other}: id: expected trekking-the-world, got string 'globetrotting'"]
