"""The map sheet: title and name line, the map with cities and routes, scoring beside it.

Landscape. The scoring sections flow into as many columns as they need on
the right; the map takes the rest. Everything except the player's name is
drawn once as a Form, so a pack of N sheets costs little more than one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from printkit.layout import fonts
from printkit.layout.common import (
    GREY,
    INK,
    MARGIN,
    PAPER_WHITE,
    SMALL_SIZE,
    Box,
    LabelPlacer,
    LayoutError,
    name_line,
    pack,
    page_size,
    segment_boxes,
    text,
    text_box,
    title_block,
)
from printkit.layout.mapsections import blocks, measure
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
from printkit.model import City, GameMap

SECTION_W = 236.0
MAP_PAD = 12.0
COLUMN_GAP = 16.0
BLOCK_GAP = 10.0
CITY_R = 4.6
SIGHT = 9.0
SIGHT_MIN = 7.5
LAND = Style(stroke="#8a8a8a", fill="#e4e4e4", width=0.4)
BORDERS = Style(stroke="#b4b4b4", width=0.3)
LEADER = Style(stroke=INK, width=0.4)
ROUTE = Style(stroke="#4a4a4a", width=1.0, dash=(3.0, 2.0))
CITY = Style(stroke=INK, fill=PAPER_WHITE, width=1.2)
FRAME = Style(stroke=INK, width=0.8)


@dataclass(frozen=True)
class Plan:
    """Where the scoring blocks go: columns right of the map, and a strip under it."""

    columns: tuple[tuple[int, ...], ...]
    strip: tuple[int, ...]
    strip_h: float

    @property
    def width(self) -> float:
        """Width of the section columns on the right."""
        n = len(self.columns)
        return n * SECTION_W + (n - 1) * COLUMN_GAP


def plan(m: GameMap, inner_w: float, body_h: float) -> Plan:
    """One right-hand column plus a strip under the map if that works, else more columns."""
    heights = [measure(b, SECTION_W) for b in blocks(m)]
    used, first = 0.0, 0
    while first < len(heights) and used + heights[first] <= body_h:
        used += heights[first] + BLOCK_GAP
        first += 1
    rest = tuple(range(first, len(heights)))
    map_w = inner_w - SECTION_W - COLUMN_GAP
    per_strip = int((map_w + COLUMN_GAP) // (SECTION_W + COLUMN_GAP))
    strip_h = max((heights[i] for i in rest), default=0.0)
    if len(rest) <= per_strip and strip_h <= body_h * 0.3:
        return Plan((tuple(range(first)),), rest, strip_h + BLOCK_GAP if rest else 0.0)
    cols: list[list[int]] = [[]]
    used = 0.0
    for i, h in enumerate(heights):
        if used + h > body_h and cols[-1]:
            cols.append([])
            used = 0.0
        cols[-1].append(i)
        used += h + BLOCK_GAP
    return Plan(tuple(tuple(c) for c in cols), (), 0.0)


def _sections(m: GameMap, p: Plan, x: float, y: float, height: float, strip_x: float,
              strip_y: float) -> list[Item]:
    """The scoring blocks placed as planned."""
    all_blocks = blocks(m)
    items: list[Item] = []
    for c, indices in enumerate(p.columns):
        cx = x + c * (SECTION_W + COLUMN_GAP)
        yy = y
        for i in indices:
            drawn, h = all_blocks[i](cx, yy, SECTION_W)
            items += drawn
            yy += h + BLOCK_GAP
        if yy - BLOCK_GAP > y + height + 0.5:
            raise LayoutError(f"{m.source or m.id}: the scoring sections do not fit beside the map")
    for k, i in enumerate(p.strip):
        drawn, _ = all_blocks[i](strip_x + k * (SECTION_W + COLUMN_GAP), strip_y, SECTION_W)
        items += drawn
    return items


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
    px: float, py: float, count: int, placer: LabelPlacer, size: float = SIGHT
) -> tuple[float, float, bool] | None:
    """Top-left and direction (True = stacked) of a city's sight icons, clear of other things."""
    long = count * size + (count - 1) * 1.5
    for soft, extra in [(True, e) for e in (0.0, 2.5, 5.0)] + [(False, e) for e in (0.0, 2.5, 5.0, 8.0, 11.0, 14.0)]:
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
                    return ix, iy, stacked
    return None


def fitted_box(m: GameMap, box: Box) -> Box:
    """The part of ``box`` the map's bounds fill (aspect kept), at the top, centred across."""
    from printkit.layout.geo import MapFrame

    inner = box.grow(-MAP_PAD)
    x, _, w, h = MapFrame(m.projection, inner.x, inner.y, inner.w, inner.h).content
    return Box(x - MAP_PAD, box.y, w + 2 * MAP_PAD, h + 2 * MAP_PAD)


def _map_items(m: GameMap, box: Box) -> list[Item]:
    """Land, routes, cities, sight icons and labels inside ``box``; returns (items, frame)."""
    from printkit.layout.geo import MapFrame

    inner = box.grow(-MAP_PAD)
    frame = MapFrame(m.projection, inner.x, inner.y, inner.w, inner.h)
    # cities sit inside the padded box; the land runs on to the frame's edge
    frame.x, frame.y, frame.w, frame.h = box.x, box.y, box.w, box.h
    items: list[Item] = [Rect(box.x, box.y, box.w, box.h, Style(stroke=None, fill=PAPER_WHITE))]
    items.append(frame.land(LAND))
    borders = frame.borders(BORDERS)
    if borders.commands:
        items.append(borders)
    points = {c.id: frame.point(c.lat, c.lon) for c in m.cities}
    placer = LabelPlacer(box.grow(-2), gap=1.2)
    for r in m.routes:
        (x1, y1), (x2, y2) = points[r.a], points[r.b]
        items.append(Line(x1, y1, x2, y2, ROUTE))
        for b in segment_boxes(x1, y1, x2, y2):
            placer.avoid(b)
    for c in m.cities:
        px, py = points[c.id]
        placer.block(Box(px - CITY_R - 1, py - CITY_R - 1, 2 * CITY_R + 2, 2 * CITY_R + 2))
    glyphs: list[Item] = []
    for c in m.cities:
        px, py = points[c.id]
        if c.iconic:
            s = 2 * CITY_R + 4
            glyphs.append(Icon("shield", px - s / 2, py - s / 2, s))
        else:
            glyphs.append(Circle(px, py, CITY_R, CITY))
    def crowd(c: City) -> int:
        px, py = points[c.id]
        return sum(1 for o in m.cities if math.hypot(points[o.id][0] - px, points[o.id][1] - py) < 45)

    icons: list[Item] = []
    labels: list[Item] = []
    for c in sorted(m.cities, key=crowd, reverse=True):  # stable: file order among equals
        px, py = points[c.id]
        label = placer.place(c.name, px, py, CITY_R + 1.5, SMALL_SIZE, "bold" if c.iconic else "regular")
        if label is None:
            raise LayoutError(f"{m.source or m.id}: no room for the label of {c.name} on the map")
        labels += _leader(px, py, label)
        labels.append(label)
        names = _sight_icons(c, m)
        if not names:
            continue
        size = SIGHT
        spot = _icon_spot(px, py, len(names), placer)
        if spot is None:
            size = SIGHT_MIN
            spot = _icon_spot(px, py, len(names), placer, size)
        if spot is None:
            raise LayoutError(f"{m.source or m.id}: no room for the sights of {c.name} on the map")
        ix, iy, stacked = spot
        for k, name in enumerate(names):
            step = k * (size + 1.5)
            icons.append(Icon(name, ix, iy + step, size) if stacked else Icon(name, ix + step, iy, size))
    regions: list[Item] = []
    for region in m.regions:
        cities = m.region_cities(region.id)
        if not cities:
            continue
        cx = sum(points[c.id][0] for c in cities) / len(cities)
        cy = sum(points[c.id][1] for c in cities) / len(cities)
        label = placer.place(region.name.upper(), cx, cy, 0.0, 8.0, "bold", GREY)
        if label is not None:
            regions.append(label)
    items += regions + glyphs + icons + labels
    items.append(Rect(box.x, box.y, box.w, box.h, FRAME))
    return items


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
    seen = "animals" if len(m.explore) > 1 else "sights"
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


def build(m: GameMap, names: list[str], paper: str) -> Document:
    """Map sheets for ``m``: one landscape page per player name (at least one)."""
    width, height = page_size(paper, landscape=True)
    x0, y0 = MARGIN, MARGIN
    inner_w, inner_h = width - 2 * MARGIN, height - 2 * MARGIN
    shared: list[Item] = []
    name_w = 250.0
    block, th = title_block(x0, y0, inner_w - name_w - 20, f"{m.name} in 15 Minutes",
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
    body_h = y0 + inner_h - top
    p = plan(m, inner_w, body_h)
    map_w = inner_w - p.width - COLUMN_GAP
    key_h = _key(0, 0, map_w, m)[1] + 4
    map_box = fitted_box(m, Box(x0, top, map_w, body_h - key_h - p.strip_h))
    shared += _map_items(m, map_box)
    shared += _key(x0, map_box.bottom + 2, map_w, m)[0]
    strip_y = y0 + inner_h - p.strip_h + BLOCK_GAP
    shared += _sections(m, p, x0 + map_w + COLUMN_GAP, top, body_h, x0, strip_y)
    return pack(width, height, shared, names, slot, f"{m.name} in 15 Minutes - map sheet", "map")
