"""Abby, Globetrotting's solo opponent: a full 9-turn game, scoring, state-file safety."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.errors import RuleError
from printkit.loading.games import load_globetrotting
from printkit.rules import abby

# (cards left to right, position chosen, player's airfare) -> Abby's airfare
GAME = [
    ("7,12,3", "3", 4),      # rightmost: wraps to the leftmost -> 7
    ("5,9,2", "1", 3),       # -> 9
    ("4,8,11", "middle", 5),  # -> 11
    ("6,1,10", "right", 2),  # wraps -> 6
    ("2,2,9", "left", 6),    # -> 2
    ("12,5,7", "2", 4),      # -> 7
    ("3,10,8", "3", 3),      # wraps -> 3
    ("9,4,6", "1", 5),       # -> 4
    ("11,7,2", "2", 1),      # -> 2
]
ABBY_FARES = [7, 9, 11, 6, 2, 7, 3, 4, 2]  # total 51; the player's: 4+3+5+2+6+4+3+5+1 = 33


def play(runner: CliRunner, state: Path, turns: list[tuple[str, str, int]]) -> list[str]:
    out = []
    for cards, chose, fare in turns:
        result = runner.invoke(cli, ["abby", "turn", "--cards", cards, "--chose", chose, "--airfare", str(fare),
                                     "--state", str(state)])  # fmt: skip
        assert result.exit_code == 0, result.output
        out.append(result.stdout)
    return out


def test_abby_fare_wraps_around() -> None:
    assert [abby.abby_fare([7, 12, 3], k) for k in (1, 2, 3)] == [12, 3, 7]


def test_full_solo_game(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "solo.json"
    result = runner.invoke(cli, ["abby", "start", "--bucket-cards", "3", "--state", str(state)])
    assert result.exit_code == 0, result.output
    outputs = play(runner, state, GAME)
    assert outputs[0].splitlines() == [
        "Flight 1 of 9: you chose card 3 (3), airfare 4; Abby flies for 7 (the leftmost card, wrapping).",
        "Running totals: you 4, Abby 7.",
    ]
    assert outputs[-1].splitlines()[-2:] == [
        "Running totals: you 33, Abby 51.",
        "All flights are logged: score the game with `printkit abby score`.",
    ]
    saved = json.loads(state.read_text())
    assert [t["abby"] for t in saved["turns"]] == ABBY_FARES
    status = runner.invoke(cli, ["abby", "status", "--state", str(state)])
    assert status.stdout.splitlines()[2] == "  2. cards 5,9,2      chose 1  you  3 (total   7)  Abby  9 (total  16)"

    tenth = runner.invoke(cli, ["abby", "turn", "--cards", "1,2,3", "--chose", "1", "--airfare", "2",
                                "--state", str(state)])  # fmt: skip
    assert tenth.exit_code == 1
    assert tenth.stderr == "Error: all 9 flights are logged; the game is over (see `printkit abby score`)\n"

    scored = runner.invoke(cli, ["abby", "score", "--objective", "5", "--objective", "8", "--bucket-list", "4,6",
                                 "--festivals", "1,1,0", "--json", "--state", str(state)])  # fmt: skip
    assert scored.exit_code == 0, scored.output
    doc = json.loads(scored.stdout)
    # You: airfare 2 (Abby spent 51 > 33) + objectives 6 (turn 5 <= 6) + 4 (turn 8) + bucket 4+6 + festivals 2 = 24
    # Abby: airfare 0 + objectives 4 (you had one on turn 5, before her turn 6) + 6 + bucket 2x3 + festivals 3 = 19
    assert [(p["name"], p["total"], p["sections"]) for p in doc["players"]] == [
        ("You", 24, {"airfare": 2, "objectives": 10, "bucket_list": 10, "festivals": 2}),
        ("Abby", 19, {"airfare": 0, "objectives": 10, "bucket_list": 6, "festivals": 3}),
    ]
    assert doc["winners"] == ["You"] and doc["mode"] == "solo"


def _solo(fares: tuple[int, int], bucket_cards: int = 3) -> abby.SoloGame:
    """Nine flights where the player pays fares[0] and Abby fares[1] each turn."""
    rules = load_globetrotting()
    game = abby.new_game(rules, bucket_cards)
    for _ in range(9):
        game = abby.play_turn(rules, game, [fares[1], fares[1], 1], 1, fares[0])
    return game


def test_tie_on_points_goes_to_lower_airfare() -> None:
    rules = load_globetrotting()
    game = _solo((4, 5))  # you 36, Abby 45
    result = abby.score(rules, game, [], [9, 4], 6)
    # You: 2 + 0 + 13 + 6 = 21; Abby: 0 + 6 + 6 + 6 + 3 = 21
    assert [p.total for p in result.players] == [21, 21]
    assert result.winners == ("You",)
    assert result.tiebreak == "You and Abby tied on 21 points; airfare: You 36, Abby 45: lower airfare wins (You)"


def test_abby_wins_when_she_spends_less_and_objectives_come_late() -> None:
    rules = load_globetrotting()
    game = _solo((5, 3), bucket_cards=5)  # you 45, Abby 27
    result = abby.score(rules, game, [6, 9], [5], 2)
    # You: 0 + 6 (turn 6 = her turn: both first) + 4 (turn 9) + 5 + 2 = 17
    # Abby: 2 (spent less) + 6 + 6 (nothing before turn 6) + 2x5 + 3 = 27
    assert [(p.name, p.total) for p in result.players] == [("You", 17), ("Abby", 27)]
    assert result.winners == ("Abby",)


def test_shared_victory() -> None:
    rules = load_globetrotting()
    game = _solo((4, 4))  # 36 each: no airfare bonus for either
    result = abby.score(rules, game, [], [9, 6], 6)  # you 0 + 0 + 15 + 6 = 21; Abby 0 + 12 + 6 + 3 = 21
    assert result.winners == ("You", "Abby")


def test_rule_errors() -> None:
    rules = load_globetrotting()
    with pytest.raises(RuleError, match=r"^the game has 9 flights; 0 logged so far$"):
        abby.score(rules, abby.new_game(rules, 3), [], [], 0)
    game = _solo((1, 1))
    with pytest.raises(RuleError, match=r"^4 completed Bucket List cards, but you started with 3$"):
        abby.score(rules, game, [], [1, 1, 1, 1], 0)
    with pytest.raises(RuleError, match=r"^objective: takes the turn it was achieved, 1-9; got 0$"):
        abby.score(rules, game, [0], [], 0)
    with pytest.raises(RuleError, match=r"^at most 2 global objectives, got 3$"):
        abby.score(rules, game, [1, 2, 3], [], 0)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--cards", "7,12", "--chose", "1", "--airfare", "3"],
         "Invalid value for '--cards': expected the 3 coordinate numbers shown (1-9999), left to right, "
         "like 7,12,3; got '7,12'"),
        (["--cards", "7,x,3", "--chose", "1", "--airfare", "3"],
         "Invalid value for '--cards': expected whole numbers separated by commas, got '7,x,3'"),
        (["--cards", "7,12,3", "--chose", "4", "--airfare", "3"],
         "Invalid value for '--chose': expected the position of your card, 1-3 or left/middle/right; got '4'"),
        (["--cards", "7,12,3", "--chose", "1", "--airfare", "-2"],
         "Invalid value for '--airfare': -2 is not in the range from 0 to 9999."),
    ],
)  # fmt: skip
def test_bad_turn_input(tmp_path: Path, runner: CliRunner, args: list[str], message: str) -> None:
    state = tmp_path / "solo.json"
    runner.invoke(cli, ["abby", "start", "--bucket-cards", "3", "--state", str(state)])
    before = state.read_bytes()
    result = runner.invoke(cli, ["abby", "turn", *args, "--state", str(state)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: {message}"
    assert state.read_bytes() == before


def test_start_refuses_unfinished_game_and_bad_bucket_count(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "solo.json"
    runner.invoke(cli, ["abby", "start", "--bucket-cards", "3", "--state", str(state)])
    play(runner, state, GAME[:2])
    again = runner.invoke(cli, ["abby", "start", "--bucket-cards", "4", "--state", str(state)])
    assert again.exit_code == 1
    assert again.stderr == f"Error: {state}: a solo game is in progress (flight 2 of 9); replace it with --force\n"
    forced = runner.invoke(cli, ["abby", "start", "--bucket-cards", "4", "--force", "--state", str(state)])
    assert forced.exit_code == 0 and json.loads(state.read_text())["turns"] == []
    bad = runner.invoke(cli, ["abby", "start", "--bucket-cards", "8", "--state", str(state)])
    assert bad.exit_code == 2
    assert bad.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--bucket-cards': must be 3-7 (cards per player, 1st Time Flyer to Globetrotter), got 8"
    )


def test_undo_and_score_too_early(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "solo.json"
    runner.invoke(cli, ["abby", "start", "--bucket-cards", "3", "--state", str(state)])
    play(runner, state, GAME[:3])
    undone = runner.invoke(cli, ["abby", "undo", "--state", str(state)])
    assert undone.stdout == "Took back flight 3. Running totals: you 7, Abby 16.\n"
    early = runner.invoke(cli, ["abby", "score", "--state", str(state)])
    assert early.exit_code == 1
    assert early.stderr == "Error: the game has 9 flights; 2 logged so far\n"


def test_corrupt_and_missing_state_is_reported_and_left_alone(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "solo.json"
    state.write_text("{not json")
    for args in (["turn", "--cards", "1,2,3", "--chose", "1", "--airfare", "1"], ["start", "--bucket-cards", "3"]):
        result = runner.invoke(cli, ["abby", *args, "--state", str(state)])
        assert result.exit_code == 1
        assert result.stderr.startswith(f"Error: {state}: state file is corrupt (")
        assert result.stderr.endswith("it was left untouched\n")
        assert state.read_text() == "{not json"
    # valid JSON, but Abby's fare does not match the cards
    state.write_text(json.dumps({"printkit": "abby", "format": 1, "bucket_cards": 3,
                                 "turns": [{"cards": [1, 2, 3], "chose": 1, "airfare": 1, "abby": 9}]}))  # fmt: skip
    result = runner.invoke(cli, ["abby", "status", "--state", str(state)])
    assert result.stderr == f"Error: {state}: state file is corrupt (turns[0].abby: expected Abby's airfare 2 for those cards); it was left untouched\n"
    missing = runner.invoke(cli, ["abby", "status", "--state", str(tmp_path / "none.json")])
    assert missing.exit_code == 1
    assert missing.stderr == (f"Error: {tmp_path / 'none.json'}: no solo game here; start one with "
                              f"`printkit abby start --bucket-cards 3 --state {tmp_path / 'none.json'}`\n")  # fmt: skip


def test_rule_errors_speak_of_the_game_not_of_command_line_flags() -> None:
    from printkit.errors import InputError

    rules = load_globetrotting()
    calls = [
        lambda: abby.new_game(rules, 8),
        lambda: abby.check_cards([7, 12]),
        lambda: abby.position_of("4"),
        lambda: abby.abby_fare((1, 2, 3), 4),
        lambda: abby.festival_total(rules, [1, 9, 0]),
        lambda: abby.check_bucket_points([3, -1]),
        lambda: abby.score(rules, _solo((1, 1)), [0], [], 0),
        lambda: abby.score(rules, _solo((1, 1)), [], [], 12),
    ]
    fields = []
    for call in calls:
        with pytest.raises(InputError) as err:
            call()
        assert "--" not in str(err.value), str(err.value)
        fields.append(err.value.field)
    assert fields == ["bucket_cards", "cards", "position", "position", "festivals", "bucket_list", "objective",
                      "festivals"]  # fmt: skip
    with pytest.raises(InputError, match=r"^bucket cards: must be 3-7 \(cards per player, 1st Time Flyer to "
                                         r"Globetrotter\), got 8$"):  # fmt: skip
        abby.new_game(rules, 8)
    assert abby.position_of(" Right ") == 3 and abby.position_of("2") == 2


def test_a_total_beyond_the_festivals_is_a_usage_error_once_the_game_is_over(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "solo.json"
    runner.invoke(cli, ["abby", "start", "--bucket-cards", "3", "--state", str(state)])
    play(runner, state, GAME)
    result = runner.invoke(cli, ["abby", "score", "--festivals", "12", "--state", str(state)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "Error: --festivals must be 0-6 (2 per season), got 12"
