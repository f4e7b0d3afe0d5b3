"""One evening in one game file: start, print the game's pack, play with `turns`, scan the sheets, `score --game`.

The sheets are the game's own pack (`render map --game`), filled by the scan
test pen (tests/scan_simulate.py) and read back by `scan --game`; party and
multiplayer mode, and every bad input refused with one line and nothing written.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest
import scan_simulate as sim
from click.testing import CliRunner, Result
from scan_helpers import sheets

from printkit import registry
from printkit.cli import cli
from printkit.present.score_text import score_text

NAMES = ("Ann", "Bo")
TRIP = ("london-new-york", "london-rome", "cairo-rome", "cairo-delhi", "bangkok-delhi", "bangkok-perth",
        "cape-town-perth", "cape-town-lagos", "lagos-rio-de-janeiro", "bogota-rio-de-janeiro", "bogota-mexico-city",
        "mexico-city-new-york")
"""A round trip from New York through every region of the world map (all of Africa on the way)."""
ANN_ROUTE = ["new-york", "london", "rome", "cairo", "delhi", "bangkok", "perth", "cape-town", "lagos",
             "rio-de-janeiro", "bogota", "mexico-city", "new-york"]


def run(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def fill(pack: Path, k: int, filled: sim.Filled, target: Path) -> Path:
    """Page ``k`` of the printed pack, filled in by the test pen."""
    image = sim.render_page(pack.with_name(f"{pack.stem}-{k:02d}.png").read_bytes())
    sim.fill(image, 150 / 72, sheets("world", "a4", NAMES)[1], filled, sim.Pen("blue", 0.6, 0.8), random.Random(k))
    cv2.imwrite(str(target), image)
    return target


def expected(mode: str, ann: dict[str, object], bo: dict[str, object]) -> str:
    doc = {"map": "world", "mode": mode, "players": [ann, bo]}
    result, title = registry.score_document(doc, "x", Path("."))
    return score_text(result, title) + "\n"


ANN = {"name": "Ann", "souvenirs": {"mugs": 1}, "sights": {"food": 1}, "route": ANN_ROUTE}
BO = {"name": "Bo", "sights": {"culture": 1}, "route": ["new-york", "london"]}
ANN_MARKS = ("souvenirs.mugs.1", "sights.food.1", "regions.africa", "speed")


def test_a_party_evening_from_start_to_score(tmp_path: Path) -> None:
    game, pack = tmp_path / "game.json", tmp_path / "pack.png"
    assert run("turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "42",
               "--state", str(game)).exit_code == 0
    printed = run("render", "map", "--game", str(game), "--format", "png", "-o", str(pack))
    assert printed.output == f"Wrote {tmp_path}/pack-01.png ... pack-02.png (2 pages, PNG, A4)\n"
    for _ in range(5):
        run("turns", "next", "--state", str(game))
    assert run("turns", "finish", "ann", "--state", str(game)).output.startswith(
        "Ann is home on turn 5: speed bonus 15 (20 - 5).\n")
    end = run("turns", "end", "--state", str(game)).output
    assert "add" not in end and f"`printkit score --game {game}` scores every sheet with its speed bonus" in end
    ann = fill(pack, 1, sim.Filled((*ANN_MARKS, "finished_turn.5"), TRIP, "new-york"), tmp_path / "ann.png")
    bo = fill(pack, 2, sim.Filled(("sights.culture.1",), ("london-new-york",), "new-york"), tmp_path / "bo.png")
    scanned = run("scan", str(ann), str(bo), "--game", str(game))
    want = expected("party", {**ANN, "finished_turn": 5}, BO)
    assert (scanned.exit_code, scanned.stdout) == (0, want)
    assert scanned.stderr == f"Attached 2 sheets to game {json.loads(game.read_text())['id']} in {game}.\n"
    saved = json.loads(game.read_text())
    assert saved["format"] == 2 and saved["marks"]["Ann"]["from"] == "scan" and saved["unsure"] == []
    assert saved["marks"]["Ann"]["table"]["finished_turn"] == 5
    game_id = saved["id"]
    scored = run("score", "--game", str(game))
    assert (scored.exit_code, scored.stdout) == (0, want)
    assert scored.stderr == f"Recorded in the history as {game_id}.\n"
    assert "Speed bonus 15: finished on turn 5: 20 - 5 = 15" in scored.stdout
    again = run("score", "--game", str(game), "--json")
    as_json = json.loads(again.stdout)
    assert [p["total"] for p in as_json["players"]] == [18, 1] and as_json["winners"] == ["Ann"]
    assert again.stderr == f"Already in the history as {game_id}; not recorded again.\n"
    kept = [g for g in json.loads(run("history", "--json").stdout)["games"] if g["id"] == game_id]
    assert [(g["map"], g["mode"], [(p["name"], p["total"], p["won"]) for p in g["players"]]) for g in kept] == [
        ("world", "party", [("Ann", 18, True), ("Bo", 1, False)])]
    assert run("history", "show", game_id).stdout.startswith(want[: want.index("\n")])


def test_the_trackers_finish_and_the_sheets_turn_box_are_cross_checked(tmp_path: Path) -> None:
    game, pack = tmp_path / "game.json", tmp_path / "pack.png"
    run("turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "1", "--state", str(game))
    run("render", "map", "--game", str(game), "--format", "png", "-o", str(pack))
    for _ in range(6):
        run("turns", "next", "--state", str(game))
    run("turns", "finish", "Ann", "--turn", "4", "--state", str(game))  # noticed late
    ann = fill(pack, 1, sim.Filled((*ANN_MARKS, "finished_turn.6"), TRIP, "new-york"), tmp_path / "ann.png")
    scanned = run("scan", str(ann), "--game", str(game))
    assert scanned.exit_code == 3
    assert scanned.stdout == "Still to scan or type: Bo.\n"
    unsure = "finished_turn: the sheet's turn boxes say turn 6, the tracker says turn 4 (scored with the tracker's)"
    assert f"Unsure: Ann: {unsure}\n" in scanned.stderr
    saved = json.loads(game.read_text())
    assert saved["unsure"] == [{"player": "Ann", "field": "finished_turn", "confidence": 0.0, "message": unsure}]
    assert saved["marks"]["Ann"]["table"]["finished_turn"] == 4
    missing = run("score", "--game", str(game))
    assert missing.exit_code == 1
    assert missing.stderr == (f"Error: {game}: no marks yet for Bo: scan their sheets (`printkit scan SHEETS --game "
                              f"{game}`) or type them (`printkit score --game {game} --prompt`)\n")


def test_a_multiplayer_evening_with_a_navigator(tmp_path: Path) -> None:
    game, pack = tmp_path / "game.json", tmp_path / "pack.png"
    started = run("turns", "start", "--players", "Ann,Bo", "--navigator", "bo", "--state", str(game))
    assert started.output.splitlines()[0] == (
        "New multiplayer game on Around the World: no dice, a Navigator chooses each turn's action.")
    turns = [run("turns", "next", "--state", str(game)).output for _ in range(3)]
    assert turns[0] == ("Turn 1: Bo is the Navigator. Bo chooses Travel, Collect or Explore; everyone takes it, "
                        "and Bo may take it a second time.\n")
    assert [t.split(";")[0].split(":")[1] for t in turns] == [" Bo is the Navigator. Bo chooses Travel, Collect or Explore",
                                                " Ann is the Navigator. Ann chooses Travel, Collect or Explore",
                                                " Bo is the Navigator. Bo chooses Travel, Collect or Explore"]
    assert run("render", "tracker", "--game", str(game)).exit_code == 2  # no tracker without dice
    run("render", "map", "--game", str(game), "--format", "png", "-o", str(pack))
    run("turns", "finish", "Ann", "--state", str(game))
    over = run("turns", "next", "--state", str(game))
    assert over.exit_code == 1 and "Ann finished on turn 3: that turn is played out" in over.stderr
    ann = fill(pack, 1, sim.Filled(ANN_MARKS, TRIP, "new-york"), tmp_path / "ann.png")
    bo = fill(pack, 2, sim.Filled(("sights.culture.1",), ("london-new-york",), "new-york"), tmp_path / "bo.png")
    assert run("scan", str(ann), str(bo), "--game", str(game)).exit_code == 0
    scored = run("score", "--game", str(game))
    assert (scored.exit_code, scored.stdout) == (0, expected("multiplayer", ANN, BO))
    assert "Speed bonus 3" in scored.stdout
    game_id = json.loads(game.read_text())["id"]
    assert scored.stderr == f"Recorded in the history as {game_id}.\n"  # Ann's finish ended the game
    kept = [g for g in json.loads(run("history", "--json").stdout)["games"] if g["id"] == game_id]
    assert [(g["mode"], [p["name"] for p in g["players"] if p["won"]]) for g in kept] == [("multiplayer", ["Ann"])]


def test_bad_input_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    game, other, pack = tmp_path / "game.json", tmp_path / "other.json", tmp_path / "other.png"
    run("turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "3", "--state", str(game))
    run("turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "3", "--state", str(other))
    run("turns", "next", "--state", str(game))
    run("render", "map", "--game", str(other), "--format", "png", "-o", str(pack))
    before = game.read_bytes()
    sheet = fill(pack, 1, sim.Filled(("sights.food.1",), (), "tokyo"), tmp_path / "ann.png")
    foreign = run("scan", str(sheet), "--game", str(game))
    other_id = json.loads(other.read_text())["id"]
    game_id = json.loads(before)["id"]
    assert (foreign.exit_code, foreign.stdout) == (1, "")
    assert foreign.stderr == (f"Error: {sheet}: the sheet is of another game ({other_id}), not of game {game_id}: "
                              "print this game's sheets with `printkit render map --game FILE`; nothing was attached\n")
    unknown = run("turns", "finish", "Zed", "--state", str(game))
    late = run("turns", "finish", "Ann", "--turn", "2", "--state", str(game))
    assert (unknown.exit_code, late.exit_code) == (2, 2)
    assert unknown.stderr.splitlines()[-1] == "Error: Invalid value for 'NAME': no player named 'Zed' in this game; players: Ann, Bo"
    assert late.stderr.splitlines()[-1] == "Error: Invalid value for '--turn': turn 2 has not been played: give a turn from 1 to 1"
    abby = tmp_path / "abby.json"
    run("abby", "start", "--bucket-cards", "3", "--state", str(abby))
    wrong = run("score", "--game", str(abby))
    assert (wrong.exit_code, wrong.stderr) == (1, f"Error: {abby}: not a printkit turns state file; it was left untouched\n")
    assert game.read_bytes() == before


def test_a_format_1_file_is_migrated_and_keeps_its_game(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    old = {"printkit": "turns", "format": 1, "printkit_version": "0.1.0",
           "map": {"id": "world", "name": "Around the World", "turns": 20, "end_cities_per_region": 1,
                   "ratings": [{"min_points": 70, "title": "The Perfect Vacation"}]},
           "players": ["Ann", "Bo"], "seed": 42,
           "events": [{"event": "roll", "turn": 1, "dice": [2, 5]}, {"event": "finish", "turn": 1, "player": "Ann"}]}
    game.write_text(json.dumps(old))
    status = run("turns", "status", "--state", str(game)).output.splitlines()
    assert status[2:5] == ["Map: Around the World (world), party mode, seed 42",
                           "Turn 1 of 20: 2 + 5 -> Travel and Explore, in either order",
                           "Still travelling (1 of 2): Bo"]
    assert json.loads(game.read_text()) == old  # reading changes nothing
    first_id = status[1]
    assert run("turns", "status", "--state", str(game)).output.splitlines()[1] == first_id  # the id is stable
    run("turns", "next", "--state", str(game))
    saved = json.loads(game.read_text())
    assert saved["format"] == 2 and f"Game id: {saved['id']}" == first_id
    assert (saved["mode"], saved["navigator"], saved["map"]["source"], saved["marks"]) == ("party", None, "world", {})
    assert saved["events"][:2] == old["events"]


def test_a_newer_game_file_is_refused_untouched(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("turns", "start", "--state", str(game))
    doc = json.loads(game.read_text())
    game.write_text(json.dumps({**doc, "format": 3}))
    before = game.read_bytes()
    result = run("score", "--game", str(game))
    assert result.exit_code == 1 and "written by a newer printkit (state format 3" in result.stderr
    assert "reading format 2" in result.stderr and game.read_bytes() == before


def test_the_qr_payload_carries_the_game_and_old_payloads_still_parse() -> None:
    from printkit.layout.marks import parse_payload, payload_game, sheet_payload

    text = sheet_payload("world", "A4", "1.abc", 2, "Ann | Bo", "0123456789ab")
    assert text == "pk1|world|a4|1.abc|2|Ann | Bo|game=0123456789ab"
    assert parse_payload(text) == ("world", "a4", "1.abc", 2, "Ann | Bo")
    assert payload_game(text) == "0123456789ab"
    old = sheet_payload("world", "a4", "1.abc", 2, "Ann|game=x")  # no game: the name keeps its text
    assert sheet_payload("world", "a4", "1.abc", 2, "Ann") == "pk1|world|a4|1.abc|2|Ann"
    assert (parse_payload(old), payload_game(old)) == (("world", "a4", "1.abc", 2, "Ann|game=x"), None)
    assert payload_game("https://example.com") is None


@pytest.mark.parametrize("kind", ["tracker", "scorepad"])
def test_the_games_tracker_and_scorepad_print_its_map_and_players(tmp_path: Path, kind: str) -> None:
    game = tmp_path / "game.json"
    run("turns", "start", "--map", "europe", "--players", "Ann,Bo,Cy,Di,Ed,Flo,Gus", "--state", str(game))
    out, blank = tmp_path / f"{kind}.pdf", tmp_path / f"blank-{kind}.pdf"
    assert run("render", kind, "--game", str(game), "-o", str(out)).exit_code == 0
    run("render", kind, "europe", "--names", "Ann,Bo,Cy,Di,Ed,Flo,Gus", "-o", str(blank))
    assert out.read_bytes() == blank.read_bytes()  # the same sheet as for the game's map and names
    from pypdf import PdfReader

    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Europe" in text and (kind == "tracker" or all(n in text for n in ("Ann", "Gus")))
    clash = run("render", kind, "world", "--game", str(game))
    assert clash.exit_code == 2 and "leave out MAP, --players and --names" in clash.stderr
