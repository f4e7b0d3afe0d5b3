"""The game files of `printkit abby` and `printkit wereldsteden`, scored by `printkit score --game` and kept in the history.

Abby: the flights are known to the companion, the player's end-of-game marks
are typed at `score --game --prompt` and kept answer by answer. Wereldsteden:
the dealer records every sale by player, so the win check needs no typing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import scan_simulate as sim
from click.testing import CliRunner, Result
from test_fillable import tablet

from printkit import registry
from printkit.cli import cli
from printkit.present.score_text import score_text

FLIGHTS = (("7,12,3", "3", "4"), ("5,9,2", "left", "3"), ("4,10,6", "2", "5"), ("8,1,11", "right", "2"),
           ("3,3,9", "1", "4"), ("12,6,2", "3", "3"), ("7,5,10", "middle", "4"), ("9,4,1", "1", "2"),
           ("6,11,8", "3", "5"))
"""docs/games.md's nine flights: you spend 4+3+5+2+4+3+4+2+5 = 32, Abby 7+9+6+8+3+12+10+4+6 = 65."""


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def history(game_id: str) -> list[tuple[str, str, str, list[tuple[str, int, bool]]]]:
    """The history's rows of game ``game_id``: (game, map, mode, players)."""
    games = json.loads(run("history", "--json").stdout)["games"]
    return [(g["game"], g["map"], g["mode"], [(p["name"], p["total"], p["won"]) for p in g["players"]])
            for g in games if g["id"] == game_id]


def abby_game(path: Path, *start: str) -> None:
    assert run("abby", "start", "--bucket-cards", "3", *start, "--state", str(path)).exit_code == 0
    for cards, chose, fare in FLIGHTS:
        assert run("abby", "turn", "--cards", cards, "--chose", chose, "--airfare", fare, "--state", str(path)).exit_code == 0


def test_a_whole_abby_game_is_scored_from_its_game_file_and_kept_once(tmp_path: Path) -> None:
    game = tmp_path / "solo.json"
    abby_game(game, "--player", "Ann")
    saved = json.loads(game.read_text())
    assert (saved["format"], saved["players"], saved["marks"]) == (2, ["Ann", "Abby"], {})
    game_id = saved["id"]
    untyped = run("score", "--game", str(game))
    assert (untyped.exit_code, untyped.stdout) == (1, "")
    assert untyped.stderr == (f"Error: {game}: no marks yet for Ann (objectives, bucket list, festivals): "
                              f"type them (`printkit score --game {game} --prompt`)\n")
    cut = run("score", "--game", str(game), "--prompt", input="10\n5,8\n")  # turn 10 is re-asked; then input ends
    assert cut.exit_code == 1 and "Error: takes the turn each was achieved, 1-9; got 10\n" in cut.stdout
    assert cut.stderr == (f"Saved in {game}.\nError: input ended while asking for 'Points of each Bucket List card "
                          "you completed, comma-sepa...' (expected whole numbers separated by commas, or none); "
                          "the answers before it are saved\n")
    assert json.loads(game.read_text())["marks"] == {"objectives": [5, 8]}  # the answer given is kept
    done = run("score", "--game", str(game), "--prompt", input="4,6\n1,1,0\n")  # asks only what is missing
    assert done.exit_code == 0, done.stderr
    assert "Turns you achieved" not in done.stdout
    assert json.loads(game.read_text())["marks"] == {"objectives": [5, 8], "bucket_list": [4, 6], "festivals": [1, 1, 0]}
    table = done.stdout[done.stdout.index("globetrotting: solo"):]
    # Hand-worked (rulebook): Ann 2 (spent 32 < 65) + 6 (turn 5, not after Abby's turn 6) + 4 (turn 8) + 4 + 6
    # + 2 festivals = 24; Abby 0 + 4 (Ann took one first) + 6 + 2 x 3 cards + 3 = 19.
    assert "Total               24    19" in table and "Winner: Ann" in table
    assert "Global objectives 10: both on turn 6: 4 + 6" in table
    by_hand = run("abby", "score", "--objective", "5", "--objective", "8", "--bucket-list", "4,6", "--festivals",
                  "1,1,0", "--state", str(game))
    assert table == by_hand.stdout  # the same table as `abby score`
    assert done.stderr.endswith(f"Saved in {game}.\nRecorded in the history as {game_id}.\n")
    again = run("score", "--game", str(game), "--json")
    scores = json.loads(again.stdout)
    assert [(p["name"], p["total"]) for p in scores["players"]] == [("Ann", 24), ("Abby", 19)]
    assert scores["winners"] == ["Ann"] and scores["mode"] == "solo"
    assert again.stderr == f"Already in the history as {game_id}; not recorded again.\n"
    assert history(game_id) == [("globetrotting", "globetrotting", "solo", [("Ann", 24, True), ("Abby", 19, False)])]
    assert run("history", "show", game_id).stdout == table


def test_an_abby_game_before_its_last_flight_is_not_scored(tmp_path: Path) -> None:
    game = tmp_path / "solo.json"
    run("abby", "start", "--bucket-cards", "3", "--state", str(game))
    run("abby", "turn", "--cards", "7,12,3", "--chose", "3", "--airfare", "4", "--state", str(game))
    before = game.read_bytes()
    early = run("score", "--game", str(game), "--prompt", input="5\n")
    assert (early.exit_code, early.stdout) == (1, "")
    assert early.stderr == (f"Error: {game}: 1 of 9 flights are logged; score the game after the last one "
                            "(`printkit abby turn`)\n")
    assert game.read_bytes() == before
    abby = run("abby", "start", "--bucket-cards", "3", "--player", "abby", "--state", str(tmp_path / "x.json"))
    assert abby.exit_code == 2 and abby.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--player': Abby is the opponent's name; give yours")
    assert not (tmp_path / "x.json").exists()


def wereldsteden(path: Path, *args: str) -> Result:
    return run("wereldsteden", *args, "--state", str(path))


def test_a_wereldsteden_game_is_won_by_its_recorded_sales(tmp_path: Path) -> None:
    game = tmp_path / "tiles.json"
    dealt = wereldsteden(game, "setup", "--seed", "42", "--players", "Ann,Bo")
    assert dealt.stdout.splitlines()[-2] == ("Players: Ann, Bo; the first with 6 different winning tiles wins. "
                                             "Name the seller of every sale: `printkit wereldsteden refill SPACE --by NAME`.")
    game_id = json.loads(game.read_text())["id"]
    first = wereldsteden(game, "refill", "tokyo", "wellington", "--by", "ann")
    assert first.stdout.splitlines()[:2] == ["Sold by Ann: Rug from tokyo.", "Sold by Ann: Fan from wellington."]
    assert first.stdout.endswith("Ann has 2 of 6 different winning tiles.\n")
    assert wereldsteden(game, "refill", "vancouver", "--by", "Bo").stdout.startswith("Sold by Bo: Mask from vancouver.")
    going = run("score", "--game", str(game))
    assert going.exit_code == 0 and "Result: nobody has 6 different winning tiles yet: the game goes on" in going.stdout
    assert going.stderr == ("Note: the game is not over yet, so it is not kept in the history; "
                            "score it again when a player has won.\n")
    assert history(game_id) == []
    wereldsteden(game, "refill", "helsinki-yellow", "helsinki-purple", "--by", "Ann")
    wereldsteden(game, "refill", "buenos-aires", "--by", "Ann")
    won = wereldsteden(game, "refill", "vancouver", "--by", "Ann")
    assert won.stdout.startswith("Sold by Ann: Spices from vancouver.")
    assert won.stdout.endswith(f"Ann has 6 of 6 different winning tiles.\nAnn wins the game: "
                               f"`printkit score --game {game}` scores it.\n")
    status = wereldsteden(game, "status").stdout.splitlines()
    assert status[-2:] == ["  Ann: 6 different winning tiles (Rug, Fan, Nesting doll, Hammock, Sombrero, Spices)",
                           "  Bo: 1 different winning tile (Mask)"]
    before = game.read_bytes()
    after_win = wereldsteden(game, "refill", "tokyo", "--by", "Bo")
    assert (after_win.exit_code, after_win.stderr) == (1, "Error: the game is over: Ann has won; nothing was changed\n")
    scored = run("score", "--game", str(game))
    doc = {"game": "wereldsteden", "players": [
        {"name": "Ann", "tiles": ["rug", "fan", "doll", "hammock", "sombrero", "spices"]},
        {"name": "Bo", "tiles": ["mask"]}]}
    result, title = registry.score_document(doc, "x", Path("."))
    assert (scored.exit_code, scored.stdout) == (0, score_text(result, title) + "\n")  # as `score GAMEFILE` prints it
    assert "Winner: Ann" in scored.stdout and "Different winning tiles    6   1" in scored.stdout
    assert scored.stderr == f"Recorded in the history as {game_id}.\n"
    assert json.loads(run("score", "--game", str(game), "--json").stdout)["winners"] == ["Ann"]
    assert history(game_id) == [("wereldsteden", "wereldsteden", "standard", [("Ann", 6, True), ("Bo", 1, False)])]
    assert game.read_bytes() == before


def test_a_sale_by_an_unknown_or_missing_seller_changes_nothing(tmp_path: Path) -> None:
    game = tmp_path / "tiles.json"
    wereldsteden(game, "setup", "--seed", "7", "--players", "Ann,Bo,Cy")
    before = game.read_bytes()
    unknown = wereldsteden(game, "refill", "tokyo", "--by", "Zed")
    assert unknown.exit_code == 2 and unknown.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--by': no player named 'Zed' in this game; players: Ann, Bo, Cy")
    missing = wereldsteden(game, "refill", "tokyo")
    assert missing.exit_code == 2 and missing.stderr.splitlines()[-1] == (
        "Error: name the seller with --by NAME (players: Ann, Bo, Cy)")
    alone = wereldsteden(tmp_path / "one.json", "setup", "--players", "Ann")
    assert alone.exit_code == 2 and alone.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--players': Wereldsteden is for 2-6 players, got 1")
    assert game.read_bytes() == before and not (tmp_path / "one.json").exists()


def test_format_1_files_are_migrated(tmp_path: Path) -> None:
    solo, tiles = tmp_path / "solo.json", tmp_path / "tiles.json"
    run("abby", "start", "--bucket-cards", "3", "--state", str(solo))
    run("wereldsteden", "setup", "--seed", "42", "--state", str(tiles))
    old_solo = {k: v for k, v in json.loads(solo.read_text()).items() if k not in ("id", "players", "marks")}
    old_tiles = {k: v for k, v in json.loads(tiles.read_text()).items()
                 if k not in ("id", "players", "variant", "sales")}
    for path, doc in ((solo, old_solo), (tiles, old_tiles)):
        path.write_text(json.dumps({**doc, "format": 1}))
    assert run("abby", "status", "--state", str(solo)).stdout.startswith("Solo game against Abby: 3 Bucket List cards")
    assert json.loads(solo.read_text())["format"] == 1  # reading changes nothing
    run("abby", "turn", "--cards", "7,12,3", "--chose", "3", "--airfare", "4", "--state", str(solo))
    saved = json.loads(solo.read_text())
    assert (saved["format"], saved["players"], saved["marks"], len(saved["id"])) == (2, ["You", "Abby"], {}, 12)
    assert saved["turns"] == [{"cards": [7, 12, 3], "chose": 3, "airfare": 4, "abby": 7}]
    unsold = run("score", "--game", str(tiles))
    assert (unsold.exit_code, unsold.stderr) == (1, f"Error: {tiles}: these tiles were dealt without players, so no "
                                                 "sale names its seller: deal the next game with "
                                                 "`printkit wereldsteden setup --players NAMES`\n")
    assert json.loads(tiles.read_text())["format"] == 1
    assert run("wereldsteden", "refill", "tokyo", "--state", str(tiles)).stdout.startswith("Sold: Rug from tokyo.")
    saved = json.loads(tiles.read_text())
    assert (saved["format"], saved["players"], saved["sales"], saved["draws"]) == (2, [], [], 1)


def test_a_game_file_of_another_game_or_kind_is_refused_untouched(tmp_path: Path) -> None:
    solo, tiles = tmp_path / "solo.json", tmp_path / "tiles.json"
    abby_game(solo)
    wereldsteden(tiles, "setup", "--seed", "1", "--players", "Ann,Bo")
    before = (solo.read_bytes(), tiles.read_bytes())
    wrong = run("wereldsteden", "refill", "tokyo", "--by", "Ann", "--state", str(solo))
    assert (wrong.exit_code, wrong.stderr) == (1, f"Error: {solo}: not a printkit wereldsteden state file; "
                                               "it was left untouched\n")
    wrong = run("abby", "undo", "--state", str(tiles))
    assert (wrong.exit_code, wrong.stderr) == (1, f"Error: {tiles}: not a printkit abby state file; it was left untouched\n")
    bad = json.loads(solo.read_text())
    solo.write_text(json.dumps({**bad, "marks": {"objectives": [12]}}))
    corrupt = run("score", "--game", str(solo))
    assert (corrupt.exit_code, corrupt.stderr) == (1, f"Error: {solo}: state file is corrupt (marks.objectives: expected "
                                                   "an answer the rules allow, but takes the turn each was achieved, "
                                                   "1-9; got 12); it was left untouched\n")
    solo.write_bytes(before[0])
    record = tmp_path / "game.toml"
    record.write_text('game = "wereldsteden"\n')
    other = run("score", "--game", str(record))
    assert (other.exit_code, other.stdout) == (1, "")
    assert other.stderr.startswith(f"Error: {record}: state file is corrupt")
    assert (solo.read_bytes(), tiles.read_bytes()) == before


def test_score_game_alone_reads_printkit_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "solo.json"
    abby_game(game)
    run("score", "--game", str(game), "--prompt", input="none\nnone\n0\n")
    by_env = run("score", "--game", "--json", env={"PRINTKIT_STATE": str(game)})
    assert by_env.exit_code == 0 and json.loads(by_env.stdout)["players"][0]["name"] == "You"
    assert by_env.stderr == f"Already in the history as {json.loads(game.read_text())['id']}; not recorded again.\n"
    monkeypatch.chdir(tmp_path)
    none_here = run("score", "--game", env={"PRINTKIT_STATE": ""})  # as turns' --state: empty is unset
    assert none_here.exit_code == 1 and none_here.stderr.startswith(
        "Error: printkit-game.json: no game has been started here; start one with `printkit turns start")


def test_a_fillable_sheet_of_the_game_carries_its_id(tmp_path: Path) -> None:
    game, other = tmp_path / "game.json", tmp_path / "other.json"
    for path in (game, other):
        run("turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "3", "--state", str(path))
    pack, foreign = tmp_path / "pack.pdf", tmp_path / "foreign.pdf"
    assert run("render", "map", "--game", str(game), "--fillable", "-o", str(pack)).exit_code == 0
    assert run("render", "map", "--game", str(other), "--fillable", "-o", str(foreign)).exit_code == 0
    game_id, other_id = (json.loads(p.read_text())["id"] for p in (game, other))
    fills = [sim.Filled(("sights.culture.1",), ("london-new-york",), "new-york"), sim.Filled((), (), None)]
    (tmp_path / "filled.pdf").write_bytes(tablet(pack.read_bytes(), fills))
    (tmp_path / "filled-foreign.pdf").write_bytes(tablet(foreign.read_bytes(), fills))
    before = game.read_bytes()
    refused = run("scan", str(tmp_path / "filled-foreign.pdf"), "--game", str(game))
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (f"Error: {tmp_path / 'filled-foreign.pdf'}: page 1: the sheet is of another game "
                              f"({other_id}), not of game {game_id}: print this game's sheets with "
                              "`printkit render map --game FILE`; nothing was attached\n")
    assert game.read_bytes() == before
    scanned = run("scan", str(tmp_path / "filled.pdf"), "--game", str(game))
    assert scanned.stderr.startswith(f"Attached 2 sheets to game {game_id} in {game}.\n")
    marks = json.loads(game.read_text())["marks"]
    assert marks["Ann"]["from"] == "scan" and marks["Ann"]["table"]["sights"]["culture"] == 1
    assert marks["Ann"]["table"]["route"] == ["new-york", "london"] and marks["Bo"]["table"]["name"] == "Bo"
