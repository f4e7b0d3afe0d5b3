"""What makes a filled-in map sheet readable by ``printkit scan``: corner markers and a QR code per page.

Four ArUco markers sit in the page's corners inside the 12 mm margin, at least
6.5 mm from every paper edge (clear of the 4-6 mm border many printers cannot
print); their ids tell the paper (A4: 0-3,
Letter: 4-7, clockwise from the top left). The QR code sits in the header,
between the title and the name line, and names the map, paper, layout
version, page number and player (see :func:`printkit.layout.marks.sheet_payload`).
"""

from __future__ import annotations

from dataclasses import replace

from printkit.layout.marks import aruco_marker, qr_code, sheet_payload
from printkit.layout.primitives import Cells, Document, Item, Rect, Style
from printkit.model.maps import GameMap
from printkit.sheets.fields import Fields, Geometry, Marker, Rect4, rounded

MARKER_SIZE = 16.0
"""Side of a corner marker, points (5.6 mm: cells of about 0.94 mm; 12 pt markers were missed at 100-150 dpi)."""
MARKER_INSET = 18.5
"""Distance of a marker from the paper's edges, points (6.53 mm: at least 6.5 mm, :data:`EDGE_CLEAR`)."""
EDGE_CLEAR = 6.5 * 72 / 25.4
"""The least distance of any scan mark from a paper edge, points (6.5 mm = 18.43 pt)."""
QR_SIZE = 40.0
"""Side of the QR code, points (14 mm)."""
QR_TOP = 18.5
QR_RIGHT = 314.0
"""The QR code's right edge sits this far from the page's right edge (left of the name line)."""
PAPER_MARKERS = {"a4": 0, "letter": 4}
"""The first marker id of each paper."""
WHITE = Style(stroke=None, fill="#ffffff")


def marked(fields: Fields, paper: str, start: Rect4 | None = None) -> Geometry:
    """The geometry of a map sheet laid out as ``fields``: rounded as written, its layout version, its marks.

    The markers', the QR code's and the Start line's (``start``) rectangles are
    rounded to 0.01 pt like the fields (the markers placed on the rounded page
    height, as always).
    """
    page = rounded(fields)
    markers = tuple(Marker(k, _round(box)) for k, *box in marker_boxes(paper, fields.width, page.height))
    return Geometry(page, fields.layout, markers, _round(qr_box(fields.width)), None if start is None else _round(start))


def _round(box: list[float] | tuple[float, ...]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (round(v, 2) for v in box)
    return (x0, y0, x1, y1)


def blank_qr(map_id: str, paper: str, layout: str, width: float) -> Cells:
    """A blank page 1's QR code (no name): made with the layout, so a blank sheet from the cache encodes none."""
    return _qr(map_id, paper, layout, width, 1, "")


def marker_boxes(paper: str, width: float, height: float) -> list[tuple[int, float, float, float, float]]:
    """(marker id, x0, y0, x1, y1) of the four corner markers, clockwise from the top left."""
    first = PAPER_MARKERS[paper.lower()]
    lo, s = MARKER_INSET, MARKER_SIZE
    corners = [(lo, lo), (width - lo - s, lo), (width - lo - s, height - lo - s), (lo, height - lo - s)]
    return [(first + k, x, y, x + s, y + s) for k, (x, y) in enumerate(corners)]


def qr_box(width: float) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the QR code on a map sheet ``width`` points wide."""
    x1 = width - QR_RIGHT
    return x1 - QR_SIZE, QR_TOP, x1, QR_TOP + QR_SIZE


def _qr(map_id: str, paper: str, layout: str, width: float, page: int, name: str) -> Cells:
    """The QR code of page ``page`` (from 1) of ``name``'s map sheet."""
    qx0, qy0, qx1, _ = qr_box(width)
    return qr_code(sheet_payload(map_id, paper, layout, page, name), qx0, qy0, qx1 - qx0)


def identity_items(
    m: GameMap, paper: str, layout: str, size: tuple[float, float], page: int, name: str, blank: Cells | None = None
) -> list[Item]:
    """The markers and the QR code of page ``page`` (from 1) of ``name``'s map sheet (``blank``: page 1's, no name)."""
    width, height = size
    items: list[Item] = []
    for marker_id, x0, y0, x1, _ in marker_boxes(paper, width, height):
        items.append(aruco_marker(marker_id, x0, y0, x1 - x0))
    qx0, qy0, qx1, _ = qr_box(width)
    quiet = 4.0  # a white ground, so nothing drawn later shows through the code's quiet zone
    items.append(Rect(qx0 - quiet, qy0 - quiet, qx1 - qx0 + 2 * quiet, qx1 - qx0 + 2 * quiet, WHITE))
    qr = blank if blank is not None and (page, name) == (1, "") else _qr(m.id, paper, layout, width, page, name)
    items.append(qr)
    return items


def identify(document: Document, m: GameMap, paper: str, layout: str, blank: Cells | None = None) -> Document:
    """``document`` (map sheets of ``m``) with markers and a QR code on every page (``blank``: page 1's, no name)."""
    size = (document.width, document.height)
    pages = tuple(
        replace(p, items=(*p.items, *identity_items(m, paper, layout, size, k, p.label, blank)))
        for k, p in enumerate(document.pages, start=1)
    )
    return replace(document, pages=pages)


def for_game(document: Document, map_id: str, paper: str, layout: str, game: str) -> Document:
    """``document`` (identified map sheets) with each page's QR code also naming ``game``, the game it is printed for."""
    qx0, qy0, qx1, _ = qr_box(document.width)
    pages = []
    for k, p in enumerate(document.pages, start=1):
        qr = qr_code(sheet_payload(map_id, paper, layout, k, p.label, game), qx0, qy0, qx1 - qx0)
        pages.append(replace(p, items=tuple(qr if isinstance(i, Cells) and (i.x, i.y) == (qx0, qy0) else i
                                            for i in p.items)))
    return replace(document, pages=tuple(pages))
