"""Sub-pixel alignment: a scan the marker warp leaves up to a point or two off its blank sheet is put back on it."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import pytest
import scan_simulate as sim
from scan_helpers import crowded, sheets

from printkit.backends.png import render_png_page
from printkit.loading.maps import load_map
from printkit.scan import align, locate
from printkit.scan.images import PageSource
from printkit.scan.ink import blank_sheet, ink_mask
from printkit.scan.locate import SCALE
from printkit.scan.sheet import marks_of, read_ink, read_sheet

if TYPE_CHECKING:
    from printkit.scan.images import Image

MAP, PAPER = "europe", "a4"


@lru_cache(maxsize=None)
def filled_page() -> tuple[Image, dict[str, object]]:
    """A Europe sheet filled in by the simulated pen, drawn at SCALE: exactly on the blank, pixel for pixel."""
    doc, fields = sheets(MAP, PAPER, ("Ann",))
    rng = random.Random(4)
    filled, truth = sim.random_game(load_map(MAP), fields, rng, crowded(fields))
    height, width = blank_sheet(MAP, PAPER).gray.shape
    image = sim.render_page(render_png_page(doc, 0, dpi=round(SCALE * 72)))[:height, :width].copy()
    sim.fill(image, SCALE, fields, filled, sim.Pen("black", 0.5, 0.8), rng)
    return image, {**truth, "boxes": set(filled.boxes)}


def off(dx: float, dy: float, turn: float) -> Image:
    """A homography moving the page by (dx, dy) points and turning it ``turn`` degrees about its centre."""
    image, _ = filled_page()
    height, width = image.shape[:2]
    m = cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0)
    m[:, 2] += (dx * SCALE, dy * SCALE)
    return np.vstack([m, [0, 0, 1]])


def worst(h: Image, shape: tuple[int, ...]) -> float:
    """How far (points) ``h`` moves the farthest of a grid of points over the page."""
    grid = np.array([[[x, y] for x in np.linspace(0, shape[1], 9) for y in np.linspace(0, shape[0], 7)]])
    return float(np.hypot(*(cv2.perspectiveTransform(grid, h) - grid)[0].T).max()) / SCALE


def read_warped(warped: Image, truth: dict[str, object]) -> tuple[bool, int]:
    """(the marks and routes read as drawn, the number of unsure reads) of a sheet warped onto the page."""
    blank = blank_sheet(MAP, PAPER)
    image, _ = filled_page()
    ident = locate.locate(image, PageSource(Path("page.png"))).ident
    s = read_ink(ink_mask(warped, blank), blank.fields, PageSource(Path("page.png")), ident, load_map(MAP), warped)
    marks = marks_of(s)
    drawn = {rid for rid, r in s.routes.items() if r.on}
    right = marks["souvenirs"] == truth["souvenirs"] and drawn == truth["routes"]
    return right, len(s.uncertain)


@pytest.mark.parametrize("dx, dy, turn", [(0.8, -0.6, 0.0), (-0.5, 0.7, 0.04), (-0.7, -0.4, -0.05)])
def test_a_warp_left_off_the_blank_is_put_back_within_a_tenth_of_a_point(dx: float, dy: float, turn: float) -> None:
    image, truth = filled_page()
    h = off(dx, dy, turn)
    height, width = image.shape[:2]
    warped = cv2.warpPerspective(image, h, (width, height), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    assert worst(h, image.shape) > 0.6  # the marker warp as left: off by more than SLACK somewhere
    right, unsure = read_warped(warped, truth)
    assert not (right and unsure == 0)  # read that far off, the sheet is flagged (or wrong)
    better, rewarped, move = align.refine(image, h, warped, MAP, PAPER)
    assert worst(better, image.shape) < 0.1
    assert move == pytest.approx(worst(h, image.shape), abs=0.1)
    assert read_warped(rewarped, truth) == (True, 0)
    assert np.array_equal(align.refine(image, h, warped, MAP, PAPER)[0], better)  # the same scan, the same warp


def test_a_marker_found_off_its_corners_is_corrected_end_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    image, truth = filled_page()
    found = locate._markers

    def pushed(gray: Image) -> dict[int, Image]:
        corners = found(gray)
        first = min(corners)
        return {k: c + (np.float32([2.5, 2.0]) if k == first + 1 else 0) for k, c in corners.items()}

    monkeypatch.setattr(locate, "_markers", pushed)
    s = read_sheet(image, PageSource(Path("page.png")))
    assert s.uncertain == []
    assert marks_of(s)["souvenirs"] == truth["souvenirs"]
    assert {rid for rid, r in s.routes.items() if r.on} == truth["routes"]
    located = locate.locate(image, PageSource(Path("page.png")))
    assert worst(located.h, image.shape) > 0.6
    better, _, _ = align.refine(image, located.h, located.warped, MAP, PAPER)
    assert worst(better, image.shape) < 0.1


def test_a_scan_unlike_its_blank_keeps_the_marker_warp() -> None:
    image, _ = filled_page()
    h = off(0.5, 0.5, 0.0)
    white = np.full_like(image, 255)
    kept, warped, move = align.refine(white, h, white, MAP, PAPER)
    assert kept is h and warped is white and move == 0.0
    other = blank_sheet("world", PAPER).sharp
    kept, _, _ = align.refine(image, h, cv2.cvtColor(other, cv2.COLOR_GRAY2BGR), MAP, PAPER)
    assert kept is h
