"""History import checks every game as `score` checks a game file, and imports a file whole or not at all;
the CSV export defuses every cell a spreadsheet would run, and the JSON export still round-trips."""

from __future__ import annotations

import copy
import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from history_helpers import CLUB, EXAMPLES, club_games, scored_file

from printkit.errors import DataError, shown
from printkit.history import export, games, import_, record, scored
from printkit.history.transfer import FORMULA_START, GAME_CHARS

CHRIS = EXAMPLES / "world-chris.toml"
CLUB_GAMES = json.loads(CLUB.read_bytes())["games"]
WORLD, SOLO = CLUB_GAMES[1], CLUB_GAMES[4]  # Ana 46 (won) / Chris 29 on the world map; Ana's solo game


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "history.sqlite3"


def export_of(*entries: dict[str, Any]) -> bytes:
    return json.dumps({"format": "printkit-history", "version": 1, "games": list(entries)},
                      ensure_ascii=False).encode()


def refused(db: Path, data: bytes) -> str:
    """The one line importing ``data`` is refused with; the history is left exactly as it was."""
    before = export("json", db=db)
    with pytest.raises(DataError) as caught:
        import_(data, "h.json", db=db)
    assert export("json", db=db) == before
    assert len(caught.value.problems) == 1 and "\n" not in caught.value.problems[0]
    return caught.value.problems[0]


def changed(game: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    game = copy.deepcopy(game)
    change(game)
    return game


def rename(game: dict[str, Any], seat: int, name: str) -> None:
    game["score"]["players"][seat]["name"] = game["players"][seat]["name"] = name


def set_points(game: dict[str, Any], seat: int, key: str, points: object) -> None:
    """A section's points, the total made to match (when it can be)."""
    row = game["score"]["players"][seat]
    row["sections"][key] = points
    if all(type(v) is int for v in row["sections"].values()):
        row["total"] = game["players"][seat]["total"] = sum(row["sections"].values())


CASES: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("names differ ignoring case", lambda g: rename(g, 1, "ANA"),
     "score.players[1].name: player name 'ANA' is given twice (names are compared ignoring case)"),
    ("a name with an escape", lambda g: rename(g, 1, "Chris\x1b]0;x\x07"),
     "score.players[1].name: player name 'Chris\\x1b]0;x\\x07' contains the unprintable character U+001B; "
     "names are plain text"),
    ("a name of 41 characters", lambda g: rename(g, 1, "C" * 41),
     f"score.players[1].name: player name '{'C' * 41}' is longer than 40 characters"),
    ("a blank name", lambda g: rename(g, 1, " "), "score.players[1].name: a player name cannot be blank"),
    ("10000 points", lambda g: set_points(g, 0, "collect", 10_000),
     "score.players[0].sections.collect: must be at most 9999 (no count, mark or score in these games comes near "
     "it), got 10000"),
    ("a total of 10000", lambda g: set_points(g, 0, "collect", 10_000 - 32),  # the other sections hold 32
     "score.players[0].total: must be at most 9999 (no count, mark or score in these games comes near it), got "
     "10000"),
    ("a negative section", lambda g: set_points(g, 1, "speed", -1),
     "score.players[1].sections.speed: must be at least 0, got -1"),
    ("a section that is true", lambda g: set_points(g, 1, "speed", True),
     "score.players[1].sections.speed: expected a whole number, got boolean true"),
    ("a total that is a fraction", lambda g: g["score"]["players"][0].update(total=46.0),
     "score.players[0].total: expected a whole number, got number 46.0"),
    ("a total that does not add up", lambda g: g["score"]["players"][0].update(total=47),
     "score.players[0].total: 47 is not the sum of the sections (46)"),
    ("a section key that is not one", lambda g: g["score"]["players"][0]["sections"].update({"=cmd": 0}),
     "score.players[0].sections: '=cmd' is not a section (lowercase letters, digits and _)"),
    ("an unknown game", lambda g: g.update(game="chess"),
     "game: unknown game 'chess' (games: around-the-world, trekking-the-world, globetrotting, wereldsteden)"),
    ("a map that is a path", lambda g: g.update(map="../../etc/passwd"),
     "map: '../../etc/passwd' is not a valid id (use lowercase letters, digits and hyphens, e.g. 'etc-passwd')"),
    ("a mode the game has not", lambda g: g.update(mode="coop"),
     "mode: 'coop' is not a mode of around-the-world (multiplayer, solo, party)"),
    ("a score of another map", lambda g: g["score"].update(map="europe"),
     "score.map: string 'europe', but the game's map is 'world'"),
    ("a winner who did not play", lambda g: g["score"].update(winners=["Zed"]),
     "score.winners: expected the names of the winning players, got ['Zed']"),
    ("a listing that disagrees", lambda g: g["players"][1].update(won=True),
     "players[1]: {'name': 'Chris', 'total': 29, 'won': True}, but the score says "
     "{'name': 'Chris', 'total': 29, 'won': False}"),
    ("no players", lambda g: g["score"].update(players=[]), "score.players: expected a list of 1 to 100 players, "
     "got 0 players"),
    ("an empty id", lambda g: g.update(id=""), "id: must not be empty"),
    ("an id of 101 characters", lambda g: g.update(id="a" * 101), "id: longer than 100 characters"),
    ("a key printkit never writes", lambda g: g.update(notes="x"),
     "notes: unknown key (expected one of: id, game, map, mode, played_at, players, explanation, score)"),
    ("a time without a zone", lambda g: g.update(played_at="2024-03-14 19:45"),
     "played_at: time '2024-03-14 19:45' has no time zone (write it as UTC, e.g. 2024-05-01T19:30:00Z)"),
    ("an explanation with an escape", lambda g: g.update(explanation="Total\x1b[2J"),
     "explanation: contains an unprintable character; text in printkit files is plain"),
]


@pytest.mark.parametrize("change,said", [(c, s) for _, c, s in CASES], ids=[name for name, _, _ in CASES])
def test_a_bad_game_is_named_with_its_field_and_nothing_is_imported(db: Path, change: Callable[[dict[str, Any]],
                                                                    object], said: str) -> None:
    record(*scored_file(EXAMPLES / "us-road-trip.toml", "2024-01-01T12:00:00Z"), db=db)
    bad = changed(WORLD, change)
    assert refused(db, export_of(CLUB_GAMES[0], bad, CLUB_GAMES[2])) == (
        f"h.json: games[1] (id {shown(bad['id'], 120)}): {said}; nothing was imported")
    assert [g.map for g in games(db=db)] == ["us"]  # the good game before the bad one is not kept either


def test_every_limit_is_accepted_just_inside_it(db: Path) -> None:
    near = [changed(WORLD, lambda g: set_points(g, 0, "collect", 9999 - 32)),  # a total of 9999
            changed(WORLD, lambda g: rename(g, 1, "C" * 40)),
            changed(WORLD, lambda g: set_points(g, 1, "speed", 0)),
            changed(WORLD, lambda g: g.update(id="a" * 100))]
    for i, game in enumerate(near):
        game["id"] = game["id"] if i == 3 else f"near-{i}"
    assert import_(export_of(*near), "h.json", db=db) == 4
    assert sorted(p.total for g in games(db=db) for p in g.players)[-1] == 9999
    assert {"C" * 40, "Chris"} <= {p.name for g in games(db=db) for p in g.players}


def party_of(count: int) -> dict[str, Any]:
    """A party game of ``count`` players named with 40 characters (a rating each, no winner needed)."""
    names = [f"{i:03d}" + "東" * 37 for i in range(count)]
    rows = [{"name": n, "rating": "Lame Leave", "sections": {"collect": 10, "explore": 20, "regions": 4, "speed": 0},
             "total": 34} for n in names]
    return {"id": f"party-{count}", "game": "around-the-world", "map": "world", "mode": "party",
            "played_at": "2024-04-01T20:00:00Z", "players": [{"name": n, "total": 34, "won": False} for n in names],
            "explanation": "Around the World in 15 Minutes: party\n" + "\n".join(names), "score": {
                "game": "around-the-world", "map": "world", "mode": "party", "players": rows, "tiebreak": "",
                "winners": []}}


def test_a_game_of_100_players_is_imported_and_of_101_refused(db: Path) -> None:
    assert import_(export_of(party_of(100)), "h.json", db=db) == 1
    assert len(games(db=db)[0].players) == 100
    assert refused(db, export_of(party_of(101))) == (
        "h.json: games[0] (id 'party-101'): score.players: expected a list of 1 to 100 players, got 101 players; "
        "nothing was imported")


def test_a_game_may_take_up_to_its_limit_in_the_file(db: Path) -> None:
    game = copy.deepcopy(SOLO)
    game["explanation"] = ""
    room = GAME_CHARS - len(json.dumps(game, ensure_ascii=False))
    game["explanation"] = "x" * room
    assert len(json.dumps(game, ensure_ascii=False)) == GAME_CHARS
    assert import_(export_of(game), "h.json", db=db) == 1
    game["id"], game["explanation"] = "x" * len(game["id"]), "x" * (room + 1)
    assert refused(db, export_of(game)) == (
        "h.json: not a printkit history export (line 1, column 56: a value is longer than 1,048,576 characters "
        "(printkit writes none that long)); nothing was imported")


def test_the_largest_game_printkit_records_fits_its_limit_seven_times(tmp_path: Path, db: Path) -> None:
    from printkit import registry
    from printkit.present.score_text import score_text

    names = [f"{i:03d}" + "東" * 37 for i in range(100)]
    doc = {"map": "world", "mode": "party", "players": [
        {"name": n, "souvenirs": {"mugs": 3, "clothes": 3, "postcards": 3, "textiles": 3},
         "sights": {"culture": 5, "history": 5, "nature": 5, "food": 5},
         "visited": {"europe": 3, "africa": 3, "asia": 3, "oceania": 3, "north-america": 3, "south-america": 3},
         "returned": True, "finished_turn": 20} for n in names]}
    result, title = registry.score_document(doc, "party.json", tmp_path)
    assert record("largest", scored(result, score_text(result, title)), db=db)
    line = export("json", db=db).decode().split("\n")[4]
    assert 140_000 < len(line) < GAME_CHARS / 7  # the most players, the longest names, every reason written


def test_import_reads_the_json_rules_of_the_one_reader(db: Path) -> None:
    good = export_of(CLUB_GAMES[0])
    assert import_(b"\xef\xbb\xbf" + good, "h.json", db=db) == 1  # a BOM is accepted
    big = good.replace(b'"collect": 14', b'"collect": 100000000000000000000000000000')
    assert refused(db, big).startswith("h.json: not a printkit history export (line 1, column ")
    assert refused(db, big).endswith(": invalid JSON: the number 100000000000000000000000000000 is beyond "
                                     "±9223372036854775807 (numbers in printkit files are far smaller)); "
                                     "nothing was imported")
    assert "invalid JSON: Infinity is not a number" in refused(db, good.replace(b'"collect": 14', b'"collect": Infinity'))
    assert "invalid JSON: NaN is not a number" in refused(db, good.replace(b'"total": 29', b'"total": NaN'))
    twice = good.replace(b'"collect": 14', b'"collect": 14, "collect": 14')
    assert "invalid JSON: the key 'collect' is given twice in one object (keep one)" in refused(db, twice)
    deep = good.replace(b'"tiebreak": ""', b'"tiebreak": ' + b"[" * 5000 + b"]" * 5000)
    assert "lists or tables nested more than 32 deep" in refused(db, deep)
    first = export("json", db=db)
    assert import_(first, "h.json", db=db) == 0


def test_every_csv_cell_is_safe_in_every_column_and_the_json_still_round_trips(tmp_path: Path, db: Path) -> None:
    _, result = scored_file(CHRIS, "2024-03-07T19:30:00Z")
    for i, (start, name) in enumerate(zip(FORMULA_START, ("=1+2", "+Bo", "-Ann", "@home", "Tab", "CR"))):
        named = result.score._replace(players=(result.score.players[0]._replace(name=name),
                                               result.score.players[1]._replace(name=f"Other {i}")), winners=(name,))
        hostile = f'{start}HYPERLINK("http://x","c")'
        # a history written by hand (or an older printkit): every text column hostile, as import never allows
        record(hostile + str(i), scored(named, "text", played_at=f"2024-03-0{i + 1}T19:30:00Z", map=hostile,
                                        mode=hostile), db=db)
    rows = list(csv.reader(io.StringIO(export("csv", db=db).decode("utf-8"), newline="")))
    assert len(rows) == 13
    cells = [cell for row in rows[1:] for cell in row]
    assert not [c for c in cells if c.startswith(FORMULA_START)]
    assert rows[1][:6] == ["'=HYPERLINK(\"http://x\",\"c\")0", "2024-03-01T19:30:00Z", "around-the-world",
                           "'=HYPERLINK(\"http://x\",\"c\")", "'=HYPERLINK(\"http://x\",\"c\")", "'=1+2"]
    assert [r[5] for r in rows[1::2]] == ["'=1+2", "'+Bo", "'-Ann", "'@home", "Tab", "CR"]
    assert rows[9][0].startswith("'\t") and rows[11][0].startswith("'\r")


def test_names_a_spreadsheet_would_run_round_trip_through_the_json_export(tmp_path: Path, db: Path) -> None:
    data = club_games(48)  # the club's players include =1+2, -Ann, @home and +Bo
    assert import_(data, "club.json", db=db) == 48
    names = {p.name for g in games(db=db) for p in g.players}
    assert {"=1+2", "-Ann", "@home", "+Bo", "Zoë", "東京"} <= names
    assert export("json", db=db) == data
    other = tmp_path / "other" / "history.sqlite3"
    assert import_(export("json", db=db), "again.json", db=other) == 48
    assert export("json", db=other) == data and export("csv", db=other) == export("csv", db=db)
    csv_text = export("csv", db=db).decode("utf-8")
    assert ",'=1+2," in csv_text and ",'-Ann," in csv_text and ",=1+2," not in csv_text


GLOBETROTTING = '''game = "globetrotting"
[[players]]
name = "Ann"
airfares = [3, 4, 2, 5, 3, 4, 2, 3, 1]
objectives = { "Six continents" = 4 }
bucket_list = [3, 4]
festivals = [1, 2, 0]
[[players]]
name = "Bo"
airfare = 30
bucket_list = 5
festivals = 2
'''
WERELDSTEDEN = '''game = "wereldsteden"
[[players]]
name = "Ann"
tiles = ["rug", "fan"]
[[players]]
name = "Bo"
tiles = ["mask"]
'''


def test_a_game_of_every_kind_printkit_records_is_imported_back(tmp_path: Path, db: Path) -> None:
    (tmp_path / "globetrotting.toml").write_text(GLOBETROTTING, encoding="utf-8")
    (tmp_path / "wereldsteden.toml").write_text(WERELDSTEDEN, encoding="utf-8")
    files = [EXAMPLES / name for name in ("world-chris.toml", "world-solo.toml", "us-road-trip.toml",
                                          "europe-majority.toml", "south-america-safari.toml", "trek.toml")]
    files += [tmp_path / "globetrotting.toml", tmp_path / "wereldsteden.toml"]
    for i, path in enumerate(files):
        assert record(*scored_file(path, f"2024-05-0{i + 1}T20:00:00Z"), db=db)
    kinds = {(g.game, g.map, g.mode) for g in games(db=db)}
    assert {("trekking-the-world", "trekking-the-world", "multiplayer"), ("globetrotting", "globetrotting",
            "multiplayer"), ("wereldsteden", "wereldsteden", "standard"), ("around-the-world", "world", "solo")} <= kinds
    other = tmp_path / "other" / "history.sqlite3"
    assert import_(export("json", db=db), "all.json", db=other) == len(files)
    assert export("json", db=other) == export("json", db=db)
