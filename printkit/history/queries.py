"""Recording, listing, showing and forgetting games, and each player's bests."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from printkit.errors import StateError
from printkit.files import FilePath
from printkit.history.model import Best, PlayerResult, Recorded, Scored, Summary, name_key
from printkit.history.store import connect, transaction

MIN_PREFIX = 4  # the fewest characters of an id that `show` and `forget` take as a prefix of one


def insert(conn: sqlite3.Connection, game_id: str, result: Scored) -> bool:
    """Add one game inside the caller's transaction; False if its id is already there."""
    if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
        return False
    score = result.score
    conn.execute("INSERT INTO games (id, game, map, mode, played_at, explanation, score) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (game_id, score.game, result.map, result.mode, result.played_at, result.explanation,
                  json.dumps(score.to_json(), ensure_ascii=False, sort_keys=True)))
    winners = {name_key(n) for n in score.winners}
    conn.executemany("INSERT INTO players (game_id, seat, name, name_key, total, won) VALUES (?, ?, ?, ?, ?, ?)",
                     [(game_id, seat, p.name, name_key(p.name), p.total, int(name_key(p.name) in winners))
                      for seat, p in enumerate(score.players)])
    return True


def record(game_id: str, result: Scored, db: FilePath | None = None) -> bool:
    """Keep a scored game under ``game_id`` in one transaction; False (and nothing changed) if it is there already."""
    if not game_id or not isinstance(game_id, str):
        raise ValueError("a recorded game needs an id")
    with connect(db) as conn, transaction(conn):
        return insert(conn, game_id, result)


SUMMARY = ("SELECT g.id, g.game, g.map, g.mode, g.played_at, p.name, p.total, p.won FROM games g "
           "LEFT JOIN players p ON p.game_id = g.id")
"""A game's summary, a row per player (a game's rows together, its players in seat order, when so ordered)."""


def _summaries(rows: Iterable[tuple[str, str, str, str, str, str | None, int, int]]) -> list[Summary]:
    """The games of :data:`SUMMARY`'s rows (a game's rows one after another)."""
    import itertools

    found = []
    for _, group in itertools.groupby(rows, key=lambda r: r[0]):
        game = list(group)
        game_id, kind, map_id, mode, played_at = game[0][:5]
        found.append(Summary(game_id, kind, map_id, mode, played_at,
                             tuple(PlayerResult(n, t, bool(w)) for *_, n, t, w in game if n is not None)))
    return found


def _where(filters: Iterable[tuple[str, str | None]]) -> tuple[str, list[str]]:
    """The SQL condition of the filters given (a clause with one ``?`` each, skipped when its value is None)."""
    given = [(clause, value) for clause, value in filters if value is not None]
    return " AND ".join(["1", *(clause for clause, _ in given)]), [value for _, value in given]


def _summary(conn: sqlite3.Connection, game_id: str) -> Summary:
    """The summary of the recorded game ``game_id`` (a full id)."""
    return _summaries(conn.execute(f"{SUMMARY} WHERE g.id = ? ORDER BY p.seat", (game_id,)))[0]


def games(map: str | None = None, player: str | None = None, db: FilePath | None = None) -> list[Summary]:
    """Every recorded game, newest first; only those on ``map``, or with ``player`` (both ignoring case)."""
    where, args = _where([("lower(g.map) = lower(?)", map),
                          ("EXISTS (SELECT 1 FROM players q WHERE q.game_id = g.id AND q.name_key = ?)",
                           None if player is None else name_key(player))])
    with connect(db) as conn:
        return _summaries(conn.execute(f"{SUMMARY} WHERE {where} ORDER BY g.played_at DESC, g.rowid DESC, p.seat",
                                       args))


def _resolve(conn: sqlite3.Connection, game_id: str) -> str:
    """The one recorded id that is ``game_id`` or, from :data:`MIN_PREFIX` characters, begins with it."""
    if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
        return game_id
    found: list[str] = []
    if len(game_id) >= MIN_PREFIX:
        pattern = game_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        found = [r[0] for r in conn.execute(
            "SELECT id FROM games WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 3", (pattern,))
            if r[0].startswith(game_id)]  # LIKE ignores ASCII case; ids do not
    if len(found) == 1:
        return found[0]
    from printkit.model.names import shown

    if found:
        raise StateError(f"game id {shown(game_id)} is the start of more than one game ({', '.join(found)}, ...): "
                         "give more of it")
    raise StateError(f"no game {shown(game_id)} in the history (printkit history lists them)")


def show(game_id: str, db: FilePath | None = None) -> Recorded:
    """The recorded game ``game_id`` (or the one whose id begins with it): summary, explanation, score JSON."""
    with connect(db) as conn:
        full = _resolve(conn, game_id)
        explanation, score = conn.execute("SELECT explanation, score FROM games WHERE id = ?", (full,)).fetchone()
        summary = _summary(conn, full)
    loaded: dict[str, Any] = json.loads(score)
    return Recorded(summary, explanation, loaded)


def forget(game_id: str, db: FilePath | None = None) -> Summary:
    """Remove the recorded game ``game_id`` (or the one whose id begins with it); the game forgotten."""
    with connect(db) as conn, transaction(conn):
        full = _resolve(conn, game_id)
        summary = _summary(conn, full)
        conn.execute("DELETE FROM players WHERE game_id = ?", (full,))
        conn.execute("DELETE FROM games WHERE id = ?", (full,))
    return summary


AVERAGE_DIGITS = 1


def bests(map: str | None = None, mode: str | None = None, db: FilePath | None = None) -> list[Best]:
    """Per player (ignoring case) and map and mode: games, wins, best and average total.

    Sorted by map and mode, then most wins, best average, name; a player is
    named as in their newest game.
    """
    where, args = _where([("lower(g.map) = lower(?)", map), ("lower(g.mode) = lower(?)", mode)])
    with connect(db) as conn:
        rows = conn.execute(
            "SELECT p.name_key, g.map, g.mode, count(*), sum(p.won), max(p.total), avg(p.total), "
            "(SELECT q.name FROM players q JOIN games h ON h.id = q.game_id WHERE q.name_key = p.name_key "
            " AND h.map = g.map AND h.mode = g.mode ORDER BY h.played_at DESC, h.rowid DESC LIMIT 1) "
            f"FROM players p JOIN games g ON g.id = p.game_id WHERE {where} "
            "GROUP BY p.name_key, g.map, g.mode", args).fetchall()
    found = [Best(name, map_id, game_mode, count, wins, best, round(average, AVERAGE_DIGITS))
             for _, map_id, game_mode, count, wins, best, average, name in rows]
    return sorted(found, key=lambda b: (b.map, b.mode, -b.wins, -b.average, name_key(b.name)))
