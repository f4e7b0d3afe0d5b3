"""One sheet read: find it, see the player's ink, read every box and route, cross-check, and say what is unsure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from printkit.model.maps import GameMap
from printkit.scan.images import PageSource, ScanError
from printkit.scan.read import Read

if TYPE_CHECKING:
    from collections.abc import Mapping

    from printkit.scan.cover import Seen
    from printkit.scan.explain import RouteInk
    from printkit.scan.images import Image
    from printkit.scan.locate import Identity
    from printkit.sheets.fields import Fields

STAR_MIN = 0.025
"""Least ink share in a city's star ring for it to count as starred.

Measured on the benchmark's corpus (seeds 1 and 2, 240 sheets): a star
drawn with the thinnest pen (0.3 mm) fills at least 0.047 of the ring; a
city without one at most 0.006 once every route line through the ring is
left out (STAR_KEEP_OUT)."""
STAR_BAND = 0.01
"""Star ring ink within this of STAR_MIN (1.5-3.5%) is neither a star nor surely none: the start is unsure
(a decision band, like a box's or a route's, so that a read on the edge is flagged, not guessed)."""
BLANK_MAX = 0.5
"""A sheet with more than this share of its boxes unreadable is refused as too blurred or dark."""
SETTLED = 0.5
"""The confidence of a route read the trail settles: just certain (see docs/scan.md, the trail)."""


@dataclass(frozen=True)
class Uncertain:
    """A field the scan is not sure of: its game-file path, how sure (0-1), and why."""

    field: str
    confidence: float
    message: str


@dataclass
class SheetRead:
    """Everything read off one sheet, before it joins a game."""

    source: PageSource
    ident: Identity
    m: GameMap
    boxes: dict[str, Read]
    routes: dict[str, Read]
    star: dict[str, float]
    warped: Image
    route: list[str] | None = None
    uncertain: list[Uncertain] = field(default_factory=list)
    digest: str = ""
    """The page's pixels' digest (a scanned page; "" for a form): the same picture given twice is one sheet."""
    typed: dict[str, int] = field(default_factory=dict)  # points typed in a fillable PDF's score boxes, by box id

    def doubt(self, path: str, confidence: float, message: str) -> None:
        """Record one uncertain read (once, however often the same read is counted)."""
        entry = Uncertain(path, round(confidence, 3), message)
        if entry not in self.uncertain:
            self.uncertain.append(entry)


def load_sheet_map(ident: Identity, where: PageSource) -> GameMap:
    """The map the QR code names, its every field checked (:mod:`printkit.scan.ident`), else a ScanError."""
    from printkit.scan.ident import sheet_map

    return sheet_map(ident, where)


def read_sheet(image: Image, where: PageSource) -> SheetRead:
    """Read one page; a ScanError (naming ``where``) if it holds no readable sheet of this version."""
    from printkit.scan.align import fit, loose
    from printkit.scan.cover import out_of_place, seen
    from printkit.scan.ink import blank_sheet, ink_of, light
    from printkit.scan.locate import locate

    found = locate(image, where)
    m = load_sheet_map(found.ident, where)
    blank = blank_sheet(m.id, found.ident.paper)
    check_layout(found.ident, blank.fields, where)
    h, warped = found.h, None
    if found.markers < 3:  # a corner cut off with its neighbour: the print must fit the two markers left
        fits = loose(image, h, found.warped, m.id, found.ident.paper)
        if fits is None:
            raise ScanError(f"{where}: only {found.markers} of the sheet's 4 corner markers are in the picture, and its "
                            "print does not fit them (are all four corners in the picture?)")
        h, warped = fits
    fitted = fit(image, h, warped, m.id, found.ident.paper)
    paper, normal = light(fitted.warped)
    bent = fitted.bent
    shows = seen(fitted.valid, paper, normal, blank, out_of_place(fitted.warped, blank) if bent else None, bent)
    return read_ink(ink_of(normal, blank), blank.fields, where, found.ident, m, fitted.warped, shows=shows)


def check_layout(ident: Identity, fields: Fields, where: PageSource) -> None:
    """A ScanError unless the sheet was printed by this version's layout."""
    if fields.layout != ident.layout:
        raise ScanError(f"{where}: the sheet was printed by another printkit version (layout {ident.layout}, "
                        f"this one draws {fields.layout}): print it again, or scan with that version")


def read_ink(ink: Image, fields: Fields, where: PageSource, ident: Identity, m: GameMap, image: Image,
             stars: Image | None = None, shows: Seen | None = None) -> SheetRead:
    """Every box, star and route read from the player's ink (a mask on the sheet at SCALE), the trail checked.

    ``stars``, when given, is the ink of the start star alone (pen strokes
    are told apart on a fillable PDF), so it is not read as part of a route.
    ``shows`` (a scan) says where the picture shows the sheet: the fields it
    does not show are unsure (:mod:`printkit.scan.cover`).
    """
    from printkit.scan.cover import check
    from printkit.scan.explain import route_ink
    from printkit.scan.ink import blank_sheet
    from printkit.scan.read import read_boxes, read_routes, star_ink

    boxes = read_boxes(ink, fields)
    unsure = sum(1 for r in boxes.values() if not r.certain)
    if boxes and unsure > BLANK_MAX * len(boxes):
        raise ScanError(f"{where}: {unsure} of {len(boxes)} boxes cannot be read (too blurred, dark or creased?)")
    star = star_ink(ink if stars is None else stars, fields)
    starred = starred_cities(star) if stars is None else frozenset()
    routes = read_routes(ink, fields, starred)
    if shows is not None:
        check(boxes, routes, shows, blank_sheet(m.id, ident.paper), ink)
    sheet = SheetRead(where, ident, m, boxes, routes, star, image)
    for r in boxes.values():
        if r.why:
            sheet.doubt(r.id, r.confidence, f"box {r.id}: cannot be read: {r.why}")
    doubtful = [rid for rid, r in routes.items() if not r.certain and not r.why]
    drawn = [rid for rid, r in routes.items() if r.on and r.certain]
    check_sheet(sheet, route_ink(ink, fields, doubtful, drawn, scanned=stars is None), starred)
    return sheet


def row_count(sheet: SheetRead, prefix: str, boxes: int) -> int:
    """Marks in one row of boxes, from the left; gaps and unsure boxes are doubts."""
    reads = [sheet.boxes[f"{prefix}.{n}"] for n in range(1, boxes + 1) if f"{prefix}.{n}" in sheet.boxes]
    marks = [r.on for r in reads]
    count = marks.index(False) if False in marks else len(marks)
    for r in reads:
        if r.why:
            sheet.doubt(r.id, r.confidence, f"box {r.id}: cannot be read: {r.why}")
        elif not r.certain:
            sheet.doubt(r.id, r.confidence, f"box {r.id}: {'marked' if r.on else 'empty'}? ({r.measure:.0%} ink)")
    if any(marks[count:]):
        shown = " ".join("x" if v else "." for v in marks)
        sheet.doubt(prefix, 0.3, f"{prefix}: marks do not run from the left without gaps ({shown})")
        return sum(marks)
    return count


def marks_of(sheet: SheetRead) -> dict[str, dict[str, int]]:
    """Counts per kind for the game file: {"souvenirs": {...}, "sights" or "animals": {...}}."""
    m = sheet.m
    out = {"souvenirs": {k.id: row_count(sheet, f"souvenirs.{k.id}", m.collect.boxes) for k in m.collect.kinds}}
    out[m.explore_key] = {k.id: row_count(sheet, f"{m.explore_key}.{k.id}", t.boxes) for t in m.explore for k in t.kinds}
    return out


def check_sheet(sheet: SheetRead, evidence: Mapping[str, RouteInk], starred: frozenset[str]) -> None:
    """The trail from the drawn routes, and every route that is unsure (unless ink and trail settle it).

    ``evidence`` holds the ink on each unsure route, sample by sample;
    ``starred`` the cities whose start star may put ink on a route's line.
    """
    from printkit.scan.read import UNREADABLE
    from printkit.scan.trail import trail

    touched = {c for rid, r in sheet.routes.items() if r.on for c in _edge(sheet, rid)} | starred
    doubtful = {rid for rid, r in sheet.routes.items() if not r.certain and r.measure != UNREADABLE}
    while True:  # a route in doubt may carry the trail on: an unreadable route at its far end is in doubt too
        reach = touched | {c for rid in doubtful for c in _edge(sheet, rid)}
        more = {rid for rid, r in sheet.routes.items() if not r.certain and reach & set(_edge(sheet, rid))}
        if more <= doubtful:
            break
        doubtful |= more
    unsure = {rid: None if r.measure == UNREADABLE or r.hidden else r.on for rid, r in sheet.routes.items()
              if rid in doubtful}
    _settle(sheet, {rid: lean for rid, lean in unsure.items() if not sheet.routes[rid].why}, evidence, starred)
    for rid in unsure:
        if sheet.routes[rid].certain:
            continue
        if sheet.routes[rid].why:
            sheet.doubt(f"route.{rid}", 0.0, f"route {rid}: cannot be read: {sheet.routes[rid].why}")
        elif sheet.routes[rid].measure == UNREADABLE:
            sheet.doubt(f"route.{rid}", 0.0, f"route {rid}: too short on the sheet to read; check it")
        else:
            r = sheet.routes[rid]
            sheet.doubt(f"route.{rid}", r.confidence, f"route {rid}: drawn? ({r.measure:.0%} of it inked)")
    for c in faint_stars(sheet.star):
        sheet.doubt("route", 0.3, f"route: {sheet.m.city(c).name}: {sheet.star[c]:.1%} of the ring round its circle is "
                    "inked, too little for a start star and too much for none; check it")
    route, why = trail(sheet.m, [_edge(sheet, rid) for rid, r in sheet.routes.items() if r.on], sheet.star, STAR_MIN)
    if route is None:
        sheet.doubt("route", 0.2, f"route: {why}")
    elif sheet.star.get(route[0], 0.0) < STAR_MIN:  # the rules: every player stars a starting city first
        ends = " and ".join(sheet.m.city(c).name for c in (route[0], route[-1]))
        at = "any city of the trail" if route[0] == route[-1] else f"either end of the trail ({ends})"
        sheet.doubt("route", 0.2, f"route: no start star at {at}; each player stars their starting city")
    sheet.route = route


def starred_cities(star: Mapping[str, float]) -> frozenset[str]:
    """The cities whose star ring holds at least STAR_MIN of ink: starred as the start."""
    return frozenset(c for c, v in star.items() if v >= STAR_MIN)


def faint_stars(star: Mapping[str, float]) -> list[str]:
    """The cities whose star ring ink lies within STAR_BAND of STAR_MIN: neither clearly starred nor clearly not."""
    return [c for c, v in star.items() if abs(v - STAR_MIN) < STAR_BAND]


def _settle(sheet: SheetRead, unsure: dict[str, bool | None], evidence: Mapping[str, RouteInk],
            starred: frozenset[str]) -> None:
    """Unsure routes every legal trail agreeing with the ink decides alike become certain (confidence SETTLED)."""
    from printkit.scan.trail import settle

    certain = [rid for rid, r in sheet.routes.items() if r.on and r.certain]
    edges = {rid: _edge(sheet, rid) for rid in unsure}

    def fits(choice: dict[tuple[str, str], bool]) -> bool:
        drawn = set(certain) | {rid for rid in unsure if choice[edges[rid]]}
        return all(evidence[rid].fits(drawn, starred, rid) for rid in unsure if rid in evidence)

    choice = settle(sheet.m, [_edge(sheet, rid) for rid in certain], {edges[rid]: lean for rid, lean in unsure.items()},
                    sheet.star, STAR_MIN, fits)
    if choice is None:
        return
    for rid, edge in edges.items():
        if edge in choice:
            r = sheet.routes[rid]
            sheet.routes[rid] = Read(rid, choice[edge], r.measure, SETTLED)


def _edge(sheet: SheetRead, route_id: str) -> tuple[str, str]:
    """The two cities of a route, by the route's id in the fields."""
    for r in sheet.m.routes:
        if f"{r.a}-{r.b}" == route_id or f"{r.b}-{r.a}" == route_id:
            return r.a, r.b
    raise KeyError(route_id)


def player_table(sheet: SheetRead, name: str, **end: Any) -> dict[str, Any]:
    """The sheet as a game file's ``[[players]]`` table (what could be read; ``end``: first_rare, finished_turn)."""
    from printkit.loading.records.atw import player_table as table

    marks = marks_of(sheet)
    m = sheet.m
    return table(m, name, marks["souvenirs"], marks[m.explore_key], route=sheet.route, **end)
