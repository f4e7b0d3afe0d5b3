"""Read a Trekking the World game record (checked against the game's data).

A game file (TOML or JSON) looks like::

    game = "trekking-the-world"
    # end_trigger = 6          # optional house rule (rulebook: 5 tours for 2-3 players, 4 for 4-5)
    [[players]]
    name = "Ann"
    tours = [22, 9, 14]        # the points of each Tour card
    encounters = [3, 2]        # "At game's end" Encounter points (a list or a total)
    suitcase_columns = 3       # completely filled columns (or: suitcase = 6, the points)
    money = 7                  # dollars left, for the tie-break
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printkit.errors import DataError
from printkit.loading.fields import Problems, Reader
from printkit.loading.games import load_trekking
from printkit.model.games import Trekking
from printkit.model.records import TrekkingPlayer, TrekkingRecord

TOP_KEYS = ("game", "end_trigger", "players")
PLAYER_KEYS = ("name", "tours", "encounters", "suitcase_columns", "suitcase", "money")


def read_record(doc: dict[str, Any], source: str, base_dir: Path) -> TrekkingRecord:
    """Check a ``game = "trekking-the-world"`` record against the bundled game data."""
    return read_players(load_trekking(), doc, source)


def _points(r: Reader, table: dict[str, Any], key: str, path: str) -> tuple[int, ...] | None:
    """A list of points, or a single total (as a one-item tuple)."""
    value = table.get(key, [])
    if isinstance(value, list):
        return r.ints(table, key, path, minimum=0) if key in table else ()
    total = r.integer(table, key, path, minimum=0)
    return None if total is None else (total,)


def read_players(game: Trekking, doc: dict[str, Any], source: str) -> TrekkingRecord:
    """Check a record against the game's data: its players and the end trigger in force."""
    problems = Problems()
    r = Reader(problems, source)
    r.keys(doc, "", TOP_KEYS)
    rows = r.tables(doc, "players", "")
    count = len(rows)
    trigger: int | None = None
    if not game.min_players <= count <= game.max_players:
        r.problem("players", f"{count} players, but {game.name} is for {game.min_players}-{game.max_players}")
    else:
        trigger = game.end_trigger(count)
        if "end_trigger" in doc:
            wanted = r.integer(doc, "end_trigger", "")
            if wanted is not None and wanted > game.max_end_trigger:
                r.problem("end_trigger", f"{wanted} is above the house-rule maximum of {game.max_end_trigger} tours")
            elif wanted is not None and wanted < trigger:
                r.problem("end_trigger", f"{wanted} is below the {trigger} tours of a {count}-player game "
                          "(a house rule may only raise it)")  # fmt: skip
            trigger = wanted
    players: list[TrekkingPlayer] = []
    seen: list[str] = []
    for path, row in rows:
        r.keys(row, path, PLAYER_KEYS)
        name = r.player_name(row, path, seen)
        tours = r.ints(row, "tours", path, minimum=0)
        encounters = _points(r, row, "encounters", path)
        money = r.integer(row, "money", path, minimum=0)
        if money is not None and money > game.money_cap:
            r.problem(f"{path}.money", f"{money} is above the ${game.money_cap} cap")
        if tours is not None and trigger is not None and len(tours) > trigger + 1:
            r.problem(f"{path}.tours", f"{len(tours)} tours, but the game ends at the {_nth(trigger)} tour "
                      f"(at most {trigger + 1} counting the last round)")  # fmt: skip
        columns, points = _suitcase(r, game, row, path)
        if None not in (name, tours, encounters, money, points):
            players.append(TrekkingPlayer(name, tours, encounters, columns, points, money))  # type: ignore[arg-type]
    if len(problems):
        raise DataError(problems.lines)
    assert trigger is not None
    return TrekkingRecord(game, tuple(players), trigger)


def _nth(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _suitcase(r: Reader, game: Trekking, row: dict[str, Any], path: str) -> tuple[int | None, int | None]:
    """(full columns or None, suitcase points) from ``suitcase_columns`` or ``suitcase``."""
    if "suitcase_columns" in row and "suitcase" in row:
        r.problem(path, "give suitcase_columns or suitcase (points), not both")
        return None, None
    if "suitcase" in row:
        return None, r.integer(row, "suitcase", path, minimum=0)
    columns = r.integer(row, "suitcase_columns", path, minimum=0)
    if columns is not None and columns > len(game.suitcase_points):
        r.problem(f"{path}.suitcase_columns", f"{columns} is more than the {len(game.suitcase_points)} suitcase columns")
        return None, None
    return columns, None if columns is None else game.suitcase_score(columns)
