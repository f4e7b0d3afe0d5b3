"""Print each map sheet's routes with the shortest exclusive stretch (see printkit/sheets/stretch.py).

    python tools/route_stretch.py [--worst 15] [--maps world,us] [--papers a4,letter]

A route's exclusive stretch is the length of its line more than 10 pt beyond
both end circles and more than 6 pt from every other route and circle: what a
person draws over without touching anything else, and what the scanner reads.
"""

from __future__ import annotations

import argparse
import sys

from printkit.loading.maps import load_map
from printkit.sheets.mapsheet import compose
from printkit.sheets.stretch import exclusive_stretches

MAPS = ("world", "us", "europe", "south-america")
PAPERS = ("a4", "letter")


def table(map_id: str, paper: str, worst: int) -> list[str]:
    """The ``worst`` routes of one sheet, shortest stretch first, one line each."""
    m = load_map(map_id)
    names = {c.id: c.name for c in m.cities}
    fields = compose(m, paper).fields
    stretch = exclusive_stretches(fields)
    shortest = sorted(fields.routes, key=lambda r: (stretch[r.id], r.id))[:worst]
    lines = [f"{map_id} {paper}: least {stretch[shortest[0].id]:.1f} pt, "
             f"{sum(1 for v in stretch.values() if v < 12.0)} of {len(stretch)} routes under 12 pt"]
    lines += [f"  {stretch[r.id]:6.1f}  {names[r.a]} - {names[r.b]}" for r in shortest]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the table for every map and paper asked for."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worst", type=int, default=15, help="routes per sheet (default 15)")
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--papers", default=",".join(PAPERS))
    args = ap.parse_args(argv)
    for map_id in args.maps.split(","):
        for paper in args.papers.split(","):
            print("\n".join(table(map_id, paper, args.worst)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
