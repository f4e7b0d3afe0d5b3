"""What a sheet's first page holds where: cities, routes and write-in boxes, in points.

The map sheet builder records these as it draws (one :class:`Fields` per
sheet), so the geometry is the drawing's own, never worked out again. All
coordinates are PDF points, origin at the page's top-left, y downwards, like
:mod:`printkit.layout.primitives`. A built sheet carries its :class:`Geometry`
(its fields as the ``--fields`` JSON gives them, its layout version and the
scan's marks); :func:`dumps` is the one writer of that JSON.

The ``layout`` version is ``SCHEME`` plus a hash of the geometry itself, so it
changes whenever anything a scanner reads moves, and stays the same when
only ink that carries no field changes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

SCHEME = "1"
"""The version of the field JSON's shape; the first part of every layout version."""

Pt = tuple[float, float]
Rect4 = tuple[float, float, float, float]
"""x0, y0, x1, y1 (top-left, bottom-right)."""


class CityField(NamedTuple):
    """A city's circle (centre, radius), the tag holding its name and icons, and where each of those is."""

    id: str
    center: Pt
    radius: float
    tag: Rect4
    name: Rect4 | None = None
    """The printed name's box (advance width by ascent + descent)."""
    icons: tuple[Rect4, ...] = ()
    """Each sight/animal icon's (or an iconic city's gold star's) box, left to right."""


class RouteField(NamedTuple):
    """A route's line, city ``a`` to city ``b``."""

    a: str
    b: str
    points: tuple[Pt, ...]

    @property
    def id(self) -> str:
        """``<a>-<b>`` in the map's order (a <= b)."""
        return f"{self.a}-{self.b}"


class RegionField(NamedTuple):
    """A region drawn on the map: the area holding exactly its cities, and where its name is printed."""

    id: str
    name: str
    cities: tuple[str, ...]
    area: tuple[Pt, ...]
    """A closed polygon (the last point joins the first) holding exactly this region's city centres."""
    label: Rect4
    """The printed name's box, inside ``area``."""


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
    regions: tuple[RegionField, ...] = ()

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


def _city(c: CityField) -> dict[str, object]:
    out: dict[str, object] = {"id": c.id, "center": _pt(c.center), "radius": _r(c.radius), "tag": _rect(c.tag)}
    if c.name is not None:
        out["name"] = _rect(c.name)
        out["icons"] = [_rect(i) for i in c.icons]
    return out


def _geometry(f: Fields) -> dict[str, object]:
    out: dict[str, object] = {
        "size": [_r(f.width), _r(f.height)],
        "cities": [_city(c) for c in f.cities],
        "routes": [{"id": r.id, "cities": [r.a, r.b], "points": [_pt(p) for p in r.points]} for r in f.routes],
        "boxes": [{"id": b.id, "rect": _rect(b.rect)} for b in f.boxes],
    }
    if f.regions:
        out["regions"] = [{"id": g.id, "name": g.name, "cities": list(g.cities), "area": [_pt(p) for p in g.area],
                           "label": _rect(g.label)} for g in f.regions]
    return out


class Marker(NamedTuple):
    """A corner marker the scan finds the page by: its ArUco id and where it is printed."""

    id: int
    rect: Rect4


class Geometry(NamedTuple):
    """What a sheet's ``--fields`` JSON holds: its fields, its layout version, the scan's marks, the Start line.

    ``start`` is the write-in line beside "Start:" (the fillable sheet's
    ``start`` text field), kept apart from ``fields`` so the layout version
    does not change with it. ``fields`` has its coordinates rounded to 0.01 pt as the JSON gives them
    (what a scan reads and a form field is placed by). Plain data: kept on
    disk with a cached layout.
    """

    fields: Fields
    layout: str
    markers: tuple[Marker, ...] = ()
    qr: Rect4 | None = None
    start: Rect4 | None = None


def rounded(f: Fields) -> Fields:
    """``f`` with every coordinate rounded to 0.01 pt, as the ``--fields`` JSON writes it."""
    return f._replace(
        width=_r(f.width), height=_r(f.height),
        cities=tuple(CityField(c.id, (_r(c.center[0]), _r(c.center[1])), _r(c.radius), _round4(c.tag),
                               None if c.name is None else _round4(c.name), tuple(_round4(i) for i in c.icons))
                     for c in f.cities),
        routes=tuple(RouteField(r.a, r.b, tuple((_r(x), _r(y)) for x, y in r.points)) for r in f.routes),
        boxes=tuple(BoxField(b.id, _round4(b.rect)) for b in f.boxes),
        regions=tuple(g._replace(area=tuple((_r(x), _r(y)) for x, y in g.area), label=_round4(g.label))
                      for g in f.regions),
    )


def _round4(r: Rect4) -> Rect4:
    return (_r(r[0]), _r(r[1]), _r(r[2]), _r(r[3]))


def to_json(g: Geometry) -> dict[str, object]:
    """The ``--fields`` JSON as data: sheet, cities, routes, boxes, then markers, QR code and Start line if it has them."""
    f = g.fields
    parts = _geometry(f)
    sheet = {"kind": f.kind, "map": f.map, "paper": f.paper, "width": _r(f.width), "height": _r(f.height),
             "layout": g.layout}
    doc: dict[str, object] = {"sheet": sheet, "cities": parts["cities"], "routes": parts["routes"],
                              "boxes": parts["boxes"]}
    if "regions" in parts:
        doc["regions"] = parts["regions"]
    if g.markers:
        doc["markers"] = [{"id": k.id, "rect": _rect(k.rect)} for k in g.markers]
    if g.qr is not None:
        doc["qr"] = {"rect": _rect(g.qr)}
    if g.start is not None:
        doc["start"] = {"rect": _rect(g.start)}
    return doc


def dumps(g: Geometry) -> str:
    """The ``--fields`` JSON text (stable key order, one trailing newline): the one writer of that file."""
    import json  # here: only --fields needs it

    return json.dumps(to_json(g), indent=1, ensure_ascii=False) + "\n"


def _pair(v: Any) -> Pt:
    return (float(v[0]), float(v[1]))


def _four(v: Any) -> Rect4:
    return (float(v[0]), float(v[1]), float(v[2]), float(v[3]))


def loads(data: str) -> Geometry:
    """The :class:`Geometry` a ``--fields`` file holds (:func:`dumps` text)."""
    import json

    doc = json.loads(data)
    sheet = doc["sheet"]
    fields = Fields(
        str(sheet["kind"]), str(sheet["map"]), str(sheet["paper"]), float(sheet["width"]), float(sheet["height"]),
        tuple(CityField(str(c["id"]), _pair(c["center"]), float(c["radius"]), _four(c["tag"]),
                        _four(c["name"]) if "name" in c else None, tuple(_four(i) for i in c.get("icons", ())))
              for c in doc["cities"]),
        tuple(RouteField(str(r["cities"][0]), str(r["cities"][1]), tuple(_pair(p) for p in r["points"]))
              for r in doc["routes"]),
        tuple(BoxField(str(b["id"]), _four(b["rect"])) for b in doc["boxes"]),
        tuple(RegionField(str(g["id"]), str(g["name"]), tuple(str(c) for c in g["cities"]),
                          tuple(_pair(p) for p in g["area"]), _four(g["label"])) for g in doc.get("regions", ())),
    )
    markers = tuple(Marker(int(k["id"]), _four(k["rect"])) for k in doc.get("markers", ()))
    qr = _four(doc["qr"]["rect"]) if "qr" in doc else None
    start = _four(doc["start"]["rect"]) if "start" in doc else None
    return Geometry(fields, str(sheet["layout"]), markers, qr, start)
