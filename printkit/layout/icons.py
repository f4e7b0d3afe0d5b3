"""Icons for souvenirs, sights, animals and sheet symbols, as unit-box symbols.

The shapes live in printkit/assets/icons/icons.json (made by
tools/extract_icons.py; sources and licences in PROVENANCE.md beside it).
Each icon is a filled silhouette in a 0..1 box, y down, so it reads in
black-and-white and at small sizes.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, NamedTuple

from printkit.errors import DataError
from printkit.layout import pathdata
from printkit.layout.primitives import Path, Style, Symbol
from printkit.resources import asset

_FILL = Style(stroke=None, fill="#000000", width=0.0)


class IconSource(NamedTuple):
    """Where an icon came from: ``set:name`` and its licence (SPDX id)."""

    source: str
    licence: str


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, Any]:
    path = asset("icons", "icons.json")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError([f"{path}: cannot read icon catalogue: {exc}"]) from None
    if not isinstance(doc, dict):
        raise DataError([f"{path}: expected an object of icons"])
    return doc


def icon_names() -> tuple[str, ...]:
    """Every icon name, sorted."""
    return tuple(sorted(_catalogue()))


def source(name: str) -> IconSource:
    """Source and licence of icon ``name``."""
    entry = _entry(name)
    return IconSource(str(entry["source"]), str(entry["licence"]))


def _entry(name: str) -> dict[str, Any]:
    cat = _catalogue()
    if name not in cat:
        raise DataError([f"icons: no icon named {name!r}; known icons: {', '.join(sorted(cat))}"])
    entry: dict[str, Any] = cat[name]
    return entry


@lru_cache(maxsize=None)
def symbol(name: str) -> Symbol:
    """The icon ``name`` as a filled :class:`Symbol` in the unit box (y down)."""
    entry = _entry(name)
    width, height = (float(v) for v in entry["viewbox"])
    paths = tuple(
        Path(pathdata.to_unit_box(pathdata.parse(d, f"icons: {name}"), width, height), _FILL)
        for d in entry["d"]
    )
    return Symbol(name, paths)


def symbols(names: list[str] | tuple[str, ...]) -> tuple[Symbol, ...]:
    """Symbols for the distinct ``names`` in first-seen order (for a Document)."""
    return tuple(symbol(n) for n in dict.fromkeys(names))
