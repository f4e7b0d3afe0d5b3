"""``printkit wereldsteden``: deal and refill Wereldsteden's winning tiles.

The board's tiles live in a small JSON state file (default
./printkit-wereldsteden.json), written atomically and locked while it
changes; a corrupt file is reported and never overwritten.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click

from printkit.cli.common import reported
from printkit.errors import StateError

if TYPE_CHECKING:
    from printkit.games import Wereldsteden
    from printkit.rules.wereldsteden import Board

DEFAULT_STATE = "printkit-wereldsteden.json"
STATE_KIND = "wereldsteden"
F = TypeVar("F", bound=Callable[..., Any])


def state_option(func: F) -> F:
    """The ``--state PATH`` option shared by every wereldsteden subcommand."""
    return click.option(
        "--state", "state_path", type=click.Path(dir_okay=False), default=DEFAULT_STATE,
        show_default=True, help="The board's state file.",
    )(func)  # fmt: skip


def _game() -> Wereldsteden:
    from printkit.games import load_wereldsteden

    return load_wereldsteden()


def _load(path: str, game: Wereldsteden) -> tuple[Board, dict[str, Any]]:
    from printkit import __version__
    from printkit.files import read_state
    from printkit.rules.wereldsteden import from_state

    if not os.path.exists(path):
        extra = "" if path == DEFAULT_STATE else f" --state {path}"
        raise StateError(f"{path}: no tiles dealt here; deal them with `printkit wereldsteden setup{extra}`")
    state = read_state(path, STATE_KIND, __version__)
    if not isinstance(state.get("seed"), int) or not isinstance(state.get("draws"), int):
        raise StateError(f"{path}: state file is corrupt (no seed); it was left untouched")
    return from_state(game, state, path), state


def _save(path: str, board: Board, seed: int, draws: int) -> None:
    from printkit import __version__
    from printkit.files import write_state
    from printkit.rules.wereldsteden import to_state

    write_state(path, STATE_KIND, {"printkit_version": __version__, "seed": seed, "draws": draws, **to_state(board)})


@contextlib.contextmanager
def _changing(path: str, game: Wereldsteden) -> Iterator[list[Any]]:
    """Lock and load ``[board, seed, draws]``; save what the caller leaves there."""
    from printkit.files import locked

    with reported():
        _load(path, game)  # a missing or corrupt file stops here, before any lock file is made
        with locked(path):
            board, state = _load(path, game)
            box: list[Any] = [board, state["seed"], state["draws"]]
            yield box
            _save(path, box[0], box[1], box[2])


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
@state_option
def setup(seed: int | None, force: bool, state_path: str) -> None:
    """Shuffle both stacks and deal the six display spaces.

    \b
    Example:
      printkit wereldsteden setup --seed 42 --state tonight.json
    """
    import random

    from printkit.files import locked
    from printkit.rules.wereldsteden import setup as deal

    game = _game()
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    board, log = deal(game, random.Random(seed))
    with reported(), locked(state_path):
        if os.path.exists(state_path):
            _load(state_path, game)  # a corrupt or foreign file stops here, untouched
            if not force:
                raise StateError(f"{state_path}: tiles are already dealt for a game; replace them with --force")
        _save(state_path, board, seed, 0)
    click.echo(f"Winning tiles dealt (seed {seed}):")
    _show(game, board)
    click.echo(f"Saved in {state_path}.")


@wereldsteden.command(name="refill")
@click.argument("spaces", metavar="SPACE...", nargs=-1, required=True)
@state_option
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
        before = dict(box[0].display)
        box[0], log = draw(game, box[0], sold, random.Random(f"{box[1]}/{box[2] + 1}"))
        box[2] += 1
    for s in sold:
        click.echo(f"Sold: {game.tile(before[s]).name} from {s}.")
    for line in log:
        click.echo(f"Drawn: {line}")
    click.echo("On display:")
    _show(game, box[0])


@wereldsteden.command(name="swap")
@click.argument("first", metavar="SPACE")
@click.argument("second", metavar="SPACE")
@state_option
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
        box[0] = exchange(game, box[0], a, b)
    click.echo(f"Swapped the tiles on {a} and {b}.")
    _show(game, box[0])


@wereldsteden.command(name="status")
@state_option
def status(state_path: str) -> None:
    """Show the tiles on display, the stacks and the put-aside tiles.

    \b
    Example:
      printkit wereldsteden status
    """
    game = _game()
    with reported():
        board, state = _load(state_path, game)
    refills = f"{state['draws']} refill{'s' * (state['draws'] != 1)}"
    click.echo(f"Winning tiles (seed {state['seed']}, {refills}):")
    _show(game, board)
