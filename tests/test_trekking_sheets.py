"""Trekking the World score pad: layout checks and real PDF/SVG/PNG output."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pypdf
import pytest
from PIL import Image

from printkit import backends
from printkit.layout.boxes import flatten, outside, overlapping_texts
from printkit.layout.common import page_size, printable_area
from printkit.layout.primitives import Text
from printkit.loading.games import load_trekking
from printkit.sheets.trekking import SHEETS, scorepad

GAME = load_trekking()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_layout_fits_without_overlaps(paper: str) -> None:
    doc = scorepad(GAME, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], paper).document
    assert (doc.width, doc.height) == page_size(paper)
    assert len(doc.pages) == 2  # 5 player columns a page
    for page in doc.pages:
        items = flatten(page.items, doc.forms)
        assert overlapping_texts(items) == []
        assert outside(items, printable_area(doc.width, doc.height)) == []
    texts = [i.text for i in flatten(doc.pages[0].items, doc.forms) if isinstance(i, Text)]
    # 8 tour rows per game, two games per page
    assert texts.count("Tour 8") == 2 and texts.count("Ann") == 2 and "Tour 9" not in texts
    assert "right-most full column: 1 3 6 10 15 21 28" in texts
    assert "tie-break only: most wins (max $20)" in texts


def test_pdf_svg_png() -> None:
    assert list(SHEETS) == ["scorepad"]
    doc = scorepad(GAME, ["Ann", "Bo"], "a4").document
    pdf = pypdf.PdfReader(io.BytesIO(backends.render(doc, "pdf")[0]))
    assert len(pdf.pages) == 1
    words = pdf.pages[0].extract_text()
    for expected in ("Trekking the World", "Encounters", "Suitcase", "Money", "Ann", "5th tour (2-3 players)"):
        assert expected in words
    svg = ET.fromstring(backends.render(doc, "svg")[0])
    svg_text = "".join(e.get("aria-label", "") for e in svg.iter())  # text drawn as outlines, labelled
    assert "Tour 1" in svg_text and "Bo" in svg_text
    png = Image.open(io.BytesIO(backends.render(doc, "png")[0])).convert("L")
    assert png.getextrema() == (0, 255)  # ink on white paper
