"""Typed data of the other travel games: Trekking the World, Globetrotting, Wereldsteden.

Each game's facts live in ``maps/<game>.toml`` (read by :mod:`printkit.loading.games`).
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------- Trekking


@dataclass(frozen=True)
class EndTrigger:
    """Tours that signal the end for these player counts."""

    players: tuple[int, ...]
    tours: int


@dataclass(frozen=True)
class Trekking:
    """Trekking the World: player counts, money cap, end trigger, suitcase table."""

    id: str
    name: str
    min_players: int
    max_players: int
    money_cap: int
    tour_slots: int
    max_end_trigger: int
    end_triggers: tuple[EndTrigger, ...]
    suitcase_points: tuple[int, ...]
    suitcase_check: str
    source: str = ""

    def suitcase_score(self, columns: int) -> int:
        """Points beneath the right-most completely filled suitcase column (0 for none)."""
        return self.suitcase_points[columns - 1] if columns else 0

    def end_trigger(self, players: int) -> int:
        """Tours that signal the end in a game of ``players`` (KeyError if none)."""
        for t in self.end_triggers:
            if players in t.players:
                return t.tours
        raise KeyError(players)


# ----------------------------------------------------------- Globetrotting


@dataclass(frozen=True)
class AbbyRules:
    """How the solo opponent Abby scores."""

    per_bucket_card: int
    festivals: int
    objectives_turn: int
    airfare_bonus: int


@dataclass(frozen=True)
class Globetrotting:
    """Globetrotting: flights, seasons, objective/airfare points, festivals, Abby."""

    id: str
    name: str
    min_players: int
    max_players: int
    flights: int
    seasons: tuple[str, ...]
    objectives_in_play: int
    objective_first: int
    objective_later: int
    airfare_bonus: int
    bucket_cards_min: int
    bucket_cards_max: int
    festival_max_players: int
    festivals_per_season: int
    companions_per_season: int
    abby: AbbyRules
    source: str = ""

    def uses_festivals(self, players: int) -> bool:
        """Whether a game of ``players`` uses the Festival tile (else Travel Companions)."""
        return players <= self.festival_max_players


# ------------------------------------------------------------ Wereldsteden


@dataclass(frozen=True)
class TileType:
    """A winning-tile type: its souvenir picture, buy city and stack colour."""

    id: str
    name: str
    city: str
    stack: str


@dataclass(frozen=True)
class Space:
    """A display space for one winning tile on the board."""

    id: str
    city: str
    stack: str


@dataclass(frozen=True)
class Special:
    """A special location and its action."""

    city: str
    name: str
    text: str


@dataclass(frozen=True)
class Card:
    """One card of a player's set."""

    name: str
    text: str


@dataclass(frozen=True)
class Wereldsteden:
    """Wereldsteden: tiles, stacks, display spaces, city actions and cards."""

    id: str
    name: str
    min_players: int
    max_players: int
    win_tiles: int
    variant_win_tiles: int
    tiles_per_type: int
    start_coins: int
    tiles: tuple[TileType, ...]
    spaces: tuple[Space, ...]
    distinct: tuple[tuple[str, ...], ...]
    buy: tuple[str, ...]
    sell: tuple[str, ...]
    extra_flight: tuple[tuple[str, str], ...]
    extra_flight_cost: int
    special: tuple[Special, ...]
    cards: tuple[Card, ...]
    source: str = ""

    @property
    def stacks(self) -> tuple[str, ...]:
        """Stack colours in file order."""
        return tuple(dict.fromkeys(t.stack for t in self.tiles))

    def tile(self, tile_id: str) -> TileType:
        """The tile type with this id (KeyError if absent)."""
        for t in self.tiles:
            if t.id == tile_id:
                return t
        raise KeyError(tile_id)

    def space(self, space_id: str) -> Space:
        """The display space with this id (KeyError if absent)."""
        for s in self.spaces:
            if s.id == space_id:
                return s
        raise KeyError(space_id)
