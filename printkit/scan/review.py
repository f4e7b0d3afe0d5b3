"""The review overlay: the warped sheet with what was read drawn over it, to check at a glance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from printkit.scan.locate import SCALE
from printkit.scan.read import BOX_MARKED
from printkit.scan.sheet import SheetRead

if TYPE_CHECKING:
    from printkit.scan.images import Image
    from printkit.sheets.fields import Fields

MARKED = (40, 160, 0)
"""BGR: a box read as marked, a route read as drawn (green)."""
UNCERTAIN = (0, 0, 230)
"""BGR: anything unsure (red), drawn thick."""
EMPTY = (200, 140, 0)
"""BGR: a box read as empty (thin blue outline)."""
START = (200, 0, 200)
"""BGR: the starting city (magenta ring)."""
CLOSE = (0, 150, 255)
"""BGR: a box read as marked on little ink, near the threshold (orange, dashed round the green): look at it."""
CLOSE_INK = 2 * BOX_MARKED
"""A marked box with less ink than this is outlined as close to the threshold."""


def _p(x: float, y: float) -> tuple[int, int]:
    return round(x * SCALE), round(y * SCALE)


def _label(image: Image, text: str, at: tuple[float, float]) -> None:
    """A red label (white behind it) with its left end at ``at`` (points)."""
    import cv2

    x, y = _p(*at)
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.55, 1)
    x = max(0, min(x, image.shape[1] - w - 2))
    y = max(h + 2, min(y, image.shape[0] - 2))
    cv2.rectangle(image, (x - 1, y - h - 2), (x + w + 1, y + 3), (255, 255, 255), -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55, UNCERTAIN, 1, cv2.LINE_AA)


def _boxes(image: Image, sheet: SheetRead, fields: Fields, unsure: set[str]) -> None:
    """Every box coloured by its read; unsure ones (or in an unsure row) red, close calls orange."""
    import cv2

    rows = {u for u in unsure if not u.startswith("route")}
    for box in fields.boxes:
        read = sheet.boxes.get(box.id)
        if read is None:
            continue
        doubtful = box.id in unsure or box.id.rsplit(".", 1)[0] in rows
        colour, width = (UNCERTAIN, 5) if doubtful else (MARKED, 4) if read.on else (EMPTY, 1)
        a, b = _p(box.rect[0] - 1.5, box.rect[1] - 1.5), _p(box.rect[2] + 1.5, box.rect[3] + 1.5)
        cv2.rectangle(image, a, b, colour, width)
        if read.on and read.measure < CLOSE_INK and not doubtful:
            cv2.rectangle(image, _p(box.rect[0] - 3.5, box.rect[1] - 3.5), _p(box.rect[2] + 3.5, box.rect[3] + 3.5),
                          CLOSE, 2)


def _routes(image: Image, sheet: SheetRead, fields: Fields, unsure: set[str]) -> None:
    """Drawn routes green, routes in doubt red (a whole unsure trail: only the routes in doubt, or all drawn if none is)."""
    import cv2

    named = {f.split(".", 1)[1] for f in unsure if f.startswith("route.")}
    trail_unsure = "route" in unsure and not named
    for route in fields.routes:
        read = sheet.routes.get(route.id)
        if read is None or not (read.on or route.id in named):
            continue
        colour = UNCERTAIN if route.id in named or trail_unsure else MARKED
        for a, b in zip(route.points, route.points[1:]):
            cv2.line(image, _p(*a), _p(*b), colour, 5 if colour == UNCERTAIN else 3)


def _labels(image: Image, sheet: SheetRead, fields: Fields) -> None:
    """Each unsure read named by the field it concerns (the trail's reason at the map's top left)."""
    boxes = {b.id: b.rect for b in fields.boxes}
    routes = {r.id: r.points for r in fields.routes}
    placed: set[str] = set()
    for u in sheet.uncertain:
        key = u.field
        if key in placed:
            continue
        placed.add(key)
        row = [r for b, r in boxes.items() if b == key or b.startswith(key + ".")]
        if key.startswith("route.") and key[6:] in routes:
            (ax, ay), (bx, by) = routes[key[6:]][0], routes[key[6:]][-1]
            _label(image, key[6:], ((ax + bx) / 2 + 4, (ay + by) / 2 - 4))
        elif row:
            _label(image, f"? {key}", (max(r[2] for r in row) + 5, min(r[1] for r in row) + 10))
        else:
            _label(image, f"? {u.message[:90]}", (40.0, 60.0 + 12 * len(placed)))


def overlay(sheet: SheetRead, fields: Fields) -> bytes:
    """PNG bytes: the sheet as scanned, every box and route coloured by its read, unsure ones in red and named."""
    import cv2

    image = sheet.warped.copy()
    unsure = {u.field for u in sheet.uncertain}
    _boxes(image, sheet, fields, unsure)
    _routes(image, sheet, fields, unsure)
    if sheet.route:
        cv2.circle(image, _p(*fields.city(sheet.route[0]).center), round(10 * SCALE), START, 3)
    _labels(image, sheet, fields)
    ok, png = cv2.imencode(".png", image)
    assert ok
    return bytes(png.tobytes())
