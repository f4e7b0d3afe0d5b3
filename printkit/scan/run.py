"""Scan many files as one game: each page read on its own, bad pages reported, the rest scored together.

One page that cannot be read (a damaged file, a forged code, a malformed pen
annotation) is one error line; the others are still read. The same sheet given
twice (one picture twice, a photo and a scan of one sheet, a PDF of copies) is
one player: counted once when every copy reads the same, else refused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printkit.scan.images import PageSource, ScanError, decode_page, expand, pages, read_input, shown_file
from printkit.scan.sheet import SheetRead, read_sheet

if TYPE_CHECKING:
    from collections.abc import Iterator
    from concurrent.futures import Executor

    from printkit.scan.images import Image

REVIEW_TRIES = 1000
"""A review overlay takes the first free name of ``01-ann.png``, ``01-ann-2.png``... up to this many."""


@dataclass(frozen=True)
class Scanned:
    """The sheets read, in order, one error line per page that could not be read, and notes (fall-backs)."""

    sheets: tuple[SheetRead, ...]
    errors: tuple[str, ...]
    notes: tuple[str, ...] = ()


def _digest(image: Image) -> str:
    """The digest of a page's pixels (its size included)."""
    import hashlib

    import numpy as np

    digest = hashlib.sha256(repr(image.shape).encode())
    digest.update(np.ascontiguousarray(image).data.cast("B"))  # the pixels' bytes, not copied again
    return digest.hexdigest()


def _read_page(image: Image, where: PageSource, pool: Executor) -> SheetRead:
    """One scanned page read (its digest taken on ``pool`` meanwhile); any failure a ScanError naming ``where``
    (one bad page never stops the others)."""
    digest = pool.submit(_digest, image)
    try:
        sheet = read_sheet(image, where)
    except ScanError:
        raise
    except Exception as exc:  # an image no sheet reader expects (OpenCV's or numpy's own errors)
        raise ScanError(f"{where}: cannot be read ({type(exc).__name__}: {str(exc)[:200]})") from None
    sheet.digest = digest.result()
    return sheet


@dataclass(frozen=True)
class _Loaded:
    """One file's bytes (or why it cannot be read) and, for an image file, its page decoded."""

    data: bytes | ScanError
    page: Image | ScanError | None = None


def _load(path: Path) -> _Loaded:
    """A file read, and decoded when it is an image (a PDF's pages are drawn as they are read)."""
    try:
        data = read_input(path)
    except ScanError as exc:
        return _Loaded(exc)
    if path.suffix.lower() == ".pdf" or data[:5] == b"%PDF-":
        return _Loaded(data)
    return _Loaded(data, decode_page(data, PageSource(path)))


def _loaded(files: list[Path], pool: Executor) -> Iterator[tuple[Path, _Loaded]]:
    """Each file with its bytes and decoded image, the next file read and decoded on ``pool`` while this one is read."""
    ahead = pool.submit(_load, files[0]) if files else None
    for k, path in enumerate(files):
        assert ahead is not None
        current, ahead = ahead, pool.submit(_load, files[k + 1]) if k + 1 < len(files) else None
        yield path, current.result()


def _read_file(path: Path, loaded: _Loaded, pool: Executor, found: tuple[list[SheetRead], list[str], list[str]]) -> None:
    """Every page of one file read into ``found``'s sheets, or an error line each (its errors), notes in its notes."""
    from printkit.scan.form import read_form

    sheets, errors, notes = found
    data = loaded.data
    if isinstance(data, ScanError):
        errors.append(str(data))
        return
    if loaded.page is None:  # a PDF: a fillable form's fields, else (or for its other pages) its pages drawn
        form = read_form(path, data)
        sheets += form.sheets
        errors += form.errors
        notes += [form.note] if form.note else []
        if not form.fallback:
            return
    for where, image in pages(path, data) if loaded.page is None else [(PageSource(path), loaded.page)]:
        try:
            if isinstance(image, ScanError):
                raise image
            sheets.append(_read_page(image, where, pool))
        except ScanError as exc:
            errors.append(str(exc))


def scan_files(paths: list[str]) -> Scanned:
    """Read every page of every file (folders: their images and PDFs); an unreadable page is an error line.

    One helper thread reads and decodes the next image file, and takes each
    page's digest, while this one reads the page before: the reads are the
    same, in the same order, as one page after another.
    """
    from concurrent.futures import ThreadPoolExecutor

    found: tuple[list[SheetRead], list[str], list[str]] = ([], [], [])
    files = expand(paths)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="printkit-scan") as pool:
        for path, loaded in _loaded(files, pool):
            _read_file(path, loaded, pool, found)
    sheets, errors, notes = found
    if not files:
        errors.append(f"{', '.join(map(shown_file, paths))}: no PNG, JPEG or PDF files to scan")
    kept, refused, said = unique(sheets)
    return Scanned(kept, tuple(errors) + refused, tuple(notes) + said)


def _reads(s: SheetRead) -> tuple[object, ...]:
    """What a sheet reads as: its map and name, marked boxes, drawn routes, trail and unsure reads."""
    return (s.m.id, s.ident.name.strip(), sorted(b for b, r in s.boxes.items() if r.on),
            sorted(r for r, v in s.routes.items() if v.on), s.route, sorted(u.message for u in s.uncertain))


def _keys(s: SheetRead) -> set[tuple[object, ...]]:
    """What makes two pages one sheet: the same pixels, or the same map, page and player in the code."""
    keys: set[tuple[object, ...]] = {("pixels", s.digest)} if s.digest else set()
    if s.ident.name.strip():
        keys.add(("code", s.m.id, s.ident.page, s.ident.name.strip().casefold()))
    return keys


def unique(sheets: list[SheetRead]) -> tuple[tuple[SheetRead, ...], tuple[str, ...], tuple[str, ...]]:
    """(the sheets, each once; an error line per copy of a sheet whose copies read differently; notes).

    Copies that all read the same are counted once (a note each); copies
    that differ are all refused: which one is right is not for the scan to guess.
    """
    groups: list[tuple[set[tuple[object, ...]], list[SheetRead]]] = []
    for s in sheets:
        keys = _keys(s)
        group = next((g for g in groups if g[0] & keys), None)
        if group is None:
            groups.append((keys, [s]))
        else:
            group[0].update(keys)
            group[1].append(s)
    first = {id(g[1][0]): g[1] for g in groups}
    kept: list[SheetRead] = []
    errors: list[str] = []
    notes: list[str] = []
    for s in sheets:
        copies = first.get(id(s))
        if copies is None:
            continue
        who = f"{s.ident.name.strip()}'s sheet" if s.ident.name.strip() else "the sheet"
        if all(_reads(c) == _reads(s) for c in copies):
            kept.append(s)
            notes += [f"{c.source}: the same sheet as {s.source} ({who}, page {s.ident.page}), read the same: "
                      "counted once" for c in copies[1:]]
            continue
        for c in copies:
            others = [str(o.source) for o in copies if o is not c]
            shown = ", ".join(others[:2]) + (f" and {len(others) - 2} more" if len(others) > 2 else "")
            errors.append(f"{c.source}: {who} (page {s.ident.page}) is also in {shown} and the copies read "
                          "differently: scan one copy of each sheet")
    return tuple(kept), tuple(errors), tuple(notes)


def review_name(index: int, sheet: SheetRead) -> str:
    """The overlay's file name: ``01-ann.png`` (the page's place in the scan, the player)."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in sheet.ident.name.lower()).strip("-") or "sheet"
    return f"{index:02d}-{slug}.png"


def _claim(folder: Path, name: str) -> tuple[Path, int]:
    """A new file in ``folder`` (``name``, else ``name-2``...), created here and open for writing: never another's."""
    stem, suffix = os.path.splitext(name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for k in range(1, REVIEW_TRIES + 1):
        target = folder / (name if k == 1 else f"{stem}-{k}{suffix}")
        try:
            return target, os.open(target, flags, 0o666)
        except FileExistsError:
            continue
    raise ScanError(f"{shown_file(folder)}: {REVIEW_TRIES} files named {stem}*{suffix} already: choose another "
                    "folder for --review")


def write_reviews(folder: Path, sheets: tuple[SheetRead, ...]) -> list[Path]:
    """One overlay PNG per sheet in ``folder`` (created if missing); the paths written.

    An overlay never replaces a file: a name already taken gets ``-2``, ``-3``...
    """
    from printkit.scan.ink import blank_sheet
    from printkit.scan.review import overlay

    out: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for k, s in enumerate(sheets, start=1):
            png = overlay(s, blank_sheet(s.m.id, s.ident.paper).fields)
            target, fd = _claim(folder, review_name(k, s))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(png)
            except BaseException:
                target.unlink(missing_ok=True)
                raise
            out.append(target)
    except OSError as exc:
        raise ScanError(f"{shown_file(folder)}: cannot write the review overlays ({exc.strerror or exc})") from None
    return out
