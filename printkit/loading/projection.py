"""Read a map file's ``[projection]`` table (with its insets) into a :class:`model.Projection`.

Problems are recorded on the :class:`Reader` as ``<file>: projection.<field>: <message>``.
"""

from __future__ import annotations

from typing import Any

from printkit.loading.fields import Reader
from printkit.model import maps as model

PROJECTION_KEYS = ("name", "center_lon", "center_lat", "parallels", "bounds", "outline", "insets")
PROJECTIONS = ("natural-earth", "albers", "laea")
INSET_KEYS = ("name", "bounds", "box")

Quad = tuple[float, float, float, float]


def read_projection(rd: Reader, doc: dict[str, Any]) -> model.Projection | None:
    """The map's projection, or None when absent or invalid (problems recorded)."""
    t = rd.table(doc, "projection", "", required=False)
    if t is None:
        return None
    rd.keys(t, "projection", PROJECTION_KEYS)
    before = len(rd.problems)
    name = rd.string(t, "name", "projection")
    if name is not None and name not in PROJECTIONS:
        rd.problem("projection.name", f"{name!r} is not a projection (expected one of: {', '.join(PROJECTIONS)})")
    center_lon = rd.number(t, "center_lon", "projection", required=False)
    center_lat = rd.number(t, "center_lat", "projection", required=False)
    parallels = rd.numbers(t, "parallels", "projection", 2)
    bounds = _bounds(rd, t, "projection")
    outline = rd.string(t, "outline", "projection", required=False)
    insets = _insets(rd, t) if "insets" in t else ()
    if len(rd.problems) > before:
        return None
    default = model.Projection(name="natural-earth")
    return model.Projection(
        name=name,  # type: ignore[arg-type]  # checked against PROJECTIONS above
        center_lon=default.center_lon if center_lon is None else center_lon,
        center_lat=default.center_lat if center_lat is None else center_lat,
        parallels=default.parallels if parallels is None else (parallels[0], parallels[1]),
        bounds=default.bounds if bounds is None else bounds,
        outline=outline or default.outline,
        insets=insets,
    )


def _bounds(rd: Reader, t: dict[str, Any], path: str, required: bool = False) -> Quad | None:
    """``[lon_min, lat_min, lon_max, lat_max]`` with min < max, within -180..180 / -90..90."""
    if required and "bounds" not in t:
        rd.problem(f"{path}.bounds", "missing (expected [lon_min, lat_min, lon_max, lat_max])")
        return None
    b = rd.numbers(t, "bounds", path, 4)
    if b is None:
        return None
    if not (b[0] < b[2] and b[1] < b[3]):
        rd.problem(f"{path}.bounds", "expected [lon_min, lat_min, lon_max, lat_max] with min < max")
        return None
    if not (-180 <= b[0] and b[2] <= 180 and -90 <= b[1] and b[3] <= 90):
        rd.problem(f"{path}.bounds", "longitudes must be within -180..180 and latitudes within -90..90")
        return None
    return b[0], b[1], b[2], b[3]


def _box(rd: Reader, t: dict[str, Any], path: str) -> Quad | None:
    """``[x, y, w, h]`` as fractions of the map box (y down): w, h > 0 and the box inside 0..1."""
    if "box" not in t:
        rd.problem(f"{path}.box", "missing (expected [x, y, w, h] as fractions of the map box)")
        return None
    b = rd.numbers(t, "box", path, 4)
    if b is None:
        return None
    x, y, w, h = b
    if w <= 0 or h <= 0:
        rd.problem(f"{path}.box", f"width and height must be more than 0, got {w:g} x {h:g}")
        return None
    if x < 0 or y < 0 or x + w > 1 or y + h > 1:
        rd.problem(
            f"{path}.box",
            f"must lie inside the map box (0..1 each way), got x {x:g}..{x + w:g}, y {y:g}..{y + h:g}",
        )
        return None
    return x, y, w, h


def _overlap(a: Quad, b: Quad) -> bool:
    """Whether two (x0, y0, x1, y1) rectangles share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _insets(rd: Reader, t: dict[str, Any]) -> tuple[model.Inset, ...]:
    """The ``projection.insets`` list: each ``{ name = "...", bounds = [...], box = [...] }``, none overlapping."""
    out: list[tuple[str, model.Inset]] = []
    for path, it in rd.tables(t, "insets", "projection"):
        rd.keys(it, path, INSET_KEYS)
        bounds = _bounds(rd, it, path, required=True)
        box = _box(rd, it, path)
        name = rd.string(it, "name", path, required=False) or ""
        if bounds is None or box is None:
            continue
        for other_path, other in out:
            if _overlap(bounds, other.bounds):
                rd.problem(f"{path}.bounds", f"overlaps {other_path}.bounds (a place can be in only one inset)")
            ox, oy, ow, oh = other.box
            if _overlap((box[0], box[1], box[0] + box[2], box[1] + box[3]), (ox, oy, ox + ow, oy + oh)):
                rd.problem(f"{path}.box", f"overlaps {other_path}.box")
        out.append((path, model.Inset(bounds=bounds, box=box, name=name)))
    return tuple(i for _, i in out)
