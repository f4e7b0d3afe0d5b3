"""Wereldsteden tracker and player aid: layout checks and real PDF/SVG/PNG output."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image

from printkit.cli import cli
from printkit.layout.boxes import flatten, outside, overlapping_texts
from printkit.layout.common import printable_area
from printkit.layout.primitives import Rect, Text
from printkit.loading.games import load_wereldsteden
from printkit.model.games import Wereldsteden
from printkit.sheets.builder import SheetBuilder
from printkit.sheets.wereldsteden import aid, tracker

GAME = load_wereldsteden()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("build", [tracker, aid])
def test_layout_fits_without_overlaps(paper: str, build: SheetBuilder[Wereldsteden]) -> None:
    doc = build(GAME, ["Ann", "Bo"], paper).document
    assert len(doc.pages) == 2
    items = flatten(doc.pages[0].items, doc.forms)
    assert overlapping_texts(items) == []
    assert outside(items, printable_area(doc.width, doc.height)) == []


def test_tracker_has_six_slots_plus_two_for_the_variant() -> None:
    doc = tracker(GAME, ["Ann"], "a4").document
    items = flatten(doc.pages[0].items, doc.forms)
    slots = [i for i in items if isinstance(i, Rect) and i.w == i.h == 52.0]
    assert len(slots) == 8 and sum(1 for s in slots if s.style.dash) == 2
    words = [i.text for i in items if isinstance(i, Text)]
    assert words.count("variant") == 2 and "Coin ledger" in words and "Start" in words


def test_aid_lists_cities_pairs_specials_and_cards() -> None:
    doc = aid(GAME, [], "a4").document
    words = " ".join(i.text for i in flatten(doc.pages[0].items, doc.forms) if isinstance(i, Text))
    for expected in ("Istanbul", "Hong Kong", "Wellington", "San Francisco - Vladivostok", "Santiago - Darwin",
                     "New York: Take back a card", "Dakar", "Astana", "Helicopter Flight", "Charter Flight",
                     "Stay overnight", "2x Fly over a blue line"):
        assert expected in words


def test_render_command_pdf_svg_png(tmp_path: Path, runner: CliRunner) -> None:
    pdf = tmp_path / "aid.pdf"
    assert runner.invoke(cli, ["render", "aid", "wereldsteden", "-o", str(pdf)]).exit_code == 0
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 1 and "Your nine cards" in reader.pages[0].extract_text()
    svg = tmp_path / "tracker.svg"
    result = runner.invoke(cli, ["render", "tracker", "wereldsteden", "--names", "Ann", "-o", str(svg)])
    assert result.exit_code == 0, result.output
    assert "Ann" in "".join(e.get("aria-label", "") for e in ET.parse(svg).getroot().iter())
    png = tmp_path / "tracker.png"
    assert runner.invoke(cli, ["render", "tracker", "wereldsteden", "-o", str(png)]).exit_code == 0
    assert Image.open(png).convert("L").getextrema() == (0, 255)
