"""Where a sheet can be read: inside the picture, lit enough, its print in its place; ink too faint to tell.

A box or route the picture does not show (a corner cut off), that lies in a
shadow too deep to see ink in, or whose printed outline or dashes are not
where the blank sheet has them (a fold or curl the alignment could not follow)
is unsure, never read as empty or marked. So is a box that holds only faint
ink: pencil lighter than a copier's threshold, a light pen on a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from printkit.scan.locate import SCALE
from printkit.scan.read import BOX_EMPTY, BOX_INSET, BOX_MARKED, UNREADABLE, Read, line_samples, px

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    from numpy.typing import NDArray

    from printkit.scan.images import Image
    from printkit.scan.ink import Blank
    from printkit.scan.shifts import Cells, Mask
    from printkit.sheets.fields import Fields

DARK_PAPER = 64.0
"""Local paper brightness (0-255) below which ink cannot be told from paper: a shadow too deep to read."""
PRINTED = 128
"""Blank-sheet grey (0-255) below which a pixel is printed (a box's outline, a route's dashes)."""
SHOWN = 0.35
"""The scan shows a printed pixel when it is at least this share as dark there as the blank sheet (blur fades it)."""
REACH = 0.8
"""Points: a printed pixel counts as shown with dark scan this close to it (blur, the alignment's last tenths)."""
PRINT_SEEN = 0.4
"""Least share of a field's printed pixels the scan must show for the field to be where the sheet says."""
PAD = 1.5
"""Points round a box whose printed outline is checked; a route's dashes are checked this near its line."""
FAINT_MARGIN = 25
"""Grey levels darker than the paper within FAINT_PAPER (light taken out, blurred) that count as faint ink."""
FAINT_PAPER = 3.0
"""Points: faint ink is compared with the lightest paper this near (a stroke is thin; a shadow's edge is not)."""
FAINT_BLUR = 1.0
"""Pixels: the blur faint ink is looked for through (a 1-bit copy's scattered pencil specks run together)."""
FAINT_SHARE = 0.08
"""Share of a box's inside holding faint ink that makes a box with too little clear ink unsure."""


CELL_TOL = 0.8
"""Points: a square of print further than this off its place is out of place (its edges would read as ink)."""


@dataclass(frozen=True)
class Seen:
    """Per pixel of the warped sheet: in the picture, lit enough, print shown where printed and in its place; the
    light-normalised grey (faint ink is looked for in it box by box, :func:`faint_box`)."""

    valid: Image
    lit: Image
    shown: Image
    normal: Image
    bent: bool = False
    """The alignment found the page bent (a fold, a curl): what is left of it is looked for field by field."""


STRAIN_TOL = 0.8
"""Points: neighbouring squares of print whose shifts differ by more than this straddle a fold (the page torn apart
between them, which no smooth warp follows); both are out of place."""


SURE_MATCH = 0.6
"""Least phase-correlation response for a square of lines one way (``flat``) to be put out of place by its shift
(a weaker match between parallel lines may be one line off)."""


def out_of_place(warped: Image, blank: Blank) -> Image:
    """Pixels (1) round the squares of print out of place (:func:`misplaced_cells`), matched within SEARCH (see
    :mod:`printkit.scan.shifts`)."""
    import numpy as np

    from printkit.scan.align import SEARCH
    from printkit.scan.shifts import CELL, dense

    bad = np.zeros(blank.sharp.shape, np.uint8)
    cells = dense(warped, blank.sharp, SEARCH)
    r = round(CELL * SCALE / 4)
    for x, y in cells.at[misplaced_cells(cells)]:
        bad[max(0, round(y) - r):round(y) + r, max(0, round(x) - r):round(x) + r] = 1
    return bad


def misplaced_cells(cells: Cells) -> Mask:
    """Which squares of print are out of place: matched (lines one way: surely, SURE_MATCH) further than CELL_TOL
    off the blank's place, or more than STRAIN_TOL from the next matched square to the right or below.

    The next square is the neighbour half a square on; when that one cannot be
    placed by its own match (too weak a response, or no print), the one a whole
    square on, and the square between is out of place too: a crease through a
    square spoils its match, so the page either side of it says whether it is torn
    there. A match just over or under CELL_RESPONSE then decides nothing (OpenCV 5.0
    and 5.1 matched one square astride a fold at 0.400 and 0.397).
    """
    import numpy as np

    from printkit.scan.shifts import CELL

    at, shifts = cells.at, cells.measured()
    matched = cells.matched & (~cells.flat | (cells.response >= SURE_MATCH))
    off: Mask = (np.hypot(shifts[:, 0], shifts[:, 1]) > CELL_TOL * SCALE) & matched
    step = round(CELL * SCALE) // 2
    index = {(round(x), round(y)): i for i, (x, y) in enumerate(at)}
    for i in (int(k) for k in np.flatnonzero(matched)):
        x, y = round(at[i, 0]), round(at[i, 1])
        for dx, dy in ((step, 0), (0, step)):
            near, far = index.get((x + dx, y + dy)), index.get((x + 2 * dx, y + 2 * dy))
            if near is not None and matched[near]:
                span = [near]
            elif far is not None and matched[far]:  # the square between (if it has print) cannot be placed alone
                span = [far] if near is None else [near, far]
            else:
                continue
            if np.hypot(*(shifts[i] - shifts[span[-1]])) > STRAIN_TOL * SCALE:
                off[[i, *span]] = True
    return off


def seen(valid: Image, paper: Image, normal: Image, blank: Blank, misplaced: Image | None = None,
         bent: bool = False) -> Seen:
    """What the picture shows of the sheet, from its coverage, paper brightness and light-normalised grey."""
    import cv2
    import numpy as np

    k = 2 * max(1, round(REACH * SCALE)) + 1
    darkest = cv2.erode(normal, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    shown = np.less_equal(darkest, _shown_below(blank.fields)).view(np.uint8)  # a bool is a byte of 0 or 1
    if misplaced is not None:
        shown[misplaced > 0] = 0
    return Seen(valid.astype(np.uint8, copy=False), lit(paper), shown, normal, bent)


def lit(paper: Image) -> Image:
    """Pixels (1, else 0) whose paper brightness (0-255) is DARK_PAPER or more: light enough to tell ink from paper."""
    import numpy as np

    out: Image = np.greater_equal(paper, DARK_PAPER).view(np.uint8)  # a bool is a byte of 0 or 1
    return out


@lru_cache(maxsize=16)
def _shown_below(fields: Fields) -> Image:
    """Per pixel, the grey at or below which a scan shows the print there (SHOWN as dark as the blank sheet), once
    per layout (a blank sheet is drawn from its fields alone)."""
    import numpy as np

    from printkit.scan.ink import blank_sheet

    floor: Image = 255.0 - SHOWN * (255.0 - blank_sheet(fields.map, fields.paper).sharp.astype(np.float32))
    return floor


@dataclass(frozen=True)
class Windows:
    """Rectangles of a layout's sheet as flat pixel indices: each window's pixels in turn, and the printed ones."""

    pixels: NDArray[np.intp]
    starts: NDArray[np.intp]
    """Where each window with pixels starts in ``pixels``."""
    empty: NDArray[np.bool_]
    """Per window: it has no pixels on the sheet."""
    printed: NDArray[np.intp]
    """The pixels of every window that the blank sheet prints (darker than PRINTED)."""


def windows(sharp: Image, rects: Sequence[tuple[float, float, float, float]]) -> Windows:
    """The pixels of each rectangle (points) on the blank sheet ``sharp``, and which of them it prints."""
    import numpy as np

    height, width = sharp.shape[:2]
    parts: list[NDArray[np.intp]] = []
    starts, empty, at = [], [], 0
    for x0, y0, x1, y1 in rects:
        r0, r1, c0, c1 = max(0, px(y0)), min(height, px(y1) + 1), max(0, px(x0)), min(width, px(x1) + 1)
        empty.append(r1 <= r0 or c1 <= c0)
        if not empty[-1]:
            parts.append((np.arange(r0, r1)[:, None] * width + np.arange(c0, c1)[None, :]).ravel())
            starts.append(at)
            at += parts[-1].size
    pixels = np.concatenate(parts) if parts else np.zeros(0, np.intp)
    return Windows(pixels, np.array(starts, np.intp), np.array(empty, bool), pixels[sharp.ravel()[pixels] < PRINTED])


def why_unread(s: Seen, w: Windows, misplaced: str) -> str:
    """Why the windows cannot be read ("" if they can): the first window outside the picture or in deep shadow
    says which, else too little of their print shown (``misplaced``)."""
    import numpy as np

    shows, bright = np.zeros(len(w.empty), bool), np.zeros(len(w.empty), bool)
    if w.pixels.size:
        shows[~w.empty] = np.minimum.reduceat(s.valid.ravel()[w.pixels], w.starts) > 0
        bright[~w.empty] = np.minimum.reduceat(s.lit.ravel()[w.pixels], w.starts) > 0
    bad = np.flatnonzero(~shows | ~bright)
    if bad.size:
        return "outside the picture" if not shows[bad[0]] else "in a shadow too deep to read"
    count = w.printed.size
    if count and int(np.count_nonzero(s.shown.ravel()[w.printed])) < PRINT_SEEN * count:
        return misplaced
    return ""


@lru_cache(maxsize=16)
def _box_windows(fields: Fields) -> dict[str, Windows]:
    """Per box, its rectangle PAD wider: where its printed outline is checked (once per layout)."""
    from printkit.scan.ink import blank_sheet

    sharp = blank_sheet(fields.map, fields.paper).sharp
    return {b.id: windows(sharp, [(b.rect[0] - PAD, b.rect[1] - PAD, b.rect[2] + PAD, b.rect[3] + PAD)])
            for b in fields.boxes}


@lru_cache(maxsize=16)
def _route_windows(fields: Fields) -> dict[str, Windows]:
    """Per route, squares every 6 pt along its visible line: where its dashes are checked (once per layout)."""
    from printkit.scan.ink import blank_sheet

    sharp = blank_sheet(fields.map, fields.paper).sharp
    return {route.id: windows(sharp, [(x - PAD, y - PAD, x + PAD, y + PAD) for x, y in line_samples(route, fields)[::6]])
            for route in fields.routes}


def why_box(s: Seen, fields: Fields, box_id: str) -> str:
    """Why a box cannot be read ("" if it can): outside the picture, in deep shadow, or its outline out of place."""
    return why_unread(s, _box_windows(fields)[box_id], "its printed outline is not where the sheet has it (folded, curled "
                "or covered?)")


def why_route(s: Seen, fields: Fields, route_id: str) -> str:
    """Why a route cannot be read ("" if it can): any stretch outside the picture, in shadow, or its dashes out of place."""
    return why_unread(s, _route_windows(fields)[route_id], "its printed dashes are not where the sheet has them (folded, "
                "curled or covered?)")


def faint_box(s: Seen, rect: tuple[float, float, float, float]) -> float:
    """The share of a box's inside (BOX_INSET in) holding faint ink (FAINT_MARGIN darker than the lightest paper
    within FAINT_PAPER, through a FAINT_BLUR blur), measured on the box alone (as on the whole page: the window
    is wider than both filters reach)."""
    import cv2

    x0, y0, x1, y1 = (px(v) for v in (rect[0] + BOX_INSET, rect[1] + BOX_INSET, rect[2] - BOX_INSET, rect[3] - BOX_INSET))
    j = 2 * round(FAINT_PAPER * SCALE) + 1
    m = j // 2 + 4 * round(FAINT_BLUR) + 2
    top, left = max(0, y0 - m), max(0, x0 - m)
    soft = cv2.GaussianBlur(s.normal[top:y1 + m, left:x1 + m], (0, 0), FAINT_BLUR)
    faint = cv2.dilate(soft, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (j, j))) - soft > FAINT_MARGIN
    inside = faint[y0 - top:y1 - top, x0 - left:x1 - left]
    return float(inside.mean()) if inside.size else 0.0


def only_faint(s: Seen, r: Read, rect: tuple[float, float, float, float]) -> bool:
    """Whether a box read as not marked (under the middle of its band) holds faint ink on FAINT_SHARE or more of its
    inside: pencil too light to count, not an empty box."""
    return r.measure <= (BOX_EMPTY + BOX_MARKED) / 2 and faint_box(s, rect) >= FAINT_SHARE


STROKE_MIN = 0.7
"""Points: on a bent page, a route read as drawn carries at least this much ink per point of line (a pen's width).

The printed dashes of a route left a fraction of a point off by a fold
read as specks at each dash's ends, enough to read as drawn; a pen
stroke, however thin, leaves more than half a point of ink across."""


def thin(ink: Image, route_id: str, fields: Fields) -> bool:
    """Whether the ink along a route is too thin for a pen stroke: specks, not a line (see STROKE_MIN)."""
    pts = line_samples(next(r for r in fields.routes if r.id == route_id), fields)
    if not pts:
        return False
    inked = 0
    for x, y in pts:
        window = ink[max(0, px(y - 3)):px(y + 3) + 1, max(0, px(x - 3)):px(x + 3) + 1]
        inked += int(window.sum())
    # each sample's 6 x 6 pt window covers 6 pt of line: ink per point of line, in points across
    return inked / (SCALE * SCALE) / 6.0 / len(pts) < STROKE_MIN


def crossed(ink: Image, rect: tuple[float, float, float, float]) -> bool:
    """Whether ink runs straight through a box as a crease does: just outside it on both sides, level with each
    other, and the box's own ink nearly all in that one band (a pen's cross or fill that overshoots is not)."""
    import numpy as np

    x0, y0, x1, y1 = rect
    out, depth = PAD + 0.5, 1.5
    left = ink[px(y0):px(y1), max(0, px(x0 - out - depth)):px(x0 - out)].any(axis=1)
    right = ink[px(y0):px(y1), px(x1 + out):px(x1 + out + depth)].any(axis=1)
    top = ink[max(0, px(y0 - out - depth)):px(y0 - out), px(x0):px(x1)].any(axis=0)
    bottom = ink[px(y1 + out):px(y1 + out + depth), px(x0):px(x1)].any(axis=0)
    inside = ink[px(y0):px(y1), px(x0):px(x1)]
    total = int(inside.sum())
    for level, axis in ((left & right if left.shape == right.shape else None, 1),
                        (top & bottom if top.shape == bottom.shape else None, 0)):
        if level is None or not level.any() or not total:
            continue
        hits = np.flatnonzero(level)
        if hits.max() - hits.min() > px(CREASE_WIDE):  # level ink along much of the box: a fill that overshoots
            continue
        lo, hi = max(0, int(hits.min()) - px(CREASE_BAND)), int(hits.max()) + px(CREASE_BAND) + 1
        band = int((inside[lo:hi, :] if axis == 1 else inside[:, lo:hi]).sum())
        if band >= CREASE_SHARE * total:
            return True
    return False


CREASE_BAND = 1.5
"""Points either side of the level ink outside a box: the band a crease through the box keeps to."""
CREASE_WIDE = 3.0
"""Points: the widest a crease's line outside a box is; level ink wider than this is a pen's."""
CREASE_SHARE = 0.8
"""Share of a box's ink inside that band that makes it a crease, not a mark."""


EDGE = 1.2
"""Points inside a box's read area along its edges: ink only there is its outline out of place, not a mark."""
EDGE_SHARE = 0.7
"""Share of a lightly marked box's ink lying along its edges (within EDGE) that makes it unsure."""
LIGHT_MARK = 0.12
"""A marked box with less ink than this is looked at for ink along its edges only."""


def along_edges(ink: Image, rect: tuple[float, float, float, float]) -> bool:
    """Whether a lightly inked box holds its ink only along the edges of its read area (its outline out of place)."""
    x0, y0, x1, y1 = (px(v) for v in (rect[0] + BOX_INSET, rect[1] + BOX_INSET, rect[2] - BOX_INSET, rect[3] - BOX_INSET))
    inside = ink[y0:y1, x0:x1]
    total = int(inside.sum())
    if not total or total > LIGHT_MARK * inside.size:
        return False
    e = px(EDGE) + 1
    core = int(inside[e:-e, e:-e].sum()) if inside.shape[0] > 2 * e and inside.shape[1] > 2 * e else 0
    return total - core >= EDGE_SHARE * total


def check(boxes: dict[str, Read], routes: dict[str, Read], s: Seen, blank: Blank, ink: Image | None = None) -> None:
    """Make every box and route the picture cannot show unsure (confidence 0, the reason in ``why``), in place.

    With the ``ink``, a marked box a line runs straight through (:func:`crossed`)
    is unsure; on a ``bent`` page, so is a route read as drawn whose ink is
    only specks (:func:`thin`).
    """
    rects = {b.id: b.rect for b in blank.fields.boxes}
    for bid, r in boxes.items():
        why = why_box(s, blank.fields, bid)
        if not why and only_faint(s, r, rects[bid]):
            why = "only faint marks (pencil or a light pen too faint on this copy?)"
        if not why and ink is not None and r.on and along_edges(ink, rects[bid]):
            why = "its ink lies only along its outline (the box out of place: a fold or curl?)"
        if not why and ink is not None and s.bent and r.on and crossed(ink, rects[bid]):
            why = "a line runs straight through it and past both sides (a crease or fold?)"
        if why:
            boxes[bid] = replace(r, confidence=0.0, why=why)
    for rid, r in routes.items():
        why = why_route(s, blank.fields, rid)
        if not why and ink is not None and s.bent and r.on and thin(ink, rid, blank.fields):
            why = "the page is bent here and the ink along it is only specks (its printed dashes out of place?)"
        if why:
            routes[rid] = replace(r, on=False, measure=UNREADABLE, confidence=0.0, why=why)

