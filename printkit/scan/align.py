"""Sub-pixel alignment of a warped scan on its blank sheet: patches of print matched one by one, then one refit."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from printkit.scan.locate import SCALE, warped_by

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from printkit.scan.images import Image

PATCH = 40.0
"""Points: the side of a square patch of print matched on its own."""
GRID = (6, 4)
"""Columns and rows of the cells each holding one patch (the best-printed one in the cell)."""
MIN_STRUCTURE = 0.02
"""Least print a patch needs in its weaker direction (smallest structure-tensor eigenvalue, per pixel)."""
SEARCH = 6.0
"""Points: how far a patch may be found off its place (by a corner whose marker was missed: up to 3.2 pt seen)."""
MIN_MATCH = 0.6
"""Least correlation of a patch with the blank for its shift to count."""
INLIER = 0.3
"""Points: a patch's shift agrees with the refit if it lies this close to it."""
MIN_INLIERS = 10
"""Least patches agreeing with the refit for it to replace the marker warp."""
MOST_MOVE = 5.0
"""Points: a refit moving any part of the page further than this is not trusted (the marker warp is kept)."""
LEAST_MOVE = 0.2
"""Points: a refit moving no part of the page further than this (half a pixel) is not worth warping again."""
ITERATIONS = 30
"""The cap on ECC iterations per patch (it stops earlier once an iteration gains less than 0.001 correlation)."""


def _weakest(sums: list[Image], x: int, y: int, side: int) -> float:
    """The smaller eigenvalue of the structure tensor summed over one square (per pixel): print in both directions."""
    from printkit.scan.shifts import box_tensor

    a, b, c = (float(v) / side ** 2 for v in box_tensor(sums, x, y, side))
    return float((a + c) / 2 - ((a - c) ** 2 / 4 + b * b) ** 0.5)


@lru_cache(maxsize=16)
def patches(map_id: str, paper: str) -> tuple[tuple[int, int], ...]:
    """Top-left pixels of the patches matched on one blank sheet: its four corners, the best-printed square per cell
    (kept in the disk cache under the blank sheet's pixels)."""
    from printkit import cache
    from printkit.scan.ink import blank_sheet

    sharp = blank_sheet(map_id, paper).sharp
    kind: type[tuple[tuple[int, int], ...]] = tuple[tuple[int, int], ...]
    return cache.remembered("scan-patches", (repr(sharp.shape), sharp.tobytes()), kind, lambda: _patches(sharp))


def _patches(sharp: Image) -> tuple[tuple[int, int], ...]:
    """The patches of :func:`patches`, picked on the blank sheet ``sharp``."""
    from printkit.scan.shifts import tensor_sums
    from printkit.sheets import identity

    sums = tensor_sums(sharp)
    side, margin = round(PATCH * SCALE), round(SEARCH * SCALE) + 1
    height, width = sharp.shape[:2]
    qx0, qy0, qx1, qy1 = (v * SCALE for v in identity.qr_box(width / SCALE))
    cols, rows = GRID
    # the four corner squares first (each holds a marker, printed on every sheet): they hold the refit at the
    # page's corners, where a homography through inner patches alone would swing most
    out = [(x, y) for x in (margin, width - margin - side) for y in (margin, height - margin - side)]
    for cell in range(cols * rows):
        x0 = margin + (cell % cols) * (width - 2 * margin) // cols
        y0 = margin + (cell // cols) * (height - 2 * margin) // rows
        spots = [(x, y) for y in range(y0, y0 + (height - 2 * margin) // rows - side + 1, side // 4)
                 for x in range(x0, x0 + (width - 2 * margin) // cols - side + 1, side // 4)
                 # the QR code holds the player's name, the blank's none: never matched
                 if not (x < qx1 + 10 and x + side > qx0 - 10 and y < qy1 + 10 and y + side > qy0 - 10)]
        scored = [(_weakest(sums, x, y, side), x, y) for x, y in spots]
        if scored and max(scored)[0] >= MIN_STRUCTURE:
            _, x, y = max(scored)
            out.append((x, y))
    return tuple(out)


def crops_of(warped: Image) -> Callable[[int, int, int, int], Image]:
    """Windows of a scan already warped onto the page."""
    return lambda x0, y0, x1, y1: warped[y0:y1, x0:x1]


def warped_crops(image: Image, h: Image) -> Callable[[int, int, int, int], Image]:
    """Windows of ``image`` warped onto the page by ``h``, each warped on its own (the same pixels as a window of
    the whole page warped, for a fraction of its cost when only patches are looked at)."""
    import cv2
    import numpy as np

    def crop(x0: int, y0: int, x1: int, y1: int) -> Image:
        shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
        out: Image = cv2.warpPerspective(image, shift @ h, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                         borderValue=(255, 255, 255))
        return out

    return crop


def _shift(blank: Image, crop: Callable[[int, int, int, int], Image], x: int, y: int) -> tuple[float, float] | None:
    """How far (pixels) the print of the patch at (x, y) lies off its place in the warped scan, or None if not found."""
    import cv2
    import numpy as np

    from printkit.scan.ink import darkest

    side, m = round(PATCH * SCALE), round(SEARCH * SCALE)
    t = blank[y:y + side, x:x + side].astype(np.float32)
    s = darkest(crop(x - m, y - m, x + side + m, y + side + m)).astype(np.float32)
    w = np.array([[1, 0, m], [0, 1, m]], dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, ITERATIONS, 1e-3)
    everywhere: Any = None  # no mask
    try:
        rho, moved = cv2.findTransformECC(t, s, w, cv2.MOTION_TRANSLATION, criteria, everywhere, 3)
    except cv2.error:
        return None  # did not converge (a blank patch, a blot of ink)
    dx, dy = float(moved[0, 2]) - m, float(moved[1, 2]) - m
    if rho < MIN_MATCH or max(abs(dx), abs(dy)) > m - 1:
        return None
    return dx, dy


def _found(blank: Image, crop: Callable[[int, int, int, int], Image], map_id: str,
           paper: str) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(where each patch's print was found in the warped scan, where it belongs): pixel centres, matched patches only."""
    half = PATCH * SCALE / 2
    src, dst = [], []
    for x, y in patches(map_id, paper):
        found = _shift(blank, crop, x, y)
        if found is not None:
            src.append((x + half + found[0], y + half + found[1]))
            dst.append((x + half, y + half))
    return src, dst


def refit(src: list[tuple[float, float]], dst: list[tuple[float, float]], shape: tuple[int, ...],
          most: float = MOST_MOVE) -> tuple[Image | None, float]:
    """(the correcting homography, how far it moves the page, points), or (None, 0.0) when it is not trusted."""
    import cv2
    import numpy as np

    if len(src) < MIN_INLIERS:
        return None, 0.0
    fix, inliers = cv2.findHomography(np.array(src, np.float32), np.array(dst, np.float32), cv2.RANSAC, INLIER * SCALE)
    if fix is None or int(inliers.sum()) < MIN_INLIERS:
        return None, 0.0
    height, width = shape[:2]
    grid = np.array([[[x, y] for x in np.linspace(0, width, 9) for y in np.linspace(0, height, 7)]], np.float64)
    move = float(np.hypot(*(cv2.perspectiveTransform(grid, fix) - grid)[0].T).max()) / SCALE
    if move > most or move < LEAST_MOVE:
        return None, move if move < LEAST_MOVE else 0.0
    return fix, move


def refine(image: Image, h: Image, warped: Image, map_id: str, paper: str) -> tuple[Image, Image, float]:
    """(homography, warped image, how far it moved the page, points): the marker warp corrected on the blank sheet.

    Each patch of the blank sheet is found in the warped scan by ECC
    (translation only, sub-pixel); a homography fitted through the shifts
    (RANSAC) corrects the marker warp, and ``image`` is warped again. Too few
    patches agreeing, or a correction moving the page more than MOST_MOVE or
    less than LEAST_MOVE, keeps the marker warp (``h``, ``warped``, 0.0).
    """
    from printkit.scan.ink import blank_sheet

    blank = blank_sheet(map_id, paper).sharp
    fix, move = refit(*_found(blank, crops_of(warped), map_id, paper), blank.shape)
    if fix is None:
        return h, warped, 0.0
    return fix @ h, warped_by(image, fix @ h, paper), move


LOOSE_ROUNDS = 3
"""Refits of a sheet read from two markers (locate.MIN_MARKERS): each finds the patches the last one brought in reach."""


def loose(image: Image, h: Image, warped: Image, map_id: str, paper: str) -> tuple[Image, Image] | None:
    """(homography, warped image) of a sheet warped through two markers only, fitted on its print; None if it does not fit.

    The similarity through two markers has no perspective: the page's print
    is matched square by square (:func:`printkit.scan.shifts.dense`, anywhere
    in the square), then patch by patch (:func:`refine`'s patches, up to SEARCH
    off), and a homography refitted through them each time, with no limit on
    how far it moves the page, LOOSE_ROUNDS times.
    None when fewer than MIN_INLIERS patches agree, or the last round still
    moved the page more than LOCAL_TOL.
    """
    from printkit.scan.ink import blank_sheet
    from printkit.scan.shifts import dense

    blank = blank_sheet(map_id, paper).sharp
    for k in range(LOOSE_ROUNDS):
        if k == 0:  # the squares of print first, found anywhere in their square (the marker warp may be 15 pt off)
            cells = dense(warped, blank)
            keep = cells.agreeing()
            pairs = [(float(x + dx), float(y + dy)) for (x, y), (dx, dy) in zip(cells.at[keep], cells.shift[keep])], \
                [(float(x), float(y)) for x, y in cells.at[keep]]
        else:
            pairs = _found(blank, crops_of(warped), map_id, paper)
        fix, move = refit(*pairs, blank.shape, most=float("inf"))
        if fix is None:
            return (h, warped) if move else None  # it moved the page under LEAST_MOVE: it fits
        h = fix @ h
        warped = warped_by(image, h, paper)
    return (h, warped) if move <= LOCAL_TOL else None


LOCAL_TOL = 0.6
"""Points: a patch left further than this off its place by the refit shows the page bent there (a fold, a curl)."""
LOCAL_MIN = 3
"""Least patches left off their place for the page to be warped piece by piece."""
FIELD_STEP = 20.0
"""Points between the nodes of the grid the patches' displacements are interpolated on."""


@dataclass(frozen=True)
class Fit:
    """The scan warped onto the page: the homography, the picture, where it has pixels, and how it was corrected.

    ``residuals`` holds, per patch matched, its centre on the page and how far
    (points) the global fit left it off its place before any local warp.
    """

    h: Image
    warped: Image
    valid: Image
    move: float
    local: bool
    residuals: tuple[tuple[float, float, float], ...]

    @property
    def bent(self) -> bool:
        """Whether the page is bent (what is left of it is looked for field by field): warped piece by piece, too
        few patches matched, or patches off their place (:func:`is_bent`)."""
        return self.local or is_bent(self.residuals, LOCAL_TOL) or len(self.residuals) < MIN_INLIERS


def is_bent(residuals: Sequence[tuple[float, float, float]], tol: float) -> bool:
    """Whether the patches' residuals after the fit show a fold or curl: two patches over ``tol`` (points), or one
    over twice it; one patch a hair over is the print's own wobble (a 0.71 pt patch on a flat US sheet)."""
    off = [r[2] for r in residuals if r[2] > tol]
    return len(off) > 1 or any(v > 2 * tol for v in off)


def fit(image: Image, h: Image, warped: Image | None, map_id: str, paper: str) -> Fit:
    """The marker warp corrected on the blank sheet (see :func:`refine`), then piece by piece where the page is bent.

    ``warped`` is ``image`` warped by ``h`` if that is at hand; else only the
    patches are warped by ``h``, and the whole page once, by the fit.

    Where LOCAL_MIN or more patches lie more than LOCAL_TOL off their place
    after the global fit, their displacements are interpolated over the page
    (inverse-distance weights on a FIELD_STEP grid) and the picture is
    remapped through them: moderate curl is taken out; what is left (a fold
    between patches) shows as print out of place, read unsure downstream.
    """
    import cv2
    import numpy as np

    from printkit.scan.ink import blank_sheet
    from printkit.scan.shifts import dense

    blank = blank_sheet(map_id, paper).sharp
    src, dst = _found(blank, warped_crops(image, h) if warped is None else crops_of(warped), map_id, paper)
    fix, move = refit(src, dst, blank.shape)
    better = h if fix is None else fix @ h
    moved: Image = np.array(src, np.float64).reshape(1, -1, 2) if src else np.zeros((1, 0, 2))
    if fix is not None and src:
        moved = cv2.perspectiveTransform(moved, fix)
    off = (moved[0] - np.array(dst, np.float64).reshape(-1, 2)) if src else np.zeros((0, 2))
    residuals = tuple((x / SCALE, y / SCALE, float(np.hypot(*d)) / SCALE) for (x, y), d in zip(dst, off))
    out = warped_by(image, better, paper) if fix is not None or warped is None else warped
    if sum(1 for r in residuals if r[2] > LOCAL_TOL) >= LOCAL_MIN:
        cells = dense(out, blank)
        keep = cells.agreeing()
        if int(keep.sum()) >= MIN_INLIERS:
            bent, valid = _bent(image, better, cells.at[keep], cells.shift[keep], blank.shape)
            return Fit(better, bent, valid, move, True, residuals)
    return Fit(better, out, covered(image.shape, better, blank.shape), move, False, residuals)


def covered(picture: tuple[int, ...], h: Image, shape: tuple[int, ...]) -> Image:
    """Pixels (1) of the warped sheet that the picture (its ``picture`` shape) covers through ``h``: the picture's
    outline carried onto the page and filled (as an all-ones image warped by ``h``, at a fraction of its cost)."""
    import cv2
    import numpy as np

    rows, cols = picture[:2]
    corners = np.array([[[0.0, 0.0], [cols - 1.0, 0.0], [cols - 1.0, rows - 1.0], [0.0, rows - 1.0]]], np.float64)
    ends = np.hstack([corners[0], np.ones((4, 1))]) @ h.T
    if (ends[:, 2] <= 0).any():  # the picture's outline reaches the horizon: warp the ones the long way
        ones = np.ones((rows, cols), np.uint8)
        slow: Image = cv2.warpPerspective(ones, h, (shape[1], shape[0]), flags=cv2.INTER_NEAREST, borderValue=0)
        return slow
    out: Image = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(out, np.round(cv2.perspectiveTransform(corners, h)[0] * 16).astype(np.int32), 1,
                       cv2.LINE_8, 4)
    return out


def _bent(image: Image, h: Image, at: Image, off: Image, shape: tuple[int, ...]) -> tuple[Image, Image]:
    """(``image`` remapped onto the page through ``h`` and the displacements ``off`` found at ``at``, where it has pixels)."""
    import cv2
    import numpy as np

    height, width = shape[:2]
    step = FIELD_STEP * SCALE
    gx, gy = np.meshgrid(np.arange(0, width + step, step), np.arange(0, height + step, step))
    nodes = np.stack([gx.ravel(), gy.ravel()], axis=1)
    d2 = ((nodes[:, None, :] - at[None, :, :]) ** 2).sum(axis=2) + (2 * SCALE) ** 2
    reach = (np.sqrt(d2.min(axis=1, keepdims=True)) + step) ** 2  # the nearest points carry the node
    weights = np.exp(-d2 / reach) / d2
    shift = (weights @ off) / weights.sum(axis=1, keepdims=True)
    where = cv2.perspectiveTransform((nodes + shift).reshape(1, -1, 2), np.linalg.inv(h)).reshape(gx.shape + (2,))
    full = cv2.resize(where.astype(np.float32), (gx.shape[1] * round(step), gx.shape[0] * round(step)),
                      interpolation=cv2.INTER_LINEAR)
    half = round(step) / 2 - 0.5  # resize puts node k's value at pixel k*step + (step-1)/2: shift it onto k*step
    m = np.array([[1, 0, half], [0, 1, half]], np.float32)
    full = cv2.warpAffine(full, m, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    mx, my = full[..., 0], full[..., 1]
    out: Image = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    rows, cols = image.shape[:2]
    valid: Image = ((mx >= 0) & (my >= 0) & (mx <= cols - 1) & (my <= rows - 1)).astype(np.uint8)
    return out, valid
