"""City tags on the map: each city's name and its icons together in one tag beside its circle.

As on the printed game, nothing that belongs to a city floats free of it: the
tag touches the city's circle, or (when the city is crowded) sits a little
off and is joined to it by a short leader line. A tag is placed only where it
is nearer its own circle than any other, clear of other circles, tags and
the ends of routes at other cities, and (where it can be) off route lines.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from printkit.layout import fonts
from printkit.layout.boxes import Box, corners
from printkit.layout.common import INK, PAPER_WHITE, SMALL_SIZE, text
from printkit.layout.geo import Box4, Pt, clip_segment
from printkit.layout.labels import LabelPlacer
from printkit.layout.primitives import FontWeight, Item, Line, Rect, Style
from printkit.model.maps import City, GameMap
from printkit.sheets.citymarks import STAR, tag_icon
from printkit.sheets.routeshape import leaving
from printkit.sheets.tagspace import Line4, cross, grouped, hits, hits_near, length_under, overlaps, rect_distance

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
"""Which route lines a tag keeps off: all of them, all but its own city's (of which it may cover ``OWN_UNDER``),
or none (only to find where a tag would go, so that the routes can be bent round it)."""
OWN_UNDER = 3.0
"""How much (points) of one of its own city's routes a tag may cover (the layout check allows 4)."""
OWNED = 6.5
"""How much nearer (points) the centre of a tag's name and of each icon is to its own circle than to any other
(the layout check asks for 6)."""
STEPS: tuple[tuple[int, float], ...] = (
    (CLEAR, 0.0), (CLEAR, 1.5), (CLEAR, 3.0), (OWN, 0.0), (OWN, 1.5), (CLEAR, 5.0), (OWN, 3.0),
    (CLEAR, 8.0), (OWN, 5.0), (CLEAR, 12.0), (OWN, 8.0), (OWN, 12.0), (CLEAR, 17.0), (OWN, 17.0),
    (OWN, 23.0), (OWN, 30.0),
)
"""(which route lines to keep off, extra distance) in the order tried: touching first; near its circle
a tag keeps off its own city's routes (where a player starts drawing) before it covers a little of one.
It never covers another city's route."""
DIRS: tuple[tuple[float, float], ...] = (
    (1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1),
    (1, -0.5), (1, 0.5), (-1, -0.5), (-1, 0.5), (0.5, -1), (-0.5, -1), (0.5, 1), (-0.5, 1),
)
"""Where a tag sits round its circle, (x, y) each -1..1: the 8 compass points first, then the 8 between them
(a tag half beside, half above its circle)."""
BACK = Style(stroke=None, fill=PAPER_WHITE)
LEADER = Style(stroke=INK, width=0.5)


@dataclass(frozen=True)
class Tag:
    """A city's placed tag: its box (the field geometry) and what it draws."""

    city: str
    box: Box
    items: tuple[Item, ...]
    name: Box
    icons: tuple[Box, ...]


def tag_icons(city: City, m: GameMap) -> list[str]:
    """Icon names a city's tag shows: its sights (or animals), or the gold star of an iconic city."""
    if city.iconic:
        return [STAR]
    names: list[str] = []
    for sid in city.sights:
        track = next((t for t in m.explore if sid in t.kind_ids), None)
        names.append(track.kind(sid).icon if track else sid)
    return names


WRAP = 40.0
"""A name wider than this (points) may also be printed on two lines, broken at a space."""


def name_lines(name: str, weight: FontWeight) -> list[tuple[str, ...]]:
    """The ways a city's name may be printed: on one line, and on two for a long name with a space."""
    out: list[tuple[str, ...]] = [(name,)]
    words = name.split(" ")
    if len(words) > 1 and fonts.text_width(name, SMALL_SIZE, weight) > WRAP:
        splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
        out.append(min(splits, key=lambda p: max(fonts.text_width(t, SMALL_SIZE, weight) for t in p)))
    return out


@dataclass(frozen=True)
class _Shape:
    """A tag's contents at one icon size: name beside the icons (row) or over/under them (stack)."""

    name: tuple[str, ...]
    """The name's lines (one, or two for a long name that has a space to break at)."""
    weight: FontWeight
    icons: tuple[str, ...]
    size: float
    stacked: bool

    @cached_property
    def text_w(self) -> float:
        return max(fonts.text_width(n, SMALL_SIZE, self.weight) for n in self.name)

    @cached_property
    def line_h(self) -> float:
        return fonts.ascent(SMALL_SIZE, self.weight) + fonts.descent(SMALL_SIZE, self.weight)

    @cached_property
    def text_h(self) -> float:
        return self.line_h * len(self.name)

    @cached_property
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

    def parts(self, box: Box, name_first: bool, align: int = 0) -> tuple[Box, tuple[Box, ...]]:
        """Where the name and each icon go in ``box``; ``name_first``: the name left (row) or on top (stack).

        ``align`` places a stack's icons left (-1), centred (0) or right (1): on the circle's side.
        """
        x, y, w, h = box.x + PAD, box.y + PAD, box.w - 2 * PAD, box.h - 2 * PAD
        if self.stacked:
            ty = y if name_first else y + h - self.text_h
            iy = y + self.text_h + 1 if name_first else y
            tx = x + (w - self.text_w) / 2
            ix = x + (w - self.icons_w) * (align + 1) / 2
        else:
            tx = x if name_first else x + w - self.text_w
            ty = y + (h - self.text_h) / 2
            ix = x + self.text_w + 2 if name_first else x
            iy = y + (h - self.size) / 2
        icons = tuple(Box(ix + k * (self.size + ICON_GAP), iy, self.size, self.size) for k in range(len(self.icons)))
        return Box(tx, ty, self.text_w, self.text_h), icons

    def draw(self, box: Box, name: Box, icons: tuple[Box, ...]) -> list[Item]:
        """The backing, the name and the icons where :meth:`parts` put them."""
        asc = fonts.ascent(SMALL_SIZE, self.weight)
        items: list[Item] = [Rect(box.x, box.y, box.w, box.h, BACK, radius=1.5)]
        if len(self.name) == 1:
            items.append(text(name.x, name.y + asc, self.name[0], SMALL_SIZE, self.weight))
        else:  # lines centred on each other
            items += [text(name.x + name.w / 2, name.y + k * self.line_h + asc, n, SMALL_SIZE, self.weight, "middle")
                      for k, n in enumerate(self.name)]
        items += [i for n, b in zip(self.icons, icons) for i in tag_icon(n, b.x, b.y, self.size)]
        return items


def _box_at(px: float, py: float, d: float, sx: float, sy: float, w: float, h: float) -> Box:
    """The w x h box ``d`` away from (px, py) towards (sx, sy): beside it (sx = +-1, sy = 0), above or under it
    (sx = 0, sy = +-1), at a corner (both +-1), or in between (one +-0.5)."""
    k = d if abs(sx) != 1 or abs(sy) != 1 else d * math.sqrt(0.5)
    kx = k if abs(sx) == 1 else 0.0
    ky = k if abs(sy) == 1 else 0.0
    x = px + kx - w * (1 - sx) / 2 if sx >= 0 else px - kx - w * (1 - sx) / 2
    y = py + ky - h * (1 - sy) / 2 if sy >= 0 else py - ky - h * (1 - sy) / 2
    return Box(x, y, w, h)


def _along(pts: tuple[Pt, ...], d: float) -> Pt:
    """The point ``d`` from the first point of a line, measured straight from it (its last point if none is)."""
    return leaving(pts, d) or pts[-1]


REACH = 160.0
"""How far (points) from its circle a tag's search looks for what it might meet."""


class _Near(NamedTuple):
    """What lies near one city: obstacles (not its circle), other cities' route segments, the ends of routes at
    other cities, other cities' centres."""

    obstacles: tuple[Box4, ...]
    others: tuple[tuple[Box4, Line4], ...]
    """Other cities' routes near it: each route's bounding box and its segments."""
    ends: tuple[tuple[Pt, Pt], ...]
    cities: tuple[Pt, ...]



class _Spots:
    """The spots a city's tag may take, worked out once each as the search asks for them."""

    def __init__(self, placer: TagPlacer, c: City) -> None:
        self.p, self.c = placer, c
        self.icons = tuple(tag_icons(c, placer.m))
        self.weight: FontWeight = "bold" if c.iconic else "regular"
        self.local = placer._local(c)  # noqa: SLF001 - its own placer's
        self.done: dict[float, list[tuple[Tag, int]]] = {}
        self.partial: dict[float, tuple[list[tuple[Tag, int]], Iterator[tuple[Tag, int]]]] = {}

    def at(self, extra: float, want: int = ANY) -> Iterator[tuple[Tag, int]]:
        """The spots ``extra`` out from the circle, in order, with the route lines each keeps off."""
        if extra in self.done:
            yield from self.done[extra]
            return
        seen, rest = self.partial.get(extra) or ([], self._make(extra))
        self.partial[extra] = (seen, rest)
        yield from list(seen)
        for spot in rest:
            seen.append(spot)
            yield spot
        self.done[extra] = seen

    def _make(self, extra: float) -> Iterator[tuple[Tag, int]]:
        p, c = self.p, self.c
        px, py = p.points[c.id]
        d = p.r + TOUCH + extra
        for near, lines, size in ((f, n, s) for f in (False, True) for n in name_lines(c.name, self.weight)
                                  for s in ICON_SIZES):
            shapes = {k: _Shape(lines, self.weight, self.icons, size, k) for k in (False, True)}
            extents = {k: shape.extent() for k, shape in shapes.items()}
            for sx, sy in DIRS:
                for stacked in ((False, True) if abs(sy) < 1 else (True, False)):
                    shape = shapes[stacked]
                    box = _box_at(px, py, d, sx, sy, *extents[stacked])
                    name_first = (sy < 0 if stacked else sx < 0) != near  # icons next to the circle, or the name
                    parts = shape.parts(box, name_first, -round(sx))
                    level = p.level(c, box, parts, self.local)
                    if level is not None:
                        items = shape.draw(box, *parts) + p.leader(px, py, box, extra)
                        yield Tag(c.id, box, tuple(items), *parts), level


class TagPlacer:
    """Places every city's tag on a map whose circles, routes and frames are already known.

    ``lines`` is each route's line (its points), by (city a, city b).
    """

    def __init__(self, m: GameMap, points: dict[str, Pt], radius: float, placer: LabelPlacer,
                 lines: dict[tuple[str, str], tuple[Pt, ...]]) -> None:
        self.m, self.points, self.r, self.placer = m, points, radius, placer
        self.tags: list[Box4] = []
        self.ends: dict[str, list[tuple[Pt, Pt]]] = {c.id: [] for c in m.cities}
        self.segments: dict[str, list[tuple[tuple[Box4, Line4], ...]]] = {c.id: [] for c in m.cities}
        self.others: dict[str, Line4] = {}
        for (a, b), pts in lines.items():
            segs = tuple(zip(pts, pts[1:]))
            for at, way in ((a, pts), (b, pts[::-1])):
                self.segments[at].append(grouped(segs))
                start = _along(way, radius)
                self.ends[at].append((start, _along(way, radius + ROUTE_END)))
        for c in m.cities:
            self.others[c.id] = tuple(s for (a, b), pts in lines.items() if c.id not in (a, b)
                                      for s in zip(pts, pts[1:]))
        self.grouped = {cid: grouped(segs) for cid, segs in self.others.items()}

    def _local(self, c: City) -> _Near:
        """What a tag of ``c`` could meet: everything within ``REACH`` of its circle."""
        px, py = self.points[c.id]
        near = Box(px - REACH, py - REACH, 2 * REACH, 2 * REACH)
        around = corners(near)

        def close(p: Pt, q: Pt) -> bool:
            return clip_segment(p, q, around) is not None

        own = self.points[c.id]
        cities = tuple(self.points[o.id] for o in self.m.cities if o.id != c.id
                       and math.dist(self.points[o.id], own) < 3 * REACH)
        ends = tuple(e for o in self.m.cities if o.id != c.id for e in self.ends[o.id] if close(*e))
        return _Near(tuple(corners(o) for o in self.placer.obstacles
                           if o.intersects(near) and not self._own(o, own)),
                     grouped(seg for seg in self.others[c.id] if close(*seg)), ends, cities)

    def fits(self, c: City, box: Box, avoid: int, parts: tuple[Box, tuple[Box, ...]], near: _Near) -> bool:
        """Whether a tag for ``c`` may go in ``box`` with its name and icons at ``parts``."""
        own = self.points[c.id]
        if not box.inside(self.placer.area) or rect_distance(box, own) < self.r + TOUCH - 0.01:
            return False
        b = corners(box)
        if overlaps(b, near.obstacles, self.placer.gap) or overlaps(b, self.tags, 1.0):
            return False
        if not self._owned(c, box, parts, near):
            return False
        if avoid == ANY:
            return True
        if hits_near(b, near.others):
            return False
        for groups in self.segments[c.id]:
            under = length_under(box, groups)
            if under > (0.0 if avoid == CLEAR else OWN_UNDER):
                return False
        return True

    def _owned(self, c: City, box: Box, parts: tuple[Box, tuple[Box, ...]], near: _Near) -> bool:
        """Whether the tag, its name and each icon are clearly nearer their own circle than any other."""
        own = self.points[c.id]
        mine = rect_distance(box, own)
        name, icons = parts
        centres = [(p.x + p.w / 2, p.y + p.h / 2) for p in (name, *icons)]
        mines = [math.dist(p, own) + OWNED for p in centres]
        cx, cy, half = box.x + box.w / 2, box.y + box.h / 2, math.hypot(box.w, box.h) / 2
        reach = half + max(mine + 1.5, *mines)  # a city further from the box's centre can break neither rule
        for there in near.cities:
            if abs(there[0] - cx) > reach or abs(there[1] - cy) > reach:
                continue
            if rect_distance(box, there) <= mine + 1.5:
                return False
            if any(math.dist(p, there) < d for p, d in zip(centres, mines)):
                return False
        b = corners(box)
        return not hits(b, near.ends)

    def _own(self, o: Box, own: Pt) -> bool:
        """Whether an obstacle is the city's own circle (which its tag may touch)."""
        return abs(o.x + o.w / 2 - own[0]) < 0.01 and abs(o.y + o.h / 2 - own[1]) < 0.01 and o.w < 2 * self.r + 3

    def place(self, c: City, anywhere: bool = False) -> Tag | None:
        """The tag of ``c``, nearest its circle first; None if there is no room.

        ``anywhere``: where it would go if it might cover routes (the routes are then bent round it): of the
        spots nearest its circle, the one covering least of them.
        """
        spots = _Spots(self, c)
        best: Tag | None = None
        if anywhere:
            found: list[tuple[float, int, Tag]] = []
            for extra in sorted({e for _, e in STEPS}):
                found += [(self._covers(c, t.box) + extra, len(found) + k, t)
                          for k, (t, _) in enumerate(spots.at(extra))]
                if found and extra >= 3.0:
                    break
            best = min(found, key=lambda f: f[:2])[2] if found else None
        else:
            best = next((t for avoid, extra in STEPS for t, level in spots.at(extra, avoid) if level >= avoid), None)
        if best is not None:
            self.tags.append(corners(best.box))
        return best

    def level(self, c: City, box: Box, parts: tuple[Box, tuple[Box, ...]], near: _Near) -> int | None:
        """Which route lines a tag at ``box`` keeps off (``CLEAR``, ``OWN``, ``ANY``); None: it may not go there."""
        if not self.fits(c, box, ANY, parts, near):
            return None
        b = corners(box)
        if hits_near(b, near.others):
            return ANY
        own = self.points[c.id]
        tie = (own, (min(max(own[0], box.x), box.right), min(max(own[1], box.y), box.bottom)))
        tx0, tx1 = min(tie[0][0], tie[1][0]), max(tie[0][0], tie[1][0])
        ty0, ty1 = min(tie[0][1], tie[1][1]), max(tie[0][1], tie[1][1])
        if any(gx0 <= tx1 and gx1 >= tx0 and gy0 <= ty1 and gy1 >= ty0 and any(cross(*tie, p, q) for p, q in segs)
               for (gx0, gy0, gx1, gy1), segs in near.others):
            return ANY  # another route between the circle and its tag would split them
        under = max((length_under(box, groups) for groups in self.segments[c.id]), default=0.0)
        return CLEAR if under <= 0.0 else OWN if under <= OWN_UNDER else ANY

    def _covers(self, c: City, box: Box) -> float:
        """How much route a tag at ``box`` would cover: other cities' routes count five times."""
        other = length_under(box, self.grouped[c.id])
        own = sum(max(0.0, length_under(box, groups) - OWN_UNDER) for groups in self.segments[c.id])
        return 5 * other + own

    def leader(self, px: float, py: float, box: Box, extra: float) -> list[Item]:
        """A line from the circle to a tag that does not touch it."""
        if extra + TOUCH <= LEADER_FROM:
            return []
        nx, ny = min(max(px, box.x), box.right), min(max(py, box.y), box.bottom)
        dist = math.hypot(nx - px, ny - py)
        ux, uy = (nx - px) / dist, (ny - py) / dist
        return [Line(px + ux * self.r, py + uy * self.r, nx, ny, LEADER)]
