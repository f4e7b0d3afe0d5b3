"""Read an Around the World game record into an :class:`~printkit.model.records.AtwRecord`.

Every field is checked against the record's map; every problem is collected
and reported at once as ``<file>: <field.path>: <message>`` (a
:class:`~printkit.errors.DataError`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from printkit.errors import DataError, UnknownMapError, did_you_mean
from printkit.loading.fields import player_name_problem
from printkit.model import graph
from printkit.model.limits import MAX_PLAYERS
from printkit.model.maps import GameMap, Mode
from printkit.model.names import printable, shorten, shown
from printkit.model.records import AtwRecord, PlayerMarks
from printkit.model.words import match_id

MODES: tuple[Mode, ...] = ("multiplayer", "solo", "party")
TOP_KEYS = ("game", "map", "mode", "players")
# file key -> which tracks it marks ("collect" or all "explore" tracks)
MARK_KEYS = {"souvenirs": "collect", "sights": "explore", "animals": "explore"}
ROUTE_GIVES = ("visited", "returned", "iconic", "start_city", "final_city")
PLAYER_KEYS = (
    "name", "souvenirs", "sights", "animals", "visited", "returned", "route",
    "iconic", "finished_turn", "first_rare", "start_city", "final_city",
)  # fmt: skip
_PLAYER_KEYS = frozenset(PLAYER_KEYS)


def map_label(m: GameMap) -> str:
    """``the World map`` for a map named ``Around the World``."""
    return f"the {m.name.removeprefix('Around ').removeprefix('the ')} map"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (dict, list)):
        return "a table" if isinstance(value, dict) else "a list"
    return shown(value) if isinstance(value, str) else shorten(str(value))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class RecordReader:
    """Checks one record's fields against a map, collecting problems."""

    def __init__(self, m: GameMap, source: str, mode: Mode) -> None:
        self.m = m
        self.source = source
        self.mode = mode
        self.problems: list[str] = []
        self.names: list[str] = []

    def bad(self, path: str, message: str) -> None:
        """Record one problem."""
        self.problems.append(f"{self.source}: {printable(path)}: {message}")

    def count(self, path: str, value: Any, top: int, what: str) -> int | None:
        """A whole number 0..top, else a problem."""
        if not _whole(value) or value < 0:
            self.bad(path, f"expected a whole number of {what} 0..{top}, got {_shown(value)}")
            return None
        return cast(int, value)

    def marks(self, path: str, value: Any, key: str) -> dict[str, dict[str, int]]:
        """Marks per kind for the tracks a file key covers, checked against the rows."""
        kinds = self.m.section_kinds("collect" if MARK_KEYS[key] == "collect" else "explore")
        noun = key.removesuffix("s")
        if not isinstance(value, dict):
            self.bad(path, f"expected a table of {noun} marks like {{ {next(iter(kinds), 'x')} = 1 }}, got {_shown(value)}")
            return {}
        out: dict[str, dict[str, int]] = {}
        for kind_id, n in value.items():
            found = kinds.get(kind_id)
            if found is not None and type(n) is int and 0 <= n <= found[0].boxes:  # the usual case, checked at once
                out.setdefault(found[0].id, {})[kind_id] = n
                continue
            where = f"{path}.{kind_id}"
            if found is None:
                self.bad(where, f"{kind_id!r} is not a{'n' if noun[0] in 'aeiou' else ''} {noun} of "
                         f"{map_label(self.m)} ({key}: {', '.join(kinds)})")  # fmt: skip
                continue
            track, name = found[0], found[1].name
            got = self.count(where, n, track.boxes, "marks")
            if got is None:
                continue
            if got > track.boxes:
                box = "box" if track.boxes == 1 else "boxes"
                self.bad(where, f"{got} marks, but the {name} row has only {track.boxes} {box}")
                continue
            out.setdefault(track.id, {})[kind_id] = got
        return out

    def visited(self, path: str, value: Any) -> dict[str, int]:
        """Cities visited per region, at most the region's number of cities."""
        if not isinstance(value, dict):
            self.bad(path, f"expected a table of cities visited per region like {{ {self.m.regions[0].id} = 1 }}, "
                     f"got {_shown(value)}")  # fmt: skip
            return {}
        out: dict[str, int] = {}
        ids = self.m.region_ids
        for region_id, n in value.items():
            where = f"{path}.{region_id}"
            if region_id not in ids:
                self.bad(where, f"{region_id!r} is not a region of {map_label(self.m)} (regions: {', '.join(ids)})")
                continue
            size = self.m.region_sizes[region_id]
            if type(n) is int and 0 <= n <= size:  # the usual case, checked at once
                out[region_id] = n
                continue
            got = self.count(where, n, size, "cities")
            if got is not None and got > size:
                self.bad(where, f"{got} cities visited, but {self.m.region(region_id).name} has only {size} cities")
            elif got is not None:
                out[region_id] = got
        return out

    def city(self, path: str, value: Any, start: bool = False) -> str | None:
        """A city id of the map (a possible starting city if ``start``)."""
        if not isinstance(value, str):
            self.bad(path, f"expected a city id like {self.m.cities[0].id!r}, got {_shown(value)}")
            return None
        city_id = self.m.match_city_id(value)
        if city_id is None:
            ids = [c.id for c in self.m.cities]
            self.bad(path, f"unknown city {_shown(value)} on {map_label(self.m)}{did_you_mean(value, ids)}")
            return None
        city = self.m.city(city_id)
        if start and not city.can_start:
            self.bad(path, f"{city.name} is an iconic city and cannot be a starting city")
            return None
        return city_id

    def route(self, path: str, value: Any, marks: dict[str, Any]) -> None:
        """Check a route and fill in what it gives: visited, iconic, returned, cities."""
        if not isinstance(value, list) or not value:
            got = "an empty list" if value == [] else _shown(value)
            self.bad(path, f"expected a list of city ids, starting city first, got {got}")
            return
        cities = [self.city(f"{path}[{i}]", c, start=i == 0) for i, c in enumerate(value)]
        if any(c is None for c in cities):
            return
        check = graph.check_route(self.m, cast(list[str], cities))
        if not check.ok:
            self.bad(path, check.message)
            return
        seen = set(check.visited)
        marks["visited"] = {
            r.id: sum(1 for c in self.m.region_cities(r.id) if c.id in seen) for r in self.m.regions
        }
        marks["iconic"] = sum(1 for c in self.m.iconic_cities if c.id in seen)
        marks["returned"] = len(value) > 1 and value[-1] == value[0]
        marks["start_city"], marks["final_city"] = value[0], value[-1]

    def player(self, i: int, doc: Any) -> PlayerMarks | None:
        """One ``[[players]]`` table as marks, or None after recording problems."""
        at = f"players[{i}]"
        if not isinstance(doc, dict):
            self.bad(at, f"expected a table with the player's name and marks, got {_shown(doc)}")
            return None
        before = len(self.problems)
        for key in doc:
            if key not in _PLAYER_KEYS:
                self.bad(f"{at}.{key}", f"unknown key (expected one of: {', '.join(PLAYER_KEYS)})")
        name = doc.get("name")
        problem = player_name_problem(name, self.names) if "name" in doc else "missing (expected the player's name)"
        if problem is not None:
            self.bad(f"{at}.name", problem)
        else:
            self.names.append(cast(str, name).strip())
        if "sights" in doc and "animals" in doc:
            self.bad(f"{at}.animals", "give either sights or animals, not both")
        fields: dict[str, Any] = {"marks": {}}
        for key in MARK_KEYS:
            if key in doc:
                fields["marks"].update(self.marks(f"{at}.{key}", doc[key], key))
        if "route" in doc:
            for key in ROUTE_GIVES:
                if key in doc:
                    self.bad(f"{at}.{key}", "not allowed with route (the route gives it)")
            self.route(f"{at}.route", doc["route"], fields)
        self.places(at, doc, fields)
        if "route" not in doc and len(self.problems) == before:
            self.truth(at, doc, fields)
        self.finish(at, doc, fields)
        if len(self.problems) > before:
            return None
        return PlayerMarks(name=cast(str, name).strip(), **fields)

    def places(self, at: str, doc: dict[str, Any], fields: dict[str, Any]) -> None:
        """visited / returned / iconic / start_city / final_city given directly."""
        if "visited" in doc:
            fields["visited"] = self.visited(f"{at}.visited", doc["visited"])
        if "returned" in doc:
            if isinstance(doc["returned"], bool):
                fields["returned"] = doc["returned"]
            else:
                self.bad(f"{at}.returned", f"expected true or false, got {_shown(doc['returned'])}")
        if "iconic" in doc:
            top = len(self.m.iconic_cities)
            if not self.m.iconic_table:
                self.bad(f"{at}.iconic", f"{map_label(self.m)} has no iconic cities")
            else:
                got = self.count(f"{at}.iconic", doc["iconic"], top, "iconic cities")
                if got is not None and got > top:
                    self.bad(f"{at}.iconic", f"{got} iconic cities visited, but the map has only {top}")
                elif got is not None:
                    fields["iconic"] = got
        for key in ("start_city", "final_city"):
            if key in doc:
                fields[key] = self.city(f"{at}.{key}", doc[key], start=key == "start_city")
        for key, what in (("start_city", "starting"), ("final_city", "final")):
            city = fields.get(key)
            region = self.m.city(city).region if isinstance(city, str) and "visited" in doc else None
            if region is not None and fields.get("visited", {}).get(region, 0) < 1:
                self.bad(f"{at}.visited.{region}", f"0 cities visited, but the {what} city "
                         f"{self.m.city(cast(str, city)).name} is in {self.m.region(region).name}")  # fmt: skip

    def truth(self, at: str, doc: dict[str, Any], fields: dict[str, Any]) -> None:
        """Places that cannot all be true (RULINGS.md: the start counts as visited; returned = back after leaving)."""
        start, final, returned = fields.get("start_city"), fields.get("final_city"), fields.get("returned")
        cities = sum(fields.get("visited", {}).values()) + fields.get("iconic", 0) if "visited" in doc else None
        if cities == 0:
            self.bad(f"{at}.visited", "no city visited (the starting city counts as visited from the start)")
        elif cities is not None and not sum(fields.get("visited", {}).values()):
            self.bad(f"{at}.visited", "no city of a region visited, only iconic cities (the starting city counts as "
                     "visited from the start, and it is never an iconic city)")
        elif returned and cities == 1:
            self.bad(f"{at}.returned", "true, but only the starting city is visited "
                     "(returned means back at the start after leaving it)")  # fmt: skip
        elif returned and start and final and final != start:
            self.bad(f"{at}.returned", f"true, but final_city {self.m.city(final).name} is not the starting city "
                     f"{self.m.city(start).name}")  # fmt: skip
        elif not returned and start and final == start and (cities or 0) > 1:
            self.bad(f"{at}.returned", f"{'false' if 'returned' in doc else 'missing'}, but final_city is the "
                     f"starting city {self.m.city(start).name} after leaving it: give returned = true")  # fmt: skip

    def finish(self, at: str, doc: dict[str, Any], fields: dict[str, Any]) -> None:
        """finished_turn (solo/party) and first_rare (multiplayer first bonus)."""
        done = bool(fields.get("returned")) and self.m.every_region_visited(fields.get("visited", {}))
        turns = self.m.solo.turns
        if "finished_turn" in doc:
            turn = doc["finished_turn"]
            if self.mode == "multiplayer":
                self.bad(f"{at}.finished_turn", "only used in solo/party mode")
            elif not _whole(turn) or not 1 <= turn <= turns:
                self.bad(f"{at}.finished_turn", f"expected a turn 1..{turns}, got {_shown(turn)}")
            elif not done:
                need = f"every region needs {self.m.end_cities_per_region}+ visited and the player back at the start"
                self.bad(f"{at}.finished_turn", f"the trip is not finished ({need})")
            else:
                fields["finished_turn"] = turn
        elif self.mode != "multiplayer" and done:
            self.bad(f"{at}.finished_turn", f"missing: the trip is finished, give the turn it ended on (1..{turns})")
        if "first_rare" in doc:
            self.first(f"{at}.first_rare", doc["first_rare"], fields)

    def first(self, path: str, value: Any, fields: dict[str, Any]) -> None:
        """Kinds this player marked first (tracks with a first bonus only)."""
        tracks = [t for t in self.m.tracks if t.first_bonus]
        if not tracks:
            self.bad(path, f"{map_label(self.m)} has no first-to-mark bonus")
            return
        if not isinstance(value, list):
            self.bad(path, f"expected a list of ids like [{tracks[0].kind_ids[0]!r}], got {_shown(value)}")
            return
        ids = {k: t for t in tracks for k in t.kind_ids}
        marks: Mapping[str, Mapping[str, int]] = fields["marks"]
        firsts: set[str] = set()
        for j, kind_id in enumerate(value):
            where = f"{path}[{j}]"
            if not isinstance(kind_id, str) or kind_id not in ids:
                self.bad(where, f"{_shown(kind_id)} has no first bonus on {map_label(self.m)} "
                         f"(first_rare: {', '.join(ids)})")  # fmt: skip
            elif marks.get(ids[kind_id].id, {}).get(kind_id, 0) < 1:
                self.bad(where, f"{kind_id!r} is not marked, so it cannot have been marked first")
            else:
                firsts.add(kind_id)
        fields["first"] = frozenset(firsts)


def players_count_problem(m: GameMap, mode: Mode, n: int) -> str | None:
    """Why ``n`` players cannot play in ``mode`` on ``m``, or None if they can."""
    low, high = m.min_multiplayer, m.max_multiplayer
    if n == 0:
        return "at least one player is needed"
    if n > MAX_PLAYERS:
        return f"at most {MAX_PLAYERS} players can play one game, got {n}"
    if mode == "solo" and n > 1:
        return f"solo mode is for 1 player, got {n} (a group playing with the dice is party mode)"
    if mode == "multiplayer" and not low <= n <= high:
        hint = "one player plays solo mode" if n < 2 else f"{n} players play party mode"
        return f"multiplayer is for {low}-{high} players, got {n} ({hint})"
    if mode == "party" and n < 2:
        return "party mode is for 2 or more players, got 1 (one player plays solo mode)"
    return None


def resolve_map(value: Any, source: str, base_dir: Path) -> GameMap:
    """The record's map: a bundled id or a map file (relative to the record)."""
    from printkit.loading.maps import bundled_maps, is_map_path, load_map

    if isinstance(value, str) and not is_map_path(value):  # a bundled id (no bundled id ends in .toml or has a slash)
        try:
            return load_map(value)
        except UnknownMapError as exc:
            raise DataError([f"{source}: map: {exc.message}"]) from None
    if isinstance(value, str) and value.endswith(".toml"):
        path = Path(value) if Path(value).is_absolute() else base_dir / value
        if os.path.lexists(path):  # the reader refuses folders, pipes, devices and link loops
            return load_map(str(path))
        raise DataError([f"{source}: map: map file {str(path)!r} not found"])
    raise DataError([f"{source}: map: {UnknownMapError.describe(value, bundled_maps())}"])


def read_record(doc: dict[str, Any], source: str, base_dir: Path) -> AtwRecord:
    """Check a whole record: map (a map file relative to ``base_dir``), mode and players; every problem at once."""
    problems = [f"{source}: {k}: unknown key (expected one of: {', '.join(TOP_KEYS)})" for k in doc if k not in TOP_KEYS]
    m = resolve_map(doc.get("map"), source, base_dir)
    players = doc.get("players")
    if not isinstance(players, list):
        got = "nothing" if players is None else _shown(players)
        raise DataError([*problems, f"{source}: players: expected a list of [[players]] tables, got {got}"])
    default: Mode = "solo" if len(players) == 1 else "party" if len(players) > m.max_multiplayer else "multiplayer"
    mode_id = match_id(doc.get("mode", default), MODES)
    if mode_id is None:
        raise DataError([*problems, f"{source}: mode: expected one of {', '.join(MODES)}, got {_shown(doc.get('mode'))}"])
    mode = cast(Mode, mode_id)
    count_problem = players_count_problem(m, mode, len(players))
    if count_problem:
        problems.append(f"{source}: players: {count_problem}")
    reader = RecordReader(m, source, mode)
    read = [reader.player(i, p) for i, p in enumerate(players)]
    problems.extend(reader.problems)
    if problems:
        raise DataError(problems)
    return AtwRecord(m, mode, tuple(p for p in read if p is not None))


def player_table(
    m: GameMap, name: str, souvenirs: Mapping[str, int], explored: Mapping[str, int], *,
    route: list[str] | None = None, visited: Mapping[str, int] | None = None, iconic: int | None = None,
    returned: bool | None = None, finished_turn: int | None = None, first_rare: list[str] | None = None,
) -> dict[str, Any]:
    """One player's ``[[players]]`` table of a game file on ``m``, as :func:`read_record` reads it back.

    The one builder of that table (typed-in marks, a scan, the tests): keys in
    a game file's order, the explored kinds under the map's own key
    (``sights`` or ``animals``), the optional ones only when given.
    """
    table: dict[str, Any] = {"name": name, "souvenirs": dict(souvenirs), m.explore_key: dict(explored)}
    optional: dict[str, Any] = {"route": route, "visited": None if visited is None else dict(visited),
                                "iconic": iconic, "returned": returned, "finished_turn": finished_turn,
                                "first_rare": first_rare or None}
    table.update({k: v for k, v in optional.items() if v is not None})
    return table
