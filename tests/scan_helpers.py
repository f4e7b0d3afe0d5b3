"""Filled-in, photographed sheets for the scan tests (rendered once per map, paper and names)."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import scan_simulate as sim
from scan_degrade import Capture, capture

from printkit import registry
from printkit.backends.png import render_png_page
from printkit.layout.primitives import Document
from printkit.loading.maps import load_map
from printkit.loading.records.atw import player_table
from printkit.scan.images import PageSource, decode_image
from printkit.scan.read import ROUTE_REACH, route_samples, seg_dist
from printkit.scan.sheet import SheetRead, read_sheet
from printkit.sheets.fields import Fields

DPI = 150
GENTLE = Capture(dpi=150, rotation=3.0, tilt=8.0, blur=0.5, light=0.25, shadow=0.2, noise=3.0, jpeg=75)


@lru_cache(maxsize=None)
def sheets(map_id: str, paper: str, names: tuple[str, ...]) -> tuple[Document, Fields]:
    sheet = registry.build_sheet("map", map_id, list(names), paper)
    assert sheet.geometry is not None
    return sheet.document, sheet.geometry.fields


@lru_cache(maxsize=None)
def page_png(map_id: str, paper: str, names: tuple[str, ...], index: int) -> bytes:
    return render_png_page(sheets(map_id, paper, names)[0], index, dpi=DPI)


def near(p: tuple[float, float], line: tuple[tuple[float, float], ...]) -> bool:
    """Whether ``p`` lies within twice the scan's route reach of a route's line (straight or curved)."""
    return any(seg_dist(*p, a, b) <= 2 * ROUTE_REACH for a, b in zip(line, line[1:]))


def crowded(fields: Fields) -> frozenset[str]:
    """Cities at either end of a route drawn too short, or all along another route, to read well,
    and the routes that cross them.

    Issue 10's displacement moves such cities apart; until then the round
    trips keep away from them (tests/test_scan.py shows they are flagged).
    """
    def hidden(rid: str) -> bool:
        points, short = route_samples(fields)[rid]
        others = [r.points for r in fields.routes if r.id != rid]
        return short or all(any(near(p, o) for o in others) for p in points)

    bad = [r for r in fields.routes if hidden(r.id)]
    crossing = {o.id for o in fields.routes for r in bad
                if any(near(p, o.points) for p in route_samples(fields)[r.id][0])}
    return frozenset(c for r in bad for c in (r.a, r.b)) | crossing


@lru_cache(maxsize=64)
def photo(map_id: str, paper: str, names: tuple[str, ...], index: int, filled: sim.Filled, seed: int = 0,
          pen: sim.Pen = sim.Pen("blue", 0.6, 0.8), shot: Capture = GENTLE, halfway: tuple[str, ...] = ()) -> bytes:
    """Page ``index`` filled in with ``pen`` and captured as ``shot``: the encoded file (made once per process for
    the same arguments: several tests read the same photo).

    Each route in ``halfway`` is drawn from its first city to its middle only (a line the player broke off).
    """
    image = sim.render_page(page_png(map_id, paper, names, index))
    fields = sheets(map_id, paper, names)[1]
    rng = random.Random(seed)
    sim.fill(image, DPI / 72, fields, filled, pen, rng)
    for route in (r for r in fields.routes if r.id in halfway):  # its first half, along its line
        pts = route.points if len(route.points) > 2 else (route.points[0], (
            (route.points[0][0] + route.points[1][0]) / 2, (route.points[0][1] + route.points[1][1]) / 2))
        sim.Sheet(image, DPI / 72, pen, rng).route(pts[:len(pts) // 2 + 1] if len(pts) > 2 else pts)
    return capture(image, DPI, shot, random.Random(seed + 1))


def game(map_id: str, paper: str, names: tuple[str, ...], seed: int) -> list[tuple[sim.Filled, dict[str, Any]]]:
    """A random legal sheet per player, away from the crowded cities whose short routes cannot be told apart."""
    rng = random.Random(seed)
    fields = sheets(map_id, paper, names)[1]
    return [sim.random_game(load_map(map_id), fields, rng, crowded(fields)) for _ in names]


def truth_doc(map_id: str, names: tuple[str, ...], truths: list[dict[str, Any]]) -> dict[str, Any]:
    """The game file the sheets should read as."""
    m = load_map(map_id)
    players = [player_table(m, n, t["souvenirs"], t[m.explore_key], route=t["route"]) for n, t in zip(names, truths)]
    return {"map": map_id, "players": players}


@lru_cache(maxsize=None)
def pack_pages(map_id: str, paper: str, names: tuple[str, ...], dpi: int) -> tuple[tuple[bytes, int, int, int], ...]:
    """Every page of a pack rendered at once (one PDF, rasterised)."""
    from printkit.backends.pdf import render_pdf
    from printkit.backends.png import rasterise

    return tuple(rasterise(render_pdf(sheets(map_id, paper, names)[0]), dpi, rgb=False))


def pack_photo(map_id: str, paper: str, names: tuple[str, ...], index: int, filled: sim.Filled, seed: int,
               shot: Capture) -> bytes:
    """Like :func:`photo`, page ``index`` of a whole pack rendered at the capture's resolution."""
    from printkit.scan.images import raw_image

    image = raw_image(*pack_pages(map_id, paper, names, shot.dpi)[index])
    sim.fill(image, shot.dpi / 72, sheets(map_id, paper, names)[1], filled, sim.Pen("black", 0.5, 0.6), random.Random(seed))
    return capture(image, shot.dpi, shot, random.Random(seed + 1))


def read(data: bytes) -> SheetRead:
    """A photo's sheet as ``printkit scan`` reads it."""
    image = decode_image(data)
    assert image is not None
    return read_sheet(image, PageSource(Path("photo.jpg")))


def wrong_but_sure(s: SheetRead, filled: sim.Filled) -> list[str]:
    """The boxes and routes read sure of themselves, and wrong."""
    boxes = [b for b, r in s.boxes.items() if r.certain and r.on != (b in filled.boxes)]
    routes = [rid for rid, r in s.routes.items() if r.certain and r.on != (rid in filled.routes)]
    return boxes + routes
