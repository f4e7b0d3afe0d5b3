"""Rendering a sheet to files: the one library call behind ``printkit render``, and the rules of its options.

:func:`render_sheet` builds the sheet through the registry and decides what
the command's options allow: the format (``--format`` or the output's
extension), ``--fields`` only for a sheet that has a geometry, ``--fillable``
only for a map sheet written as PDF, ``--svg-text`` only for SVG, one file at
most to a stream. Each
refusal is an :class:`OptionError` naming the option as the command line
does. The caller vets the paths it is handed (their folder exists, none is an
input of the command) through ``check``, at the moment the rules reach them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from printkit.errors import UsageError

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from printkit.backends import Format, Options, Progress
    from printkit.sheets.builder import Sheet

STREAM = "-"
"""The output that writes to the stream handed in (stdout on the command line)."""
OUTPUT = "'-o' / '--output'"
FIELDS = "'--fields'"
FILLABLE = "'--fillable'"
SVG_TEXT = "'--svg-text'"


class OptionError(UsageError):
    """An option the sheet or the format cannot take; ``option`` names it as the command line does, if any."""

    def __init__(self, option: str | None, detail: str) -> None:
        self.option = option
        self.detail = detail
        super().__init__(f"Invalid value for {option}: {detail}" if option else detail)


class Request(NamedTuple):
    """What to render: sheet ``kind`` of ``subject`` for ``names`` (one sheet each), and where it goes.

    ``output`` is a file path, :data:`STREAM`, or None for :func:`default_output`;
    ``fields`` a path to write the sheet's geometry JSON to; ``svg_text`` how SVG
    draws text ("path", the default, or "font"; see :class:`printkit.backends.Options`);
    ``game`` the id of the game the sheets are printed for (their QR codes name it).
    """

    kind: str
    subject: str
    names: list[str]
    paper: str = "a4"
    fmt: str | None = None
    output: str | None = None
    fields: str | None = None
    fillable: bool = False
    svg_text: str | None = None
    game: str | None = None


class Rendered(NamedTuple):
    """What :func:`render_sheet` did: the format, the pages, the files written and an earlier pack's removed."""

    format: Format
    pages: int
    paths: list[Path]
    removed: list[Path]


class Check(NamedTuple):
    """How the caller vets paths: ``output(path, option)`` for a file it names, ``outputs(paths, option)`` for the
    files a render is about to write (each raising the caller's own error)."""

    output: Callable[[str, str], object]
    outputs: Callable[[Sequence[Path], str], object]


NO_CHECK = Check(lambda path, option: None, lambda paths, option: None)
ProgressBar = Callable[[int], "AbstractContextManager[Progress | None]"]
"""``bar(total_steps)``: a context giving the progress callback (or None) for a render of that many steps."""


def _slug(subject: str) -> str:
    """A file-name part for a map id or a map file path."""
    stem = Path(subject).stem if subject.endswith(".toml") else subject
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem) or "sheet"


def default_output(kind: str, subject: str, paper: str, fmt: str, players: int) -> Path:
    """``output/<kind>-<subject>-<paper>[-<n>players].<ext>``."""
    pack = f"-{players}players" if players > 1 else ""
    return Path("output") / f"{kind}-{_slug(subject)}-{paper}{pack}.{fmt}"


def output_format(output: str | None, fmt: str | None) -> Format:
    """The format to write: ``fmt`` if given, else the output file's extension, else PDF (an OptionError)."""
    from printkit import backends

    try:
        return backends.format_for(None if output in (None, STREAM) else output, fmt)
    except backends.OutputError as exc:
        raise OptionError(OUTPUT, str(exc)) from None


def fields_text(sheet: Sheet, kind: str) -> str:
    """The sheet's ``--fields`` JSON (an OptionError for a sheet that describes no geometry)."""
    from printkit.sheets.fields import dumps

    if sheet.geometry is None:
        raise OptionError(FIELDS, f"the {kind} sheet does not describe its geometry; map sheets do")
    return dumps(sheet.geometry)


def fillable_sheet(sheet: Sheet, kind: str, fmt: Format) -> Sheet:
    """The sheet with its form fields (an OptionError unless it is a map sheet written as PDF)."""
    from printkit.sheets.fillable import fillable, has_form

    if not has_form(sheet):
        raise OptionError(FILLABLE, f"the {kind} sheet has nothing to fill in on a tablet; map sheets do")
    if fmt != "pdf":
        raise OptionError(FILLABLE, f"form fields need a PDF, not {fmt.upper()}; use --format pdf or a .pdf file")
    return fillable(sheet)


def game_sheet(sheet: Sheet, game: str) -> Sheet:
    """The sheet printed for one game: a map sheet's QR codes also carry the game's id (other sheets have none)."""
    from printkit.sheets.identity import for_game

    if sheet.geometry is None:
        return sheet
    f = sheet.geometry.fields
    return sheet._replace(document=for_game(sheet.document, f.map, f.paper, sheet.geometry.layout, game))


def backend_options(svg_text: str | None, fmt: Format) -> Options:
    """The backends' options for ``svg_text`` (an OptionError for another format than SVG or an unknown way)."""
    from printkit.backends import SVG_TEXTS, Options

    if svg_text is None:
        return Options()
    if fmt != "svg":
        raise OptionError(SVG_TEXT, f"only SVG has text to draw as outlines or as a font, not {fmt.upper()}")
    chosen = next((known for known in SVG_TEXTS if known == svg_text.lower()), None)
    if chosen is None:
        raise OptionError(SVG_TEXT, f"{svg_text!r}: expected one of {', '.join(SVG_TEXTS)}")
    return Options(svg_text=chosen)


def render_sheet(request: Request, *, check: Check = NO_CHECK, stream: BinaryIO | None = None,
                 progress: ProgressBar | None = None) -> Rendered:
    """Build the sheet, apply the option rules, write its files (or the one file to ``stream``) and its fields."""
    from printkit import backends, registry

    chosen = output_format(request.output, request.fmt)
    options = backend_options(request.svg_text, chosen)
    to_stream = request.output == STREAM
    if request.output is not None and not to_stream:
        check.output(request.output, OUTPUT)
    sheet = registry.build_sheet(request.kind, request.subject, request.names, request.paper)
    fields = None
    if request.fields is not None:
        fields = fields_text(sheet, request.kind)
        check.output(request.fields, FIELDS)
    if request.fillable and request.game is not None:
        raise OptionError(FILLABLE, "the form fields do not carry the game's id yet; print the game's sheets, "
                                    "or render --fillable without --game")
    if request.game is not None:
        sheet = game_sheet(sheet, request.game)
    if request.fillable:
        sheet = fillable_sheet(sheet, request.kind, chosen)
    document = sheet.document
    count = backends.file_count(document, chosen)
    if to_stream:
        if count != 1:
            raise OptionError(None, f"{chosen.upper()} gives one file per page and this sheet has {count} pages; "
                                    "use -o PATH (or --format pdf) instead of -o -")
        if stream is None:
            raise ValueError("an output of '-' needs a stream to write to")
        written = backends.write(document, chosen, stream, options=options)
    else:
        target = Path(request.output) if request.output else default_output(
            request.kind, request.subject, request.paper, chosen, len(request.names))
        check.outputs(backends.numbered_paths(target, count), OUTPUT)
        if not request.output:
            target.parent.mkdir(parents=True, exist_ok=True)
        with (progress or _no_bar)(backends.steps(document, chosen)) as report:
            written = backends.write(document, chosen, target, report, options)
    if request.fields is not None and fields is not None:
        _write_text(Path(request.fields), fields)
    return Rendered(chosen, len(document.pages), written.paths, written.removed)


def _no_bar(total: int) -> AbstractContextManager[Progress | None]:
    """No progress reported."""
    return contextlib.nullcontext(None)


def _write_text(path: Path, data: str) -> None:
    """Write a text file atomically (UTF-8)."""
    from printkit.files import atomic_write

    atomic_write(path, data.encode("utf-8"))
