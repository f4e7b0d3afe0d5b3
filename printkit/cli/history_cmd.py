"""``printkit history``: the games recorded when scored, listed, shown, forgotten, compared, exported."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from printkit.history import Best, Summary

FORMATS = ("csv", "json")


BATCH = 500
"""Lines printed in one write (a listing of ten thousand games is twenty writes, not ten thousand)."""


def _echo_lines(lines: Iterable[str]) -> None:
    """Print ``lines``, a batch at a time."""
    it = iter(lines)
    while batch := list(itertools.islice(it, BATCH)):
        click.echo("\n".join(batch))


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: frozenset[int] = frozenset()) -> None:
    """Print rows under a header, columns padded (those in ``right`` aligned right), two spaces apart."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    _echo_lines("  ".join([c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
                          ).rstrip() for row in [header, *rows])


def _json_list(key: str, items: Iterable[dict[str, Any]]) -> None:
    """Print ``{key: [items]}`` exactly as ``json.dumps(..., indent=2)`` writes it, an item at a time."""
    import json

    def lines() -> Iterator[str]:
        yield "{"
        previous: list[str] | None = None  # the lines of the item before, written once it is known to need a comma
        for item in items:
            if previous is None:
                yield f'  "{key}": ['
            else:
                previous[-1] += ","
                yield from previous
            previous = ["    " + line for line in json.dumps(item, indent=2, ensure_ascii=False).split("\n")]
        if previous is None:
            yield f'  "{key}": []'
        else:
            yield from previous
            yield "  ]"
        yield "}"

    _echo_lines(lines())


def _when(played_at: str) -> str:
    """``2024-05-01T19:30:00Z`` as the listing shows it: ``2024-05-01 19:30``."""
    return played_at[:16].replace("T", " ")


def _players(game: Summary) -> str:
    return ", ".join(f"{p.name} {p.total}{' (won)' if p.won else ''}" for p in game.players)


@click.group(invoke_without_command=True)
@click.option("--map", "map_id", metavar="MAP", help="Only games on this map (e.g. world).")
@click.option("--player", metavar="NAME", help="Only games this player played (names ignore case).")
@click.option("--json", "as_json", is_flag=True, help="Print the games as JSON (keys documented in docs/history.md).")
@click.pass_context
def history(ctx: click.Context, map_id: str | None, player: str | None, as_json: bool) -> None:
    """List the games recorded, newest first; show, forget, compare, export.

    A game is recorded once, when it is scored with `printkit score FILE
    --record`; recording it again changes nothing. The history is kept in
    $PRINTKIT_DATA_DIR (default $XDG_DATA_HOME/printkit, else
    ~/.local/share/printkit).

    \b
    Example:
      printkit history
      printkit history --map europe --player femke
      printkit history --json
    """
    if ctx.invoked_subcommand is not None:
        if map_id is not None or player is not None or as_json:
            raise click.UsageError(f"--map, --player and --json go after '{ctx.invoked_subcommand}'")
        return
    from printkit.history import games

    found = games(map=map_id, player=player)
    if as_json:
        _json_list("games", (g.to_json() for g in found))
        return
    if not found:
        click.echo("No games recorded" + (" that match" if map_id or player else " yet: "
                                          "printkit score FILE --record keeps one") + ".")
        return
    rows = [[_when(g.played_at), g.id, g.map, g.mode, _players(g)] for g in found]
    _table(["PLAYED (UTC)", "ID", "MAP", "MODE", "PLAYERS"], rows)


@history.command()
@click.argument("game_id", metavar="ID")
def show(game_id: str) -> None:
    """Show a recorded game: every point explained, as `printkit score` printed it.

    ID is a game's id from `printkit history` (its first characters are enough).

    \b
    Example:
      printkit history show 5a1b2c3d
    """
    from printkit.history import show as shown_game

    click.echo(shown_game(game_id).explanation)


@history.command()
@click.argument("game_id", metavar="ID")
def forget(game_id: str) -> None:
    """Remove a recorded game from the history (scoring its file with --record adds it again).

    \b
    Example:
      printkit history forget 5a1b2c3d
    """
    from printkit.history import forget as forget_game

    gone = forget_game(game_id)
    names = ", ".join(p.name for p in gone.players)
    click.echo(f"Forgot game {gone.id}: {gone.map}, {gone.mode}, {_when(gone.played_at)} ({names}).")


def _bests_row(b: Best) -> list[str]:
    return [b.map, b.mode, b.name, str(b.games), str(b.wins), str(b.best), f"{b.average:.1f}"]


@history.command()
@click.option("--map", "map_id", metavar="MAP", help="Only games on this map.")
@click.option("--mode", metavar="MODE", help="Only games of this mode (multiplayer, solo, party).")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON (keys documented in docs/history.md).")
def bests(map_id: str | None, mode: str | None, as_json: bool) -> None:
    """Each player's games, wins, best and average total, per map and mode.

    Players are matched ignoring case; the average is rounded to one decimal.

    \b
    Example:
      printkit history bests
      printkit history bests --map world --mode multiplayer --json
    """
    from printkit.history import bests as best_rows

    found = best_rows(map=map_id, mode=mode)
    if as_json:
        _json_list("players", (b.to_json() for b in found))
    elif not found:
        click.echo("No games recorded" + (" that match." if map_id or mode else " yet."))
    else:
        _table(["MAP", "MODE", "PLAYER", "GAMES", "WINS", "BEST", "AVERAGE"], [_bests_row(b) for b in found],
               right=frozenset({3, 4, 5, 6}))


@history.command()
@click.option("--format", "fmt", type=click.Choice(FORMATS, case_sensitive=False),
              help="csv (one row per player per game, for a spreadsheet) or json (for history import); "
                   "default: from the file's extension.")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE", help="The file to write ('-': stdout).")
def export(fmt: str | None, output: str) -> None:
    """Write the whole history as CSV (a spreadsheet opens it) or JSON (to import elsewhere).

    The CSV is UTF-8 with a header row, quoted as RFC 4180 says; a cell that
    a spreadsheet would take as a formula (=, +, -, @) starts with a '.

    \b
    Example:
      printkit history export -o games.csv
      printkit history export --format json -o history.json
    """
    from printkit.cli.common import PATH_SHOWN, STDOUT, output_path
    from printkit.errors import PrintkitError
    from printkit.files import atomic_write_chunks
    from printkit.history import exported
    from printkit.model.names import shorten

    if fmt is None:
        fmt = os.path.splitext(output)[1].lower().lstrip(".")
        if output == STDOUT or fmt not in FORMATS:
            raise click.UsageError("give --format csv or --format json (or an -o file ending in .csv or .json)")
    if output != STDOUT:
        output_path(output, "'-o' / '--output'")
    chunks = exported(fmt.lower())
    if output == STDOUT:
        import sys

        terminal = sys.stdout.isatty()  # shown to someone: escaped as every line printkit prints; else a file's bytes
        for chunk in chunks:
            if terminal:
                click.echo(chunk.decode("utf-8"), nl=False)
            else:
                sys.stdout.buffer.write(chunk)
        return
    try:
        atomic_write_chunks(output, chunks)
    except OSError as exc:
        raise PrintkitError(f"{shorten(output, PATH_SHOWN)}: cannot write the history ({exc.strerror or exc})") from None
    click.echo(f"Wrote {shorten(output, PATH_SHOWN)} ({fmt.lower()}).")


@history.command(name="import")
@click.argument("file", metavar="FILE")
def import_file(file: str) -> None:
    """Add the games of a JSON export (`history export --format json`) not already in the history.

    Importing the same file twice adds nothing. A file that is not printkit's
    history export is refused as a whole.

    \b
    Example:
      printkit history import history.json
    """
    from printkit.history import import_file
    from printkit.model.words import plural

    added, source = import_file(file)
    click.echo(f"Imported {plural(added, 'game')} from {source}.")
