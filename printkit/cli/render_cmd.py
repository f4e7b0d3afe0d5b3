"""``printkit render``: map sheets, turn trackers and score pads to PDF, SVG or PNG."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from printkit.cli.common import (
    PATH_SHOWN,
    SEED,
    STDOUT,
    FactsCommand,
    bundled_map_ids,
    checked_names,
    map_param,
    names_option,
    not_an_input,
    output_path,
    printable_names,
)
from printkit.model.names import shorten
from printkit.model.words import plural

if TYPE_CHECKING:
    from printkit.backends import Format, Options, Written
    from printkit.layout.primitives import Document

FORMAT_CHOICES = ("pdf", "svg", "png")
SVG_TEXT_CHOICES = ("path", "font")  # printkit.backends.SVG_TEXTS (not imported: the CLI starts without backends)
PAPER_CHOICES = ("a4", "letter")
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
MAX_PLAYERS = 500
OUTPUT_HINT = "'-o' / '--output'"


def _slug(subject: str) -> str:
    """A file-name part for a map id or a map file path."""
    stem = Path(subject).stem if subject.endswith(".toml") else subject
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem) or "sheet"


def default_output(kind: str, subject: str, paper: str, fmt: str, players: int) -> Path:
    """``output/<kind>-<subject>-<paper>[-<n>players].<ext>``."""
    pack = f"-{players}players" if players > 1 else ""
    return Path("output") / f"{kind}-{_slug(subject)}-{paper}{pack}.{fmt}"


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


def _build(kind: str, subject: str, roster: list[str], paper: str) -> Document:
    """Lay out the sheet; an unknown map or sheet kind is a usage error."""
    from printkit import registry

    with map_param("'MAP'"):
        try:
            return registry.build_sheet(kind, subject, roster, paper)
        except registry.UnknownSheet as exc:
            raise click.UsageError(str(exc)) from None


def _options(svg_text: str | None, chosen: Format) -> Options:
    """The backends' options; ``--svg-text`` is a usage error for other formats than SVG."""
    from printkit.backends import Options

    if svg_text is not None and chosen != "svg":
        raise click.BadParameter(f"only SVG has text to draw as outlines or as a font, not {chosen.upper()}",
                                 param_hint="'--svg-text'")
    return Options(svg_text="font" if svg_text == "font" else "path")


def _write(document: Document, chosen: Format, target: Path, options: Options) -> Written:
    """Write the files, with a progress bar on a terminal for long jobs."""
    from printkit import backends

    total = backends.steps(document, chosen)
    if sys.stderr.isatty() and total > 1:
        with click.progressbar(length=total, label="Rendering", file=sys.stderr) as bar:
            return backends.write(document, chosen, target, bar.update, options)
    return backends.write(document, chosen, target, options=options)


def _fields_text(document: Document, kind: str, fields_path: str | None, subject: str) -> str | None:
    """The sheet's field JSON if ``--fields`` asked for it (a usage error for sheets that have none)."""
    from printkit.sheets.fields import FIELDS_META

    if fields_path is None:
        return None
    if FIELDS_META not in document.meta:
        raise click.BadParameter(f"the {kind} sheet does not describe its geometry; map sheets do",
                                 param_hint="'--fields'")
    output_path(fields_path, "'--fields'", [subject])
    return document.meta[FIELDS_META]


def _fillable(document: Document, kind: str, chosen: Format) -> Document:
    """The sheet with its form fields for ``--fillable`` (PDF map sheets only: a usage error otherwise)."""
    from printkit.sheets.fields import FIELDS_META
    from printkit.sheets.fillable import fillable

    if FIELDS_META not in document.meta:
        raise click.BadParameter(f"the {kind} sheet has nothing to fill in on a tablet; map sheets do",
                                 param_hint="'--fillable'")
    if chosen != "pdf":
        raise click.BadParameter(f"form fields need a PDF, not {chosen.upper()}; use --format pdf or a .pdf file",
                                 param_hint="'--fillable'")
    return fillable(document)


def _write_fields(path: Path, data: str) -> None:
    """Write the field JSON atomically."""
    from printkit.files import atomic_write

    atomic_write(path, data.encode("utf-8"))


@click.command(name="render", cls=FactsCommand, facts=_facts)
@click.argument("kind", metavar="KIND")
@click.argument("subject", metavar="MAP")
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
def render(kind: str, subject: str, players: int | None, names: str | None, fmt: str | None, paper: str,
           output: str | None, seed: int, fields_path: str | None, fillable: bool, svg_text: str | None) -> None:
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
    """
    from printkit import backends
    from printkit.cli import PAUSED_PAGES, resume_collector

    roster = _roster(players, names)
    if len(roster) > PAUSED_PAGES:
        resume_collector()
    try:
        chosen = backends.format_for(None if output in (None, STDOUT) else output, fmt)
    except backends.OutputError as exc:
        raise click.BadParameter(str(exc), param_hint=OUTPUT_HINT) from None
    options = _options(svg_text and svg_text.lower(), chosen)
    if output not in (None, STDOUT):
        output_path(output, OUTPUT_HINT, [subject])
    document = _build(kind, subject, roster, paper.lower())
    fields = _fields_text(document, kind, fields_path, subject)
    if fillable:
        document = _fillable(document, kind, chosen)
    count = backends.file_count(document, chosen)
    if output == STDOUT:
        if count != 1:
            raise click.UsageError(
                f"{chosen.upper()} gives one file per page and this sheet has {count} pages; "
                "use -o PATH (or --format pdf) instead of -o -"
            )
        sys.stdout.buffer.write(backends.render(document, chosen, options=options)[0])
        if fields_path is not None and fields is not None:
            _write_fields(Path(fields_path), fields)
        return
    target = Path(output) if output else default_output(kind, subject, paper.lower(), chosen, len(roster))
    not_an_input(backends.numbered_paths(target, count), [subject], OUTPUT_HINT)
    if not output:
        target.parent.mkdir(parents=True, exist_ok=True)
    written = _write(document, chosen, target, options)
    if fields_path is not None and fields is not None:
        _write_fields(Path(fields_path), fields)
    paths, pages = written.paths, len(document.pages)
    where = shorten(str(paths[0]) if len(paths) == 1 else f"{paths[0]} ... {paths[-1].name}", PATH_SHOWN)
    gone = len(written.removed)
    removed = f"; removed {plural(gone, 'page')} of an earlier pack" if gone else ""
    click.echo(f"Wrote {where} ({plural(pages, 'page')}, {chosen.upper()}, "
               f"{PAPER_NAMES[paper.lower()]}){removed}")
