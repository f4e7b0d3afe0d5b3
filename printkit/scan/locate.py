"""Find a sheet in a photo or scan: its corner markers, then its QR code, then the warp onto its geometry."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from printkit.layout.marks import parse_payload, payload_game
from printkit.scan.images import PageSource, ScanError
from printkit.sheets import identity

if TYPE_CHECKING:
    from printkit.scan.images import Image

SCALE = 2.5
"""Pixels per point of the warped sheet (180 dpi): every read happens at this scale."""
CENTRE = 0.5
"""Pixel i of the warped sheet holds the page from i / SCALE to (i + 1) / SCALE points, as the rendered blank does.

OpenCV puts a pixel's centre at integer coordinates, so a page point p
lands at p * SCALE - CENTRE: without it the scan sits half a pixel (0.2 pt)
right of and below the blank sheet it is compared with."""
QR_SCALE = 6.0
"""Pixels per point the QR code is warped at before decoding (finer than the sheet: small modules)."""
PAPER_SIZES = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}
"""Landscape page sizes of the map sheets, points."""


@dataclass(frozen=True)
class Identity:
    """What a sheet's QR code says."""

    map: str
    paper: str
    layout: str
    page: int
    name: str
    game: str | None = None
    """The game the sheet was printed for (``printkit render --game``), if any."""


@dataclass(frozen=True)
class Located:
    """A sheet found in an image: what it is, and the homography onto its page at :data:`SCALE`."""

    ident: Identity
    image: Image
    markers: int
    h: Image
    """The homography from the image onto the warped sheet."""

    @cached_property
    def warped(self) -> Image:
        """The image warped onto the page by :attr:`h` (white outside the picture), warped when first asked for."""
        return warped_by(self.image, self.h, self.ident.paper)


def warped_by(image: Image, h: Image, paper: str) -> Image:
    """``image`` warped by ``h`` onto the page of ``paper`` at SCALE (white outside the picture)."""
    import cv2

    width, height = PAPER_SIZES[paper]
    out: Image = cv2.warpPerspective(image, h, (round(width * SCALE), round(height * SCALE)), flags=cv2.INTER_LINEAR,
                                     borderValue=(255, 255, 255))
    return out


MIN_PERIMETER = 0.01
"""The least marker perimeter, as a share of the picture's larger side (OpenCV's default 0.03 misses a phone's).

A whole sheet photographed by a phone fills 70-90% of the frame; its 5.6 mm
markers are about 2% of the frame wide, so their perimeter is near 0.03."""
RETRY_BLUR = 1.0
"""Pixels: the Gaussian blur of the second try (a 1-bit copy's ragged marker edges become straight)."""
OUTLINE_WIDTH = 2400
"""Pixels: the width a sheet found by its outline is warped to before its markers are looked for again."""
MIN_MARKERS = 2
"""Least corner markers a sheet is read from. With two (a corner cut off, with its neighbour), the warp is a
similarity (turn, scale, shift) through their eight corners, and the page's print must then fit it (align.loose)."""
MIN_SHEET_PX = 1000
"""Pixels: the narrowest a whole sheet may be in the picture (its QR code's modules need that much; docs/scan.md)."""


FAST_WINDOWS = (13, 33)
"""Pixels: the adaptive-threshold windows of the quick search on a halved picture (:func:`_shrunk`); the full search
(3, 18 and 33 px, every marker then looked for again at full size either way) only when it misses a marker."""


def _detector(fast: bool = False) -> object:
    """OpenCV's ArUco detector for the sheet's markers, tuned for photos (small markers, uneven light); ``fast``: the
    quick search, only where the markers are then found again (two threshold windows, corners not refined)."""
    import cv2

    params = cv2.aruco.DetectorParameters()
    if fast:
        low, high = FAST_WINDOWS
        params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = \
            low, high, high - low
    else:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.minMarkerPerimeterRate = MIN_PERIMETER
        params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = 3, 33, 15
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _detect(gray: Image, fast: bool = False) -> dict[int, Image]:
    """Corner points (4 x 2, the marker's own clockwise order from its top left) of each ArUco marker found."""
    corners, ids, _ = _detector(fast).detectMarkers(gray)  # type: ignore[attr-defined]
    found: dict[int, Image] = {}
    if ids is not None:
        for c, i in zip(corners, ids.flatten()):
            found.setdefault(int(i), c.reshape(4, 2))
    return found


def _best(found: dict[int, Image]) -> int:
    """How many markers of one paper ``found`` holds (the paper with most)."""
    return max(sum(1 for k in range(4) if first + k in found) for first in identity.PAPER_MARKERS.values())


DETECT_PX = 2400
"""Pixels: a picture larger than this is searched for markers halved until it is not (a whole sheet's markers are
still some 20 px wide or more), then each marker again in the full picture round where it was found (the same corners as
a search of the whole picture, in a fraction of its time); the whole picture only when that misses one."""


def _shrunk(gray: Image) -> dict[int, Image]:
    """The markers found in ``gray`` halved (``cv2.pyrDown``) while larger than DETECT_PX, then each looked for
    again in the full picture round where it was found; {} unless all four are found both times."""
    import cv2
    import numpy as np

    small, f = gray, 1
    while max(small.shape) > DETECT_PX:
        small, f = cv2.pyrDown(small), f * 2
    if f == 1:
        return {}
    found = _detect(small, fast=True)
    if _best(found) < 4:
        found = _detect(small)
    if _best(found) < 4:
        return {}
    out: dict[int, Image] = {}
    for k, c in found.items():
        side = float(np.ptp(c, axis=0).max()) * f
        x0, y0 = (np.floor(c.min(axis=0) * f - side)).astype(int).clip(0)
        x1, y1 = (np.ceil(c.max(axis=0) * f + side)).astype(int)
        again = _detect(gray[y0:y1, x0:x1]).get(k)
        if again is None:
            return {}
        out[k] = again + np.array([x0, y0], np.float32)
    return out


def _markers(gray: Image) -> dict[int, Image]:
    """The markers found in ``gray``: shrunk (:func:`_shrunk`), as it is, blurred by RETRY_BLUR, then on the sheet
    found by its outline."""
    import cv2

    found = _shrunk(gray)
    if found:
        return found
    found = _detect(gray)
    if _best(found) == 4:
        return found
    for k, c in _detect(cv2.GaussianBlur(gray, (0, 0), RETRY_BLUR)).items():
        found.setdefault(k, c)
    if _best(found) >= 3:
        return found
    for k, c in _by_outline(gray).items():
        found.setdefault(k, c)
    return found


def outline(gray: Image) -> Image | None:
    """The sheet's four corners in the picture (the largest four-sided outline of light paper), or None."""
    import cv2
    import numpy as np

    if max(gray.shape) < MIN_SHEET_PX / 2:
        return None  # a picture this small holds no sheet worth outlining
    small = max(gray.shape) / 1200
    view = cv2.resize(gray, None, fx=1 / small, fy=1 / small, interpolation=cv2.INTER_AREA) if small > 1 else gray
    scale = max(small, 1.0)
    _, light = cv2.threshold(cv2.GaussianBlur(view, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
        area = cv2.contourArea(c)
        if area < 0.1 * view.shape[0] * view.shape[1]:
            break
        if area > 0.97 * view.shape[0] * view.shape[1]:
            continue  # the picture's own frame (a blank page, a scan without a table round it): no outline
        quad = cv2.approxPolyDP(cv2.convexHull(c), 0.02 * cv2.arcLength(c, True), True)
        if len(quad) == 4:
            out: Image = quad.reshape(4, 2).astype(np.float32) * scale
            return out
    return None


def _by_outline(gray: Image) -> dict[int, Image]:
    """The markers looked for on the sheet found by its outline, warped flat first, mapped back onto ``gray``."""
    import cv2
    import numpy as np

    quad = outline(gray)
    if quad is None:
        return {}
    quad = quad[np.argsort(np.arctan2(*(quad - quad.mean(axis=0)).T[::-1]))]  # clockwise in image coordinates
    sides = [float(np.linalg.norm(quad[k] - quad[(k + 1) % 4])) for k in range(4)]
    if sides[0] + sides[2] < sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    w, h = OUTLINE_WIDTH, round(OUTLINE_WIDTH * 0.72)
    to = cv2.getPerspectiveTransform(quad, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    flat = cv2.warpPerspective(gray, to, (w, h), flags=cv2.INTER_LINEAR, borderValue=255)
    found = _detect(flat)
    if _best(found) < 3:
        found.update({k: c for k, c in _detect(cv2.GaussianBlur(flat, (0, 0), RETRY_BLUR)).items() if k not in found})
    back = np.linalg.inv(to)
    return {k: cv2.perspectiveTransform(c.reshape(1, 4, 2).astype(np.float64), back).reshape(4, 2).astype(np.float32)
            for k, c in found.items()}


def _width_px(found: dict[int, Image], gray: Image) -> float | None:
    """How wide (pixels) the sheet is in the picture: from its outline, else from the markers found; None if unknown."""
    import numpy as np

    quad = outline(gray)
    if quad is not None:
        sides = sorted(float(np.linalg.norm(quad[k] - quad[(k + 1) % 4])) for k in range(4))
        return (sides[2] + sides[3]) / 2
    if len(found) >= 2:
        centres = [c.mean(axis=0) for c in found.values()]
        return max(float(np.linalg.norm(a - b)) for a in centres for b in centres) * 1.05
    return None


def _paper(found: dict[int, Image], where: PageSource, gray: Image | None = None) -> str:
    """The paper the markers tell (at least MIN_MARKERS of its four), else a ScanError saying what was wrong."""
    counts = {paper: sum(1 for k in range(4) if first + k in found) for paper, first in identity.PAPER_MARKERS.items()}
    paper, best = max(counts.items(), key=lambda kv: kv[1])
    if best < MIN_MARKERS:
        seen = f"found {best} of its 4 corner markers"
        width = _width_px(found, gray) if gray is not None else None
        if width is not None and width < MIN_SHEET_PX:
            raise ScanError(f"{where}: the sheet is only {width:.0f} px wide in the picture ({seen}): too small or "
                            f"too low a resolution; it needs at least {MIN_SHEET_PX} px (closer, or scan at 150 dpi)")
        size = f"; the sheet is {width:.0f} px wide in the picture" if width is not None else ""
        raise ScanError(f"{where}: no printkit map sheet found ({seen}{size}; are all four corners in the picture, "
                        "sharp and not in shadow?)")
    return paper


def _at(x: float, y: float) -> tuple[float, float]:
    """Where page point (x, y) lies in the warped sheet, in OpenCV's pixel coordinates."""
    return x * SCALE - CENTRE, y * SCALE - CENTRE


def homography(image: Image, where: PageSource) -> tuple[str, Image, int]:
    """(paper, the homography onto that paper's page at SCALE, markers used), from the corner markers."""
    import cv2
    import numpy as np

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _markers(gray)
    paper = _paper(found, where, gray)
    width, height = PAPER_SIZES[paper]
    src, dst = [], []
    for marker_id, x0, y0, x1, y1 in identity.marker_boxes(paper, width, height):
        if marker_id in found:
            src += list(found[marker_id])
            dst += [_at(x0, y0), _at(x1, y0), _at(x1, y1), _at(x0, y1)]
    pts, to = np.array(src, dtype=np.float32), np.array(dst, dtype=np.float32)
    if len(src) > 8:
        h, _ = cv2.findHomography(pts, to)
    else:  # two markers: a turn, a scale and a shift through their corners; the page's print does the rest (align)
        affine, _ = cv2.estimateAffinePartial2D(pts, to)
        h = None if affine is None else np.vstack([affine, [0.0, 0.0, 1.0]])
    if h is None:
        raise ScanError(f"{where}: the corner markers do not frame a sheet")
    return paper, h, sum(1 for k in range(4) if identity.PAPER_MARKERS[paper] + k in found)


def _decode_qr(crop: Image) -> str:
    """The text of the QR code in ``crop`` ("" if none is read): zxing-cpp first, OpenCV's reader as a fallback.

    zxing-cpp reads the small, slightly blurred codes of a 150 dpi scan that
    OpenCV's detector misses (measured in benchmarks/bench_scan.py).
    """
    import cv2
    import zxingcpp

    qr_only: Any = zxingcpp.BarcodeFormat.QRCode
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    sharp = cv2.addWeighted(gray, 2.5, cv2.GaussianBlur(gray, (0, 0), QR_SCALE * 0.6), -1.5, 0)
    for image in (gray, binary, sharp):
        for code in zxingcpp.read_barcodes(image, formats=qr_only, try_rotate=False,
                                           try_downscale=True):
            if code.valid and code.text:
                return str(code.text)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(gray)
    return str(text)


QR_SIDES = (25, 29, 33, 37)
"""Modules across the sheet's QR code, by version (2-5): a sheet's payload needs version 2 or 3."""
QR_QUIET = 4
"""Modules of quiet zone drawn round a QR code rebuilt from its samples."""
QR_NUDGES = ((0.0, 0.0), *((dx, dy) for dx in (-0.3, 0.0, 0.3) for dy in (-0.3, 0.0, 0.3) if dx or dy))
"""Points: where the module grid is sampled, round the marker warp's place (a 1-bit copy's markers, ragged, put
it a quarter of a module off; each nudge is tried only when the one before read nothing)."""


def _sampled_qr(image: Image, h: Image, box: tuple[float, float, float, float]) -> str:
    """The QR code read module by module where the warp puts each one (a low-resolution picture), "" if not.

    The code fills ``box`` exactly, so each module's centre is known: it is
    sampled from the picture (the mean of 3 x 3 points in its middle), the
    samples split at Otsu's threshold and redrawn as a clean code for zxing-cpp.
    This reads codes whose modules are under 2 px in the picture.
    """
    import cv2
    import numpy as np
    import zxingcpp

    qr_only: Any = zxingcpp.BarcodeFormat.QRCode
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    back = np.linalg.inv(h)
    x0, y0, x1, _ = box
    for n in QR_SIDES:
        pitch = (x1 - x0) / n
        sub = (np.arange(n * 3) // 3 + 0.5 + (np.arange(n * 3) % 3 - 1) * 0.2) * pitch
        gx, gy = np.meshgrid(x0 + sub, y0 + sub)
        at = np.stack([gx * SCALE - CENTRE, gy * SCALE - CENTRE], axis=-1).reshape(1, -1, 2).astype(np.float64)
        src = cv2.perspectiveTransform(at, back).reshape(n * 3, n * 3, 2).astype(np.float32)
        values = cv2.remap(gray, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderValue=255)
        modules = cv2.resize(values.astype(np.float32), (n, n), interpolation=cv2.INTER_AREA).astype(np.uint8)
        _, bits = cv2.threshold(modules, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        code = cv2.copyMakeBorder(bits, QR_QUIET, QR_QUIET, QR_QUIET, QR_QUIET, cv2.BORDER_CONSTANT, value=255)
        big = cv2.resize(code, None, fx=6, fy=6, interpolation=cv2.INTER_NEAREST)
        for found in zxingcpp.read_barcodes(big, formats=qr_only, is_pure=True):
            if found.valid and found.text:
                return str(found.text)
    return ""


def sheet_width_px(h: Image, width: float) -> float:
    """How wide (pixels) the page's top edge is in the picture the homography ``h`` came from."""
    import cv2
    import numpy as np

    ends = np.array([[[_at(0, 0)], [_at(width, 0)]]], np.float64).reshape(1, 2, 2)
    a, b = cv2.perspectiveTransform(ends, np.linalg.inv(h))[0]
    return float(np.hypot(*(a - b)))


QR_PAD = 8.0
"""Points of page round the QR code warped with it; LOOSE_QR_PAD on a sheet warped through two markers only."""
LOOSE_QR_PAD = 40.0


def read_qr(image: Image, h: Image, width: float, where: PageSource, pad: float = QR_PAD) -> Identity:
    """The sheet's identity from its QR code (warped straight from the image, finely, with ``pad`` points round
    it), else a ScanError."""
    import cv2
    import numpy as np

    x0, y0, x1, y1 = identity.qr_box(width)
    f = QR_SCALE / SCALE
    shift = np.array([[f, 0, -(x0 - pad) * QR_SCALE], [0, f, -(y0 - pad) * QR_SCALE], [0, 0, 1]])
    side = round((x1 - x0 + 2 * pad) * QR_SCALE)
    crop = cv2.warpPerspective(image, shift @ h, (side, side), flags=cv2.INTER_CUBIC, borderValue=(255, 255, 255))
    text = _decode_qr(crop) or next((t for t in (_sampled_qr(image, h, (x0 + dx, y0 + dy, x1 + dx, y1 + dy))
                                                 for dx, dy in QR_NUDGES) if t), "")
    if not text:
        wide = sheet_width_px(h, width)
        low = f"; the sheet is only {wide:.0f} px wide in the picture, the code needs about {MIN_SHEET_PX}" \
            if wide < MIN_SHEET_PX * 1.3 else f" (the sheet is {wide:.0f} px wide in the picture)"
        raise ScanError(f"{where}: the corner markers were found but the sheet's QR code cannot be read "
                        f"(blurred, torn or covered?{low})")
    parsed = parse_payload(text)
    if parsed is None:
        raise ScanError(f"{where}: the QR code is not a printkit map sheet's ({text[:40]!r})")
    return Identity(*parsed, payload_game(text))


def locate(image: Image, where: PageSource) -> Located:
    """Find the sheet in ``image``: markers, warp, QR code; a ScanError naming ``where`` if it cannot."""
    paper, h, markers = homography(image, where)
    ident = read_qr(image, h, PAPER_SIZES[paper][0], where, QR_PAD if markers > MIN_MARKERS else LOOSE_QR_PAD)
    if ident.paper != paper:
        raise ScanError(f"{where}: the QR code says {ident.paper} paper but the corner markers say {paper}")
    return Located(ident, image, markers, h)
