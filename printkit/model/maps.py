"""Typed, immutable model of a game map. Imports nothing else of printkit.

A map is regions, cities and routes, plus the scoring sections printed beside
it. Every section of marks is a :class:`Track`: one row per kind (a souvenir,
a sight, an animal), one column per level (1st mark, 2nd mark, ...).

The parts, :class:`Projection` and :class:`GameMap` are typed ``NamedTuple``s,
immutable (change one with ``._replace``). Annotations are evaluated (no ``from __future__ import annotations``):
``typing.NamedTuple`` compiles every string annotation, and building these
classes is on the way of every command that loads a map.
"""

from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal, NamedTuple

from printkit.model.dice import Dice as Dice  # its own module (fast start); re-exported for GameMap.dice
from printkit.model.words import id_index, match_in

RegionScoringMode = Literal["table", "per_region", "majority"]
Mode = Literal["multiplayer", "solo", "party"]


class Kind(NamedTuple):
    """One kind of mark: a souvenir, sight or animal type, drawn with an icon."""

    id: str
    name: str
    icon: str


class Majority(NamedTuple):
    """Bonus per kind for the player with strictly most marks, or each tied player."""

    most: int
    tied: int


class Track(NamedTuple):
    """A scoring section of rows (kinds) by columns (levels).

    ``row_points[m]`` is what a row with ``m`` marks scores (length ``boxes + 1``);
    ``column_points`` is paid per completed column; ``majority`` and
    ``first_bonus`` are the South America animal bonuses. ``cities_per_kind``
    (if set) is how many cities print each kind (South America animals: 5/3/1).
    """

    id: str
    name: str
    kinds: tuple[Kind, ...]
    boxes: int
    row_points: tuple[int, ...]
    column_points: int = 0
    majority: Majority | None = None
    first_bonus: int = 0
    cities_per_kind: int | None = None

    def kind(self, kind_id: str) -> Kind:
        """The kind with this id (KeyError if absent)."""
        for k in self.kinds:
            if k.id == kind_id:
                return k
        raise KeyError(kind_id)

    @property
    def kind_ids(self) -> tuple[str, ...]:
        """Ids of this track's kinds, in sheet order."""
        return tuple(k.id for k in self.kinds)


class Region(NamedTuple):
    """A region: its cities' souvenirs and (Europe) its majority reward."""

    id: str
    name: str
    souvenirs: tuple[str, ...]
    reward: int | None = None


class City(NamedTuple):
    """A city on the map; iconic cities belong to no region and show no sights."""

    id: str
    name: str
    lat: float
    lon: float
    region: str | None
    sights: tuple[str, ...]
    iconic: bool = False

    @property
    def can_start(self) -> bool:
        """Whether a player may star this city as their start."""
        return not self.iconic


class Route(NamedTuple):
    """An undirected route between two city ids (stored with a <= b)."""

    a: str
    b: str

    def other(self, city_id: str) -> str:
        """The city at the other end of this route."""
        return self.b if city_id == self.a else self.a


class RegionScoring(NamedTuple):
    """How visited regions score.

    ``table``: ``table[n]`` for n completed regions (World, South America);
    ``per_region``: ``points`` per completed region (US);
    ``majority``: each region's reward to the player with most cities visited,
    ``tied`` each to players tied for most (Europe). In solo/party mode a
    majority region pays its reward when all its cities were visited.
    """

    mode: RegionScoringMode
    table: tuple[int, ...] = ()
    points: int = 0
    tied: int = 0


class Rating(NamedTuple):
    """A solo/party rating title for totals of at least ``min_points``."""

    min_points: int
    title: str


class SoloRules(NamedTuple):
    """Solo/party mode: number of turns and the rating chart (best first)."""

    turns: int
    ratings: tuple[Rating, ...]

    def rating(self, total: int) -> str:
        """The rating title for a solo/party total."""
        for r in self.ratings:
            if total >= r.min_points:
                return r.title
        return self.ratings[-1].title


class Inset(NamedTuple):
    """A far-off area (Alaska, Hawaii) drawn in its own small box on the map.

    ``bounds`` is the lon/lat area it shows (lon_min, lat_min, lon_max, lat_max);
    ``box`` is where it sits, as fractions (x, y, w, h) of the map box, y down.
    """

    bounds: tuple[float, float, float, float]
    box: tuple[float, float, float, float]
    name: str = ""


class Projection(NamedTuple):
    """How the map sheet projects latitude/longitude (parameters in degrees).

    Places inside an inset's bounds are drawn in that inset's box instead.
    """

    name: Literal["natural-earth", "albers", "laea"]
    center_lon: float = 0.0
    center_lat: float = 0.0
    parallels: tuple[float, float] = (0.0, 0.0)
    bounds: tuple[float, float, float, float] = (-180.0, -60.0, 180.0, 85.0)
    outline: str = "world"
    insets: tuple[Inset, ...] = ()


class _MapFields(NamedTuple):
    """The fields of a :class:`GameMap`, in order."""

    id: str
    name: str
    collect: Track
    explore: tuple[Track, ...]
    regions: tuple[Region, ...]
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    region_scoring: RegionScoring
    end_cities_per_region: int
    speed_bonus: int
    solo: SoloRules
    projection: Projection
    title: str
    series: str
    min_multiplayer: int
    max_multiplayer: int
    dice: Dice
    explore_key: str
    iconic_table: tuple[int, ...] = ()
    source: str = ""


class GameMap(_MapFields):
    """A whole Around the World map: board, sections and end condition.

    ``title`` is the printed title (``Around the US in 15 Minutes``), ``series``
    the game's (``Around the World in 15 Minutes``); multiplayer is for
    ``min_multiplayer``..``max_multiplayer`` players; ``explore_key`` is what a
    game file calls a player's Explore marks (``sights`` or ``animals``).
    A named tuple of :class:`_MapFields` (change one with ``._replace``) whose
    city, region and kind indexes are built on first use, once per map.
    """

    @cached_property
    def _city_index(self) -> dict[str, City]:
        return {c.id: c for c in self.cities}

    @cached_property
    def _region_index(self) -> dict[str | None, tuple[City, ...]]:
        index: dict[str | None, tuple[City, ...]] = {}
        for c in self.cities:  # every region's cities, in file order (scoring asks for them per player)
            index[c.region] = (*index.get(c.region, ()), c)
        return index

    @cached_property
    def _region_by_id(self) -> dict[str, Region]:
        return {r.id: r for r in reversed(self.regions)}  # a repeated id: its first region, as a scan finds it

    @cached_property
    def _city_ids_folded(self) -> dict[str, str]:
        return id_index([c.id for c in self.cities])

    @cached_property
    def _kinds_by_section(self) -> dict[str, dict[str, tuple[Track, Kind]]]:
        def index(tracks: tuple[Track, ...]) -> dict[str, tuple[Track, Kind]]:
            return {k.id: (t, k) for t in tracks for k in t.kinds}  # a repeated id: its last track's kind

        return {"collect": index((self.collect,)), "explore": index(self.explore)}

    def city(self, city_id: str) -> City:
        """The city with this id (KeyError if absent)."""
        return self._city_index[city_id]

    def match_city_id(self, value: object) -> str | None:
        """The city id ``value`` names, in any case (``London`` is ``london``), as ``match_id`` finds it, or None."""
        return match_in(value, self._city_ids_folded)

    def region(self, region_id: str) -> Region:
        """The region with this id (KeyError if absent)."""
        return self._region_by_id[region_id]

    @cached_property
    def region_ids(self) -> tuple[str, ...]:
        """Ids of the regions, in file order."""
        return tuple(r.id for r in self.regions)

    def section_kinds(self, section: Literal["collect", "explore"]) -> Mapping[str, tuple[Track, Kind]]:
        """The kinds of the Collect track, or of every Explore track, by id with their track, in sheet order."""
        return self._kinds_by_section[section]

    def region_cities(self, region_id: str) -> tuple[City, ...]:
        """Cities of a region, in file order."""
        return self._region_index.get(region_id, ())

    @cached_property
    def region_sizes(self) -> Mapping[str, int]:
        """How many cities each region has, by region id."""
        return {r.id: len(self.region_cities(r.id)) for r in self.regions}

    def every_region_visited(self, visited: Mapping[str, int]) -> bool:
        """Whether every region has at least ``end_cities_per_region`` cities visited (the end condition)."""
        need = self.end_cities_per_region
        return all(visited.get(i, 0) >= need for i in self.region_ids)

    @cached_property
    def iconic_cities(self) -> tuple[City, ...]:
        """Cities that belong to no region (US shields)."""
        return tuple(c for c in self.cities if c.iconic)

    @cached_property
    def tracks(self) -> tuple[Track, ...]:
        """All mark sections: Collect first, then the Explore tracks."""
        return (self.collect, *self.explore)

    def neighbours(self, city_id: str) -> tuple[str, ...]:
        """Cities one route away, in route order."""
        return tuple(r.other(city_id) for r in self.routes if city_id in (r.a, r.b))

    def kind(self, kind_id: str) -> Kind:
        """The souvenir, sight or animal kind with this id (KeyError if absent)."""
        for track in self.tracks:
            for k in track.kinds:
                if k.id == kind_id:
                    return k
        raise KeyError(kind_id)

    def find_city(self, text: str) -> City | None:
        """The city whose id or name matches ``text`` (case-insensitive), if any."""
        if text in self._city_index:
            return self._city_index[text]
        wanted = text.strip().casefold()
        for c in self.cities:
            if wanted in (c.id, c.name.casefold()):
                return c
        return None

    def to_json(self) -> dict[str, Any]:
        """The whole map as plain JSON data with stable keys (``maps show --json``)."""
        return {
            "id": self.id,
            "name": self.name,
            "regions": [
                {
                    "id": r.id,
                    "name": r.name,
                    "cities": [c.id for c in self.region_cities(r.id)],
                    "souvenirs": list(r.souvenirs),
                    "reward": r.reward,
                }
                for r in self.regions
            ],
            "cities": [
                {
                    "id": c.id,
                    "name": c.name,
                    "lat": c.lat,
                    "lon": c.lon,
                    "region": c.region,
                    "sights": list(c.sights),
                    "iconic": c.iconic,
                }
                for c in self.cities
            ],
            "iconic_cities": [c.id for c in self.iconic_cities],
            "routes": [[r.a, r.b] for r in self.routes],
            "collect": _track_json(self.collect),
            "explore": [_track_json(t) for t in self.explore],
            "region_scoring": {
                "mode": self.region_scoring.mode,
                "table": list(self.region_scoring.table),
                "points": self.region_scoring.points,
                "tied": self.region_scoring.tied,
            },
            "iconic_table": list(self.iconic_table),
            "end": {"cities_per_region": self.end_cities_per_region},
            "speed_bonus": self.speed_bonus,
            "solo": {
                "turns": self.solo.turns,
                "ratings": [{"min_points": r.min_points, "title": r.title} for r in self.solo.ratings],
            },
            "projection": {
                "name": self.projection.name,
                "center_lon": self.projection.center_lon,
                "center_lat": self.projection.center_lat,
                "parallels": list(self.projection.parallels),
                "bounds": list(self.projection.bounds),
                "outline": self.projection.outline,
                "insets": [{"name": i.name, "bounds": list(i.bounds), "box": list(i.box)} for i in self.projection.insets],
            },
        }


def _track_json(t: Track) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "kinds": [{"id": k.id, "name": k.name, "icon": k.icon} for k in t.kinds],
        "boxes": t.boxes,
        "row_points": list(t.row_points),
        "column_points": t.column_points,
        "majority": None if t.majority is None else {"most": t.majority.most, "tied": t.majority.tied},
        "first_bonus": t.first_bonus,
        "cities_per_kind": t.cities_per_kind,
    }
