"""The one shape of every sheet builder: handed its game's model, the players' names and the paper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

from printkit.layout.primitives import Document

T = TypeVar("T")
L = TypeVar("L")

SheetBuilder = Callable[[T, list[str], str], Document]
"""``builder(model, names, paper) -> Document``: one page (or more) of sheet for these players."""


class Prepared(NamedTuple, Generic[T, L]):
    """What a sheet kind's pages share, made once per (model, paper), and how its builder is handed one made before.

    The registry keeps ``make``'s (picklable) result on disk and hands it back
    with ``keep`` before the builder runs, so a builder stays a pure function.
    """

    kind: type[L]
    make: Callable[[T, str], L]
    keep: Callable[[T, str, L], None]
