"""Marks that let a scanner find and identify a sheet: ArUco corner markers and a QR code.

Pure functions returning :class:`Cells` grids (vector squares), nothing to do with
OpenCV: the marker bit patterns are OpenCV's ``DICT_4X4_50`` stored as data,
and the QR code's modules are segno's (imported inside :func:`qr_modules`,
so commands that draw no sheet stay light).
"""

from __future__ import annotations

from functools import lru_cache

from printkit.layout.primitives import Cells, Style

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


@lru_cache(maxsize=256)
def qr_modules(payload: str) -> tuple[bytes, int]:
    """The QR code's modules for ``payload`` (rows one after another, a byte each, 1 = black) and its width.

    segno's code (``segno.make``, no Micro QR): the smallest that holds it, error
    level L raised where that costs no size (segno's ``boost_error``): bigger
    modules survive blur better than more redundancy does.
    """
    import segno  # here: commands that draw no QR code stay light

    code = segno.make(payload, error="l", micro=False, boost_error=True)
    width = len(code.matrix)
    return b"".join(code.matrix), width


def qr_code(payload: str, x: float, y: float, size: float) -> Cells:
    """A QR code for ``payload`` filling the square at (x, y) ``size`` points wide (quiet zone outside it)."""
    modules, width = qr_modules(payload)
    return Cells(x, y, size / width, width, modules, INK_FILL)


GAME_FIELD = "game="
"""Starts the optional 7th field of a sheet printed for one game (``printkit render --game``): its game id."""
GAME_DIGITS = frozenset("0123456789abcdef")


def sheet_payload(map_id: str, paper: str, layout: str, page: int, name: str, game: str | None = None) -> str:
    """The QR text of one sheet: ``pk1|<map>|<paper>|<layout>|<page>|<name>`` (page from 1), then ``|game=<id>``
    when the sheet belongs to one game."""
    text = "|".join((PAYLOAD_TAG, map_id, paper.lower(), layout, str(page), name))
    return text if game is None else f"{text}|{GAME_FIELD}{game}"


def _split_game(rest: str) -> tuple[str, str | None]:
    """(name, game id) of a payload's last fields: a final ``|game=<hex digits>`` is the game, not the name."""
    name, bar, last = rest.rpartition("|")
    digits = last.removeprefix(GAME_FIELD)
    if bar and last.startswith(GAME_FIELD) and digits and set(digits) <= GAME_DIGITS:
        return name, digits
    return rest, None


def parse_payload(text: str) -> tuple[str, str, str, int, str] | None:
    """(map, paper, layout, page, name) from a QR text, or None when it is not a printkit sheet's."""
    parts = text.split("|", 5)
    if len(parts) != 6 or parts[0] != PAYLOAD_TAG or not parts[4].isdigit():
        return None
    return parts[1], parts[2], parts[3], int(parts[4]), _split_game(parts[5])[0]


def payload_game(text: str) -> str | None:
    """The game id a sheet's QR text carries (printed with ``render --game``), or None."""
    parts = text.split("|", 5)
    return _split_game(parts[5])[1] if len(parts) == 6 and parse_payload(text) is not None else None
