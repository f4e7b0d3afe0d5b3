"""Marks that let a scanner find and identify a sheet: ArUco corner markers and a QR code.

Pure functions returning :class:`Cells` grids (vector squares), nothing to do with
OpenCV: the marker bit patterns are OpenCV's ``DICT_4X4_50`` stored as data,
and the QR code's modules are segno's (its encoder is imported inside
:func:`qr_code`, so commands that draw no sheet stay light).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from types import ModuleType

from printkit.layout.primitives import Cells, Style
from printkit.layout import qrfast

ARUCO_4X4_50 = (0xB532, 0x0F9A, 0x332D, 0x9946, 0x549E, 0x79CD, 0x9E2E, 0xC4F2)
"""The inner 4x4 bits (row by row, most significant first, 1 = white) of markers 0-7 of OpenCV's DICT_4X4_50."""
MARKER_CELLS = 6
"""A marker is 6 x 6 cells: a black border cell around the 4 x 4 bits."""
PAYLOAD_TAG = "pk1"
"""The first field of every printkit QR payload (and its format version)."""
INK_FILL = Style(stroke=None, fill="#000000")


@lru_cache(maxsize=32)
def aruco_marker(marker_id: int, x: float, y: float, size: float) -> Cells:
    """ArUco marker ``marker_id`` (DICT_4X4_50) as a grid of black cells, top-left (x, y), ``size`` points wide."""
    bits = ARUCO_4X4_50[marker_id]
    black = bytearray([1]) * (MARKER_CELLS * MARKER_CELLS)
    for k in range(16):
        if bits >> (15 - k) & 1:
            black[(1 + k // 4) * MARKER_CELLS + 1 + k % 4] = 0
    return Cells(x, y, size / MARKER_CELLS, MARKER_CELLS, bytes(black), INK_FILL)


def qr_modules(payload: str) -> tuple[bytes, int]:
    """The QR code's modules for ``payload`` (rows one after another, a byte each, 1 = black) and its width.

    The smallest code that holds it (error level L, raised where that costs no
    size): bigger modules survive blur better than more redundancy does. The
    modules are segno's, encoded by :mod:`printkit.layout.qrfast` (0.26 instead
    of segno's 2.1 ms a code: ``benchmarks/bench_qr.py``).
    """
    return qrfast.encode(_qr_encoder(), payload)


def _qr_encoder() -> ModuleType:
    """``segno.encoder`` without the package's ``__init__``.

    segno's ``__init__`` loads its writers, and they pull in ``xml.sax.saxutils``
    and with it ``urllib.request``, ``http.client``, ``ssl`` and ``email``: about
    15 ms of every sheet render, for output printkit never asks segno for. The
    package is entered only for the import; a later ``import segno`` runs it in full.
    """
    loaded = sys.modules.get("segno.encoder")
    if loaded is not None:
        return loaded
    if "segno" not in sys.modules:
        import importlib.util

        spec = importlib.util.find_spec("segno")
        if spec is not None:
            sys.modules["segno"] = importlib.util.module_from_spec(spec)
            try:
                import segno.encoder
            finally:
                del sys.modules["segno"]
            return segno.encoder
    import segno.encoder

    return segno.encoder


def qr_code(payload: str, x: float, y: float, size: float) -> Cells:
    """A QR code for ``payload`` filling the square at (x, y) ``size`` points wide (quiet zone outside it)."""
    modules, width = qr_modules(payload)
    return Cells(x, y, size / width, width, modules, INK_FILL)


def sheet_payload(map_id: str, paper: str, layout: str, page: int, name: str) -> str:
    """The QR text of one sheet: ``pk1|<map>|<paper>|<layout>|<page>|<name>`` (page from 1)."""
    return "|".join((PAYLOAD_TAG, map_id, paper.lower(), layout, str(page), name))


def parse_payload(text: str) -> tuple[str, str, str, int, str] | None:
    """(map, paper, layout, page, name) from a QR text, or None when it is not a printkit sheet's."""
    parts = text.split("|", 5)
    if len(parts) != 6 or parts[0] != PAYLOAD_TAG or not parts[4].isdigit():
        return None
    return parts[1], parts[2], parts[3], int(parts[4]), parts[5]
