"""How far each square of a warped scan's print lies off the blank sheet's: the page's local misfit, square by square.

Used twice on a bent page (a fold, a curl): by the alignment, to remap the
picture through the shifts, and by the coverage check, to find what is still
out of place after that (docs/scan.md, "Bent pages").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from printkit.scan.locate import SCALE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from printkit.scan.images import Image

    Mask = npt.NDArray[np.bool_]

CELL = 36.0
"""Points: the side of the squares of print matched one by one (half overlapping)."""
CELL_RESPONSE = 0.4
"""Least phase-correlation response for a square's shift to count (a square of paper alone tells nothing)."""
FLAT = 0.15
"""A square whose print's weaker direction (structure tensor) is under this share of its stronger one is lines
in one direction: its shift along them is not measured (a name line, a header rule), only across them."""
AGREE = 1.5
"""Points: a square's shift this far from the median of its matched neighbours' is a false match (for the remap)."""


@dataclass(frozen=True)
class Cells:
    """Per square with print (pixels): its centre, its print's shift in the scan, the match's response, and for
    lines in one direction (``flat``) the direction across them (``across``), the only one measured."""

    at: Image
    shift: Image
    response: Image
    across: Image
    flat: Mask

    @property
    def matched(self) -> Mask:
        """Whether each square was matched at all (response at least CELL_RESPONSE)."""
        import numpy as np

        matched: Mask = np.asarray(self.response >= CELL_RESPONSE, dtype=bool)
        return matched

    def measured(self) -> Image:
        """The shifts as far as they are measured: a flat square's only across its lines."""
        import numpy as np

        along = (self.shift * self.across).sum(axis=1, keepdims=True) * self.across
        out: Image = np.where(self.flat[:, None], along, self.shift)
        return out

    def agreeing(self) -> Mask:
        """Matched squares with print both ways whose shift lies within AGREE of their neighbours' median."""
        import numpy as np

        good = self.matched & ~self.flat
        keep = good.copy()
        step = round(CELL * SCALE) // 2
        for i in np.flatnonzero(good):
            near = good & (np.abs(self.at - self.at[i]).max(axis=1) <= step + 1)
            near[i] = False
            if near.sum() >= 3 and np.hypot(*(self.shift[i] - np.median(self.shift[near], axis=0))) > AGREE * SCALE:
                keep[i] = False
        return keep


def dense(warped: Image, blank: Image, reach: float | None = None) -> Cells:
    """Every square of CELL (half overlapping) with print, matched in ``warped`` by phase correlation (:func:`correlate`),
    its print looked for within ``reach`` points of its place (anywhere in the square when None)."""
    import numpy as np

    from printkit.scan.ink import darkest

    side = round(CELL * SCALE)
    scan = darkest(warped).astype(np.float32)
    sharp = blank.astype(np.float32)
    height, width = sharp.shape
    corners = [(x, y) for y in range(0, height - side + 1, side // 2) for x in range(0, width - side + 1, side // 2)
               if float((sharp[y:y + side, x:x + side] < 128).mean()) >= 0.01]
    if not corners:
        empty = np.zeros((0, 2))
        return Cells(empty, empty, np.zeros(0), empty, np.zeros(0, bool))
    a = np.stack([sharp[y:y + side, x:x + side] for x, y in corners])
    b = np.stack([scan[y:y + side, x:x + side] for x, y in corners])
    shift, response = correlate(a, b, None if reach is None else reach * SCALE)
    xy = np.array(corners)
    p, q, r = box_tensor(tensor_sums(blank), xy[:, 0], xy[:, 1], side)
    root = np.sqrt(((p - r) / 2) ** 2 + q * q)
    strong, weak = (p + r) / 2 + root, (p + r) / 2 - root
    across = np.stack([q, strong - p], axis=1)
    across = np.where(np.abs(across).sum(axis=1, keepdims=True) > 1e-9, across, np.stack([strong - r, q], axis=1))
    across /= np.maximum(np.hypot(across[:, 0], across[:, 1]), 1e-9)[:, None]
    at = (xy + side / 2).astype(np.float64)
    return Cells(at, shift, response, across, weak < FLAT * np.maximum(strong, 1e-9))


def tensor_sums(sharp: Image) -> list[Image]:
    """Integral images of a blank sheet's gradient products (gx gx, gx gy, gy gy; Sobel on its grey, 0-1): its
    print's structure tensor, summed over any box at once (:func:`box_tensor`)."""
    import cv2
    import numpy as np

    gray = sharp.astype(np.float32) / 255.0
    gx, gy = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return [cv2.integral(g) for g in (gx * gx, gx * gy, gy * gy)]


def box_tensor(sums: list[Image], x: Any, y: Any, side: int) -> tuple[Any, Any, Any]:
    """The structure tensor's three entries summed over the square of ``side`` at (x, y): numbers, or arrays of
    corners."""
    p, q, r = (s[y + side, x + side] - s[y, x + side] - s[y + side, x] + s[y, x] for s in sums)
    return p, q, r


def correlate(a: Image, b: Image, reach: float | None = None) -> tuple[Image, Image]:
    """(shifts (n, 2), responses (n,)): where the content of each square ``a[i]`` lies in ``b[i]``, by phase correlation.

    OpenCV's DFT under a Hanning window; the peak placed to a tenth of a pixel by
    the centroid of its 3 x 3 neighbourhood, whose sum is the response (1 for
    a perfect match); with ``reach`` (pixels), the peak is looked for only that near
    no shift (a row of boxes or two parallel lines match one period off too). (OpenCV 5.0's ``phaseCorrelate`` gave different shifts
    for the same squares from one call to the next.)
    """
    import cv2
    import numpy as np

    n, rows, cols = a.shape
    window = np.outer(np.hanning(rows), np.hanning(cols)).astype(np.float32)
    a = (a - a.mean(axis=(1, 2), keepdims=True)) * window
    b = (b - b.mean(axis=(1, 2), keepdims=True)) * window
    surface = np.empty((n, rows, cols), np.float32)
    for i in range(n):
        cross = cv2.mulSpectrums(cv2.dft(b[i], flags=cv2.DFT_COMPLEX_OUTPUT),
                                 cv2.dft(a[i], flags=cv2.DFT_COMPLEX_OUTPUT), 0, conjB=True)
        cross /= np.maximum(cv2.magnitude(cross[..., 0], cross[..., 1]), 1e-9)[..., None]
        surface[i] = cv2.idft(cross, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    if reach is not None:
        dy, dx = np.meshgrid(np.fft.fftfreq(rows) * rows, np.fft.fftfreq(cols) * cols, indexing="ij")
        surface[:, np.hypot(dx, dy) > reach] = -1.0
    py, px = np.divmod(surface.reshape(n, -1).argmax(axis=1), cols)
    steps = np.arange(-1, 2)
    near = surface[np.arange(n)[:, None, None], ((py[:, None] + steps) % rows)[:, :, None],
                   ((px[:, None] + steps) % cols)[:, None, :]]
    weight = np.clip(near, 0.0, None)
    total = np.maximum(weight.sum(axis=(1, 2)), 1e-9)
    dy = py + (weight.sum(axis=2) * steps).sum(axis=1) / total
    dx = px + (weight.sum(axis=1) * steps).sum(axis=1) / total
    dy = np.where(dy > rows / 2, dy - rows, dy)
    dx = np.where(dx > cols / 2, dx - cols, dx)
    return np.stack([dx, dy], axis=1), weight.sum(axis=(1, 2))
