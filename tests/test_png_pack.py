"""PNG packs: the form every page shares is rasterised once, each page drawn over a copy: the same pixels."""

from __future__ import annotations

import pytest

from printkit import registry
from printkit.backends import png, pngbands
from printkit.backends.png import pack_pngs, render_png_page, split_ground
from printkit.layout.primitives import Document, Page, Rect, UseForm


def test_each_page_of_a_pack_is_the_page_drawn_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = registry.build_sheet("map", "world", ["Ann", "Bo", "Cy"], "a4").document
    alone = [render_png_page(doc, k) for k in range(3)]
    assert len(set(alone)) == 3  # the names and QR codes differ
    assert list(pack_pngs(doc)) == alone
    monkeypatch.setattr(png, "PDF_PAGES", 2)  # a pack drawn into several PDFs
    assert list(pack_pngs(doc)) == alone


def test_only_pages_that_start_with_one_form_share_a_ground() -> None:
    box = Rect(1, 1, 2, 2)
    one = Document(10, 10, (Page((UseForm("f"), box)),))
    assert split_ground(one) is None  # nothing to share
    mixed = Document(10, 10, (Page((UseForm("f"), box)), Page((box,))))
    assert split_ground(mixed) is None
    pack = Document(10, 10, (Page((UseForm("f"), box)), Page((UseForm("f"),))))
    split = split_ground(pack)
    assert split is not None
    ground, pages = split
    assert ground.pages == (Page((UseForm("f"),)),)
    assert pages.pages == (Page((box,)), Page(()))
    assert pages.forms == ()  # the pages place no form: the ground's is not drawn again


def test_a_pack_compresses_again_only_the_bands_its_pages_change(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = registry.build_sheet("map", "world", ["Ann", "Bo", "Cy"], "a4").document
    compressed: list[int] = []
    real = pngbands._band
    monkeypatch.setattr(pngbands, "_band", lambda *a: compressed.append(a[3]) or real(*a))
    pages = list(pack_pngs(doc))
    count = -(-1241 // pngbands.BAND)  # bands of an A4 page lying down at 150 dpi
    assert len(compressed) == count + 3 * len(set(compressed[count:]))  # the ground's, then the same few a page
    assert len(set(compressed[count:])) <= count // 4  # the name, QR code and marks: near the top and bottom
    assert pages == [render_png_page(doc, k) for k in range(3)]
