"""Scan many files as one game: each page read on its own, bad pages reported, the rest scored together."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printkit.scan.images import ScanError, expand, pages
from printkit.scan.sheet import SheetRead, read_sheet


@dataclass(frozen=True)
class Scanned:
    """The sheets read, in order, one error line per page that could not be read, and notes (fall-backs)."""

    sheets: tuple[SheetRead, ...]
    errors: tuple[str, ...]
    notes: tuple[str, ...] = ()


def scan_files(paths: list[str]) -> Scanned:
    """Read every page of every file (folders: their images and PDFs); an unreadable page is an error line."""
    from printkit.scan.form import read_form

    sheets: list[SheetRead] = []
    errors: list[str] = []
    notes: list[str] = []
    files = expand(paths)
    for path in files:
        if not path.is_file():
            errors.append(f"{path}: no such file")
            continue
        if path.suffix.lower() == ".pdf":
            form = read_form(path, path.read_bytes())
            sheets += form.sheets
            errors += form.errors
            notes += [form.note] if form.note else []
            if not form.fallback:
                continue
        for where, image in pages(path):
            if isinstance(image, ScanError):
                errors.append(str(image))
                continue
            try:
                sheets.append(read_sheet(image, where))
            except ScanError as exc:
                errors.append(str(exc))
    if not files:
        errors.append(f"{', '.join(paths)}: no PNG, JPEG or PDF files to scan")
    return Scanned(tuple(sheets), tuple(errors), tuple(notes))


def review_name(index: int, sheet: SheetRead) -> str:
    """The overlay's file name: ``01-ann.png`` (the page's place in the scan, the player)."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in sheet.ident.name.lower()).strip("-") or "sheet"
    return f"{index:02d}-{slug}.png"


def write_reviews(folder: Path, sheets: tuple[SheetRead, ...]) -> list[Path]:
    """One overlay PNG per sheet in ``folder`` (created if missing); the paths written."""
    from printkit.files import atomic_write
    from printkit.scan.ink import blank_sheet
    from printkit.scan.review import overlay

    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for k, s in enumerate(sheets, start=1):
        target = folder / review_name(k, s)
        atomic_write(str(target), overlay(s, blank_sheet(s.m.id, s.ident.paper).fields))
        out.append(target)
    return out
