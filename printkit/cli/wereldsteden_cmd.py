"""``printkit wereldsteden``: deal and refill Wereldsteden's winning tiles.

The board's tiles live in a small JSON state file (default
./printkit-wereldsteden.json), written atomically and locked while it
changes; a corrupt file is reported and never overwritten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from printkit.cli.common import (
    changing, load_state, replacing, reported, save_state, seed_or_random, state_flag, state_option,
)
from printkit.errors import StateError

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from printkit.cli.common import Box
    from printkit.model.games import Wereldsteden
    from printkit.rules.wereldsteden import Board

DEFAULT_STATE = "printkit-wereldsteden.json"
STATE_KIND = "wereldsteden"
STATE = state_option(DEFAULT_STATE, "The board's state file.")
# What the state file holds: the board, the shuffle's seed and how many refills drew from it.
Dealt = tuple["Board", int, int]


def _game() -> Wereldsteden:
    from printkit.loading.games import load_wereldsteden

    return load_wereldsteden()


def _load(path: str, game: Wereldsteden) -> Dealt:
    from printkit.rules.wereldsteden import from_state

    missing = f"no tiles dealt here; deal them with `printkit wereldsteden setup{state_flag(path, DEFAULT_STATE)}`"
    state = load_state(path, STATE_KIND, missing)
    if not isinstance(state.get("seed"), int) or not isinstance(state.get("draws"), int):
        raise StateError(f"{path}: state file is corrupt (no seed); it was left untouched")
    return from_state(game, state, path), state["seed"], state["draws"]


def _dump(dealt: Dealt) -> dict[str, Any]:
    from printkit.rules.wereldsteden import to_state

    board, seed, draws = dealt
    return {"seed": seed, "draws": draws, **to_state(board)}


def _changing(path: str, game: Wereldsteden) -> AbstractContextManager[Box[Dealt]]:
    """Lock and load (board, seed, draws); the caller replaces ``box.value``; saved if it changed."""
    return changing(path, STATE_KIND, lambda p: _load(p, game), _dump)


def _space(game: Wereldsteden, value: str) -> str:
    key = "-".join(value.strip().lower().split())
    ids = [s.id for s in game.spaces]
    if key in ids:
        return key
    raise click.BadParameter(f"unknown display space {value!r}; choose from {', '.join(ids)}", param_hint="'SPACE'")


def _show(game: Wereldsteden, board: Board) -> None:
    width = max(len(s.city) for s in game.spaces)
    for s in game.spaces:
        tile = board.display[s.id]
        shown = f"{game.tile(tile).name} ({game.tile(tile).city})" if tile else "- empty -"
        click.echo(f"  {s.stack:<7} {s.city:<{width}}  {shown}")
    for colour in game.stacks:
        aside = board.aside[colour]
        extra = f", put aside: {', '.join(game.tile(t).name for t in aside)}" if aside else ""
        click.echo(f"  {colour} stack: {len(board.stacks[colour])} tiles left{extra}")


@click.group(name="wereldsteden")
def wereldsteden() -> None:
    """Deal Wereldsteden's winning tiles so no two identical tiles lie side by side.

    `setup` deals the yellow tiles to Helsinki, Tokyo and Wellington and the
    purple ones to Helsinki, Vancouver and Buenos Aires; after a sale,
    `refill SPACE` takes the sold tile and draws a legal replacement. A drawn
    tile that would lie beside an identical one is put aside and the next one
    drawn; when a stack runs out the put-aside tiles are shuffled back.

    \b
    Example:
      printkit wereldsteden setup --seed 7
      printkit wereldsteden refill tokyo
      printkit wereldsteden status
    """


@wereldsteden.command(name="setup")
@click.option("--seed", type=int, default=None, help="Seed for the shuffle (default: random, saved).")
@click.option("--force", is_flag=True, help="Replace the tiles dealt in --state.")
@STATE
def setup(seed: int | None, force: bool, state_path: str) -> None:
    """Shuffle both stacks and deal the six display spaces.

    \b
    Example:
      printkit wereldsteden setup --seed 42 --state tonight.json
    """
    import random

    from printkit.rules.wereldsteden import setup as deal

    game = _game()
    seed = seed_or_random(seed)
    board, log = deal(game, random.Random(seed))
    with replacing(state_path, lambda path: _load(path, game)) as old:  # a corrupt or foreign file stops here
        if old is not None and not force:
            raise StateError(f"{state_path}: tiles are already dealt for a game; replace them with --force")
        save_state(state_path, STATE_KIND, _dump((board, seed, 0)))
    click.echo(f"Winning tiles dealt (seed {seed}):")
    _show(game, board)
    click.echo(f"Saved in {state_path}.")


@wereldsteden.command(name="refill")
@click.argument("spaces", metavar="SPACE...", nargs=-1, required=True)
@STATE
def refill(spaces: tuple[str, ...], state_path: str) -> None:
    """Take the tile(s) sold from SPACE(s) and draw legal replacements.

    SPACE is a display space: helsinki-yellow, tokyo, wellington,
    helsinki-purple, vancouver or buenos-aires.

    \b
    Example:
      printkit wereldsteden refill helsinki-yellow helsinki-purple
    """
    import random

    from printkit.rules.wereldsteden import refill as draw

    game = _game()
    sold = [_space(game, s) for s in spaces]
    if len(set(sold)) != len(sold):
        raise click.BadParameter("each space can be sold from once", param_hint="'SPACE'")
    with _changing(state_path, game) as box:
        board, seed, draws = box.value
        refilled, log = draw(game, board, sold, random.Random(f"{seed}/{draws + 1}"))
        box.value = (refilled, seed, draws + 1)
    for s in sold:
        click.echo(f"Sold: {game.tile(str(board.display[s])).name} from {s}.")  # refill checked it held a tile
    for line in log:
        click.echo(f"Drawn: {line}")
    click.echo("On display:")
    _show(game, refilled)


@wereldsteden.command(name="swap")
@click.argument("first", metavar="SPACE")
@click.argument("second", metavar="SPACE")
@STATE
def swap(first: str, second: str, state_path: str) -> None:
    """Astana: exchange two different winning tiles of the same colour.

    \b
    Example:
      printkit wereldsteden swap tokyo wellington
    """
    from printkit.rules.wereldsteden import swap as exchange

    game = _game()
    a, b = _space(game, first), _space(game, second)
    with _changing(state_path, game) as box:
        board, seed, draws = box.value
        box.value = (exchange(game, board, a, b), seed, draws)
    click.echo(f"Swapped the tiles on {a} and {b}.")
    _show(game, box.value[0])


@wereldsteden.command(name="status")
@STATE
def status(state_path: str) -> None:
    """Show the tiles on display, the stacks and the put-aside tiles.

    \b
    Example:
      printkit wereldsteden status
    """
    game = _game()
    with reported():
        board, seed, draws = _load(state_path, game)
    refills = f"{draws} refill{'s' * (draws != 1)}"
    click.echo(f"Winning tiles (seed {seed}, {refills}):")
    _show(game, board)
