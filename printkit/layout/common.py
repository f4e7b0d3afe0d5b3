"""Shared layout helpers: paper, measured text, write-in boxes, tables, title blocks, packs.

Every sheet builder (ours and the other games') uses these so that all sheets
share one look: a title block, a name line, sections with a bold header, and
tables of write-in boxes. All sizes are points; origin top-left, y down.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from printkit.errors import PrintkitError
from printkit.layout import fonts
from printkit.layout.boxes import Box
from printkit.layout.primitives import (
    Anchor,
    Document,
    FontWeight,
    Form,
    Icon,
    Item,
    Line,
    Page,
    Rect,
    Style,
    Symbol,
    Text,
    UseForm,
)

PAPERS: dict[str, tuple[float, float]] = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
"""Portrait page sizes in points."""

MARGIN = 34.0
"""Safe margin for home printers (12 mm) on every side."""

INK = "#000000"
GREY = "#4d4d4d"  # dark enough to print solid on a 1-bit (halftoning) printer
LIGHT = "#e9e9e9"
PAPER_WHITE = "#ffffff"

THIN = Style(stroke=INK, width=0.6)
BOX = Style(stroke=INK, fill=PAPER_WHITE, width=0.8)
RULE = Style(stroke=INK, width=1.0)
SHADE = Style(stroke=None, fill=LIGHT)
WRITE_LINE = Style(stroke=INK, width=0.7)

SECTION_SIZE = 10.5  # section header text
BODY_SIZE = 9.0  # smallest text in sections
SMALL_SIZE = 7.5  # smallest text anywhere (map labels)


class LayoutError(PrintkitError):
    """A sheet cannot be laid out (unknown paper, text the font cannot print, ...)."""


# ---------------------------------------------------------------- paper


def page_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Width and height in points of ``paper`` ("a4" or "letter")."""
    try:
        w, h = PAPERS[paper.lower()]
    except KeyError:
        raise LayoutError(f"unknown paper {paper!r}; expected one of: {', '.join(PAPERS)}") from None
    return (h, w) if landscape else (w, h)


def printable_area(width: float, height: float) -> Box:
    """The area inside the safe margins of a page."""
    return Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)


# ---------------------------------------------------------------- text


def check_glyphs(value: str, weight: FontWeight = "regular") -> None:
    """Refuse text the embedded font would print as empty boxes."""
    missing = fonts.missing_glyphs(value, weight)
    if missing:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing)
        raise LayoutError(f"cannot print {value!r}: the sheet font has no glyph for {shown}")


def text(
    x: float,
    y: float,
    value: str,
    size: float = BODY_SIZE,
    weight: FontWeight = "regular",
    anchor: Anchor = "start",
    fill: str = INK,
) -> Text:
    """A Text primitive whose every character the embedded font can print."""
    check_glyphs(value, weight)
    return Text(x, y, value, size, weight, anchor, fill)


def fitted(
    x: float, y: float, value: str, max_width: float, size: float = BODY_SIZE,
    weight: FontWeight = "regular", anchor: Anchor = "start", fill: str = INK,
) -> Text:
    """Text shrunk (down to 5 pt) so that it fits ``max_width``."""
    return text(x, y, value, fonts.fit_size(value, max_width, size, weight), weight, anchor, fill)


NAME_MIN = 8.0
"""The smallest a player's name is printed (points): a longer name takes two lines instead, never cut."""
LEADING = 1.15
"""A name's second line sits this many sizes below its first."""
TWO_LINES = 1.8
"""A name on a write-in line takes two lines in this many times the height one line has (its lines stay
clear of what is above the line)."""
HALF_CAP = 0.357
"""Half the cap height of the sheet font (Open Sans: 1462 of 2048 units), per point of size."""


@lru_cache(maxsize=512)
def split_name(name: str, count: int = 2) -> tuple[str, ...]:
    """``name`` on ``count`` lines of about one width: broken at spaces where that is not much wider, else in a
    word (the line then ends in a hyphen)."""
    if count <= 1 or len(name) < count:
        return (name,)
    best: tuple[float, tuple[str, ...]] | None = None
    for i in range(1, len(name)):
        head, tail = name[:i], name[i:]
        inside = head[-1] != " " and tail[0] != " " and head[-1] != "-"
        first = head.rstrip() + ("-" if inside else "")
        rest = split_name(tail.lstrip(), count - 1)
        if not first.strip("-") or not rest[0]:
            continue
        broken = int(inside) + sum(t.endswith("-") for t in rest[:-1])
        cost = max(fonts.text_width(t, 1.0, "bold") for t in (first, *rest)) * (1 + 0.15 * broken)
        if best is None or cost < best[0]:
            best = (cost, (first, *rest))
    return best[1] if best is not None else (name,)


def name_fit(name: str, width: float, size: float = 12.0, height: float = 99.0) -> tuple[tuple[str, ...], float]:
    """The lines and size of a player's name ``width`` wide: one line shrunk from ``size`` to ``NAME_MIN``, else
    two lines (:func:`split_name`) at the largest size up to ``size`` that fits ``width`` and ``height``; never
    cut."""
    one = fonts.fit_size(name, width, size, "bold", 0.0)
    if one >= NAME_MIN:
        return (name,), one
    lines = split_name(name)
    widest = max(fonts.text_width(t, 1.0, "bold") for t in lines)
    return lines, min(size, width / widest if widest else size, height / (LEADING + 1.0))


def name_width(name: str, size: float = NAME_MIN) -> float:
    """The least width (points) that holds a player's name at ``size`` on at most two lines."""
    return min(fonts.text_width(name, size, "bold"), max(fonts.text_width(t, size, "bold") for t in split_name(name)))


def name_texts(
    x: float, y: float, value: str, max_width: float, size: float = 12.0, anchor: Anchor = "start",
    middle: bool = False, height: float = 99.0,
) -> list[Text]:
    """A player's name in bold at most ``max_width`` wide (:func:`name_fit`): one line on baseline ``y``, or two
    lines, the second on ``y`` (``middle``: the two centred where one line's capitals would be)."""
    lines, fsize = name_fit(value, max_width, size, height)
    if len(lines) == 1:
        return [text(x, y, value, fsize, "bold", anchor)]
    step = LEADING * fsize
    first = y - step if not middle else y - HALF_CAP * size - step / 2 + HALF_CAP * fsize
    return [text(x, first + k * step, line, fsize, "bold", anchor) for k, line in enumerate(lines)]


def wrap(value: str, width: float, size: float = BODY_SIZE, weight: FontWeight = "regular") -> list[str]:
    """Greedy word wrap of ``value`` into lines no wider than ``width``."""
    return list(_wrap(value, width, size, weight))


@lru_cache(maxsize=512)
def _wrap(value: str, width: float, size: float, weight: FontWeight) -> tuple[str, ...]:
    """:func:`wrap`, remembered (the map planner measures the same paragraphs many times)."""
    lines: list[str] = []
    for para in value.split("\n"):
        line = ""
        for word in para.split():
            candidate = f"{line} {word}" if line else word
            if line and fonts.text_width(candidate, size, weight) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return tuple(lines)


def paragraph(
    x: float, y: float, width: float, value: str, size: float = BODY_SIZE,
    weight: FontWeight = "regular", fill: str = INK, leading: float = 1.4,
) -> tuple[list[Item], float]:
    """Wrapped text whose first line's top is at ``y``; returns (items, height used)."""
    items: list[Item] = []
    step = size * leading
    base = y + fonts.ascent(size, weight)
    for i, line in enumerate(wrap(value, width, size, weight)):
        if line:
            items.append(text(x, base + i * step, line, size, weight, fill=fill))
    lines = len(wrap(value, width, size, weight))
    return items, (lines - 1) * step + fonts.ascent(size, weight) + fonts.descent(size, weight)


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def count_word(n: int) -> str:
    """A count in words for running text: ``9`` -> ``nine`` (digits from 13 on)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


# ---------------------------------------------------------------- building blocks


def checkbox(x: float, y: float, size: float, style: Style = BOX) -> Rect:
    """One write-in box with its top-left at (x, y)."""
    return Rect(x, y, size, size, style, radius=size * 0.12)


def section_header(x: float, y: float, w: float, title: str, note: str = "") -> tuple[list[Item], float]:
    """A bold section title with an optional right-aligned note and a rule; returns (items, height)."""
    base = y + fonts.ascent(SECTION_SIZE, "bold")
    items: list[Item] = [text(x, base, title, SECTION_SIZE, "bold")]
    if note:
        room = w - fonts.text_width(title, SECTION_SIZE, "bold") - 8
        items.append(fitted(x + w, base, note, room, BODY_SIZE - 1, anchor="end", fill=GREY))
    rule_y = base + fonts.descent(SECTION_SIZE, "bold") + 1.5
    items.append(Line(x, rule_y, x + w, rule_y, RULE))
    return items, rule_y - y + 4


class Sheet(NamedTuple):
    """A portrait page begun with its title: size, printable x/width, the title items, y below it."""

    width: float
    height: float
    items: list[Item]
    y: float

    @property
    def x(self) -> float:
        """Left edge of the printable area."""
        return MARGIN

    @property
    def w(self) -> float:
        """Width of the printable area."""
        return self.width - 2 * MARGIN


def start_sheet(paper: str, title: str, subtitle: str, gap: float = 12.0) -> Sheet:
    """Begin a portrait sheet: its title block at the top margin, content starting ``gap`` below."""
    width, height = page_size(paper)
    block, h = title_block(MARGIN, MARGIN, width - 2 * MARGIN, title, subtitle)
    return Sheet(width, height, list(block), MARGIN + h + gap)


def title_block(x: float, y: float, w: float, title: str, subtitle: str = "") -> tuple[list[Item], float]:
    """The sheet title (and a grey subtitle under it); returns (items, height)."""
    size = 17.0
    base = y + fonts.ascent(size, "bold")
    items: list[Item] = [fitted(x, base, title, w, size, "bold")]
    height = base - y + fonts.descent(size, "bold")
    if subtitle:
        sub_base = base + fonts.descent(size, "bold") + fonts.ascent(BODY_SIZE) + 1
        items.append(fitted(x, sub_base, subtitle, w, BODY_SIZE, fill=GREY))
        height = sub_base - y + fonts.descent(BODY_SIZE)
    return items, height


class NameSlot(NamedTuple):
    """Where each page of a pack writes its player's name (baseline start, max width)."""

    x: float
    y: float
    width: float
    size: float = 12.0


def name_line(x: float, y: float, w: float, label: str = "Name") -> tuple[list[Item], NameSlot]:
    """A ``Name: ______`` write-in line; the slot is where a printed name goes.

    The rule runs under the descenders of a name printed at the slot's size
    (g, j, p, q, y), so a printed name never has the rule through it.
    """
    size = 10.0
    slot_size: float = NameSlot._field_defaults["size"]
    base = y + fonts.ascent(slot_size, "bold")
    rule_y = base + fonts.descent(slot_size, "bold") + 0.5 + WRITE_LINE.width / 2
    lw = fonts.text_width(label + ":", size, "bold")
    items: list[Item] = [
        text(x, base, label + ":", size, "bold"),
        Line(x + lw + 4, rule_y, x + w, rule_y, WRITE_LINE),
    ]
    return items, NameSlot(x + lw + 8, base, w - lw - 10)


def table(
    x: float, y: float, col_widths: Sequence[float], row_heights: Sequence[float],
    cells: dict[tuple[int, int], str], *, size: float = BODY_SIZE, bold_rows: Sequence[int] = (),
    bold_cols: Sequence[int] = (), shade_rows: Sequence[int] = (), anchors: dict[int, Anchor] | None = None,
) -> list[Item]:
    """A ruled grid; ``cells[(row, col)]`` is text fitted into that cell."""
    items: list[Item] = []
    total_w = sum(col_widths)
    total_h = sum(row_heights)
    ys = [y]
    for h in row_heights:
        ys.append(ys[-1] + h)
    xs = [x]
    for w in col_widths:
        xs.append(xs[-1] + w)
    for r in shade_rows:
        items.append(Rect(x, ys[r], total_w, row_heights[r], SHADE))
    for yy in ys:
        items.append(Line(x, yy, x + total_w, yy, THIN))
    for xx in xs:
        items.append(Line(xx, y, xx, y + total_h, THIN))
    anchors = anchors or {}
    for (r, c), value in sorted(cells.items()):
        if not value:
            continue
        weight: FontWeight = "bold" if r in bold_rows or c in bold_cols else "regular"
        anchor = anchors.get(c, "start" if c == 0 else "middle")
        pad = 4.0
        cw = col_widths[c] - 2 * pad
        fsize = fonts.fit_size(value, cw, size, weight)
        base = ys[r] + row_heights[r] / 2 + (fonts.ascent(fsize, weight) - fonts.descent(fsize, weight)) / 2
        tx = xs[c] + pad if anchor == "start" else xs[c] + col_widths[c] / 2 if anchor == "middle" else xs[c + 1] - pad
        items.append(text(tx, base, value, fsize, weight, anchor))
    return items


# ---------------------------------------------------------------- documents


def symbols_for(items: Iterable[Item]) -> tuple[Symbol, ...]:
    """The icon symbols the items use, each once, sorted by name."""
    from printkit.layout import icons

    names = sorted({i.name for i in items if isinstance(i, Icon)})
    return tuple(icons.symbol(n) for n in names)


def document(
    width: float, height: float, pages: Sequence[Page], forms: Sequence[Form] = (), title: str = "",
    meta: dict[str, str] | None = None, symbols: tuple[Symbol, ...] | None = None,
) -> Document:
    """A Document whose symbol table holds every icon its pages and forms use (``symbols``, when found before)."""
    if symbols is None:
        everything: list[Item] = [i for p in pages for i in p.items]
        everything += [i for f in forms for i in f.items]
        symbols = symbols_for(everything)
    return Document(width, height, tuple(pages), tuple(forms), symbols, title, meta or {})


def pack(
    width: float, height: float, shared: Sequence[Item], names: Sequence[str], slot: NameSlot | None,
    title: str, form_name: str = "sheet", symbols: tuple[Symbol, ...] | None = None,
) -> Document:
    """One page per name (at least one), each the shared Form plus that name in ``slot``.

    The shared items are drawn once as a Form, so a 100-page pack costs little
    more than one page. A name adds no icon: ``symbols``, if given, are those
    the shared items use (:func:`symbols_for`, kept with a cached layout).
    """
    form = Form(form_name, tuple(shared))
    pages: list[Page] = []
    for name in names or [""]:
        items: list[Item] = [UseForm(form_name)]
        if name and slot is not None:
            items += name_texts(slot.x, slot.y, name, slot.width, slot.size, height=TWO_LINES * slot.size)
        pages.append(Page(tuple(items), label=name))
    return document(width, height, pages, [form], title, symbols=symbols)
