"""Filled fillable PDFs (``render --fillable``) read straight from their form fields and pen strokes.

No image is decoded: pypdf (the only module importing it) gives each page's
hidden ``sheet`` field (the QR payload: map, paper, layout, page, name), its
check boxes and its pen annotations (``/Ink``, ``/Line``, ``/PolyLine``,
``/Highlight``). The strokes are drawn into an ink mask on the sheet's own
geometry and read by the same box, star and route readers as a scan
(:func:`printkit.scan.sheet.read_ink`); a ticked check box reads as marked.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printkit.scan.images import PageSource, ScanError, shown_file
from printkit.scan.read import ROUTE_REACH, Read
from printkit.scan.sheet import SheetRead, check_layout, load_sheet_map, read_ink
from printkit.scan.typed import ring, start_doubts, typed_points, typed_start

if TYPE_CHECKING:
    from printkit.scan.images import Image
    from printkit.scan.locate import Identity
    from printkit.sheets.fields import Fields

logging.getLogger("pypdf").addHandler(logging.NullHandler())  # its warnings on a damaged PDF: we say it once

Stroke = list[tuple[float, float]]
PEN_WIDTH = 1.5
"""Points: a stroke's width in the ink mask when its annotation gives none (clamped to 1-3 pt)."""
STRAY_SHARE = 0.5
"""A stroke with less than this share of its length on a drawn route, a box or near a city is reported."""
STAR_SIDES = 6
"""A start star covers at least this many of the eight directions around its city (a route stroke: one or two)."""
PEN_KINDS = ("/Ink", "/Line", "/PolyLine", "/Highlight")


@dataclass(frozen=True)
class FormRead:
    """A PDF's pages read as a filled form (``sheets``, ``errors``), or not a form (``fallback``, with ``note``)."""

    sheets: tuple[SheetRead, ...] = ()
    errors: tuple[str, ...] = ()
    fallback: bool = True
    note: str = ""


def sheet_geometry(map_id: str, paper: str) -> Fields:
    """The map sheet's fields as this version draws them (no picture needed; a ``--map`` file's if given)."""
    from printkit.scan.ident import subject

    return _geometry(subject(map_id), paper)


@lru_cache(maxsize=16)
def _geometry(map_id: str, paper: str) -> Fields:
    """The fields of a bundled map id's or a map file's sheet on ``paper``."""
    from printkit import registry

    geometry = registry.build_sheet("map", map_id, [""], paper).geometry
    assert geometry is not None  # a map sheet has its fields
    return geometry.fields


WALK_MAX = 16
"""A field's ``/Parent`` chain is followed this far at most (a chain that loops ends)."""
MAX_POINTS = 200_000
"""The most stroke points read from one page (a pen app's page holds a few thousand)."""
COORD_MAX = 1e5
"""Points: a stroke coordinate beyond this (or not a finite number) is a damaged annotation."""


def _resolved(obj: Any) -> Any:
    """An indirect PDF object's target; anything else as it is."""
    return obj.get_object() if hasattr(obj, "get_object") else obj


def _parents(widget: Any) -> Iterator[Any]:
    """The widget and its parent fields, nearest first: at most WALK_MAX, each once (a loop ends)."""
    node, seen = widget, set[int]()
    while isinstance(node, dict) and id(node) not in seen and len(seen) < WALK_MAX:
        seen.add(id(node))
        yield node
        node = _resolved(node.get("/Parent"))


def _inherited(widget: Any, key: str) -> Any:
    """``key`` of the widget or the nearest parent field that has it (None if none)."""
    return next((node[key] for node in _parents(widget) if key in node), None)


def _name(widget: Any) -> str:
    """The field's full name: the ``/T`` of the widget and its parents, joined by dots."""
    return ".".join(reversed([str(node["/T"]) for node in _parents(widget) if "/T" in node]))


def _annotations(page: Any) -> list[Any]:
    """The page's annotations that are dictionaries (anything else in ``/Annots`` is skipped)."""
    annots = _resolved(page.get("/Annots"))
    if not isinstance(annots, list):
        return []
    found = (_resolved(a) for a in annots)
    return [a for a in found if isinstance(a, dict)]


def _widgets(page: Any) -> dict[str, Any]:
    """The page's form widgets by full field name."""
    return {_name(a): a for a in _annotations(page) if a.get("/Subtype") == "/Widget"}


def _identity(widgets: dict[str, Any], where: PageSource) -> tuple[Identity, str]:
    """(the sheet's identity, the page's field prefix) from its hidden ``sheet`` field, else a ScanError."""
    from printkit.layout.marks import parse_payload, payload_game
    from printkit.scan.locate import Identity
    from printkit.sheets.fillable import NAME_FIELD, SHEET_FIELD

    for name, w in widgets.items():
        if name == SHEET_FIELD or name.endswith("." + SHEET_FIELD):
            payload = str(_inherited(w, "/V") or "")
            parsed = parse_payload(payload)
            if parsed is not None:
                prefix = name[: -len(SHEET_FIELD)]
                typed = _typed(widgets, prefix + NAME_FIELD)
                return Identity(*parsed[:4], typed or parsed[4], payload_game(payload)), prefix
    raise ScanError(f"{where}: the form has no '{SHEET_FIELD}' field naming the sheet (renamed or removed?): "
                    "render it again with --fillable")


def _ticked(widgets: dict[str, Any], prefix: str, box_ids: list[str], where: PageSource) -> set[str]:
    """The box ids whose check box is on; a ScanError for a missing box or a value neither on nor off."""
    missing = [b for b in box_ids if prefix + b not in widgets]
    if missing:
        shown = ", ".join(prefix + b for b in missing[:3]) + (", ..." if len(missing) > 3 else "")
        raise ScanError(f"{where}: {len(missing)} of the sheet's {len(box_ids)} check boxes are missing ({shown}): "
                        "renamed or removed? Render the sheet again with --fillable")
    on: set[str] = set()
    for b in box_ids:
        w = widgets[prefix + b]
        states = [str(k) for k in ((w.get("/AP") or {}).get("/N") or {}) if str(k) != "/Off"]
        value = _inherited(w, "/V")
        value = str(value if value is not None else w.get("/AS", "/Off"))
        if value in states:
            on.add(b)
        elif value not in ("/Off", ""):
            raise ScanError(f"{where}: check box {prefix + b}: value {value} is neither on "
                            f"({' or '.join(states) or 'no on-state'}) nor off (/Off)")
    return on


def _points(nums: Any, what: str, where: PageSource) -> list[float]:
    """The numbers of a stroke array, or a ScanError naming the annotation (strings, NaN, nested arrays)."""
    from printkit.model.names import shown

    if not isinstance(nums, list):
        raise ScanError(f"{where}: {what}: expected an array of numbers, got {type(nums).__name__}")
    out: list[float] = []
    for v in nums:
        v = _resolved(v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ScanError(f"{where}: {what}: {shown(str(v))} is not a number (a damaged pen stroke)")
        if not -COORD_MAX <= v <= COORD_MAX:  # NaN too
            size = f"{float(v):.3g}" if isinstance(v, float) or abs(v) < 10**300 else "of over 300 digits"
            raise ScanError(f"{where}: {what}: the coordinate {size} lies off any page (a damaged pen stroke)")
        out.append(float(v))
    return out


def _width(a: Any, what: str, where: PageSource) -> float:
    """The stroke's width from its ``/BS`` (clamped to 1-3 pt; PEN_WIDTH if none); a ScanError for a damaged one."""
    style = _resolved(a.get("/BS"))
    if style is None:
        return PEN_WIDTH
    width = style.get("/W", PEN_WIDTH) if isinstance(style, dict) else None
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 <= width <= COORD_MAX:
        raise ScanError(f"{where}: {what}: its border style /BS is not a dictionary with a width (a damaged "
                        "pen stroke)")
    return min(3.0, max(1.0, float(width)))


def _lines(a: Any, kind: str, what: str, where: PageSource) -> list[list[float]]:
    """The coordinate arrays of one pen annotation."""
    if kind == "/Ink":
        ink = _resolved(a.get("/InkList") or [])
        return [_points(_resolved(s), what, where)
                for s in (ink if isinstance(ink, list) else [ink])]
    if kind in ("/Line", "/PolyLine"):
        return [_points(a.get("/L" if kind == "/Line" else "/Vertices") or [], what, where)]
    q = _points(a.get("/QuadPoints") or [], what, where)  # a quad per stretch: the line through its edges' middles
    return [[(q[k] + q[k + 4]) / 2, (q[k + 1] + q[k + 5]) / 2, (q[k + 2] + q[k + 6]) / 2,
             (q[k + 3] + q[k + 7]) / 2] for k in range(0, len(q) - 7, 8)]


def strokes(page: Any, where: PageSource) -> list[tuple[Stroke, float]]:
    """Each pen stroke on the page as points (top-left origin, y down) with its width in points.

    A damaged pen annotation (a coordinate that is a string, NaN or an
    array; too many points) is a ScanError for this page.
    """
    box = _points(list(page.mediabox), "the page's /MediaBox", where)
    left, top = box[0], box[3]
    out: list[tuple[Stroke, float]] = []
    count = 0
    for k, a in enumerate(_annotations(page), start=1):
        kind = a.get("/Subtype")
        if kind not in PEN_KINDS:
            continue
        what = f"annotation {k} ({kind})"
        width = _width(a, what, where)
        for nums in _lines(a, str(kind), what, where):
            pts = [(nums[j] - left, top - nums[j + 1]) for j in range(0, len(nums) - 1, 2)]
            count += len(pts)
            if count > MAX_POINTS:
                raise ScanError(f"{where}: the pen strokes hold more than {MAX_POINTS} points (not a sheet's)")
            if pts:
                out.append((pts, width))
    return out


def ink_of(found: list[tuple[Stroke, float]], fields: Fields) -> Image:
    """The strokes drawn as an ink mask (1 = ink) on the sheet at the readers' scale."""
    import cv2
    import numpy as np

    from printkit.scan.locate import CENTRE, SCALE

    ink = np.zeros((round(fields.height * SCALE), round(fields.width * SCALE)), dtype=np.uint8)
    for pts, width in found:
        at = [(round((x * SCALE - CENTRE) * 8), round((y * SCALE - CENTRE) * 8)) for x, y in pts]
        cv2.polylines(ink, [np.array(at, dtype=np.int32)], False, 1, max(1, round(width * SCALE)), cv2.LINE_8, shift=3)
        if len(pts) == 1:
            cv2.circle(ink, at[0], max(1, round(width * SCALE)) * 8, 1, -1, shift=3)
    return ink


def star_of(pts: Stroke, fields: Fields) -> str | None:
    """The city a stroke rings round (a start star: all of it near the city, on every side), else None."""
    from printkit.scan.read import STAR_RING

    for c in fields.cities:
        (cx, cy), reach = c.center, c.radius + STAR_RING + 2
        if all(math.dist(p, c.center) <= reach for p in pts):
            sides = {int((math.degrees(math.atan2(y - cy, x - cx)) + 360) // 45) % 8 for x, y in _along(pts)}
            if len(sides) >= STAR_SIDES:
                return c.id
    return None


def _along(pts: Stroke) -> list[tuple[float, float]]:
    """Points every 1 pt along a stroke."""
    out = [pts[0]]
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay)))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(1, n + 1)]
    return out


def _strays(sheet: SheetRead, fields: Fields, found: list[tuple[Stroke, float]]) -> None:
    """Report each stroke that runs along no drawn route and lies in no box and by no city (never guessed)."""
    from printkit.scan.read import ROUTE_EMPTY, STAR_RING, seg_dist

    lines = [r.points for r in fields.routes if sheet.routes[r.id].measure > ROUTE_EMPTY]
    boxes = [b.rect for b in fields.boxes]
    cities = [(c.center, c.radius + STAR_RING) for c in fields.cities]

    def explained(x: float, y: float) -> bool:
        return (any(seg_dist(x, y, a, b) <= ROUTE_REACH + 1 for line in lines for a, b in zip(line, line[1:]))
                or any(r[0] - 2 <= x <= r[2] + 2 and r[1] - 2 <= y <= r[3] + 2 for r in boxes)
                or any(math.dist((x, y), c) <= r for c, r in cities))

    for k, (pts, _) in enumerate(found, start=1):
        samples = _along(pts)
        if sum(1 for p in samples if explained(*p)) < STRAY_SHARE * len(samples):
            (x0, y0), (x1, y1) = pts[0], pts[-1]
            sheet.doubt(f"stroke.{k}", 0.0, f"pen stroke {k} ({x0:.0f},{y0:.0f} to {x1:.0f},{y1:.0f} pt from the "
                        "top left) runs along no route: check what it means")


def _picture(pdf: bytes, index: int, ink: Image) -> Image:
    """The page as a PDF app shows it (fields drawn) with the pen strokes on it, at the readers' scale."""
    from printkit.backends.png import rasterise
    from printkit.scan.images import raw_image
    from printkit.scan.locate import SCALE

    buf, width, height, stride = next(rasterise(pdf, round(SCALE * 72), rgb=False, forms=True, only=index))
    image = raw_image(buf, width, height, stride)
    if image.shape[:2] == ink.shape:
        image[ink > 0] = (160, 60, 0)  # the pen strokes, in blue
    return image


def _typed(widgets: dict[str, Any], name: str) -> str:
    """A text field's typed value, stripped ("" for a missing or empty field)."""
    w = widgets.get(name)
    return str(_inherited(w, "/V") or "").strip() if w is not None else ""


def read_page(page: Any, pdf: bytes, index: int, where: PageSource) -> SheetRead:
    """One filled form page read through the scan's readers; a ScanError naming ``where`` if it cannot be.

    A start city typed on the Start line counts as a start star drawn round it
    (unless a drawn star disagrees); typed points are kept for the game's check.
    """
    from printkit.sheets.fillable import START_FIELD, tick_boxes

    widgets = _widgets(page)
    ident, prefix = _identity(widgets, where)
    m = load_sheet_map(ident, where)
    fields = sheet_geometry(m.id, ident.paper)
    check_layout(ident, fields, where)
    box_ids = [b for b, _ in tick_boxes(fields)]
    ticked = _ticked(widgets, prefix, box_ids, where)
    found = strokes(page, where)
    starry = [s for s in found if star_of(s[0], fields) is not None]
    starred = sorted({c for s in starry if (c := star_of(s[0], fields)) is not None})
    typed = _typed(widgets, prefix + START_FIELD)
    city = typed_start(m, typed)
    rings = [(ring(fields, city), PEN_WIDTH)] if city is not None and not starred else []
    ink = ink_of([s for s in found if s not in starry], fields)
    star = ink_of(starry + rings, fields)
    sheet = read_ink(ink, fields, where, ident, m, _picture(pdf, index, ink + star), star)
    for b in ticked:
        sheet.boxes[b] = Read(b, True, 1.0, 1.0)
    _strays(sheet, fields, found)
    start_doubts(sheet, typed, city, starred)
    sheet.typed = typed_points(lambda name: _typed(widgets, name), prefix, fields, sheet)
    return sheet


def read_form(path: Path, data: bytes) -> FormRead:
    """A PDF's pages as filled fillable sheets; ``fallback`` when it holds no form (scan its pages as images).

    A PDF made by ``render --fillable`` whose fields are gone (flattened by
    the app) falls back too, with a one-line ``note`` saying so.
    """
    import io

    import pypdf

    from printkit.backends.png import page_sizes
    from printkit.scan.images import MAX_PDF_PAGES, page_problem
    from printkit.scan.locate import SCALE
    from printkit.sheets.fillable import KEYWORDS

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        pdf_pages = list(reader.pages)
        if len(pdf_pages) > MAX_PDF_PAGES:
            return FormRead()  # the image reader says so
        keywords = str(reader.metadata.get("/Keywords", "")) if reader.metadata else ""
        widgets = [bool(_widgets(p)) for p in pdf_pages]
        sizes = page_sizes(data) if any(widgets) else []
    except Exception:  # pypdf's own errors for a damaged file: the image reader reports it
        return FormRead()
    if not any(widgets):
        flat = keywords == KEYWORDS
        return FormRead(note=f"{shown_file(path)}: a fillable sheet without its form fields (flattened?): "
                        "reading its pages as scans" if flat else "")
    sheets: list[SheetRead] = []
    errors: list[str] = []
    for k, (page, (width, height)) in enumerate(zip(pdf_pages, sizes), start=1):
        try:
            problem = page_problem(width, height, SCALE * 72, PageSource(path, k))  # drawn for the review
            if problem is not None:
                raise ScanError(problem)
            sheets.append(read_page(page, data, k - 1, PageSource(path, k)))
        except ScanError as exc:
            errors.append(str(exc))
        except Exception as exc:  # a damaged form object pypdf or pdfium trips on: this page only
            errors.append(f"{PageSource(path, k)}: a damaged form page ({type(exc).__name__}: {str(exc)[:200]})")
    return FormRead(tuple(sheets), tuple(errors), fallback=False)
