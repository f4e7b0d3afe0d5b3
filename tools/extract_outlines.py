"""Extract simplified land outlines for the map sheets into printkit/assets/geo/.

Source: the TopoJSON files that bqplot's PyPI wheel ships under
bqplot/map_data/ (Natural Earth 1:110m countries and land; US Census states;
Natural Earth countries of Europe). Fetch and unpack the wheel, then run:

    pip download --no-deps bqplot==0.13.1 -d /tmp/bq
    python -m zipfile -e /tmp/bq/bqplot-0.13.1-py2.py3-none-any.whl /tmp/bq/x
    python tools/extract_outlines.py /tmp/bq/x/bqplot/map_data

Each output file is JSON: {"source", "licence", "tolerance_deg", "rings",
"borders"}; "rings" are closed land outlines and "borders" open interior
boundary lines (between states or countries), each a flat list
[lon0, lat0, lon1, lat1, ...] in degrees. Arcs are simplified with
Douglas-Peucker *before* the rings are assembled, so neighbouring shapes keep
sharing exactly the same border. bqplot is not needed at run time.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Pt = tuple[float, float]

# output name -> (input file, object used for land, tolerance in degrees,
#                 smallest ring kept in square degrees, rounding decimals, attribution)
JOBS: dict[str, tuple[str, str, float, float, int, str]] = {
    "world": ("WorldMap.json", "land", 0.08, 0.15, 2,
              "Natural Earth 1:110m land (public domain), via bqplot 0.13.1 map_data/WorldMap.json"),
    "us-states": ("USStatesMap.json", "land", 0.02, 0.01, 3,
                  "US Census Bureau state boundaries (public domain), via bqplot 0.13.1 "
                  "map_data/USStatesMap.json"),
    "europe": ("EuropeMap.json", "subunits", 0.04, 0.03, 3,
               "Natural Earth countries of Europe (public domain), via bqplot 0.13.1 "
               "map_data/EuropeMap.json"),
}


def decode_arcs(topo: dict[str, Any]) -> list[list[Pt]]:
    """Absolute lon/lat points of every arc (undo quantisation and delta encoding)."""
    transform = topo.get("transform")
    arcs: list[list[Pt]] = []
    for arc in topo["arcs"]:
        pts: list[Pt] = []
        if transform:
            (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
            x = y = 0
            for dx, dy in arc:
                x += dx
                y += dy
                pts.append((x * sx + tx, y * sy + ty))
        else:
            pts = [(float(p[0]), float(p[1])) for p in arc]
        arcs.append(pts)
    return arcs


def _perp(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        return math.hypot(p[0] - a[0], p[1] - a[1])
    return abs(dy * p[0] - dx * p[1] + b[0] * a[1] - b[1] * a[0]) / math.hypot(dx, dy)


def douglas_peucker(pts: list[Pt], tol: float) -> list[Pt]:
    """Simplify an open polyline, keeping both ends (iterative, no recursion limit)."""
    if len(pts) < 3:
        return list(pts)
    if pts[0] == pts[-1]:  # closed arc: split at the point farthest from its start
        far = max(range(len(pts)), key=lambda i: math.hypot(pts[i][0] - pts[0][0], pts[i][1] - pts[0][1]))
        if far == 0:
            return [pts[0], pts[-1]]
        return douglas_peucker(pts[: far + 1], tol)[:-1] + douglas_peucker(pts[far:], tol)
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        lo, hi = stack.pop()
        best, idx = 0.0, -1
        for i in range(lo + 1, hi):
            d = _perp(pts[i], pts[lo], pts[hi])
            if d > best:
                best, idx = d, i
        if idx >= 0 and best > tol:
            keep[idx] = True
            stack += [(lo, idx), (idx, hi)]
    return [p for p, k in zip(pts, keep) if k]


def _ring(arc_ids: list[int], arcs: list[list[Pt]]) -> list[Pt]:
    """Stitch arcs (negative id = reversed arc ~id) into one ring."""
    out: list[Pt] = []
    for a in arc_ids:
        pts = arcs[a] if a >= 0 else arcs[~a][::-1]
        out.extend(pts if not out else pts[1:])
    return out


def _area(ring: list[Pt]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


def _polygons(obj: dict[str, Any]) -> list[list[list[int]]]:
    """Every polygon (list of rings of arc ids) of a TopoJSON object."""
    geoms = obj["geometries"] if obj["type"] == "GeometryCollection" else [obj]
    polys: list[list[list[int]]] = []
    for g in geoms:
        if g["type"] == "Polygon":
            polys.append(g["arcs"])
        elif g["type"] == "MultiPolygon":
            polys.extend(g["arcs"])
    return polys


def _arc_uses(obj: dict[str, Any]) -> Counter[int]:
    uses: Counter[int] = Counter()
    for poly in _polygons(obj):
        for ring in poly:
            for a in ring:
                uses[a if a >= 0 else ~a] += 1
    return uses


def _flat(pts: list[Pt], decimals: int) -> list[float]:
    out: list[float] = []
    for x, y in pts:
        out += [round(x, decimals), round(y, decimals)]
    return out


def extract(topo: dict[str, Any], land_object: str, tol: float, min_area: float, decimals: int) -> dict[str, Any]:
    """Simplified land rings and interior borders of one TopoJSON topology."""
    arcs = [douglas_peucker(a, tol) for a in decode_arcs(topo)]
    rings: list[list[float]] = []
    for poly in _polygons(topo["objects"][land_object]):
        for ring_ids in poly:
            ring = _ring(ring_ids, arcs)
            if ring and ring[0] == ring[-1]:
                ring = ring[:-1]
            if len(ring) >= 3 and _area(ring) >= min_area:
                rings.append(_flat(ring, decimals))
    borders: list[list[float]] = []
    subunits = topo["objects"].get("subunits") or topo["objects"].get("states")
    if subunits is not None:
        for arc_id, n in sorted(_arc_uses(subunits).items()):
            if n >= 2 and len(arcs[arc_id]) >= 2:
                borders.append(_flat(arcs[arc_id], decimals))
    return {"rings": rings, "borders": borders}


# Countries the Europe file lacks, taken from the 1:110m world file (names as it spells them).
EUROPE_EXTRA = (
    "Turkey", "Republic of Moldova", "Georgia", "Armenia", "Azerbaijan", "Kazakhstan",
    "Northern Cyprus", "Greenland", "Morocco", "Western Sahara", "Algeria", "Tunisia", "Libya",
    "Egypt", "Mauritania", "Mali", "Niger", "Chad", "Sudan", "Syrian Arab Republic", "Lebanon",
    "Israel", "Occupied Palestinian Territory", "Jordan", "Iraq", "Islamic Republic of Iran",
    "Saudi Arabia", "Kuwait", "Turkmenistan", "Uzbekistan",
)


def extra_countries(world: dict[str, Any], names: Sequence[str], tol: float, decimals: int) -> list[list[float]]:
    """Rings of the world file's countries called ``names``."""
    arcs = [douglas_peucker(a, tol) for a in decode_arcs(world)]
    rings: list[list[float]] = []
    found: set[str] = set()
    for geom in world["objects"]["subunits"]["geometries"]:
        name = geom.get("properties", {}).get("name")
        if name not in names:
            continue
        found.add(name)
        for poly in _polygons(geom):
            for ring in (_ring(ids, arcs) for ids in poly):
                if ring and ring[0] == ring[-1]:
                    ring = ring[:-1]
                if len(ring) >= 3:
                    rings.append(_flat(ring, decimals))
    missing = sorted(set(names) - found)
    if missing:
        raise SystemExit(f"WorldMap.json has no country named {', '.join(missing)}")
    return rings


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map_data", type=Path, help="bqplot/map_data folder of the unpacked wheel")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "printkit/assets/geo")
    args = parser.parse_args(argv)
    for name, (filename, land, tol, min_area, decimals, source) in JOBS.items():
        topo = json.loads((args.map_data / filename).read_text(encoding="utf-8"))
        shapes = extract(topo, land, tol, min_area, decimals)
        if name == "europe":
            world = json.loads((args.map_data / "WorldMap.json").read_text(encoding="utf-8"))
            shapes["rings"] += extra_countries(world, EUROPE_EXTRA, 0.08, 2)
            source += ("; countries it lacks (Turkey, Moldova, North Africa, Middle East) from "
                       "Natural Earth 1:110m, via bqplot 0.13.1 map_data/WorldMap.json")
        doc: dict[str, Any] = {"source": source, "licence": "public domain", "tolerance_deg": tol}
        doc.update(shapes)
        text = json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n"
        (args.out / f"{name}.json").write_text(text, encoding="utf-8")
        points = sum(len(r) // 2 for r in shapes["rings"])
        sys.stdout.write(f"{name}.json: {len(shapes['rings'])} rings, {points} points, "
                         f"{len(shapes['borders'])} borders, {len(text)} bytes\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
