"""``printkit score``: the table, --json, bad game files and typed-in marks."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import cli

GAMES = Path(__file__).parent / "data" / "games"


def run(runner: CliRunner, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["score", *args], input=input)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_chris_prints_46_in_the_table(runner: CliRunner) -> None:
    code, out, err = run(runner, str(GAMES / "world-chris.toml"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Around the World in 15 Minutes: multiplayer"
    assert lines[2].split() == ["Chris", "Ana"]
    rows = {line[:11].strip(): line[11:].split() for line in lines[4:10] if not line.startswith("-")}
    # Chris: 14 + 18 + 11 + 3 = 46; Ana: 10 + 12 + 7 + 0 = 29
    assert rows == {
        "Collect": ["14", "10"], "Explore": ["18", "12"], "Regions": ["11", "7"],
        "Speed bonus": ["3", "0"], "Total": ["46", "29"],
    }  # fmt: skip
    assert "Winner: Chris" in lines
    assert "  Explore 18: Culture 3 marks = 4, History 1 = 1, Nature 4 = 6, Food 2 = 2, 1 full column = 5" in lines


def test_title_is_the_maps_own_name(runner: CliRunner) -> None:
    # us.toml: name = "Around the US"
    code, out, err = run(runner, str(GAMES / "us-road-trip.toml"))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Around the US in 15 Minutes: multiplayer"


def test_no_winner_yet_is_the_result(runner: CliRunner, tmp_path: Path) -> None:
    game = tmp_path / "w.toml"
    game.write_text(
        'game = "wereldsteden"\n[[players]]\nname = "Ann"\ntiles = ["rug", "fan"]\n'
        '[[players]]\nname = "Bo"\ntiles = ["mask"]\n',
        encoding="utf-8",
    )
    code, out, err = run(runner, str(game))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Wereldsteden: standard"
    assert "Result: nobody has 6 different winning tiles yet: the game goes on" in lines
    assert not any(line.startswith(("Tie-break", "Winner")) for line in lines)


def test_chris_json(runner: CliRunner) -> None:
    code, out, _ = run(runner, str(GAMES / "world-chris.toml"), "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["map"] == "world" and doc["mode"] == "multiplayer" and doc["winners"] == ["Chris"]
    chris = doc["players"][0]
    assert chris == {
        "name": "Chris", "total": 46, "rating": None,
        "sections": {"collect": 14, "explore": 18, "regions": 11, "speed": 3},
    }  # fmt: skip


def test_json_game_file_scores_the_same(runner: CliRunner, tmp_path: Path) -> None:
    doc = tomllib.loads((GAMES / "world-chris.toml").read_text())
    (tmp_path / "chris.json").write_text(json.dumps(doc))
    code, out, _ = run(runner, str(tmp_path / "chris.json"), "--json")
    assert code == 0 and json.loads(out)["players"][0]["total"] == 46


def write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, name: str = "game.toml") -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text, encoding="utf-8")
    return name


def solo(line: str, map_id: str = "world") -> str:
    return f'map = "{map_id}"\nmode = "solo"\n[[players]]\nname = "Ann"\n{line}\n'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("souvenirs = { ale = 1 }",
         "players[0].souvenirs.ale: 'ale' is not a souvenir of the World map (souvenirs: mugs, clothes, postcards, textiles)"),
        ("sights = { culture = 6 }", "players[0].sights.culture: 6 marks, but the Culture row has only 5 boxes"),
        ("sights = { culture = -1 }", "players[0].sights.culture: expected a whole number of marks 0..5, got -1"),
        ("sights = { culture = 2.5 }", "players[0].sights.culture: expected a whole number of marks 0..5, got 2.5"),
        ('souvenirs = { mugs = "3" }', "players[0].souvenirs.mugs: expected a whole number of marks 0..3, got '3'"),
        ("souvenirs = { mugs = true }", "players[0].souvenirs.mugs: expected a whole number of marks 0..3, got true"),
        ("visited = { europe = 4 }", "players[0].visited.europe: 4 cities visited, but Europe has only 3 cities"),
        ("visited = { europe = -1 }", "players[0].visited.europe: expected a whole number of cities 0..3, got -1"),
        ("finished_turn = 21", "players[0].finished_turn: expected a turn 1..20, got 21"),
        ("finished_turn = 0", "players[0].finished_turn: expected a turn 1..20, got 0"),
        ('colour = "red"', "players[0].colour: unknown key (expected one of: name, souvenirs, sights, animals, "
         "visited, returned, route, iconic, finished_turn, first_rare, start_city, final_city)"),
        ('returned = "yes"', "players[0].returned: expected true or false, got 'yes'"),
        ("iconic = 1", "players[0].iconic: the World map has no iconic cities"),
        ('start_city = "atlantis"', "players[0].start_city: unknown city 'atlantis' on the World map"),
    ],
)  # fmt: skip
def test_bad_player_fields(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, message: str
) -> None:
    name = write(tmp_path, monkeypatch, solo(line))
    code, out, err = run(runner, name)
    assert (code, out, err) == (1, "", f"Error: game.toml: {message}\n")


def test_finished_turn_for_an_unfinished_trip(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = write(tmp_path, monkeypatch, solo('visited = { europe = 2 }\nreturned = true\nfinished_turn = 12'))
    _, _, err = run(runner, name)
    assert err == (
        "Error: game.toml: players[0].finished_turn: the trip is not finished "
        "(every region needs 1+ visited and the player back at the start)\n"
    )


def test_every_problem_is_reported_at_once(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = 'map = "world"\nmode = "multiplayer"\nwhen = 1\n[[players]]\nname = "A"\nsights = { culture = 6 }\n' \
           '[[players]]\nname = "A"\nfinished_turn = 3\n'  # fmt: skip
    name = write(tmp_path, monkeypatch, text)
    code, _, err = run(runner, name)
    assert code == 1
    assert err.splitlines() == [
        "Error: game.toml: when: unknown key (expected one of: game, map, mode, players)",
        "Error: game.toml: players[0].sights.culture: 6 marks, but the Culture row has only 5 boxes",
        "Error: game.toml: players[1].name: player name 'A' is given twice (names are compared ignoring case)",
        "Error: game.toml: players[1].finished_turn: only used in solo/party mode",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('map = "world"\nmode = "solo"\nplayers = []\n', "players: at least one player is needed"),
        ('map = "world"\nmode = "solo"\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n',
         "players: solo mode is for 1 player, got 2 (a group playing with the dice is party mode)"),
        ('map = "world"\nmode = "multiplayer"\n[[players]]\nname = "A"\n',
         "players: multiplayer is for 2-6 players, got 1 (one player plays solo mode)"),
        ('map = "world"\nmode = "party"\n[[players]]\nname = "A"\n',
         "players: party mode is for 2 or more players, got 1 (one player plays solo mode)"),
        ('map = "world"\nmode = "duel"\n[[players]]\nname = "A"\n',
         "mode: expected one of multiplayer, solo, party, got 'duel'"),
        ('map = "mars"\n[[players]]\nname = "A"\n',
         "map: unknown map 'mars'; choose one of world, us, europe, south-america, "
         "or give the path of a .toml map file"),
        ('[[players]]\nname = "A"\n',
         "map: no map given; choose one of world, us, europe, south-america, "
         "or give the path of a .toml map file"),
        ('map = "mars.toml"\n[[players]]\nname = "A"\n', "map: map file 'mars.toml' not found"),
        ('map = "world"\n[[players]]\nname = "A"\n[[players]]\nname = "A"\n',
         "players[1].name: player name 'A' is given twice (names are compared ignoring case)"),
        ('map = "world"\n[[players]]\nname = ""\n', "players[0].name: a player name cannot be blank"),
        ('game = "chess"\n', "game: unknown game 'chess' (games: around-the-world, trekking-the-world, "
         "globetrotting, wereldsteden)"),
        ('map = "world"\nmode = \n', "line 2, column 8: invalid TOML (Invalid value)"),
    ],
)  # fmt: skip
def test_bad_records(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    name = write(tmp_path, monkeypatch, text)
    assert run(runner, name) == (1, "", f"Error: game.toml: {message}\n")


def test_malformed_json_has_line_and_column(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = write(tmp_path, monkeypatch, '{"map": "world",\n "players": [}\n', "game.json")
    assert run(runner, name) == (1, "", "Error: game.json: line 2, column 14: invalid JSON (Expecting value)\n")


def test_missing_file_is_a_usage_error(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(runner, "nothere.toml")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: Invalid value for 'GAMEFILE|MAP': no game file 'nothere.toml'; give a game file (.toml or .json) "
        "or a map to type in the marks (world, us, europe, south-america, or a map .toml file)"
    )


def test_map_without_terminal_is_a_usage_error(runner: CliRunner) -> None:
    code, _, err = run(runner, "world")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: 'world' is a map, not a game file: run this in a terminal to type in the marks "
        "(or pass --prompt), or give a game file"
    )


def test_save_needs_typed_marks(runner: CliRunner) -> None:
    code, _, err = run(runner, str(GAMES / "world-chris.toml"), "--save", "x.toml")
    assert code == 2
    assert err.splitlines()[-1] == "Error: --save is for marks typed in; this game is already a file"


def test_typed_in_marks_are_scored_and_saved(runner: CliRunner, tmp_path: Path) -> None:
    # mode, name, 4 souvenirs, 4 sights, 6 regions (sheet order: North America,
    # South America, Europe, Africa, Asia, Oceania), back home?, finished turn
    answers = ["solo", "Chris", "3", "2", "2", "2", "3", "1", "4", "2", "1", "1", "3", "3", "3", "3", "y", "16"]
    saved = tmp_path / "chris.toml"
    code, out, _ = run(runner, "world", "--prompt", "--save", str(saved), input="\n".join(answers) + "\n")
    assert code == 0
    # Chris's sheet solo: 14 + 18 + 11 + (20 - 16 = 4) = 47 -> Tepid Travels (40-49)
    assert "Rating for Chris: Tepid Travels (47 points)" in out
    assert "Mugs (0-3):" in out and "Culture (0-5):" in out and "Turn the trip ended on (1-20):" in out
    doc = tomllib.loads(saved.read_text())
    assert doc == {
        "map": "world", "mode": "solo",
        "players": [{
            "name": "Chris",
            "souvenirs": {"mugs": 3, "clothes": 2, "postcards": 2, "textiles": 2},
            "sights": {"culture": 3, "history": 1, "nature": 4, "food": 2},
            "visited": {"north-america": 1, "south-america": 1, "europe": 3, "africa": 3, "asia": 3, "oceania": 3},
            "returned": True, "finished_turn": 16,
        }],
    }  # fmt: skip
    code, out, _ = run(runner, str(saved), "--json")
    assert json.loads(out)["players"][0]["total"] == 47


def test_typed_in_range_is_enforced(runner: CliRunner) -> None:
    # "4" is out of range for a souvenir row (0-3): asked again
    answers = ["solo", "Ann", "4", "0", "0", "0", "0", "0", "0", "0", "0", "1", "0", "0", "0", "0", "0", "n"]
    code, out, _ = run(runner, "world", "--prompt", input="\n".join(answers) + "\n")
    assert code == 0
    assert "Error: 4 is not in the range from 0 to 3." in out
    assert "Rating for Ann: Did You Lose Your Passport? (0 points)" in out


def test_typed_in_tie_asks_for_cities(runner: CliRunner) -> None:
    # Ann: Mugs row full = 6, Europe 1; Bo: Clothes row full = 6, Europe 1: tied on 6.
    sheet = ["0"] * 8 + ["0", "0", "1", "0", "0", "0", "n"]
    ann, bo = ["3", *sheet[1:]], ["0", "3", *sheet[2:]]
    # first answer puts Ann's final city in Cairo (Africa, not visited): asked again
    cities = ["london", "cairo", "london", "moscow", "london", "rome", "london", "moscow"]
    answers = ["multiplayer", "Ann, Bo", *ann, *bo, *cities]
    code, out, err = run(runner, "world", "--prompt", input="\n".join(answers) + "\n")
    assert code == 0
    assert "Error: entered marks: players[0].visited.africa: 0 cities visited, but the final city Cairo is in Africa" in err
    # Rome and Moscow are both 1 route from London: still tied
    assert "Winners (shared): Ann, Bo" in out
    assert "Ann 1 route, Bo 1 route: Ann and Bo still tied, shared win" in out


def test_typed_in_custom_map_saves_a_relative_map_path(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from printkit.resources import data_dir

    for name in ("world.toml", "around-the-world.toml"):
        (tmp_path / name).write_bytes((data_dir("maps") / name).read_bytes())
    (tmp_path / "games").mkdir()
    monkeypatch.chdir(tmp_path)
    answers = ["solo", "Zed", *["0"] * 8, "0", "0", "1", "0", "0", "0", "n"]
    code, _, _ = run(runner, "world.toml", "--prompt", "--save", "games/zed.toml", input="\n".join(answers) + "\n")
    assert code == 0
    assert tomllib.loads((tmp_path / "games" / "zed.toml").read_text())["map"] == "../world.toml"
    code, out, _ = run(runner, "games/zed.toml", "--json")
    assert (code, json.loads(out)["players"][0]["total"]) == (0, 0)


def test_save_folder_must_exist_before_typing(runner: CliRunner, tmp_path: Path) -> None:
    code, _, err = run(runner, "world", "--prompt", "--save", str(tmp_path / "nope" / "g.toml"), input="")
    assert code == 2
    assert err.splitlines()[-1] == f"Error: Invalid value for '--save': folder '{tmp_path / 'nope'}' does not exist"


def test_table_rows_are_the_union_of_sections() -> None:
    from printkit.present.score_text import format_table
    from printkit.rules.report import GameScore, PlayerScore, Section

    a = PlayerScore("Ann", (Section("tours", "Tours", 12, "x"), Section("bonus", "Bonus", 3, "y")))
    b = PlayerScore("Bo", (Section("tours", "Tours", 15, "z"),))
    lines = format_table(GameScore("globetrotting", "", "multiplayer", (a, b), ("Bo",)), "Globetrotting")
    assert lines[:9] == [
        "Globetrotting: multiplayer", "",
        "       Ann  Bo", "-----  ---  --",
        "Tours   12  15", "Bonus    3   -",
        "-----  ---  --", "Total   15  15", "",
    ]  # fmt: skip
