"""A player's photographed sheet, read by the scan library and scored as ``printkit scan --json`` scores it.

Uploads are bounded before anything is decoded: the bytes while they stream in
(:data:`MAX_UPLOAD_BYTES`, checked by the app), the kind from the first bytes
(PNG or JPEG), the pixels from the image's header (:func:`pixel_count`, the
same budget as ``printkit scan``). Each refusal is a :class:`Refused` with
the HTTP status it is answered with.
"""

from __future__ import annotations

import struct
from typing import Any

from printkit.errors import PrintkitError

MAX_UPLOAD_BYTES = 15 * 2**20
"""The largest photo accepted (15 MiB: a phone's 12 megapixel JPEG is 3-6)."""
MAX_PIXELS = 60_000_000
"""The most pixels a photo may have (``printkit scan``'s budget: a 60 megapixel photo)."""
SCAN_LIBRARIES = ("cv2", "numpy", "zxingcpp", "pypdf")
INSTALL_HINT = 'reading sheets needs the scan extra: pip install "printkit-travel[scan]"'


class Refused(PrintkitError):
    """An upload the server will not read, with the HTTP status to answer (413, 415, 422, 501)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def scan_available() -> bool:
    """Whether the scan extra's libraries are installed (imports nothing)."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in SCAN_LIBRARIES)


def image_kind(data: bytes) -> str | None:
    """``png`` or ``jpeg`` from the file's first bytes, else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    return None


def pixel_count(data: bytes) -> int | None:
    """Width x height from a PNG's IHDR or a JPEG's frame header, without decoding; None if not found."""
    kind = image_kind(data)
    if kind == "png":
        if len(data) < 24 or data[12:16] != b"IHDR":
            return None
        width, height = struct.unpack(">II", data[16:24])
        return int(width) * int(height)
    if kind == "jpeg":
        return _jpeg_pixels(data)
    return None


def _jpeg_pixels(data: bytes) -> int | None:
    """Walk a JPEG's marker segments to its first start-of-frame (SOF0-SOF15 but DHT, JPG, DAC)."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return int(width) * int(height)
        if length < 2:
            return None
        i += 2 + length
    return None


def check_photo(data: bytes) -> None:
    """Refuse what is not a PNG or JPEG (415) or has too many pixels (413), from its header alone."""
    if not data:
        raise Refused(422, "the photo is empty")
    if image_kind(data) is None:
        raise Refused(415, "send a photo as a JPEG or PNG image")
    pixels = pixel_count(data)
    if pixels is None:
        raise Refused(422, "the photo is not a readable JPEG or PNG image (cut short?)")
    if pixels > MAX_PIXELS:
        raise Refused(413, f"the photo has {pixels:,} pixels; at most {MAX_PIXELS:,} are read")


def read_photo(data: bytes, who: str, finished_turn: int | None, mode: str) -> dict[str, Any]:
    """``who``'s sheet read from a photo: ``{"name", "total", "sections", "reads"}`` as ``scan --json`` has it.

    The sheet's QR code must name ``who`` (or nobody). The tracker's finish turn
    stands over the sheet's turn boxes; a disagreement is listed as a read to check.
    """
    from pathlib import Path

    from printkit import registry
    from printkit.scan.game import scan_game
    from printkit.scan.images import PageSource, ScanError, decode_image
    from printkit.scan.sheet import read_sheet

    check_photo(data)
    image = decode_image(data)
    if image is None:
        raise Refused(422, "the photo is not a readable JPEG or PNG image (cut short?)")
    try:
        sheet = read_sheet(image, PageSource(Path("the photo")))
        scanned = scan_game([sheet], mode)
    except ScanError as exc:
        raise Refused(422, f"{exc}: take the photo again, the whole sheet flat and in good light") from None
    named = sheet.ident.name.strip()
    if named and named.casefold() != who.casefold():
        raise Refused(422, f"this is {named}'s sheet, not {who}'s")
    table = {**scanned.doc["players"][0], "name": who}
    reads = [{**r, "player": who} for r in scanned.reads()] + _finish_reads(table, finished_turn)
    score, _ = registry.score_document({**scanned.doc, "players": [table]}, "the photo", Path("."))
    player = score.to_json()["players"][0]
    return {"name": who, "total": player["total"], "sections": player["sections"], "reads": reads}


def _finish_reads(table: dict[str, Any], finished_turn: int | None) -> list[dict[str, Any]]:
    """The game's finish turn put on the sheet's table (it stands over the turn boxes); what disagrees, as reads."""
    who, marked = table["name"], table.get("finished_turn")

    def note(message: str) -> list[dict[str, Any]]:
        return [{"player": who, "field": "finished_turn", "confidence": 0.0, "message": f"finished_turn: {message}"}]

    if finished_turn is None:
        return [] if marked is None else note(f"the sheet's trip is finished (turn {marked}), but {who} did not "
                                              "tap \"I'm home\" during the game")
    if marked is None:
        return note(f"the game has {who} home on turn {finished_turn}, but the drawn routes do not finish the "
                    "trip (scored without the speed bonus)")
    table["finished_turn"] = finished_turn
    if marked == finished_turn:
        return []
    return note(f"the sheet's turn boxes say turn {marked}, the game says turn {finished_turn} (scored with the game's)")
