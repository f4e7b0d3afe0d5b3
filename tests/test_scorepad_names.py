"""Every game's pad keeps every name: up to 40 characters, whole, on at most two lines, at 8 pt or more.

Measured from the real PDF (pdfplumber's words, their fonts and sizes): on
Around the World's score pad (each map), Trekking the World's pad, the
Globetrotting passport and the Wereldsteden tracker, on both papers, each
name's printed lines join back into the name, none under 8 pt, and each lies
inside its own column; two 40-character names sharing a 14-character prefix
both print whole, so they can be told apart. Total cells stand out: a box
heavier than any rule, in a row taller than the others.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pdfplumber
import pytest

from printkit import registry
from printkit.backends import render
from printkit.layout import columns
from printkit.layout.common import name_fit, split_name
from printkit.loading.maps import bundled_maps

FIRST = "Maximiliana Wolfeschlegelsteinhausen Ann"  # 40 characters, the first 14 shared with SECOND
SECOND = "Maximiliana WoLaura-Beatrix Oppenheimers"
LONG = "Wolfeschlegelsteinhausenberg Maximiliana"
WIDE = "W" * 40  # the widest 40 characters the font prints
NAMES = [FIRST, "Ann", SECOND, LONG, "Bo", WIDE, "Jean-Baptiste Emmanuel Zorg de la Fontai"]
PADS = ([("scorepad", m) for m in bundled_maps()]
        + [("scorepad", "trekking-the-world"), ("passport", "globetrotting"), ("tracker", "wereldsteden")])


def test_the_names_are_the_longest_a_player_may_have() -> None:
    assert all(len(n) == 40 for n in NAMES if n not in ("Ann", "Bo"))
    assert FIRST[:14] == SECOND[:14] and FIRST[14] != SECOND[14]


@pytest.fixture(scope="module")
def pdfs() -> dict[tuple[str, str, str], bytes]:
    return {}


def pad_pdf(pdfs: dict[tuple[str, str, str], bytes], kind: str, subject: str, paper: str) -> bytes:
    key = (kind, subject, paper)
    if key not in pdfs:
        pdfs[key] = render(registry.build_sheet(kind, subject, NAMES, paper).document, "pdf")[0]
    return pdfs[key]


def phrases(words: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Words on one baseline joined where the gap between them is a space's (a name's line), left to right."""
    out: list[dict[str, Any]] = []
    for w in sorted(words, key=lambda w: (round(w["bottom"], 1), w["x0"])):
        last = out[-1] if out else None
        if last and abs(last["bottom"] - w["bottom"]) < 0.3 and w["x0"] - last["x1"] < 0.5 * w["size"]:
            last.update(text=last["text"] + " " + w["text"], x1=w["x1"], size=min(last["size"], w["size"]))
        else:
            out.append(dict(w))
    return out


def names_printed(page: Any, top: float, bottom: float, left: float,
                  middle: bool) -> list[tuple[str, list[dict[str, Any]]]]:
    """The names printed in bold between ``top`` and ``bottom`` right of ``left``: lines sharing a centre
    (``middle``) or a left edge, top to bottom, each name as (its letters joined, its lines), left to right."""
    words = [w for w in page.extract_words(extra_attrs=["size", "fontname"], x_tolerance=1.0)
             if "Bold" in w["fontname"] and top <= w["top"] and w["bottom"] <= bottom and w["x0"] > left]
    groups: list[list[dict[str, Any]]] = []
    for p in phrases(words):
        at = (p["x0"] + p["x1"]) / 2 if middle else p["x0"]
        group = next((g for g in groups if abs(g[0]["at"] - at) < 1.0), None)
        p["at"] = at
        (group.append(p) if group is not None else groups.append([p]))
    out = []
    for g in sorted(groups, key=lambda g: g[0]["at"]):
        g.sort(key=lambda p: p["top"])
        joined = "".join(p["text"][:-1] if p["text"].endswith("-") and k < len(g) - 1 else p["text"] + " "
                         for k, p in enumerate(g)).strip()
        out.append((joined, g))
    return out


def letters(name: str) -> str:
    return name.replace(" ", "").replace("-", "")


def cells(page: Any, top: float, bottom: float) -> list[float]:
    """The x of every vertical rule crossing the band (the table's column edges), left to right."""
    xs = {round(ln["x0"], 1) for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01
          and ln["top"] <= top + 1 and ln["bottom"] >= bottom - 1}
    xs |= {round(r["x0"], 1) for r in page.rects if r["top"] <= top + 1 and r["bottom"] >= bottom - 1}
    xs |= {round(r["x1"], 1) for r in page.rects if r["top"] <= top + 1 and r["bottom"] >= bottom - 1}
    return sorted(xs)


def bands(page: Any, kind: str) -> Iterator[tuple[float, float, float, bool]]:
    """Where names are printed on a page: each table's header row right of its label column, or the Name line
    right of "Name:" (top, bottom, left, centred)."""
    label = "Player" if kind == "scorepad" else "Name:"
    for w in page.extract_words(x_tolerance=1.0):
        if w["text"] == label:
            if kind == "scorepad":
                yield w["top"] - 9, w["bottom"] + 9, w["x1"] + 40, True
            else:
                yield w["top"] - 16, w["bottom"] + 3, w["x1"], False


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind,subject", PADS)
def test_every_name_prints_whole_on_two_lines_at_most_at_8_pt_or_more(
        kind: str, subject: str, paper: str, pdfs: dict[tuple[str, str, str], bytes]) -> None:
    seen: list[str] = []
    with pdfplumber.open(io.BytesIO(pad_pdf(pdfs, kind, subject, paper))) as pdf:
        for page in pdf.pages:
            found = list(bands(page, kind))
            assert found, page.page_number
            for top, bottom, left, middle in found:
                names = names_printed(page, top, bottom, left, middle)
                edges = cells(page, top + 4, bottom - 4) if middle else []
                for joined, lines in names:
                    assert len(lines) <= 2, joined
                    assert min(p["size"] for p in lines) >= 7.99, (joined, [p["size"] for p in lines])
                    for p in lines:  # inside its own column, 2.9 pt clear of its rules
                        if edges:
                            left = max(x for x in edges if x <= p["x0"])
                            right = min(x for x in edges if x >= p["x1"])
                            assert p["x0"] - left >= 2.9 and right - p["x1"] >= 2.9, (joined, p["x0"], left, right)
                if kind == "scorepad":
                    seen += [j for j, _ in names] if top == found[0][0] else []
                else:
                    seen += [j for j, _ in names]
    assert [letters(s) for s in seen] == [letters(n) for n in NAMES]  # each once per page, in order, all letters
    assert FIRST in seen and len(set(seen)) == len(seen)  # the two sharing a prefix: each whole, so they differ


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind,subject", [("scorepad", "world"), ("scorepad", "trekking-the-world"),
                                          ("passport", "globetrotting")])
def test_the_total_cells_stand_out(kind: str, subject: str, paper: str,
                                   pdfs: dict[tuple[str, str, str], bytes]) -> None:
    with pdfplumber.open(io.BytesIO(pad_pdf(pdfs, kind, subject, paper))) as pdf:
        page = pdf.pages[0]
        total = max((w for w in page.extract_words(extra_attrs=["size"]) if w["text"] == "Total"),
                    key=lambda w: w["size"])  # the Total row (the passport's "Total airfare" is a line)
        shapes = page.rects + page.curves  # a rounded box is a curve
        boxes = [r for r in shapes if r["top"] - 8 < total["top"] < r["bottom"] and r["x0"] > total["x1"]]
        widest_rule = max(r["linewidth"] for r in shapes + page.lines if r not in boxes and r["stroke"])
        assert boxes and all(b["linewidth"] >= 1.6 and b["linewidth"] >= widest_rule for b in boxes)
        assert total["bottom"] - total["top"] >= 14  # the largest label of the pad
        if kind == "scorepad":  # a box in each player's column, in the tallest row
            assert len(boxes) >= 2
            assert min(b["bottom"] - b["top"] for b in boxes) >= 20


def test_a_page_takes_fewer_players_where_their_names_need_the_room() -> None:
    room = 357.0
    assert columns.chunks(["Ann", "Bo", "Cy"], 6, room) == [(["Ann", "Bo", "Cy"], 6)]
    long = [FIRST, SECOND, LONG, WIDE]
    pages = columns.chunks(long, 6, room)
    assert [n for group, _ in pages for n in group] == long and len(pages) > 1
    for group, count in pages:
        widths = columns.widths(group, count, room)
        assert sum(widths) == pytest.approx(room) and min(widths) >= columns.MIN_COLUMN
        assert all(w >= columns.needs(n) for w, n in zip(widths, group))
    assert columns.widths(["Ann", "Bo"], 6, room) == [room / 6] * 6  # short names: equal columns, as before


def test_a_name_shrinks_on_one_line_before_it_takes_two() -> None:
    one = "Christopher"
    lines, size = name_fit(one, 53.5, 11.0)
    assert lines == (one,) and 8.0 <= size < 11.0
    lines, size = name_fit("Christopher Montgomery", 53.5, 11.0, 19.8)
    assert lines == ("Christopher", "Montgomery") and size >= 8.0
    assert split_name(WIDE) == ("W" * 20 + "-", "W" * 20)  # no space: broken inside, with a hyphen


def test_a_long_name_on_the_map_sheet_clears_the_scan_marker() -> None:
    sheet = registry.build_sheet("map", "world", [WIDE], "a4")
    assert sheet.geometry is not None
    marker = next(m.rect for m in sheet.geometry.markers if m.rect[0] > 400 and m.rect[1] < 100)
    with pdfplumber.open(io.BytesIO(render(sheet.document, "pdf")[0])) as pdf:
        page = pdf.pages[0]
        (top, bottom, left, _), = bands(page, "map")
        (joined, lines), = names_printed(page, top, bottom, left, False)
        assert letters(joined) == WIDE and len(lines) == 2 and min(p["size"] for p in lines) >= 8
        for p in lines:  # 2.5 pt quiet zone round the marker, and 2 pt more
            assert p["x1"] <= marker[0] - 4.5 or p["bottom"] <= marker[1] - 4.5 or p["top"] >= marker[3] + 4.5
