"""Folds and cut corners read unsure where the picture cannot be trusted, never wrong; the shifts they are measured by."""

from __future__ import annotations

import random

import scan_simulate as sim
from scan_degrade import Capture
from scan_helpers import photo, read, sheets, wrong_but_sure

from printkit.scan.sheet import marks_of


def crease_through(map_id: str, paper: str, box: str) -> float:
    """The fold's place (share of the page's height) that runs through the middle of ``box``."""
    fields = sheets(map_id, paper, ("Ann",))[1]
    rect = next(b.rect for b in fields.boxes if b.id == box)
    return (rect[1] + rect[3]) / 2 / fields.height


def test_a_small_fold_through_a_row_of_boxes_leaves_none_of_them_read_wrong() -> None:
    # a 3.4 pt fold through the jaguar row: the crease's shade reads as a light mark in every box of the row, the
    # page above and below it lies a point off in opposite directions; once read as a row of five jaguars
    filled = sim.Filled(("animals.jaguar.1", "animals.jaguar.2", "souvenirs.coffee.1"), ("bogota-quito",), "quito")
    at = crease_through("south-america", "letter", "animals.jaguar.3")
    s = read(photo("south-america", "letter", ("Ann",), 0, filled, seed=2,
                   shot=Capture(dpi=200, rotation=2.0, tilt=4.0, blur=0.3, noise=2, jpeg=80, fold=3.4, fold_at=at)))
    assert wrong_but_sure(s, filled) == []
    row = [f"animals.jaguar.{n}" for n in range(1, 6)]
    assert all(not s.boxes[b].on or not s.boxes[b].certain for b in row[2:])  # the crease: never a sure mark
    flagged = {".".join(u.field.split(".")[:2]) for u in s.uncertain}
    assert marks_of(s)["animals"]["jaguar"] == 2 or "animals.jaguar" in flagged
    assert any("not where the sheet has it" in u.message or "crease" in u.message for u in s.uncertain)


def test_a_big_fold_is_flagged_where_it_runs_and_read_right_away_from_it() -> None:
    filled = sim.Filled(("souvenirs.mugs.1", "souvenirs.mugs.2", "sights.culture.1", "regions.europe"),
                        ("london-moscow",), "london")
    at = crease_through("world", "a4", "souvenirs.postcards.2")
    s = read(photo("world", "a4", ("Ann",), 0, filled, seed=4,
                   shot=Capture(dpi=200, rotation=-3.0, blur=0.3, noise=2, jpeg=80, fold=14.0, fold_at=at)))
    assert wrong_but_sure(s, filled) == []
    assert s.boxes["souvenirs.postcards.2"].why  # the crease runs through it: unsure, and said why
    assert s.boxes["souvenirs.mugs.1"].on and s.boxes["souvenirs.mugs.1"].certain  # far above it: read as before


def test_a_corner_cut_off_with_two_markers_is_read_from_the_two_left_and_the_print() -> None:
    # the cut takes the top right corner and its neighbour's marker: two markers are left, on the left edge
    filled = sim.Filled(("souvenirs.mugs.1", "souvenirs.mugs.2", "sights.nature.1"), ("london-new-york",), "new-york")
    s = read(photo("world", "a4", ("Ann",), 0, filled, seed=1,
                   shot=Capture(dpi=200, rotation=-20.0, blur=0.3, noise=2, jpeg=80, cut=0.29)))
    outside = {b for b, r in s.boxes.items() if r.why == "outside the picture"}
    assert outside and "finished_turn.20" in outside
    assert wrong_but_sure(s, filled) == []
    assert s.boxes["souvenirs.mugs.2"].on and s.boxes["souvenirs.mugs.2"].certain
    assert s.boxes["sights.nature.1"].on and s.boxes["sights.nature.1"].certain


def test_square_shifts_are_found_to_tenths_of_a_pixel_and_the_same_every_time() -> None:
    import cv2
    import numpy as np

    from printkit.scan.ink import blank_sheet
    from printkit.scan.shifts import correlate, dense

    sharp = blank_sheet("world", "a4").sharp
    moved = cv2.warpAffine(sharp, np.array([[1, 0, 3.4], [0, 1, -2.2]], np.float32), sharp.shape[::-1],
                           flags=cv2.INTER_LINEAR, borderValue=255)
    cells = dense(cv2.cvtColor(moved, cv2.COLOR_GRAY2BGR), sharp)
    inner = cells.matched & ~cells.flat
    assert inner.sum() > 200
    err = np.hypot(*(cells.shift[inner] - [3.4, -2.2]).T)
    assert np.median(err) < 0.25 and np.percentile(err, 95) < 0.45  # the bilinear shift itself biases it a little
    assert (err > 1.0).mean() < 0.01  # a square whose print repeats along one way can still lie: the remap drops it
    flat = cells.matched & cells.flat  # lines one way: measured across them only
    across = ((cells.measured()[flat] - [3.4, -2.2]) * cells.across[flat]).sum(axis=1)
    assert flat.sum() > 20 and np.percentile(np.abs(across), 95) < 0.6
    rng = random.Random(5)
    picks = [rng.randrange(len(cells.at)) for _ in range(8)]
    side = 90
    a = np.stack([sharp[int(y) - 45:int(y) - 45 + side, int(x) - 45:int(x) - 45 + side].astype(np.float32)
                  for x, y in cells.at[picks]])
    b = np.stack([moved[int(y) - 45:int(y) - 45 + side, int(x) - 45:int(x) - 45 + side].astype(np.float32)
                  for x, y in cells.at[picks]])
    first = correlate(a, b)
    for _ in range(3):  # the same squares, the same shifts, call after call
        again = correlate(a, b)
        assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])
    near, _ = correlate(a, b, reach=1.0)  # looked for within a pixel of no shift: never further
    assert np.hypot(near[:, 0], near[:, 1]).max() <= 2.0
