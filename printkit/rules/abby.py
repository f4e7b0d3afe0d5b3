"""Abby, Globetrotting's solo opponent: her airfare each turn and her final score.

Each turn three Destination cards lie in a row; the player picks one by its
position (1 = left, 2 = middle, 3 = right). Abby's airfare is the coordinate
number of the card to the right of the chosen one; the rightmost wraps to the
leftmost. Both running totals are kept. After 9 turns Abby scores 2 per
Bucket List card the player started with, 3 for festivals, both global
objectives on turn 6 (4 instead of 6 for one the player achieved earlier)
and 2 if she spent less; the player scores by the normal rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

from printkit.errors import InputError, RuleError, corrupt_state
from printkit.model.games import Globetrotting
from printkit.model.limits import LARGEST
from printkit.model.names import name_problem
from printkit.rules.gamefile import ID_LENGTH, valid_id
from printkit.rules.globetrotting import airfare_bonus, objective_points, pick_winners
from printkit.rules.report import GameScore, PlayerScore, Section

GAME = "globetrotting"
STATE_KIND = "abby"
POSITIONS = ("left", "middle", "right")
ABBY = "Abby"
YOU = "You"
"""The player's name when the game was started without one (``abby start --player``)."""
STATE_FORMAT = 2
"""Format 2 (a game file): format 1 plus the game's id, its players and the player's end-of-game marks."""
MARKS = ("objectives", "bucket_list", "festivals")
"""The player's end-of-game marks, in the order ``score --game --prompt`` asks for them, each kept as typed."""


@dataclass(frozen=True)
class Turn:
    """One turn: the three cards' coordinate numbers, the chosen position (1-3), both airfares."""

    cards: tuple[int, ...]
    chose: int
    airfare: int
    abby: int


@dataclass(frozen=True)
class SoloGame:
    """A solo game against Abby: bucket cards dealt, the turns so far, its id, the player and their marks.

    ``marks`` holds the end-of-game answers typed so far (:data:`MARKS`), each
    a tuple of whole numbers as typed: objective turns, bucket-card points,
    festivals (a total or one number per season).
    """

    bucket_cards: int
    turns: tuple[Turn, ...] = ()
    id: str = ""
    player: str = YOU
    marks: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def player_total(self) -> int:
        """The player's running airfare total."""
        return sum(t.airfare for t in self.turns)

    @property
    def abby_total(self) -> int:
        """Abby's running airfare total."""
        return sum(t.abby for t in self.turns)


def abby_fare(cards: Sequence[int], chose: int) -> int:
    """The coordinate number of the card right of position ``chose`` (1-based), wrapping."""
    if not 1 <= chose <= len(cards):
        raise InputError("position", f"must be a card position 1-{len(cards)}, got {{got}}", chose)
    return cards[chose % len(cards)]


def position_of(value: str) -> int:
    """The chosen card's position (1-3) from ``1``-``3`` or ``left``/``middle``/``right`` (InputError ``position``)."""
    key = value.strip().lower()
    for number, name in enumerate(POSITIONS, start=1):
        if key in (name, str(number)):
            return number
    raise InputError("position", f"expected the position of your card, 1-{len(POSITIONS)} or "
                     f"{'/'.join(POSITIONS)}; got {{got}}", value)  # fmt: skip


def check_cards(cards: Sequence[int]) -> None:
    """The three Destination cards' coordinate numbers, left to right, each 1-9999 (InputError ``cards``)."""
    if len(cards) != len(POSITIONS) or any(not 1 <= c <= LARGEST for c in cards):
        raise InputError("cards", f"expected the {len(POSITIONS)} coordinate numbers shown (1-{LARGEST}), "
                         "left to right, like 7,12,3; got {got}", ",".join(map(str, cards)))  # fmt: skip


def festival_total(rules: Globetrotting, marks: Sequence[int]) -> int:
    """Festivals marked, given as a total or one number per season (InputError ``festivals``)."""
    per, seasons = rules.festivals_per_season, len(rules.seasons)
    if len(marks) not in (1, seasons) or any(m < 0 for m in marks) or (len(marks) > 1 and any(m > per for m in marks)):
        raise InputError("festivals", f"expected a total (0-{per * seasons}) or one number per season "
                         f"(0-{per} each), e.g. 1,2,0; got {{got}}", ",".join(map(str, marks)))  # fmt: skip
    return sum(marks)


def check_bucket_points(points: Sequence[int]) -> None:
    """Points of the completed Bucket List cards: none negative (InputError ``bucket_list``)."""
    if any(p < 0 for p in points):
        raise InputError("bucket_list", "points cannot be negative, got {got}", ",".join(map(str, points)))


def new_game(rules: Globetrotting, bucket_cards: int, game_id: str = "", player: str = YOU) -> SoloGame:
    """Start a solo game with the number of Bucket List cards the player keeps (``player``: their name)."""
    if player.casefold() == ABBY.casefold():
        raise InputError("player", f"{ABBY} is the opponent's name; give yours, got {{got}}", player)
    if not rules.bucket_cards_min <= bucket_cards <= rules.bucket_cards_max:
        raise InputError(
            "bucket_cards", f"must be {rules.bucket_cards_min}-{rules.bucket_cards_max} "
            "(cards per player, 1st Time Flyer to Globetrotter), got {got}", bucket_cards,
        )  # fmt: skip
    return SoloGame(bucket_cards, id=game_id, player=player)


def play_turn(rules: Globetrotting, game: SoloGame, cards: Sequence[int], chose: int, airfare: int) -> SoloGame:
    """Log one turn: the player's chosen card and airfare, and Abby's airfare."""
    if len(game.turns) >= rules.flights:
        raise RuleError(f"all {rules.flights} flights are logged; the game is over (see `printkit abby score`)")
    check_cards(cards)
    if not 0 <= airfare <= LARGEST:
        raise InputError("airfare", f"must be 0-{LARGEST}, got {{got}}", airfare)
    turn = Turn(tuple(cards), chose, airfare, abby_fare(cards, chose))
    return replace(game, turns=(*game.turns, turn))


def undo(game: SoloGame) -> SoloGame:
    """Take back the last logged turn."""
    if not game.turns:
        raise RuleError("no turn to undo: no flights are logged yet")
    return replace(game, turns=game.turns[:-1])


def score(
    rules: Globetrotting, game: SoloGame, objective_turns: Sequence[int], bucket_points: Sequence[int], festivals: int
) -> GameScore:
    """Score the player and Abby after 9 turns; winner by points, then lower airfare."""
    if len(game.turns) < rules.flights:
        raise RuleError(f"the game has {rules.flights} flights; {len(game.turns)} logged so far")
    if len(objective_turns) > rules.objectives_in_play:
        raise RuleError(f"at most {rules.objectives_in_play} global objectives, got {len(objective_turns)}")
    for t in objective_turns:
        if not 1 <= t <= rules.flights:
            raise InputError("objective", f"takes the turn it was achieved, 1-{rules.flights}; got {{got}}", t)
    check_bucket_points(bucket_points)
    if len(bucket_points) > game.bucket_cards:
        raise RuleError(f"{len(bucket_points)} completed Bucket List cards, but you started with {game.bucket_cards}")
    most = rules.festivals_per_season * len(rules.seasons)
    if not 0 <= festivals <= most:
        raise InputError("festivals", f"must be 0-{most} ({rules.festivals_per_season} per season), got {{got}}",
                         festivals)  # fmt: skip
    a = rules.abby
    mine, hers = game.player_total, game.abby_total
    objs = sorted(objective_turns)
    you_obj = [objective_points(rules, t, a.objectives_turn) for t in objs]
    her_obj = [rules.objective_later if i < len(objs) and objs[i] < a.objectives_turn else rules.objective_first
               for i in range(rules.objectives_in_play)]  # fmt: skip
    you = PlayerScore(game.player, (
        Section("airfare", "Airfare bonus", airfare_bonus(rules, mine, [hers]), f"you spent {mine}, Abby {hers}"),
        Section("objectives", "Global objectives", sum(you_obj),
                ", ".join(f"turn {t}: {p}" for t, p in zip(objs, you_obj)) or "none"),
        Section("bucket_list", "Bucket list", sum(bucket_points),
                f"{len(bucket_points)} card{'s' * (len(bucket_points) != 1)}: " + " + ".join(map(str, bucket_points))
                if bucket_points else "none"),
        Section("festivals", "Festivals", festivals, f"{festivals} marked"),
    ))  # fmt: skip
    abby = PlayerScore(ABBY, (
        Section("airfare", "Airfare bonus", a.airfare_bonus if hers < mine else 0,
                f"she spent {hers}, you {mine}" + (" (less)" if hers < mine else "")),
        Section("objectives", "Global objectives", sum(her_obj),
                f"both on turn {a.objectives_turn}: " + " + ".join(map(str, her_obj))),
        Section("bucket_list", "Bucket list", a.per_bucket_card * game.bucket_cards,
                f"{a.per_bucket_card} x {game.bucket_cards} cards you started with"),
        Section("festivals", "Festivals", a.festivals, "fixed"),
    ))  # fmt: skip
    winners, tiebreak = pick_winners((you, abby), {game.player: mine, ABBY: hers})
    return GameScore(GAME, "", "solo", (you, abby), winners, tiebreak)


def to_state(game: SoloGame) -> dict[str, Any]:
    """The JSON-ready state of a solo game (a game file: its id, players and typed marks too)."""
    return {
        "id": game.id,
        "players": [game.player, ABBY],
        "bucket_cards": game.bucket_cards,
        "turns": [{"cards": list(t.cards), "chose": t.chose, "airfare": t.airfare, "abby": t.abby} for t in game.turns],
        "marks": {key: list(game.marks[key]) for key in MARKS if key in game.marks},
    }


def migrate(doc: dict[str, Any], fmt: int, source: str) -> dict[str, Any]:
    """A format 1 state as format 2: an id from its content, the player called You, no marks yet."""
    import hashlib
    import json

    digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:ID_LENGTH]
    return {**doc, "format": STATE_FORMAT, "id": digest, "players": [YOU, ABBY], "marks": {}}


def over(rules: Globetrotting, game: SoloGame) -> bool:
    """Whether every flight is logged (the game is over and can be scored)."""
    return len(game.turns) >= rules.flights


def missing_marks(game: SoloGame) -> list[str]:
    """The end-of-game answers not typed yet, in the order they are asked."""
    return [key for key in MARKS if key not in game.marks]


def check_mark(rules: Globetrotting, game: SoloGame, key: str, values: Sequence[int]) -> None:
    """One typed answer (:data:`MARKS`) checked against the rules and the game (InputError naming the mark)."""
    if key == "objectives":
        if len(values) > rules.objectives_in_play:
            raise InputError("objectives", f"at most {rules.objectives_in_play} global objectives, got {{got}}",
                             ",".join(map(str, values)))  # fmt: skip
        for t in values:
            if not 1 <= t <= rules.flights:
                raise InputError("objectives", f"takes the turn each was achieved, 1-{rules.flights}; got {{got}}", t)
    elif key == "bucket_list":
        check_bucket_points(values)
        if len(values) > game.bucket_cards:
            raise InputError("bucket_list", f"{len(values)} completed cards, but you started with {game.bucket_cards}; "
                             "got {got}", ",".join(map(str, values)))  # fmt: skip
    else:
        festival_total(rules, values)


def with_mark(rules: Globetrotting, game: SoloGame, key: str, values: Sequence[int]) -> SoloGame:
    """The game with one more typed answer kept (checked first)."""
    check_mark(rules, game, key, values)
    return replace(game, marks={**game.marks, key: tuple(values)})


def score_marks(rules: Globetrotting, game: SoloGame) -> GameScore:
    """Score the game from its kept marks (RuleError before the last flight or with answers missing)."""
    if not over(rules, game):
        raise RuleError(f"the game has {rules.flights} flights; {len(game.turns)} logged so far")
    missing = missing_marks(game)
    if missing:
        raise RuleError(f"no {', '.join(m.replace('_', ' ') for m in missing)} typed yet")
    m = game.marks
    return score(rules, game, m["objectives"], m["bucket_list"], festival_total(rules, m["festivals"]))


def _whole(value: object, low: int = 0, high: int | None = None) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high)


def from_state(state: dict[str, Any], path: str, rules: Globetrotting) -> SoloGame:
    """Rebuild a solo game from its saved state; StateError naming the bad field if it is inconsistent."""
    low, high = rules.bucket_cards_min, rules.bucket_cards_max
    bucket = state.get("bucket_cards")
    if not _whole(bucket, low, high):
        raise corrupt_state(path, "bucket_cards", f"a whole number {low}-{high}")
    turns_raw = state.get("turns")
    if not isinstance(turns_raw, list) or len(turns_raw) > rules.flights:
        raise corrupt_state(path, "turns", f"a list of at most {rules.flights} turns")
    turns = [_turn(t, f"turns[{i}]", path) for i, t in enumerate(turns_raw)]
    if not valid_id(state.get("id")):
        raise corrupt_state(path, "id", f"a game id of {ID_LENGTH} hex digits")
    players = state.get("players")
    if (not isinstance(players, list) or len(players) != 2 or players[1] != ABBY or not isinstance(players[0], str)
            or name_problem(players[0]) or players[0].casefold() == ABBY.casefold()):
        raise corrupt_state(path, "players", f"your name, then {ABBY}")
    game = SoloGame(bucket, tuple(turns), state["id"], players[0])
    raw = state.get("marks")
    if not isinstance(raw, dict):
        raise corrupt_state(path, "marks", "a table of the typed answers")
    for key, values in raw.items():
        if key not in MARKS or not isinstance(values, list) or not all(_whole(v, 0, LARGEST) for v in values):
            raise corrupt_state(path, f"marks.{key}", f"one of {', '.join(MARKS)}: a list of whole numbers")
        try:
            game = with_mark(rules, game, key, values)
        except InputError as exc:
            raise corrupt_state(path, f"marks.{key}", f"an answer the rules allow, but {exc.detail}") from None
    return game


def _turn(t: object, where: str, path: str) -> Turn:
    """One saved turn, its fields checked."""
    if not isinstance(t, dict) or set(t) != {"cards", "chose", "airfare", "abby"}:
        raise corrupt_state(path, where, "a table of cards, chose, airfare and abby")
    cards = t["cards"]
    if not isinstance(cards, list) or len(cards) != len(POSITIONS) or not all(_whole(c, 1, LARGEST) for c in cards):
        raise corrupt_state(path, f"{where}.cards", f"{len(POSITIONS)} coordinate numbers 1-{LARGEST}")
    if not _whole(t["chose"], 1, len(cards)):
        raise corrupt_state(path, f"{where}.chose", f"a card position 1-{len(cards)}")
    if not _whole(t["airfare"], 0, LARGEST):
        raise corrupt_state(path, f"{where}.airfare", f"a whole number 0-{LARGEST}")
    if t["abby"] != abby_fare(cards, t["chose"]):
        raise corrupt_state(path, f"{where}.abby", f"Abby's airfare {abby_fare(cards, t['chose'])} for those cards")
    return Turn(tuple(cards), t["chose"], t["airfare"], t["abby"])
