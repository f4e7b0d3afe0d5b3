"""``printkit wereldsteden``: deal and refill Wereldsteden's winning tiles.

The board's tiles live in a small JSON state file (default
./printkit-wereldsteden.json), written atomically and locked while it
changes; a corrupt file is reported and never overwritten. Dealt for named
players (``setup --players``), it is a game file: every ``refill --by NAME``
records who sold which tiles, and ``printkit score --game FILE`` runs the win
check on those sales (:func:`score_game_file`).
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
    from printkit.rules.wereldsteden import STATE_FORMAT, from_state, migrate, to_state

    return DEALER.at(path, to_state, lambda doc, p: from_state(doc, p, game), STATE_FORMAT, migrate)


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
@click.option("--players", default=None, help="Comma-separated names: record each sale by player (refill --by).")
@click.option("--variant", is_flag=True, help="Play to 8 different winning tiles instead of 6.")
@force_option("Replace the tiles dealt in --state.")
@DEALER.option
def setup(seed: int | None, players: str | None, variant: bool, force: bool, state_path: str) -> None:
    """Shuffle both stacks and deal the six display spaces.

    With --players, every refill names its seller (`refill SPACE --by NAME`)
    and `printkit score --game FILE` says who has won.

    \b
    Example:
      printkit wereldsteden setup --seed 42 --state tonight.json
      printkit wereldsteden setup --players "Ann,Bo,Cy"
    """
    import random

    from printkit.rules.gamefile import new_id
    from printkit.rules.wereldsteden import Dealt
    from printkit.rules.wereldsteden import setup as deal

    game = _game()
    names = _players(game, players)
    seed = seed_or_random(seed)
    board, log = deal(game, random.Random(seed))
    busy = "tiles are already dealt for a game; replace them with --force"
    dealt = Dealt(board, seed, 0, new_id(), names, variant)
    _saved(state_path, game).replace(dealt, force, lambda old: busy)  # a corrupt file stops here
    click.echo(f"Winning tiles dealt (seed {seed}):")
    _show(game, board)
    if names:
        target = game.variant_win_tiles if variant else game.win_tiles
        click.echo(f"Players: {', '.join(names)}; the first with {target} different winning tiles wins. "
                   "Name the seller of every sale: `printkit wereldsteden refill SPACE --by NAME`.")
    click.echo(f"Saved in {shorten(state_path, PATH_SHOWN)}.")


def _players(game: Wereldsteden, players: str | None) -> tuple[str, ...]:
    """The ``--players`` names, checked (none without the option)."""
    from printkit.cli.common import checked_names, names_option

    if players is None:
        return ()
    names = checked_names(names_option(players), "'--players'")
    if not game.min_players <= len(names) <= game.max_players:
        raise click.BadParameter(f"{game.name} is for {game.min_players}-{game.max_players} players, "
                                 f"got {len(names)}", param_hint="'--players'")
    return tuple(names)


@wereldsteden.command(name="refill", cls=FactsCommand, facts=_facts)
@click.argument("spaces", metavar="SPACE...", nargs=-1, required=True)
@click.option("--by", "seller", metavar="NAME", default=None, help="Who sold (a game dealt with --players).")
@DEALER.option
def refill(spaces: tuple[str, ...], seller: str | None, state_path: str) -> None:
    """Take the tile(s) sold from SPACE(s) and draw legal replacements.

    SPACE is a display space: {spaces}. In a game dealt with --players,
    --by NAME records the sale: the tiles go to NAME.

    \b
    Example:
      printkit wereldsteden refill helsinki-yellow helsinki-purple
      printkit wereldsteden refill tokyo --by Ann
    """
    import random
    from dataclasses import replace

    from printkit.rules.wereldsteden import Sale, sold_spaces, winner
    from printkit.rules.wereldsteden import refill as draw

    game = _game()
    with input_param("'SPACE'"):
        sold = sold_spaces(game, spaces)
    with _saved(state_path, game).changing() as box:
        dealt = box.value
        who = _seller(game, dealt, seller)
        board, seed, draws = dealt.board, dealt.seed, dealt.draws
        refilled, log = draw(game, board, sold, random.Random(f"{seed}/{draws + 1}"))
        sales = dealt.sales if who is None else (*dealt.sales, Sale(who, tuple(str(board.display[s]) for s in sold)))
        box.value = replace(dealt, board=refilled, draws=draws + 1, sales=sales)
    for s in sold:
        by = f" by {who}" if who else ""
        click.echo(f"Sold{by}: {game.tile(str(board.display[s])).name} from {s}.")  # refill checked it held a tile
    for line in log:
        click.echo(f"Drawn: {line}")
    click.echo("On display:")
    _show(game, refilled)
    if who is not None:
        _sales_line(game, box.value, who, winner(game, box.value), state_path)


def _seller(game: Wereldsteden, dealt: Dealt, seller: str | None) -> str | None:
    """The player named by ``--by`` (a usage error if unknown or missing); None for a deal without players."""
    from printkit.errors import RuleError
    from printkit.rules.wereldsteden import player_of, winner

    if not dealt.players:
        if seller is not None:
            raise click.BadParameter("these tiles were dealt without players (setup --players); leave out --by",
                                     param_hint="'--by'")
        return None
    won = winner(game, dealt)
    if won is not None:
        raise RuleError(f"the game is over: {won} has won; nothing was changed")
    if seller is None:
        raise click.UsageError(f"name the seller with --by NAME (players: {', '.join(dealt.players)})")
    with input_param("'--by'", seller):
        return player_of(dealt, seller)


def _sales_line(game: Wereldsteden, dealt: Dealt, who: str, won: str | None, path: str) -> None:
    """The seller's different winning tiles, and the end of the game when they reached the target."""
    from printkit.rules.wereldsteden import tiles_of

    target = game.variant_win_tiles if dealt.variant else game.win_tiles
    different = len(set(tiles_of(dealt, who)))
    click.echo(f"{who} has {different} of {target} different winning tiles.")
    if won is not None:
        click.echo(f"{won} wins the game: `printkit score --game {shorten(path, PATH_SHOWN)}` scores it.")


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
    from printkit.rules.wereldsteden import tiles_of

    game = _game()
    dealt = _saved(state_path, game).load()
    board, seed, draws = dealt.board, dealt.seed, dealt.draws
    refills = f"{draws} refill{'s' * (draws != 1)}"
    click.echo(f"Winning tiles (seed {seed}, {refills}):")
    _show(game, board)
    for p in dealt.players:
        tiles = tiles_of(dealt, p)
        names = ", ".join(game.tile(t).name for t in sorted(set(tiles), key=tiles.index)) or "none yet"
        click.echo(f"  {p}: {len(set(tiles))} different winning tile{'s' * (len(set(tiles)) != 1)} ({names})")


def score_game_file(path: str, as_json: bool) -> None:
    """``printkit score --game``: the win check of the game at ``path``, from its recorded sales."""
    from pathlib import Path

    from printkit import registry
    from printkit.cli.common import show_score
    from printkit.cli.game_score import record_in_history, report_recorded, report_unended
    from printkit.errors import StateError
    from printkit.rules.wereldsteden import record_doc

    dealt = _saved(path, _game()).load()
    if not dealt.players:
        raise StateError(f"{shorten(path, PATH_SHOWN)}: these tiles were dealt without players, so no sale names "
                         "its seller: deal the next game with `printkit wereldsteden setup --players NAMES`")
    result, title = registry.score_document(record_doc(dealt), path, Path(path).parent)
    show_score(result, title, as_json=as_json)
    if not result.winners:
        report_unended("when a player has won")
        return
    report_recorded(record_in_history(dealt.id, result, title, "wereldsteden", result.mode), dealt.id)
