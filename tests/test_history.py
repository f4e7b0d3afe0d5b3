"""The history library: record once, list, show, forget, bests by hand, CSV and JSON export, import."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from history_helpers import CLUB, EXAMPLES, club_history, scored_file, variant

from printkit.cli import cli
from printkit.errors import DataError, StateError
from printkit.history import (
    Best,
    PlayerResult,
    Summary,
    bests,
    export,
    forget,
    games,
    import_,
    record,
    scored,
    show,
    utc_time,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "history.sqlite3"


CHRIS = EXAMPLES / "world-chris.toml"
CHRIS_ID = "c0499141086ff770"  # the first 16 hex digits of the SHA-256 of world-chris.toml's bytes


def test_a_scored_example_game_reads_back_in_every_listing(db: Path) -> None:
    game_id, result = scored_file(CHRIS, "2024-03-07T19:30:00Z")
    assert game_id == CHRIS_ID
    assert record(game_id, result, db=db) is True
    summary = Summary(CHRIS_ID, "around-the-world", "world", "multiplayer", "2024-03-07T19:30:00Z",
                      (PlayerResult("Chris", 46, True), PlayerResult("Ana", 29, False)))
    assert games(db=db) == [summary]
    shown = show(CHRIS_ID, db=db)
    assert shown.summary == summary
    printed = CliRunner().invoke(cli, ["score", str(CHRIS)]).stdout
    assert shown.explanation + "\n" == printed  # exactly what `printkit score` printed
    assert shown.explanation.startswith("Around the World in 15 Minutes: multiplayer\n")
    assert "Winner: Chris" in shown.explanation
    assert shown.score["players"][0]["sections"] == {"collect": 14, "explore": 18, "regions": 11, "speed": 3}
    assert bests(db=db) == [Best("Chris", "world", "multiplayer", 1, 1, 46, 46.0),
                            Best("Ana", "world", "multiplayer", 1, 0, 29, 29.0)]
    rows = list(csv.reader(io.StringIO(export("csv", db=db).decode("utf-8"), newline="")))
    assert rows == [["game_id", "played_at", "game", "map", "mode", "player", "total", "won"],
                    [CHRIS_ID, "2024-03-07T19:30:00Z", "around-the-world", "world", "multiplayer", "Chris", "46", "1"],
                    [CHRIS_ID, "2024-03-07T19:30:00Z", "around-the-world", "world", "multiplayer", "Ana", "29", "0"]]
    doc = json.loads(export("json", db=db))
    assert (doc["format"], doc["version"], len(doc["games"])) == ("printkit-history", 1, 1)
    assert doc["games"][0]["players"] == [{"name": "Chris", "total": 46, "won": True},
                                          {"name": "Ana", "total": 29, "won": False}]
    assert doc["games"][0]["explanation"] == shown.explanation


def test_recording_the_same_game_again_changes_nothing(db: Path) -> None:
    game_id, result = scored_file(CHRIS, "2024-03-07T19:30:00Z")
    assert record(game_id, result, db=db) is True
    before = export("json", db=db)
    later = result._replace(played_at="2024-04-01T10:00:00Z", explanation="something else")
    assert record(game_id, later, db=db) is False
    assert record(game_id, result, db=db) is False
    assert export("json", db=db) == before
    assert len(games(db=db)) == 1


def _three_world_games(tmp_path: Path, db: Path) -> None:
    """Chris 46 / Ana 29; then ana 46 / CHRIS 29 (names swapped, other case); then Chris 46 / Dana 29."""
    files = [(CHRIS, "2024-03-07T19:30:00Z"),
             (variant(tmp_path, "world-chris.toml", {"Chris": "ana", "Ana": "CHRIS"}, "g2.toml"), "2024-03-14T19:30:00Z"),
             (variant(tmp_path, "world-chris.toml", {"Ana": "Dana"}, "g3.toml"), "2024-03-21T19:30:00Z")]
    for path, when in files:
        assert record(*scored_file(path, when), db=db)
    assert record(*scored_file(EXAMPLES / "europe-majority.toml", "2024-03-28T19:30:00Z"), db=db)
    assert record(*scored_file(EXAMPLES / "world-solo.toml", "2024-03-02T09:00:00+01:00"), db=db)


def test_bests_computed_by_hand_for_three_games(tmp_path: Path, db: Path) -> None:
    _three_world_games(tmp_path, db)
    # world, multiplayer: Chris 46 (won), 29, 46 (won): 3 games, 2 wins, best 46, average 121 / 3 = 40.3;
    # Ana 29, 46 (won, as "ana", her newest spelling): 2 games, 1 win, best 46, average 37.5; Dana 29 once
    assert bests(map="world", mode="multiplayer", db=db) == [
        Best("Chris", "world", "multiplayer", 3, 2, 46, 40.3),
        Best("ana", "world", "multiplayer", 2, 1, 46, 37.5),
        Best("Dana", "world", "multiplayer", 1, 0, 29, 29.0),
    ]
    assert bests(db=db) == [
        Best("Femke", "europe", "multiplayer", 1, 1, 46, 46.0),
        Best("Gus", "europe", "multiplayer", 1, 0, 31, 31.0),
        *bests(map="world", mode="multiplayer", db=db),
        Best("Kit", "world", "solo", 1, 0, 58, 58.0),  # solo: a rating, no winner
    ]
    assert bests(mode="SOLO", db=db) == [Best("Kit", "world", "solo", 1, 0, 58, 58.0)]
    assert bests(map="us", db=db) == []
    assert bests(map="WORLD", mode="multiplayer", db=db)[0].to_json() == {
        "name": "Chris", "map": "world", "mode": "multiplayer", "games": 3, "wins": 2, "best": 46, "average": 40.3}


def test_listings_are_newest_first_and_filter_ignoring_case(tmp_path: Path, db: Path) -> None:
    _three_world_games(tmp_path, db)
    listed = games(db=db)
    assert [g.played_at for g in listed] == ["2024-03-28T19:30:00Z", "2024-03-21T19:30:00Z", "2024-03-14T19:30:00Z",
                                             "2024-03-07T19:30:00Z", "2024-03-02T08:00:00Z"]  # +01:00 made UTC
    assert [g.players[0].name for g in games(player="CHRIS", db=db)] == ["Chris", "ana", "Chris"]
    assert [g.map for g in games(map="Europe", db=db)] == ["europe"]
    assert [g.mode for g in games(map="world", player="kit", db=db)] == ["solo"]
    assert games(player="Zoe", db=db) == []


def test_forget_and_ids_given_by_their_start(tmp_path: Path, db: Path) -> None:
    _three_world_games(tmp_path, db)
    assert show(CHRIS_ID[:6], db=db).summary.id == CHRIS_ID
    with pytest.raises(StateError, match=r"^no game 'c04' in the history \(printkit history lists them\)$"):
        show("c04", db=db)  # fewer than 4 characters: never a prefix
    with pytest.raises(StateError, match="^no game 'nothing' in the history"):
        forget("nothing", db=db)
    gone = forget(CHRIS_ID[:8], db=db)
    assert (gone.id, [p.name for p in gone.players]) == (CHRIS_ID, ["Chris", "Ana"])
    assert CHRIS_ID not in [g.id for g in games(db=db)]
    assert bests(map="world", mode="multiplayer", db=db) == [  # one win each: the better average first
        Best("ana", "world", "multiplayer", 1, 1, 46, 46.0),
        Best("Chris", "world", "multiplayer", 2, 1, 46, 37.5),
        Best("Dana", "world", "multiplayer", 1, 0, 29, 29.0)]
    assert record(*scored_file(CHRIS, "2024-03-07T19:30:00Z"), db=db) is True  # forgotten: it can come back


def test_an_ambiguous_id_start_is_refused(db: Path) -> None:
    game_id, result = scored_file(CHRIS, "2024-03-07T19:30:00Z")
    record("abcd-1", result, db=db)
    record("abcd-2", result, db=db)
    with pytest.raises(StateError, match=r"^game id 'abcd' is the start of more than one game \(abcd-1, abcd-2, "):
        show("abcd", db=db)
    assert show("abcd-2", db=db).summary.id == "abcd-2"


def test_csv_quotes_as_rfc_4180_and_defuses_formulas(db: Path) -> None:
    _, result = scored_file(CHRIS, "2024-03-07T19:30:00Z")
    named = result.score._replace(players=(result.score.players[0]._replace(name='Ann, "the Ace"'),
                                           result.score.players[1]._replace(name="=1+2")),
                                  winners=('Ann, "the Ace"',))
    record("quoted", scored(named, "text", played_at="2024-03-07T19:30:00Z"), db=db)
    data = export("csv", db=db)
    assert data.split(b"\r\n")[1:] == [
        b'quoted,2024-03-07T19:30:00Z,around-the-world,world,multiplayer,"Ann, ""the Ace""",46,1',
        b"quoted,2024-03-07T19:30:00Z,around-the-world,world,multiplayer,'=1+2,29,0", b""]
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
    assert [(r["player"], r["total"], r["won"]) for r in rows] == [('Ann, "the Ace"', "46", "1"), ("'=1+2", "29", "0")]


def test_export_then_import_into_a_fresh_history_is_the_same_history(tmp_path: Path, db: Path) -> None:
    _three_world_games(tmp_path, db)
    exported = export("json", db=db)
    fresh = tmp_path / "other" / "history.sqlite3"
    assert import_(exported, "history.json", db=fresh) == 5
    assert export("json", db=fresh) == exported
    assert games(db=fresh) == games(db=db)
    assert bests(db=fresh) == bests(db=db)
    assert show(CHRIS_ID, db=fresh) == show(CHRIS_ID, db=db)
    assert export("csv", db=fresh) == export("csv", db=db)
    assert import_(exported, "history.json", db=fresh) == 0  # twice: nothing added
    assert export("json", db=fresh) == exported


def _refused(data: bytes, db: Path, said: str) -> None:
    before = export("json", db=db)
    with pytest.raises(DataError) as caught:
        import_(data, "h.json", db=db)
    assert caught.value.problems == [f"h.json: {said}; nothing was imported"]
    assert export("json", db=db) == before


def test_a_file_that_is_not_a_history_export_is_refused_and_nothing_is_written(tmp_path: Path, db: Path) -> None:
    record(*scored_file(EXAMPLES / "us-road-trip.toml", "2024-01-01T12:00:00Z"), db=db)
    other = tmp_path / "other" / "history.sqlite3"
    record(*scored_file(CHRIS, "2024-03-07T19:30:00Z"), db=other)
    good = json.loads(export("json", db=other))
    not_ours = "not a printkit history export"
    _refused(b"\xff\xfe not text", db, f"{not_ours} (line 1: not UTF-8 text (save the file as UTF-8))")
    _refused(b"map = 'world'\n", db, f"{not_ours} (line 1, column 1: invalid JSON (Expecting value))")
    score_json = CliRunner().invoke(cli, ["score", str(CHRIS), "--json"]).stdout.encode()
    _refused(score_json, db, f'{not_ours} (expected a JSON object with "format": "printkit-history" and "games")')
    _refused(json.dumps({**good, "version": 2}).encode(), db, f"{not_ours} (version 2; this printkit reads version 1)")
    tampered = json.loads(json.dumps(good))
    tampered["games"][0]["score"]["players"][0]["total"] = 99
    _refused(json.dumps(tampered).encode(), db, f"games[0] (id '{CHRIS_ID}'): score.players[0].total: 99 is not the "
                                                "sum of the sections (46)")
    naive = json.loads(json.dumps(good))
    naive["games"][0]["played_at"] = "2024-03-07 19:30"
    _refused(json.dumps(naive).encode(), db, f"games[0] (id '{CHRIS_ID}'): played_at: time '2024-03-07 19:30' has no "
                                             "time zone (write it as UTC, e.g. 2024-05-01T19:30:00Z)")
    control = json.loads(json.dumps(good))
    control["games"][0]["score"]["players"][1]["name"] = "Ana\x1b[31m"
    _refused(json.dumps(control).encode(), db, f"games[0] (id '{CHRIS_ID}'): score.players[1].name: player name "
                                               "'Ana\\x1b[31m' contains the unprintable character U+001B; names are plain text")
    # one bad game among good ones: none of them is added
    both = {**good, "games": [*good["games"], {"id": "x"}]}
    _refused(json.dumps(both).encode(), db, "games[1] (id 'x'): game: missing")
    assert [g.players[0].name for g in games(db=db)] == ["Dana"]  # the one game it had


def test_times_are_kept_as_utc() -> None:
    assert utc_time("2024-03-07T21:30:00+02:00") == "2024-03-07T19:30:00Z"
    assert utc_time("2024-03-07T19:30:00.123456Z") == "2024-03-07T19:30:00Z"
    with pytest.raises(ValueError, match="no time zone"):
        utc_time("2024-03-07T19:30:00")
    with pytest.raises(ValueError):
        utc_time("last Thursday")


def test_the_club_history_of_the_docs_is_what_printkit_exports(tmp_path: Path) -> None:
    # python tests/history_helpers.py writes it again (after a change to the scoring's wording)
    assert CLUB.read_bytes() == club_history(tmp_path)
