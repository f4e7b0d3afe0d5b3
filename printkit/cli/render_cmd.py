"""``printkit render``: map sheets, turn trackers and score pads to PDF, SVG or PNG."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from printkit.cli.common import (
    PATH_SHOWN,
    SEED,
    FactsCommand,
    bundled_map_ids,
    checked_names,
    map_param,
    names_option,
    not_an_input,
    output_path,
    printable_names,
    shown_path,
)
from printkit.model.names import shorten
from printkit.model.words import plural

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from printkit.backends import Progress
    from printkit.render import Check

FORMAT_CHOICES = ("pdf", "svg", "png")
SVG_TEXT_CHOICES = ("path", "font")  # printkit.backends.SVG_TEXTS (not imported: the CLI starts without backends)
PAPER_CHOICES = ("a4", "letter")
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
MAX_PLAYERS = 500


def _facts() -> dict[str, object]:
    """The sheet kinds, maps and games the help names, from the data."""
    from printkit import registry

    others = [g.id for g in registry.GAMES if g.id != registry.ATW]
    return {"kinds": ", ".join(registry.sheet_kinds("world")), "maps": bundled_map_ids(), "games": ", ".join(others)}


def _roster(players: int | None, names: str | None) -> list[str]:
    """One entry per sheet: the names given, or blanks for ``--players`` (one sheet by default)."""
    player_names = printable_names(checked_names(names_option(names), "'--names'"), "'--names'")
    if names is not None and not player_names:
        raise click.BadParameter("give at least one name, e.g. --names \"Ann,Bo\"", param_hint="'--names'")
    if player_names and players is not None and players != len(player_names):
        raise click.UsageError(f"--players {players} does not match the {len(player_names)} names given; "
                               "give one of them")
    if len(player_names) > MAX_PLAYERS:
        raise click.BadParameter(f"at most {MAX_PLAYERS} names", param_hint="'--names'")
    return player_names or [""] * (players or 1)


@contextlib.contextmanager
def _options() -> Iterator[None]:
    """The library's refusals as the command line's usage errors: an unknown map or sheet, an option it cannot take."""
    from printkit import registry
    from printkit.render import OptionError

    with map_param("'MAP'"):
        try:
            yield
        except registry.UnknownSheet as exc:
            raise click.UsageError(str(exc)) from None
        except OptionError as exc:
            if exc.option is None:
                raise click.UsageError(exc.detail) from None
            raise click.BadParameter(exc.detail, param_hint=exc.option) from None


def _check(inputs: list[str], fields: str | None) -> Check:
    """Every file a render writes is vetted as every writing option's is: its folder exists, it is not an input
    (the map, a game file), and no sheet is the ``--fields`` file (one output never replaces another)."""
    from printkit.render import Check

    def outputs(paths: Sequence[Path], option: str) -> None:
        not_an_input(paths, inputs, option)
        folder = paths[0].parent if paths else None
        if folder is not None and folder.exists() and not folder.is_dir():
            raise click.BadParameter(f"{shown_path(folder)} is a file, not a folder: give -o PATH", param_hint=option)
        clash = next((p for p in paths if fields is not None and _one_target(p, fields)), None)
        if clash is not None:
            raise click.BadParameter(f"{shown_path(clash)} is also the '--fields' file; one would replace the other: "
                                     "give them different names", param_hint=option)

    return Check(lambda path, option: output_path(path, option, inputs), outputs)


def _game_pack(kind: str, subject: str | None, players: int | None, names: str | None,
               game_path: str) -> tuple[str, list[str], str]:
    """(map, names, game id) of the game file's own pack; a usage error for options it replaces."""
    from printkit.cli.turns_cmd import saved_game

    if subject is not None or players is not None or names is not None:
        raise click.UsageError("--game prints the game's own map and players: leave out MAP, --players and --names")
    game = saved_game(game_path).load()
    if kind == "tracker" and not game.dice:
        raise click.UsageError("a multiplayer game has no turn tracker (a Navigator chooses each turn's action); "
                               "print its map and scorepad")
    return game.map.source, list(game.players), game.id


def _one_target(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two output paths name one file: the same path, or (where both exist) the same file."""
    if os.path.abspath(a) == os.path.abspath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def _bar(total: int) -> Iterator[Progress]:
    from printkit.cli.streams import raw

    with click.progressbar(length=total, label="Rendering", file=raw(sys.stderr)) as bar:
        yield bar.update


def _progress(total: int) -> AbstractContextManager[Progress | None]:
    """A progress bar on a terminal for long jobs (none otherwise)."""
    if sys.stderr.isatty() and total > 1:
        return _bar(total)
    return contextlib.nullcontext(None)


@click.command(name="render", cls=FactsCommand, facts=_facts)
@click.argument("kind", metavar="KIND")
@click.argument("subject", metavar="MAP", required=False)
@click.option("--players", type=click.IntRange(1, MAX_PLAYERS), help="Number of blank sheets (one per player).")
@click.option("--names", help='Comma-separated player names, one sheet each: "Ann,Bo,Cy".')
@click.option("--format", "fmt", type=click.Choice(FORMAT_CHOICES, case_sensitive=False),
              help="Output format (default: from the -o extension, else pdf).")
@click.option("--paper", type=click.Choice(PAPER_CHOICES, case_sensitive=False), default="a4", show_default=True,
              help="Paper size.")
@click.option("-o", "--output", "output", metavar="PATH",
              help="Output file; '-' writes to stdout (default: output/<kind>-<map>-<paper>.<ext>).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed for anything random (sheets are not random today; kept for reproducible scripts).")
@click.option("--fields", "fields_path", metavar="FILE.json",
              help="Also write the first page's geometry (cities, routes, boxes) as JSON (map sheets).")
@click.option("--fillable", is_flag=True,
              help="PDF map sheets: add a check box over every tick box and a name field, to play on a tablet.")
@click.option("--svg-text", type=click.Choice(SVG_TEXT_CHOICES, case_sensitive=False),
              help="SVG: text as glyph outlines that every renderer draws alike (path, the default), or as "
                   "editable text with its font embedded (font).")
@click.option("--game", "game_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Print the pack of this game file (`printkit turns start`): its map, players and mode; "
                   "the QR codes name the game, for `printkit scan --game`.")
def render(kind: str, subject: str | None, players: int | None, names: str | None, fmt: str | None, paper: str,
           output: str | None, seed: int, fields_path: str | None, fillable: bool, svg_text: str | None,
           game_path: str | None) -> None:
    """Render sheet KIND ({kinds}) of MAP to PDF, SVG or PNG.

    MAP is a bundled map ({maps}), a map .toml file, or another game
    ({games}) with its own sheet kinds. A pack for several players is one PDF with a
    page per player, or one SVG/PNG file per page (name-01.svg, ...). Files
    are replaced atomically; the same inputs give byte-identical files.

    \b
    Example:
      printkit render map world --names "Ann,Bo,Cy"
      printkit render tracker world --paper letter -o tracker.png
      printkit render scorepad europe --players 8 --format svg
      printkit render map world --names "Ann,Bo,Cy" --fillable -o party.pdf
      printkit render map --game printkit-game.json
    """
    from printkit.cli import PAUSED_PAGES, resume_collector
    from printkit.render import STREAM, Request, render_sheet

    game_id = None
    if game_path is not None:
        subject, roster, game_id = _game_pack(kind, subject, players, names, game_path)
    elif subject is None:
        raise click.UsageError("Missing argument 'MAP' (or give --game FILE to print a game's pack).")
    else:
        roster = _roster(players, names)
    if len(roster) > PAUSED_PAGES:
        resume_collector()
    request = Request(kind, subject, roster, paper.lower(), fmt, output, fields_path, fillable, svg_text, game_id)
    inputs = [subject] if game_path is None else [subject, game_path]
    with _options():
        done = render_sheet(request, check=_check(inputs, fields_path), stream=sys.stdout.buffer, progress=_progress)
    if output == STREAM:
        return
    paths, pages = done.paths, done.pages
    where = shorten(str(paths[0]) if len(paths) == 1 else f"{paths[0]} ... {paths[-1].name}", PATH_SHOWN)
    gone = len(done.removed)
    removed = f"; removed {plural(gone, 'page')} of an earlier pack" if gone else ""
    click.echo(f"Wrote {where} ({plural(pages, 'page')}, {done.format.upper()}, "
               f"{PAPER_NAMES[paper.lower()]}){removed}")
