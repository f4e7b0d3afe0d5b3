"""A player's photographed sheet, read by the scan library and scored as ``printkit scan --json`` scores it.

Uploads are bounded before anything is decoded: the bytes while they stream in
(:data:`MAX_UPLOAD_BYTES`, checked by the app), the kind from the first bytes
(PNG or JPEG), the pixels from the image's header (``printkit scan``'s own
budget, :data:`printkit.scan.images.MAX_PIXELS`: a large JPEG is decoded
smaller, as scan does). Each refusal is a :class:`Refused` with
the HTTP status it is answered with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from printkit.errors import PrintkitError

if TYPE_CHECKING:
    from printkit.rules.turns import Game
    from printkit.scan.images import Image
    from printkit.scan.sheet import SheetRead

MAX_UPLOAD_BYTES = 15 * 2**20
"""The largest photo accepted (15 MiB: a phone's 12 megapixel JPEG is 3-6)."""
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


def check_photo(data: bytes) -> None:
    """Refuse an empty upload (422) or what is not a PNG or JPEG by its first bytes (415)."""
    if not data:
        raise Refused(422, "the photo is empty")
    if image_kind(data) is None:
        raise Refused(415, "send a photo as a JPEG or PNG image")


def decode_photo(data: bytes) -> Image:
    """The photo decoded within ``printkit scan``'s pixel budget (checked from its header before decoding: 413)."""
    from pathlib import Path

    from printkit.scan.images import MAX_PIXELS, PageSource, ScanError, decode_page, image_size

    check_photo(data)
    image = decode_page(data, PageSource(Path("the photo")))
    if isinstance(image, ScanError):
        size = image_size(data)
        raise Refused(413 if size is not None and size[1] * size[2] > MAX_PIXELS else 422, str(image))
    return image


def read_photo(data: bytes, who: str, game: Game) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """``who``'s sheet read from a photo: the answer ``{"name", "total", "sections", "reads"}`` as ``scan --json``
    has it, the marks table to keep, and the unsure reads.

    A sheet printed for this game (``render --game``) is read as ``scan --game`` reads it; one printed without
    a game must name ``who`` (or nobody) in its QR code. The game's finish turn stands over the sheet's turn
    boxes; a disagreement is one of the reads to check.
    """
    from pathlib import Path

    from printkit.party.scores import scores
    from printkit.scan.images import PageSource, ScanError
    from printkit.scan.sheet import read_sheet

    image = decode_photo(data)
    try:
        sheet = read_sheet(image, PageSource(Path("the photo")))
        table, reads = _of_game(sheet, who, game) if sheet.ident.game else _alone(sheet, who, game)
    except ScanError as exc:
        raise Refused(422, f"{exc}: take the photo again, the whole sheet flat and in good light") from None
    total, sections = scores(game, (who, table)).get(who, (None, {}))
    if total is None:
        reads.append({"player": who, "field": "total", "confidence": 0.0,
                      "message": "a multiplayer sheet is scored with the others: counted once a second sheet is in"})
    return {"name": who, "total": total, "sections": sections, "reads": reads}, table, reads


def _of_game(sheet: SheetRead, who: str, game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A sheet printed for the game: its marks and unsure reads as ``scan --game`` attaches them."""
    from printkit.scan.game import game_reads

    ((owner, marks, unsure),) = game_reads([sheet], game)
    if owner != who:
        raise Refused(422, f"this is {owner}'s sheet, not {who}'s")
    return dict(marks.table), [u.to_json() for u in unsure]


def _alone(sheet: SheetRead, who: str, game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A sheet printed without a game: read as ``printkit scan`` reads one sheet, checked against the tracker."""
    from printkit.scan.game import scan_game

    named = sheet.ident.name.strip()
    if named and named.casefold() != who.casefold():
        raise Refused(422, f"this is {named}'s sheet, not {who}'s")
    scanned = scan_game([sheet], "solo")
    table = {**scanned.doc["players"][0], "name": who}
    reads = [{**r, "player": who} for r in scanned.reads()]
    if not game.dice:
        table.pop("finished_turn", None)
        return table, reads
    return table, reads + _finish_reads(table, game.finished.get(who))


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
