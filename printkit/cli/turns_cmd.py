"""``printkit turns``: a solo/party game tracked turn by turn in a state file.

Every subcommand but ``start`` reads only the small JSON state file (never the
map files), so ``printkit turns next`` is as quick as ``printkit roll``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import click

from printkit.cli.common import (
    PATH_SHOWN,
    SEED,
    FactsCommand,
    checked_players,
    load_map_param,
    not_an_input,
    seed_or_random,
)
from printkit.cli.state import Companion, Saved, force_option
from printkit.model.names import shorten
from printkit.rules import turns as rules
from printkit.rules.turns import Game, UnknownPlayerError, rating_bands, speed_bonus

TURNS = Companion(
    rules.STATE_KIND, "printkit-game.json", "The game's state file (or set PRINTKIT_STATE).",
    "no game has been started here; start one with", 'printkit turns start --map world --players "Ann,Bo"',
    envvar="PRINTKIT_STATE",
)  # fmt: skip


def _saved(path: str) -> Saved[Game]:
    from printkit.loading.dice import load_dice

    return TURNS.at(path, rules.to_state, lambda doc, source: rules.from_state(doc, source, load_dice()))


@contextlib.contextmanager
def _changing(path: str) -> Iterator[Game]:
    """Lock the game, load it, let the caller change it in place, save it if it changed."""
    with _saved(path).changing() as box:
        yield box.value


def _busy(old: Game) -> str | None:
    if old.over:
        return None
    return (f"a game is in progress (turn {old.turn} of {old.map.turns}); "
            "end it with `printkit turns end` or replace it with --force")  # fmt: skip


def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)


def _travelling_line(game: Game) -> str:
    left = game.travelling
    if not left:
        return "Nobody is travelling any more."
    return f"Still travelling ({len(left)} of {len(game.players)}): {_names(left)}"


@click.group(name="turns")
def turns() -> None:
    """Track a solo/party game: roll each turn, finish players, undo, end.

    The game is saved in one file (--state, default ./printkit-game.json)
    after every command. Each turn's dice come from the seed and the turn
    number, so the same --seed gives the same roll on every turn, and a turn
    taken back with `undo` rolls the same dice again.

    \b
    Example:
      printkit turns start --map world --players "Ann,Bo,Cy" --seed 42
      printkit turns next
      printkit turns finish Ann
      printkit turns end
    """


@turns.command(name="start", cls=FactsCommand, facts=lambda: {"max_players": rules.MAX_PLAYERS})
@click.option("--map", "map_name", default="world", show_default=True, help="Map id or .toml file.")
@click.option("--players", default=None, help='Comma-separated names (default: one player, "Player 1").')
@click.option("--seed", type=SEED, default=None, help="Seed for the game's dice (default: random).")
@force_option("Replace a game that is still in progress.")
@TURNS.option
def start(map_name: str, players: str | None, seed: int | None, force: bool, state_path: str) -> None:
    """Start a new solo/party game at turn 0.

    Names must differ (ignoring case); up to {max_players} players. Without
    --seed a random seed is drawn and saved, so undo still rolls the same dice.

    \b
    Example:
      printkit turns start --map europe --players "Ann,Bo,Cy,Di,Ed,Flo,Gus" --seed 7
    """
    checked = checked_players(players, ["Player 1"])
    not_an_input([state_path], [map_name], "'--state'")
    game_map = load_map_param(map_name)
    info = rules.map_info(game_map)
    seed = seed_or_random(seed)
    game = Game(info, checked, seed)
    _saved(state_path).replace(game, force, _busy)  # a corrupt or foreign file stops here, untouched
    click.echo(f"New {game.mode} game on {info.name} (seed {seed}), {info.turns} turns.")
    click.echo(f"Players ({len(checked)}): {_names(checked)}")
    note = rules.navigator_note(game_map, len(checked))
    if note is not None:
        click.echo(f"Note: {note}.")
    click.echo(f"A player finishes when they have {info.end_condition()}: `printkit turns finish NAME`.")
    click.echo(f"Roll turn 1 with `printkit turns next`. Saved in {shorten(state_path, PATH_SHOWN)}.")


@turns.command(name="next")
@TURNS.option
def next_(state_path: str) -> None:
    """Roll the dice for the next turn and move the turn marker.

    \b
    Example:
      printkit turns next
    """
    with _changing(state_path) as game:
        r = game.next_turn()
    click.echo(f"Turn {game.turn} of {game.map.turns}: {r.text}")
    click.echo(_travelling_line(game))
    if game.turn == game.map.turns:
        click.echo("That was the last turn. Finish players who got home, then run `printkit turns end`.")


@turns.command(name="finish")
@click.argument("name", required=False)
@TURNS.option
def finish(name: str | None, state_path: str) -> None:
    """Record that NAME has met the end condition and is home this turn.

    NAME may be left out in a one-player game. The player scores the turns
    remaining (the map's turns minus this one, see `printkit maps show`) as
    speed bonus and takes no more actions.

    \b
    Example:
      printkit turns finish Ann
    """
    with _changing(state_path) as game:
        if name is None:
            if len(game.players) != 1:
                raise click.UsageError("give the NAME of the player who finished")
            name = game.players[0]
        try:
            who, turn, bonus = game.finish(name)
        except UnknownPlayerError as exc:
            raise click.BadParameter(str(exc), param_hint="'NAME'") from None
    click.echo(f"{who} is home on turn {turn}: speed bonus {bonus} ({game.map.turns} - {turn}).")
    click.echo(f"{who} takes no more actions.")
    click.echo(_travelling_line(game))
    if not game.travelling:
        click.echo("Every player has finished: the game is over. See `printkit turns end`.")


@turns.command(name="undo")
@TURNS.option
def undo(state_path: str) -> None:
    """Take back the last turn, finish or end of the game.

    A turn taken back is rolled with the same dice by the next `next`.

    \b
    Example:
      printkit turns undo
    """
    with _changing(state_path) as game:
        event = game.undo()
    if event.kind == "roll":
        click.echo(f"Took back turn {event.turn} ({event.roll(game.map.dice).text}).")
    elif event.kind == "finish":
        click.echo(f"Took back {event.player}'s finish on turn {event.turn}.")
    else:
        click.echo(f"Took back the end of the game after turn {event.turn}.")
    click.echo(f"Now at turn {game.turn} of {game.map.turns}.")


@turns.command(name="status")
@TURNS.option
def status(state_path: str) -> None:
    """Show the game file, turn and who is still travelling.

    \b
    Example:
      printkit turns status --state party.json
    """
    game = _saved(state_path).load()
    click.echo(f"Game file: {os.path.abspath(state_path)}")
    click.echo(f"Map: {game.map.name} ({game.map.id}), {game.mode} mode, seed {game.seed}")
    last = game.last_roll()
    if last is None:
        click.echo(f"Turn 0 of {game.map.turns}: no turn rolled yet (`printkit turns next`)")
    else:
        click.echo(f"Turn {game.turn} of {game.map.turns}: {last.text}")
    click.echo(_travelling_line(game))
    for who, turn in game.finished.items():
        click.echo(f"Finished: {who} on turn {turn}, speed bonus {speed_bonus(game.map.turns, turn)}")
    if game.over:
        click.echo(f"Game over: {game.over_reason()}.")


@turns.command(name="history")
@TURNS.option
def history(state_path: str) -> None:
    """List every turn's dice and actions, and who finished when.

    \b
    Example:
      printkit turns history
    """
    game = _saved(state_path).load()
    if not game.events:
        click.echo("No turn has been played yet.")
    for e in game.events:
        if e.kind == "roll":
            click.echo(f"Turn {e.turn}: {e.roll(game.map.dice).text}")
        elif e.kind == "finish":
            bonus = speed_bonus(game.map.turns, e.turn)
            click.echo(f"  {e.player} finished on turn {e.turn}: speed bonus {bonus}")
        else:
            click.echo(f"  Game ended by the host after turn {e.turn}.")


@turns.command(name="end")
@TURNS.option
def end(state_path: str) -> None:
    """Print the final summary (ends the game now if it is still going).

    \b
    Example:
      printkit turns end
    """
    with _changing(state_path) as game:
        ended_now = game.end()
    click.echo(f"Game over: {game.over_reason()}.")
    if ended_now:
        click.echo("(Ended early; `printkit turns undo` takes this back.)")
    click.echo(f"Map: {game.map.name}, seed {game.seed}, {game.mode} mode")
    width = max(len(p) for p in game.players)
    finished = game.finished
    for who in game.players:
        if who in finished:
            turn = finished[who]
            bonus = speed_bonus(game.map.turns, turn)
            click.echo(f"  {who:<{width}}  home on turn {turn}: speed bonus {bonus}")
        else:
            click.echo(f"  {who:<{width}}  did not get home: no speed bonus")
    click.echo("Score each sheet (`printkit score`), add the speed bonus, and find your rating:")
    bands = rating_bands(game.map.ratings)
    band_width = max(len(b) for b, _ in bands)
    for band, title in bands:
        click.echo(f"  {band:<{band_width}}  {title}")
