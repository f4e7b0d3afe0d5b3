"""`printkit score --game --prompt`: marks typed in are kept in the game file player by player."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from printkit import registry
from printkit.cli import cli
from printkit.present.score_text import score_text

# world: 4 souvenirs, 4 sights, 6 regions visited, back at the start?
ANN = "1\n0\n0\n0\n" "0\n0\n0\n1\n" "1\n1\n1\n1\n1\n1\n" "y\n"
BO = "0\n0\n0\n0\n" "1\n0\n0\n0\n" "1\n0\n1\n0\n0\n0\n" "n\n"


def test_an_interrupted_entry_keeps_the_players_already_typed(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    runner = CliRunner()
    runner.invoke(cli, ["turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "5", "--state", str(game)])
    for _ in range(7):
        runner.invoke(cli, ["turns", "next", "--state", str(game)])
    runner.invoke(cli, ["turns", "finish", "Ann", "--state", str(game)])
    cut = runner.invoke(cli, ["score", "--game", str(game), "--prompt"], input=ANN + "0\n")  # Bo's entry ends early
    assert cut.exit_code == 1
    assert f"Saved Ann's marks in {game}.\n" in cut.stderr
    assert "input ended while asking for" in cut.stderr
    saved = json.loads(game.read_text())
    assert list(saved["marks"]) == ["Ann"] and saved["marks"]["Ann"]["from"] == "typed"
    assert saved["marks"]["Ann"]["table"] == {"name": "Ann", "souvenirs": {"mugs": 1, "clothes": 0, "postcards": 0,
                                              "textiles": 0}, "sights": {"culture": 0, "history": 0, "nature": 0,
                                              "food": 1}, "visited": {r: 1 for r in ("north-america", "south-america",
                                              "europe", "africa", "asia", "oceania")}, "returned": True,
                                              "finished_turn": 7}  # the tracker's turn, not asked
    done = runner.invoke(cli, ["score", "--game", str(game), "--prompt"], input=BO)  # asks for Bo only
    assert done.exit_code == 0, done.stderr
    players = [saved["marks"]["Ann"]["table"], json.loads(game.read_text())["marks"]["Bo"]["table"]]
    result, title = registry.score_document({"map": "world", "mode": "party", "players": players}, "x", Path("."))
    assert done.stdout.endswith(score_text(result, title) + "\n")
    assert "Speed bonus 13: finished on turn 7: 20 - 7 = 13" in done.stdout
    assert done.stderr.endswith("Note: the game is not over yet, so it is not kept in the history; score it again "
                                "after `printkit turns end`.\n")
    again = runner.invoke(cli, ["score", "--game", str(game)])  # nothing more to ask
    assert again.stdout == score_text(result, title) + "\n"
