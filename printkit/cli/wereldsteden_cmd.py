"""``printkit wereldsteden``: deal and refill Wereldsteden's winning tiles.

The board's tiles live in a small JSON state file (default
./printkit-wereldsteden.json), written atomically and locked while it
changes; a corrupt file is reported and never overwritten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from printkit.cli.common import PATH_SHOWN, SEED, FactsCommand, FactsGroup, input_param, seed_or_random
from printkit.cli.state import Companion, force_option
from printkit.model.names import shorten

if TYPE_CHECKING:
    from printkit.cli.state import Saved
    from printkit.model.games import Wereldsteden
    from printkit.rules.wereldsteden import Board, Dealt

DEALER = Companion("wereldsteden", "printkit-wereldsteden.json", "The board's state file.",
                   "no tiles dealt here; deal them with", "printkit wereldsteden setup")  # fmt: skip


def _game() -> Wereldsteden:
    from printkit.loading.games import load_wereldsteden

    return load_wereldsteden()


def _saved(path: str, game: Wereldsteden) -> Saved[Dealt]:
    from printkit.rules.wereldsteden import from_state, to_state

    return DEALER.at(path, to_state, lambda doc, p: from_state(doc, p, game))


def _and(words: list[str]) -> str:
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else "".join(words)


def _facts() -> dict[str, object]:
    """The display spaces the help quotes, from the Wereldsteden data."""
    game = _game()
    deals = [f"the {colour} tiles to {_and([s.city for s in game.spaces if s.stack == colour])}"
             for colour in game.stacks]  # fmt: skip
    ids = [s.id for s in game.spaces]
    return {"deals": _and(deals), "spaces": f"{', '.join(ids[:-1])} or {ids[-1]}"}


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


@click.group(name="wereldsteden", cls=FactsGroup, facts=_facts)
def wereldsteden() -> None:
    """Deal Wereldsteden's winning tiles so no two identical tiles lie side by side.

    `setup` deals {deals}; after a sale,
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
@click.option("--seed", type=SEED, default=None, help="Seed for the shuffle (default: random, saved).")
@force_option("Replace the tiles dealt in --state.")
@DEALER.option
def setup(seed: int | None, force: bool, state_path: str) -> None:
    """Shuffle both stacks and deal the six display spaces.

    \b
    Example:
      printkit wereldsteden setup --seed 42 --state tonight.json
    """
    import random

    from printkit.rules.wereldsteden import Dealt
    from printkit.rules.wereldsteden import setup as deal

    game = _game()
    seed = seed_or_random(seed)
    board, log = deal(game, random.Random(seed))
    busy = "tiles are already dealt for a game; replace them with --force"
    _saved(state_path, game).replace(Dealt(board, seed, 0), force, lambda old: busy)  # a corrupt file stops here
    click.echo(f"Winning tiles dealt (seed {seed}):")
    _show(game, board)
    click.echo(f"Saved in {shorten(state_path, PATH_SHOWN)}.")


@wereldsteden.command(name="refill", cls=FactsCommand, facts=_facts)
@click.argument("spaces", metavar="SPACE...", nargs=-1, required=True)
@DEALER.option
def refill(spaces: tuple[str, ...], state_path: str) -> None:
    """Take the tile(s) sold from SPACE(s) and draw legal replacements.

    SPACE is a display space: {spaces}.

    \b
    Example:
      printkit wereldsteden refill helsinki-yellow helsinki-purple
    """
    import random

    from printkit.rules.wereldsteden import Dealt, sold_spaces
    from printkit.rules.wereldsteden import refill as draw

    game = _game()
    with input_param("'SPACE'"):
        sold = sold_spaces(game, spaces)
    with _saved(state_path, game).changing() as box:
        board, seed, draws = box.value.board, box.value.seed, box.value.draws
        refilled, log = draw(game, board, sold, random.Random(f"{seed}/{draws + 1}"))
        box.value = Dealt(refilled, seed, draws + 1)
    for s in sold:
        click.echo(f"Sold: {game.tile(str(board.display[s])).name} from {s}.")  # refill checked it held a tile
    for line in log:
        click.echo(f"Drawn: {line}")
    click.echo("On display:")
    _show(game, refilled)


@wereldsteden.command(name="swap")
@click.argument("first", metavar="SPACE")
@click.argument("second", metavar="SPACE")
@DEALER.option
def swap(first: str, second: str, state_path: str) -> None:
    """Astana: exchange two different winning tiles of the same colour.

    \b
    Example:
      printkit wereldsteden swap tokyo wellington
    """
    from dataclasses import replace

    from printkit.rules.wereldsteden import space_id
    from printkit.rules.wereldsteden import swap as exchange

    game = _game()
    with input_param("'SPACE'"):
        a, b = space_id(game, first), space_id(game, second)
    if a == b:
        raise click.BadParameter(f"give two different spaces to swap (both are {a!r})", param_hint="'SPACE'")
    with _saved(state_path, game).changing() as box:
        box.value = replace(box.value, board=exchange(game, box.value.board, a, b))
    click.echo(f"Swapped the tiles on {a} and {b}.")
    _show(game, box.value.board)


@wereldsteden.command(name="status")
@DEALER.option
def status(state_path: str) -> None:
    """Show the tiles on display, the stacks and the put-aside tiles.

    \b
    Example:
      printkit wereldsteden status
    """
    game = _game()
    dealt = _saved(state_path, game).load()
    board, seed, draws = dealt.board, dealt.seed, dealt.draws
    refills = f"{draws} refill{'s' * (draws != 1)}"
    click.echo(f"Winning tiles (seed {seed}, {refills}):")
    _show(game, board)
