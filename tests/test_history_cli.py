"""`printkit history` and `printkit score --record`, through the command line, the history in tmp_path."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from history_helpers import CLUB, EXAMPLES

from printkit.cli import cli

CHRIS = EXAMPLES / "world-chris.toml"
CHRIS_ID = "c0499141086ff770"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PRINTKIT_DATA_DIR", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def _run(*args: str, code: int = 0) -> tuple[str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result.stdout, result.stderr


def test_score_record_then_every_listing(data: Path) -> None:
    printed, said = _run("score", str(CHRIS), "--record")
    assert said == f"Recorded in the history as {CHRIS_ID}.\n"
    again, said = _run("score", str(CHRIS), "--record", "--json")
    assert said == f"Already in the history as {CHRIS_ID}; not recorded again.\n"
    assert json.loads(again)["winners"] == ["Chris"]  # stdout stays the JSON alone
    listed = json.loads(_run("history", "--json")[0])
    assert [sorted(g) for g in listed["games"]] == [["game", "id", "map", "mode", "played_at", "players"]]
    game = listed["games"][0]
    assert (game["id"], game["game"], game["map"], game["mode"]) == (CHRIS_ID, "around-the-world", "world", "multiplayer")
    assert game["players"] == [{"name": "Chris", "total": 46, "won": True}, {"name": "Ana", "total": 29, "won": False}]
    assert game["played_at"].endswith("Z") and len(game["played_at"]) == 20  # now, in UTC
    text = _run("history")[0].splitlines()
    assert text[0].split() == ["PLAYED", "(UTC)", "ID", "MAP", "MODE", "PLAYERS"]
    assert text[1].split()[2:] == [CHRIS_ID, "world", "multiplayer", "Chris", "46", "(won),", "Ana", "29"]
    assert _run("history", "show", CHRIS_ID[:6])[0] == printed  # the explanation as score printed it
    assert _run("history", "bests")[0].splitlines() == [
        "MAP    MODE         PLAYER  GAMES  WINS  BEST  AVERAGE",
        "world  multiplayer  Chris       1     1    46     46.0",
        "world  multiplayer  Ana         1     0    29     29.0"]
    assert json.loads(_run("history", "bests", "--json", "--map", "WORLD")[0]) == {"players": [
        {"name": "Chris", "map": "world", "mode": "multiplayer", "games": 1, "wins": 1, "best": 46, "average": 46.0},
        {"name": "Ana", "map": "world", "mode": "multiplayer", "games": 1, "wins": 0, "best": 29, "average": 29.0}]}
    assert (data / "history.sqlite3").is_file()


def test_filters_forget_and_an_empty_history(data: Path) -> None:
    assert _run("history")[0] == "No games recorded yet: printkit score FILE --record keeps one.\n"
    assert _run("history", "bests")[0] == "No games recorded yet.\n"
    for name in ("world-chris.toml", "europe-majority.toml", "world-solo.toml"):
        _run("score", str(EXAMPLES / name), "--record")
    assert [g["map"] for g in json.loads(_run("history", "--player", "FEMKE", "--json")[0])["games"]] == ["europe"]
    assert len(json.loads(_run("history", "--map", "world", "--json")[0])["games"]) == 2
    assert _run("history", "--player", "zoe")[0] == "No games recorded that match.\n"
    assert [r["name"] for r in json.loads(_run("history", "bests", "--mode", "solo", "--json")[0])["players"]] == ["Kit"]
    out = _run("history", "forget", CHRIS_ID)[0]
    assert out.startswith(f"Forgot game {CHRIS_ID}: world, multiplayer, ") and out.endswith(" (Chris, Ana).\n")
    assert _run("history", "show", CHRIS_ID, code=1)[1] == (
        f"Error: no game '{CHRIS_ID}' in the history (printkit history lists them)\n")
    assert _run("history", "--map", "world", "bests", code=2)[1].endswith(
        "Error: --map, --player and --json go after 'bests'\n")


def test_export_csv_and_json_and_import_them_elsewhere(data: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run("history", "import", str(CLUB))[0] == f"Imported 5 games from {CLUB}.\n"
    assert _run("history", "import", str(CLUB))[0] == f"Imported 0 games from {CLUB}.\n"
    assert _run("history", "export", "-o", "games.csv")[0] == "Wrote games.csv (csv).\n"
    rows = list(csv.DictReader(io.StringIO((tmp_path / "games.csv").read_bytes().decode("utf-8"), newline="")))
    assert len(rows) == 9  # four two-player games and a solo one
    assert [(r["player"], r["total"], r["won"]) for r in rows[:2]] == [("Chris", "46", "1"), ("Ana", "29", "0")]
    assert _run("history", "export", "--format", "JSON", "-o", "all.data")[0] == "Wrote all.data (json).\n"
    assert (tmp_path / "all.data").read_bytes() == CLUB.read_bytes()
    assert _run("history", "export", "--format", "json")[0].encode() == CLUB.read_bytes()  # stdout
    assert "give --format csv or --format json" in _run("history", "export", code=2)[1]
    assert "folder 'nowhere' does not exist" in _run("history", "export", "-o", "nowhere/h.csv", code=2)[1]
    monkeypatch.setenv("PRINTKIT_DATA_DIR", str(tmp_path / "elsewhere"))
    assert _run("history", "import", "all.data")[0] == "Imported 5 games from all.data.\n"
    assert _run("history", "export", "--format", "json")[0].encode() == CLUB.read_bytes()


def test_a_file_that_is_not_a_history_export_is_one_error_line(data: Path, tmp_path: Path) -> None:
    shutil.copy(CHRIS, "chris.toml")
    _, said = _run("history", "import", "chris.toml", code=1)
    assert said == ("Error: chris.toml: not a printkit history export (line 1, column 1: invalid JSON (Expecting value)); "
                    "nothing was imported\n")
    assert said.endswith("; nothing was imported\n")
    score_json = _run("score", "chris.toml", "--json")[0]
    Path("score.json").write_text(score_json, encoding="utf-8")
    assert _run("history", "import", "score.json", code=1)[1] == (
        'Error: score.json: not a printkit history export (expected a JSON object with "format": '
        '"printkit-history" and "games"); nothing was imported\n')
    assert _run("history", "import", "missing.json", code=1)[1] == "Error: missing.json: no such file\n"
    assert not data.exists() or _run("history", "--json")[0] == '{\n  "games": []\n}\n'


def test_a_damaged_history_is_reported_and_left_as_it_is(data: Path) -> None:
    data.mkdir(mode=0o700)
    bad = data / "history.sqlite3"
    bad.write_bytes(b"not a database at all, but something of the user's\n" * 4)
    before = bad.read_bytes()
    for args in (["history"], ["history", "bests"], ["score", str(CHRIS), "--record"]):
        _, said = _run(*args, code=1)
        assert said == f"Error: {bad}: is not a SQLite database; it was left untouched\n", args
    assert bad.read_bytes() == before


def test_record_needs_a_game_file(data: Path) -> None:
    _, said = _run("score", "world", "--record", "--prompt", code=2)
    assert said.endswith("Error: --record keeps a game file: --save the marks, then score that file with --record\n")
    assert not data.exists()
