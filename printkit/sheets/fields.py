"""What a sheet's first page holds where: cities, routes and write-in boxes, in points.

The map sheet builder records these as it draws (one :class:`Fields` per
sheet), so the geometry is the drawing's own, never worked out again. All
coordinates are PDF points, origin at the page's top-left, y downwards, like
:mod:`printkit.layout.primitives`. :func:`dumps` gives the ``--fields`` JSON.

The ``layout`` version is ``SCHEME`` plus a hash of the geometry itself, so it
changes whenever anything a scanner reads moves, and stays the same when
only ink that carries no field changes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

SCHEME = "1"
"""The version of the field JSON's shape; the first part of every layout version."""
FIELDS_META = "fields"
"""The key of a Document's ``meta`` under which a builder records its :func:`dumps` text."""

Pt = tuple[float, float]
Rect4 = tuple[float, float, float, float]
"""x0, y0, x1, y1 (top-left, bottom-right)."""


class CityField(NamedTuple):
    """A city's circle (centre, radius) and the tag holding its name and icons."""

    id: str
    center: Pt
    radius: float
    tag: Rect4


class RouteField(NamedTuple):
    """A route's line, city ``a`` to city ``b``."""

    a: str
    b: str
    points: tuple[Pt, ...]

    @property
    def id(self) -> str:
        """``<a>-<b>`` in the map's order (a <= b)."""
        return f"{self.a}-{self.b}"


class BoxField(NamedTuple):
    """A write-in or tick box, named by the game file's key (``souvenirs.hats.1``)."""

    id: str
    rect: Rect4


class Fields(NamedTuple):
    """The geometry of one sheet's first page."""

    kind: str
    map: str
    paper: str
    width: float
    height: float
    cities: tuple[CityField, ...] = ()
    routes: tuple[RouteField, ...] = ()
    boxes: tuple[BoxField, ...] = ()

    @property
    def layout(self) -> str:
        """``SCHEME.<hash>``: changes whenever the geometry does."""
        import hashlib  # here: only making a layout needs it (it loads OpenSSL, about 2 ms)
        import json

        body = json.dumps(_geometry(self), sort_keys=True, separators=(",", ":"))
        return f"{SCHEME}.{hashlib.sha256(body.encode()).hexdigest()[:16]}"

    def city(self, city_id: str) -> CityField:
        """The city with this id (KeyError if absent)."""
        for c in self.cities:
            if c.id == city_id:
                return c
        raise KeyError(city_id)


def _r(v: float) -> float:
    return round(v, 2)


def _pt(p: Pt) -> list[float]:
    return [_r(p[0]), _r(p[1])]


def _rect(r: Rect4) -> list[float]:
    return [_r(v) for v in r]


def _geometry(f: Fields) -> dict[str, object]:
    return {
        "size": [_r(f.width), _r(f.height)],
        "cities": [{"id": c.id, "center": _pt(c.center), "radius": _r(c.radius), "tag": _rect(c.tag)}
                   for c in f.cities],
        "routes": [{"id": r.id, "cities": [r.a, r.b], "points": [_pt(p) for p in r.points]} for r in f.routes],
        "boxes": [{"id": b.id, "rect": _rect(b.rect)} for b in f.boxes],
    }


def to_json(f: Fields) -> dict[str, object]:
    """The field description as JSON-ready data (coordinates rounded to 0.01 pt)."""
    g = _geometry(f)
    sheet = {"kind": f.kind, "map": f.map, "paper": f.paper, "width": _r(f.width), "height": _r(f.height),
             "layout": f.layout}
    return {"sheet": sheet, "cities": g["cities"], "routes": g["routes"], "boxes": g["boxes"]}


def dumps(f: Fields) -> str:
    """The ``--fields`` JSON text (stable key order, one trailing newline)."""
    import json  # here: a render from the cache has the text already

    return json.dumps(to_json(f), indent=1, ensure_ascii=False) + "\n"


def _pair(v: Any) -> Pt:
    return (float(v[0]), float(v[1]))


def _four(v: Any) -> Rect4:
    return (float(v[0]), float(v[1]), float(v[2]), float(v[3]))


def loads(data: str) -> Fields:
    """A :class:`Fields` from :func:`dumps` text (coordinates as rounded there)."""
    import json

    doc = json.loads(data)
    sheet = doc["sheet"]
    return Fields(
        str(sheet["kind"]), str(sheet["map"]), str(sheet["paper"]), float(sheet["width"]), float(sheet["height"]),
        tuple(CityField(str(c["id"]), _pair(c["center"]), float(c["radius"]), _four(c["tag"])) for c in doc["cities"]),
        tuple(RouteField(str(r["cities"][0]), str(r["cities"][1]), tuple(_pair(p) for p in r["points"]))
              for r in doc["routes"]),
        tuple(BoxField(str(b["id"]), _four(b["rect"])) for b in doc["boxes"]),
    )
