"""The one shape of every sheet builder: handed its game's model, the players' names and the paper, it gives a Sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

from printkit.layout.common import NameSlot
from printkit.layout.primitives import Document
from printkit.sheets.fields import Geometry

T = TypeVar("T")
L = TypeVar("L")


class Sheet(NamedTuple):
    """A built sheet: its pages, and for a sheet a scanner reads, its geometry and where each page's name goes."""

    document: Document
    geometry: Geometry | None = None
    """What ``--fields`` writes, ``--fillable`` and ``printkit scan`` read; None for a sheet without fields."""
    name_slot: NameSlot | None = None
    """Where a pack prints each player's name (the name field of a fillable sheet)."""

    @property
    def layout(self) -> str | None:
        """The layout version a scanner checks (``SCHEME.<hash>``), None for a sheet without fields."""
        return None if self.geometry is None else self.geometry.layout


SheetBuilder = Callable[[T, list[str], str], Sheet]
"""``builder(model, names, paper) -> Sheet``: one page (or more) of sheet for these players."""


class Prepared(NamedTuple, Generic[T, L]):
    """What a sheet kind's pages share, made once per (model, paper), and the builder handed it.

    ``make(model, paper)`` gives the shared layout (plain data: the registry
    keeps it on disk, checked to be a ``kind``); ``build(model, names, paper,
    made)`` draws the pages from it and nothing else, so a builder stays a
    pure function and a layout from the cache is never made again.
    """

    kind: type[L]
    make: Callable[[T, str], L]
    build: Callable[[T, list[str], str, L], Sheet]
