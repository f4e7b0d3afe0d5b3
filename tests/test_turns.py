"""The turn tracker through the CLI: full games, undo, the end, and every bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from printkit.cli import cli
from printkit.loading.dice import load_dice
from printkit.rules.dice import turn_roll

DICE = load_dice()

RATING_CHART = [
    "  70 or more  The Perfect Vacation",
    "  60-69       Timeless Trip",
    "  50-59       Great Getaway",
    "  40-49       Tepid Travels",
    "  30-39       Lame Leave",
    "  20-29       Horrible Holiday",
    "  19 or less  Did You Lose Your Passport?",
]
TWELVE = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def run(runner: CliRunner, state: Path, *args: str) -> Result:
    """Invoke `printkit turns ARGS --state STATE`."""
    return runner.invoke(cli, ["turns", *args, "--state", str(state)])


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "game.json"


def start(runner: CliRunner, state: Path, *args: str) -> Result:
    result = run(runner, state, "start", *args)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def test_full_solo_game(runner: CliRunner, state: Path) -> None:
    result = start(runner, state, "--map", "world", "--seed", "42")
    assert result.output.splitlines() == [
        "New solo game on Around the World (seed 42), 20 turns.",
        "Players (1): Player 1",
        "A player finishes when they have visited at least 1 city in every region and returned to the "
        "starting city: `printkit turns finish NAME`.",
        f"Roll turn 1 with `printkit turns next`. Saved in {state}.",
    ]
    for turn in range(1, 21):
        result = run(runner, state, "next")
        assert result.exit_code == 0
        lines = result.output.splitlines()
        assert lines[0] == f"Turn {turn} of 20: {turn_roll(DICE, 42, turn).text}"
        assert lines[1] == "Still travelling (1 of 1): Player 1"
    assert lines[2] == "That was the last turn. Finish players who got home, then run `printkit turns end`."
    # the seed's first turns, worked out once: Random("42:1") etc.
    assert run(runner, state, "history").output.splitlines()[:3] == [
        "Turn 1: 2 + 5 -> Travel and Explore, in either order",
        "Turn 2: 3 + 5 -> Collect and Explore, in either order",
        "Turn 3: 6 + 5 -> Explore, plus one action of your choice",
    ]
    # home on the last turn: 20 - 20 = 0 bonus; one player, so NAME may be left out
    result = run(runner, state, "finish")
    assert result.output.splitlines()[0] == "Player 1 is home on turn 20: speed bonus 0 (20 - 20)."
    before = state.read_bytes()
    result = run(runner, state, "next")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the game is over: every player has finished their trip (after turn 20 of 20); nothing was changed\n"
    )
    assert state.read_bytes() == before
    result = run(runner, state, "end")
    assert result.output.splitlines() == [
        "Game over: every player has finished their trip (after turn 20 of 20).",
        "Map: Around the World, seed 42, solo mode",
        "  Player 1  home on turn 20: speed bonus 0",
        f"`printkit score --game {state}` scores every sheet with its speed bonus and gives the rating:",
        *RATING_CHART,
    ]


def test_game_ends_after_turn_20(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--seed", "5", "--players", "Ann")
    for _ in range(20):
        run(runner, state, "next")
    before = state.read_bytes()
    result = run(runner, state, "next")
    assert result.exit_code == 1
    assert result.stderr == "Error: the game is over: all 20 turns have been played; nothing was changed\n"
    assert state.read_bytes() == before
    status = run(runner, state, "status").output.splitlines()
    assert status[-1] == "Game over: all 20 turns have been played."
    end = run(runner, state, "end").output.splitlines()
    assert end[2] == "  Ann  did not get home: no speed bonus"


def test_twelve_player_party_game_ends_when_everyone_is_home(runner: CliRunner, state: Path) -> None:
    result = start(runner, state, "--map", "europe", "--players", ",".join(TWELVE), "--seed", "9")
    assert result.output.splitlines()[0] == "New party game on Around Europe (seed 9), 20 turns."
    assert "visited at least 2 cities in every region" in result.output
    # six players home on turn 14, six on turn 16
    for turn in range(1, 17):
        out = run(runner, state, "next").output.splitlines()
        assert out[0] == f"Turn {turn} of 20: {turn_roll(DICE, 9, turn).text}"
        if turn == 14:
            for name in TWELVE[:6]:
                out = run(runner, state, "finish", name.lower()).output.splitlines()
                assert out[0] == f"{name} is home on turn 14: speed bonus 6 (20 - 14)."
                assert out[1] == f"{name} takes no more actions."
    assert out[1] == "Still travelling (6 of 12): Gus, Hal, Ida, Jo, Kim, Lu"
    for name in TWELVE[6:]:
        out = run(runner, state, "finish", name).output.splitlines()
    assert out[-2:] == [
        "Nobody is travelling any more.",
        "Every player has finished: the game is over. See `printkit turns end`.",
    ]
    result = run(runner, state, "next")
    assert result.exit_code == 1
    assert "every player has finished their trip (after turn 16 of 20)" in result.stderr
    end = run(runner, state, "end").output.splitlines()
    assert end[0] == "Game over: every player has finished their trip (after turn 16 of 20)."
    assert end[2] == "  Ann  home on turn 14: speed bonus 6"
    assert end[13] == "  Lu   home on turn 16: speed bonus 4"
    history = run(runner, state, "history").output.splitlines()
    assert len(history) == 16 + 12
    assert history[14] == "  Ann finished on turn 14: speed bonus 6"


def test_undo_rolls_the_same_dice_again(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--seed", "123")
    first = [run(runner, state, "next").output.splitlines()[0] for _ in range(5)]
    result = run(runner, state, "undo")
    assert result.output.splitlines() == [f"Took back turn 5 ({turn_roll(DICE, 123, 5).text}).", "Now at turn 4 of 20."]
    run(runner, state, "undo")
    again = [run(runner, state, "next").output.splitlines()[0] for _ in range(2)]
    assert again == first[3:]


def test_same_seed_same_twenty_rolls_in_separate_games(runner: CliRunner, tmp_path: Path) -> None:
    outputs = []
    for name in ("a.json", "b.json"):
        start(runner, tmp_path / name, "--seed", "77")
        outputs.append([run(runner, tmp_path / name, "next").output for _ in range(20)])
    assert outputs[0] == outputs[1]
    assert len(set(outputs[0])) > 5


def test_undo_takes_back_finish_and_end(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--players", "Ann,Bo", "--mode", "party", "--seed", "1")
    run(runner, state, "next")
    run(runner, state, "finish", "Bo")
    assert run(runner, state, "undo").output.splitlines()[0] == "Took back Bo's finish on turn 1."
    assert run(runner, state, "end").output.splitlines()[:2] == [
        "Game over: the host ended it after turn 1 of 20.",
        "(Ended early; `printkit turns undo` takes this back.)",
    ]
    assert run(runner, state, "next").exit_code == 1
    assert run(runner, state, "undo").output.splitlines()[0] == "Took back the end of the game after turn 1."
    assert run(runner, state, "next").output.startswith("Turn 2 of 20: ")


def test_a_command_that_changes_nothing_does_not_rewrite_the_file(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--players", "Ann,Bo", "--mode", "party", "--seed", "1")
    inode = state.stat().st_ino  # a save is an atomic replace: a new inode
    assert run(runner, state, "finish", "Zed").exit_code == 2  # refused inside the change: nothing saved
    assert state.stat().st_ino == inode
    assert run(runner, state, "end").exit_code == 0
    assert state.stat().st_ino != inode
    inode = state.stat().st_ino
    again = run(runner, state, "end")  # already over: prints the summary, changes nothing
    assert again.output.splitlines()[0] == "Game over: the host ended it after turn 0 of 20."
    assert state.stat().st_ino == inode


def test_status_shows_the_state_path(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--players", "Ann,Bo", "--mode", "party", "--seed", "3")
    run(runner, state, "next")
    run(runner, state, "finish", "ANN")
    lines = run(runner, state, "status").output.splitlines()
    assert lines == [
        f"Game file: {state.resolve()}",
        f"Game id: {json.loads(state.read_text())['id']}",
        "Map: Around the World (world), party mode, seed 3",
        f"Turn 1 of 20: {turn_roll(DICE, 3, 1).text}",
        "Still travelling (1 of 2): Bo",
        "Finished: Ann on turn 1, speed bonus 19",
    ]


def test_default_state_file_and_env_var(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PRINTKIT_STATE", raising=False)
    assert runner.invoke(cli, ["turns", "start", "--seed", "4"]).exit_code == 0
    assert json.loads((tmp_path / "printkit-game.json").read_text())["seed"] == 4
    monkeypatch.setenv("PRINTKIT_STATE", str(tmp_path / "other.json"))
    assert runner.invoke(cli, ["turns", "start", "--seed", "8"]).exit_code == 0
    assert json.loads((tmp_path / "other.json").read_text())["seed"] == 8


def test_start_without_seed_saves_a_drawn_seed(runner: CliRunner, state: Path) -> None:
    start(runner, state)
    seed = json.loads(state.read_text())["seed"]
    assert isinstance(seed, int)
    assert run(runner, state, "next").output.startswith(f"Turn 1 of 20: {turn_roll(DICE, seed, 1).text}\n")


def test_start_refuses_to_replace_a_game_in_progress(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--seed", "1")
    run(runner, state, "next")
    before = state.read_bytes()
    result = run(runner, state, "start", "--seed", "2")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {state}: a game is in progress (turn 1 of 20); "
        "end it with `printkit turns end` or replace it with --force\n"
    )
    assert state.read_bytes() == before
    start(runner, state, "--seed", "2", "--force")
    assert json.loads(state.read_text())["seed"] == 2
    run(runner, state, "end")
    start(runner, state, "--seed", "3")  # a finished game may be replaced


def test_hundred_players_is_the_limit(runner: CliRunner, state: Path) -> None:
    names = ",".join(f"P{i}" for i in range(1, 101))
    result = start(runner, state, "--players", names)
    assert "Players (100): P1, P2," in result.output
    result = run(runner, state, "start", "--force", "--players", names + ",P101")
    assert result.exit_code == 2
    assert "Error: Invalid value for '--players': 101 players given; at most 100 can play" in result.stderr


def test_player_given_twice(runner: CliRunner, state: Path) -> None:
    result = run(runner, state, "start", "--players", "Ann,Bo,ann")
    assert result.exit_code == 2
    assert (
        "Error: Invalid value for '--players': player name 'ann' is given twice (names are compared ignoring case)"
        in result.stderr
    )
    assert not state.exists()


def test_empty_players(runner: CliRunner, state: Path) -> None:
    result = run(runner, state, "start", "--players", " , ")
    assert result.exit_code == 2
    assert "Error: Invalid value for '--players': give at least one player name" in result.stderr


def test_unknown_map(runner: CliRunner, state: Path) -> None:
    result = run(runner, state, "start", "--map", "mars")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: Invalid value for '--map': unknown map 'mars'; choose one of world, us, europe, south-america, "
        "or give the path of a .toml map file\n"
    )
    assert "Traceback" not in result.stderr
    assert not state.exists()


def test_seed_not_a_number(runner: CliRunner, state: Path) -> None:
    result = run(runner, state, "start", "--seed", "1.5")
    assert result.exit_code == 2
    assert "Error: Invalid value for '--seed': expected a whole number from 0 to 9223372036854775807, got '1.5'" in result.stderr


def test_next_without_a_game_says_how_to_start(runner: CliRunner, state: Path) -> None:
    result = run(runner, state, "next")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {state}: no game has been started here; start one with "
        f"`printkit turns start --map world --players \"Ann,Bo\" --state {state}`\n"
    )
    assert list(state.parent.iterdir()) == []  # not even a lock file


def test_finish_unknown_and_twice(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--players", "Ann,Bo", "--mode", "party")
    result = run(runner, state, "finish", "Ann")
    assert result.exit_code == 1
    assert result.stderr == "Error: no turn has been played yet; roll turn 1 with `printkit turns next`\n"
    run(runner, state, "next")
    result = run(runner, state, "finish", "Zed")
    assert result.exit_code == 2
    assert "Error: Invalid value for 'NAME': no player named 'Zed' in this game; players: Ann, Bo" in result.stderr
    run(runner, state, "finish", "Ann")
    before = state.read_bytes()
    result = run(runner, state, "finish", "ann")
    assert result.exit_code == 1
    assert result.stderr == "Error: Ann already finished on turn 1; nothing was changed\n"
    assert state.read_bytes() == before
    result = run(runner, state, "finish")
    assert result.exit_code == 2
    assert "Error: give the NAME of the player who finished" in result.stderr


def test_undo_at_turn_zero(runner: CliRunner, state: Path) -> None:
    start(runner, state)
    before = state.read_bytes()
    result = run(runner, state, "undo")
    assert result.exit_code == 1
    assert result.stderr == "Error: nothing to undo: no turn has been played yet (turn 0)\n"
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"printkit": "turns", "format": 1, "map": {"id": "wor', "state file is corrupt (line 1, column 50: invalid JSON (Unterminated string starting at))"),
        (b"\x00\xff garbage", "state file is corrupt ("),
        (b'{"printkit": "score", "format": 1}', "not a printkit turns state file; it was left untouched"),
        (b"[1, 2]", "not a printkit turns state file; it was left untouched"),
        (b'{"printkit": "turns", "format": 1, "players": ["Ann"]}',
         "state file is corrupt (map: expected a table); it was left untouched"),
    ],
)
def test_corrupt_state_is_reported_and_left_alone(
    runner: CliRunner, state: Path, content: bytes, message: str
) -> None:
    state.write_bytes(content)
    for command in (["next"], ["status"], ["finish", "Ann"], ["undo"], ["end"], ["start", "--force"]):
        result = run(runner, state, *command)
        assert result.exit_code == 1, command
        assert result.stderr.startswith(f"Error: {state}: ")
        assert message in result.stderr
        assert "Traceback" not in result.stderr
    assert state.read_bytes() == content


def test_corrupt_events_are_reported_with_the_field(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--seed", "1")
    run(runner, state, "next")
    doc = json.loads(state.read_text())
    doc["events"][0]["dice"] = [3, 9]
    state.write_text(json.dumps(doc))
    result = run(runner, state, "next")
    assert result.stderr == (
        f"Error: {state}: state file is corrupt (events[0].dice: expected two die faces 1-6); it was left untouched\n"
    )


def test_state_from_a_newer_printkit_is_refused(runner: CliRunner, state: Path) -> None:
    start(runner, state)
    doc = json.loads(state.read_text())
    doc["format"] = 99
    state.write_text(json.dumps(doc))
    result = run(runner, state, "next")
    assert result.exit_code == 1
    assert f"Error: {state}: written by a newer printkit (state format 99" in result.stderr
    assert "upgrade printkit to continue this game" in result.stderr


def test_read_only_state_is_not_changed(runner: CliRunner, state: Path) -> None:
    start(runner, state, "--seed", "1")
    state.chmod(0o444)
    before = state.read_bytes()
    result = run(runner, state, "next")
    assert result.exit_code == 1
    assert result.stderr == f"Error: {state}: state file is read-only; the game was not changed\n"
    assert state.read_bytes() == before
    assert run(runner, state, "status").exit_code == 0  # reading still works


def test_the_default_mode_follows_the_maps_multiplayer_range() -> None:
    """The mode by player count, as `printkit score` picks it: the multiplayer range is the map's data."""
    from printkit.loading.maps import load_map
    from printkit.rules.turns import default_mode

    world = load_map("world")
    assert (world.min_multiplayer, world.max_multiplayer) == (2, 6)
    assert [default_mode(n, world.max_multiplayer) for n in (1, 2, 6, 7)] == ["solo", "multiplayer", "multiplayer",
                                                                              "party"]


def test_bad_player_names_are_a_typed_rule_error() -> None:
    import pytest

    from printkit.errors import InputError, RuleError
    from printkit.rules.turns import check_players

    with pytest.raises(InputError) as err:
        check_players(["Ann", "ann"])
    assert isinstance(err.value, RuleError) and err.value.field == "players"
    assert err.value.detail == "player name 'ann' is given twice (names are compared ignoring case)"
