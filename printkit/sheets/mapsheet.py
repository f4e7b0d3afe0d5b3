"""The map sheet: title and name line, the map with cities and routes, scoring beside it.

Landscape. The scoring sections flow into as many columns as they need on
the right; the map takes the rest. Everything except the player's name is
drawn once as a Form, so a pack of N sheets costs little more than one.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from printkit.layout import fonts
from printkit.layout.boxes import Box, text_box
from printkit.layout.common import (
    GREY,
    INK,
    MARGIN,
    PAPER_WHITE,
    SMALL_SIZE,
    LayoutError,
    name_line,
    pack,
    page_size,
    text,
    title_block,
)
from printkit.layout.labels import LabelPlacer
from printkit.layout.primitives import (
    Circle,
    Document,
    Icon,
    Item,
    Line,
    Rect,
    Style,
    Text,
)
from printkit.model.maps import City, GameMap
from printkit.sheets.fields import FIELDS_META, BoxField, CityField, Fields, Rect4, RouteField, dumps, loads, union
from printkit.sheets.mapplan import BLOCK_GAP, MAP_PAD, Plan, plan
from printkit.sheets.wording import explored

if TYPE_CHECKING:
    from printkit.layout.geo import MapFrame

CITY_R = 4.6
SIGHTS = (10.5, 9.5, 8.5, 7.5)
"""Sizes tried for a city's sight icons, largest first (the first that fits is used)."""
SIGHT = SIGHTS[0]
LAND = Style(stroke="#8a8a8a", fill="#e4e4e4", width=0.4)
BORDERS = Style(stroke="#b4b4b4", width=0.3)
LEADER = Style(stroke=INK, width=0.4)
ROUTE = Style(stroke="#4a4a4a", width=1.0, dash=(3.0, 2.0))
CITY = Style(stroke=INK, fill=PAPER_WHITE, width=1.2)
FRAME = Style(stroke=INK, width=0.8)
REGION_REACH = 64.0
"""How far (points) a region's name may move from its cities' centroid to stay clear of routes."""
REGION_APART = 12.0
"""Least distance (points) between two region names."""
INSET_FRAME = Style(stroke=GREY, fill=PAPER_WHITE, width=0.6)
Points = dict[str, tuple[float, float]]
"""Each city's point on the sheet, by city id."""


def _sections(p: Plan) -> tuple[list[Item], list[BoxField]]:
    """The scoring blocks drawn in their columns (the last at its column's foot), and their named boxes."""
    items: list[Item] = []
    boxes: list[BoxField] = []
    last = len(p.blocks) - 1
    for col in p.columns:
        yy = col.box.y
        for i, h in zip(col.blocks, col.heights):
            y = col.box.bottom - h if i == last else yy
            drawn = p.blocks[i](col.box.x, y, col.box.w)
            items += drawn.items
            boxes += [BoxField(key, (r.x, r.y, r.x + r.w, r.y + r.h)) for key, r in drawn.boxes]
            yy += h + BLOCK_GAP
    return items, boxes


def _sight_icons(city: City, m: GameMap) -> list[str]:
    """Icon names of a city's sights (or animals), looked up in the Explore tracks."""
    names: list[str] = []
    for sid in city.sights:
        for t in m.explore:
            if sid in t.kind_ids:
                names.append(t.kind(sid).icon)
                break
        else:
            names.append(sid)
    return names


def _icon_spot(
    px: float, py: float, count: int, placer: LabelPlacer
) -> tuple[float, float, bool, float] | None:
    """Top-left, direction (True = stacked) and size of a city's sight icons, clear of other things.

    Near the city first: every size is tried close by before any is tried
    further away, and a route is crossed rather than moving far off.
    """
    steps = [(True, 0.0), (True, 2.5), (False, 0.0), (False, 2.5), (True, 5.0), (False, 5.0),
             (False, 8.0), (False, 11.0), (False, 14.0)]
    for soft, extra in steps:
        for size in SIGHTS:
            long = count * size + (count - 1) * 1.5
            d = CITY_R + 3.0 + extra
            for stacked in (False, True):
                w, h = (size, long) if stacked else (long, size)
                candidates = [
                    (px - w / 2, py + d), (px - w / 2, py - d - h), (px + d, py - h / 2), (px - d - w, py - h / 2),
                    (px + d * 0.7, py + d * 0.7), (px - d * 0.7 - w, py + d * 0.7),
                    (px + d * 0.7, py - d * 0.7 - h), (px - d * 0.7 - w, py - d * 0.7 - h),
                ]
                for ix, iy in candidates:
                    box = Box(ix, iy, w, h)
                    if placer.free(box, soft):
                        placer.block(box)
                        return ix, iy, stacked, size
    return None


def _map_items(m: GameMap, box: Box) -> tuple[list[Item], list[CityField], list[RouteField]]:
    """Land, routes, cities, sight icons and labels inside ``box``, and where its cities and routes are."""
    from printkit.layout.geo import MapFrame

    inner = box.grow(-MAP_PAD)
    frame = MapFrame(m.projection, inner.x, inner.y, inner.w, inner.h)
    # cities sit inside the padded box; the land runs on to the frame's edge
    whole = (box.x, box.y, box.w, box.h)
    items: list[Item] = [Rect(box.x, box.y, box.w, box.h, Style(stroke=None, fill=PAPER_WHITE))]
    items.append(frame.land(LAND, clip=whole, insets=False))
    borders = frame.borders(BORDERS, clip=whole, insets=False)
    if borders.commands:
        items.append(borders)
    placer = LabelPlacer(box.grow(-2), gap=1.2)
    items += _insets(frame, placer)
    points: Points = {c.id: frame.point(c.lat, c.lon) for c in m.cities}
    for r in m.routes:
        (x1, y1), (x2, y2) = points[r.a], points[r.b]
        items.append(Line(x1, y1, x2, y2, ROUTE))
        placer.avoid_line(x1, y1, x2, y2, ROUTE.width / 2 + 0.5)
    for c in m.cities:
        px, py = points[c.id]
        placer.block(Box(px - CITY_R - 1, py - CITY_R - 1, 2 * CITY_R + 2, 2 * CITY_R + 2))
    glyphs = [_city_glyph(c, *points[c.id]) for c in m.cities]
    icons, labels, tags = _city_labels(m, points, placer)
    regions = _region_names(m, points, placer)
    items += regions + glyphs + icons + labels
    items.append(Rect(box.x, box.y, box.w, box.h, FRAME))
    cities = [CityField(c.id, points[c.id], city_radius(c), union(tags[c.id])) for c in m.cities]
    routes = [RouteField(r.a, r.b, (points[r.a], points[r.b])) for r in m.routes]
    return items, cities, routes


def city_radius(c: City) -> float:
    """The radius of a city's circle (an iconic city's shield: half its side)."""
    return CITY_R + 2 if c.iconic else CITY_R


def _corners(b: Box) -> Rect4:
    return (b.x, b.y, b.right, b.bottom)



def _city_glyph(c: City, px: float, py: float) -> Item:
    """A city's circle, or the shield of an iconic city."""
    if c.iconic:
        s = 2 * city_radius(c)
        return Icon("shield", px - s / 2, py - s / 2, s)
    return Circle(px, py, CITY_R, CITY)


def _city_labels(
    m: GameMap, points: Points, placer: LabelPlacer
) -> tuple[list[Item], list[Item], dict[str, list[Rect4]]]:
    """Each city's name (with a leader line if it moved off) and its sight icons: (icons, labels, tag parts).

    The most crowded cities are placed first, while there is still room.
    """

    def crowd(c: City) -> int:
        px, py = points[c.id]
        return sum(1 for o in m.cities if math.hypot(points[o.id][0] - px, points[o.id][1] - py) < 45)

    icons: list[Item] = []
    labels: list[Item] = []
    tags: dict[str, list[Rect4]] = {}
    for c in sorted(m.cities, key=crowd, reverse=True):  # stable: file order among equals
        px, py = points[c.id]
        label = placer.place(c.name, px, py, CITY_R + 1.5, SMALL_SIZE, "bold" if c.iconic else "regular")
        if label is None:
            raise LayoutError(f"{m.source or m.id}: no room for the label of {c.name} on the map")
        labels += _leader(px, py, label)
        labels.append(label)
        tags[c.id] = [_corners(text_box(label))]
        names = _sight_icons(c, m)
        if not names:
            continue
        spot = _icon_spot(px, py, len(names), placer)
        if spot is None:
            raise LayoutError(f"{m.source or m.id}: no room for the sights of {c.name} on the map")
        ix, iy, stacked, size = spot
        for k, name in enumerate(names):
            step = k * (size + 1.5)
            icons.append(Icon(name, ix, iy + step, size) if stacked else Icon(name, ix + step, iy, size))
        long = len(names) * size + (len(names) - 1) * 1.5
        tags[c.id].append((ix, iy, ix + (size if stacked else long), iy + (long if stacked else size)))
    return icons, labels, tags


def _region_names(m: GameMap, points: Points, placer: LabelPlacer) -> list[Item]:
    """Each region's name near its cities' centroid, clear of routes where it can be."""
    regions: list[Item] = []
    for region in m.regions:
        cities = m.region_cities(region.id)
        if not cities:
            continue
        cx = sum(points[c.id][0] for c in cities) / len(cities)
        cy = sum(points[c.id][1] for c in cities) / len(cities)
        label = placer.place_near(region.name.upper(), cx, cy, REGION_REACH, 8.0, "bold", GREY)
        if label is not None:
            regions.append(label)
            placer.block(text_box(label).grow(REGION_APART))  # two names side by side read as one
    return regions


def _leader(px: float, py: float, label: Text) -> list[Item]:
    """A thin line from a city to its label when the label had to move away."""
    b = text_box(label)
    nx = min(max(px, b.x), b.right)
    ny = min(max(py, b.y), b.bottom)
    dist = math.hypot(nx - px, ny - py)
    if dist <= CITY_R + 9:
        return []
    ux, uy = (nx - px) / dist, (ny - py) / dist
    return [Line(px + ux * (CITY_R + 1), py + uy * (CITY_R + 1), nx - ux * 1.5, ny - uy * 1.5, LEADER)]


def _key(x: float, y: float, w: float, m: GameMap) -> tuple[list[Item], float]:
    """The key under the map (city, iconic city, route, icons), wrapped to width ``w``."""
    size = 8.0
    entries: list[tuple[list[Item], str]] = [([Circle(4, -3, 3.5, CITY)], "city")]
    if m.iconic_cities:
        entries.append(([Icon("shield", -1, -9.5, 10)], "iconic city (not a start)"))
    entries.append(([Line(0, -3, 20, -3, ROUTE)], "route: draw over it, each once"))
    seen = explored(m)
    entries.append(([], f"icons by a city: its {seen}"))
    items: list[Item] = []
    xx, line = x, 0
    for glyphs, label in entries:
        gw = 24.0 if glyphs and isinstance(glyphs[0], Line) else 11.0 if glyphs else 0.0
        ew = gw + fonts.text_width(label, size)
        if xx > x and xx + ew > x + w:
            xx, line = x, line + 1
        base = y + 9 + line * 12
        for g in glyphs:
            if isinstance(g, Circle):
                items.append(Circle(xx + g.cx, base + g.cy, g.r, g.style))
            elif isinstance(g, Icon):
                items.append(Icon(g.name, xx + g.x + 1, base + g.y, g.size))
            elif isinstance(g, Line):
                items.append(Line(xx + g.x1, base + g.y1, xx + g.x2, base + g.y2, g.style))
        items.append(text(xx + gw, base, label, size))
        xx += ew + 12
    return items, 12 + line * 12


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
        if caption and fonts.text_width(caption, 7.0, "bold") <= w - 6:
            items.append(text(x + 3, y + h - 3, caption, 7.0, "bold", fill=GREY))
    return items


NAME_SLOT_META = "name_slot"
"""The Document meta key of the name line's slot: ``"x y width size"`` (where a pack prints the name)."""


def build(m: GameMap, names: list[str], paper: str) -> Document:
    """Map sheets for ``m``: one landscape page per player name (at least one)."""
    width, height = page_size(paper, landscape=True)
    x0, y0 = MARGIN, MARGIN
    inner_w, inner_h = width - 2 * MARGIN, height - 2 * MARGIN
    shared: list[Item] = []
    name_w = 250.0
    block, th = title_block(x0, y0, inner_w - name_w - 20, m.title,
                            "Star your starting city. Each turn: Travel, Collect or Explore.")
    shared += block
    line, slot = name_line(x0 + inner_w - name_w, y0 + 2, name_w, "Name")
    shared += line
    start_y = y0 + 24
    shared.append(Icon("star", x0 + inner_w - name_w, start_y + 2, 12))
    shared.append(text(x0 + inner_w - name_w + 16, start_y + 12, "Start:", 10, "bold"))
    sw = fonts.text_width("Start:", 10, "bold")
    shared.append(Line(x0 + inner_w - name_w + 20 + sw, start_y + 14.5, x0 + inner_w, start_y + 14.5,
                       Style(stroke=INK, width=0.7)))
    top = y0 + max(th, 40) + 8
    p = plan(m, x0, top, inner_w, y0 + inner_h - top, lambda w: _key(0, 0, w, m)[1] + 4)
    drawn, cities, routes = _map_items(m, p.map_box)
    shared += drawn
    shared += _key(x0, p.key_y, p.left_w, m)[0]
    sections, boxes = _sections(p)
    shared += sections
    fields = Fields("map", m.id, paper, width, height, tuple(cities), tuple(routes), tuple(boxes))
    doc = pack(width, height, shared, names, slot, f"{m.title} - map sheet", "map")
    where = f"{slot.x} {slot.y} {slot.width} {slot.size}"
    return replace(doc, meta={**doc.meta, FIELDS_META: dumps(fields), NAME_SLOT_META: where})


def sheet_fields(m: GameMap, paper: str) -> Fields:
    """The geometry of ``m``'s map sheet on ``paper``, as :func:`build` drew it."""
    return loads(build(m, [], paper).meta[FIELDS_META])
