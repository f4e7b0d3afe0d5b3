"""A map's regions drawn as areas: a soft shape round each region's cities, tinted, patterned, outlined, named.

Every map scores souvenirs by the region of the player's city (and Europe by
majority per region), so a player must see which region a city is in, in any
colour vision and on any printer. The shapes come from
:func:`printkit.layout.regions.region_areas` (each holds exactly its own
cities); this module gives each region a ground from a palette chosen by
simulation (any two grounds differ by CIEDE2000 10 or more for normal vision and
simulated protanopia, deuteranopia and tritanopia: ``tools/region_palette.py``),
an opaque colour, so a print needs no transparency; a pattern of thin lines or
dots in a darker tone of that colour (:mod:`printkit.layout.patterns`), which a
grey or 1-bit print keeps where it loses the tint, kept off the routes, the
circles, the tags and the names, where a player's pen goes; a solid outline in
that tone; and a name in solid black bold capitals inside its own area, clear of
the routes and tags.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from printkit.layout import fonts
from printkit.layout.boxes import Box, corners, text_box
from printkit.layout.common import INK, text
from printkit.layout.labels import LabelPlacer
from printkit.layout.patterns import KINDS, Kind, pattern
from printkit.layout.primitives import Clipped, Item, Path, PathCommand, Style, Text
from printkit.layout.regions import Area, region_areas
from printkit.layout.rings import centroid, depth, inside
from printkit.layout.shapes import box as box_path
from printkit.layout.shapes import disc
from printkit.model.maps import GameMap
from printkit.sheets.fields import Pt, Rect4, RegionField


class Look(NamedTuple):
    """How one region is drawn: its ground, the tone of its outline and pattern, and the pattern."""

    fill: str
    ink: str
    pattern: Kind


PALETTE: tuple[tuple[str, str], ...] = (
    ("#dce5ff", "#3664a4"),  # blue
    ("#ffe9ba", "#76611d"),  # cream
    ("#b1c7ad", "#396f36"),  # sage
    ("#c2b6e9", "#665a9c"),  # lavender
    ("#e5b1c7", "#9a476f"),  # pink
    ("#b6ffe9", "#03715c"),  # mint
    ("#c2be86", "#66661f"),  # khaki
)
"""(Ground, ink) per region, in the map file's order: grounds light enough for black text (CIELAB L* 74-94),
any two at least CIEDE2000 10 apart for every vision simulated; inks dark enough for a 1-bit print."""
LOOKS: tuple[Look, ...] = tuple(Look(fill, ink, kind) for (fill, ink), kind in zip(PALETTE, KINDS))
NEAR = 30.0
"""Areas nearer than this (points) are neighbours: a map with more regions than looks gives neighbours
different ones."""
EDGE_W = 0.9
PATTERN_W = 0.45
"""The width (points) of a pattern's lines."""
SPACING = 6.0
"""Points between a pattern's lines (its dots: ``DOT_SPACING``)."""
DOT_SPACING = 5.0
ROUTE_CLEAR = 4.5
"""How far (points) a pattern keeps from a route's line: a pen's stroke along it lands on the plain ground."""
CIRCLE_CLEAR = 3.0
"""How far (points) a pattern keeps from a city's circle (a start star goes round it)."""
BOX_CLEAR = 1.5
"""How far (points) a pattern keeps from a tag or a region's name."""
NAME_INK = INK
"""Region names in solid black: a dithering printer prints them whole (a coloured name broke into dots)."""
NAME_SIZE = 8.0
INSIDE = 2.0
"""How far (points) a region's name keeps inside its area's edge."""
REACHES = (36.0, 44.0, 52.0)
"""How far (points) an area reaches round its cities, tried in turn until each name has room clear of the
routes."""
STEP = 4.0
"""Spacing (points) of the spots a region's name is tried at."""


class Regions(NamedTuple):
    """What the regions add to a map: the grounds and patterns (drawn under the land's lines), the outlines (over
    them), the names (over the routes' casings), the fields, and each region's look."""

    areas: list[Item]
    edges: list[Item]
    names: list[Item]
    fields: list[RegionField]
    looks: dict[str, Look]


class Clear(NamedTuple):
    """What a region's pattern keeps off: the routes' lines and the tags (the cities' circles are ``points``)."""

    lines: Sequence[tuple[Pt, ...]]
    tags: Sequence[Box]


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


def _gap(a: Sequence[Pt], b: Sequence[Pt]) -> float:
    """About how far apart two areas are (points): their nearest corners."""
    return min(math.dist(p, q) for p in a for q in b)


def region_looks(m: GameMap, areas: dict[str, Area]) -> dict[str, Look]:
    """Each region's look: the next in ``LOOKS`` in the map file's order; past the last, the first that no
    neighbouring area (nearer than ``NEAR``) has."""
    out: dict[str, Look] = {}
    for k, region in enumerate(m.regions):
        if region.id not in areas:
            continue
        taken = set()
        if k >= len(LOOKS):
            taken = {out[o].pattern for o in out if _gap(areas[o].polygon, areas[region.id].polygon) < NEAR}
        order = [LOOKS[(k + j) % len(LOOKS)] for j in range(len(LOOKS))]
        out[region.id] = next((look for look in order if look.pattern not in taken), order[0])
    return out


def _bounds(pts: Sequence[Pt]) -> Rect4:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _meets(a: Rect4, b: Rect4) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _ground(area: Area, look: Look, points: dict[str, Pt], radius: float, clear: Clear, name: Box) -> Clipped:
    """A region's pattern inside its area, then its ground colour over the routes' lines, the circles, the tags
    and its name (and round them), so the pattern keeps off where a pen writes."""
    near = _bounds(area.polygon)
    grown = (near[0] - 6, near[1] - 6, near[2] + 6, near[3] + 6)
    marks = pattern(look.pattern, near, DOT_SPACING if look.pattern == "dots" else SPACING, look.ink, PATTERN_W)
    lines: list[PathCommand] = []
    for pts in clear.lines:
        if _meets(_bounds(pts), grown):
            lines += [("M", *pts[0]), *(("L", *p) for p in pts[1:])]
    spots: list[PathCommand] = []
    for p in points.values():
        if _meets((p[0], p[1], p[0], p[1]), grown):
            spots += disc(p, radius + CIRCLE_CLEAR)
    for b in (*clear.tags, name):
        if _meets(corners(b), grown):
            spots += box_path(b.grow(BOX_CLEAR))
    paths = [marks, Path(tuple(lines), Style(stroke=look.fill, width=2 * ROUTE_CLEAR))]
    paths.append(Path(tuple(spots), Style(stroke=None, fill=look.fill)))
    return Clipped(_outline(area.polygon), tuple(p for p in paths if p.commands))


def map_regions(m: GameMap, points: dict[str, Pt], box: Box, insets: Sequence[Rect4],
                placer: LabelPlacer, clear: Clear, radius: float) -> Regions:
    """Each region of ``m`` as an area round its cities (at ``points``, circles ``radius``) in ``box``, named
    inside it, its pattern kept off ``clear``."""
    if not m.regions:
        return Regions([], [], [], [], {})
    areas, named = _fitted(m, points, box, insets, placer)
    looks = region_looks(m, areas)
    grounds: list[Item] = []
    edges: list[Item] = []
    names: list[Item] = []
    fields: list[RegionField] = []
    for region in m.regions:
        area = areas.get(region.id)
        if area is None:
            continue
        look = looks[region.id]
        cmds = _outline(area.polygon)
        found = named.get(region.id) or _fallback(region.name.upper(), area, points, m, region.id, placer)
        texts, where = found
        placer.block(where)
        grounds += [Path(cmds, Style(stroke=None, fill=look.fill)), _ground(area, look, points, radius, clear, where)]
        edges.append(Path(cmds, Style(stroke=look.ink, width=EDGE_W)))
        names += [t._replace(fill=NAME_INK) for t in texts]
        ids = tuple(c.id for c in m.region_cities(region.id))
        fields.append(RegionField(region.id, region.name, ids, area.polygon, corners(where)))
    return Regions(grounds, edges, names, fields, looks)


def _fallback(label: str, area: Area, points: dict[str, Pt], m: GameMap, region: str,
              placer: LabelPlacer) -> tuple[list[Text], Box]:
    """A name no spot holds clear of the routes: clear of tags (it then lies under the routes), else the deepest
    spot (the layout check reads it)."""
    found = _clear(label, area, _centre(m, region, points), placer, False)
    if found is not None:
        return found
    return _lines_at(*(area.spots[0] if area.spots else area.polygon[0]), _ways(label)[-1])
