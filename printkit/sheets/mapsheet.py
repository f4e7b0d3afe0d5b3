"""The map sheet: title and name line, the map with cities and routes, scoring beside it.

Landscape. The scoring sections flow into as many columns as they need on
the right; the map takes the rest. Everything except the player's name is
drawn once as a Form, so a pack of N sheets costs little more than one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from printkit.layout import fonts
from printkit.layout.boxes import Box, text_box
from printkit.layout.common import (
    GREY,
    INK,
    MARGIN,
    PAPER_WHITE,
    SMALL_SIZE,
    LayoutError,
    NameSlot,
    name_line,
    page_size,
    text,
    title_block,
)
from printkit.layout.labels import LabelPlacer
from printkit.layout.pathdata import transform
from printkit.layout.primitives import (
    Circle,
    Document,
    Icon,
    Item,
    Line,
    Path,
    PathCommand,
    Rect,
    Style,
    Text,
)
from printkit.model.maps import GameMap
from printkit.sheets.citymarks import CITY, STAR, city_mark, shield, tag_icon
from printkit.sheets.citytags import ICON_SIZES
from printkit.sheets.citytags import LEADER as LEADER  # the tags' leader lines (tests look for them)
from printkit.sheets.displacement import CITY_R
from printkit.sheets.fields import BoxField, CityField, Fields, Rect4, RegionField, RouteField
from printkit.sheets.layoutcheck import check, describe
from printkit.sheets.mapfit import NoRoom, fields_of, fitted
from printkit.sheets.mapplan import BLOCK_GAP, MAP_PAD, SECTION_W, Plan, plan, stretched
from printkit.sheets.mapregions import Clear, map_regions
from printkit.sheets.mapsections import CAPTION
from printkit.sheets.routeshape import Bend, Pt, controls
from printkit.sheets.wording import explored

if TYPE_CHECKING:
    from printkit.layout.geo import MapFrame

SIGHTS = ICON_SIZES
LAND = Style(stroke="#7a7a7a", fill="#f0f0f0", width=0.4)
"""A light land tint: a halftoning printer turns it into sparse dots that no dash is lost in."""
BORDERS = Style(stroke="#b4b4b4", width=0.3)
ROUTE = Style(stroke="#1a1a1a", width=1.1, dash=(3.0, 2.0))
"""Routes: near-black dashes, solid black on a 1-bit printer."""
CASING = Style(stroke=PAPER_WHITE, width=2.8)
"""A white band under each route, so its gaps stay white over the land tint and borders."""
REGION_INK = CAPTION
"""Region names (and inset captions): dark grey (about 11:1 on white), quieter than the black city names."""
ROOMIER = ((0.6, SECTION_W), (0.8, SECTION_W), (1.0, SECTION_W))
"""(How small the map may get, how wide the right-hand section columns are), tried in turn
until every city tag fits on the map and its cities and routes pass the layout check (narrower
columns would shrink their text under the sheet's least size)."""
PAPERS = {"a4": "A4", "letter": "Letter"}
NAME_LIFT = 1.8
"""How far (points) a printed name sits above the write-in line's baseline, so g, j, p, y clear the rule."""
MARKER_CLEAR = 3.0
"""How much (points) narrower than its line a printed name is kept: the upper of a long name's two lines then
ends 2 pt clear of the top-right scan marker's quiet zone."""
FRAME = Style(stroke=INK, width=0.8)
INSET_FRAME = Style(stroke=GREY, fill=PAPER_WHITE, width=0.6)


def _sections(m: GameMap, p: Plan) -> tuple[list[Item], list[BoxField]]:
    """The scoring blocks drawn in their columns, and their named boxes.

    A column's spare height goes between its blocks, so its last block ends at
    the column's foot (the very last, Speed bonus and TOTAL, always does).
    """
    items: list[Item] = []
    boxes: list[BoxField] = []
    last = len(p.blocks) - 1
    for col in p.columns:
        yy = col.box.y
        n = len(col.blocks)
        mine, heights = stretched(m, p, col)
        used = sum(heights) + BLOCK_GAP * max(0, n - 1)
        spread = (col.box.h - used) / (n - 1) if n > 1 else 0.0  # no blank band: the space between blocks
        for i, block, h in zip(col.blocks, mine, heights):
            y = col.box.bottom - h if i == last else yy
            drawn = block(col.box.x, y, col.box.w)
            items += drawn.items
            boxes += [BoxField(key, (r.x, r.y, r.x + r.w, r.y + r.h)) for key, r in drawn.boxes]
            yy += h + BLOCK_GAP + spread
    return items, boxes


class Drawn(NamedTuple):
    """A map drawn in its box: its items, and where its cities, routes and regions are."""

    items: list[Item]
    cities: list[CityField]
    routes: list[RouteField]
    regions: list[RegionField]

    def fields(self, m: GameMap) -> Fields:
        """The map's fields alone (no page, no boxes): what the layout check reads."""
        return Fields("map", m.id, "", 0.0, 0.0, tuple(self.cities), tuple(self.routes), (), tuple(self.regions))


def _map_items(m: GameMap, box: Box) -> Drawn:
    """Land, regions, routes, cities and their tags inside ``box``, and where its cities, routes and regions are.

    Routes are drawn straight, or as gentle curves where a straight line would
    cross another, pass by a city it does not join or leave a city too near
    another route; a tag that finds no room clear of the routes is kept free,
    and the routes are bent round it (:mod:`printkit.sheets.mapfit`). Each
    region is a tinted, outlined area holding exactly its cities, its name
    inside (:mod:`printkit.sheets.mapregions`).
    """
    from printkit.layout.geo import MapFrame

    inner = box.grow(-MAP_PAD)
    frame = MapFrame(m.projection, inner.x, inner.y, inner.w, inner.h)
    # cities sit inside the padded box; the land runs on to the frame's edge
    whole = (box.x, box.y, box.w, box.h)
    items: list[Item] = [Rect(box.x, box.y, box.w, box.h, Style(stroke=None, fill=PAPER_WHITE))]
    land = frame.land(LAND, clip=whole, insets=False)
    items.append(land._replace(style=LAND._replace(stroke=None)))
    borders = frame.borders(BORDERS, clip=whole, insets=False)
    fit = fitted(m, frame, box, lambda placer: _insets(frame, placer))
    insets = [(x, y, x + w, y + h) for x, y, w, h in frame.inset_boxes]
    regions = map_regions(m, fit.points, box.grow(-2), insets, fit.placer,
                          Clear(fit.lines, [t.box for t in fit.tags.values()]), CITY_R)
    items += regions.areas  # opaque grounds: the coasts and borders are drawn over them
    items += [land._replace(style=LAND._replace(fill=None)), *([borders] if borders.commands else [])]
    items += regions.edges + fit.framed + regions.names  # a name that must cross a route lies under it
    for r, bend in zip(m.routes, fit.bends):
        items += _route_items(fit.points[r.a], fit.points[r.b], bend)
    glyphs: list[Item] = [city_mark(c, fit.points[c.id], CITY_R) for c in m.cities]
    items += glyphs + [i for t in fit.tags.values() for i in t.items]
    items.append(Rect(box.x, box.y, box.w, box.h, FRAME))
    cities, routes = fields_of(m, fit)
    return Drawn(items, cities, routes, regions.fields)


def _route_items(a: Pt, b: Pt, bend: Bend) -> list[Item]:
    """A route's white casing and its dashes: a straight line, or one gentle cubic curve."""
    if bend == (0.0, 0.0):
        return [Line(*a, *b, CASING), Line(*a, *b, ROUTE)]
    c1, c2 = controls(a, b, bend)
    cmds: tuple[PathCommand, ...] = (("M", *a), ("C", *c1, *c2, *b))
    return [Path(cmds, CASING), Path(cmds, ROUTE)]


def _key(x: float, y: float, w: float, m: GameMap) -> tuple[list[Item], float]:
    """The key under the map (city, iconic city, route, icons), wrapped to width ``w``."""
    size = 8.0
    entries: list[tuple[list[Item], float, str]] = [([Circle(4, -3, 3.5, CITY)], 11.0, "city")]
    if m.iconic_cities:
        entries.append(([shield((4.5, -3.0), 9.0), *tag_icon(STAR, 11.0, -8.0, 9.0)], 23.0,
                        "iconic city (not a start)"))
    entries.append(([Line(0, -3, 20, -3, ROUTE)], 24.0, "route: draw over it, each once"))
    seen = explored(m)
    entries.append(([], 0.0, f"icons by a city: its {seen}"))
    items: list[Item] = []
    xx, line = x, 0
    for glyphs, gw, label in entries:
        ew = gw + fonts.text_width(label, size)
        if xx > x and xx + ew > x + w:
            xx, line = x, line + 1
        base = y + 9 + line * 12
        items += [_moved(g, xx, base) for g in glyphs]
        items.append(text(xx + gw, base, label, size))
        xx += ew + 12
    return items, 12 + line * 12


def _moved(item: Item, dx: float, dy: float) -> Item:
    """A key's glyph (a circle, a line, an icon or a shape) moved by (dx, dy)."""
    if isinstance(item, Circle):
        return item._replace(cx=item.cx + dx, cy=item.cy + dy)
    if isinstance(item, Line):
        return item._replace(x1=item.x1 + dx, y1=item.y1 + dy, x2=item.x2 + dx, y2=item.y2 + dy)
    if isinstance(item, Icon):
        return item._replace(x=item.x + dx, y=item.y + dy)
    assert isinstance(item, Path)
    return item._replace(commands=transform(item.commands, 1.0, dx, dy))


def _insets(frame: MapFrame, placer: LabelPlacer) -> list[Item]:
    """Each inset on a white ground in a thin frame, with its land and borders (and name, if it has one)."""
    items: list[Item] = []
    for (_, sub), inset in zip(frame.insets, frame.projection.insets):
        x, y, w, h = sub.x, sub.y, sub.w, sub.h
        items.append(Rect(x, y, w, h, INSET_FRAME))
        items.append(sub.land(LAND))
        borders = sub.borders(BORDERS)
        if borders.commands:
            items.append(borders)
        for edge in (Box(x, y, w, 0), Box(x, y + h, w, 0), Box(x, y, 0, h), Box(x + w, y, 0, h)):
            placer.block(edge.grow(0.6))  # labels and icons stay off the frame line
        caption = inset.name
        if caption and fonts.text_width(caption, SMALL_SIZE, "bold") <= w - 6:
            label = text(x + 3, y + h - 3, caption, SMALL_SIZE, "bold", fill=REGION_INK)
            items.append(label)
            placer.block(text_box(label))
    return items


def _planned_map(m: GameMap, x: float, top: float, w: float, h: float) -> tuple[Plan, Drawn]:
    """The sheet's plan and its map; a map too small for its city tags, or too crowded to read, is tried larger
    (a map no wider and no taller than one that found no room for a tag is not tried)."""
    first: tuple[Plan, Drawn] | None = None
    tried: set[Box] = set()
    roomless: list[Box] = []
    refused: NoRoom | None = None
    for p in (p for least, _ in ROOMIER for p in _plans(m, x, top, w, h, least)):
        box = p.map_box
        if box in tried or any(box.w <= b.w + 0.01 and box.h <= b.h + 0.01 for b in roomless):
            continue  # the same map as before, which did not draw or read clearly, or a map with less room
        tried.add(box)
        try:
            drawn = _map_items(m, box)
        except NoRoom as exc:
            refused = refused or exc
            roomless.append(box)
            continue
        if not check(drawn.fields(m)):
            return p, drawn
        first = first or (p, drawn)
    if first is None:
        assert refused is not None
        raise refused
    return first  # no size reads clearly: the layout check names what is wrong with the first that draws


CORNER_ROOM = 4.0
"""Points the title and the sheet's foot keep clear of the margin's corners: the scan's corner markers
(6.5 mm from the edge, :mod:`printkit.sheets.identity`) and their quiet zone reach this far in."""


NARROW = (228.0, 220.0)
"""Narrower right-hand section columns, taken where they give the map more room and no text shrinks under
the sheet's least size."""


def _plans(m: GameMap, x: float, top: float, w: float, h: float, least: float) -> list[Plan]:
    """The plans with right-hand columns ``SECTION_W`` or one of ``NARROW`` wide whose texts all keep 7.5 pt,
    the best first: when one map finds no room for a tag, the next may."""
    key = lambda kw: _key(0, 0, kw, m)[1] + 4  # noqa: E731
    plans = [plan(m, x, top, w, h, key, least, SECTION_W)]
    for width in NARROW:
        try:
            narrow = plan(m, x, top, w, h, key, least, width)
        except LayoutError:
            continue
        if min(t.size for t in _sections(m, narrow)[0] if isinstance(t, Text)) >= SMALL_SIZE - 0.01:
            plans.append(narrow)
    return sorted(plans, key=lambda p: -p.score)  # stable: the wide columns first among equals


class Composed(NamedTuple):
    """A map sheet before it is packed: what its pages share, where names go, its geometry and plan."""

    shared: tuple[Item, ...]
    slot: NameSlot
    fields: Fields
    plan: Plan
    start: Rect4 | None = None  # the write-in line beside "Start:" (x0, y0, x1, y1)


def compose(m: GameMap, paper: str) -> Composed:
    """Everything a map sheet shares between its pages, where each name goes, its geometry and its plan.

    Not memoised: the registry keeps the layout made from it (on disk, and per
    process), so a render lays a sheet out at most once.
    """
    width, height = page_size(paper, landscape=True)
    x0, y0 = MARGIN, MARGIN
    inner_w, inner_h = width - 2 * MARGIN, height - 2 * MARGIN - CORNER_ROOM  # the foot clears the corner markers
    shared: list[Item] = []
    name_w = 250.0
    block, th = title_block(x0 + CORNER_ROOM, y0, inner_w - name_w - 20 - CORNER_ROOM, m.title,
                            "Star your starting city. Each turn: Travel, Collect or Explore.")
    shared += block
    line, slot = name_line(x0 + inner_w - name_w, y0 + 2, name_w, "Name")
    shared += line
    slot = slot._replace(y=slot.y - NAME_LIFT, width=slot.width - MARKER_CLEAR)  # descenders clear the rule
    start_y = y0 + 24
    shared.append(Icon("star", x0 + inner_w - name_w, start_y + 2, 12))
    shared.append(text(x0 + inner_w - name_w + 16, start_y + 12, "Start:", 10, "bold"))
    sw = fonts.text_width("Start:", 10, "bold")
    start = (x0 + inner_w - name_w + 20 + sw, start_y + 1, x0 + inner_w, start_y + 14.5)  # the line, a field's box
    shared.append(Line(start[0], start[3], start[2], start[3], Style(stroke=INK, width=0.7)))
    top = y0 + max(th, 40) + 8
    p, drawn = _planned_map(m, x0, top, inner_w, y0 + inner_h - top)
    shared += drawn.items
    shared += _key(x0, p.key_y, p.left_w, m)[0]
    sections, boxes = _sections(m, p)
    shared += sections
    return Composed(tuple(shared), slot, Fields("map", m.id, paper, width, height, tuple(drawn.cities), tuple(drawn.routes),
                                                       tuple(boxes), tuple(drawn.regions)), p,
                    start)


def _problems(m: GameMap, paper: str, shared: tuple[Item, ...], fields: Fields) -> list[str]:
    """The layout check's findings, one line each: ``<map>: map sheet (A4): <cities>: <what>; <fix>``."""
    names = {c.id: c.name for c in m.cities}
    sizes = [(i.text, i.size) for i in shared if isinstance(i, Text)]
    where = f"{m.source or m.id}: map sheet ({PAPERS.get(paper, paper)})"
    return [f"{where}: {describe(p, names)}" for p in check(fields, sizes)]


def layout_problems(m: GameMap, paper: str) -> list[str]:
    """Why ``m``'s map sheet on ``paper`` would be hard to read (empty when it is clear).

    Other layout errors (text the font cannot print, unknown paper) are raised.
    """
    try:
        shared, _, fields, *_ = compose(m, paper)
    except NoRoom as exc:
        return [str(exc)]
    return _problems(m, paper, shared, fields)


def build(m: GameMap, names: list[str], paper: str) -> Document:
    """``m``'s map sheet pages on ``paper`` for these players, laid out afresh, without the scan's marks.

    The sheet a player prints (marked, with its geometry) is :func:`printkit.sheets.atw.map_sheet`.
    """
    from printkit.sheets import mappages

    return mappages.pages(m, names, mappages.prepare(m, paper))


def sheet_fields(m: GameMap, paper: str) -> Fields:
    """The fields of ``m``'s map sheet on ``paper``, as :func:`build` drew them (and ``--fields`` writes them)."""
    from printkit.sheets import mappages

    return mappages.prepare(m, paper).geometry.fields
