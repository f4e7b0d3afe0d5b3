"""``printkit turns``: a game of Around the World tracked turn by turn in its game file.

Every subcommand but ``start`` reads only the small JSON game file (never the
map files), so ``printkit turns next`` is as quick as ``printkit roll``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

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
from printkit.rules.gamefile import new_id
from printkit.rules.turns import Game, TurnRangeError, UnknownPlayerError, rating_bands, speed_bonus

if TYPE_CHECKING:
    from printkit.model.maps import GameMap, Mode

TURNS = Companion(
    rules.STATE_KIND, "printkit-game.json", "The game's state file (or set PRINTKIT_STATE).",
    "no game has been started here; start one with", 'printkit turns start --map world --players "Ann,Bo"',
    envvar="PRINTKIT_STATE",
)  # fmt: skip


def saved_game(path: str) -> Saved[Game]:
    """The game file at ``path`` (read and written by every ``--game`` option too)."""
    from printkit.loading.dice import load_dice

    return TURNS.at(path, rules.to_state, lambda doc, source: rules.from_state(doc, source, load_dice()),
                    rules.STATE_FORMAT, rules.migrate)


@contextlib.contextmanager
def _changing(path: str) -> Iterator[Game]:
    """Lock the game, load it, let the caller change it in place, save it if it changed."""
    with saved_game(path).changing() as box:
        yield box.value


def _busy(old: Game) -> str | None:
    if old.over:
        return None
    of = f" of {old.map.turns}" if old.dice else ""
    return (f"a game is in progress (turn {old.turn}{of}); "
            "end it with `printkit turns end` or replace it with --force")  # fmt: skip


def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)


def _navigator_line(game: Game) -> str:
    """Who navigates the current turn, and the Navigator's extra action."""
    who = game.navigator_on(game.turn)
    return (f"Turn {game.turn}: {who} is the Navigator. {who} chooses Travel, Collect or Explore; everyone takes it, "
            f"and {who} may take it a second time.")


def _score_hint(path: str) -> str:
    """The command that scores the game (it adds every bonus: nobody adds anything by hand)."""
    return f"printkit score --game {shorten(path, PATH_SHOWN)}"


def _travelling_line(game: Game) -> str:
    left = game.travelling
    if not left:
        return "Nobody is travelling any more."
    return f"Still travelling ({len(left)} of {len(game.players)}): {_names(left)}"


@click.group(name="turns")
def turns() -> None:
    """Track a game: each turn's dice or Navigator, finished players, undo, end.

    The game is saved in one file (--state, default ./printkit-game.json)
    after every command; `printkit render --game`, `printkit scan --game` and
    `printkit score --game` use the same file. Solo/party: each turn's dice
    come from the seed and the turn number, so the same --seed gives the same
    roll on every turn, and a turn taken back with `undo` rolls the same dice
    again. Multiplayer: no dice, the Navigator role moves round the table.

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
@click.option("--mode", type=click.Choice(rules.MODES, case_sensitive=False), default=None,
              help="multiplayer (a Navigator), solo or party (dice); default by player count, as `printkit score`.")
@click.option("--navigator", default=None, metavar="NAME", help="Multiplayer: turn 1's Navigator (default: the first player).")
@click.option("--seed", type=SEED, default=None, help="Seed for the game's dice (default: random).")
@force_option("Replace a game that is still in progress.")
@TURNS.option
def start(map_name: str, players: str | None, mode: str | None, navigator: str | None, seed: int | None, force: bool,
          state_path: str) -> None:
    """Start a new game at turn 0.

    Names must differ (ignoring case); up to {max_players} players. The mode
    is solo for one player, multiplayer up to the map's player limit, party
    above it (as `printkit score` decides); --mode party lets a small group
    play with the dice. Without --seed a random seed is drawn and saved, so
    undo still rolls the same dice.

    \b
    Example:
      printkit turns start --map europe --players "Ann,Bo,Cy,Di,Ed,Flo,Gus" --seed 7
      printkit turns start --map world --players "Ann,Bo,Cy" --navigator Bo
    """
    checked = checked_players(players, ["Player 1"])
    not_an_input([state_path], [map_name], "'--state'")
    game_map = load_map_param(map_name)
    chosen = _mode(game_map, mode, checked)
    source = os.path.abspath(map_name) if map_name.lower().endswith(".toml") else game_map.id
    info = rules.map_info(game_map, source)
    seed = seed_or_random(seed)
    game = Game(info, checked, seed, mode=chosen, id=new_id())
    if navigator is not None:
        if game.navigator is None:
            raise click.BadParameter("only a multiplayer game has a Navigator", param_hint="'--navigator'")
        try:
            game.navigator = game.player(navigator)
        except UnknownPlayerError as exc:
            raise click.BadParameter(str(exc), param_hint="'--navigator'") from None
    saved_game(state_path).replace(game, force, _busy)  # a corrupt or foreign file stops here, untouched
    if game.dice:
        click.echo(f"New {game.mode} game on {info.name} (seed {seed}), {info.turns} turns.")
    else:
        click.echo(f"New multiplayer game on {info.name}: no dice, a Navigator chooses each turn's action.")
    click.echo(f"Players ({len(checked)}): {_names(checked)}")
    if game.dice:
        click.echo(f"A player finishes when they have {info.end_condition()}: `printkit turns finish NAME`.")
        click.echo(f"Roll turn 1 with `printkit turns next`. Saved in {shorten(state_path, PATH_SHOWN)}.")
        return
    click.echo(f"The game ends when a player has {info.end_condition()}: that turn is played out "
               "(`printkit turns finish NAME`).")
    click.echo(f"Turn 1's Navigator is {game.navigator}: `printkit turns next`.")
    click.echo(f"Saved in {shorten(state_path, PATH_SHOWN)}.")  # a line of its own: a path is not a name


def _mode(game_map: GameMap, mode: str | None, players: tuple[str, ...]) -> str:
    """The mode asked for (if these players can play it), else the one `printkit score` picks for them."""
    from printkit.loading.records.atw import players_count_problem

    chosen = mode.lower() if mode else rules.default_mode(len(players), game_map.max_multiplayer)
    problem = players_count_problem(game_map, cast("Mode", chosen), len(players))
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--mode'" if mode else "'--players'")
    return chosen


@turns.command(name="next")
@TURNS.option
def next_(state_path: str) -> None:
    """Play the next turn: roll the dice (solo/party) or name the Navigator (multiplayer).

    \b
    Example:
      printkit turns next
    """
    with _changing(state_path) as game:
        r = game.next_turn()
    if r is None:
        click.echo(_navigator_line(game))
        return
    click.echo(f"Turn {game.turn} of {game.map.turns}: {r.text}")
    click.echo(_travelling_line(game))
    if game.turn == game.map.turns:
        click.echo("That was the last turn. Finish players who got home, then run `printkit turns end`.")


@turns.command(name="finish")
@click.argument("names", metavar="NAME...", nargs=-1)
@click.option("--turn", "turn", type=click.IntRange(1, rules.MAX_TURNS), default=None,
              help="The turn they got home on, if noticed late (default: the current turn).")
@TURNS.option
def finish(names: tuple[str, ...], turn: int | None, state_path: str) -> None:
    """Record that NAME (one or more players) met the end condition and is home.

    NAME may be left out in a one-player game. Solo/party: the player scores
    the turns remaining (the map's turns minus that one, see `printkit maps
    show`) as speed bonus and takes no more actions. Multiplayer: the game
    ends once that turn is played out.

    \b
    Example:
      printkit turns finish Ann
      printkit turns finish Ann Bo --turn 7
    """
    with _changing(state_path) as game:
        if not names:
            if len(game.players) != 1:
                raise click.UsageError("give the NAME of the player who finished")
            names = (game.players[0],)
        try:
            done = game.finish(list(names), turn)
        except UnknownPlayerError as exc:
            raise click.BadParameter(str(exc), param_hint="'NAME'") from None
        except TurnRangeError as exc:
            raise click.BadParameter(str(exc), param_hint="'--turn'") from None
    for who, when, bonus in done:
        if bonus is None:
            click.echo(f"{who} is home on turn {when}.")
        else:
            click.echo(f"{who} is home on turn {when}: speed bonus {bonus} ({game.map.turns} - {when}).")
            click.echo(f"{who} takes no more actions.")
    if not game.dice:
        click.echo(f"The game is over once turn {min(game.finished.values())} is played out; then scan the sheets "
                   f"(`printkit scan SHEETS --game {shorten(state_path, PATH_SHOWN)}`) and `{_score_hint(state_path)}`.")
        return
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
    elif event.kind == "turn":
        click.echo(f"Took back turn {event.turn} (Navigator {game.navigator_on(event.turn)}).")
    elif event.kind == "finish":
        click.echo(f"Took back {event.player}'s finish on turn {event.turn}.")
    else:
        click.echo(f"Took back the end of the game after turn {event.turn}.")
    click.echo(f"Now at turn {game.turn}" + (f" of {game.map.turns}." if game.dice else "."))


@turns.command(name="status")
@TURNS.option
def status(state_path: str) -> None:
    """Show the game file, turn and who is still travelling.

    \b
    Example:
      printkit turns status --state party.json
    """
    game = saved_game(state_path).load()
    click.echo(f"Game file: {os.path.abspath(state_path)}")
    click.echo(f"Game id: {game.id}")
    if not game.dice:
        click.echo(f"Map: {game.map.name} ({game.map.id}), multiplayer mode")
        click.echo(_navigator_line(game) if game.turn else
                   f"Turn 0: {game.navigator} is turn 1's Navigator (`printkit turns next`)")
    else:
        click.echo(f"Map: {game.map.name} ({game.map.id}), {game.mode} mode, seed {game.seed}")
        last = game.last_roll()
        if last is None:
            click.echo(f"Turn 0 of {game.map.turns}: no turn rolled yet (`printkit turns next`)")
        else:
            click.echo(f"Turn {game.turn} of {game.map.turns}: {last.text}")
        click.echo(_travelling_line(game))
    for who, turn in game.finished.items():
        bonus = f", speed bonus {speed_bonus(game.map.turns, turn)}" if game.dice else ""
        click.echo(f"Finished: {who} on turn {turn}{bonus}")
    if game.marks:
        click.echo(f"Sheets: {_names(list(game.marks))}" + (f" ({len(game.unsure)} unsure reads)" if game.unsure else ""))
    if game.over:
        click.echo(f"Game over: {game.over_reason()}.")


@turns.command(name="history")
@TURNS.option
def history(state_path: str) -> None:
    """List every turn's dice and actions (or Navigator), and who finished when.

    \b
    Example:
      printkit turns history
    """
    game = saved_game(state_path).load()
    if not game.events:
        click.echo("No turn has been played yet.")
    for e in game.events:
        if e.kind == "roll":
            click.echo(f"Turn {e.turn}: {e.roll(game.map.dice).text}")
        elif e.kind == "turn":
            click.echo(f"Turn {e.turn}: Navigator {game.navigator_on(e.turn)}")
        elif e.kind == "finish" and game.dice:
            bonus = speed_bonus(game.map.turns, e.turn)
            click.echo(f"  {e.player} finished on turn {e.turn}: speed bonus {bonus}")
        elif e.kind == "finish":
            click.echo(f"  {e.player} finished on turn {e.turn}")
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
    if not game.dice:
        click.echo(f"Map: {game.map.name}, multiplayer mode")
        click.echo(f"Scan the sheets (`printkit scan SHEETS --game {shorten(state_path, PATH_SHOWN)}`), then "
                   f"`{_score_hint(state_path)}` scores them with the speed bonus.")
        return
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
    click.echo(f"`{_score_hint(state_path)}` scores every sheet with its speed bonus and gives the rating:")
    bands = rating_bands(game.map.ratings)
    band_width = max(len(b) for b, _ in bands)
    for band, title in bands:
        click.echo(f"  {band:<{band_width}}  {title}")
