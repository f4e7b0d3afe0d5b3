"""Shared layout helpers: paper, boxes, measured text, tables, packs, label placement.

Every sheet builder (ours and the other games') uses these so that all sheets
share one look: a title block, a name line, sections with a bold header, and
tables of write-in boxes. All sizes are points; origin top-left, y down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from printkit.errors import PrintkitError
from printkit.layout import fonts
from printkit.layout.boxes import Box as Box  # re-exported for sheet modules and tests
from printkit.layout.boxes import flatten as flatten
from printkit.layout.boxes import item_box as item_box
from printkit.layout.boxes import outside as outside
from printkit.layout.boxes import overlapping_texts as overlapping_texts
from printkit.layout.boxes import segment_boxes as segment_boxes
from printkit.layout.boxes import segment_hits as segment_hits
from printkit.layout.boxes import text_box as text_box
from printkit.layout.primitives import (
    Anchor,
    Circle,
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
GREY = "#6b6b6b"
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


def name_text(
    x: float, y: float, value: str, max_width: float, size: float = 12.0, anchor: Anchor = "start",
    min_size: float = 8.0,
) -> Text:
    """A player's name in bold, shrunk to ``min_size`` at most, then cut with an ellipsis."""
    fsize = fonts.fit_size(value, max_width, size, "bold", min_size)
    shown = value
    while len(shown) > 1 and fonts.text_width(shown, fsize, "bold") > max_width:
        shown = shown[:-2].rstrip() + "\u2026"
    return text(x, y, shown, fsize, "bold", anchor)


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


# ---------------------------------------------------------------- building blocks


def checkbox(x: float, y: float, size: float, style: Style = BOX) -> Rect:
    """One write-in box with its top-left at (x, y)."""
    return Rect(x, y, size, size, style, radius=size * 0.12)


def box_row(x: float, y: float, count: int, size: float, gap: float) -> list[Item]:
    """``count`` write-in boxes in a row."""
    return [checkbox(x + i * (size + gap), y, size) for i in range(count)]


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


@dataclass(frozen=True)
class Sheet:
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


@dataclass(frozen=True)
class NameSlot:
    """Where each page of a pack writes its player's name (baseline start, max width)."""

    x: float
    y: float
    width: float
    size: float = 12.0


def name_line(x: float, y: float, w: float, label: str = "Name") -> tuple[list[Item], NameSlot]:
    """A ``Name: ______`` write-in line; the slot is where a printed name goes."""
    size = 10.0
    base = y + fonts.ascent(12.0, "bold")
    lw = fonts.text_width(label + ":", size, "bold")
    items: list[Item] = [
        text(x, base, label + ":", size, "bold"),
        Line(x + lw + 4, base + 2.5, x + w, base + 2.5, WRITE_LINE),
    ]
    return items, NameSlot(x + lw + 8, base, w - lw - 10)


def die_face(x: float, y: float, size: float, value: int) -> list[Item]:
    """A die showing ``value`` pips, top-left at (x, y)."""
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }[value]
    items: list[Item] = [Rect(x, y, size, size, Style(stroke=INK, fill=PAPER_WHITE, width=0.9), radius=size * 0.18)]
    items.extend(Circle(x + px * size, y + py * size, size * 0.09, Style(stroke=None, fill=INK)) for px, py in pips)
    return items


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


# ---------------------------------------------------------------- labels


class LabelPlacer:
    """Places labels beside points without touching obstacles or each other.

    ``soft`` obstacles (e.g. route lines) are avoided when possible; hard ones
    (labels, city circles, icons) always.
    """

    # candidate positions: (dx sign, dy sign, anchor) around the point
    ORDER: tuple[tuple[float, float, Anchor], ...] = (
        (1, 0, "start"), (-1, 0, "end"), (0, -1, "middle"), (0, 1, "middle"),
        (1, -1, "start"), (1, 1, "start"), (-1, -1, "end"), (-1, 1, "end"),
    )

    STEPS: tuple[tuple[bool, float], ...] = (
        (True, 0.0), (True, 2.0), (True, 4.0), (False, 0.0), (False, 2.0), (False, 4.0),
        (True, 7.0), (False, 7.0), (True, 11.0), (False, 11.0), (True, 16.0), (False, 16.0),
        (True, 22.0), (False, 22.0),
    )
    """(soft, extra distance) in the order tried: near a point first, crossing a soft
    obstacle (a route) rather than moving far away and needing a leader line."""

    def __init__(self, area: Box, obstacles: Iterable[Box] = (), gap: float = 1.0) -> None:
        self.area = area
        self.obstacles: list[Box] = list(obstacles)
        self.soft: list[Box] = []
        self.lines: list[tuple[float, float, float, float, float]] = []
        self.gap = gap

    def block(self, box: Box) -> None:
        """Mark a box as taken."""
        self.obstacles.append(box)

    def avoid(self, box: Box) -> None:
        """Mark a box as best avoided (soft)."""
        self.soft.append(box)

    def avoid_line(self, x1: float, y1: float, x2: float, y2: float, pad: float = 1.0) -> None:
        """Mark a line (e.g. a route) as best avoided, ``pad`` points either side of it (soft)."""
        self.lines.append((x1, y1, x2, y2, pad))

    def free(self, box: Box, soft: bool = False) -> bool:
        """Whether a box is inside the area and clear of everything placed (and soft ones)."""
        if not box.inside(self.area) or any(box.intersects(o, self.gap) for o in self.obstacles):
            return False
        if not soft:
            return True
        if any(box.intersects(o) for o in self.soft):
            return False
        return not any(segment_hits(box, x1, y1, x2, y2, pad) for x1, y1, x2, y2, pad in self.lines)

    def place_near(
        self, value: str, cx: float, cy: float, reach: float, size: float = SMALL_SIZE,
        weight: FontWeight = "regular", fill: str = INK,
    ) -> Text | None:
        """A label centred as near (cx, cy) as it can be, within ``reach``, clear of soft obstacles too.

        Rings of 16 positions every 4 points out from the point; when none is
        clear, :meth:`place` (which may cross a soft obstacle) decides.
        """
        asc, desc = fonts.ascent(size, weight), fonts.descent(size, weight)
        mid = (asc - desc) / 2
        half = fonts.text_width(value, size, weight) / 2 + self.gap + 2
        near = Box(cx - reach - half, cy - reach - asc - self.gap - 2, 2 * (reach + half),
                   2 * reach + asc + desc + 2 * self.gap + 4)
        # only what the search can reach is checked (a sheet has hundreds of obstacles)
        local = LabelPlacer(self.area, [o for o in self.obstacles if o.intersects(near)], self.gap)
        local.soft = [o for o in self.soft if o.intersects(near)]
        local.lines = [ln for ln in self.lines if segment_hits(near, ln[0], ln[1], ln[2], ln[3], ln[4])]
        d = 0.0
        while d <= reach:
            ring = 1 if d == 0 else 16
            for k in range(ring):
                a = 2 * math.pi * k / ring
                candidate = text(cx + d * math.cos(a), cy + mid + d * math.sin(a), value, size, weight,
                                 "middle", fill)
                box = text_box(candidate)
                if local.free(box, soft=True):
                    self.block(box)
                    return candidate
            d += 4.0
        return self.place(value, cx, cy, 0.0, size, weight, fill)

    def place(
        self, value: str, cx: float, cy: float, clearance: float, size: float = SMALL_SIZE,
        weight: FontWeight = "regular", fill: str = INK,
    ) -> Text | None:
        """A label for the point (cx, cy), ``clearance`` away; None if nowhere is free."""
        asc, desc = fonts.ascent(size, weight), fonts.descent(size, weight)
        mid = (asc - desc) / 2
        for soft, extra in self.STEPS:
            d = clearance + extra
            for sx, sy, anchor in self.ORDER:
                x = cx + sx * d
                if sy < 0:
                    y = cy - d - desc
                elif sy > 0:
                    y = cy + d + asc
                else:
                    y = cy + mid
                if sy != 0 and sx != 0:
                    x = cx + sx * d * 0.7
                candidate = text(x, y, value, size, weight, anchor, fill)
                box = text_box(candidate)
                if self.free(box, soft):
                    self.block(box)
                    return candidate
        return None


# ---------------------------------------------------------------- documents


def symbols_for(items: Iterable[Item]) -> tuple[Symbol, ...]:
    """The icon symbols the items use, each once, sorted by name."""
    from printkit.layout import icons

    names = sorted({i.name for i in items if isinstance(i, Icon)})
    return tuple(icons.symbol(n) for n in names)


def document(
    width: float, height: float, pages: Sequence[Page], forms: Sequence[Form] = (), title: str = "",
    meta: dict[str, str] | None = None,
) -> Document:
    """A Document whose symbol table holds every icon its pages and forms use."""
    everything: list[Item] = [i for p in pages for i in p.items]
    everything += [i for f in forms for i in f.items]
    return Document(width, height, tuple(pages), tuple(forms), symbols_for(everything), title, meta or {})


def pack(
    width: float, height: float, shared: Sequence[Item], names: Sequence[str], slot: NameSlot | None,
    title: str, form_name: str = "sheet",
) -> Document:
    """One page per name (at least one), each the shared Form plus that name in ``slot``.

    The shared items are drawn once as a Form, so a 100-page pack costs little
    more than one page.
    """
    form = Form(form_name, tuple(shared))
    pages: list[Page] = []
    for name in names or [""]:
        items: list[Item] = [UseForm(form_name)]
        if name and slot is not None:
            items.append(name_text(slot.x, slot.y, name, slot.width, slot.size))
        pages.append(Page(tuple(items), label=name))
    return document(width, height, pages, [form], title)
