"""Wereldsteden: the winning-tile dealer and the win check.

Dealer: each colour's tiles form a shuffled stack. A display space is filled
from the top of its colour's stack; a drawn tile that would lie beside an
identical one (same type twice in a ``distinct`` group of the data: the three
yellow spaces, the three purple spaces, Helsinki's two spaces) is put aside
beside the board and the next one is drawn. When a stack runs out, the
put-aside tiles of that colour are shuffled into a new stack, provided at
least one of them fits; if no tile left can legally fill a space, the space
stays empty until a later refill.

Win check: scores a :class:`~printkit.model.records.WereldstedenRecord`; game
files are read by :mod:`printkit.loading.records.wereldsteden`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from printkit.errors import DataError, InputError, RuleError, corrupt_state
from printkit.model.games import Wereldsteden
from printkit.model.limits import LARGEST, MAX_SEED
from printkit.model.records import WereldstedenRecord
from printkit.model.words import join_names
from printkit.rules.report import GameScore, PlayerScore, Section

GAME = "wereldsteden"
STATE_KIND = "wereldsteden"


@dataclass(frozen=True)
class Board:
    """Tiles on display per space (None: empty), each colour's stack (top first) and put-aside tiles."""

    display: Mapping[str, str | None]
    stacks: Mapping[str, tuple[str, ...]]
    aside: Mapping[str, tuple[str, ...]]


def fits(game: Wereldsteden, display: Mapping[str, str | None], space: str, tile: str) -> bool:
    """Whether ``tile`` on ``space`` lies beside no identical tile."""
    return not any(
        space in group and any(display.get(other) == tile for other in group if other != space)
        for group in game.distinct
    )


def display_problems(game: Wereldsteden, display: Mapping[str, str | None]) -> list[str]:
    """Every pair of identical tiles on display in one ``distinct`` group (empty if legal)."""
    out = []
    for group in game.distinct:
        seen: dict[str, str] = {}
        for space in group:
            tile = display.get(space)
            if tile is None:
                continue
            if tile in seen:
                out.append(f"{seen[tile]} and {space} both show {tile}")
            seen[tile] = space
    return out


def _draw(game: Wereldsteden, board: Board, space: str, rng: random.Random, log: list[str]) -> Board:
    """Fill one empty space from its colour's stack, putting aside tiles that do not fit."""
    colour = game.space(space).stack
    display, stack, aside = dict(board.display), list(board.stacks[colour]), list(board.aside[colour])
    drawn: list[str] = []
    while True:
        if not stack:
            if not any(fits(game, display, space, t) for t in aside):
                log.append(f"{space}: no {colour} tile left fits; the space stays empty")
                break
            stack, aside = aside, []
            rng.shuffle(stack)
            log.append(f"{space}: {colour} stack empty, the put-aside tiles are shuffled into a new stack")
        tile = stack.pop(0)
        if fits(game, display, space, tile):
            display[space] = tile
            aside_names = ", ".join(game.tile(t).name for t in drawn)
            log.append(f"{space}: {game.tile(tile).name}" + (f" (put aside: {aside_names})" if drawn else ""))
            break
        aside.append(tile)
        drawn.append(tile)
    return Board(display, {**board.stacks, colour: tuple(stack)}, {**board.aside, colour: tuple(aside)})


def fill(game: Wereldsteden, board: Board, rng: random.Random) -> tuple[Board, list[str]]:
    """Fill every empty display space, in board order; also returns what happened."""
    log: list[str] = []
    for s in game.spaces:
        if board.display.get(s.id) is None:
            board = _draw(game, board, s.id, rng, log)
    return board, log


def setup(game: Wereldsteden, rng: random.Random) -> tuple[Board, list[str]]:
    """Shuffle both stacks and deal a legal display."""
    stacks = {}
    for colour in game.stacks:
        tiles = [t.id for t in game.tiles if t.stack == colour for _ in range(game.tiles_per_type)]
        rng.shuffle(tiles)
        stacks[colour] = tuple(tiles)
    empty = Board({s.id: None for s in game.spaces}, stacks, {c: () for c in game.stacks})
    return fill(game, empty, rng)


def space_id(game: Wereldsteden, value: str) -> str:
    """The display space named by ``value`` (an id, any case, blanks as dashes; InputError ``space``)."""
    key = "-".join(value.strip().lower().split())
    ids = [s.id for s in game.spaces]
    if key in ids:
        return key
    raise InputError("space", f"unknown display space {{got}}; choose from {', '.join(ids)}", value)


def sold_spaces(game: Wereldsteden, values: Sequence[str]) -> list[str]:
    """The display spaces sold from, each named once (InputError ``space``)."""
    sold = [space_id(game, v) for v in values]
    if len(set(sold)) != len(sold):
        raise InputError("space", "each space can be sold from once")
    return sold


def refill(game: Wereldsteden, board: Board, sold: Sequence[str], rng: random.Random) -> tuple[Board, list[str]]:
    """Take the tiles sold from these spaces, then fill every empty space."""
    display = dict(board.display)
    for space in sold:
        if display[space] is None:
            raise RuleError(f"{space} has no winning tile to sell")
        display[space] = None
    return fill(game, Board(display, board.stacks, board.aside), rng)


def swap(game: Wereldsteden, board: Board, a: str, b: str) -> Board:
    """Astana: exchange two different winning tiles of the same colour on display."""
    ta, tb = board.display[a], board.display[b]
    if game.space(a).stack != game.space(b).stack:
        raise RuleError(f"{a} and {b} hold tiles of different colours; Astana swaps two of the same colour")
    if ta is None or tb is None or ta == tb:
        raise RuleError(f"{a} and {b} must both hold a tile, and different ones, to swap")
    display = {**board.display, a: tb, b: ta}
    if display_problems(game, display):
        raise RuleError(f"swapping {a} and {b} would put identical tiles side by side")
    return Board(display, board.stacks, board.aside)


def board_to_state(board: Board) -> dict[str, Any]:
    """The JSON-ready state of the board."""
    return {"display": dict(board.display), "stacks": {k: list(v) for k, v in board.stacks.items()},
            "aside": {k: list(v) for k, v in board.aside.items()}}  # fmt: skip


def board_from_state(state: dict[str, Any], path: str, game: Wereldsteden) -> Board:
    """Rebuild the board from its saved state; StateError naming the field inconsistent with the game data."""
    ids = {t.id: t.stack for t in game.tiles}
    space_ids = [s.id for s in game.spaces]
    display = state.get("display")
    if not isinstance(display, dict) or set(display) != set(space_ids):
        raise corrupt_state(path, "display", f"a table of the spaces {', '.join(space_ids)}")
    for space, tile in display.items():
        if tile is not None and (not isinstance(tile, str) or ids.get(tile) != game.space(space).stack):
            raise corrupt_state(path, f"display.{space}", f"a {game.space(space).stack} tile id or null")
    if display_problems(game, display):
        raise corrupt_state(path, "display", f"a legal display, but {display_problems(game, display)[0]}")
    piles = {key: _pile(state.get(key), key, path, game) for key in ("stacks", "aside")}
    for t in game.tiles:
        held = list(display.values()).count(t.id) + sum(p.count(t.id) for pile in piles.values() for p in pile.values())
        if held > game.tiles_per_type:
            raise corrupt_state(path, "stacks", f"at most {game.tiles_per_type} {t.id} tiles in all, found {held}")
    return Board(dict(display), piles["stacks"], piles["aside"])


def _pile(value: object, key: str, path: str, game: Wereldsteden) -> dict[str, tuple[str, ...]]:
    """One colour-keyed table of tile lists (``stacks`` or ``aside``), checked against the tiles."""
    ids = {t.id: t.stack for t in game.tiles}
    if not isinstance(value, dict) or set(value) != set(game.stacks):
        raise corrupt_state(path, key, f"a table of the stacks {', '.join(game.stacks)}")
    for colour, tiles in value.items():
        if not isinstance(tiles, list) or any(not isinstance(t, str) or ids.get(t) != colour for t in tiles):
            raise corrupt_state(path, f"{key}.{colour}", f"a list of {colour} tile ids")
    return {k: tuple(v) for k, v in value.items()}


@dataclass(frozen=True)
class Dealt:
    """What the dealer's state file holds: the board, the shuffle's seed and how many refills drew from it."""

    board: Board
    seed: int
    draws: int


def to_state(dealt: Dealt) -> dict[str, Any]:
    """The JSON-ready state of the dealer: seed, refills drawn and the board."""
    return {"seed": dealt.seed, "draws": dealt.draws, **board_to_state(dealt.board)}


def from_state(state: dict[str, Any], path: str, game: Wereldsteden) -> Dealt:
    """Rebuild the dealer's state (StateError if it is inconsistent with the game data)."""
    seed, draws = state.get("seed"), state.get("draws")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise corrupt_state(path, "seed", f"a whole number from 0 to {MAX_SEED}")
    if isinstance(draws, bool) or not isinstance(draws, int) or not 0 <= draws <= LARGEST:
        raise corrupt_state(path, "draws", f"a whole number 0-{LARGEST}")
    return Dealt(board_from_state(state, path, game), seed, draws)


# ----------------------------------------------------------------- win check


def score_player(game: Wereldsteden, name: str, tiles: Sequence[str]) -> PlayerScore:
    """One section: the number of different winning tiles (duplicates don't count)."""
    different = sorted(set(tiles), key=[t.id for t in game.tiles].index)
    dups = len(tiles) - len(different)
    why = f"{', '.join(different) or 'none'}" + (f"; {dups} duplicate{'s' * (dups != 1)} not counted" if dups else "")
    return PlayerScore(name, (Section("tiles", "Different winning tiles", len(different), why),))


def score_game(game: Wereldsteden, players: Sequence[tuple[str, Sequence[str]]], variant: bool = False) -> GameScore:
    """Who has reached 6 (variant 8) different winning tiles: that player has won."""
    target = game.variant_win_tiles if variant else game.win_tiles
    scores = tuple(score_player(game, name, tiles) for name, tiles in players)
    winners = tuple(s.name for s in scores if s.total >= target)
    mode = "variant" if variant else "standard"
    if len(winners) > 1:
        raise RuleError(f"{join_names(list(winners))} all have {target} different winning tiles, but the game ends "
                        "as soon as one player has them")  # fmt: skip
    note = "" if winners else f"nobody has {target} different winning tiles yet: the game goes on"
    return GameScore(GAME, "", mode, scores, winners, note)


def score_record(record: WereldstedenRecord) -> GameScore:
    """Check a Wereldsteden record for a winner (DataError if two players have already won)."""
    try:
        return score_game(record.game, [(p.name, p.tiles) for p in record.players], record.variant)
    except RuleError as exc:
        raise DataError([f"{record.source}: players: {exc}"]) from None
