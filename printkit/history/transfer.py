"""The history as a file: CSV for a spreadsheet, JSON to move it to another machine (and import it there)."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

from printkit.errors import DataError
from printkit.files import FilePath
from printkit.history.model import Scored, utc_time
from printkit.history.store import connect, transaction

if TYPE_CHECKING:
    from printkit.rules.report import GameScore

FORMAT = "printkit-history"
"""The ``format`` key of a JSON export: a file without it is not printkit's history."""
FORMAT_VERSION = 1
CSV_HEADER = ("game_id", "played_at", "game", "map", "mode", "player", "total", "won")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet: it gets a leading ``'``."""


def _rows(db: FilePath | None) -> list[dict[str, Any]]:
    """Every game, oldest first, as the JSON export writes it."""
    with connect(db) as conn:
        games = conn.execute("SELECT id, game, map, mode, played_at, explanation, score FROM games "
                             "ORDER BY played_at, rowid").fetchall()
        found = []
        for game_id, game, map_id, mode, played_at, explanation, score in games:
            players = conn.execute("SELECT name, total, won FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
            found.append({"id": game_id, "game": game, "map": map_id, "mode": mode, "played_at": played_at,
                          "players": [{"name": n, "total": t, "won": bool(w)} for n, t, w in players],
                          "explanation": explanation, "score": json.loads(score)})
    return found


def _cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_START) else value


def export(fmt: str, db: FilePath | None = None) -> bytes:
    """The whole history as ``csv`` (a header, one row per player per game) or ``json`` (what import_ reads)."""
    games = _rows(db)
    if fmt == "json":
        doc = {"format": FORMAT, "version": FORMAT_VERSION, "games": games}
        return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    if fmt != "csv":
        raise ValueError(f"unknown export format {fmt!r}: csv or json")
    out = io.StringIO(newline="")
    writer = csv.writer(out)  # RFC 4180: CRLF line ends, fields quoted as needed
    writer.writerow(CSV_HEADER)
    for g in games:
        for p in g["players"]:
            writer.writerow([g["id"], g["played_at"], _cell(g["game"]), _cell(g["map"]), _cell(g["mode"]),
                             _cell(p["name"]), p["total"], int(p["won"])])
    return out.getvalue().encode("utf-8")


def _text(game: dict[str, Any], key: str, where: str) -> str:
    value = game.get(key)
    if not isinstance(value, str):
        raise _not_history(where, f"{key}: expected text")
    return value


def _not_history(where: str, problem: str) -> DataError:
    return DataError([f"{where}: not a printkit history export ({problem}); nothing was imported"])


def _score(score: Any, where: str) -> GameScore:
    """The score JSON of an exported game (``score --json``'s shape) as a GameScore; its totals must add up."""
    from printkit.model.names import name_problem
    from printkit.rules.report import GameScore, PlayerScore, Section

    try:
        players = tuple(PlayerScore(p["name"], tuple(Section(str(k), str(k), int(v), "")
                                                     for k, v in dict(p["sections"]).items()), p.get("rating"))
                        for p in score["players"])
        result = GameScore(str(score["game"]), str(score["map"]), str(score["mode"]), players,
                           tuple(str(w) for w in score["winners"]), str(score.get("tiebreak", "")),
                           tuple(str(w) for w in score.get("warnings", ())))
        totals = [p["total"] for p in score["players"]]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _not_history(where, f"score: {type(exc).__name__} {exc}") from None
    for p, total in zip(players, totals):
        problem = name_problem(p.name) if isinstance(p.name, str) else "a player name is not text"
        if problem is None and (p.total != total or not isinstance(p.rating, (str, type(None)))):
            problem = f"player {p.name!r}: the total is not the sum of the sections"
        if problem:
            raise _not_history(where, problem)
    return result


def _game(entry: object, where: str) -> tuple[str, Scored]:
    """One game of an export, checked, as record() takes it."""
    if not isinstance(entry, dict):
        raise _not_history(where, "expected an object")
    game_id = _text(entry, "id", where)
    if not game_id:
        raise _not_history(where, "id: expected text")
    try:
        played_at = utc_time(_text(entry, "played_at", where))
    except ValueError as exc:
        raise _not_history(where, f"played_at: {exc}") from None
    result = _score(entry.get("score"), where)
    return game_id, Scored(result, _text(entry, "explanation", where), played_at, _text(entry, "map", where),
                           _text(entry, "mode", where))


def import_(data: bytes, source: str = "import", db: FilePath | None = None) -> int:
    """Add the games of a JSON export not already in the history (one transaction); how many were added."""
    from printkit.history.queries import insert

    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _not_history(source, f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("games"), list):
        raise _not_history(source, f'expected a JSON object with "format": "{FORMAT}" and "games"')
    if doc.get("version") != FORMAT_VERSION:
        raise _not_history(source, f"version {doc.get('version')!r}; this printkit reads version {FORMAT_VERSION}")
    games = [_game(g, f"{source}: games[{i}]") for i, g in enumerate(doc["games"])]
    with connect(db) as conn, transaction(conn):
        return sum(insert(conn, game_id, result) for game_id, result in games)
