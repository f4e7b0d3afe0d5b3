"""A solo/party game turn by turn: rolls, finished players, undo and the end.

Pure logic over a :class:`Game`, which is what the turn tracker saves. The
game is its list of events (a roll per turn, a player's finish, an early end),
so undo just drops the last event, and every turn's dice come from
``dice.turn_roll(table, seed, turn)``: an undone turn rolls the same dice again.
"""

from typing import TYPE_CHECKING, Any, NamedTuple, TypeGuard

from printkit.errors import InputError, RuleError, corrupt_state
from printkit.model.dice import Dice
from printkit.model.limits import LARGEST, MAX_SEED
from printkit.model.names import duplicate_problem, is_id, name_problem, plain
from printkit.rules.dice import Roll, turn_roll

if TYPE_CHECKING:
    from printkit.model.maps import GameMap



def speed_bonus(turns: int, turn: int) -> int:
    """The one solo/party speed bonus rule (``rules.atw.solo_speed_bonus``), for the tracker's callers."""
    from printkit.rules.atw import solo_speed_bonus  # here, so `turns next` does not load the scoring rules

    return solo_speed_bonus(turns, turn)
STATE_KIND = "turns"
MAX_PLAYERS = 100
MAX_TURNS = 99  # a saved game's turn count (the solo game has 20)


class UnknownPlayerError(RuleError):
    """A name that is not one of the game's players."""


class MapInfo(NamedTuple):
    """What the tracker needs from a map, copied into the state at start (the dice table is not saved)."""

    id: str
    name: str
    turns: int
    end_cities_per_region: int
    ratings: tuple[tuple[int, str], ...]
    dice: Dice

    def end_condition(self) -> str:
        """The finish condition in words, e.g. ``visited 2 cities in every region``."""
        n = self.end_cities_per_region
        cities = "1 city" if n == 1 else f"{n} cities"
        return f"visited at least {cities} in every region and returned to the starting city"


class Event(NamedTuple):
    """One thing that happened: ``roll`` (with dice), ``finish`` (a player) or ``end``."""

    kind: str
    turn: int
    dice: tuple[int, int] | None = None
    player: str | None = None

    def roll(self, table: Dice) -> Roll:
        """The dice of a roll event, read with the dice ``table``."""
        assert self.dice is not None
        return Roll(*self.dice, table)


def map_info(game_map: "GameMap") -> MapInfo:
    """The facts of a loaded map that a tracked game keeps."""
    ratings = tuple((r.min_points, r.title) for r in game_map.solo.ratings)
    return MapInfo(
        game_map.id, game_map.name, game_map.solo.turns, game_map.end_cities_per_region, ratings, game_map.dice
    )


def check_players(names: list[str]) -> tuple[str, ...]:
    """Validate player names by the one name rule (:mod:`printkit.model.names`), 1..100 of them (InputError ``players``)."""
    if not names:
        raise InputError("players", "give at least one player name")
    if len(names) > MAX_PLAYERS:
        raise InputError("players", f"{len(names)} players given; at most {MAX_PLAYERS} can play")
    problem = next((p for p in map(name_problem, names) if p is not None), None) or duplicate_problem(names)
    if problem is not None:
        raise InputError("players", problem)
    return tuple(names)


def navigator_note(game_map: "GameMap", players: int) -> str | None:
    """The rulebook's Navigator for a multiplayer-sized group, in words; None for solo/party sizes."""
    low, high = game_map.min_multiplayer, game_map.max_multiplayer
    if not low <= players <= high:
        return None
    return f"with {low}-{high} players the rulebook uses a Navigator; playing with the dice anyway"


def rating_bands(ratings: tuple[tuple[int, str], ...]) -> list[tuple[str, str]]:
    """The rating chart as (points, title) rows, best first: ``70 or more``, ``60-69``, ..."""
    ordered = sorted(ratings, key=lambda r: -r[0])
    rows: list[tuple[str, str]] = []
    for i, (low, title) in enumerate(ordered):
        if i == 0:
            rows.append((f"{low} or more", title))
        elif i == len(ordered) - 1 and low <= 0:
            rows.append((f"{ordered[i - 1][0] - 1} or less", title))
        else:
            rows.append((f"{low}-{ordered[i - 1][0] - 1}", title))
    return rows


class Game:
    """A tracked solo/party game: map facts, players, seed and events so far."""

    def __init__(self, map: MapInfo, players: tuple[str, ...], seed: int, events: list[Event] | None = None) -> None:
        self.map = map
        self.players = players
        self.seed = seed
        self.events: list[Event] = list(events or [])

    @property
    def mode(self) -> str:
        """``solo`` for one player, else ``party``."""
        return "solo" if len(self.players) == 1 else "party"

    @property
    def turn(self) -> int:
        """The current turn: how many turns have been rolled (0 before the first)."""
        return sum(1 for e in self.events if e.kind == "roll")

    @property
    def finished(self) -> dict[str, int]:
        """Finished players and the turn each came home, in finishing order."""
        return {e.player: e.turn for e in self.events if e.kind == "finish" and e.player}

    @property
    def travelling(self) -> tuple[str, ...]:
        """Players still on their trip, in seating order."""
        done = self.finished
        return tuple(p for p in self.players if p not in done)

    @property
    def ended_early(self) -> bool:
        """Whether the host ended the game before its natural end."""
        return any(e.kind == "end" for e in self.events)

    @property
    def over(self) -> bool:
        """After the last turn, when everyone has finished, or when ended by the host."""
        return self.turn >= self.map.turns or not self.travelling or self.ended_early

    def over_reason(self) -> str:
        """Why the game is over, in words (empty while it goes on)."""
        if not self.travelling:
            return f"every player has finished their trip (after turn {self.turn} of {self.map.turns})"
        if self.turn >= self.map.turns:
            return f"all {self.map.turns} turns have been played"
        if self.ended_early:
            return f"the host ended it after turn {self.turn} of {self.map.turns}"
        return ""

    def last_roll(self) -> Roll | None:
        """The dice of the current turn, if any was rolled."""
        for e in reversed(self.events):
            if e.kind == "roll":
                return e.roll(self.map.dice)
        return None

    def next_turn(self) -> Roll:
        """Roll the next turn's dice and move the turn marker."""
        if self.over:
            raise RuleError(f"the game is over: {self.over_reason()}; nothing was changed")
        r = turn_roll(self.map.dice, self.seed, self.turn + 1)
        self.events.append(Event("roll", self.turn + 1, dice=r.dice))
        return r

    def player(self, name: str) -> str:
        """The player called ``name`` (ignoring case), as spelled at start."""
        key = name.strip().casefold()
        for p in self.players:
            if p.casefold() == key:
                return p
        shown = ", ".join(self.players[:10]) + (f" and {len(self.players) - 10} more" if len(self.players) > 10 else "")
        raise UnknownPlayerError(f"no player named {name!r} in this game; players: {shown}")

    def finish(self, name: str) -> tuple[str, int, int]:
        """Record that a player is back home on the current turn: (name, turn, bonus)."""
        who = self.player(name)
        if who in self.finished:
            raise RuleError(f"{who} already finished on turn {self.finished[who]}; nothing was changed")
        if self.turn == 0:
            raise RuleError("no turn has been played yet; roll turn 1 with `printkit turns next`")
        if self.ended_early:
            raise RuleError(f"the game is over: {self.over_reason()}; `printkit turns undo` reopens it")
        self.events.append(Event("finish", self.turn, player=who))
        return who, self.turn, speed_bonus(self.map.turns, self.turn)

    def end(self) -> bool:
        """End the game now if it is still going; True if this changed anything."""
        if self.over:
            return False
        self.events.append(Event("end", self.turn))
        return True

    def undo(self) -> Event:
        """Take back the last roll, finish or end, and return it."""
        if not self.events:
            raise RuleError("nothing to undo: no turn has been played yet (turn 0)")
        return self.events.pop()


def to_state(game: Game) -> dict[str, Any]:
    """The saved form of a game (without the kind/format tags added by the state writer)."""
    events: list[dict[str, Any]] = []
    for e in game.events:
        doc: dict[str, Any] = {"event": e.kind, "turn": e.turn}
        if e.dice is not None:
            doc["dice"] = list(e.dice)
        if e.player is not None:
            doc["player"] = e.player
        events.append(doc)
    return {
        "map": {
            "id": game.map.id,
            "name": game.map.name,
            "turns": game.map.turns,
            "end_cities_per_region": game.map.end_cities_per_region,
            "ratings": [{"min_points": p, "title": t} for p, t in game.map.ratings],
        },
        "players": list(game.players),
        "seed": game.seed,
        "events": events,
    }


def from_state(doc: dict[str, Any], source: str, dice: Dice) -> Game:
    """Rebuild a game from its saved form, rolling with ``dice``; StateError naming the bad field if corrupt."""
    m = doc.get("map")
    if not isinstance(m, dict):
        raise corrupt_state(source, "map", "a table")
    ratings_raw = m.get("ratings")
    if not isinstance(ratings_raw, list):
        raise corrupt_state(source, "map.ratings", "a list")
    ratings: list[tuple[int, str]] = []
    for i, r in enumerate(ratings_raw):
        if not (isinstance(r, dict) and _is_int(r.get("min_points")) and 0 <= r["min_points"] <= LARGEST
                and plain(r.get("title"))):
            raise corrupt_state(source, f"map.ratings[{i}]", f"min_points 0-{LARGEST} and title")
        ratings.append((r["min_points"], r["title"]))
    if not is_id(m.get("id")):
        raise corrupt_state(source, "map.id", "a map id (lowercase words joined by hyphens)")
    if not plain(m.get("name")):
        raise corrupt_state(source, "map.name", "a string of plain text")
    for key in ("turns", "end_cities_per_region"):
        if not _is_int(m.get(key)) or not 1 <= m[key] <= MAX_TURNS:
            raise corrupt_state(source, f"map.{key}", f"a whole number 1..{MAX_TURNS}")
    info = MapInfo(m["id"], m["name"], m["turns"], m["end_cities_per_region"], tuple(ratings), dice)
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise corrupt_state(source, "players", "a list of names")
    try:
        names = check_players(players)
    except InputError as exc:
        raise corrupt_state(source, "players", f"valid names, but {exc.detail}") from None
    seed = doc.get("seed")
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise corrupt_state(source, "seed", f"a whole number from 0 to {MAX_SEED}")
    raw_events = doc.get("events")
    if not isinstance(raw_events, list):
        raise corrupt_state(source, "events", "a list")
    game = Game(info, names, seed)
    for i, e in enumerate(raw_events):
        game.events.append(_parse_event(game, e, f"events[{i}]", source))
    return game


def _parse_event(game: Game, e: object, where: str, source: str) -> Event:
    """One saved event, checked against the game so far."""
    if not isinstance(e, dict) or e.get("event") not in ("roll", "finish", "end"):
        raise corrupt_state(source, where, "an event of kind roll, finish or end")
    kind = e["event"]
    turn = e.get("turn")
    if kind == "roll":
        dice = e.get("dice")
        if turn != game.turn + 1 or game.over:
            raise corrupt_state(source, f"{where}.turn", f"turn {game.turn + 1} while the game goes on")
        if not (isinstance(dice, list) and len(dice) == 2 and all(_is_int(d) and d in game.map.dice.faces for d in dice)):
            raise corrupt_state(source, f"{where}.dice", "two die faces 1-6")
        return Event("roll", turn, dice=(dice[0], dice[1]))
    if turn != game.turn or (kind == "end" and game.over):
        raise corrupt_state(source, f"{where}.turn", f"the current turn {game.turn}")
    if kind == "end":
        return Event("end", turn)
    player = e.get("player")
    if player not in game.travelling or game.turn == 0 or game.ended_early:
        raise corrupt_state(source, f"{where}.player", "a player still travelling")
    return Event("finish", turn, player=player)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
