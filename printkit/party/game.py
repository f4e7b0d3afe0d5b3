"""The party server's one door to the game: the turns game file and the server's own file beside it.

Every change goes through :meth:`Table.change`: the game file is locked (the
same ``<game>.lock`` the ``printkit turns`` commands take), read, changed by the
turns rules and written atomically, so ``printkit turns status`` sees the same
game while the server runs and a killed server leaves the last change saved.
The server keeps its own facts (the host key, one token digest per joined
player, each player's read and confirmed sheet) in ``<game>.party``, written the
same way with mode 0600. Nothing else in :mod:`printkit.party` reads or writes
a game.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from printkit.errors import RuleError, StateError
from printkit.loading.state import StateFile
from printkit.rules import turns as rules
from printkit.rules.turns import Game

if TYPE_CHECKING:
    from printkit.model.maps import GameMap, Mode

T = TypeVar("T")
SIDE_KIND = "party"
SIDE_SUFFIX = ".party"
KEY_BYTES = 24
"""Random bytes in the host key and in each player's token (192 bits)."""
MISSING = "no game has been started here; start one with `printkit party --map world --players \"Ann,Bo\"`"


class Side(NamedTuple):
    """The server's own facts about a game: host key, players' token digests, sheets read but not yet counted
    (``{"read", "table", "unsure"}`` each), and totals a player corrected."""

    host_key: str
    tokens: dict[str, str]
    pending: dict[str, dict[str, Any]]
    corrected: dict[str, int]


def digest(token: str) -> str:
    """What is saved of a token: its SHA-256 (a leaked side file gives no player's token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _side_to_state(side: Side) -> dict[str, Any]:
    return {"host_key": side.host_key, "tokens": dict(side.tokens), "pending": dict(side.pending),
            "corrected": dict(side.corrected)}


def _side_from_state(doc: dict[str, Any], source: str, players: tuple[str, ...]) -> Side:
    key, tokens, pending, corrected = (doc.get(k) for k in ("host_key", "tokens", "pending", "corrected"))
    good = (isinstance(key, str) and len(key) >= 22 and isinstance(tokens, dict) and isinstance(pending, dict)
            and isinstance(corrected, dict)
            and all(p in players and isinstance(t, str) for p, t in tokens.items())
            and all(p in players and isinstance(r, dict) and {"read", "table", "unsure"} <= set(r)
                    for p, r in pending.items())
            and all(p in players and type(t) is int for p, t in corrected.items()))
    if not good:
        raise StateError(f"{source}: the party file is corrupt; it was left untouched (delete it to start afresh)")
    assert isinstance(key, str) and isinstance(tokens, dict) and isinstance(pending, dict)
    assert isinstance(corrected, dict)
    return Side(key, dict(tokens), dict(pending), dict(corrected))


def game_file() -> StateFile[Game]:
    """The turns game file's schema, as ``printkit turns`` reads and writes it."""
    from printkit.loading.dice import load_dice

    return StateFile(rules.STATE_KIND, rules.to_state, lambda doc, source: rules.from_state(doc, source, load_dice()),
                     rules.STATE_FORMAT, rules.migrate)


def start_game(path: str, game_map: GameMap, players: tuple[str, ...], mode: str | None, seed: int,
               source: str = "") -> None:
    """Save a new game at ``path`` (refused while a game there is in progress), as ``turns start`` would.

    ``mode`` defaults to the one ``printkit score`` picks for this many players; ``source`` is how the map
    is loaded again (a map file's absolute path; default the bundled map's id).
    """
    from typing import cast

    from printkit.files import locked
    from printkit.loading.records.atw import players_count_problem
    from printkit.rules.gamefile import new_id

    chosen = mode or rules.default_mode(len(players), game_map.max_multiplayer)
    problem = players_count_problem(game_map, cast("Mode", chosen), len(players))
    if problem is not None:
        raise RuleError(problem)
    file = game_file()
    game = Game(rules.map_info(game_map, source), players, seed, mode=chosen, id=new_id())
    with locked(path):
        if file.exists(path) and not file.read(path, MISSING).over:
            raise StateError(f"{path}: a game is in progress there; continue it with --game {path}, "
                             "or end it with `printkit turns end`")
        file.write(path, game)
    if os.path.exists(path + SIDE_SUFFIX):
        os.unlink(path + SIDE_SUFFIX)  # the old game's tokens and sheets are not this game's


class Table:
    """One game served: the game file, the side file, and the last state read from them."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.side_path = path + SIDE_SUFFIX
        self.file = game_file()
        self._lock = threading.Lock()
        self.game = self.file.read(path, MISSING)
        self.side = self._load_side()
        self._stamp = self._stat()

    def _stat(self) -> tuple[int, int, int]:
        st = os.stat(self.path)
        return st.st_ino, st.st_mtime_ns, st.st_size

    def _load_side(self) -> Side:
        from printkit.loading.state import read_state

        if not os.path.exists(self.side_path):
            side = Side(secrets.token_urlsafe(KEY_BYTES), {}, {}, {})
            self._save_side(side)
            return side
        return _side_from_state(read_state(self.side_path, SIDE_KIND), self.side_path, self.game.players)

    def _save_side(self, side: Side) -> None:
        import json

        from printkit.files import replace_file

        doc = {"printkit": SIDE_KIND, "format": 1, **_side_to_state(side)}
        try:
            replace_file(self.side_path, (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode(), 0o600)
        except OSError as exc:
            raise StateError(f"{self.side_path}: cannot write the party file ({exc.strerror})") from None

    def refresh(self) -> bool:
        """Read the game again if another command changed its file; True if it did."""
        with self._lock:
            try:
                stamp = self._stat()
            except OSError:
                return False
            if stamp == self._stamp:
                return False
            self.game, self._stamp = self.file.read(self.path, MISSING), stamp
            return True

    def change(self, act: Callable[[Game, Side], T]) -> T:
        """Lock the game, read it, apply ``act`` (which may change the game and the side), save what changed."""
        from printkit.files import locked

        with self._lock, locked(self.path):
            game = self.file.read(self.path, MISSING)
            side = Side(self.side.host_key, dict(self.side.tokens), dict(self.side.pending), dict(self.side.corrected))
            before, side_before = self.file.dump(game), _side_to_state(side)
            result = act(game, side)
            after = self.file.dump(game)
            if after != before:
                self.file.write_doc(self.path, after)
            if _side_to_state(side) != side_before:
                self._save_side(side)
            self.game, self.side, self._stamp = game, side, self._stat()
            return result

    # what the host and the players do

    def next_turn(self) -> None:
        """Roll the next turn."""
        self.change(lambda game, side: game.next_turn())

    def undo(self) -> None:
        """Take back the last roll, finish or end."""
        self.change(lambda game, side: game.undo())

    def end(self) -> None:
        """End the game now (nothing if it is over already)."""
        self.change(lambda game, side: game.end())
        self.record_if_done()

    def finish(self, who: str) -> None:
        """``who`` is home on the current turn."""
        self.change(lambda game, side: game.finish([who]))

    def join(self, name: str) -> tuple[str, str]:
        """A new token for the player called ``name`` (ignoring case): (their name as saved, the token)."""
        token = secrets.token_urlsafe(KEY_BYTES)

        def act(game: Game, side: Side) -> str:
            who = game.player(name)
            if who in side.tokens:
                raise JoinedError(f"{who} has already joined on another phone; the host can free the name")
            side.tokens[who] = digest(token)
            return who

        return self.change(act), token

    def leave(self, name: str) -> str:
        """Free a player's name (the host's choice): their token stops working."""
        def act(game: Game, side: Side) -> str:
            who = game.player(name)
            side.tokens.pop(who, None)
            return who

        return self.change(act)

    def player_of(self, token: str) -> str | None:
        """The player a token belongs to, or None."""
        wanted = digest(token)
        found = [p for p, d in self.side.tokens.items() if secrets.compare_digest(d, wanted)]
        return found[0] if found else None

    def host_key_is(self, key: str) -> bool:
        """Whether ``key`` is this game's host key (compared in constant time)."""
        return secrets.compare_digest(key.encode(), self.side.host_key.encode())

    def keep_read(self, who: str, read: dict[str, Any], table: dict[str, Any], unsure: list[dict[str, Any]]) -> None:
        """Keep a player's read sheet (the answer, the marks table, the unsure reads), not yet counted."""
        def act(game: Game, side: Side) -> None:
            side.pending[who] = {"read": read, "table": table, "unsure": unsure}

        self.change(act)

    def confirm(self, who: str, total: int | None) -> None:
        """Count ``who``'s read sheet: its marks go into the game file (as ``scan --game`` attaches them), with
        the total they corrected it to, if any (a counted sheet's total may be corrected again later); an ended
        game whose every sheet is in lands in the history."""
        from printkit.rules.gamefile import Marks, Unsure, set_marks

        def act(game: Game, side: Side) -> None:
            pending = side.pending.pop(who, None)
            if pending is None and not (total is not None and who in game.marks):
                raise RuleError(f"{who} has no photographed sheet to confirm yet")
            if pending is not None:
                unsure = [Unsure(who, u["field"], u["confidence"], u["message"]) for u in pending["unsure"]]
                set_marks(game, who, Marks("scan", pending["table"]), unsure)
            if total is None or pending is not None and total == pending["read"]["total"]:
                side.corrected.pop(who, None)
            else:
                side.corrected[who] = total

        self.change(act)
        self.record_if_done()

    def record_if_done(self) -> bool:
        """Keep the game in the history once it is over with every sheet in (once: keyed by its id)."""
        from printkit.party.scores import record_game

        game = self.game
        if not game.over or set(game.marks) != set(game.players):
            return False
        return record_game(game)

    def state(self) -> dict[str, Any]:
        """The game as ``GET /api/state`` gives it."""
        from printkit.party.scores import totals

        return state_json(self.game, self.side, totals(self.game, self.side.corrected))



class JoinedError(RuleError):
    """A name that another phone has joined as already."""


def state_json(game: Game, side: Side, totals: dict[str, int]) -> dict[str, Any]:
    """The state document: turn, dice and actions (or the Navigator), players with finish and total, over."""
    roll = game.last_roll() if game.dice else None
    finished = game.finished
    players = [{"name": p, "finished_turn": finished.get(p), "total": totals.get(p),
                "bonus": rules.speed_bonus(game.map.turns, finished[p]) if p in finished and game.dice else None,
                "joined": p in side.tokens} for p in game.players]
    return {
        "turn": game.turn,
        "turns": game.map.turns if game.dice else None,
        "dice": list(roll.dice) if roll else None,
        "actions": list(roll.actions) if roll else [],
        "choice": roll.choice if roll else False,
        "headline": roll.headline if roll else "",
        "text": roll.text if roll else "",
        "navigator": None if game.dice else game.navigator_on(max(game.turn, 1)),
        "players": players,
        "over": game.over,
        "over_reason": game.over_reason(),
        "can_undo": bool(game.events),
        "map": {"id": game.map.id, "name": game.map.name},
        "mode": game.mode,
        "game": game.id,
        "ratings": [{"points": band, "title": title} for band, title in rules.rating_bands(game.map.ratings)],
    }
