"""The review overlay: the warped sheet with what was read drawn over it, to check at a glance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from printkit.scan.locate import SCALE
from printkit.scan.sheet import SheetRead

if TYPE_CHECKING:
    from printkit.sheets.fields import Fields

MARKED = (40, 160, 0)
"""BGR: a box read as marked, a route read as drawn (green)."""
UNCERTAIN = (0, 0, 230)
"""BGR: anything unsure (red), drawn thick."""
EMPTY = (200, 140, 0)
"""BGR: a box read as empty (thin blue outline)."""
START = (200, 0, 200)
"""BGR: the starting city (magenta ring)."""


def _p(x: float, y: float) -> tuple[int, int]:
    return round(x * SCALE), round(y * SCALE)


def overlay(sheet: SheetRead, fields: Fields) -> bytes:
    """PNG bytes: the sheet as scanned, every box and route coloured by its read, unsure ones in red."""
    import cv2

    image = sheet.warped.copy()
    unsure = {u.field for u in sheet.uncertain}
    rows = {u.field for u in sheet.uncertain if not u.field.startswith("route")}
    for box in fields.boxes:
        read = sheet.boxes.get(box.id)
        if read is None:
            continue
        doubtful = box.id in unsure or box.id.rsplit(".", 1)[0] in rows
        colour, width = (UNCERTAIN, 5) if doubtful else (MARKED, 4) if read.on else (EMPTY, 1)
        cv2.rectangle(image, _p(box.rect[0] - 1.5, box.rect[1] - 1.5), _p(box.rect[2] + 1.5, box.rect[3] + 1.5),
                      colour, width)
    for route in fields.routes:
        read = sheet.routes.get(route.id)
        if read is None or not (read.on or f"route.{route.id}" in unsure):
            continue
        colour = UNCERTAIN if f"route.{route.id}" in unsure or "route" in unsure else MARKED
        for a, b in zip(route.points, route.points[1:]):
            cv2.line(image, _p(*a), _p(*b), colour, 5 if colour == UNCERTAIN else 3)
    if sheet.route:
        cv2.circle(image, _p(*fields.city(sheet.route[0]).center), round(10 * SCALE), START, 3)
    ok, png = cv2.imencode(".png", image)
    assert ok
    return bytes(png.tobytes())
