"""Issue 11, reading input: every hostile or careless input file gets one clear line, and is left as it was."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import cli

ROOT = Path(__file__).parent.parent
MAPS = ROOT / "maps"
GAMES = Path(__file__).parent / "data" / "games"
DEEP = "lists or tables nested more than 32 deep (printkit files nest a few levels)"
LONG = "a number has more than 4300 digits (numbers in printkit files are far smaller)"
NOT_REGULAR = "is not a regular file (a pipe, device or socket); give a saved file"
BIG = "must be at most 9999 (no count, mark or score in these games comes near it), got 1" + "0" * 56 + "..."
TWICE = "is given twice (names are compared ignoring case)"


def invoke(args: list[str], *files: Path) -> tuple[int, str, str]:
    """Run printkit; no traceback, and every input file byte-identical afterwards."""
    before = {f: f.read_bytes() for f in files if f.is_file()}
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert {f: f.read_bytes() for f in before} == before
    return result.exit_code, result.stdout, result.stderr


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def start(tmp_path: Path, *args: str) -> Path:
    state = tmp_path / f"{args[0]}.json"
    result = CliRunner().invoke(cli, [*args, "--state", str(state)])
    assert result.exit_code == 0, result.output
    return state


def edit(state: Path, **changes: object) -> None:
    doc = json.loads(state.read_text())
    doc.update(changes)
    state.write_text(json.dumps(doc))


# ---------------------------------------------------------------- tracebacks and hangs


def test_deep_toml_map(tmp_path: Path) -> None:
    f = write(tmp_path / "deep.toml", "x = " + "[" * 600 + "]" * 600 + "\n")
    assert invoke(["maps", "validate", str(f)], f) == (1, "", f"Error: {f}: {DEEP}\n")


def test_deep_inline_tables_game_file(tmp_path: Path) -> None:
    f = write(tmp_path / "deep.toml", "x = " + "{a = " * 400 + "1" + "}" * 400 + "\n")
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: {DEEP}\n")


def test_deep_json_game_file(tmp_path: Path) -> None:
    f = write(tmp_path / "deep.json", '{"a": ' + "[" * 5000 + "]" * 5000 + "}")
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: {DEEP}\n")


def test_game_whose_map_is_deep(tmp_path: Path) -> None:
    write(tmp_path / "deep.toml", "x = " + "[" * 600 + "]" * 600 + "\n")
    f = write(tmp_path / "g.toml", 'map = "deep.toml"\n[[players]]\nname = "A"\n')
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {tmp_path / 'deep.toml'}: {DEEP}\n")


@pytest.mark.parametrize("command", [["next"], ["status"]])
def test_deep_state_file(tmp_path: Path, command: list[str]) -> None:
    f = write(tmp_path / "t.json", '{"printkit": "turns", "format": 1, "x": ' + "[" * 5000 + "]" * 5000 + "}")
    assert invoke(["turns", *command, "--state", str(f)], f) == (
        1, "", f"Error: {f}: state file is corrupt ({DEEP}); it was left untouched\n")  # fmt: skip


def test_symlink_loop_map(tmp_path: Path) -> None:
    f = tmp_path / "loop.toml"
    f.symlink_to(f)
    assert invoke(["maps", "validate", str(f)]) == (1, "", f"Error: {f}: is a symbolic link that loops back on itself\n")
    assert invoke(["score", str(f)]) == (1, "", f"Error: {f}: is a symbolic link that loops back on itself\n")
    game = write(tmp_path / "g.toml", 'map = "loop.toml"\n[[players]]\nname = "A"\n')
    assert invoke(["score", str(game)], game) == (1, "", f"Error: {f}: is a symbolic link that loops back on itself\n")


def test_fifo_map_and_state_do_not_hang(tmp_path: Path) -> None:
    f = tmp_path / "pipe.toml"
    os.mkfifo(f)
    assert invoke(["maps", "validate", str(f)]) == (1, "", f"Error: {f}: {NOT_REGULAR}\n")
    assert invoke(["render", "map", str(f), "-o", str(tmp_path / "x.pdf")])[2] == f"Error: {f}: {NOT_REGULAR}\n"
    assert invoke(["turns", "status", "--state", str(f)]) == (1, "", f"Error: {f}: {NOT_REGULAR}\n")
    assert invoke(["score", str(f)]) == (1, "", f"Error: {f}: {NOT_REGULAR}\n")


def test_device_is_refused_before_reading() -> None:
    assert invoke(["maps", "validate", "/dev/zero"]) == (1, "", f"Error: /dev/zero: {NOT_REGULAR}\n")


def test_size_is_capped(tmp_path: Path) -> None:
    f = tmp_path / "huge.toml"
    f.write_bytes(b"# " + b"x" * (4 * 1024 * 1024) + b"\n")
    assert invoke(["maps", "validate", str(f)], f) == (
        1, "", f"Error: {f}: is larger than 4 MiB; no printkit file is that big\n")  # fmt: skip


@pytest.mark.parametrize("suffix,text,said", [
    ("toml", "seed = {}\n", LONG),
    ("json", '{"seed": {}}', "invalid JSON: the number 999999999999999999999999999... is beyond "
                             "±9223372036854775807 (numbers in printkit files are far smaller)")])
def test_5000_digit_integer(tmp_path: Path, suffix: str, text: str, said: str) -> None:
    f = write(tmp_path / f"g.{suffix}", text.replace("{}", "9" * 5000))
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: {said}\n")


def test_lone_surrogate_name_in_json(tmp_path: Path) -> None:
    f = write(tmp_path / "g.json", '{"map": "world", "mode": "solo", "players": [{"name": "Chr\\ud800is"}]}')
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: players[0].name: player name 'Chr\\ud800is' "
                                            "contains the unprintable character U+D800; names are plain text\n")


def test_lone_surrogate_name_in_state(tmp_path: Path) -> None:
    state = start(tmp_path, "turns", "start", "--players", "Ann,Bo", "--seed", "1")
    edit(state, players=["Ann", "B\ud800o"])
    assert invoke(["turns", "status", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (players: expected valid names, but player name 'B\\ud800o' "
        "contains the unprintable character U+D800; names are plain text); it was left untouched\n")  # fmt: skip


# ---------------------------------------------------------------- names are data


@pytest.mark.parametrize(
    "game,rows",
    [
        ("around-the-world", 'map = "world"\n[[players]]\nname = "Chris"\nvisited = { europe = 1 }\nstart_city = "london"\n'
                             '[[players]]\nname = "chris"\nvisited = { europe = 1 }\nstart_city = "london"\n'),
        ("globetrotting", '[[players]]\nname = "Chris"\nairfare = 1\n[[players]]\nname = "chris"\nairfare = 1\n'),
        ("wereldsteden", '[[players]]\nname = "Chris"\ntiles = ["rug"]\n[[players]]\nname = "chris"\ntiles = []\n'),
    ],
)  # fmt: skip
def test_duplicate_names_ignoring_case(tmp_path: Path, game: str, rows: str) -> None:
    f = write(tmp_path / "g.toml", f'game = "{game}"\n{rows}')
    code, out, err = invoke(["score", str(f)], f)
    assert (code, out) == (1, "")
    assert f"Error: {f}: players[1].name: player name 'chris' {TWICE}\n" in err


def test_escape_sequence_name_in_game_file(tmp_path: Path) -> None:
    f = write(tmp_path / "g.json", json.dumps({"map": "world", "mode": "solo", "players": [{"name": "Evil\u001b]0;pwned\u0007"}]}))
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: players[0].name: player name 'Evil\\x1b]0;pwned\\x07' "
                                            "contains the unprintable character U+001B; names are plain text\n")


def test_players_option_uses_the_name_rule(tmp_path: Path) -> None:
    state = tmp_path / "t.json"
    code, out, err = invoke(["turns", "start", "--players", "An\u001b]0;pwn\u0007n,Bo", "--state", str(state)])
    assert code == 2 and not state.exists()
    assert "player name 'An\\x1b]0;pwn\\x07n' contains the unprintable character U+001B; names are plain text" in err


def test_score_prompt_names_use_the_name_rule() -> None:
    result = CliRunner().invoke(cli, ["score", "world", "--prompt"], input="multiplayer\nAnn,ann\n")
    assert f"Error: player name 'ann' {TWICE}\n" in result.stderr


# ---------------------------------------------------------------- clear messages


def test_bom_toml_is_accepted(tmp_path: Path) -> None:
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + (MAPS / "world.toml").read_bytes().replace(b'id = "world"', b'id = "bom"'))
    assert invoke(["maps", "validate", str(f)], f) == (0, f"OK {f}: Around the World (6 regions, 18 cities, 25 routes)\n", "")


@pytest.mark.parametrize(
    "text,message",
    [
        ('game = "trekking"\n', "line 1, column 1: invalid JSON (Expecting value); the file looks like TOML: "
                                "save it with a .toml name"),
        ("", "the file is empty (expected a JSON object {...})"),
        ("null", "expected a JSON object {...} at the top, got null"),
        ("[1, 2]", "expected a JSON object {...} at the top, got a list [...]"),
        ('{"mugs": 3, "mugs": 0}', "invalid JSON: the key 'mugs' is given twice in one object (keep one)"),
        ('{"a": NaN}', "invalid JSON: NaN is not a number printkit reads (use a plain number)"),
    ],
)  # fmt: skip
def test_json_problems_in_json_words(tmp_path: Path, text: str, message: str) -> None:
    f = write(tmp_path / "g.json", text)
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: {message}\n")


def custom_map(tmp_path: Path, old: str, new: str, source: str = "south-america") -> Path:
    text = (MAPS / f"{source}.toml").read_text().replace(f'id = "{source}"', 'id = "mine"', 1)
    assert old in text
    return write(tmp_path / "mine.toml", text.replace(old, new, 1))


def test_custom_boxes_are_reported_against_the_custom_map(tmp_path: Path) -> None:
    f = custom_map(tmp_path, "[collect]\n", "[collect]\nboxes = 500\n")
    assert invoke(["maps", "validate", str(f)], f) == (1, "", f"Error: {f}: collect.boxes: 500 boxes, but the row_points "
                                                       "of maps/around-the-world.toml score 0..3 marks; give row_points "
                                                       "with 501 numbers too\n")
    f = custom_map(tmp_path, "[collect]\n", "[collect]\nboxes = 1000000\n")
    assert invoke(["maps", "validate", str(f)], f) == (1, "", f"Error: {f}: collect.boxes: must be at most 9999 "
                                                       "(no count, mark or score in these games comes near it), got 1000000\n")


def test_bad_lat_has_no_follow_up(tmp_path: Path) -> None:
    f = custom_map(tmp_path, "lat = 10.48", 'lat = "x"')
    assert invoke(["maps", "validate", str(f)], f) == (1, "", f"Error: {f}: cities[0].lat: expected a number, got string 'x'\n")


def test_abby_state_names_the_field(tmp_path: Path) -> None:
    state = start(tmp_path, "abby", "start", "--bucket-cards", "3")
    edit(state, turns=[{"cards": [1, 2, 3], "chose": 7, "airfare": 1, "abby": 2}])
    assert invoke(["abby", "status", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (turns[0].chose: expected a card position 1-3); "
        "it was left untouched\n")  # fmt: skip


def test_wereldsteden_state_names_the_field(tmp_path: Path) -> None:
    state = start(tmp_path, "wereldsteden", "setup", "--seed", "7")
    doc = json.loads(state.read_text())
    doc["stacks"]["purple"][0] = "rug"
    state.write_text(json.dumps(doc))
    assert invoke(["wereldsteden", "status", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (stacks.purple: expected a list of purple tile ids); "
        "it was left untouched\n")  # fmt: skip


# ---------------------------------------------------------------- impossible values


def test_abby_bucket_cards_99(tmp_path: Path) -> None:
    state = start(tmp_path, "abby", "start", "--bucket-cards", "3")
    edit(state, bucket_cards=99)
    assert invoke(["abby", "status", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (bucket_cards: expected a whole number 3-7); it was left untouched\n")


def test_turns_map_turns_huge(tmp_path: Path) -> None:
    state = start(tmp_path, "turns", "start", "--players", "Ann,Bo", "--seed", "1")
    doc = json.loads(state.read_text())
    doc["map"]["turns"] = 10**9
    state.write_text(json.dumps(doc))
    assert invoke(["turns", "next", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (map.turns: expected a whole number 1..99); it was left untouched\n")


@pytest.mark.parametrize("draws", [-1, True, 10**6])
def test_wereldsteden_draws(tmp_path: Path, draws: object) -> None:
    state = start(tmp_path, "wereldsteden", "setup", "--seed", "7")
    edit(state, draws=draws)
    assert invoke(["wereldsteden", "status", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (draws: expected a whole number 0-9999); it was left untouched\n")


def test_wereldsteden_invented_tiles(tmp_path: Path) -> None:
    state = start(tmp_path, "wereldsteden", "setup", "--seed", "7")
    doc = json.loads(state.read_text())
    doc["stacks"]["purple"] += ["mask"] * 20
    state.write_text(json.dumps(doc))
    assert invoke(["wereldsteden", "status", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (stacks: expected at most 5 mask tiles in all, found 25); "
        "it was left untouched\n")  # fmt: skip


def test_trekking_tours_huge(tmp_path: Path) -> None:
    f = write(tmp_path / "g.toml", 'game = "trekking-the-world"\n' + "".join(
        f'[[players]]\nname = "{n}"\ntours = [{10**100}]\nencounters = 0\nmoney = 0\n' for n in ("Ann", "Bo")))
    code, out, err = invoke(["score", str(f)], f)
    assert (code, out) == (1, "")
    assert f"Error: {f}: players[0].tours[0]: {BIG}\n" in err


def test_globetrotting_airfare_huge(tmp_path: Path) -> None:
    f = write(tmp_path / "g.toml", 'game = "globetrotting"\n' + "".join(
        f'[[players]]\nname = "{n}"\nairfare = {10**100}\n' for n in ("Ann", "Bo")))
    code, out, err = invoke(["score", str(f)], f)
    assert (code, out) == (1, "")
    assert f"Error: {f}: players[0].airfare: {BIG}\n" in err


def test_map_table_huge(tmp_path: Path) -> None:
    f = custom_map(tmp_path, "table = [0, 2, 4, 7, 11]", f"table = [0, 2, 4, 7, {10**100}]")
    assert invoke(["maps", "validate", str(f)], f) == (1, "", f"Error: {f}: region_scoring.table[4]: {BIG}\n")


def test_state_with_unknown_key_is_not_rewritten(tmp_path: Path) -> None:
    state = start(tmp_path, "turns", "start", "--players", "Ann,Bo", "--seed", "1")
    edit(state, notes="keep me")
    assert invoke(["turns", "next", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (unknown key notes); it was left untouched\n")


def test_state_format_0_is_not_reset(tmp_path: Path) -> None:
    state = start(tmp_path, "abby", "start", "--bucket-cards", "3")
    edit(state, format=0)
    assert invoke(["abby", "turn", "--cards", "1,2,3", "--chose", "1", "--airfare", "1", "--state", str(state)], state) == (
        1, "", f"Error: {state}: state file is corrupt (format 0 was never written by printkit); it was left untouched\n")


# ---------------------------------------------------------------- ids in any case


def solo_record(tmp_path: Path, **fields: str) -> Path:
    doc = {"map": "World", "mode": "Solo", "players": [{"name": "Ann", "visited": {"europe": 1},
                                                       "start_city": "London", "final_city": "London"}]}  # fmt: skip
    doc["players"][0].update(fields)  # type: ignore[index]
    return write(tmp_path / "g.json", json.dumps(doc))


def test_ids_in_any_case(tmp_path: Path) -> None:
    f = solo_record(tmp_path)
    code, out, err = invoke(["score", str(f)], f)
    assert (code, err) == (0, "")
    assert out.startswith("Around the World in 15 Minutes: solo\n")
    g = write(tmp_path / "w.toml", 'game = "Wereldsteden"\n[[players]]\nname = "A"\ntiles = []\n'
                                   '[[players]]\nname = "B"\ntiles = []\n')  # fmt: skip
    assert invoke(["score", str(g)], g)[0] == 0
    assert invoke(["maps", "show", "World"])[0] == 0


def test_unknown_ids_suggest_the_nearest(tmp_path: Path) -> None:
    f = solo_record(tmp_path, final_city="Lodnon")
    assert invoke(["score", str(f)], f) == (
        1, "", f"Error: {f}: players[0].final_city: unknown city 'Lodnon' on the World map (did you mean 'london'?)\n")
    g = write(tmp_path / "g.toml", 'game = "trekking"\n')
    assert invoke(["score", str(g)], g) == (1, "", f"Error: {g}: game: unknown game 'trekking' (did you mean "
                                            "'trekking-the-world'?) (games: around-the-world, trekking-the-world, "
                                            "globetrotting, wereldsteden)\n")
    code, _, err = invoke(["render", "map", "wrld", "-o", str(tmp_path / "x.pdf")])
    assert code == 2 and "unknown map 'wrld' (did you mean 'world'?)" in err


# ---------------------------------------------------------------- score files that cannot be true


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"visited": {"europe": 1, "africa": 1}, "final_city": "cairo", "returned": True},
         "players[0].returned: true, but final_city Cairo is not the starting city London"),
        ({"visited": {"europe": 1, "africa": 1}, "returned": False},
         "players[0].returned: false, but final_city is the starting city London after leaving it: give returned = true"),
        ({"visited": {"europe": 1}, "returned": True},
         "players[0].returned: true, but only the starting city is visited (returned means back at the start "
         "after leaving it)"),
        ({"visited": {}, "start_city": None, "final_city": None},
         "players[0].visited: no city visited (the starting city counts as visited from the start)"),
    ],
)  # fmt: skip
def test_score_files_that_cannot_be_true(tmp_path: Path, fields: dict[str, object], message: str) -> None:
    doc = {"map": "world", "mode": "solo", "players": [{"name": "Ann", "start_city": "london", "final_city": "london"}]}
    player = doc["players"][0]
    player.update(fields)  # type: ignore[attr-defined]
    for key in [k for k, v in player.items() if v is None]:  # type: ignore[attr-defined]
        del player[key]  # type: ignore[attr-defined]
    f = write(tmp_path / "g.json", json.dumps(doc))
    assert invoke(["score", str(f)], f) == (1, "", f"Error: {f}: {message}\n")


def test_rare_animal_nobody_marked_first_warns(tmp_path: Path) -> None:
    text = (GAMES / "south-america-safari.toml").read_text()
    f = write(tmp_path / "g.toml", text.replace('first_rare = ["condor"]\n', ""))
    code, out, err = invoke(["score", str(f)], f)
    warning = ("Condor is marked by Ines and Joao, but nobody has it in first_rare (the first to mark it scores +2: "
               "add it to that player's first_rare)")  # fmt: skip
    assert (code, err) == (0, "")
    assert f"Warning: {warning}" in out.splitlines()
    code, out, _ = invoke(["score", "--json", str(f)], f)
    assert json.loads(out)["warnings"] == [warning]
    assert "warnings" not in json.loads(invoke(["score", "--json", str(GAMES / "south-america-safari.toml")])[1])


def test_first_rare_in_party_warns(tmp_path: Path) -> None:
    text = (GAMES / "south-america-safari.toml").read_text().replace('mode = "multiplayer"', 'mode = "party"')
    f = write(tmp_path / "g.toml", text.replace("returned = true", "returned = true\nfinished_turn = 12"))
    code, out, err = invoke(["score", str(f)], f)
    assert (code, err) == (0, "")
    assert ("Warning: Ines: first_rare is only used in multiplayer; in party mode every marked condor "
            "scores its bonus anyway") in out.splitlines()
    assert ("Warning: Joao: first_rare is only used in multiplayer; in party mode every marked pink-dolphin "
            "scores its bonus anyway") in out.splitlines()


def test_prompt_takes_the_mode_in_any_case(tmp_path: Path) -> None:
    answers = "Solo\nAnn\n" + "0\n" * 8 + "1\n" + "0\n" * 5 + "no\n"
    result = CliRunner().invoke(cli, ["score", "world", "--prompt", "--json"], input=answers)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout[result.stdout.index("{"):])["mode"] == "solo"


def test_long_unknown_map_name_is_shortened(tmp_path: Path) -> None:
    code, _, err = invoke(["render", "map", "a" * 10000, "-o", str(tmp_path / "x.pdf")])
    assert code == 2
    assert err.endswith(f"Error: Invalid value for 'MAP': unknown map '{'a' * 56}...; choose one of world, us, europe, "
                        "south-america, or give the path of a .toml map file\n")


def test_abby_turn_numbers_in_range(tmp_path: Path) -> None:
    state = start(tmp_path, "abby", "start", "--bucket-cards", "3")
    base = ["abby", "turn", "--chose", "1", "--state", str(state)]
    code, _, err = invoke([*base, "--cards", "99999999999999999999,12,3", "--airfare", "3"], state)
    assert (code, err.splitlines()[-1]) == (2, "Error: Invalid value for '--cards': 99999999999999999999 is too large; "
                                            "each number is at most 9999")
    code, _, err = invoke([*base, "--cards", "0,12,3", "--airfare", "3"], state)
    assert (code, err.splitlines()[-1]) == (2, "Error: Invalid value for '--cards': expected the 3 coordinate numbers "
                                            "shown (1-9999), left to right, like 7,12,3; got '0,12,3'")
    code, _, err = invoke([*base, "--cards", "1,12,3", "--airfare", str(10**22)], state)
    assert (code, err.splitlines()[-1]) == (2, "Error: Invalid value for '--airfare': expected a whole number "
                                            f"from 0 to 9999, got '{10**22}'")
