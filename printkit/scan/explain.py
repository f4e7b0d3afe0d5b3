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
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from printkit.scan.read import END_CLEAR, ROUTE_REACH, SHORT_REACH, SHORT_DRAWN, SHORT_EMPTY, seg_dist, visible_samples

if TYPE_CHECKING:
    from printkit.scan.images import Image
    from printkit.sheets.fields import Fields

NEIGHBOUR_REACH = 2 * ROUTE_REACH
"""Points: a drawn route's stroke (hand jitter, pen width) can put ink this far from its own line."""


@dataclass(frozen=True)
class Sample:
    """One point on a route's visible line: the other routes and the cities whose star could ink it."""

    at: tuple[float, float]
    routes: frozenset[str]
    stars: frozenset[str]


@lru_cache(maxsize=16)
def route_points(fields: Fields) -> dict[str, tuple[Sample, ...]]:
    """Each route's visible samples with what else could ink them (worked out once per sheet layout)."""
    out: dict[str, tuple[Sample, ...]] = {}
    for route in fields.routes:
        out[route.id] = tuple(
            Sample(p, frozenset(o.id for o in fields.routes if o.id != route.id
                                and seg_dist(*p, o.points[0], o.points[-1]) <= NEIGHBOUR_REACH),
                   frozenset(c.id for c in fields.cities if math.dist(p, c.center) < c.radius + END_CLEAR))
            for p in visible_samples(route, fields))
    return out


@dataclass(frozen=True)
class RouteInk:
    """A route's samples, and which of them carry ink on the line (``inked``) or near it (``wide``)."""

    samples: tuple[Sample, ...]
    inked: tuple[bool, ...]
    wide: tuple[bool, ...]

    def fits(self, drawn: Collection[str], starred: Collection[str], me: str) -> bool:
        """Whether the ink agrees with this route drawn (``me`` in ``drawn``) or not, given the others drawn."""
        if not self.samples:
            return True
        if me in drawn:
            return sum(self.wide) >= SHORT_DRAWN * len(self.samples)
        alone = sum(1 for s, on in zip(self.samples, self.inked)
                    if on and not (s.routes & set(drawn)) and not (s.stars & set(starred)))
        return alone <= SHORT_EMPTY * len(self.samples)


def route_ink(ink: Image, fields: Fields, routes: Collection[str]) -> dict[str, RouteInk]:
    """The ink on each of ``routes`` (ids), sample by sample."""
    import cv2

    from printkit.scan.read import px

    points = route_points(fields)
    out: dict[str, RouteInk] = {}
    masks = [cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (px(reach) * 2 + 1,) * 2))
             for reach in (SHORT_REACH, ROUTE_REACH)]
    for rid in routes:
        samples = points[rid]
        inked, wide = (tuple(bool(m[px(y), px(x)]) for x, y in (s.at for s in samples)) for m in masks)
        out[rid] = RouteInk(samples, inked, wide)
    return out
