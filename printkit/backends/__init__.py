"""Backends: turn a layout :class:`Document` into PDF, SVG or PNG bytes.

A PDF holds every page; SVG and PNG give one file per page. Heavy libraries
are imported only by the backend that is used.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, Literal, NamedTuple

from printkit.errors import PrintkitError
from printkit.files import atomic_write_all, remove_stale_temps
from printkit.layout.primitives import Document

Format = Literal["pdf", "svg", "png"]
FORMATS: tuple[Format, ...] = ("pdf", "svg", "png")
Progress = Callable[[int], None]
SvgText = Literal["path", "font"]
SVG_TEXTS: tuple[SvgText, ...] = ("path", "font")


class Options(NamedTuple):
    """How a backend draws what its format leaves open."""

    svg_text: SvgText = "path"  # SVG text as glyph outlines (every renderer alike) or <text> with its font embedded


class OutputError(PrintkitError):
    """An output cannot be written (unknown format, many pages to one stream, ...)."""


def format_for(path: str | os.PathLike[str] | None, fmt: str | None) -> Format:
    """The format to write: ``fmt`` if given, else the output file's extension."""
    suffix = "" if path is None or str(path) == "-" else Path(path).suffix.lower().lstrip(".")
    if fmt:
        chosen = next((known for known in FORMATS if known == fmt.lower()), None)
        if chosen is None:
            raise OutputError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
        if suffix in FORMATS and suffix != chosen:
            raise OutputError(f"{path}: the extension .{suffix} does not match the format {chosen}; "
                              f"name the file .{chosen} or leave out --format")
        return chosen
    if path is None or str(path) == "-":
        return "pdf"
    for known in FORMATS:
        if known == suffix:
            return known
    raise OutputError(
        f"{path}: cannot tell the format from the extension {('.' + suffix) if suffix else '(none)'}; "
        f"use .pdf, .svg or .png, or give --format"
    )


def _pdf_page(document: Document, index: int, options: Options) -> bytes:
    from printkit.backends.pdf import render_pdf

    return render_pdf(document)


def _pdf_each(document: Document, progress: Progress | None, options: Options) -> Iterator[bytes]:
    from printkit.backends.pdf import render_pdf

    yield render_pdf(document, progress)


def _svg_page(document: Document, index: int, options: Options) -> bytes:
    from printkit.backends.svg import render_svg_page

    return render_svg_page(document, index, options.svg_text)


def _svg_each(document: Document, progress: Progress | None, options: Options) -> Iterator[bytes]:
    from printkit.backends.svg import SvgPack

    pack = SvgPack(document, options.svg_text)
    for i in range(len(document.pages)):
        yield pack.page(i)
        if progress is not None:
            progress(1)


def _png_page(document: Document, index: int, options: Options) -> bytes:
    from printkit.backends.png import render_png_page

    return render_png_page(document, index)


def _png_each(document: Document, progress: Progress | None, options: Options) -> Iterator[bytes]:
    from printkit.backends.png import pack_pngs

    yield from pack_pngs(document, progress=progress)


class Writer(NamedTuple):
    """How one format is written: one file for the whole document or one per page, and by which functions.

    The backend's module is imported only when a function runs, so only the
    format that is written loads its library.
    """

    whole: bool  # one file holds every page (PDF); else one file per page
    steps_per_page: int  # progress steps a page reports
    page: Callable[[Document, int, Options], bytes]  # output file ``index``'s bytes
    each: Callable[[Document, Progress | None, Options], Iterator[bytes]]  # every file's bytes, one at a time


WRITERS: dict[Format, Writer] = {
    "pdf": Writer(True, 1, _pdf_page, _pdf_each),
    "svg": Writer(False, 1, _svg_page, _svg_each),
    "png": Writer(False, 2, _png_page, _png_each),  # a page is drawn, then encoded
}
"""Each format's writer, in :data:`FORMATS` order."""


def file_count(document: Document, fmt: Format) -> int:
    """How many files the document makes in ``fmt``: 1 for PDF, one per page otherwise."""
    return 1 if WRITERS[fmt].whole else len(document.pages)


def render_page(document: Document, fmt: Format, index: int, options: Options = Options()) -> bytes:
    """The bytes of output file ``index`` (the whole PDF when ``fmt`` is pdf)."""
    return WRITERS[fmt].page(document, index, options)


def steps(document: Document, fmt: Format) -> int:
    """How many progress steps :func:`render` reports for this document."""
    return WRITERS[fmt].steps_per_page * len(document.pages)


def render(document: Document, fmt: Format, progress: Progress | None = None,
           options: Options = Options()) -> list[bytes]:
    """Every output file's bytes: one PDF, or one SVG/PNG per page."""
    return list(render_each(document, fmt, progress, options))


def render_each(document: Document, fmt: Format, progress: Progress | None = None,
                options: Options = Options()) -> Iterator[bytes]:
    """Every output file's bytes, one file at a time (a pack is never held whole)."""
    return WRITERS[fmt].each(document, progress, options)


def numbered_paths(path: str | os.PathLike[str], count: int) -> list[Path]:
    """``path`` itself for one file, else ``stem-01.ext``, ``stem-02.ext``, ..."""
    p = Path(path)
    if count == 1:
        return [p]
    digits = max(2, len(str(count)))
    return [p.with_name(f"{p.stem}-{i:0{digits}d}{p.suffix}") for i in range(1, count + 1)]


class Written(NamedTuple):
    """What :func:`write` did: the files written, and the pages of an earlier pack it removed."""

    paths: list[Path]
    removed: list[Path]


def _folder(target: Path) -> Path:
    return target.parent if str(target.parent) else Path(".")


def _page_names(target: Path) -> str:
    """A regex of the page names of every pack written to ``target``: ``stem-NN.ext``, any number of digits."""
    return rf"{re.escape(target.stem)}-\d{{2,}}{re.escape(target.suffix)}"


def earlier_pages(target: Path, paths: list[Path]) -> list[Path]:
    """Pages of an earlier pack written to ``target`` that are not among the new pack's ``paths``."""
    if len(paths) < 2:
        return []
    pattern = re.compile(_page_names(target))
    folder = _folder(target)
    new = {p.name for p in paths}
    found = [target.parent / e.name for e in os.scandir(folder)
             if pattern.fullmatch(e.name) and e.name not in new and e.is_file(follow_symlinks=False)]
    return sorted(found)


def _write_pack(target: Path, paths: list[Path], blobs: Iterable[bytes]) -> Written:
    """Every page or none, then the earlier pack's extra pages and stale temp files removed."""
    try:
        atomic_write_all(zip(paths, blobs, strict=True))
    except OSError as exc:
        where = str(paths[0]) if len(paths) == 1 else f"{paths[0]} ... {paths[-1].name}"
        kept = "" if len(paths) == 1 else f"; none of its {len(paths)} pages were kept"
        raise OutputError(f"{where}: cannot write ({exc.strerror or exc}){kept}") from None
    removed: list[Path] = []
    for old in earlier_pages(target, paths):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(old)
            removed.append(old)
    remove_stale_temps(_folder(target), f"{re.escape(target.name)}|{_page_names(target)}")
    return Written(paths, removed)


def write(
    document: Document, fmt: Format, target: str | os.PathLike[str] | BinaryIO, progress: Progress | None = None,
    options: Options = Options(),
) -> Written:
    """Write the document to a binary stream or path(s), atomically as a whole; say what was written.

    A PDF is one file; SVG and PNG write ``stem-01.ext``, ... when there are
    several pages: all pages appear or none, and pages of an earlier pack of
    the same name beyond the new ones are removed. ``progress(n)`` reports
    rendering steps (see :func:`steps`).
    """
    if not isinstance(target, (str, os.PathLike)):
        if file_count(document, fmt) != 1:
            raise OutputError(
                f"{fmt.upper()} gives one file per page and this document has "
                f"{len(document.pages)} pages; write to a file path instead of a stream"
            )
        target.write(render(document, fmt, progress, options)[0])
        return Written([], [])
    paths = numbered_paths(target, file_count(document, fmt))
    return _write_pack(Path(target), paths, render_each(document, fmt, progress, options))
