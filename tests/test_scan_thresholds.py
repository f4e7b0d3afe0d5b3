"""Every threshold a scan decision rests on, just below and just above it, on the real functions with small inputs.

A sheet here is a made-up strip of paper (one box, two cities, one route) drawn as
numpy arrays at the scan's own scale, so each read lands exactly where the test
puts it: a one-line change to a threshold or a comparison fails a test. The
thresholds are written out as docs/scan.md gives them, so moving one fails here
until the docs and the test are changed with it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from printkit.scan import align, cover, read
from printkit.scan.cover import Seen, misplaced_cells, windows
from printkit.scan.ink import INK_MARGIN, Blank, ink_of
from printkit.scan.locate import SCALE
from printkit.scan.read import px
from printkit.scan.shifts import CELL, Cells
from printkit.sheets.fields import BoxField, CityField, Fields, RouteField

BOX = BoxField("souvenirs.mugs.1", (20.0, 20.0, 32.2, 28.2))
"""Read 2.2 pt inside its outline: 20 x 10 pixels, so 200 pixels and every box threshold a whole number of them."""
A, B = CityField("a", (30.0, 80.2), 6.0, (20.0, 100.0, 40.0, 108.0)), CityField("b", (161.0, 80.2), 6.0,
                                                                                 (150.0, 100.0, 172.0, 108.0))
ROUTE = RouteField("a", "b", (A.center, B.center))
"""131 pt long: its middle stretch (10 pt clear of both circles) is exactly 100 samples, 1 pt apart."""
STRIP = Fields("map", "strip", "a4", 200.0, 120.0, cities=(A, B), routes=(ROUTE,), boxes=(BOX,))
SHAPE = (round(STRIP.height * SCALE), round(STRIP.width * SCALE))


def box_with(pixels: int) -> read.Read:
    """The box read with ``pixels`` of its 200 inked."""
    ink = np.zeros(SHAPE, np.uint8)
    x0, y0 = px(BOX.rect[0] + read.BOX_INSET), px(BOX.rect[1] + read.BOX_INSET)
    window = ink[y0:y0 + 10, x0:x0 + 20]
    window.flat[:pixels] = 1
    return read.read_boxes(ink, STRIP)[BOX.id]


def test_the_strip_box_is_read_on_200_pixels() -> None:
    x0, y0, x1, y1 = (px(v) for v in (BOX.rect[0] + read.BOX_INSET, BOX.rect[1] + read.BOX_INSET,
                                       BOX.rect[2] - read.BOX_INSET, BOX.rect[3] - read.BOX_INSET))
    assert (x1 - x0, y1 - y0) == (20, 10)
    assert box_with(200).measure == 1.0 and box_with(0).measure == 0.0


@pytest.mark.parametrize(("pixels", "on", "certain"), [
    (0, False, True),
    (3, False, True),   # 1.5%: BOX_EMPTY, still surely empty
    (4, False, False),  # 2.0%: just over: unsure, leaning empty
    (5, False, False),  # 2.5%: under the middle of the band
    (6, True, False),   # 3.0%: the middle: leaning marked
    (8, True, False),   # 4.0%: just under BOX_MARKED: unsure
    (9, True, True),    # 4.5%: BOX_MARKED, surely marked
    (20, True, True),
])
def test_a_box_is_empty_unsure_or_marked_by_its_ink_share(pixels: int, on: bool, certain: bool) -> None:
    r = box_with(pixels)
    assert r.measure == pixels / 200
    assert (r.on, r.certain) == (on, certain)


def test_a_boxs_confidence_is_a_half_at_each_threshold_and_one_well_past_it() -> None:
    assert box_with(9).confidence == 0.5 and box_with(3).confidence == 0.5
    assert box_with(18).confidence == 1.0 and box_with(0).confidence == 1.0
    # between, it rises from 0 at the middle of the band (3%) to 0.5 at each threshold
    assert [box_with(n).confidence for n in (4, 5, 6, 7, 8)] == [0.333, 0.167, 0.0, 0.167, 0.333]


def route_samples() -> list[tuple[float, float]]:
    points, short = read.route_samples(STRIP)[ROUTE.id]
    assert not short
    return list(points)


def route_with(inked: int) -> read.Read:
    """The route read with a line of ink along it that reaches (by ROUTE_REACH) exactly its first ``inked`` samples."""
    ink = np.zeros(SHAPE, np.uint8)
    points = route_samples()
    reach = px(3.0)  # ROUTE_REACH: ink within 3 pt of the line
    ink[px(points[0][1]), px(points[0][0]):px(points[inked - 1][0]) - reach + 1] = 1
    return read.read_routes(ink, STRIP)[ROUTE.id]


def test_the_strip_route_is_read_on_100_samples() -> None:
    points = route_samples()
    assert len(points) == 100
    assert math.hypot(points[0][0] - A.center[0], points[0][1] - A.center[1]) >= A.radius + read.END_CLEAR
    assert route_with(100).measure == 1.0 and route_with(50).measure == 0.5


@pytest.mark.parametrize(("inked", "on", "certain"), [
    (20, False, True),   # ROUTE_EMPTY: not drawn
    (21, False, False),  # just over: unsure, leaning not drawn
    (44, False, False),
    (45, True, False),   # the middle of the band: leaning drawn
    (69, True, False),   # just under ROUTE_DRAWN: unsure
    (70, True, True),    # ROUTE_DRAWN: drawn
])
def test_a_route_is_drawn_unsure_or_not_by_the_share_of_its_line_inked(inked: int, on: bool, certain: bool) -> None:
    r = route_with(inked)
    assert r.measure == inked / 100
    assert (r.on, r.certain) == (on, certain)


def test_ink_counts_on_a_route_within_route_reach_of_its_line_and_not_beyond() -> None:
    points = route_samples()
    row = px(points[0][1])
    for rows_off, drawn in ((7, True), (8, False)):  # 3 pt is 7.5 px: 7 rows off still count
        ink = np.zeros(SHAPE, np.uint8)
        ink[row - rows_off, :] = 1  # a line of ink beside the route, the whole length
        r = read.read_routes(ink, STRIP)[ROUTE.id]
        assert (r.on, r.certain) == (drawn, True), rows_off


def test_star_ring_ink_counts_inside_the_ring_and_not_beyond_it() -> None:
    cx, cy = A.center
    for r, counted in ((A.radius + 7.7, True), (A.radius + 8.5, False),  # the ring: 1.5-8 pt outside the circle
                       (A.radius + 1.8, True), (A.radius + 1.2, False)):
        ink = np.zeros(SHAPE, np.uint8)
        ink[px(cy - r), px(cx)] = 1  # one pixel straight above the city (no route crosses there)
        assert (read.star_ink(ink, STRIP)["a"] > 0) == counted, r


def test_star_ring_leaves_out_star_keep_out_each_side_of_a_route_line() -> None:
    cx, cy = A.center
    x = cx + A.radius + 4.0  # in the ring, on the route's side
    for off, counted in ((3.6, False), (4.4, True)):  # 4 pt each side of the line are left out
        ink = np.zeros(SHAPE, np.uint8)
        ink[px(cy - off), px(x)] = 1
        assert (read.star_ink(ink, STRIP)["a"] > 0) == counted, off


def test_a_city_is_starred_at_star_min_and_unsure_within_star_band_of_it() -> None:
    from printkit.scan.sheet import STAR_BAND, STAR_MIN, faint_stars, starred_cities

    assert (STAR_MIN, STAR_BAND) == (0.025, 0.01)
    assert starred_cities({"a": 0.025, "b": 0.0249}) == {"a"}
    edges = {"a": 0.0149, "b": 0.0151, "c": 0.0349, "d": 0.0351}
    assert faint_stars(edges) == ["b", "c"]
    assert faint_stars({"a": 0.0, "b": 0.006, "c": 0.047}) == []  # the measured extremes: no star, the thinnest star


def grid(shift: list[list[tuple[float, float]]], response: float | list[list[float]] = 1.0,
         flat: list[list[bool]] | None = None) -> Cells:
    """Squares of print half a square apart (rows of columns), each with its shift (points) and response."""
    step = round(CELL * SCALE) // 2
    rows, cols = len(shift), len(shift[0])
    at = np.array([(100.0 + step * c, 100.0 + step * r) for r in range(rows) for c in range(cols)])
    resp = np.array([response if isinstance(response, float) else response[r][c]
                     for r in range(rows) for c in range(cols)], float)
    flats = np.array([bool(flat and flat[r][c]) for r in range(rows) for c in range(cols)])
    across = np.tile([0.0, 1.0], (rows * cols, 1))  # lines one way run across the page: measured up and down
    moved = np.array([shift[r][c] for r in range(rows) for c in range(cols)], float) * SCALE
    return Cells(at, moved, resp, across, flats)


def flagged(cells: Cells, cols: int) -> set[tuple[int, int]]:
    return {(int(i) // cols, int(i) % cols) for i in np.flatnonzero(misplaced_cells(cells))}


def test_a_square_further_than_cell_tol_off_its_place_is_misplaced() -> None:
    for d, out in ((0.79, False), (0.81, True)):  # CELL_TOL: 0.8 pt
        cells = grid([[(0.0, d)] * 4 for _ in range(3)])  # the whole page the same way: no strain
        assert flagged(cells, 4) == ({(r, c) for r in range(3) for c in range(4)} if out else set()), d


def test_neighbours_further_apart_than_strain_tol_are_both_misplaced() -> None:
    for d, out in ((0.79, False), (0.81, True)):  # STRAIN_TOL: 0.8 pt
        # the page above row 2 and below it moved apart by d, each side less than CELL_TOL off
        cells = grid([[(0.0, d / 2)] * 3] * 2 + [[(0.0, -d / 2)] * 3] * 2)
        assert flagged(cells, 3) == ({(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)} if out else set()), d


def test_a_square_counts_as_matched_from_cell_response_and_flat_ones_from_sure_match() -> None:
    shift = [[(0.0, 0.0)] * 3, [(0.0, 0.0), (0.0, 2.0), (0.0, 0.0)], [(0.0, 0.0)] * 3]
    for resp, out in ((0.399, False), (0.4, True)):  # CELL_RESPONSE
        cells = grid(shift, [[1.0] * 3, [1.0, resp, 1.0], [1.0] * 3])
        assert bool(cells.matched[4]) == out
        # matched, it is 2 pt off and strained against its four neighbours; else its neighbours agree
        assert flagged(cells, 3) == ({(1, 1), (0, 1), (1, 0), (1, 2), (2, 1)} if out else set()), resp
    flat = [[False] * 3, [False, True, False], [False] * 3]
    for resp, out in ((0.599, False), (0.6, True)):  # SURE_MATCH
        cells = grid(shift, [[1.0] * 3, [1.0, resp, 1.0], [1.0] * 3], flat)
        assert ((1, 1) in flagged(cells, 3)) == out, resp


def test_a_square_too_weak_to_place_is_misplaced_when_the_page_either_side_of_it_is_torn() -> None:
    # the square astride a crease matches too weakly to count (OpenCV 5.0: response 0.400, 5.1: 0.397); the
    # squares above and below it are matched, and moved apart: the page is torn across it
    weak = [[1.0] * 3, [1.0] * 3, [1.0, 0.2, 1.0], [1.0] * 3, [1.0] * 3]
    for d, out in ((0.79, False), (0.81, True)):
        shift = [[(0.0, 0.0)] * 3, [(0.0, 0.0), (0.0, d / 2), (0.0, 0.0)], [(0.0, 0.0)] * 3,
                 [(0.0, 0.0), (0.0, -d / 2), (0.0, 0.0)], [(0.0, 0.0)] * 3]
        assert flagged(grid(shift, weak), 3) == ({(1, 1), (2, 1), (3, 1)} if out else set()), d
        # the same square matched, in between its neighbours: each step is under STRAIN_TOL, nothing is torn
        assert flagged(grid(shift), 3) == set(), d
    # no print between them at all: the two either side still say the page is torn there
    shift = [[(0.0, 0.5)], [(0.0, 0.0)], [(0.0, -0.5)]]
    cells = grid(shift)
    keep = np.array([True, False, True])
    gap = Cells(cells.at[keep], cells.shift[keep], cells.response[keep], cells.across[keep], cells.flat[keep])
    assert set(np.flatnonzero(misplaced_cells(gap))) == {0, 1}


def test_a_square_agrees_with_its_neighbours_within_agree() -> None:
    for d, kept in ((1.49, True), (1.51, False)):  # AGREE: 1.5 pt
        shift = [[(0.0, 0.0)] * 3, [(0.0, 0.0), (d, 0.0), (0.0, 0.0)], [(0.0, 0.0)] * 3]
        assert bool(grid(shift).agreeing()[4]) == kept, d


def test_a_page_is_bent_with_two_patches_over_local_tol_or_one_over_twice_it() -> None:
    tol = align.LOCAL_TOL
    assert tol == 0.6
    flat = [(100.0 + 20 * k, 200.0, 0.1) for k in range(20)]
    assert not align.is_bent([*flat, (1.0, 1.0, tol), (2.0, 2.0, tol)], tol)  # at the tolerance: not over it
    assert align.is_bent([*flat, (1.0, 1.0, tol + 1e-3), (2.0, 2.0, tol + 1e-3)], tol)
    assert not align.is_bent([*flat, (1.0, 1.0, 2 * tol)], tol)
    assert align.is_bent([*flat, (1.0, 1.0, 2 * tol + 1e-3)], tol)


def test_the_refit_needs_min_inliers_and_moves_the_page_between_least_and_most_move() -> None:
    shape = (500, 400)
    src = [(40.0 + 80 * (k % 4), 40.0 + 100 * (k // 4)) for k in range(12)]

    def moved(d: float, n: int = 12) -> tuple[object, float]:
        fix, move = align.refit([(x + d * SCALE, y) for x, y in src[:n]], src[:n], shape)
        return fix, move

    assert moved(1.0, 9) == (None, 0.0)  # MIN_INLIERS: 10
    assert moved(1.0, 10)[0] is not None
    fix, move = moved(0.196)
    assert fix is None and move == pytest.approx(0.196, rel=1e-3)  # LEAST_MOVE 0.2 pt: not worth a second warp
    assert moved(0.204)[0] is not None
    assert moved(4.9)[0] is not None
    assert moved(5.1) == (None, 0.0)  # MOST_MOVE 5 pt: not a sheet the markers framed


def page_seen(valid: int = 1, paper: float = 255.0, shown: int = 1) -> Seen:
    normal = np.full(SHAPE, 255.0, np.float32)
    return Seen(np.full(SHAPE, valid, np.uint8), cover.lit(np.full(SHAPE, paper, np.float32)),
                np.full(SHAPE, shown, np.uint8), normal)


def test_paper_darker_than_dark_paper_is_a_shadow_too_deep_to_read() -> None:
    w = windows(np.full(SHAPE, 255, np.uint8), [BOX.rect])
    assert cover.why_unread(page_seen(paper=64.0), w, "moved") == ""  # DARK_PAPER: 64 of 255
    assert cover.why_unread(page_seen(paper=63.5), w, "moved") == "in a shadow too deep to read"
    assert cover.why_unread(page_seen(valid=0), w, "moved") == "outside the picture"


def test_a_field_is_in_place_with_print_seen_of_its_printed_pixels_shown() -> None:
    sharp = np.full(SHAPE, 255, np.uint8)
    x0, y0 = px(BOX.rect[0]), px(BOX.rect[1])
    sharp[y0:y0 + 10, x0:x0 + 10] = 0  # 100 printed pixels in the box's window
    w = windows(sharp, [BOX.rect])
    assert w.printed.size == 100
    need = 40  # PRINT_SEEN: 40% of its printed pixels
    for shown, why in ((need, ""), (need - 1, "moved")):
        s = page_seen(shown=0)
        s.shown.ravel()[w.printed[:shown]] = 1
        assert cover.why_unread(s, w, "moved") == why, shown


def test_a_pixel_is_ink_when_ink_margin_darker_than_the_blank() -> None:
    gray = np.full((4, 4), 200, np.uint8)
    blank = Blank(STRIP, gray, gray)
    assert INK_MARGIN == 60
    normal = np.full((4, 4), 140.0, np.float32)
    assert not ink_of(normal, blank).any()
    normal[1, 2] -= 0.5
    assert ink_of(normal, blank).tolist() == [[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


def test_a_box_under_the_middle_of_its_band_with_faint_share_of_faint_ink_is_only_faint() -> None:
    # dark dots 3-4 px apart: through the 1 px blur each leaves exactly one pixel FAINT_MARGIN darker than the
    # paper round it, so k dots are k of the box's 200 pixels
    x0, y0 = px(BOX.rect[0] + read.BOX_INSET), px(BOX.rect[1] + read.BOX_INSET)
    spots = [(y0 + 3 * (k // 5), x0 + 1 + 4 * (k % 5)) for k in range(20)]
    need = 16  # FAINT_SHARE: 8% of the box's 200 pixels
    empty = read.Read(BOX.id, False, 0.0, 1.0)
    for dots, faint in ((need, True), (need - 1, False)):
        s = page_seen()
        for y, x in spots[:dots]:
            s.normal[y, x] = 75.0
        assert cover.faint_box(s, BOX.rect) == dots / 200
        assert cover.only_faint(s, empty, BOX.rect) == faint, dots
        # a box read at or over the middle of its band is not looked at for faint ink
        assert not cover.only_faint(s, read.Read(BOX.id, True, 0.031, 0.1), BOX.rect)
    assert cover.only_faint(s, read.Read(BOX.id, False, 0.03, 0.0), BOX.rect) is False  # need - 1 dots
    s.normal[spots[need - 1]] = 75.0
    assert cover.only_faint(s, read.Read(BOX.id, False, 0.03, 0.0), BOX.rect)


def test_faint_ink_is_faint_margin_darker_than_the_paper_near_it() -> None:
    # stripes 8 px wide: their middles keep their darkness through the 1 px blur
    for darker, found in ((24.8, False), (25.2, True)):  # FAINT_MARGIN: 25 grey levels
        s = page_seen()
        for k in range(0, SHAPE[1], 16):
            s.normal[:, k:k + 8] = 255.0 - darker
        assert (cover.faint_box(s, BOX.rect) > 0) == found, darker


def crease_ink(extra: int, rows: tuple[int, ...] = (0,)) -> np.ndarray:
    """A line of ink (one row per entry of ``rows``, offsets from the box's middle) straight through the box and
    2 pt past both sides, and ``extra`` more pixels inside the box, away from it."""
    ink = np.zeros(SHAPE, np.uint8)
    x0, y0, x1, y1 = (px(v) for v in BOX.rect)
    middle = (y0 + y1) // 2
    for r in rows:
        ink[middle + r, px(BOX.rect[0] - 5):px(BOX.rect[2] + 5)] = 1
    ink[y0:y0 + 1, x0:x1].flat[:extra] = 1
    return ink


def test_a_line_through_a_box_and_past_both_sides_is_a_crease_when_crease_share_of_the_boxs_ink_is_on_it() -> None:
    width = px(BOX.rect[2]) - px(BOX.rect[0])
    assert width == 30  # the line leaves 30 pixels inside: it is a crease while at most 7 more lie elsewhere
    assert cover.crossed(crease_ink(7), BOX.rect)  # 30 / 37 = 0.81
    assert not cover.crossed(crease_ink(8), BOX.rect)  # 30 / 38 = 0.79


def test_level_ink_wider_than_crease_wide_is_a_pens_not_a_crease() -> None:
    wide = 7  # CREASE_WIDE: 3 pt, 7 px
    assert cover.crossed(crease_ink(0, (0, wide)), BOX.rect)
    assert not cover.crossed(crease_ink(0, (0, wide + 1)), BOX.rect)


def edge_ink(on_edge: int, in_core: int) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """Ink in the box's read area: ``on_edge`` pixels along its top edge, ``in_core`` in its middle."""
    ink = np.zeros(SHAPE, np.uint8)
    x0, y0 = px(BOX.rect[0] + read.BOX_INSET), px(BOX.rect[1] + read.BOX_INSET)
    ink[y0, x0:x0 + 20].flat[:min(on_edge, 20)] = 1
    ink[y0 + 1, x0:x0 + 20].flat[:max(0, on_edge - 20)] = 1
    ink[y0 + 5, x0 + 5:x0 + 15].flat[:in_core] = 1
    return ink, BOX.rect


def test_a_light_mark_with_edge_share_of_its_ink_along_the_edges_is_its_outline_out_of_place() -> None:
    assert cover.along_edges(*edge_ink(7, 3))  # 70% on the edge
    assert not cover.along_edges(*edge_ink(6, 4))  # 60%


def test_only_a_mark_lighter_than_light_mark_is_looked_at_for_ink_along_its_edges() -> None:
    most = 24  # LIGHT_MARK: 12% of 200 pixels
    assert cover.along_edges(*edge_ink(most, 0))
    assert not cover.along_edges(*edge_ink(most + 1, 0))


def test_a_route_on_a_bent_page_with_less_than_stroke_min_of_ink_per_point_is_specks() -> None:
    points = read.line_samples(ROUTE, STRIP)
    row = px(A.center[1])
    x0, x1 = px(points[0][0] - 3), px(points[-1][0] + 3)

    def per_point(ink: np.ndarray) -> float:  # ink across the line per point of it, as the windows see it
        total = sum(int(ink[max(0, px(y - 3)):px(y + 3) + 1, max(0, px(x - 3)):px(x + 3) + 1].sum()) for x, y in points)
        return total / SCALE ** 2 / 6.0 / len(points)

    for share, specks in ((0.62, True), (0.64, False)):  # a second row of ink along that share of the line
        ink = np.zeros(SHAPE, np.uint8)
        ink[row, :] = 1
        ink[row + 1, x0:x0 + round(share * (x1 - x0))] = 1
        assert abs(per_point(ink) - 0.7) < 0.01  # STROKE_MIN: 0.7 pt of ink across a point of line
        assert cover.thin(ink, ROUTE.id, STRIP) == specks
        assert (per_point(ink) < 0.7) == specks


def fits(drawn_me: bool, inked: int, n: int, wide: int = 0, prone_inked: int = 0) -> bool:
    """Whether ink agrees with a route drawn (``drawn_me``) or not, with ``inked`` of its ``n`` samples inked on the
    line, ``wide`` of them near it, and ``prone_inked`` samples by a tag's print inked clear of it."""
    from printkit.scan.explain import RouteInk, Sample

    lone = [Sample((float(k), 0.0), (), frozenset(), (0.0, 1.0), True) for k in range(n)]
    prone = [Sample((float(k), 9.0), (), frozenset(), (0.0, 1.0), True, True) for k in range(prone_inked)]
    ink = RouteInk(tuple(lone + prone), tuple([True] * inked + [False] * (n - inked) + [False] * prone_inked),
                   tuple([True] * wide + [False] * (n - wide) + [False] * prone_inked),
                   tuple([False] * n + [True] * prone_inked), {})
    return ink.fits({"me"} if drawn_me else set(), set(), "me")


def test_the_ink_agrees_with_a_route_drawn_when_short_drawn_of_it_is_inked() -> None:
    assert fits(True, 0, 20, wide=18)  # SHORT_DRAWN: 90%
    assert not fits(True, 0, 20, wide=17)


def test_the_ink_agrees_with_a_route_not_drawn_up_to_short_empty_or_long_empty_of_it_inked() -> None:
    from printkit.scan.explain import LONG

    short = 10
    assert LONG == 20
    assert fits(False, 1, short)  # SHORT_EMPTY: 10%
    assert not fits(False, 2, short)
    assert fits(False, 5, LONG)  # LONG_EMPTY: 25% (a long line collects specks at its dashes)
    assert not fits(False, 6, LONG)
    assert fits(False, 0, short, prone_inked=1)  # PRONE_HITS: 2
    assert not fits(False, 0, short, prone_inked=2)


def test_a_star_ring_within_the_band_is_an_unsure_start_on_the_sheet() -> None:
    from pathlib import Path

    from printkit.loading.maps import load_map
    from printkit.scan.images import PageSource
    from printkit.scan.locate import Identity
    from printkit.scan.sheet import SheetRead, check_sheet

    m = load_map("world")
    first, second = m.cities[0], m.cities[1]
    for star, unsure in ((0.0149, False), (0.024, True), (0.026, True), (0.0351, False)):
        sheet = SheetRead(PageSource(Path("x.jpg")), Identity("world", "a4", "", 1, "Ann"), m, {}, {},
                          {first.id: star, second.id: 0.0}, np.zeros((1, 1), np.uint8))
        check_sheet(sheet, {}, frozenset())
        faint = [u.message for u in sheet.uncertain if "ring round its circle" in u.message]
        assert faint == ([f"route: {first.name}: {star:.1%} of the ring round its circle is inked, too little for a "
                          "start star and too much for none; check it"] if unsure else []), star
        assert sheet.route == ([first.id] if star >= 0.025 else None)  # the lean stands: starred from 2.5%
