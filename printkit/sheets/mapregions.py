"""A map's regions drawn as areas: a soft tinted shape round each region's cities, outlined, named inside.

Every map scores souvenirs by the region of the player's city (and Europe by
majority per region), so a player must see which region a city is in. The
shapes come from :func:`printkit.layout.regions.region_areas` (each holds
exactly its own cities); this module colours them, outlines them so they
survive a 1-bit print (a solid darker line, which a halftoning printer keeps
as a dotted one), and puts each region's name inside its own area, clear of
the routes and tags.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from printkit.layout import fonts
from printkit.layout.boxes import Box, corners, text_box
from printkit.layout.common import text
from printkit.layout.labels import LabelPlacer
from printkit.layout.primitives import Item, Path, PathCommand, Style, Text
from printkit.layout.regions import Area, region_areas
from printkit.layout.rings import centroid, depth, inside
from printkit.model.maps import GameMap
from printkit.sheets.fields import Pt, Rect4, RegionField

HUES: tuple[tuple[str, str, str], ...] = (
    ("#d4e3f5", "#3f6ea3", "#23446b"),  # blue
    ("#f9e1c6", "#a8661f", "#6b3d0c"),  # orange
    ("#d8ecd2", "#447f39", "#27501f"),  # green
    ("#e6d9f1", "#734f9c", "#4a2e6b"),  # purple
    ("#f6d5da", "#a4465a", "#6e2535"),  # rose
    ("#cfebe9", "#2c7f7b", "#17504d"),  # teal
    ("#efe8c2", "#857522", "#544910"),  # olive
)
"""(Fill, outline, name) per region, in the map file's order: pale tints; outlines dark enough to survive a
1-bit print, names darker still (at least 8:1 on white, solid black on a 1-bit print)."""
FILL_OPACITY = 0.45
"""The tint lets the land and its borders show through."""
EDGE_W = 0.9
NAME_SIZE = 8.0
INSIDE = 2.0
"""How far (points) a region's name keeps inside its area's edge."""
REACHES = (36.0, 44.0, 52.0)
"""How far (points) an area reaches round its cities, tried in turn until each name has room clear of the
routes."""
STEP = 4.0
"""Spacing (points) of the spots a region's name is tried at."""


class Regions(NamedTuple):
    """What the regions add to a map: the areas (drawn under the routes), the names (over them), the fields."""

    areas: list[Item]
    names: list[Item]
    fields: list[RegionField]


def _box_inside(b: Box, poly: Sequence[Pt]) -> bool:
    """Whether the box, grown by ``INSIDE``, lies inside the polygon (its corners and edge midpoints)."""
    g = b.grow(INSIDE)
    xs, ys = (g.x, g.x + g.w / 2, g.right), (g.y, g.y + g.h / 2, g.bottom)
    return all(inside((x, y), poly) for x in xs for y in ys if (x, y) != (xs[1], ys[1]))


def _outline(poly: Sequence[Pt]) -> tuple[PathCommand, ...]:
    return (("M", *poly[0]), *(("L", *p) for p in poly[1:]), ("Z",))


def _ways(label: str) -> list[tuple[str, ...]]:
    """The name on one line, or on two broken at its middlemost space (for a narrow area)."""
    words = label.split(" ")
    if len(words) < 2:
        return [(label,)]
    k = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return [(label,), (" ".join(words[:k]), " ".join(words[k:]))]


def _lines_at(cx: float, cy: float, lines: tuple[str, ...]) -> tuple[list[Text], Box]:
    """The name's lines centred on (cx, cy), and the box round them (inked when placed)."""
    step = fonts.ascent(NAME_SIZE, "bold") + fonts.descent(NAME_SIZE, "bold") + 0.5  # the lines' boxes never meet
    top = cy - step * (len(lines) - 1) / 2 + NAME_SIZE * 0.35
    texts = [text(cx, top + k * step, ln, NAME_SIZE, "bold", "middle", "") for k, ln in enumerate(lines)]
    boxes = [text_box(t) for t in texts]
    x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
    return texts, Box(x0, y0, max(b.right for b in boxes) - x0, max(b.bottom for b in boxes) - y0)


def _spots(area: Area, centre: Pt, least: float) -> list[Pt]:
    """Points inside the area at least ``least`` from its edge, every ``STEP`` pt, nearest ``centre`` first,
    after the area's own deepest spots."""
    xs, ys = [p[0] for p in area.polygon], [p[1] for p in area.polygon]
    out: list[tuple[float, Pt]] = []
    y = min(ys) + least
    while y < max(ys) - least:
        x = min(xs) + least
        while x < max(xs) - least:
            if inside((x, y), area.polygon) and depth((x, y), area.polygon) >= least:
                out.append((math.dist((x, y), centre), (x, y)))
            x += STEP
        y += STEP
    return [*area.spots, *(p for _, p in sorted(out))]


def _centre(m: GameMap, region: str, points: dict[str, Pt]) -> Pt:
    """The centroid of the region's cities."""
    return centroid([points[c.id] for c in m.region_cities(region)])


def _clear(label: str, area: Area, centre: Pt, placer: LabelPlacer, soft: bool) -> tuple[list[Text], Box] | None:
    """The name inside the area nearest ``centre`` clear of tags (and of routes, ``soft``), one line or two."""
    xs, ys = [p[0] for p in area.polygon], [p[1] for p in area.polygon]
    local = placer.near(Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).grow(2))
    spots = _spots(area, centre, NAME_SIZE * 0.6 + INSIDE)
    for lines in _ways(label):
        for cx, cy in spots:
            texts, box = _lines_at(cx, cy, lines)
            if local.free(box, soft=soft) and _box_inside(box, area.polygon):
                return texts, box
    return None


def _named(m: GameMap, areas: dict[str, Area], points: dict[str, Pt],
           placer: LabelPlacer) -> dict[str, tuple[list[Text], Box] | None]:
    """Each region's name, where one fits in its area clear of routes and tags (None where none does)."""
    out: dict[str, tuple[list[Text], Box] | None] = {}
    for region in m.regions:
        if region.id in areas:
            out[region.id] = _clear(region.name.upper(), areas[region.id], _centre(m, region.id, points), placer, True)
    return out


def _fitted(m: GameMap, points: dict[str, Pt], box: Box, insets: Sequence[Rect4],
            placer: LabelPlacer) -> tuple[dict[str, Area], dict[str, tuple[list[Text], Box] | None]]:
    """The areas and names: areas reaching further round their cities (``REACHES``) until every name fits
    clear of the routes, else the reach where most do."""
    cities = [(c.region, points[c.id]) for c in m.cities]
    best: tuple[int, dict[str, Area], dict[str, tuple[list[Text], Box] | None]] | None = None
    for reach in REACHES:
        areas = region_areas(cities, corners(box), reach=reach, keep_out=insets)
        names = _named(m, areas, points, placer)
        missing = sum(1 for n in names.values() if n is None)
        if best is None or missing < best[0]:
            best = (missing, areas, names)
        if not missing:
            break
    assert best is not None
    return best[1], best[2]


def map_regions(m: GameMap, points: dict[str, Pt], box: Box, insets: Sequence[Rect4],
                placer: LabelPlacer) -> Regions:
    """Each region of ``m`` as an area round its cities (at ``points``) in ``box``, named inside it."""
    if not m.regions:
        return Regions([], [], [])
    areas, named = _fitted(m, points, box, insets, placer)
    drawn: list[Item] = []
    names: list[Item] = []
    fields: list[RegionField] = []
    for k, region in enumerate(m.regions):
        area = areas.get(region.id)
        if area is None:
            continue
        fill, edge, ink = HUES[k % len(HUES)]
        cmds = _outline(area.polygon)
        drawn.append(Path(cmds, Style(stroke=None, fill=fill, opacity=FILL_OPACITY)))
        drawn.append(Path(cmds, Style(stroke=edge, width=EDGE_W)))
        found = named.get(region.id) or _fallback(region.name.upper(), area, points, m, region.id, placer)
        texts, where = found
        placer.block(where)
        names += [t._replace(fill=ink) for t in texts]
        ids = tuple(c.id for c in m.region_cities(region.id))
        fields.append(RegionField(region.id, region.name, ids, area.polygon, corners(where)))
    return Regions(drawn, names, fields)


def _fallback(label: str, area: Area, points: dict[str, Pt], m: GameMap, region: str,
              placer: LabelPlacer) -> tuple[list[Text], Box]:
    """A name no spot holds clear of the routes: clear of tags (it then lies under the routes), else the deepest
    spot (the layout check reads it)."""
    found = _clear(label, area, _centre(m, region, points), placer, False)
    if found is not None:
        return found
    return _lines_at(*(area.spots[0] if area.spots else area.polygon[0]), _ways(label)[-1])
