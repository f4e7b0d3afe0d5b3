"""Cells grids (QR codes, markers): one small object per grid, drawn as the same rectangles in every format."""

from __future__ import annotations

import io
import pathlib
import random

import pytest
import segno
import svgwrite

from printkit.backends import svg
from printkit.backends.pdf import render_pdf
from printkit.backends.svg import cells_xml
from printkit.layout import fonts, marks
from printkit.layout.boxes import flatten
from printkit.layout.marks import sheet_payload
from printkit.layout.primitives import Cells, Document, Form, Icon, Page, Path, Rect, Style, Symbol, Text, UseForm

INK = Style(stroke=None, fill="#000000")


def test_each_rows_black_runs_are_one_rectangle_reaching_a_hair_into_the_next_row() -> None:
    grid = Cells(10.0, 20.0, 2.0, 4, bytes([1, 1, 0, 1,
                                            0, 0, 0, 0,
                                            0, 1, 1, 1]), INK)  # fmt: skip
    assert list(grid.rects()) == [
        Rect(10.0, 20.0, 4.0, 2.04, INK), Rect(16.0, 20.0, 2.0, 2.04, INK),
        Rect(12.0, 24.0, 6.0, 2.0, INK),  # the bottom row ends at the grid's edge
    ]  # fmt: skip


def _svgwrite_rects(grid: Cells, **style: str) -> str:
    dwg = svgwrite.Drawing(profile="full", debug=False)
    n = lambda v: f"{v:.2f}".rstrip("0").rstrip(".")  # noqa: E731
    return "".join(dwg.rect((n(r.x), n(r.y)), (n(r.w), n(r.h)), **style).tostring() for r in grid.rects())


def test_svg_writes_a_grid_as_svgwrite_writes_its_rectangles() -> None:
    grid = Cells(508.583, 56.6251, 1.38, 5, bytes([1, 0, 1, 1, 0] * 3), Style(stroke="#112233", fill="#000000", width=0.5))
    expected = _svgwrite_rects(grid, stroke="#112233", stroke_width="0.5", fill="#000000")
    assert cells_xml(grid) == expected
    assert expected.count("<rect ") == 6


def test_svg_writes_any_grid_as_svgwrite_writes_its_rectangles() -> None:
    rng = random.Random(7)
    for _ in range(300):
        columns, rows = rng.randint(1, 30), rng.randint(1, 30)
        black = bytes(rng.choice((0, 1, 1)) for _ in range(columns * rows))
        grid = Cells(rng.uniform(-20, 600), rng.uniform(0, 800), rng.uniform(0.2, 4), columns, black, INK)
        assert cells_xml(grid) == _svgwrite_rects(grid, stroke="none", fill="#000000")
    assert cells_xml(Cells(0, 0, 1, 3, bytes(6), INK)) == ""


def test_pdf_draws_a_grid_byte_for_byte_as_its_rectangles() -> None:
    grids = (Cells(30.0, 40.0, 1.5, 6, bytes([1, 1, 1, 0, 1, 1] * 6), INK),
             Cells(80.0, 40.3, 1.37, 5, bytes([0, 1, 0, 1, 1, 1, 0, 0, 0, 1]), Style(stroke="#123456", fill="#ff0000",
                                                                                    width=0.3, dash=(1, 1), opacity=0.5)),
             Cells(9.0, 9.0, 1.0, 2, bytes(4), INK))  # fmt: skip
    for grid in grids:
        as_grid = Document(200, 200, (Page((Rect(1, 2, 3, 4), grid, Rect(5, 6, 7, 8))),))
        as_rects = Document(200, 200, (Page((Rect(1, 2, 3, 4), *grid.rects(), Rect(5, 6, 7, 8))),))
        assert render_pdf(as_grid) == render_pdf(as_rects)


def _payloads() -> list[str]:
    rng = random.Random(14)
    names = ["".join(rng.choice("abcXYZ é|ß漢 -") for _ in range(rng.randint(0, 90))) for _ in range(40)]
    return [sheet_payload("world", "a4", "1.abc", k + 1, name) for k, name in enumerate(names)]


def test_a_qr_code_has_the_modules_segno_gives_it() -> None:
    rng = random.Random(12)
    others = ["".join(rng.choice(chars) for _ in range(rng.randint(0, length)))
              for chars, length in (("0123456789", 900), ("ABC123 $%*+-./:", 600), ("漢字かな", 300),
                                    ("abcXYZ é|ß漢 -", 700)) for _ in range(12)]  # fmt: skip
    versions = set()
    for payload in _payloads() + others:
        code = segno.make(payload, error="l", micro=False, boost_error=True)
        width = 17 + 4 * code.version
        assert marks.qr_modules(payload) == (b"".join(code.matrix), width)
        assert len(code.matrix) == width and code.designator in (f"{code.version}-{e}" for e in "LMQH")
        versions.add(code.version)
    assert len(versions) >= 12 and max(versions) >= 10  # version information (7+), longer character counts (10+)


def test_a_qr_code_is_the_smallest_that_holds_its_payload_at_level_l_or_better() -> None:
    for payload in _payloads():
        width = marks.qr_modules(payload)[1]
        smallest = segno.make(payload, error="l", micro=False, boost_error=False)
        assert width == 17 + 4 * smallest.version and smallest.error == "L"
        # boosted: the highest level that still fits that version (segno's boost_error)
        boosted = segno.make(payload, error="l", micro=False, boost_error=True)
        for level in "LMQH"["LMQH".index(boosted.error) + 1 :]:  # each level above it needs a bigger code
            try:
                bigger = segno.make(payload, error=level, micro=False, boost_error=False)
            except segno.DataOverflowError:
                break
            assert bigger.version > smallest.version


def test_the_qr_code_of_a_rendered_sheet_reads_back_as_its_payload(tmp_path: pathlib.Path) -> None:
    import zxingcpp
    from click.testing import CliRunner
    from PIL import Image

    from printkit.cli import cli

    names = "Zoë & Bo|x,Ann"
    out = tmp_path / "sheet.png"
    result = CliRunner().invoke(cli, ["render", "map", "world", "--names", names, "-o", str(out)])
    assert result.exit_code == 0, result.output
    read = []
    for k, name in enumerate(names.split(","), start=1):
        with Image.open(tmp_path / f"sheet-{k:02d}.png") as picture:
            codes = [c for c in zxingcpp.read_barcodes(picture.convert("L"))
                     if c.format == zxingcpp.BarcodeFormat.QRCode]  # fmt: skip
        assert len(codes) == 1
        parsed = marks.parse_payload(codes[0].text)
        assert parsed is not None and parsed[:2] == ("world", "a4") and parsed[3:] == (k, name)
        read.append(codes[0].text)
    assert len(set(read)) == 2


def _whole(doc: Document, index: int) -> bytes:
    """Page ``index`` built whole with svgwrite (every element in one drawing), the way SVG pages were first made."""
    page = doc.pages[index]
    w, h = svg._n(doc.width), svg._n(doc.height)
    dwg = svgwrite.Drawing(size=(f"{w}pt", f"{h}pt"), viewBox=f"0 0 {w} {h}", profile="full", debug=False)
    dwg.attribs["font-family"] = fonts.FAMILY
    dwg.attribs["xml:space"] = "preserve"
    dwg.set_desc(title=f"{doc.title} - {page.label}")
    b = svg._Builder(dwg)
    texts = [i for i in flatten(page.items, doc.forms) if isinstance(i, Text)]
    dwg.defs.add(dwg.style(svg.font_css(texts)))
    for sym in doc.symbols:
        dwg.defs.add(b.symbol(sym))
    for form in doc.forms:
        dwg.defs.add(b.form(form))
    dwg.add(dwg.rect((0, 0), ("100%", "100%"), fill="#ffffff"))
    for item in page.items:
        for one in item.rects() if isinstance(item, Cells) else (item,):
            dwg.add(b.element(one))
    out = io.StringIO()
    dwg.write(out, pretty=False)
    return (out.getvalue() + "\n").encode("utf-8")


def test_a_page_of_an_svg_pack_is_the_page_svgwrite_writes_whole() -> None:
    star = Symbol("star", (Path((("M", 0.5, 0.0), ("L", 1.0, 1.0), ("L", 0.0, 1.0), ("Z",)), INK),))
    form = Form("sheet", (Rect(40, 40, 200, 100), Text(60, 80, "Łódź", 12, "bold"), Icon("star", 300, 100, 20)))
    grid = Cells(400.0, 30.0, 1.5, 3, bytes([1, 0, 1, 1, 1, 0]), INK)
    pages = tuple(Page((UseForm("sheet"), Text(60, 700, name, 12), grid), name) for name in ('A & <b>"', "Zoë"))
    doc = Document(595.28, 841.89, pages, (form,), (star,), "Sheet & <co>")
    pack = svg.SvgPack(doc, "font")  # svgwrite writes text as <text>
    assert [pack.page(k) for k in (0, 1, 0)] == [_whole(doc, k) for k in (0, 1, 0)]


def test_pdf_draws_each_run_through_reportlabs_rect(monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab.pdfgen.canvas import Canvas

    drawn: list[tuple[float, float, float, float, int, int]] = []
    plain = Canvas.rect

    def rect(self: Canvas, x: float, y: float, width: float, height: float, stroke: int = 1, fill: int = 0) -> None:
        drawn.append((x, y, width, height, stroke, fill))
        plain(self, x, y, width, height, stroke=stroke, fill=fill)

    monkeypatch.setattr(Canvas, "rect", rect)
    grid = Cells(30.0, 40.0, 1.5, 4, bytes([1, 0, 1, 1] * 3), INK)
    render_pdf(Document(200, 200, (Page((grid,)),)))
    assert drawn == [(r.x, 200 - r.y - r.h, r.w, r.h, 0, 1) for r in grid.rects()] and len(drawn) == 6
