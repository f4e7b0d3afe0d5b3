"""Backend-neutral drawing primitives, in points, origin top-left, y down.

Layout code builds a :class:`Document` of these; the PDF and SVG backends
draw them and know nothing of maps or games. Things drawn on every page of a
pack (the map, the empty score sections) go in a named :class:`Form` once and
each page places it with :class:`UseForm`; icons are :class:`Symbol` paths in
a unit box placed with :class:`Icon`. A QR code or a marker is one
:class:`Cells` grid (its matrix as bytes), not a shape per cell.

The items are typed ``NamedTuple``s (a frozen dataclass costs 0.3-0.8 ms to
define, on the way of every render), equal only to items of their own type as
dataclasses were; :class:`Page` and :class:`Document` stay frozen dataclasses
(changed with ``dataclasses.replace``). Annotations are evaluated (no
``from __future__ import annotations``: ``NamedTuple`` would compile each).
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Union

Anchor = Literal["start", "middle", "end"]
FontWeight = Literal["regular", "bold"]

# Path commands, absolute coordinates only: ("M", x, y), ("L", x, y),
# ("C", x1, y1, x2, y2, x, y), ("Z",)
PathCommand = tuple[Union[str, float], ...]


class Style(NamedTuple):
    """Stroke and fill. Colours are ``#rrggbb`` strings; ``None`` means none."""

    stroke: str | None = "#000000"
    fill: str | None = None
    width: float = 1.0
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


class Line(NamedTuple):
    """A straight line from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = Style()


class Rect(NamedTuple):
    """An axis-aligned rectangle with top-left corner (x, y)."""

    x: float
    y: float
    w: float
    h: float
    style: Style = Style()
    radius: float = 0.0


class Circle(NamedTuple):
    """A circle centred on (cx, cy)."""

    cx: float
    cy: float
    r: float
    style: Style = Style()


class Path(NamedTuple):
    """A path of absolute M/L/C/Z commands; ``even_odd`` keeps holes (lakes) open."""

    commands: tuple[PathCommand, ...]
    style: Style = Style()
    even_odd: bool = False


class Clipped(NamedTuple):
    """Paths drawn only inside a clipping path (a region's pattern, kept off what lies over it).

    ``clip`` is closed M/L/C/Z commands; ``even_odd`` keeps its holes open. The
    paths paint in order, so one drawn in the ground's colour after a pattern
    clears the pattern there.
    """

    clip: tuple[PathCommand, ...]
    paths: tuple[Path, ...]
    even_odd: bool = False


class Text(NamedTuple):
    """One line of text; (x, y) is the baseline point at ``anchor``."""

    x: float
    y: float
    text: str
    size: float
    weight: FontWeight = "regular"
    anchor: Anchor = "start"
    fill: str = "#000000"


class Symbol(NamedTuple):
    """An icon drawn in a 0..1 unit box (y down) from paths."""

    name: str
    paths: tuple[Path, ...]


class Icon(NamedTuple):
    """Place symbol ``name`` with its unit box scaled to ``size`` at top-left (x, y)."""

    name: str
    x: float
    y: float
    size: float
    fill: str = "#000000"


class Cells(NamedTuple):
    """A grid of square cells ``cell`` points wide at top-left (x, y): a QR code or a marker.

    ``black`` holds the rows one after another, one byte per cell (1 = black),
    ``columns`` to a row: one small object instead of a shape per cell.
    """

    x: float
    y: float
    cell: float
    columns: int
    black: bytes
    style: Style = Style(stroke=None, fill="#000000")

    def runs(self) -> Iterator[tuple[float, float, float, float]]:
        """(x, y, w, h) of the black cells, each row's runs merged into one, top row first.

        A run reaches a hair (2%) into the row below, so no white seam shows
        between rows at any zoom; the bottom row does not.
        """
        n, cell, black = self.columns, self.cell, self.black
        rows = len(black) // n
        for r in range(rows):
            h = cell * 1.02 if r < rows - 1 else cell
            y = self.y + r * cell
            row, c = black[r * n : (r + 1) * n], 0
            while (c := row.find(1, c)) >= 0:
                end = row.find(0, c)
                end = n if end < 0 else end
                yield self.x + c * cell, y, (end - c) * cell, h
                c = end

    def rects(self) -> Iterator[Rect]:
        """The runs (:meth:`runs`) as rectangles."""
        for x, y, w, h in self.runs():
            yield Rect(x, y, w, h, self.style)


class UseForm(NamedTuple):
    """Place the document's form ``name`` at the page origin."""

    name: str


Item = Union[Line, Rect, Circle, Path, Clipped, Text, Icon, Cells, UseForm]


class Form(NamedTuple):
    """Items drawn once per document and reused on many pages."""

    name: str
    items: tuple[Item, ...]


class FormField(NamedTuple):
    """An interactive form field over the rectangle at top-left (x, y): a check box or a text field.

    Only the PDF backend draws them (other formats have no forms). A hidden
    field carries data for a program, not a person (``value``, read-only);
    ``tooltip`` is what a PDF app shows or reads out for the field (``/TU``).
    """

    name: str
    kind: Literal["checkbox", "text"]
    x: float
    y: float
    w: float
    h: float
    value: str = ""
    hidden: bool = False
    tooltip: str = ""


def _same(a: tuple[object, ...], b: object) -> bool:
    """``a == b``, for items of one type only (as a dataclass compares), never an item and a plain tuple."""
    return type(a) is type(b) and tuple.__eq__(a, b)


def _differ(a: tuple[object, ...], b: object) -> bool:
    """``a != b`` (see :func:`_same`)."""
    return not _same(a, b)


for _kind in (Style, Line, Rect, Circle, Path, Clipped, Text, Symbol, Icon, Cells, UseForm, Form, FormField):
    setattr(_kind, "__eq__", _same)
    setattr(_kind, "__ne__", _differ)
    setattr(_kind, "__hash__", tuple.__hash__)  # noqa: B010 - a NamedTuple's body cannot take these


@dataclass(frozen=True)
class Page:
    """One page: its items in paint order, and the form fields over them."""

    items: tuple[Item, ...]
    label: str = ""
    fields: tuple[FormField, ...] = ()


@dataclass(frozen=True)
class Document:
    """Pages of one size (points), the forms and symbols they use, and metadata."""

    width: float
    height: float
    pages: tuple[Page, ...]
    forms: tuple[Form, ...] = ()
    symbols: tuple[Symbol, ...] = ()
    title: str = ""
    meta: dict[str, str] = field(default_factory=dict)
