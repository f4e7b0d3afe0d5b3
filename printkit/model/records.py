"""Typed records of played games: each game's data model and its players' marks.

A record is what a game file says, checked against the game's data by
:mod:`printkit.loading.records`; :mod:`printkit.rules` scores it.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

# Annotations are evaluated (typing.NamedTuple compiles every string annotation): only the names imported
# for annotations alone are quoted.
if TYPE_CHECKING:  # annotations only: `printkit turns` imports the rules without the map model
    from printkit.model.games import Globetrotting, Trekking, Wereldsteden
    from printkit.model.maps import GameMap, Mode, Track


NO_MARKS: Mapping[str, Mapping[str, int]] = MappingProxyType({})  # read-only empty defaults, shared safely
NO_VISITS: Mapping[str, int] = MappingProxyType({})


class PlayerMarks(NamedTuple):
    """One player's finished Around the World sheet: marks per track and kind, places visited."""

    name: str
    marks: Mapping[str, Mapping[str, int]] = NO_MARKS
    visited: Mapping[str, int] = NO_VISITS
    iconic: int = 0
    returned: bool = False
    finished_turn: int | None = None
    first: frozenset[str] = frozenset()
    start_city: str | None = None
    final_city: str | None = None

    def marks_in(self, track: "Track", kind_id: str) -> int:
        """Marks in one row of a track (0 when not given)."""
        return self.track_marks(track).get(kind_id, 0)

    def track_marks(self, track: "Track") -> Mapping[str, int]:
        """Marks per row of one track, by kind id (a row not given is absent)."""
        return self.marks.get(track.id, {})


class AtwRecord(NamedTuple):
    """An Around the World game: its map, mode and every player's marks."""

    map: "GameMap"
    mode: "Mode"
    players: tuple[PlayerMarks, ...]

    @property
    def title(self) -> str:
        """The printed title: the map's, e.g. ``Around the US in 15 Minutes``."""
        return self.map.title


class TrekkingPlayer(NamedTuple):
    """One player's end-of-game values; ``suitcase_columns`` None means points given directly."""

    name: str
    tours: tuple[int, ...]
    encounters: tuple[int, ...]
    suitcase_columns: int | None
    suitcase_points: int
    money: int


class TrekkingRecord(NamedTuple):
    """A Trekking the World game: the game's data, the players and the end trigger in force."""

    game: "Trekking"
    players: tuple[TrekkingPlayer, ...]
    end_trigger: int

    @property
    def title(self) -> str:
        """The printed title, the game's name."""
        return self.game.name


class GlobePlayer(NamedTuple):
    """One player's passport: total airfare, objective turns, bucket points, season marks."""

    name: str
    airfare: int
    objectives: Mapping[str, int]
    bucket_list: tuple[int, ...]
    marks: int


class GlobetrottingRecord(NamedTuple):
    """A Globetrotting game (2-4 players): the game's data and the players."""

    game: "Globetrotting"
    players: tuple[GlobePlayer, ...]

    @property
    def title(self) -> str:
        """The printed title, the game's name."""
        return self.game.name


class WereldstedenPlayer(NamedTuple):
    """One player's winning tiles taken, by tile id (duplicates included)."""

    name: str
    tiles: tuple[str, ...]


class WereldstedenRecord(NamedTuple):
    """A Wereldsteden game: the game's data, the players and whether the 8-tile variant is played.

    ``source`` names the game file, for the message when the record shows two winners.
    """

    game: "Wereldsteden"
    players: tuple[WereldstedenPlayer, ...]
    variant: bool = False
    source: str = ""

    @property
    def title(self) -> str:
        """The printed title, the game's name."""
        return self.game.name
