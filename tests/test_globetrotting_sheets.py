"""Globetrotting passport: layout checks and real PDF/SVG/PNG output."""

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
from printkit.layout.primitives import Text
from printkit.loading.games import load_globetrotting
from printkit.sheets.globetrotting import passport

GAME = load_globetrotting()


def texts(names: list[str], paper: str = "a4") -> list[str]:
    doc = passport(GAME, names, paper).document
    return [i.text for i in flatten(doc.pages[0].items, doc.forms) if isinstance(i, Text)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("players", [1, 3])
def test_layout_fits_without_overlaps(paper: str, players: int) -> None:
    doc = passport(GAME, ["Ann", "Bo", "Cy"][:players], paper).document
    assert len(doc.pages) == players
    items = flatten(doc.pages[-1].items, doc.forms)
    assert overlapping_texts(items) == []
    assert outside(items, printable_area(doc.width, doc.height)) == []


def test_festivals_for_two_players_companions_for_three() -> None:
    two, three = texts(["Ann", "Bo"]), texts(["Ann", "Bo", "Cy"])
    assert "Festivals" in two and "Travel Companions" not in two
    assert "Travel Companions" in three and "Festivals" not in three
    assert [t for t in two if t.isdigit()] == [str(n) for n in range(1, 10)]  # the 9 flight columns
    assert "Running total" in two and "Airfare bonus" in two


def test_render_command_pdf_svg_png(tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "passport.pdf"
    result = runner.invoke(cli, ["render", "passport", "globetrotting", "--names", "Ann,Bo", "-o", str(out)])
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 2
    assert "Ann" in reader.pages[0].extract_text() and "Bo" in reader.pages[1].extract_text()
    assert "Global objectives" in reader.pages[0].extract_text()
    svg = tmp_path / "passport.svg"
    assert runner.invoke(cli, ["render", "passport", "globetrotting", "-o", str(svg)]).exit_code == 0
    assert "Fulfillment points" in "".join(e.get("aria-label", "") for e in ET.parse(svg).getroot().iter())
    png = tmp_path / "passport.png"
    assert runner.invoke(cli, ["render", "passport", "globetrotting", "-o", str(png)]).exit_code == 0
    assert Image.open(png).convert("L").getextrema() == (0, 255)
