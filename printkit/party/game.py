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
    from printkit.model.maps import GameMap

T = TypeVar("T")
SIDE_KIND = "party"
SIDE_SUFFIX = ".party"
KEY_BYTES = 24
"""Random bytes in the host key and in each player's token (192 bits)."""
MISSING = "no game has been started here; start one with `printkit party --map world --players \"Ann,Bo\"`"


class Sheet(NamedTuple):
    """A player's photographed sheet: what was read (as ``scan --json`` gives it) and the total that counts."""

    read: dict[str, Any]
    total: int | None = None
    """The confirmed (or corrected) total; None while the player has not confirmed the read."""


class Side(NamedTuple):
    """The server's own facts about a game: host key, players' token digests, their sheets."""

    host_key: str
    tokens: dict[str, str]
    sheets: dict[str, Sheet]


def digest(token: str) -> str:
    """What is saved of a token: its SHA-256 (a leaked side file gives no player's token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _side_to_state(side: Side) -> dict[str, Any]:
    sheets = {who: {"read": s.read, "total": s.total} for who, s in side.sheets.items()}
    return {"host_key": side.host_key, "tokens": dict(side.tokens), "sheets": sheets}


def _side_from_state(doc: dict[str, Any], source: str, players: tuple[str, ...]) -> Side:
    key, tokens, sheets = doc.get("host_key"), doc.get("tokens"), doc.get("sheets")
    bad = not isinstance(key, str) or len(key) < 22 or not isinstance(tokens, dict) or not isinstance(sheets, dict)
    bad = bad or not all(p in players and isinstance(t, str) for p, t in (tokens or {}).items())
    bad = bad or not all(p in players and isinstance(s, dict) and isinstance(s.get("read"), dict)
                         and (s.get("total") is None or type(s.get("total")) is int) for p, s in (sheets or {}).items())
    if bad:
        raise StateError(f"{source}: the party file is corrupt; it was left untouched (delete it to start afresh)")
    assert isinstance(key, str) and isinstance(tokens, dict) and isinstance(sheets, dict)
    return Side(key, dict(tokens), {p: Sheet(s["read"], s.get("total")) for p, s in sheets.items()})


def game_file() -> StateFile[Game]:
    """The turns game file's schema, as ``printkit turns`` reads and writes it."""
    from printkit.loading.dice import load_dice

    return StateFile(rules.STATE_KIND, rules.to_state, lambda doc, source: rules.from_state(doc, source, load_dice()))


def start_game(path: str, game_map: GameMap, players: tuple[str, ...], mode: str, seed: int) -> None:
    """Save a new game at ``path`` (refused while a game there is in progress), as ``turns start`` would."""
    from printkit.files import locked

    if mode == "multiplayer":
        raise RuleError("multiplayer mode (a Navigator each turn) is not in this printkit's game file yet; "
                        "play party or solo mode")
    if mode == "solo" and len(players) != 1 or mode == "party" and len(players) < 2:
        raise RuleError(f"{mode} mode is for {'1 player' if mode == 'solo' else '2 or more players'}, "
                        f"got {len(players)}")
    file = game_file()
    game = Game(rules.map_info(game_map), players, seed)
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
            side = Side(secrets.token_urlsafe(KEY_BYTES), {}, {})
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
            side = Side(self.side.host_key, dict(self.side.tokens), dict(self.side.sheets))
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

    def finish(self, who: str) -> None:
        """``who`` is home on the current turn."""
        self.change(lambda game, side: game.finish(who))

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

    def keep_read(self, who: str, read: dict[str, Any]) -> None:
        """Keep a player's read sheet, not yet counted."""
        def act(game: Game, side: Side) -> None:
            side.sheets[who] = Sheet(read)

        self.change(act)

    def confirm(self, who: str, total: int | None) -> int:
        """Count ``who``'s read sheet, with its read total or the one they corrected it to."""
        def act(game: Game, side: Side) -> int:
            sheet = side.sheets.get(who)
            if sheet is None:
                raise RuleError(f"{who} has no photographed sheet to confirm yet")
            counted = sheet.read["total"] if total is None else total
            side.sheets[who] = Sheet(sheet.read, counted)
            return int(counted)

        return self.change(act)

    def sheet_mode(self) -> str:
        """The mode one player's sheet is scored in: solo/party sheets alone score as solo (the same rules)."""
        return "solo"

    def finished_turn(self, who: str) -> int | None:
        """The turn the tracker has ``who`` home on, if any."""
        return self.game.finished.get(who)

    def state(self) -> dict[str, Any]:
        """The game as ``GET /api/state`` gives it."""
        return state_json(self.game, self.side)


class JoinedError(RuleError):
    """A name that another phone has joined as already."""


def state_json(game: Game, side: Side) -> dict[str, Any]:
    """The state document: turn, dice and actions, Navigator, players with finish and total, over."""
    roll = game.last_roll()
    finished = game.finished
    players = [{"name": p, "finished_turn": finished.get(p), "total": side.sheets[p].total if p in side.sheets else None,
                "bonus": rules.speed_bonus(game.map.turns, finished[p]) if p in finished else None,
                "joined": p in side.tokens} for p in game.players]
    return {
        "turn": game.turn,
        "turns": game.map.turns,
        "dice": list(roll.dice) if roll else None,
        "actions": list(roll.actions) if roll else [],
        "choice": roll.choice if roll else False,
        "headline": roll.headline if roll else "",
        "text": roll.text if roll else "",
        "navigator": None,
        "players": players,
        "over": game.over,
        "over_reason": game.over_reason(),
        "can_undo": bool(game.events),
        "map": {"id": game.map.id, "name": game.map.name},
        "mode": game.mode,
        "ratings": [{"points": band, "title": title} for band, title in rules.rating_bands(game.map.ratings)],
    }
