"""Black-and-white first: on a halftoned 1-bit render of each map sheet every route still shows as dashes."""

from __future__ import annotations

import io
import math
from functools import lru_cache

import pytest

from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import mapsheet
from printkit.sheets.fields import Fields

DPI = 150
PX = DPI / 72
BAYER = ((0, 8, 2, 10), (12, 4, 14, 6), (3, 11, 1, 9), (15, 7, 13, 5))
"""A 4x4 ordered dither: how a halftoning laser printer turns grey into dots."""
CLEAR = 0.75


@lru_cache(maxsize=None)
def mono(map_id: str, paper: str) -> tuple[object, Fields]:
    """The sheet rendered at 150 dpi in grey, dithered to 1 bit (True = black), and its fields."""
    import numpy as np
    from PIL import Image

    from printkit.backends import render

    doc = mapsheet.build(load_map(map_id), [], paper)
    png = render(doc, "png")[0]
    grey = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float) / 255.0
    h, w = grey.shape
    tile = (np.array(BAYER, dtype=float) + 0.5) / 16
    threshold = np.tile(tile, (h // 4 + 1, w // 4 + 1))[:h, :w]
    fields = mapsheet.sheet_fields(load_map(map_id), paper)
    return grey < threshold, fields


def runs(samples: list[bool]) -> list[tuple[bool, int]]:
    out: list[tuple[bool, int]] = []
    for s in samples:
        if out and out[-1][0] == s:
            out[-1] = (s, out[-1][1] + 1)
        else:
            out.append((s, 1))
    return out


def visible_stretch(f: Fields, rid: str) -> list[tuple[float, float, float, float]]:
    """Points every 0.25 pt along a route's line (straight or curved), outside every circle and tag (0.75 pt
    clear: the circle's stroke), each with the unit normal of its stretch of line."""
    route = next(r for r in f.routes if r.id == rid)
    pts = []
    for (x0, y0), (x1, y1) in zip(route.points, route.points[1:]):
        length = math.dist((x0, y0), (x1, y1))
        n = max(1, int(length / 0.25))
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        for k in range(n):
            x, y = x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n
            if any(math.dist((x, y), c.center) < c.radius + CLEAR for c in f.cities):
                continue
            if any(c.tag[0] - CLEAR < x < c.tag[2] + CLEAR and c.tag[1] - CLEAR < y < c.tag[3] + CLEAR
                   for c in f.cities):
                continue
            pts.append((x, y, nx, ny))
    return pts


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("map_id", bundled_maps())
def test_every_route_shows_as_dashes_in_one_bit(map_id: str, paper: str) -> None:
    bits, f = mono(map_id, paper)
    for r in f.routes:
        pts = visible_stretch(f, r.id)
        assert len(pts) * 0.25 >= 8 - 2 * CLEAR - 0.5, r.id  # the layout check's 8 pt, less the margins
        samples = [any(bits[int((y + k * 0.45 * ny) * PX), int((x + k * 0.45 * nx) * PX)]  # type: ignore[index]
                       for k in (-1, 0, 1))  # across the line, 0.45 pt either side
                   for x, y, nx, ny in pts]
        black = sum(samples) / len(samples)
        assert 0.45 <= black <= 0.8, (r.id, black)  # 3 pt on, 2 pt off
        pattern = runs(samples)
        inner = pattern[1:-1]  # the ends may be cut by a circle or tag
        assert all(n * 0.25 <= 3.0 for s, n in inner if not s), (r.id, pattern)  # no gap longer than a dash gap
        dashes = [n * 0.25 for s, n in inner if s]
        assert sum(d <= 4.5 for d in dashes) >= 0.8 * len(dashes), (r.id, pattern)  # dashed, not solid
        assert len(dashes) >= len(pts) * 0.25 / 5 * 0.6 - 2, (r.id, pattern)  # a dash every 5 pt seen
