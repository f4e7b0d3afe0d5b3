"""Read the other travel games' data files into :mod:`printkit.model.games`.

Each game's facts live in ``maps/<game>.toml``. The loaders here validate a
file completely with the map loader's field readers and report every problem
as ``<file>: <field>: <message>``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from printkit.errors import DataError
from printkit.loading.fields import Problems, Reader, describe
from printkit.model.games import (
    AbbyRules,
    Card,
    EndTrigger,
    Globetrotting,
    Space,
    Special,
    TileType,
    Trekking,
    Wereldsteden,
)


def check(problems: Problems) -> None:
    """Raise DataError listing every problem, if any."""
    if len(problems):
        raise DataError(problems.lines)


def game_path(game_id: str) -> Path:
    """The bundled data file of a game."""
    from printkit.resources import data_dir

    return data_dir("maps") / f"{game_id}.toml"


T = TypeVar("T")


def _load(name_or_path: str, game_id: str, build: Callable[[dict[str, Any], str], T]) -> T:
    """Read a game's data file (bundled when ``name_or_path`` is its id) and check that it is that game."""
    from printkit.loading.text import read_toml

    doc, source = read_toml(game_path(game_id) if name_or_path == game_id else Path(name_or_path))
    if doc.get("id") != game_id:
        raise DataError([f"{source}: id: expected {game_id}, got {describe(doc.get('id'))}"])
    return build(doc, source)


def load_trekking(name_or_path: str = "trekking-the-world") -> Trekking:
    """Trekking the World's data (bundled unless a path is given)."""
    return _load(name_or_path, "trekking-the-world", _trekking)


def load_globetrotting(name_or_path: str = "globetrotting") -> Globetrotting:
    """Globetrotting's data (bundled unless a path is given)."""
    return _load(name_or_path, "globetrotting", _globetrotting)


def load_wereldsteden(name_or_path: str = "wereldsteden") -> Wereldsteden:
    """Wereldsteden's data (bundled unless a path is given)."""
    return _load(name_or_path, "wereldsteden", _wereldsteden)


def _ints(r: Reader, doc: dict[str, Any], names: tuple[str, ...], minimum: int) -> dict[str, int]:
    out = {}
    for name in names:
        value = r.integer(doc, name, "", minimum=minimum)
        if value is not None:
            out[name] = value
    return out


def _texts(r: Reader, table: dict[str, Any], path: str, names: tuple[str, ...]) -> dict[str, str] | None:
    """The text fields ``names`` of a table (unknown keys reported), or None if any is bad."""
    r.keys(table, path, names)
    out = {name: r.string(table, name, path) for name in names}
    return None if any(v is None for v in out.values()) else {k: v for k, v in out.items() if v is not None}


def _trekking(doc: dict[str, Any], source: str) -> Trekking:
    problems = Problems()
    r = Reader(problems, source)
    names = ("min_players", "max_players", "money_cap", "tour_slots", "max_end_trigger")
    r.keys(doc, "", ("id", "name", *names, "end_trigger", "suitcase"))
    name = r.string(doc, "name", "")
    n = _ints(r, doc, names, minimum=1)
    triggers: list[EndTrigger] = []
    for path, t in r.tables(doc, "end_trigger", ""):
        r.keys(t, path, ("players", "tours"))
        players, tours = r.ints(t, "players", path, minimum=1), r.integer(t, "tours", path, minimum=1)
        if players is not None and tours is not None:
            if tours > n.get("max_end_trigger", tours):
                r.problem(f"{path}.tours", f"{tours} is above max_end_trigger {n['max_end_trigger']}")
            triggers.append(EndTrigger(players, tours))
    covered = sorted(p for t in triggers for p in t.players)
    if "min_players" in n and "max_players" in n and covered != list(range(n["min_players"], n["max_players"] + 1)):
        r.problem("end_trigger", f"must give each player count {n['min_players']}..{n['max_players']} exactly once")
    if "tour_slots" in n and "max_end_trigger" in n and n["tour_slots"] < n["max_end_trigger"] + 1:
        r.problem("tour_slots", f"{n['tour_slots']} leaves no room for {n['max_end_trigger']} tours plus one round")
    suitcase = r.table(doc, "suitcase", "")
    check_text, points = None, None
    if suitcase is not None:
        r.keys(suitcase, "suitcase", ("check", "points"))
        check_text, points = r.string(suitcase, "check", "suitcase"), r.ints(suitcase, "points", "suitcase", minimum=0)
    check(problems)
    assert name is not None and check_text is not None and points is not None
    return Trekking(id=doc["id"], name=name, **n, end_triggers=tuple(triggers),
                    suitcase_points=points, suitcase_check=check_text, source=source)


def _globetrotting(doc: dict[str, Any], source: str) -> Globetrotting:
    problems = Problems()
    r = Reader(problems, source)
    names = ("min_players", "max_players", "flights", "objectives_in_play", "objective_first",
             "objective_later", "airfare_bonus", "bucket_cards_min", "bucket_cards_max",
             "festival_max_players", "festivals_per_season", "companions_per_season")
    r.keys(doc, "", ("id", "name", "seasons", "abby", *names))
    name = r.string(doc, "name", "")
    n = _ints(r, doc, names, minimum=0)
    seasons = r.listing(doc, "seasons", "", "a list of season names")
    if seasons is not None and not all(isinstance(x, str) and x.strip() for x in seasons):
        r.problem("seasons", "expected a list of season names")
    abby_names = ("per_bucket_card", "festivals", "objectives_turn", "airfare_bonus")
    abby = r.table(doc, "abby", "")
    a: dict[str, int] = {}
    if abby is not None:
        r.keys(abby, "abby", abby_names)
        a = {k: v for k in abby_names if (v := r.integer(abby, k, "abby", minimum=0)) is not None}
    check(problems)
    assert name is not None and seasons is not None
    return Globetrotting(id=doc["id"], name=name, **n, seasons=tuple(seasons), abby=AbbyRules(**a), source=source)


def _wereldsteden(doc: dict[str, Any], source: str) -> Wereldsteden:
    problems = Problems()
    r = Reader(problems, source)
    names = ("min_players", "max_players", "win_tiles", "variant_win_tiles", "tiles_per_type", "start_coins")
    r.keys(doc, "", ("id", "name", "tiles", "spaces", "distinct", "actions", "special", "cards", *names))
    name = r.string(doc, "name", "")
    n = _ints(r, doc, names, minimum=1)
    tiles = [TileType(**t) for p, x in r.tables(doc, "tiles", "") if (t := _texts(r, x, p, ("id", "name", "city", "stack")))]
    spaces = [Space(**t) for p, x in r.tables(doc, "spaces", "") if (t := _texts(r, x, p, ("id", "city", "stack")))]
    special = [Special(**t) for p, x in r.tables(doc, "special", "") if (t := _texts(r, x, p, ("city", "name", "text")))]
    cards = [Card(**t) for p, x in r.tables(doc, "cards", "") if (t := _texts(r, x, p, ("name", "text")))]
    for i, space in enumerate(spaces):
        if space.stack not in {t.stack for t in tiles}:
            r.problem(f"spaces[{i}].stack", f"no tiles have stack {space.stack!r}")
    for what, ids in (("tiles", [t.id for t in tiles]), ("spaces", [s.id for s in spaces])):
        for dup in sorted({x for x in ids if ids.count(x) > 1}):
            r.problem(what, f"id {dup!r} is used twice")
    groups: list[tuple[str, ...]] = []
    for i, group in enumerate(r.listing(doc, "distinct", "", "a list of lists of space ids") or []):
        known = {s.id for s in spaces}
        if not isinstance(group, list) or len(set(group)) != len(group) or any(x not in known for x in group):
            r.problem(f"distinct[{i}]", f"expected a list of different space ids, got {group!r}")
        else:
            groups.append(tuple(group))
    actions = r.table(doc, "actions", "") or {}
    r.keys(actions, "actions", ("buy", "sell", "extra_flight", "extra_flight_cost"))
    lists = {k: r.listing(actions, k, "actions", "a list of city names") for k in ("buy", "sell", "extra_flight")}
    cost = r.integer(actions, "extra_flight_cost", "actions", minimum=0)
    pairs = lists["extra_flight"] or []
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
        r.problem("actions.extra_flight", "expected pairs of city names, e.g. [\"Santiago\", \"Darwin\"]")
    check(problems)
    assert name is not None and cost is not None
    return Wereldsteden(
        id=doc["id"], name=name, **n, tiles=tuple(tiles), spaces=tuple(spaces), distinct=tuple(groups),
        buy=tuple(lists["buy"] or ()), sell=tuple(lists["sell"] or ()),
        extra_flight=tuple((a, b) for a, b in pairs), extra_flight_cost=cost,
        special=tuple(special), cards=tuple(cards), source=source,
    )
