"""The score pad: one row per scoring category of a map, one column per player."""

from __future__ import annotations

from printkit.layout import fonts
from printkit.layout.columns import ColumnPad, Drawn, column_pad
from printkit.layout.common import GREY, INK, LIGHT, fitted, start_sheet, text
from printkit.layout.primitives import Document, Item, Line, Rect, Style
from printkit.model.maps import GameMap, Track
from printkit.sheets.wording import cities_needed

LABEL_W = 170.0
MIN_SCALE = 0.84
"""The pad's shortest rows, as a share of their normal height (``ColumnPad.min_scale``)."""
HEADER_H = 26.0
"""The header row's height at a row scale of 1 (the pad never draws rows below ``ColumnPad.min_scale``)."""
TOTAL_H = 35.0
"""The Total row's height at a row scale of 1: taller than the rest, shaded, a boxed cell for each player."""


def points_table(values: tuple[int, ...], start: int = 1) -> str:
    """``1:2 2:4 3:7`` from a points-by-count table (from index ``start``)."""
    return " ".join(f"{n}:{p}" for n, p in enumerate(values) if n >= start)


def track_hint(t: Track) -> str:
    """How a mark section scores, in a few words, from its data."""
    parts: list[str] = []
    row = t.row_points
    if t.boxes == 1:
        parts.append(f"{row[1]} each")
    elif all(p == 0 for p in row[:-1]):
        parts.append(f"full row {row[-1]}")
    elif all(row[n] == n * row[1] for n in range(len(row))):
        parts.append(f"{row[1]} per mark")
    else:
        parts.append("marks " + points_table(row))
    if t.column_points:
        parts.append(f"full column {t.column_points}")
    if t.majority is not None:
        parts.append(f"most {t.majority.most}, tied {t.majority.tied}")
    if t.first_bonus:
        parts.append(f"first +{t.first_bonus}")
    return ", ".join(parts)


def categories(m: GameMap) -> list[tuple[str, str]]:
    """(label, scoring hint) of every scoring category of the map, in sheet order."""
    rows: list[tuple[str, str]] = [(f"{m.collect.name} (souvenirs)", track_hint(m.collect))]
    for t in m.explore:
        rows.append((t.name, track_hint(t)))
    rs = m.region_scoring
    if rs.mode == "table":
        rows.append(("Regions completed", points_table(rs.table)))
    elif rs.mode == "per_region":
        rows.append(("Regions completed", f"{rs.points} per region"))
    else:
        rows.append(("Region majorities", f"most: reward, tied: {rs.tied} each"))
    if m.iconic_table:
        rows.append(("Iconic cities", points_table(m.iconic_table)))
    need = cities_needed(m)
    rows.append(("Speed bonus", f"{need} in every region, back home: {m.speed_bonus}"))
    return rows


TIE_BREAK = (
    "Tie: the tied player closest to their starting city wins (fewest routes from their final city "
    "to their start, drawn or not). Still tied: all tied players win."
)


def _labels(x: float, y: float, row_h: float, label: str, hint: str, width: float) -> list[Item]:
    """A row's bold label and its grey hint under it, centred in the row."""
    return [fitted(x, y + row_h / 2 - 2.5, label, width, 10.5, "bold"),
            fitted(x, y + row_h / 2 + 9.5, hint, width, 8.0, fill=GREY)]


def _grid(m: GameMap, x: float, y: float, w: float, scale: float) -> Drawn:
    """One empty game table (its player columns are each page's), rows at ``scale`` of their normal height."""
    label_w = LABEL_W
    header_h, row_h, total_h = HEADER_H * scale, 31.0 * scale, TOTAL_H * scale
    rows = categories(m)
    items: list[Item] = [Rect(x, y, w, header_h, Style(stroke=None, fill=LIGHT))]
    items.append(text(x + 6, y + header_h / 2 + 4, "Player", 11, "bold"))
    yy = y + header_h
    for label, hint in rows:
        items += _labels(x + 6, yy, row_h, label, hint, label_w - 12)
        yy += row_h
    total_top = yy
    items.append(Rect(x, yy, w, total_h, Style(stroke=None, fill=LIGHT)))
    items.append(text(x + 6, yy + total_h / 2 + 5, "Total", 14, "bold"))
    yy += total_h
    # the tie-break distance: not points, but decides ties
    items += _labels(x + 6, yy, row_h, "Routes to start", "tie-break only: fewest wins", label_w - 12)
    bottom = yy + row_h
    line = Style(stroke=INK, width=0.8)
    items.append(Rect(x, y, w, bottom - y, Style(stroke=INK, width=1.4)))
    for i in range(len(rows) + 1):
        ry = y + header_h + i * row_h
        items.append(Line(x, ry, x + w, ry, line))
    items.append(Line(x, total_top, x + w, total_top, Style(stroke=INK, width=1.6)))
    items.append(Line(x, total_top + total_h, x + w, total_top + total_h, Style(stroke=INK, width=1.6)))
    items.append(Line(x + label_w, y, x + label_w, bottom, Style(stroke=INK, width=1.2)))
    return Drawn(items, y + header_h / 2 + 4.5, y, bottom, (total_top, total_top + total_h))


def _game_line(x: float, y: float, w: float) -> list[Item]:
    """``Game ___  Date ______`` above a table."""
    items: list[Item] = []
    base = y + 10
    for label, lx, lw in (("Game", x, 80.0), ("Date", x + 100, 150.0)):
        items.append(text(lx, base, label + ":", 9.5, "bold"))
        tw = fonts.text_width(label + ":", 9.5, "bold")
        items.append(Line(lx + tw + 4, base + 2, lx + lw, base + 2, Style(stroke=INK, width=0.6)))
    return items


def build(m: GameMap, names: list[str], paper: str) -> Document:
    """Score pad pages for ``m``: players as columns (``m.max_multiplayer`` per page), as many games as fit a page."""
    players = m.max_multiplayer
    sheet = start_sheet(paper, "Score pad", f"{m.title} - one column per player", gap=10.0)
    notes = TIE_BREAK + (
        f" Solo or party (1 player, or more than {players}): in the Speed bonus row write {m.solo.turns} - t "
        "for a trip finished on turn t, and rate your total on the turn tracker."
    )
    pad = ColumnPad(sheet, LABEL_W, players, notes, gap=16.0, form="scorepad", title=f"Score pad - {m.name}",
                    overflow=f"score pad for {m.id}: the table does not fit a {paper} page", min_scale=MIN_SCALE,
                    name_room=HEADER_H * MIN_SCALE - 2.0)

    def game(y: float, scale: float) -> Drawn:
        grid = _grid(m, sheet.x, y + 18, sheet.w, scale)
        return grid._replace(items=_game_line(sheet.x, y, sheet.w) + grid.items)

    return column_pad(pad, game, names)
