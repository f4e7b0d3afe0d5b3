"""``printkit scan``: photos or scans of filled-in map sheets, scored as one game."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from printkit.errors import PrintkitError

if TYPE_CHECKING:
    from printkit.scan.game import ScannedGame
    from printkit.scan.run import Scanned

UNSURE_EXIT = 3
"""Exit status when every page was read but some reads are unsure (and --accept was not given)."""
INSTALL_HINT = 'printkit scan needs OpenCV, numpy, zxing-cpp and pypdf: pip install "printkit-travel[scan]"'


class ScanUnavailable(PrintkitError):
    """The scan extra is not installed."""


def _need_extra() -> None:
    """Fail with the install hint unless the scan extra's libraries import."""
    import importlib.util

    if any(importlib.util.find_spec(name) is None for name in ("cv2", "numpy", "zxingcpp", "pypdf")):
        raise ScanUnavailable(INSTALL_HINT)


def _save(game: ScannedGame, target: str) -> None:
    """The game file, its unsure reads as comments at the top (TOML), for a person to correct."""
    from printkit.files import atomic_write
    from printkit.scan.images import shown_file

    atomic_write(target, game.game_file("json" if target.lower().endswith(".json") else "toml").encode())
    click.echo(f"Saved the game to {shown_file(target)}", err=True)


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it (links resolved)."""
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, top]) == top


def review_folder(value: str, files: tuple[str, ...]) -> Path:
    """The ``--review`` folder: not an input folder, inside one or an input file, and writable (else exit 2)."""
    from printkit.cli.common import shown_path

    hint = "'--review'"
    for given in files:
        if os.path.isdir(given) and _inside(value, given):
            raise click.BadParameter(f"{shown_path(value)} is the input folder {shown_path(given)} or inside it; "
                                     "the overlays would land among the photos: choose another folder",
                                     param_hint=hint)
    existing = value
    while not os.path.exists(existing) and os.path.dirname(os.path.abspath(existing)) != os.path.abspath(existing):
        existing = os.path.dirname(os.path.abspath(existing))
    if not os.path.isdir(existing):
        raise click.BadParameter(f"{shown_path(existing)} is not a folder", param_hint=hint)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise click.BadParameter(f"cannot write in {shown_path(existing)} (permission denied)", param_hint=hint)
    return Path(value)


@click.command(name="scan")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--mode", type=click.Choice(["multiplayer", "solo", "party"]),
              help="The game's mode (default: by the number of sheets, as printkit score does).")
@click.option("--map", "map_files", multiple=True, metavar="FILE",
              help="A custom map file the sheets may be of (matched by the layout its sheets carry); repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON, plus a 'reads' list of unsure reads.")
@click.option("--save", metavar="FILE", help="Save what was read as a game file (.toml or .json); never one of the inputs.")
@click.option("--review", metavar="DIR", help="Write one overlay PNG per sheet into this folder (never an input folder; "
              "a name already taken gets -2, -3...).")
@click.option("--accept", is_flag=True, help="Exit 0 even when some reads are unsure.")
@click.option("--game", "game_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Attach the reads to this game file (`printkit turns`); sheets of another game are refused.")
def scan(files: tuple[str, ...], mode: str | None, map_files: tuple[str, ...], as_json: bool, save: str | None,
         review: str | None, accept: bool, game_path: str | None) -> None:
    """Score photographed or scanned map sheets: all sheets given form one game.

    FILE is a PNG or JPEG photo or scan, a PDF of scanned pages (one sheet a
    page), or a folder of them. Each sheet is found by its corner markers and
    named by its QR code; every box and drawn route is read against the blank
    sheet. Unsure reads are listed (and drawn red with --review). The same
    sheet given twice counts once if every copy reads the same, else its
    copies are refused.

    Exit status: 0 all read; 1 a page could not be read (the others are still
    scored); 2 a usage error (an output that is an input, say); 3 some reads
    are unsure (0 with --accept).

    \b
    Example:
      printkit scan scan.pdf
      printkit scan photos/ --review review --save game.toml
      printkit scan sheets.pdf --game printkit-game.json
    """
    _need_extra()
    if game_path is not None and (mode is not None or save is not None):
        raise click.UsageError("--game keeps the reads in the game file, in its mode: leave out --mode and --save")
    from printkit.cli.common import load_map_param, output_file
    from printkit.scan.images import expand, limit_decoder, quiet

    limit_decoder()  # before OpenCV is first imported
    inputs: list[str | os.PathLike[str]] = [*files, *expand([f for f in files if os.path.isdir(f)])]
    target = output_file(save, "'--save'", inputs) if save else None
    folder = review_folder(review, files) if review else None
    for path in map_files:
        load_map_param(path, "'--map'")
    from printkit.scan.game import scan_game
    from printkit.scan.ident import use_map_files
    from printkit.scan.run import scan_files

    use_map_files(list(map_files))
    with quiet():
        found = scan_files(list(files))
    for line in found.notes:
        click.echo(f"Note: {line}", err=True)
    for line in found.errors:
        click.echo(f"Error: {line}", err=True)
    if not found.sheets:
        raise SystemExit(1)
    if game_path is not None:
        _reviews(folder, found)
        _into_game(game_path, found, as_json, accept)
        return
    _report(scan_game(list(found.sheets), mode), found, as_json, target, folder, accept)


def _report(game: ScannedGame, found: Scanned, as_json: bool, save: str | None, review: Path | None,
            accept: bool) -> None:
    """The scores, the unsure reads, the review overlays and the game file; the exit status."""
    from printkit.cli.common import show_score
    from printkit.scan.images import shown_file

    if as_json:
        import json

        click.echo(json.dumps(game.to_json(), indent=2, ensure_ascii=False))
    else:
        show_score(game.score, game.title)
        for who, u in game.uncertain:
            click.echo(f"Unsure: {who}: {u.message}", err=True)
    _reviews(review, found)
    if save and not found.errors:
        _save(game, save)
    elif save:
        click.echo(f"Not saved to {shown_file(save)}: some pages could not be read", err=True)
    if found.errors:
        raise SystemExit(1)
    if game.uncertain and not accept:
        raise SystemExit(UNSURE_EXIT)


def _reviews(review: Path | None, found: Scanned) -> None:
    """``--review``: one overlay PNG per sheet into the folder."""
    from printkit.scan.images import quiet, shown_file
    from printkit.scan.run import write_reviews

    if review:
        with quiet():
            written = write_reviews(review, found.sheets)
        for path in written:
            click.echo(f"Wrote {shown_file(path)}", err=True)


def _into_game(path: str, found: Scanned, as_json: bool, accept: bool) -> None:
    """``--game``: attach every sheet to the game file (or none), then score it once every player has marks."""
    from printkit.cli.common import show_score
    from printkit.cli.game_score import attach_scans, game_result
    from printkit.rules.gamefile import missing_marks

    if found.errors:
        click.echo(f"Not attached to {path}: some pages could not be read", err=True)
        raise SystemExit(1)
    game = attach_scans(path, list(found.sheets))
    click.echo(f"Attached {len(found.sheets)} sheet{'s' * (len(found.sheets) != 1)} to game {game.id} in {path}.",
               err=True)
    missing = missing_marks(game)
    reads = [u.to_json() for u in game.unsure]
    if missing:
        if as_json:
            import json

            click.echo(json.dumps({"missing": missing, "reads": reads}, indent=2, ensure_ascii=False))
        else:
            click.echo(f"Still to scan or type: {', '.join(missing)}.")
    else:
        result, title = game_result(game, path)
        if as_json:
            import json

            click.echo(json.dumps({**result.to_json(), "reads": reads}, indent=2, ensure_ascii=False))
        else:
            show_score(result, title)
    if not as_json:
        for u in game.unsure:
            click.echo(f"Unsure: {u.player}: {u.message}", err=True)
    if game.unsure and not accept:
        raise SystemExit(UNSURE_EXIT)
