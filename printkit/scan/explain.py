"""Which ink can explain which: a route's inked line is its own stroke, a neighbour's, or a start star's.

A route the reader cannot tell alone (its line runs close to another
route's, or into a start star) is judged together with the routes around
it: for a choice of drawn routes, every drawn route must be inked along its
whole line, and the ink on a route not drawn must lie where a drawn
neighbour's stroke or a star can reach. The trail (printkit/scan/trail.py)
then keeps only the choices that are one legal trail.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from printkit.scan.locate import SCALE
from printkit.scan.read import END_CLEAR, ROUTE_REACH, SHORT_DRAWN, SHORT_EMPTY, SHORT_REACH, line_samples, px, seg_dist

if TYPE_CHECKING:
    from printkit.scan.images import Image
    from printkit.sheets.fields import Fields, RouteField

NEIGHBOUR_REACH = 2 * ROUTE_REACH
"""Points: the farthest a drawn route's ink can reach a sample on another route: its stroke's spread plus the reach."""
BAND = 5.0
"""Points each side of a drawn route's line searched for its ink when measuring the pen's spread."""
ALONE = 10.0
"""Points: a sample measures the spread only with no other route line and no city's star this near."""
ROUTE_SPREAD = 10
"""Least lone samples on a route read as drawn for its own spread to be measured."""
MIN_REACH = 1.0
"""Points: the least distance from a sample at which ink counts as on the line."""
SPREAD_MARGIN = 0.5
"""Points added to the measured spread (blur, a wobble the measured stretch did not show)."""


PRONE = SHORT_REACH + 0.5
"""Points: a sample this near a tag's printed icon or letter is prone to a scan's specks along their edges."""
SPECK = 1.0
"""Points: specks lie this near a printed edge; ink farther out by a tag's print is a stroke."""
PRONE_HITS = 2
"""Samples by a tag's print, inked beyond SPECK and by nothing drawn near, that tell a route is drawn."""
LONG = 20
"""Samples: a route seen this long collects specks along its own printed dashes (LONG_EMPTY of them)."""
LONG_EMPTY = 0.25
"""Share of a long route's samples that may carry unexplained specks for it to read as not drawn."""
DARK = 128
"""Blank-sheet grey (0-255) below which a tag's pixel is printed ink."""


@dataclass(frozen=True)
class Sample:
    """One point on a route's visible line, the other routes near it (id, distance), the cities whose star could ink it."""

    at: tuple[float, float]
    routes: tuple[tuple[str, float], ...]
    stars: frozenset[str]
    normal: tuple[float, float]
    alone: bool
    prone: bool = False
    """Printed icons or letters of a tag lie this close: a scan may leave specks here, so its ink tells nothing."""


FAR = max(ALONE, NEIGHBOUR_REACH) + 1.0
"""Beyond this (points) a route's exact distance changes nothing here."""


@lru_cache(maxsize=256)
def _extent(line: tuple[tuple[float, float], ...]) -> tuple[float, float, float, float]:
    xs, ys = [q[0] for q in line], [q[1] for q in line]
    return min(xs) - FAR, min(ys) - FAR, max(xs) + FAR, max(ys) + FAR


def _line_dist(p: tuple[float, float], line: tuple[tuple[float, float], ...]) -> float:
    """Distance from ``p`` to a route's line (each piece of a curved one), or ``FAR`` when it is further."""
    x0, y0, x1, y1 = _extent(line)
    if not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
        return FAR
    return min(seg_dist(*p, a, b) for a, b in zip(line, line[1:]))


def _sample(p: tuple[float, float], route: RouteField, fields: Fields, prone: bool) -> Sample:
    """A sample of ``route`` at ``p`` with what lies around it on the sheet."""
    # the piece of the route's line (a curved route has many) the sample lies on gives its direction
    (ax, ay), (bx, by) = min(zip(route.points, route.points[1:]), key=lambda s: seg_dist(*p, s[0], s[1]))
    length = max(math.hypot(bx - ax, by - ay), 1e-9)
    near = [(o.id, _line_dist(p, o.points)) for o in fields.routes if o.id != route.id]
    stars = frozenset(c.id for c in fields.cities if math.dist(p, c.center) < c.radius + END_CLEAR)
    alone = not stars and all(d > ALONE for _, d in near)
    return Sample(p, tuple((o, d) for o, d in near if d <= NEIGHBOUR_REACH), stars,
                  ((ay - by) / length, (bx - ax) / length), alone, prone)


@lru_cache(maxsize=16)
def route_points(fields: Fields, scanned: bool) -> dict[str, tuple[Sample, ...]]:
    """Each route's samples outside the circles with what else could ink them (once per sheet layout).

    On a ``scanned`` sheet the samples by a tag's printed icons and letters
    are marked prone to specks (see :data:`PRONE`).
    """
    prone = tag_print(fields)[0] if scanned else None
    return {route.id: tuple(_sample(p, route, fields, prone is not None and bool(prone[px(p[1]), px(p[0])]))
                            for p in line_samples(route, fields)) for route in fields.routes}


@lru_cache(maxsize=16)
def tag_print(fields: Fields) -> tuple[Image, Image]:
    """Pixels (1) within PRONE, and within SPECK, of a dark printed pixel inside a city's tag, on the blank sheet."""
    import cv2
    import numpy as np

    from printkit.scan.ink import blank_sheet

    gray = blank_sheet(fields.map, fields.paper).gray
    dark = np.zeros(gray.shape, dtype=np.uint8)
    for c in fields.cities:
        x0, y0, x1, y1 = (px(v) for v in c.tag)
        dark[y0:y1 + 1, x0:x1 + 1] = gray[y0:y1 + 1, x0:x1 + 1] < DARK
    near, specks = (cv2.dilate(dark, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (px(r) * 2 + 1,) * 2))
                    for r in (PRONE, SPECK))
    return near, specks


def pen_spread(ink: Image, points: Mapping[str, tuple[Sample, ...]], drawn: Collection[str]) -> dict[str, float]:
    """How far the pen put ink from each drawn route's line (points), where ROUTE_SPREAD lone samples show it."""
    import numpy as np

    offsets = np.arange(-BAND, BAND + 1e-9, 0.4)
    out: dict[str, float] = {}
    for rid in drawn:
        lone = [s for s in points[rid] if s.alone and not s.prone]
        if len(lone) < ROUTE_SPREAD:
            continue
        at = np.array([s.at for s in lone])[:, None, :] + offsets[None, :, None] * np.array([s.normal for s in lone])[:, None, :]
        cols = np.clip(np.floor(at[..., 0] * SCALE).astype(int), 0, ink.shape[1] - 1)
        rows = np.clip(np.floor(at[..., 1] * SCALE).astype(int), 0, ink.shape[0] - 1)
        far = float(np.abs(np.where(ink[rows, cols] > 0, offsets[None, :], 0.0)).max())
        if far < BAND - 0.5:
            out[rid] = far
    return out


@dataclass(frozen=True)
class RouteInk:
    """A route's samples, and which of them carry ink on the line (``inked``) or near it (``wide``)."""

    samples: tuple[Sample, ...]
    inked: tuple[bool, ...]
    wide: tuple[bool, ...]
    clean: tuple[bool, ...]
    """Per sample: ink on the line farther than SPECK from a tag's print (only looked at on prone samples)."""
    reaches: Mapping[str, float]
    """Points, per drawn route whose spread is measured: how far its ink reaches a sample (else NEIGHBOUR_REACH)."""

    def fits(self, drawn: Collection[str], starred: Collection[str], me: str) -> bool:
        """Whether the ink agrees with this route drawn (``me`` in ``drawn``) or not, given the others drawn.

        Samples prone to specks count only as ink beyond SPECK of the print
        (``clean``), and only against the route being not drawn.
        """
        seen = [(s, on, near) for s, on, near in zip(self.samples, self.inked, self.wide) if not s.prone]
        if me in drawn:
            return not seen or sum(1 for _, _, near in seen if near) >= SHORT_DRAWN * len(seen)

        def unexplained(s: Sample) -> bool:
            return not any(o in drawn and d <= self.reaches.get(o, NEIGHBOUR_REACH) for o, d in s.routes) \
                and not (s.stars & set(starred))

        alone = sum(1 for s, on, _ in seen if on and unexplained(s))
        strokes = sum(1 for s, on in zip(self.samples, self.clean) if s.prone and on and unexplained(s))
        return alone <= (LONG_EMPTY if len(seen) >= LONG else SHORT_EMPTY) * len(seen) and strokes < PRONE_HITS


def route_ink(ink: Image, fields: Fields, routes: Collection[str], drawn: Collection[str],
              scanned: bool) -> dict[str, RouteInk]:
    """The ink on each of ``routes`` (ids), sample by sample; ``drawn``: the routes read as drawn (the pen's spread).

    With the pen's spread measured on the routes read as drawn, a sample
    counts as inked only with ink within the widest of them of it, and a
    drawn neighbour whose own spread is measured reaches it from that spread
    plus this one: a steady pen leaves routes close together apart.
    """
    import cv2

    if not routes:
        return {}
    points = route_points(fields, scanned)
    spread = pen_spread(ink, points, drawn)
    own = min(SHORT_REACH, max(MIN_REACH, max(spread.values()) + SPREAD_MARGIN)) if spread else SHORT_REACH
    reaches = {rid: min(NEIGHBOUR_REACH, far + SPREAD_MARGIN + own) for rid, far in spread.items()}
    away = cv2.distanceTransform((ink == 0).astype("uint8"), cv2.DIST_L2, 5)
    prone = scanned and any(s.prone for rid in routes for s in points[rid])
    clean = cv2.distanceTransform(((ink == 0) | (tag_print(fields)[1] > 0)).astype("uint8"), cv2.DIST_L2, 5) \
        if prone else away
    out: dict[str, RouteInk] = {}
    for rid in routes:
        samples = points[rid]
        cells = [(px(y), px(x)) for x, y in (s.at for s in samples)]
        gaps = [float(away[c]) / SCALE for c in cells]
        out[rid] = RouteInk(samples, tuple(g <= own for g in gaps), tuple(g <= ROUTE_REACH for g in gaps),
                            tuple(float(clean[c]) / SCALE <= own for c in cells), reaches)
    return out
