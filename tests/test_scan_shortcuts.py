"""The scan's shortcuts read what the long way reads: each checked against the plain computation it replaces."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest
import scan_simulate as sim
from scan_helpers import photo

from printkit.scan import align, cover, images, ink, locate, read
from printkit.scan.run import scan_files

NAMES = ("Ann", "Bo")
ANN = sim.Filled(("souvenirs.mugs.1", "sights.food.1"), ("london-new-york",), "new-york")
BO = sim.Filled(("sights.nature.1",), ("cape-town-perth",), "cape-town")


def speckled(shape: tuple[int, int], share: float, seed: int) -> np.ndarray:
    """A 0/1 mask with about ``share`` of its pixels set, in small blobs (like pen strokes and specks)."""
    rng = np.random.default_rng(seed)
    dots = (rng.random(shape) < share / 9).astype(np.uint8)
    return cv2.dilate(dots, np.ones((3, 3), np.uint8))


@pytest.mark.parametrize("reach", [read.ROUTE_REACH, read.SHORT_REACH])
def test_ink_near_a_sample_is_the_ink_widened_by_the_ellipse_there(reach: float) -> None:
    mask = speckled((300, 400), 0.02, 1)
    rows, cols = np.mgrid[0:300:7, 0:400:5]
    rows, cols = rows.ravel(), cols.ravel()
    k = read.px(reach)
    widened = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
    got = read.inked_near(mask, rows, cols, reach)
    assert got.tolist() == (widened[rows, cols] > 0).tolist()
    assert 0.1 < got.mean() < 0.9  # both answers are met, at the edges too (row 0, column 0)
    assert got[rows == 0].any() and not got[rows == 0].all()


def naive_why(s: cover.Seen, sharp: np.ndarray, rects: list[tuple[float, float, float, float]], misplaced: str) -> str:
    """The windows checked one by one, as slices (the plain computation the flattened windows replace)."""
    printed_all = shown_all = 0
    for x0, y0, x1, y1 in rects:
        rows = slice(max(0, read.px(y0)), read.px(y1) + 1)
        cols = slice(max(0, read.px(x0)), read.px(x1) + 1)
        if s.valid[rows, cols].size == 0 or not s.valid[rows, cols].all():
            return "outside the picture"
        if not s.lit[rows, cols].all():
            return "in a shadow too deep to read"
        printed = sharp[rows, cols] < cover.PRINTED
        printed_all += int(printed.sum())
        shown_all += int(s.shown[rows, cols][printed].sum())
    return misplaced if printed_all and shown_all < cover.PRINT_SEEN * printed_all else ""


def test_every_box_and_route_is_judged_as_when_its_windows_are_checked_in_turn() -> None:
    blank = ink.blank_sheet("world", "a4")
    shape = blank.sharp.shape
    rng = random.Random(3)
    valid, lit = np.ones(shape, np.uint8), np.ones(shape, np.uint8)
    valid[:, : shape[1] // 5] = 0  # the left fifth out of the picture
    lit[shape[0] // 2:, shape[1] // 2:] = 0  # a deep shadow over the bottom right
    shown = (np.random.default_rng(4).random(shape) < 0.6).astype(np.uint8)
    for _ in range(40):  # patches where the print is not shown (a fold), so some fields fall under PRINT_SEEN
        x, y = rng.randrange(shape[1] - 60), rng.randrange(shape[0] - 60)
        shown[y:y + 60, x:x + 60] = 0
    s = cover.Seen(valid, lit, shown, np.zeros(shape, np.float32))
    fields = blank.fields
    said = set()
    for box in fields.boxes:
        x0, y0, x1, y1 = box.rect
        want = naive_why(s, blank.sharp, [(x0 - cover.PAD, y0 - cover.PAD, x1 + cover.PAD, y1 + cover.PAD)],
                         "its printed outline is not where the sheet has it (folded, curled or covered?)")
        assert cover.why_box(s, fields, box.id) == want, box.id
        said.add(want)
    for route in fields.routes:
        squares = [(x - cover.PAD, y - cover.PAD, x + cover.PAD, y + cover.PAD)
                   for x, y in read.line_samples(route, fields)[::6]]
        want = naive_why(s, blank.sharp, squares,
                         "its printed dashes are not where the sheet has them (folded, curled or covered?)")
        assert cover.why_route(s, fields, route.id) == want, route.id
        said.add(want)
    assert {"", "outside the picture", "in a shadow too deep to read"} <= said  # every answer was met
    assert any("folded" in w for w in said)


def test_a_patch_warped_alone_has_the_pixels_of_the_whole_page_warped() -> None:
    image = cv2.GaussianBlur((np.random.default_rng(5).random((1700, 2300, 3)) * 255).astype(np.uint8), (0, 0), 2)
    h = np.array([[0.93, 0.05, -40.0], [-0.04, 0.95, -25.0], [1e-5, -2e-5, 1.0]])
    whole = locate.warped_by(image, h, "a4")
    crop = align.warped_crops(image, h)
    for x0, y0 in ((16, 16), (700, 500), (1900, 1300)):
        part = crop(x0, y0, x0 + 130, y0 + 130)
        same = whole[y0:y0 + 130, x0:x0 + 130]
        assert part.shape == same.shape
        assert int(np.abs(part.astype(int) - same.astype(int)).max()) <= 1
        assert (part == same).mean() > 0.99


def null_device(fd: int) -> bool:
    st, null = os.fstat(fd), os.stat(os.devnull)
    return (st.st_dev, st.st_ino) == (null.st_dev, null.st_ino)


def test_stderr_is_back_when_threads_silence_it_out_of_turn() -> None:
    before = os.fstat(2)
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    during: list[bool] = []

    def first() -> None:
        with images.stderr_off():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def second() -> None:
        a_in.wait(5)
        with images.stderr_off():
            b_in.set()
            a_out.wait(5)
            during.append(null_device(2))  # the first thread is done; this one still wants quiet

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    after = os.fstat(2)
    assert during == [True]
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)
    assert not null_device(2)


def test_the_blank_sheet_kept_on_disk_is_the_one_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from printkit import registry

    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(tmp_path / "cache"))
    document = registry.build_sheet("map", "europe", [""], "letter").document
    drawn = ink.blank_gray(document)
    assert sorted(p.name.split("-")[1] for p in (tmp_path / "cache").glob("scan-blank-*.json")) == ["blank"]

    def no_drawing(_: object) -> bytes:
        raise AssertionError("drawn again")

    monkeypatch.setattr(ink, "_drawn", no_drawing)
    kept = ink.blank_gray(document)
    assert kept.shape == (round(612 * locate.SCALE), round(792 * locate.SCALE))
    assert kept.dtype == np.uint8 and np.array_equal(kept, drawn)
    assert 0 < int((kept < 128).sum()) < kept.size // 4  # a printed sheet: print on white


def test_pages_read_ahead_come_out_in_the_order_given(tmp_path: Path) -> None:
    (tmp_path / "1-ann.jpg").write_bytes(photo("world", "a4", NAMES, 0, ANN))
    (tmp_path / "2-torn.jpg").write_bytes(photo("world", "a4", NAMES, 1, BO)[:5000])
    (tmp_path / "3-empty.png").write_bytes(b"")
    (tmp_path / "4-bo.jpg").write_bytes(photo("world", "a4", NAMES, 1, BO, seed=1))
    found = scan_files([str(tmp_path)])
    assert [s.ident.name for s in found.sheets] == ["Ann", "Bo"]
    assert [s.source.path.name for s in found.sheets] == ["1-ann.jpg", "4-bo.jpg"]
    assert [e.split(":")[0] for e in found.errors] == [str(tmp_path / "2-torn.jpg"), str(tmp_path / "3-empty.png")]
    assert len({s.digest for s in found.sheets}) == 2 and all(len(s.digest) == 64 for s in found.sheets)
