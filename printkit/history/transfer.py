"""The history as a file: CSV for a spreadsheet, JSON to move it to another machine (and import it there).

Both are written a game at a time, and a JSON export is read back a game at a
time (:func:`printkit.loading.jsonstream.json_members`), so a club's ten thousand
games never sit in memory whole. Every game imported is checked as ``score``
checks a game file (the game, map and mode ids, the players' names, every
number's range, totals that add up) and the file is imported in one
transaction: a bad game anywhere leaves the history as it was.
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

from printkit.errors import DataError
from printkit.files import FilePath
from printkit.history.model import Scored, utc_time
from printkit.history.store import connect, transaction

if TYPE_CHECKING:
    import sqlite3

    from printkit.loading.fields import Reader
    from printkit.registry import Playable
    from printkit.rules.report import GameScore, PlayerScore

FORMAT = "printkit-history"
"""The ``format`` key of a JSON export: a file without it is not printkit's history."""
FORMAT_VERSION = 1
CSV_HEADER = ("game_id", "played_at", "game", "map", "mode", "player", "total", "won")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet (OWASP): it gets a leading ``'``."""
GAME_CHARS = 1 << 20
"""The most characters one game of a JSON export may take. The largest game printkit records (100 players with
40-character names) exports to about a seventh of this (tests/test_history_import.py); a file is as long as its
games (there is no limit on their number)."""
BATCH = 200
"""Games written to the output at a time."""


def _cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_START) else value


def _csv(db: FilePath | None) -> Iterator[bytes]:
    """The CSV export, a batch of games at a time: a header, then one row per player per game, oldest game first."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)  # RFC 4180: CRLF line ends, fields quoted as needed
    writer.writerow(CSV_HEADER)
    with connect(db) as conn:
        rows = conn.execute("SELECT g.id, g.played_at, g.game, g.map, g.mode, p.name, p.total, p.won FROM games g "
                            "JOIN players p ON p.game_id = g.id ORDER BY g.played_at, g.rowid, p.seat")
        for batch in _batches(rows, BATCH * 4):
            writer.writerows([*map(_cell, row[:6]), total, int(won)] for *row, total, won in batch)
            yield out.getvalue().encode("utf-8")
            out.seek(0)
            out.truncate()
    yield out.getvalue().encode("utf-8")


def _batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``rows`` in lists of at most ``size``."""
    it = iter(rows)
    while batch := list(itertools.islice(it, size)):
        yield batch


def _json(db: FilePath | None) -> Iterator[bytes]:
    """The JSON export, a batch of games at a time: one game a line, oldest first."""
    yield f'{{\n  "format": "{FORMAT}",\n  "version": {FORMAT_VERSION},\n  "games": ['.encode()
    with connect(db) as conn:
        first = True
        for batch in _batches(_game_lines(conn), BATCH):
            text = "\n    " + ",\n    ".join(batch)
            yield (text if first else "," + text).encode("utf-8")
            first = False
    yield b"\n  ]\n}\n" if not first else b"]\n}\n"


def _game_lines(conn: sqlite3.Connection) -> Iterator[str]:
    """Every game as a line of the JSON export, oldest first, read in one statement (one snapshot of the history).

    The score is written as it was kept (``score --json``'s JSON, keys sorted), not parsed and written again.
    """
    rows = conn.execute("SELECT g.id, g.game, g.map, g.mode, g.played_at, g.explanation, g.score, p.name, p.total, "
                        "p.won FROM games g LEFT JOIN players p ON p.game_id = g.id "
                        "ORDER BY g.played_at, g.rowid, p.seat")
    for _, group in itertools.groupby(rows, key=lambda r: r[0]):
        game = list(group)
        game_id, game_kind, map_id, mode, played_at, explanation, score = game[0][:7]
        players = [{"name": n, "total": t, "won": bool(w)} for *_, n, t, w in game if n is not None]
        head = json.dumps({"id": game_id, "game": game_kind, "map": map_id, "mode": mode, "played_at": played_at,
                           "players": players, "explanation": explanation}, ensure_ascii=False)
        yield f'{head[:-1]}, "score": {score}}}'


def exported(fmt: str, db: FilePath | None = None) -> Iterator[bytes]:
    """The whole history as ``csv`` (a header, one row per player per game) or ``json`` (what import_ reads),
    a batch of games at a time, read from one snapshot of the history."""
    if fmt == "json":
        return _json(db)
    if fmt == "csv":
        return _csv(db)
    raise ValueError(f"unknown export format {fmt!r}: csv or json")


def export(fmt: str, db: FilePath | None = None) -> bytes:
    """The whole history as ``csv`` or ``json`` bytes (:func:`exported`, joined)."""
    return b"".join(exported(fmt, db))


class _Bad(Exception):
    """A game of an export that is not one printkit would write: its field and what is wrong."""


def _not_history(source: str, problem: str) -> DataError:
    return DataError([f"{source}: not a printkit history export ({problem}); nothing was imported"])


GAME_KEYS = ("id", "game", "map", "mode", "played_at", "players", "explanation", "score")
SCORE_KEYS = ("game", "map", "mode", "players", "winners", "tiebreak", "warnings")
PLAYER_KEYS = ("name", "rating", "sections", "total")
SECTION_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""A section's key in a score (``collect``, ``bucket_list``)."""


def _reader() -> Reader:
    """A field reader of game files (:mod:`printkit.loading.fields`) whose first problem is raised as :class:`_Bad`."""
    from printkit.loading.fields import Problems, Reader

    class First(Problems):
        def add(self, source: str, path: str, message: str) -> None:
            raise _Bad(path, message)

    return Reader(First(), "")


def _text(value: object, path: str, lines: bool = False) -> str:
    """Text of plain characters (and newlines, if ``lines``); it may be empty."""
    from printkit.model.names import plain

    if not isinstance(value, str):
        raise _Bad(path, f"expected text, got {_describe(value)}")
    if not plain(value.replace("\n", "") if lines else value):
        raise _Bad(path, "contains an unprintable character; text in printkit files is plain")
    return value


def _describe(value: object) -> str:
    """A value as the game files' field readers describe it (JSON's null as ``null``)."""
    from printkit.loading.fields import describe

    return "null" if value is None else describe(value)


def _table(value: object, path: str, keys: tuple[str, ...], required: tuple[str, ...],
           nullable: tuple[str, ...] = ()) -> dict[str, Any]:
    """``value`` if it is an object with only ``keys``, every one of ``required``, and no null but in ``nullable``
    (the game files' field readers know no null: TOML has none)."""
    if not isinstance(value, dict):
        raise _Bad(path, f"expected an object {{...}}, got {_describe(value)}")
    for key, item in value.items():
        if key not in keys:
            raise _Bad(_join(path, key), f"unknown key (expected one of: {', '.join(keys)})")
        if item is None and key not in nullable:
            raise _Bad(_join(path, key), "expected a value, got null")
    for key in required:
        if key not in value:
            raise _Bad(_join(path, key), "missing")
    return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _players(r: Reader, rows: object) -> tuple[PlayerScore, ...]:
    """The ``players`` of an exported score: names by the one name rule, each section and total 0..9999, adding up."""
    from printkit.model.limits import MAX_PLAYERS
    from printkit.rules.report import PlayerScore, Section

    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_PLAYERS:
        got = f"{len(rows)} players" if isinstance(rows, list) else _describe(rows)
        raise _Bad("score.players", f"expected a list of 1 to {MAX_PLAYERS} players, got {got}")
    names: list[str] = []
    players = []
    for i, row in enumerate(rows):
        at = f"score.players[{i}]"
        row = _table(row, at, PLAYER_KEYS, ("name", "sections", "total"), nullable=("rating",))
        name = r.player_name(row, at, names)
        assert name is not None  # else a problem was raised
        if name != row["name"]:
            raise _Bad(f"{at}.name", f"{_short(row['name'])} has spaces around it")
        if not isinstance(row["sections"], dict) or not row["sections"]:
            raise _Bad(f"{at}.sections", f"expected the points of each section, got {_describe(row['sections'])}")
        sections = []
        for key, points in row["sections"].items():
            if not SECTION_KEY.fullmatch(key):
                raise _Bad(f"{at}.sections", f"{_short(key)} is not a section (lowercase letters, digits and _)")
            sections.append(Section(key, key, _points(r, points, f"{at}.sections.{key}"), ""))
        rating = row.get("rating")
        player = PlayerScore(name, tuple(sections), None if rating is None else _text(rating, f"{at}.rating"))
        if _points(r, row["total"], f"{at}.total") != player.total:
            raise _Bad(f"{at}.total", f"{row['total']} is not the sum of the sections ({player.total})")
        players.append(player)
    return tuple(players)


def _points(r: Reader, value: object, path: str) -> int:
    """A whole number 0..9999 (:data:`printkit.model.limits.LARGEST`), as game files take them."""
    if value is None:
        raise _Bad(path, "expected a whole number, got null")
    number = r.check_int(value, path, minimum=0)
    assert number is not None  # a problem was raised
    return number


def _score(r: Reader, value: object, game: str, map_id: str, mode: str) -> GameScore:
    """The ``score`` of an exported game (``score --json``'s shape) as a GameScore, checked as ``score`` checks."""
    from printkit.rules.report import GameScore

    doc = _table(value, "score", SCORE_KEYS, SCORE_KEYS[:5])
    for key, want in (("game", game), ("map", "" if map_id == game else map_id), ("mode", mode)):
        if doc[key] != want:
            raise _Bad(f"score.{key}", f"{_describe(doc[key])}, but the game's {key} is {want!r}")
    players = _players(r, doc["players"])
    names = [p.name for p in players]
    winners = doc["winners"]
    if not isinstance(winners, list) or any(w not in names for w in winners) or len(set(winners)) < len(winners):
        raise _Bad("score.winners", f"expected the names of the winning players, got {_short(winners)}")
    warnings = doc.get("warnings", [])
    if not isinstance(warnings, list):
        raise _Bad("score.warnings", f"expected a list of text, got {_describe(warnings)}")
    notes = tuple(_text(w, f"score.warnings[{i}]") for i, w in enumerate(warnings))
    return GameScore(game, doc["map"], mode, players, tuple(winners), _text(doc.get("tiebreak", ""), "score.tiebreak"),
                     notes)


@functools.lru_cache(maxsize=16)
def _found(game: str) -> Playable:
    """The registry's game ``game`` (looked up once per game id, not once per game imported)."""
    from printkit import registry

    return registry.find_game(game)


def _game(r: Reader, entry: object) -> tuple[str, Scored]:
    """One game of an export, checked as ``score`` checks a game file (by ``r``), as record() takes it."""
    from printkit import registry
    from printkit.model.names import MAX_ID

    doc = _table(entry, "", GAME_KEYS, GAME_KEYS)
    game_id = r.string(doc, "id", "")
    assert game_id is not None  # else a problem was raised
    if len(game_id) > MAX_ID:
        raise _Bad("id", f"longer than {MAX_ID} characters")
    game = r.ident(doc, "game", "")
    try:
        entry_of = _found(game)  # an id (checked above): found only as it is written
    except DataError as exc:
        raise _Bad("game", exc.problems[0]) from None
    map_id = r.ident(doc, "map", "")
    if entry_of.id != registry.ATW and map_id != game:
        raise _Bad("map", f"{map_id!r}, but {game} has no maps (its games are kept under {game!r})")
    mode = r.ident(doc, "mode", "")
    if mode not in entry_of.modes:
        raise _Bad("mode", f"{mode!r} is not a mode of {game} ({', '.join(entry_of.modes)})")
    try:
        played_at = utc_time(_text(doc["played_at"], "played_at"))
    except ValueError as exc:
        raise _Bad("played_at", str(exc)) from None
    explanation = _text(doc["explanation"], "explanation", lines=True)
    assert game is not None and map_id is not None and mode is not None  # else a problem was raised
    score = _score(r, doc["score"], game, map_id, mode)
    _summary_agrees(doc["players"], score)
    return game_id, Scored(score, explanation, played_at, map_id, mode)


def _summary_agrees(summary: object, score: GameScore) -> None:
    """The ``players`` of an exported game must be what its score says: names, totals, who won."""
    from printkit.history.model import name_key

    winners = {name_key(w) for w in score.winners}
    want = [{"name": p.name, "total": p.total, "won": name_key(p.name) in winners} for p in score.players]
    if not isinstance(summary, list) or len(summary) != len(want):
        raise _Bad("players", f"expected the {len(want)} players of the score, got {_describe(summary)}")
    for i, (got, should) in enumerate(zip(summary, want)):
        if got != should:
            raise _Bad(f"players[{i}]", f"{_short(got)}, but the score says {_short(should)}")


def _short(value: object) -> str:
    from printkit.model.names import shown

    return shown(value, 120)


def import_(data: bytes | BinaryIO, source: str = "import", db: FilePath | None = None) -> int:
    """Add the games of a JSON export not already in the history, in one transaction; how many were added.

    The export is read a game at a time; a file with any game that is not one
    printkit would write (naming the game and the field) adds nothing.
    """
    from printkit.history.queries import insert
    from printkit.loading.jsonstream import json_members

    stream = io.BytesIO(data) if isinstance(data, bytes) else data
    header: dict[str, Any] = {}
    r = _reader()
    added = 0
    found = False
    with connect(db) as conn, transaction(conn):
        try:
            for key, value in json_members(stream, source, "games", GAME_CHARS):
                if key != "games":
                    header[key] = value
                    continue
                _header(header, source, value)
                found = True
                for i, entry in enumerate(value):
                    try:
                        game_id, result = _game(r, entry)
                    except _Bad as exc:
                        field, why = exc.args
                        named = f" (id {_short(entry['id'])})" if isinstance(entry, dict) and "id" in entry else ""
                        raise DataError([f"{source}: games[{i}]{named}: {field}: {why}; nothing was imported"]
                                        ) from None
                    added += insert(conn, game_id, result)
        except DataError as exc:
            line = exc.problems[0]
            if line.endswith("; nothing was imported"):
                raise
            raise _not_history(source, line.removeprefix(f"{source}: ")) from None
        if not found:
            _header(header, source, None)
    return added


def import_file(path: str, db: FilePath | None = None) -> tuple[int, str]:
    """:func:`import_` of the export at ``path``, read a game at a time: the games added, and the file as messages
    name it."""
    from printkit.loading.text import open_source

    stream, source = open_source(path)
    with stream:
        return import_(stream, source, db), source


def _header(header: dict[str, Any], source: str, games: object) -> None:
    """Refuse a file whose ``format`` and ``version`` (before its ``games``) are not printkit's export's."""
    if header.get("format") != FORMAT or games is None or isinstance(games, (dict, str, int, float, bool)):
        raise _not_history(source, f'expected a JSON object with "format": "{FORMAT}" and "games"')
    if header.get("version") != FORMAT_VERSION:
        raise _not_history(source, f"version {header.get('version')!r}; this printkit reads version {FORMAT_VERSION}")
