"""Fill patterns as plain paths, and paths drawn inside a clipping path by every backend."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from PIL import Image

from printkit.backends import render
from printkit.layout.boxes import Box, item_box
from printkit.layout.patterns import ANGLES, DOT, KINDS, pattern
from printkit.layout.primitives import Clipped, Document, Page, Path, Style
from printkit.layout.shapes import box, disc

BOX = (13.0, 7.0, 113.0, 87.0)


def segments(p: Path) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    cmds = list(p.commands)
    return [((float(a[1]), float(a[2])), (float(b[1]), float(b[2]))) for a, b in zip(cmds[::2], cmds[1::2])]


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "dots"])
def test_lines_run_in_their_directions_spacing_apart_anchored_to_the_page(kind: str) -> None:
    p = pattern(kind, BOX, 6.0, "#123456", 0.5)  # type: ignore[arg-type]
    assert p.style.stroke == "#123456" and p.style.width == 0.5 and p.style.fill is None
    spacing = 6.0 * (1.5 if len(ANGLES[kind]) > 1 else 1.0)  # type: ignore[index]
    by_angle: dict[float, list[float]] = {}
    for (x0, y0), (x1, y1) in segments(p):
        assert all(BOX[0] - 0.01 <= x <= BOX[2] + 0.01 for x in (x0, x1))
        assert all(BOX[1] - 0.01 <= y <= BOX[3] + 0.01 for y in (y0, y1))
        angle = round(math.degrees(math.atan2(-(y1 - y0), x1 - x0)) % 180, 1)
        assert angle in ANGLES[kind]  # type: ignore[index]
        nx, ny = -math.sin(math.radians(angle)), -math.cos(math.radians(angle))  # the normal, y down
        by_angle.setdefault(angle, []).append(x0 * nx + y0 * ny)
    assert set(by_angle) == set(ANGLES[kind])  # type: ignore[index]
    for offsets in by_angle.values():
        assert all(abs(o / spacing - round(o / spacing)) < 0.01 for o in offsets)  # on the page's grid
        steps = np.diff(sorted(offsets))
        assert len(offsets) >= 8 and np.allclose(steps, spacing, atol=0.02)


def test_dots_are_rows_dashed_into_squares_every_other_row_half_a_step_along() -> None:
    p = pattern("dots", BOX, 5.0, "#123456", 0.5)
    assert p.style.width == DOT and p.style.dash == (DOT, 5.0 - DOT) and p.style.fill is None
    starts = [(float(a[1]), float(a[2])) for a in p.commands[::2]]
    rows = sorted({y for _, y in starts})
    assert np.allclose(np.diff(rows), 5.0 * math.sqrt(3) / 2, atol=0.02)
    assert rows[0] <= BOX[1] + 5 and rows[-1] >= BOX[3] - 5
    shifts = {round(((x + DOT / 2) % 5.0), 1) for x, _ in starts}
    assert shifts == {0.0, 2.5}


def test_shapes_close_clockwise_on_the_page() -> None:
    circle = disc((10.0, 20.0), 3.0)
    assert circle[0] == ("M", 13.0, 20.0) and circle[-1] == ("Z",) and circle[1][-2:] == (10.0, 23.0)  # then down
    assert box(Box(1, 2, 3, 4))[:3] == [("M", 1, 2), ("L", 4, 2), ("L", 4, 6)]


def _page(doc: Document) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(render(doc, "png")[0])).convert("L"), dtype=float) / 255


def test_clipped_paths_paint_only_inside_the_clip_in_order() -> None:
    clip = (("M", 10.0, 10.0), ("L", 60.0, 10.0), ("L", 60.0, 60.0), ("L", 10.0, 60.0), ("Z",))
    black = Path(tuple(box(Box(0, 0, 100, 100))), Style(stroke=None, fill="#000000"))
    white = Path(tuple(disc((35.0, 35.0), 10.0)), Style(stroke=None, fill="#ffffff"))  # painted over the black
    item = Clipped(clip, (black, white))
    doc = Document(72.0, 72.0, (Page((item,)),))
    g = _page(doc)  # 150 dpi: 2.08 px a point
    px = lambda v: int(v * 150 / 72)  # noqa: E731
    assert g[px(15), px(15)] < 0.05 and g[px(55), px(55)] < 0.05  # inside the clip: black
    assert g[px(5), px(5)] > 0.95 and g[px(65), px(30)] > 0.95  # outside it: nothing
    assert g[px(35), px(35)] > 0.95  # the later path paints over the earlier one
    assert item_box(item) == Box(10.0, 10.0, 50.0, 50.0)
    svg = render(doc, "svg")[0].decode()
    assert svg.count("<clipPath") == 1 and 'clip-path="url(#clip-' in svg
    assert render(doc, "svg")[0] == render(doc, "svg")[0] and render(doc, "pdf")[0] == render(doc, "pdf")[0]
    assert b" W n" in _content(render(doc, "pdf")[0])


def _content(pdf: bytes) -> bytes:
    import pypdf

    return pypdf.PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()  # type: ignore[union-attr]
