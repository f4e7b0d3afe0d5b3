"""The score pad: one row per scoring category of a map, one column per player."""

from __future__ import annotations

from printkit.layout import fonts
from printkit.layout.columns import ColumnPad, column_pad
from printkit.layout.common import GREY, INK, LIGHT, THIN, fitted, name_text, start_sheet, text
from printkit.layout.primitives import Document, Item, Line, Rect, Style
from printkit.model.maps import GameMap, Track
from printkit.sheets.wording import cities_needed

LABEL_W = 170.0
NAME_SIZE = 11.0
"""A player's name over its column: this size, shrunk to ``NAME_MIN`` on one line, then set on two lines."""
NAME_MIN = 8.0
LINES_MIN = 6.5
"""Two lines shrink to this before a name takes three."""
LEADING = 1.15
HALF_CAP = 0.357
"""Half the cap height of the sheet font (Open Sans: 1462 of 2048 units), per point of size."""
MIN_SCALE = 0.84
"""The pad's shortest rows, as a share of their normal height (``ColumnPad.min_scale``)."""
HEADER_H = 26.0
"""The header row's height at a row scale of 1 (the pad never draws rows below ``ColumnPad.min_scale``)."""


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


def _cost(lines: list[str], broken: int) -> float:
    """How a split reads: its widest line, each break inside a word costing a little more."""
    return max(fonts.text_width(t, NAME_SIZE, "bold") for t in lines) * (1 + 0.15 * broken)


def split_name(name: str, count: int) -> list[str]:
    """``name`` on ``count`` lines of about one width: broken at spaces where that is not much wider, else in a
    word (the line then ends in a hyphen)."""
    if count <= 1 or len(name) < count:
        return [name]
    best: tuple[float, list[str]] | None = None
    for i in range(1, len(name)):
        head, tail = name[:i], name[i:]
        inside = head[-1] != " " and tail[0] != " " and head[-1] != "-"
        first = head.rstrip() + ("-" if inside else "")
        rest = split_name(tail.lstrip(), count - 1)
        if not first.strip("-") or not rest[0]:
            continue
        cost = _cost([first, *rest], int(inside) + sum(t.endswith("-") for t in rest[:-1]))
        if best is None or cost < best[0]:
            best = (cost, [first, *rest])
    return best[1] if best is not None else [name]


def name_lines(name: str, width: float, room: float) -> tuple[tuple[str, ...], float]:
    """The lines and size of a player's name in a header cell ``width`` wide and ``room`` tall.

    One line shrunk to ``NAME_MIN``; else two lines, down to ``LINES_MIN``;
    else whichever of two or three lines sets the name larger.
    """
    one = fonts.fit_size(name, width, NAME_SIZE, "bold", 0.0)
    if one >= NAME_MIN:
        return (name,), one
    best: tuple[tuple[str, ...], float] = ((name,), one)
    for count in (2, 3):
        lines = split_name(name, count)
        widest = max(fonts.text_width(t, NAME_SIZE, "bold") for t in lines)
        size = min(NAME_SIZE, NAME_SIZE * width / widest, room / ((count - 1) * LEADING + 1.0))
        if size > best[1]:
            best = (tuple(lines), size)
        if best[1] >= LINES_MIN:
            break
    return best


def player_name(x: float, base: float, name: str, width: float) -> list[Item]:
    """A player's name centred over its column: one line as every pad sets it, or two or three smaller lines."""
    room = HEADER_H * MIN_SCALE - 2.0
    lines, size = name_lines(name, width, room)
    if len(lines) == 1:
        return [name_text(x, base, name, width, NAME_SIZE, "middle")]
    middle = base - 4.5  # the header row's middle: the one-line baseline sits 4.5 pt below it
    first = middle - (len(lines) - 1) * LEADING * size / 2 + HALF_CAP * size
    return [text(x, first + k * LEADING * size, t, size, "bold", "middle") for k, t in enumerate(lines)]


TIE_BREAK = (
    "Tie: the tied player closest to their starting city wins (fewest routes from their final city "
    "to their start, drawn or not). Still tied: all tied players win."
)


def _labels(x: float, y: float, row_h: float, label: str, hint: str, width: float) -> list[Item]:
    """A row's bold label and its grey hint under it, centred in the row."""
    return [fitted(x, y + row_h / 2 - 2.5, label, width, 10.5, "bold"),
            fitted(x, y + row_h / 2 + 9.5, hint, width, 8.0, fill=GREY)]


def _grid(m: GameMap, x: float, y: float, w: float, cols: int, scale: float) -> tuple[list[Item], float, float]:
    """One empty game table, rows at ``scale`` of their normal height; returns (items, header baseline, bottom)."""
    label_w = LABEL_W
    col_w = (w - label_w) / cols
    header_h, row_h, total_h = HEADER_H * scale, 31.0 * scale, 34.0 * scale
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
    for c in range(1, cols):
        cx = x + label_w + c * col_w
        items.append(Line(cx, y, cx, bottom, THIN))
    return items, y + header_h / 2 + 4.5, bottom


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
                    name=player_name)

    def game(y: float, scale: float) -> tuple[list[Item], float, float]:
        grid, header_base, bottom = _grid(m, sheet.x, y + 18, sheet.w, players, scale)
        return _game_line(sheet.x, y, sheet.w) + grid, header_base, bottom

    return column_pad(pad, game, names)
