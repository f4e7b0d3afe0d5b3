"""A simulated pen and copier: filled-in sheets for the scan's tests and benchmark (randomness passed in).

``fill`` draws a player's marks on a rendered page with a pen of a given
colour and width (ticks, crosses, dots, scribbles, fills; routes with hand
jitter; a star on the start city); ``scan_degrade`` treats the result the way a
copier or a phone does (resolution, rotation, tilt, blur, light, noise, JPEG).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from printkit.model.maps import GameMap, Route
    from printkit.scan.images import Image
    from printkit.sheets.fields import Fields

INKS = {"black": (25, 25, 25), "blue": (160, 70, 25), "pencil": (105, 105, 105)}
LIGHT_INKS = {"light pencil": (175, 175, 175)}
"""Inks too light for a 1-bit copier's threshold (dots after its dithering): not in the benchmark's random pens."""
"""Pen colours, BGR."""
MARKS = ("tick", "cross", "dot", "scribble", "fill")


@dataclass(frozen=True)
class Pen:
    """A pen: colour name, stroke width in mm, and how much the hand wobbles (points)."""

    ink: str = "black"
    width_mm: float = 0.5
    jitter: float = 0.8


def _ink(name: str) -> tuple[int, int, int]:
    return INKS.get(name) or LIGHT_INKS[name]


class Sheet:
    """A page being drawn on at ``scale`` pixels per point."""

    def __init__(self, image: Image, scale: float, pen: Pen, rng: random.Random) -> None:
        self.image, self.scale, self.pen, self.rng = image, scale, pen, rng

    def _pts(self, pts: list[tuple[float, float]]) -> Image:
        import numpy as np

        return np.array([[round(x * self.scale * 8), round(y * self.scale * 8)] for x, y in pts], dtype=np.int32)

    def stroke(self, pts: list[tuple[float, float]], closed: bool = False) -> None:
        """A pen stroke through points (in points)."""
        import cv2

        width = max(1, round(self.pen.width_mm / 25.4 * 72 * self.scale))
        cv2.polylines(self.image, [self._pts(pts)], closed, _ink(self.pen.ink), width, cv2.LINE_AA, shift=3)

    def blob(self, pts: list[tuple[float, float]]) -> None:
        """A filled shape."""
        import cv2

        cv2.fillPoly(self.image, [self._pts(pts)], _ink(self.pen.ink), cv2.LINE_AA, shift=3)

    def wobble(self, v: float) -> float:
        """``v`` moved by the hand's jitter."""
        return v + self.rng.uniform(-self.pen.jitter, self.pen.jitter)

    def mark(self, rect: tuple[float, float, float, float], kind: str) -> None:
        """A tick, cross, dot, scribble or fill inside a box."""
        x0, y0, x1, y1 = rect
        w, h = x1 - x0, y1 - y0

        def p(fx: float, fy: float) -> tuple[float, float]:
            return self.wobble(x0 + fx * w), self.wobble(y0 + fy * h)

        if kind == "tick":
            self.stroke([p(0.2, 0.55), p(0.42, 0.8), p(0.85, 0.2)])
        elif kind == "cross":
            self.stroke([p(0.2, 0.2), p(0.8, 0.8)])
            self.stroke([p(0.8, 0.2), p(0.2, 0.8)])
        elif kind == "dot":
            cx, cy = p(0.5, 0.5)
            r = max(1.2, 0.14 * w)
            self.blob([(cx + r * math.cos(a / 6 * math.pi), cy + r * math.sin(a / 6 * math.pi)) for a in range(12)])
        elif kind == "scribble":
            self.stroke([p(0.15 + 0.7 * (k % 2), 0.2 + 0.6 * k / 7) for k in range(8)])
        else:
            self.blob([p(0.1, 0.1), p(0.9, 0.1), p(0.9, 0.9), p(0.1, 0.9)])

    def route(self, line: Sequence[tuple[float, float]]) -> None:
        """A hand-drawn line along a route's printed line (straight or curved), wobbling smoothly."""
        pts = []
        for (ax, ay), (bx, by) in zip(line, line[1:]):  # points every 6 pt or so along each piece
            n = max(1, int(math.dist((ax, ay), (bx, by)) / 6))
            pts += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(n)]
        pts.append(line[-1])
        total = len(pts) - 1
        phase, amp = self.rng.uniform(0, math.tau), self.pen.jitter
        (ax, ay), (bx, by) = line[0], line[-1]
        nx, ny = (ay - by) / max(math.dist(line[0], line[-1]), 1e-9), (bx - ax) / max(math.dist(line[0], line[-1]), 1e-9)
        out = []
        for k, (x, y) in enumerate(pts):
            off = amp * math.sin(phase + k / max(total, 1) * 5.0) * (1 if 0 < k < total else 0)
            out.append((x + nx * off, y + ny * off))
        self.stroke(out)

    def star(self, c: tuple[float, float], r: float) -> None:
        """A five-pointed star drawn in one stroke around a city."""
        cx, cy = c
        pts = [(cx + r * math.sin(k * 4 * math.pi / 5), cy - r * math.cos(k * 4 * math.pi / 5)) for k in range(6)]
        self.stroke([(self.wobble(x), self.wobble(y)) for x, y in pts])

    def stray(self, fields: Fields) -> None:
        """A short stray mark somewhere that holds no box or route (a slip of the pen)."""
        for _ in range(50):
            x, y = self.rng.uniform(40, fields.width - 40), self.rng.uniform(80, fields.height - 40)
            if _clear(fields, x, y, 12.0):
                self.stroke([(x, y), (x + self.rng.uniform(-6, 6), y + self.rng.uniform(-6, 6))])
                return


def _clear(fields: Fields, x: float, y: float, r: float) -> bool:
    """Whether (x, y) lies at least ``r`` from every box, city and route."""
    for b in fields.boxes:
        if b.rect[0] - r < x < b.rect[2] + r and b.rect[1] - r < y < b.rect[3] + r:
            return False
    if any(math.dist(c.center, (x, y)) < c.radius + r for c in fields.cities):
        return False
    for route in fields.routes:
        for (ax, ay), (bx, by) in zip(route.points, route.points[1:]):
            dx, dy = bx - ax, by - ay
            t = min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / max(dx * dx + dy * dy, 1e-9)))
            if math.dist((ax + t * dx, ay + t * dy), (x, y)) < r:
                return False
    return True


@dataclass(frozen=True)
class Filled:
    """What a player marked: box ids, route ids, the starred city."""

    boxes: tuple[str, ...] = ()
    routes: tuple[str, ...] = ()
    start: str | None = None


def fill(image: Image, scale: float, fields: Fields, filled: Filled, pen: Pen, rng: random.Random,
         strays: int = 0) -> None:
    """Draw ``filled`` on a page rendered at ``scale`` px/pt, in place, with random mark shapes."""
    sheet = Sheet(image, scale, pen, rng)
    rects = {b.id: b.rect for b in fields.boxes}
    for box_id in filled.boxes:
        sheet.mark(rects[box_id], rng.choice(MARKS))
    for route in fields.routes:
        if route.id in filled.routes:
            sheet.route(route.points)
    if filled.start is not None:
        city = fields.city(filled.start)
        sheet.star(city.center, city.radius + 4.5)
    for _ in range(strays):
        sheet.stray(fields)


def render_page(document_page: bytes) -> Image:
    """A rendered PNG page as an image to draw on."""
    from printkit.scan.images import decode_image

    image = decode_image(document_page)
    assert image is not None
    return image


def random_game(
    m: GameMap, fields: Fields, rng: random.Random, avoid: frozenset[str] = frozenset()
) -> tuple[Filled, dict[str, Any]]:
    """A random legal sheet: a trail on the graph from a starting city, random rows, truthful ticks.

    Returns what to draw and what the scan should read: the marks per row and
    the trail's start, final city and routes (the order of a trail's routes
    is not on the sheet), and the walk itself as ``route``. Cities and routes
    (by id) in ``avoid`` are never visited or drawn.
    """
    from printkit.model import graph

    start = rng.choice([c.id for c in m.cities if c.can_start and c.id not in avoid])
    route: list[str] = [start]
    used: list[Route] = []
    for _ in range(rng.choice((0, 2, 4, 6, 8, 10, 14, 18))):
        options = [r for r in graph.open_routes(m, route[-1], used) if not {r.a, r.b, f"{r.a}-{r.b}"} & avoid]
        if not options:
            break
        step = rng.choice(options)
        used.append(step)
        route.append(step.b if step.a == route[-1] else step.a)
    ids = {b.id for b in fields.boxes}
    boxes: list[str] = []
    counts: dict[str, dict[str, int]] = {"souvenirs": {}, m.explore_key: {}}
    rows = [("souvenirs", k.id, m.collect.boxes) for k in m.collect.kinds]
    rows += [(m.explore_key, k.id, t.boxes) for t in m.explore for k in t.kinds]
    for key, kind, top in rows:
        n = rng.choice((0, 0, 1, 2, 3, top, rng.randint(0, top)))
        n = min(n, top)
        counts[key][kind] = n
        boxes += [f"{key}.{kind}.{i}" for i in range(1, n + 1) if f"{key}.{kind}.{i}" in ids]
    seen = set(route)
    for r in m.regions:
        cities = m.region_cities(r.id)
        if cities and all(c.id in seen for c in cities) and f"regions.{r.id}" in ids:
            boxes.append(f"regions.{r.id}")
    visited = {r.id: sum(1 for c in m.region_cities(r.id) if c.id in seen) for r in m.regions}
    tallies = [(f"visited.{r}", n) for r, n in visited.items()]
    tallies.append(("iconic", sum(1 for c in m.iconic_cities if c.id in seen)))
    boxes += [f"{key}.{i}" for key, n in tallies for i in range(1, n + 1) if f"{key}.{i}" in ids]
    if m.every_region_visited(visited) and len(route) > 1 and route[0] == route[-1] and "speed" in ids:
        boxes.append("speed")
    route_ids = tuple(f"{r.a}-{r.b}" for r in used)
    truth = {**counts, "start": start, "final": route[-1], "routes": frozenset(route_ids), "route": route}
    return Filled(tuple(boxes), route_ids, start), truth
