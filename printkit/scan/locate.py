"""Find a sheet in a photo or scan: its corner markers, then its QR code, then the warp onto its geometry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    """A sheet found in an image: what it is, and the image warped onto its page at :data:`SCALE`."""

    ident: Identity
    warped: Image
    markers: int
    h: Image
    """The homography from the image onto the warped sheet."""


def _markers(gray: Image) -> dict[int, Image]:
    """Corner points (4 x 2, the marker's own clockwise order from its top left) of each ArUco marker found."""
    import cv2

    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, Image] = {}
    if ids is not None:
        for c, i in zip(corners, ids.flatten()):
            found.setdefault(int(i), c.reshape(4, 2))
    return found


def _paper(found: dict[int, Image], where: PageSource) -> str:
    """The paper the markers tell (at least three of its four markers), else a ScanError."""
    counts = {paper: sum(1 for k in range(4) if first + k in found) for paper, first in identity.PAPER_MARKERS.items()}
    paper, best = max(counts.items(), key=lambda kv: kv[1])
    if best < 3:
        raise ScanError(f"{where}: no printkit map sheet found (found {sum(counts.values())} of its 4 corner "
                        "markers; is the whole sheet in the picture, sharp and lit?)")
    return paper


def _at(x: float, y: float) -> tuple[float, float]:
    """Where page point (x, y) lies in the warped sheet, in OpenCV's pixel coordinates."""
    return x * SCALE - CENTRE, y * SCALE - CENTRE


def warp(image: Image, where: PageSource) -> tuple[str, Image, Image, int]:
    """(paper, the homography onto that paper's page at SCALE, the image warped by it, markers used)."""
    import cv2
    import numpy as np

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _markers(gray)
    paper = _paper(found, where)
    width, height = PAPER_SIZES[paper]
    src, dst = [], []
    for marker_id, x0, y0, x1, y1 in identity.marker_boxes(paper, width, height):
        if marker_id in found:
            src += list(found[marker_id])
            dst += [_at(x0, y0), _at(x1, y0), _at(x1, y1), _at(x0, y1)]
    h, _ = cv2.findHomography(np.array(src, dtype=np.float32), np.array(dst, dtype=np.float32))
    if h is None:
        raise ScanError(f"{where}: the corner markers do not frame a sheet")
    size = (round(width * SCALE), round(height * SCALE))
    warped = cv2.warpPerspective(image, h, size, flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    return paper, h, warped, sum(1 for k in range(4) if identity.PAPER_MARKERS[paper] + k in found)


def _decode_qr(crop: Image) -> str:
    """The text of the QR code in ``crop`` ("" if none is read): zxing-cpp first, OpenCV's reader as a fallback.

    zxing-cpp reads the small, slightly blurred codes of a 150 dpi scan that
    OpenCV's detector misses (measured in benchmarks/bench_scan.py).
    """
    import cv2
    import zxingcpp

    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    sharp = cv2.addWeighted(gray, 2.5, cv2.GaussianBlur(gray, (0, 0), QR_SCALE * 0.6), -1.5, 0)
    for image in (gray, binary, sharp):
        for code in zxingcpp.read_barcodes(image):
            if code.valid and code.text:
                return str(code.text)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(gray)
    return str(text)


def read_qr(image: Image, h: Image, width: float, where: PageSource) -> Identity:
    """The sheet's identity from its QR code (warped straight from the image, finely), else a ScanError."""
    import cv2
    import numpy as np

    x0, y0, x1, y1 = identity.qr_box(width)
    pad = 8.0
    f = QR_SCALE / SCALE
    shift = np.array([[f, 0, -(x0 - pad) * QR_SCALE], [0, f, -(y0 - pad) * QR_SCALE], [0, 0, 1]])
    side = round((x1 - x0 + 2 * pad) * QR_SCALE)
    crop = cv2.warpPerspective(image, shift @ h, (side, side), flags=cv2.INTER_CUBIC, borderValue=(255, 255, 255))
    text = _decode_qr(crop)
    if not text:
        raise ScanError(f"{where}: the sheet's QR code cannot be read (blurred, torn or covered?)")
    parsed = parse_payload(text)
    if parsed is None:
        raise ScanError(f"{where}: the QR code is not a printkit map sheet's ({text[:40]!r})")
    return Identity(*parsed, payload_game(text))


def locate(image: Image, where: PageSource) -> Located:
    """Find the sheet in ``image``: markers, warp, QR code; a ScanError naming ``where`` if it cannot."""
    paper, h, warped, markers = warp(image, where)
    ident = read_qr(image, h, PAPER_SIZES[paper][0], where)
    if ident.paper != paper:
        raise ScanError(f"{where}: the QR code says {ident.paper} paper but the corner markers say {paper}")
    return Located(ident, warped, markers, h)
