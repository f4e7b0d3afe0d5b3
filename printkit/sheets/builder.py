"""The one shape of every sheet builder: handed its game's model, the players' names and the paper."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from printkit.layout.primitives import Document

T = TypeVar("T")

SheetBuilder = Callable[[T, list[str], str], Document]
"""``builder(model, names, paper) -> Document``: one page (or more) of sheet for these players."""
