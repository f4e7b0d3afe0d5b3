"""Read a Globetrotting game record (checked against the game's data).

A game file (TOML or JSON) looks like::

    game = "globetrotting"
    objectives = ["Six continents", "All four types"]   # optional: the two in play
    [[players]]
    name = "Ann"
    airfares = [3, 4, 2, 5, 3, 4, 2, 3, 1]   # the 9 flights (or: airfare = 27, the total)
    objectives = { "Six continents" = 4 }    # turn (1-9) each objective was achieved
    bucket_list = [3, 4]                     # printed points of each completed card (or a total)
    festivals = [1, 2, 0]                    # 1-2 players: marks per season (or a total)
    # companions = [1, 0, 2]                 # 3-4 players: Travel Companion marks per season
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from printkit.errors import DataError
from printkit.loading.fields import Problems, Reader, describe
from printkit.loading.games import load_globetrotting
from printkit.model.games import Globetrotting
from printkit.model.records import GlobePlayer, GlobetrottingRecord

TOP_KEYS = ("game", "objectives", "players")
PLAYER_KEYS = ("name", "airfares", "airfare", "objectives", "bucket_list", "festivals", "companions")


def read_record(doc: dict[str, Any], source: str, base_dir: Path) -> GlobetrottingRecord:
    """Check a ``game = "globetrotting"`` record against the bundled game data."""
    return read_players(load_globetrotting(), doc, source)


def read_season_marks(r: Reader, value: Any, path: str, seasons: Sequence[str], per_season: int) -> int | None:
    """Marks per season (a list, each at most ``per_season``) or a total; None if bad."""
    if isinstance(value, list):
        if len(value) != len(seasons):
            r.problem(path, f"expected {len(seasons)} numbers ({', '.join(seasons)}), got {len(value)}")
            return None
        counts = [r.check_int(v, f"{path}[{i}]", 0) for i, v in enumerate(value)]
        for i, (season, n) in enumerate(zip(seasons, counts)):
            if n is not None and n > per_season:
                r.problem(f"{path}[{i}]", f"{n} in {season}, at most {per_season} per season")
                return None
        return None if None in counts else sum(n for n in counts if n is not None)
    n = r.check_int(value, path, 0)
    if n is not None and n > per_season * len(seasons):
        r.problem(path, f"{n} is above the most possible, {per_season} per season x {len(seasons)}")
        return None
    return n


def _objectives(r: Reader, game: Globetrotting, row: dict[str, Any], path: str) -> dict[str, int] | None:
    table = r.table(row, "objectives", path, required=False)
    if table is None:
        return None if "objectives" in row else {}
    out: dict[str, int] = {}
    for name, turn in table.items():
        t = r.check_int(turn, f"{path}.objectives.{name}", 1)
        if t is not None and t > game.flights:
            r.problem(f"{path}.objectives.{name}", f"turn {t}, but the game has {game.flights} turns")
        elif t is not None:
            out[name] = t
    return out if len(out) == len(table) else None


def _airfare(r: Reader, game: Globetrotting, row: dict[str, Any], path: str) -> int | None:
    if "airfares" in row and "airfare" in row:
        r.problem(path, f"give airfares (the {game.flights} flights) or airfare (their total), not both")
        return None
    if "airfare" in row:
        return r.integer(row, "airfare", path, minimum=0)
    fares = r.ints(row, "airfares", path, minimum=0)
    if fares is not None and len(fares) != game.flights:
        r.problem(f"{path}.airfares", f"{len(fares)} flights, expected {game.flights}")
        return None
    return None if fares is None else sum(fares)


def read_players(game: Globetrotting, doc: dict[str, Any], source: str) -> GlobetrottingRecord:
    """Check a record against the game's data: its players."""
    problems = Problems()
    r = Reader(problems, source)
    r.keys(doc, "", TOP_KEYS)
    rows = r.tables(doc, "players", "")
    if len(rows) == 1:
        r.problem("players", "1 player: score a solo game against Abby with `printkit abby score`")
    elif not 2 <= len(rows) <= game.max_players:
        r.problem("players", f"{len(rows)} players, but {game.name} is for 2-{game.max_players} (or solo)")
    festivals = game.uses_festivals(len(rows))
    marks_key, wrong_key = ("festivals", "companions") if festivals else ("companions", "festivals")
    per_season = game.festivals_per_season if festivals else game.companions_per_season
    names = _objective_names(r, game, doc)
    players: list[GlobePlayer] = []
    seen: list[str] = []
    for path, row in rows:
        r.keys(row, path, PLAYER_KEYS)
        name = r.player_name(row, path, seen)
        airfare = _airfare(r, game, row, path)
        objectives = _objectives(r, game, row, path)
        for o in objectives or {}:
            if names is not None and o not in names:
                r.problem(f"{path}.objectives.{o}", f"not one of the objectives in play ({', '.join(names)})")
        bucket = row.get("bucket_list", [])
        cards = () if "bucket_list" not in row else r.ints(row, "bucket_list", path, minimum=0) if isinstance(bucket, list) else (
            None if (t := r.integer(row, "bucket_list", path, minimum=0)) is None else (t,))
        if cards is not None and len(cards) > game.bucket_cards_max:
            r.problem(f"{path}.bucket_list", f"{len(cards)} cards, but a player has at most {game.bucket_cards_max}")
        if wrong_key in row:
            r.problem(f"{path}.{wrong_key}", f"a {len(rows)}-player game uses {marks_key}, not {wrong_key}")
        marks = read_season_marks(r, row.get(marks_key, 0), f"{path}.{marks_key}", game.seasons, per_season)
        if None not in (name, airfare, objectives, cards, marks):
            players.append(GlobePlayer(name, airfare, objectives, cards, marks))  # type: ignore[arg-type]
    used = sorted({o for p in players for o in p.objectives})
    if names is None and "objectives" not in doc and len(used) > game.objectives_in_play:
        r.problem("objectives", f"{len(used)} different objectives named ({', '.join(used)}), "
                  f"but only {game.objectives_in_play} are in play")  # fmt: skip
    if len(problems):
        raise DataError(problems.lines)
    return GlobetrottingRecord(game, tuple(players))


def _objective_names(r: Reader, game: Globetrotting, doc: dict[str, Any]) -> list[str] | None:
    """The names of the objectives in play, if the record lists them."""
    if "objectives" not in doc:
        return None
    names = doc["objectives"]
    if not isinstance(names, list) or len(names) != game.objectives_in_play or not all(isinstance(n, str) for n in names):
        r.problem("objectives", f"expected the names of the {game.objectives_in_play} objectives in play, "
                  f"got {describe(names)}")  # fmt: skip
        return None
    return names
