"""Map projections and land outlines, placed in a box on the page.

Projections are written out by hand on the unit sphere (no PROJ needed):
Natural Earth I for the world, Albers equal-area conic for the US and South
America, Lambert azimuthal equal-area for Europe. :class:`MapFrame` fits a
map's lon/lat bounds into a page box (aspect kept, centred) and gives page
points (y down) for cities and an even-odd land :class:`Path` clipped to the
box. Outlines are public-domain data in printkit/assets/geo (see PROVENANCE.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from printkit.errors import DataError
from printkit.layout.primitives import Path, PathCommand, Style
from printkit.model.maps import Inset as Inset  # re-exported: MapFrame's insets are the model's
from printkit.model.maps import Projection
from printkit.resources import asset

Pt = tuple[float, float]
Box4 = tuple[float, float, float, float]
LAND_STYLE = Style(stroke="#6b6b6b", fill="#e4e4e4", width=0.5)
BORDER_STYLE = Style(stroke="#9a9a9a", fill=None, width=0.35)

_NE_A = (0.8707, -0.131979, -0.013791, 0.003971, -0.001529)
_NE_B = (1.007226, 0.015085, -0.044475, 0.028874, -0.005916)


def _wrap(dlon: float) -> float:
    """Longitude difference folded into [-180, 180] (exactly +-180 is kept as given)."""
    while dlon > 180.0:
        dlon -= 360.0
    while dlon < -180.0:
        dlon += 360.0
    return dlon


def natural_earth(lon: float, lat: float, center_lon: float = 0.0) -> Pt:
    """Natural Earth I projection (Šavrič et al. 2011) on the unit sphere; y up."""
    lam = math.radians(_wrap(lon - center_lon))
    phi = math.radians(lat)
    p2 = phi * phi
    p4 = p2 * p2
    a0, a1, a2, a3, a4 = _NE_A
    b0, b1, b2, b3, b4 = _NE_B
    x = lam * (a0 + p2 * (a1 + p2 * (a2 + p4 * p2 * (a3 + p2 * a4))))
    y = phi * (b0 + p2 * (b1 + p4 * (b2 + b3 * p2 + b4 * p4)))
    return x, y


def albers(lon: float, lat: float, center_lon: float, center_lat: float,
           parallels: tuple[float, float]) -> Pt:
    """Albers equal-area conic on the unit sphere (Snyder 14-1..14-4); y up."""
    phi1, phi2 = (math.radians(p) for p in parallels)
    n = (math.sin(phi1) + math.sin(phi2)) / 2
    if abs(n) < 1e-12:
        raise DataError([f"projection.parallels: {list(parallels)} are symmetric about the equator; "
                         "albers needs them on one side"])
    c = math.cos(phi1) ** 2 + 2 * n * math.sin(phi1)
    rho0 = math.sqrt(max(0.0, c - 2 * n * math.sin(math.radians(center_lat)))) / n
    rho = math.sqrt(max(0.0, c - 2 * n * math.sin(math.radians(lat)))) / n
    theta = n * math.radians(_wrap(lon - center_lon))
    return rho * math.sin(theta), rho0 - rho * math.cos(theta)


def laea(lon: float, lat: float, center_lon: float, center_lat: float) -> Pt:
    """Lambert azimuthal equal-area (oblique) on the unit sphere (Snyder 24-2..24-4); y up."""
    phi1 = math.radians(center_lat)
    phi = math.radians(lat)
    dlam = math.radians(_wrap(lon - center_lon))
    cos_c = math.sin(phi1) * math.sin(phi) + math.cos(phi1) * math.cos(phi) * math.cos(dlam)
    k = math.sqrt(2 / max(1e-12, 1 + cos_c))
    x = k * math.cos(phi) * math.sin(dlam)
    y = k * (math.cos(phi1) * math.sin(phi) - math.sin(phi1) * math.cos(phi) * math.cos(dlam))
    return x, y


def project(p: Projection, lat: float, lon: float) -> Pt:
    """Projected (x, y) of a point on the unit sphere, y up."""
    if p.name == "natural-earth":
        return natural_earth(lon, lat, p.center_lon)
    if p.name == "albers":
        return albers(lon, lat, p.center_lon, p.center_lat, p.parallels)
    if p.name == "laea":
        return laea(lon, lat, p.center_lon, p.center_lat)
    raise DataError([f"projection.name: {p.name!r} is not a projection (expected natural-earth, albers, laea)"])


@lru_cache(maxsize=None)
def outline(name: str) -> dict[str, Any]:
    """The bundled outline ``name`` ("world", "us-states", "europe") as parsed JSON."""
    path = asset("geo", f"{name}.json")
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in asset("geo").glob("*.json")))
        raise DataError([f"projection.outline: no bundled outline {name!r} (expected one of: {known})"])
    import json  # here: only laying a map out reads an outline

    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _pairs(flat: Sequence[float]) -> list[Pt]:
    return [(float(flat[i]), float(flat[i + 1])) for i in range(0, len(flat) - 1, 2)]


def on_land(outline_name: str, lat: float, lon: float) -> bool:
    """Whether (lat, lon) lies inside the outline's land (even-odd rule, lon/lat plane)."""
    inside = False
    for ring in outline(outline_name)["rings"]:
        pts = _pairs(ring)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
            if (y0 > lat) != (y1 > lat) and lon < x0 + (lat - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
    return inside


def _clip_edge(pts: list[Pt], axis: int, limit: float, keep_above: bool) -> list[Pt]:
    """One Sutherland–Hodgman pass: keep the side of ``coord[axis] = limit`` asked for."""

    def inside(p: Pt) -> bool:
        return p[axis] >= limit if keep_above else p[axis] <= limit

    def cross(a: Pt, b: Pt) -> Pt:
        t = (limit - a[axis]) / (b[axis] - a[axis])
        other = a[1 - axis] + t * (b[1 - axis] - a[1 - axis])
        return (limit, other) if axis == 0 else (other, limit)

    out: list[Pt] = []
    prev = pts[-1]
    for cur in pts:
        if inside(cur):
            if not inside(prev):
                out.append(cross(prev, cur))
            out.append(cur)
        elif inside(prev):
            out.append(cross(prev, cur))
        prev = cur
    return out


def clip_polygon(pts: Sequence[Pt], box: tuple[float, float, float, float]) -> list[Pt]:
    """Sutherland–Hodgman clip of a closed polygon to box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    out = list(pts)
    for axis, limit, keep_above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        if not out:
            break
        out = _clip_edge(out, axis, limit, keep_above)
    return out


def clip_segment(
    a: Pt, b: Pt, box: tuple[float, float, float, float], strict: bool = False
) -> tuple[Pt, Pt] | None:
    """Liang–Barsky clip of segment a-b to box (x0, y0, x1, y1); None when wholly outside.

    ``strict``: a segment that only touches the box's edge counts as outside.
    """
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0 or (strict and q == 0):
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1 or (strict and t0 == t1):
            return None
    return (a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy)


def _within(lon: float, lat: float, bounds: tuple[float, float, float, float]) -> bool:
    return bounds[0] <= lon <= bounds[2] and bounds[1] <= lat <= bounds[3]


class MapFrame:
    """A projection fitted into the page box (x, y, w, h): bounds kept whole, centred.

    With ``insets`` (default: the projection's own), places inside an inset's bounds are drawn in that inset's box
    at their own scale instead of in the main frame.
    """

    def __init__(self, projection: Projection, x: float, y: float, w: float, h: float,
                 insets: Sequence[Inset] | None = None) -> None:
        if w <= 0 or h <= 0:
            raise ValueError(f"map box must have a positive size, got {w} x {h}")
        self.projection = projection
        self.x, self.y, self.w, self.h = x, y, w, h
        if insets is None:
            insets = projection.insets
        frames: list[tuple[tuple[float, float, float, float], MapFrame]] = []
        for inset in insets:
            b0, b1, b2, b3 = (float(v) for v in inset.bounds)
            fx, fy, fw, fh = (float(v) for v in inset.box)
            sub = projection._replace(bounds=(b0, b1, b2, b3))
            frames.append(((b0, b1, b2, b3), MapFrame(sub, x + fx * w, y + fy * h, fw * w, fh * h, insets=())))
        self.insets = tuple(frames)
        """(lon/lat bounds, frame) of each inset."""
        px0, py0, px1, py1 = self._projected_bounds()
        self.scale = min(w / (px1 - px0), h / (py1 - py0))
        """Page points per projected unit (unit sphere)."""
        self._ox = x + (w - (px1 - px0) * self.scale) / 2 - px0 * self.scale
        self._oy = y + (h - (py1 - py0) * self.scale) / 2 + py1 * self.scale
        self.content = (
            x + (w - (px1 - px0) * self.scale) / 2,
            y + (h - (py1 - py0) * self.scale) / 2,
            (px1 - px0) * self.scale,
            (py1 - py0) * self.scale,
        )
        """(x, y, w, h) of the fitted bounds on the page (inside the box)."""

    def _projected_bounds(self) -> tuple[float, float, float, float]:
        p = self.projection
        lon0, lat0, lon1, lat1 = p.bounds
        steps = 48
        lons = [lon0 + (lon1 - lon0) * i / steps for i in range(steps + 1)]
        lats = [lat0 + (lat1 - lat0) * j / steps for j in range(steps + 1)]
        # the widest parallel (equator) and the centre lines, where extremes sit
        lons += [v for v in (p.center_lon,) if lon0 < v < lon1]
        lats += [v for v in (0.0, p.center_lat) if lat0 < v < lat1]
        xs: list[float] = []
        ys: list[float] = []
        for i, lon in enumerate(lons):
            for j, lat in enumerate(lats):
                on_edge = lon in (lon0, lon1) or lat in (lat0, lat1)
                if on_edge or (i % 8 == 0 and j % 8 == 0):  # edges densely, inside coarsely
                    px, py = project(p, lat, lon)
                    xs.append(px)
                    ys.append(py)
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the page box."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    @property
    def inset_boxes(self) -> tuple[tuple[float, float, float, float], ...]:
        """(x, y, w, h) page boxes of the insets, to frame them on the sheet."""
        return tuple((f.x, f.y, f.w, f.h) for _, f in self.insets)

    @property
    def inset_frames(self) -> tuple[MapFrame, ...]:
        """The insets' own frames (each draws its land and borders in its box)."""
        return tuple(f for _, f in self.insets)

    def point(self, lat: float, lon: float) -> Pt:
        """Page point (y down) of a latitude/longitude (in its inset if it has one)."""
        for bounds, frame in self.insets:
            if _within(lon, lat, bounds):
                return frame.point(lat, lon)
        px, py = project(self.projection, lat, lon)
        return self._ox + px * self.scale, self._oy - py * self.scale

    def _near(self, flat: Sequence[float]) -> bool:
        """Whether a lon/lat shape's bounding box is near the map bounds (skips far shapes)."""
        lons = flat[0::2]
        lats = flat[1::2]
        for bounds, _ in self.insets:  # drawn by the inset instead
            if _within(min(lons), min(lats), bounds) and _within(max(lons), max(lats), bounds):
                return False
        if self.projection.name == "natural-earth":
            return True
        lon0, lat0, lon1, lat1 = self.projection.bounds
        margin = 20.0
        return not (max(lons) < lon0 - margin or min(lons) > lon1 + margin
                    or max(lats) < lat0 - margin or min(lats) > lat1 + margin)

    def _clip_box(self, clip: Box4 | None) -> Box4:
        """(x0, y0, x1, y1) to clip to: ``clip`` given as (x, y, w, h), else the frame's box."""
        if clip is None:
            return self.box
        cx, cy, cw, ch = clip
        if cw <= 0 or ch <= 0:
            raise ValueError(f"clip box must have a positive size, got {cw} x {ch}")
        return (cx, cy, cx + cw, cy + ch)

    def land(self, style: Style = LAND_STYLE, outline_name: str | None = None, *,
             clip: Box4 | None = None, insets: bool = True) -> Path:
        """Land outlines as one even-odd path clipped to the box.

        ``clip`` (x, y, w, h) clips the main frame's land to another page box
        (e.g. a padded frame, so the land runs on to its edge) without moving
        any point; insets always clip to their own boxes. ``insets=False``
        leaves the insets' land out (draw each from :attr:`inset_frames`).
        """
        from printkit.layout.projectmany import ring_points  # each ring projected in one pass

        doc = outline(outline_name or self.projection.outline)
        box = self._clip_box(clip)
        cmds: list[PathCommand] = []
        for ring in doc["rings"]:
            if not self._near(ring):
                continue
            pts = clip_polygon(ring_points(self, ring), box)
            if len(pts) < 3:
                continue
            cmds.append(("M", round(pts[0][0], 2), round(pts[0][1], 2)))
            last = (round(pts[0][0], 2), round(pts[0][1], 2))
            for px, py in pts[1:]:
                here = (round(px, 2), round(py, 2))
                if here != last:
                    cmds.append(("L", *here))
                    last = here
            cmds.append(("Z",))
        for _, frame in self.insets if insets else ():
            cmds.extend(frame.land(style, outline_name).commands)
        return Path(tuple(cmds), style, even_odd=True)

    def borders(self, style: Style = BORDER_STYLE, outline_name: str | None = None, *,
                clip: Box4 | None = None, insets: bool = True) -> Path:
        """Interior borders (states, countries) as open lines clipped to the box (``clip``/``insets`` as land)."""
        doc = outline(outline_name or self.projection.outline)
        box = self._clip_box(clip)
        cmds: list[PathCommand] = []
        for line in doc.get("borders", []):
            if not self._near(line):
                continue
            pts = [self.point(lat, lon) for lon, lat in _pairs(line)]
            pen: Pt | None = None
            for a, b in zip(pts, pts[1:]):
                seg = clip_segment(a, b, box)
                if seg is None:
                    pen = None
                    continue
                s0 = (round(seg[0][0], 2), round(seg[0][1], 2))
                s1 = (round(seg[1][0], 2), round(seg[1][1], 2))
                if pen != s0:
                    cmds.append(("M", *s0))
                cmds.append(("L", *s1))
                pen = s1
        for _, frame in self.insets if insets else ():
            cmds.extend(frame.borders(style, outline_name).commands)
        return Path(tuple(cmds), style)
