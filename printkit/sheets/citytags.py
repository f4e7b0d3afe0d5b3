"""City tags on the map: each city's name and its icons together in one tag beside its circle.

As on the printed game, nothing that belongs to a city floats free of it: the
tag touches the city's circle, or (when the city is crowded) sits a little
off and is joined to it by a short leader line. A tag is placed only where it
is nearer its own circle than any other, clear of other circles, tags and
the ends of routes at other cities, and (where it can be) off route lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from printkit.layout import fonts
from printkit.layout.boxes import Box, segment_hits
from printkit.layout.common import INK, PAPER_WHITE, SMALL_SIZE, text
from printkit.layout.geo import Pt, clip_segment
from printkit.layout.labels import LabelPlacer
from printkit.layout.primitives import FontWeight, Icon, Item, Line, Rect, Style
from printkit.model.maps import City, GameMap

ICON_SIZES = (10.5, 9.5, 8.5, 7.5)
"""Sizes tried for a tag's icons, largest first."""
ICON_GAP = 1.5
PAD = 0.8
"""White space round a tag's contents (part of the tag)."""
TOUCH = 1.2
"""Space between a circle and a tag that touches it."""
LEADER_FROM = 4.0
"""A tag further than this from its circle gets a leader line."""
ROUTE_END = 6.0
"""How much of a route next to another city a tag must leave uncovered."""
CLEAR, OWN, ANY = 2, 1, 0
"""Which route lines a tag keeps off: all of them, its own city's (past ``OWN_FREE``), none."""
OWN_FREE = 12.0
"""How much (points, past the circle) of its own city's routes a tag keeping off them may still cover."""
STEPS: tuple[tuple[int, float], ...] = (
    (CLEAR, 0.0), (CLEAR, 1.5), (CLEAR, 3.0), (OWN, 0.0), (ANY, 0.0), (ANY, 1.5), (CLEAR, 5.0),
    (ANY, 3.0), (CLEAR, 8.0), (ANY, 5.0), (CLEAR, 12.0), (ANY, 8.0), (ANY, 12.0), (CLEAR, 17.0),
    (ANY, 17.0), (ANY, 23.0), (ANY, 30.0),
)
"""(which route lines to keep off, extra distance) in the order tried: touching first; near its
circle a tag keeps off its own city's routes (where a player starts drawing) before it covers one."""
DIRS = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1))
BACK = Style(stroke=None, fill=PAPER_WHITE)
LEADER = Style(stroke=INK, width=0.5)


@dataclass(frozen=True)
class Tag:
    """A city's placed tag: its box (the field geometry) and what it draws."""

    city: str
    box: Box
    items: tuple[Item, ...]


def tag_icons(city: City, m: GameMap) -> list[str]:
    """Icon names a city's tag shows: its sights (or animals), or the shield of an iconic city."""
    if city.iconic:
        return ["shield"]
    names: list[str] = []
    for sid in city.sights:
        track = next((t for t in m.explore if sid in t.kind_ids), None)
        names.append(track.kind(sid).icon if track else sid)
    return names


@dataclass(frozen=True)
class _Shape:
    """A tag's contents at one icon size: name beside the icons (row) or over/under them (stack)."""

    name: str
    weight: FontWeight
    icons: tuple[str, ...]
    size: float
    stacked: bool

    @property
    def text_w(self) -> float:
        return fonts.text_width(self.name, SMALL_SIZE, self.weight)

    @property
    def text_h(self) -> float:
        return fonts.ascent(SMALL_SIZE, self.weight) + fonts.descent(SMALL_SIZE, self.weight)

    @property
    def icons_w(self) -> float:
        n = len(self.icons)
        return n * self.size + max(0, n - 1) * ICON_GAP

    def extent(self) -> tuple[float, float]:
        """Width and height, padding included."""
        if self.stacked:
            w, h = max(self.text_w, self.icons_w), self.text_h + (self.size + 1 if self.icons else 0)
        else:
            w, h = self.text_w + (self.icons_w + 2 if self.icons else 0), max(self.text_h, self.size)
        return w + 2 * PAD, h + 2 * PAD

    def draw(self, box: Box, name_first: bool, align: int = 0) -> list[Item]:
        """The backing, the name and the icons in ``box``; ``name_first``: the name left (row) or on top (stack).

        ``align`` places a stack's icons left (-1), centred (0) or right (1): on the circle's side.
        """
        x, y, w, h = box.x + PAD, box.y + PAD, box.w - 2 * PAD, box.h - 2 * PAD
        asc = fonts.ascent(SMALL_SIZE, self.weight)
        items: list[Item] = [Rect(box.x, box.y, box.w, box.h, BACK, radius=1.5)]
        if self.stacked:
            ty = y if name_first else y + h - self.text_h
            iy = y + self.text_h + 1 if name_first else y
            items.append(text(x + w / 2, ty + asc, self.name, SMALL_SIZE, self.weight, "middle"))
            ix = x + (w - self.icons_w) * (align + 1) / 2
        else:
            tx = x if name_first else x + w - self.text_w
            items.append(text(tx, y + (h - self.text_h) / 2 + asc, self.name, SMALL_SIZE, self.weight))
            ix = x + self.text_w + 2 if name_first else x
            iy = y + (h - self.size) / 2
        items += [Icon(n, ix + k * (self.size + ICON_GAP), iy, self.size) for k, n in enumerate(self.icons)]
        return items


def _box_at(px: float, py: float, d: float, sx: int, sy: int, w: float, h: float) -> Box:
    """The w x h box whose nearest point to (px, py) lies ``d`` away in direction (sx, sy)."""
    k = d if sx == 0 or sy == 0 else d * math.sqrt(0.5)
    x = px + k if sx > 0 else px - k - w if sx < 0 else px - w / 2
    y = py + k if sy > 0 else py - k - h if sy < 0 else py - h / 2
    return Box(x, y, w, h)


def _rect_distance(b: Box, p: Pt) -> float:
    dx = max(b.x - p[0], 0.0, p[0] - b.right)
    dy = max(b.y - p[1], 0.0, p[1] - b.bottom)
    return math.hypot(dx, dy)


class TagPlacer:
    """Places every city's tag on a map whose circles, routes and frames are already known."""

    def __init__(self, m: GameMap, points: dict[str, Pt], radius: float, placer: LabelPlacer) -> None:
        self.m, self.points, self.r, self.placer = m, points, radius, placer
        self.tags: list[Box] = []
        self.ends: dict[str, list[tuple[Pt, Pt]]] = {c.id: [] for c in m.cities}
        self.own: dict[str, list[tuple[float, float, float, float, float]]] = {c.id: [] for c in m.cities}
        for route in m.routes:
            for at, to in ((route.a, route.b), (route.b, route.a)):
                (ax, ay), (bx, by) = points[at], points[to]
                length = math.hypot(bx - ax, by - ay) or 1.0
                ux, uy = (bx - ax) / length, (by - ay) / length
                far = min(length, radius + ROUTE_END)
                self.ends[at].append(((ax + ux * radius, ay + uy * radius), (ax + ux * far, ay + uy * far)))
                free = radius + OWN_FREE
                self.own[at].append((ax + ux * free, ay + uy * free, bx, by, 0.0))

    def fits(self, c: City, box: Box, avoid: int) -> bool:
        """Whether a tag for ``c`` may go in ``box``."""
        own = self.points[c.id]
        if not box.inside(self.placer.area) or _rect_distance(box, own) < self.r + TOUCH - 0.01:
            return False
        if any(box.intersects(o, self.placer.gap) for o in self.placer.obstacles if not self._own(o, own)):
            return False
        if any(box.intersects(t, 1.0) for t in self.tags):
            return False
        mine = _rect_distance(box, own)
        for o in self.m.cities:
            if o.id != c.id:
                if _rect_distance(box, self.points[o.id]) - self.r <= mine - self.r + 1.5:
                    return False
                if any(clip_segment(a, b, (box.x, box.y, box.right, box.bottom), strict=True)
                       for a, b in self.ends[o.id]):
                    return False
        if avoid == ANY:
            return True
        lines = self.placer.lines if avoid == CLEAR else self.own[c.id]
        return not any(segment_hits(box, *ln[:4], ln[4]) for ln in lines)

    def _own(self, o: Box, own: Pt) -> bool:
        """Whether an obstacle is the city's own circle (which its tag may touch)."""
        return abs(o.x + o.w / 2 - own[0]) < 0.01 and abs(o.y + o.h / 2 - own[1]) < 0.01 and o.w < 2 * self.r + 3

    def place(self, c: City) -> Tag | None:
        """The tag of ``c``, nearest its circle first; None if there is no room."""
        px, py = self.points[c.id]
        icons = tuple(tag_icons(c, self.m))
        weight: FontWeight = "bold" if c.iconic else "regular"
        for avoid, extra in STEPS:
            d = self.r + TOUCH + extra
            for size in ICON_SIZES:
                for sx, sy in DIRS:
                    for stacked in ((False, True) if sy == 0 else (True, False)):
                        shape = _Shape(c.name, weight, icons, size, stacked)
                        box = _box_at(px, py, d, sx, sy, *shape.extent())
                        if self.fits(c, box, avoid):
                            self.tags.append(box)
                            name_first = sy < 0 if stacked else sx < 0  # the icons next to the circle
                            items = shape.draw(box, name_first, -sx) + self._leader(px, py, box, extra)
                            return Tag(c.id, box, tuple(items))
        return None

    def _leader(self, px: float, py: float, box: Box, extra: float) -> list[Item]:
        """A line from the circle to a tag that does not touch it."""
        if extra + TOUCH <= LEADER_FROM:
            return []
        nx, ny = min(max(px, box.x), box.right), min(max(py, box.y), box.bottom)
        dist = math.hypot(nx - px, ny - py)
        ux, uy = (nx - px) / dist, (ny - py) / dist
        return [Line(px + ux * self.r, py + uy * self.r, nx, ny, LEADER)]
