"""Sheets use the paper, survive a black-and-white printer, and keep printed names clear of their rule."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from printkit import registry
from printkit.backends import render
from printkit.layout import fonts
from printkit.layout.boxes import Box, blank_band, flatten, text_box
from printkit.layout.common import name_line, pack, printable_area
from printkit.layout.primitives import Circle, Document, Line, Rect, Text
from printkit.loading.games import load_wereldsteden
from printkit.loading.maps import load_map
from printkit.sheets import scorepad
from printkit.sheets.wereldsteden import DOTS, aid

SUBJECTS = ("world", "us", "europe", "south-america", "trekking-the-world", "globetrotting", "wereldsteden")
SHEETS = [(s, k, p) for s in SUBJECTS for k in registry.sheet_kinds(s) for p in ("a4", "letter")]
MAX_BLANK = 0.15


def test_blank_band_is_the_tallest_empty_stretch_of_the_area() -> None:
    area = Box(0, 0, 100, 200)
    items = [Rect(10, 0, 20, 30), Line(0, 50, 100, 50), Text(5, 150, "x", 10), Circle(50, 195, 5)]
    top, height = blank_band(items, area)
    line = Line(0, 50, 100, 50)
    assert top == pytest.approx(50 + line.style.width / 2)
    assert height == pytest.approx(text_box(Text(5, 150, "x", 10)).y - top)
    assert blank_band([], area) == (0, 200)  # an empty page is one blank band
    box = Rect(0, 120, 10, 10)
    assert blank_band([box], area) == (0, 120 - box.style.width / 2)  # the band above the only item (its stroke)
    assert blank_band([Rect(0, -50, 10, 300)], area) == (0, 0)  # an item past both edges covers all


@pytest.mark.parametrize("subject,kind,paper", SHEETS, ids=[f"{k}-{s}-{p}" for s, k, p in SHEETS])
def test_no_blank_band_taller_than_15_percent_of_the_printable_height(subject: str, kind: str, paper: str) -> None:
    doc = registry.build_sheet(kind, subject, ["Ann", "Bo"], paper).document
    area = printable_area(doc.width, doc.height)
    for page in doc.pages:
        top, height = blank_band(flatten(page.items, doc.forms), area)
        assert height <= MAX_BLANK * area.h, f"{height:.0f} pt blank from y={top:.0f} ({height / area.h:.0%})"


@pytest.mark.parametrize("subject", ["world", "europe"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_world_and_europe_score_pads_hold_three_games_a_page(subject: str, paper: str) -> None:
    doc = registry.build_sheet("scorepad", subject, ["Ann"], paper).document
    items = flatten(doc.pages[0].items, doc.forms)
    assert [t.text for t in items if isinstance(t, Text)].count("Ann") == 3
    assert [t.text for t in items if isinstance(t, Text)].count("Game:") == 3


def test_score_pad_player_limit_comes_from_the_map() -> None:
    world = load_map("world")._replace(max_multiplayer=4)
    doc = scorepad.build(world, [f"P{i}" for i in range(1, 6)], "a4")
    assert len(doc.pages) == 2  # 4 columns a page: P1-P4, then P5
    shown = [t.text for t in flatten(doc.pages[0].items, doc.forms) if isinstance(t, Text)]
    assert any("more than 4)" in t for t in shown)
    assert not any("more than 6" in t for t in shown)


@pytest.mark.parametrize("sheet,subject", [("passport", "globetrotting"), ("tracker", "wereldsteden"),
                                           ("map", "world")])
def test_a_printed_names_descenders_clear_the_name_rule(sheet: str, subject: str) -> None:
    doc = registry.build_sheet(sheet, subject, ["Jyqgp Pjotr"], "a4").document
    page = doc.pages[0].items
    name = next(t for t in page if isinstance(t, Text) and t.text == "Jyqgp Pjotr")
    bottom = name.y + fonts.descent(name.size, "bold")
    rules = [i for i in flatten(page, doc.forms) if isinstance(i, Line) and i.y1 == i.y2
             and i.x1 <= name.x <= i.x2 and 0 < i.y1 - name.y < 10]
    assert rules, "no name rule under the printed name"
    rule = min(rules, key=lambda r: r.y1)
    assert bottom <= rule.y1 - rule.style.width / 2


def test_name_line_rule_sits_under_the_slot_sizes_descent() -> None:
    items, slot = name_line(34, 34, 240)
    rule = next(i for i in items if isinstance(i, Line))
    assert rule.y1 - rule.style.width / 2 >= slot.y + fonts.descent(slot.size, "bold")


def _one_bit(doc: Document) -> Image.Image:
    """Page 1 at 150 dpi, thresholded to 1 bit as a laser printer without halftoning would."""
    png = Image.open(io.BytesIO(render(doc, "png")[0]))
    return png.convert("L").point(lambda v: 255 if v >= 128 else 0).convert("1")


def test_aid_dots_differ_in_black_and_white() -> None:
    doc = aid(load_wereldsteden(), [], "a4").document
    items = flatten(doc.pages[0].items, doc.forms)
    scale = 150 / 72

    def dot(kind: str) -> Image.Image:
        fill = DOTS[kind][0]
        c = next(i for i in items if isinstance(i, Circle) and i.style.fill == fill and i.style.stroke == DOTS[kind][1])
        r, x, y = round((c.r + 2) * scale), round(c.cx * scale), round(c.cy * scale)
        return bw.crop((x - r, y - r, x + r, y + r))

    bw = _one_bit(doc)
    buy, sell, extra = dot("buy"), dot("sell"), dot("extra")
    assert buy.size == sell.size == extra.size
    differing = sum(a != b for a, b in zip(buy.get_flattened_data(), sell.get_flattened_data()))
    assert differing > 0.05 * buy.width * buy.height  # B and S, not two identical grey dots
    # red and green themselves print alike in one bit; the letters tell them apart
    assert DOTS["buy"][3] == "B" and DOTS["sell"][3] == "S"
    for kind in ("buy", "sell"):
        assert sum(a != b for a, b in zip(dot(kind).get_flattened_data(), extra.get_flattened_data())) > \
            0.05 * extra.width * extra.height  # nor like the black extra-flight dot


def test_aid_buy_and_sell_text_name_the_letter() -> None:
    doc = aid(load_wereldsteden(), [], "letter").document
    shown = [t.text for t in flatten(doc.pages[0].items, doc.forms) if isinstance(t, Text)]
    assert "Buy a souvenir (red dot, B)" in shown and "Sell a souvenir (green dot, S)" in shown
    assert shown.count("B") == 1 and shown.count("S") == 1  # the letters in the dots


def test_pack_prints_each_name_in_its_slot() -> None:
    items, slot = name_line(34, 34, 240)
    doc = pack(595.28, 841.89, items, ["Ann"], slot, "t")
    name = next(i for i in doc.pages[0].items if isinstance(i, Text))
    assert (name.x, name.y) == (slot.x, slot.y)
