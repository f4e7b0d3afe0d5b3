"""What a sheet's QR code (or a fillable PDF's ``sheet`` field) may say, and the map it names.

The code is read off paper anyone can print, so every field is checked before
it is used: the map is a bundled map's id, or the map of a file given with
``scan --map FILE`` whose layout fingerprint the code carries; it is never
opened as a path. The paper is one printkit prints, the page a sheet's page
number, the name a player name by the one rule of :mod:`printkit.model.names`.
A field that fails makes that one sheet an error line.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from printkit.scan.images import PageSource, ScanError, shown_file

if TYPE_CHECKING:
    from printkit.model.maps import GameMap
    from printkit.scan.locate import Identity

MAP_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A map id as map files give it (lowercase letters, digits and hyphens)."""
MAX_PAGE = 10_000
"""Pages of one pack are numbered 1 up to this."""
_FILES: dict[str, str] = {}
"""Map id -> the file its sheets are built from, for maps given with ``scan --map FILE``."""


def subject(map_id: str) -> str:
    """What the registry builds ``map_id``'s sheets from: its ``--map`` file if one was given, else the id."""
    return _FILES.get(map_id, map_id)


def use_map_files(files: list[str]) -> None:
    """Read sheets of these map files (``scan --map``) from now on, matched by their layout fingerprint."""
    from printkit.loading.maps import load_map

    _FILES.clear()
    for path in files:
        _FILES[load_map(path).id] = path


def identity_problem(ident: Identity) -> str | None:
    """What is wrong with the fields a sheet's code carries (map id, paper, page, name), or None."""
    from printkit.model.names import name_problem, shown
    from printkit.scan.locate import PAPER_SIZES

    if len(ident.map) > 40 or not MAP_ID.fullmatch(ident.map):
        return f"the QR code's map {shown(ident.map)} is not a map id"
    if ident.paper not in PAPER_SIZES:
        return f"the QR code's paper {shown(ident.paper)} is not one printkit prints ({', '.join(PAPER_SIZES)})"
    if not 1 <= ident.page <= MAX_PAGE:
        return f"the QR code's page number {ident.page} is not one of a pack's (1-{MAX_PAGE})"
    problem = name_problem(ident.name) if ident.name.strip() else None
    return None if problem is None else f"the QR code's {problem}"


@lru_cache(maxsize=16)
def _layout(path: str, paper: str) -> str:
    """The layout fingerprint of the map file's sheet on ``paper``."""
    from printkit import registry

    geometry = registry.build_sheet("map", path, [""], paper).geometry
    assert geometry is not None  # a map sheet has its fields
    return geometry.layout


def sheet_map(ident: Identity, where: PageSource) -> GameMap:
    """The map a sheet's code names (its fields checked first), else a ScanError naming ``where``.

    A ``--map`` file whose map has the code's id, or failing that whose
    layout is the code's, wins over a bundled map; a bundled map is named by
    its exact id. Nothing in the code is ever opened as a path.
    """
    from printkit.loading.maps import bundled_maps, load_map

    problem = identity_problem(ident)
    if problem is not None:
        raise ScanError(f"{where}: {problem}")
    path = _FILES.get(ident.map)
    if path is not None:
        if _layout(path, ident.paper) != ident.layout:
            raise ScanError(f"{where}: the sheet was printed from another version of {shown_file(path)} (layout "
                            f"{ident.layout}, the file draws {_layout(path, ident.paper)}): print it again")
        return load_map(path)
    if ident.map in bundled_maps():
        return load_map(ident.map)
    for path in _FILES.values():
        if _layout(path, ident.paper) == ident.layout:
            return load_map(path)
    raise ScanError(f"{where}: the sheet is for a map printkit does not have here ({ident.map!r}): "
                    "give its map file with --map FILE")
