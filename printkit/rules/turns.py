"""A game of Around the World turn by turn: rolls or Navigators, finished players, undo and the end.

Pure logic over a :class:`Game`, which is what the game file saves. The
game is its list of events (a turn, a player's finish, an early end), so undo
just drops the last event. In solo/party mode every turn's dice come from
``dice.turn_roll(table, seed, turn)``: an undone turn rolls the same dice
again; in multiplayer mode there are no dice and the Navigator role moves to
the next player each turn. The sheets' marks (scanned or typed) are kept
beside the events (:mod:`printkit.rules.gamefile`).
"""

from typing import TYPE_CHECKING, Any, NamedTuple, TypeGuard

from printkit.errors import InputError, RuleError, corrupt_state
from printkit.model.dice import Dice
from printkit.model.limits import LARGEST, MAX_SEED
from printkit.model.limits import MAX_PLAYERS as MAX_PLAYERS  # the command line reads it here
from printkit.model.names import duplicate_problem, is_id, name_problem, plain
from printkit.rules.dice import Roll, turn_roll
from printkit.rules.gamefile import ID_LENGTH, Marks, Unsure, marks_from_state, marks_to_state, valid_id

if TYPE_CHECKING:
    from printkit.model.maps import GameMap


def speed_bonus(turns: int, turn: int) -> int:
    """The one solo/party speed bonus rule (``rules.atw.solo_speed_bonus``), for the tracker's callers."""
    from printkit.rules.atw import solo_speed_bonus  # here, so `turns next` does not load the scoring rules

    return solo_speed_bonus(turns, turn)


STATE_KIND = "turns"
STATE_FORMAT = 2
"""Format 2 (the game file): format 1 plus the game's id, mode, first Navigator, map source and the sheets' marks."""
MAX_TURNS = 99  # a saved game's turn count (the solo game has 20; a multiplayer game stops here at the latest)
MODES = ("multiplayer", "solo", "party")


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
    source: str = ""
    """What the map is loaded by to score the game: a bundled map's id, or a map file's absolute path."""

    def end_condition(self) -> str:
        """The finish condition in words, e.g. ``visited 2 cities in every region``."""
        n = self.end_cities_per_region
        cities = "1 city" if n == 1 else f"{n} cities"
        return f"visited at least {cities} in every region and returned to the starting city"


class TurnRangeError(RuleError):
    """A ``--turn`` that is not a turn played so far."""


class Event(NamedTuple):
    """One thing that happened: ``roll`` (with dice), ``turn`` (multiplayer), ``finish`` (a player) or ``end``."""

    kind: str
    turn: int
    dice: tuple[int, int] | None = None
    player: str | None = None

    def roll(self, table: Dice) -> Roll:
        """The dice of a roll event, read with the dice ``table``."""
        assert self.dice is not None
        return Roll(*self.dice, table)


def map_info(game_map: "GameMap", source: str = "") -> MapInfo:
    """The facts of a loaded map that a tracked game keeps (``source``: how to load it again, default its id)."""
    ratings = tuple((r.min_points, r.title) for r in game_map.solo.ratings)
    return MapInfo(
        game_map.id, game_map.name, game_map.solo.turns, game_map.end_cities_per_region, ratings, game_map.dice,
        source or game_map.id,
    )


def default_mode(players: int, most_multiplayer: int) -> str:
    """The mode ``printkit score`` picks for this many players: solo for 1, party above the map's multiplayer limit."""
    return "solo" if players == 1 else "party" if players > most_multiplayer else "multiplayer"


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
    """A tracked game: map facts, players, mode, seed, events so far, and the sheets' marks."""

    def __init__(self, map: MapInfo, players: tuple[str, ...], seed: int, events: list[Event] | None = None, *,
                 mode: str | None = None, navigator: str | None = None, id: str = "") -> None:
        self.map = map
        self.players = players
        self.seed = seed
        self.events: list[Event] = list(events or [])
        self.mode = mode or ("solo" if len(players) == 1 else "party")
        self.navigator = navigator if self.mode == "multiplayer" else None
        """The first turn's Navigator (multiplayer), the seating order's first player unless chosen."""
        if self.mode == "multiplayer" and self.navigator is None:
            self.navigator = players[0]
        self.id = id
        self.marks: dict[str, Marks] = {}
        """Each player's sheet, read by ``scan --game`` or typed at ``score --game --prompt``."""
        self.unsure: list[Unsure] = []

    @property
    def dice(self) -> bool:
        """Whether the dice choose the actions (solo and party mode)."""
        return self.mode != "multiplayer"

    @property
    def last_turn(self) -> int:
        """The turn the game ends after at the latest: the map's (solo/party) or the file's bound (multiplayer)."""
        return self.map.turns if self.dice else MAX_TURNS

    @property
    def turn(self) -> int:
        """The current turn: how many turns have been played (0 before the first)."""
        return sum(1 for e in self.events if e.kind in ("roll", "turn"))

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
        """After the last turn, when everyone (multiplayer: anyone) has finished, or when ended by the host."""
        done = not self.travelling if self.dice else bool(self.finished)
        return self.turn >= self.last_turn or done or self.ended_early

    def over_reason(self) -> str:
        """Why the game is over, in words (empty while it goes on)."""
        if not self.dice and self.finished:
            first = min(self.finished.values())
            who = " and ".join(p for p, t in self.finished.items() if t == first)
            return f"{who} finished on turn {first}: that turn is played out and the game is over"
        if not self.travelling:
            return f"every player has finished their trip (after turn {self.turn} of {self.map.turns})"
        if self.turn >= self.last_turn:
            return f"all {self.last_turn} turns have been played"
        if self.ended_early:
            return f"the host ended it after turn {self.turn}" + (f" of {self.map.turns}" if self.dice else "")
        return ""

    def navigator_on(self, turn: int) -> str:
        """The Navigator of ``turn`` (multiplayer): the role moves to the next player each turn."""
        assert self.navigator is not None
        first = self.players.index(self.navigator)
        return self.players[(first + turn - 1) % len(self.players)]

    def last_roll(self) -> Roll | None:
        """The dice of the current turn, if any was rolled."""
        for e in reversed(self.events):
            if e.kind == "roll":
                return e.roll(self.map.dice)
        return None

    def next_turn(self) -> Roll | None:
        """Play the next turn: roll its dice (None in multiplayer, see :meth:`navigator_on`) and move the marker."""
        if self.over:
            raise RuleError(f"the game is over: {self.over_reason()}; nothing was changed")
        if not self.dice:
            self.events.append(Event("turn", self.turn + 1))
            return None
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

    def finish(self, names: list[str], turn: int | None = None) -> list[tuple[str, int, int | None]]:
        """Record players back home on ``turn`` (default the current one): (name, turn, solo/party bonus) each.

        All names are checked before any is recorded, so a bad one changes nothing.
        """
        who = [self.player(n) for n in names]
        when = self.turn if turn is None else turn
        if self.turn == 0:
            raise RuleError(f"no turn has been played yet; {'roll' if self.dice else 'play'} turn 1 with `printkit turns next`")
        if not 1 <= when <= self.turn:
            raise TurnRangeError(f"turn {when} has not been played: give a turn from 1 to {self.turn}")
        for p in who:
            if p in self.finished:
                raise RuleError(f"{p} already finished on turn {self.finished[p]}; nothing was changed")
            if who.count(p) > 1:
                raise RuleError(f"{p} is given twice; nothing was changed")
        if self.ended_early:
            raise RuleError(f"the game is over: {self.over_reason()}; `printkit turns undo` reopens it")
        for p in who:
            self.events.append(Event("finish", when, player=p))
        bonus = speed_bonus(self.map.turns, when) if self.dice else None
        return [(p, when, bonus) for p in who]

    def end(self) -> bool:
        """End the game now if it is still going; True if this changed anything."""
        if self.over:
            return False
        self.events.append(Event("end", self.turn))
        return True

    def undo(self) -> Event:
        """Take back the last turn, finish or end, and return it."""
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
        "id": game.id,
        "map": {
            "id": game.map.id,
            "name": game.map.name,
            "source": game.map.source,
            "turns": game.map.turns,
            "end_cities_per_region": game.map.end_cities_per_region,
            "ratings": [{"min_points": p, "title": t} for p, t in game.map.ratings],
        },
        "mode": game.mode,
        "navigator": game.navigator,
        "players": list(game.players),
        "seed": game.seed,
        "events": events,
        **marks_to_state(game.marks, game.unsure),
    }


def migrate(doc: dict[str, Any], fmt: int, source: str) -> dict[str, Any]:
    """A format 1 turns state as format 2: an id from its content, the dice game's mode, no marks yet."""
    import hashlib
    import json

    m = doc.get("map")
    players = doc.get("players")
    digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:ID_LENGTH]
    mode = "solo" if isinstance(players, list) and len(players) == 1 else "party"
    new_map = {**m, "source": m.get("id")} if isinstance(m, dict) else m
    return {**doc, "format": STATE_FORMAT, "id": digest, "map": new_map, "mode": mode, "navigator": None,
            "marks": {}, "unsure": []}


def from_state(doc: dict[str, Any], source: str, dice: Dice) -> Game:
    """Rebuild a game from its saved form, rolling with ``dice``; StateError naming the bad field if corrupt."""
    info = _map_from_state(doc.get("map"), source, dice)
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
    if not valid_id(doc.get("id")):
        raise corrupt_state(source, "id", f"a game id of {ID_LENGTH} hex digits")
    mode = doc.get("mode")
    if mode not in MODES or (mode == "solo") != (len(names) == 1):
        raise corrupt_state(source, "mode", "solo for one player, multiplayer or party for more")
    navigator = doc.get("navigator")
    if (navigator is None) != (mode != "multiplayer") or (navigator is not None and navigator not in names):
        raise corrupt_state(source, "navigator", "a player in multiplayer mode, else null")
    raw_events = doc.get("events")
    if not isinstance(raw_events, list):
        raise corrupt_state(source, "events", "a list")
    game = Game(info, names, seed, mode=mode, navigator=navigator, id=doc["id"])
    for i, e in enumerate(raw_events):
        game.events.append(_parse_event(game, e, f"events[{i}]", source))
    game.marks, game.unsure = marks_from_state(doc, names, source)
    return game


def _map_from_state(m: object, source: str, dice: Dice) -> MapInfo:
    """The saved map facts, each checked."""
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
    for key in ("name", "source"):
        if not plain(m.get(key)):
            raise corrupt_state(source, f"map.{key}", "a string of plain text")
    for key in ("turns", "end_cities_per_region"):
        if not _is_int(m.get(key)) or not 1 <= m[key] <= MAX_TURNS:
            raise corrupt_state(source, f"map.{key}", f"a whole number 1..{MAX_TURNS}")
    return MapInfo(m["id"], m["name"], m["turns"], m["end_cities_per_region"], tuple(ratings), dice, m["source"])


def _parse_event(game: Game, e: object, where: str, source: str) -> Event:
    """One saved event, checked against the game so far."""
    kinds = ("roll", "finish", "end") if game.dice else ("turn", "finish", "end")
    if not isinstance(e, dict) or e.get("event") not in kinds:
        raise corrupt_state(source, where, f"an event of kind {', '.join(kinds[:-1])} or end")
    kind = e["event"]
    turn = e.get("turn")
    if kind in ("roll", "turn"):
        if turn != game.turn + 1 or game.over:
            raise corrupt_state(source, f"{where}.turn", f"turn {game.turn + 1} while the game goes on")
        if kind == "turn":
            return Event("turn", turn)
        dice = e.get("dice")
        if not (isinstance(dice, list) and len(dice) == 2 and all(_is_int(d) and d in game.map.dice.faces for d in dice)):
            raise corrupt_state(source, f"{where}.dice", "two die faces 1-6")
        return Event("roll", turn, dice=(dice[0], dice[1]))
    if kind == "end":
        if turn != game.turn or game.over:
            raise corrupt_state(source, f"{where}.turn", f"the current turn {game.turn}")
        return Event("end", turn)
    if not _is_int(turn) or not 1 <= turn <= game.turn:
        raise corrupt_state(source, f"{where}.turn", f"a turn played so far (1..{game.turn})")
    player = e.get("player")
    if player not in game.travelling or game.ended_early:
        raise corrupt_state(source, f"{where}.player", "a player still travelling")
    return Event("finish", turn, player=player)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
