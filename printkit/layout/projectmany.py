"""Many points projected in one pass, exactly as :func:`printkit.layout.geo.project` projects each one.

A map's land is thousands of points (Europe's about 14,700); projecting them one call at a time
spent most of the time in calls. The arithmetic here is :mod:`printkit.layout.geo`'s, term for
term in the same order, with what does not change between points worked out once, so every
float is the same (tests/test_geo.py compares them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from printkit.layout.geo import _NE_A, _NE_B, Pt, _pairs, _within, _wrap, project
from printkit.model.maps import Projection

if TYPE_CHECKING:
    from printkit.layout.geo import MapFrame


def _natural_earth(pairs: Sequence[Pt], center_lon: float) -> list[Pt]:
    a0, a1, a2, a3, a4 = _NE_A
    b0, b1, b2, b3, b4 = _NE_B
    rad = math.radians
    out: list[Pt] = []
    for lon, lat in pairs:
        d = lon - center_lon
        lam = rad(d if -180.0 <= d <= 180.0 else _wrap(d))
        phi = rad(lat)
        p2 = phi * phi
        p4 = p2 * p2
        out.append((lam * (a0 + p2 * (a1 + p2 * (a2 + p4 * p2 * (a3 + p2 * a4)))),
                    phi * (b0 + p2 * (b1 + p4 * (b2 + b3 * p2 + b4 * p4)))))
    return out


def _albers(pairs: Sequence[Pt], p: Projection) -> list[Pt] | None:
    phi1, phi2 = (math.radians(v) for v in p.parallels)
    n = (math.sin(phi1) + math.sin(phi2)) / 2
    if abs(n) < 1e-12:
        return None  # geo.project says why
    two_n = 2 * n
    c = math.cos(phi1) ** 2 + two_n * math.sin(phi1)
    rho0 = math.sqrt(max(0.0, c - two_n * math.sin(math.radians(p.center_lat)))) / n
    rad, sin, cos, sqrt = math.radians, math.sin, math.cos, math.sqrt
    out: list[Pt] = []
    for lon, lat in pairs:
        d = lon - p.center_lon
        rho = sqrt(max(0.0, c - two_n * sin(rad(lat)))) / n
        theta = n * rad(d if -180.0 <= d <= 180.0 else _wrap(d))
        out.append((rho * sin(theta), rho0 - rho * cos(theta)))
    return out


def _laea(pairs: Sequence[Pt], p: Projection) -> list[Pt]:
    phi1 = math.radians(p.center_lat)
    sp1, cp1 = math.sin(phi1), math.cos(phi1)
    rad, sin, cos, sqrt = math.radians, math.sin, math.cos, math.sqrt
    out: list[Pt] = []
    for lon, lat in pairs:
        d = lon - p.center_lon
        phi = rad(lat)
        dlam = rad(d if -180.0 <= d <= 180.0 else _wrap(d))
        sphi, cphi, cdl = sin(phi), cos(phi), cos(dlam)
        k = sqrt(2 / max(1e-12, 1 + (sp1 * sphi + cp1 * cphi * cdl)))
        out.append((k * cphi * sin(dlam), k * (cp1 * sphi - sp1 * cphi * cdl)))
    return out


def project_all(p: Projection, pairs: Sequence[Pt]) -> list[Pt]:
    """``geo.project(p, lat, lon)`` of every (lon, lat) in ``pairs``, in one pass."""
    found: list[Pt] | None = None
    if p.name == "natural-earth":
        found = _natural_earth(pairs, p.center_lon)
    elif p.name == "albers":
        found = _albers(pairs, p)
    elif p.name == "laea":
        found = _laea(pairs, p)
    return found if found is not None else [project(p, lat, lon) for lon, lat in pairs]


def ring_points(frame: MapFrame, ring: Sequence[float]) -> list[Pt]:
    """``frame.point(lat, lon)`` of every (lon, lat) of a flat outline ring (in an inset where it has one)."""
    pairs = _pairs(ring)
    ox, oy, scale = frame._ox, frame._oy, frame.scale  # noqa: SLF001 - MapFrame.point's own transform
    pts = [(ox + x * scale, oy - y * scale) for x, y in project_all(frame.projection, pairs)]
    if frame.insets:
        for i, (lon, lat) in enumerate(pairs):
            if any(_within(lon, lat, bounds) for bounds, _ in frame.insets):
                pts[i] = frame.point(lat, lon)
    return pts
