"""The PDF, SVG and PNG backends, on small hand-made documents; outputs parsed."""

from __future__ import annotations

import base64
import io
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pypdf
import pytest
from fontTools.pens.boundsPen import ControlBoundsPen  # type: ignore[import-untyped]
from fontTools.svgLib.path import parse_path  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image
from pypdf.generic import DictionaryObject

from printkit import backends
from printkit.backends.png import pixels
from printkit.backends.pngbands import encode_png
from printkit.layout.primitives import (
    Circle,
    Document,
    Form,
    Icon,
    Line,
    Page,
    Rect,
    Style,
    Symbol,
    Text,
    UseForm,
)
from printkit.layout.primitives import (
    Path as PathItem,
)

SVG = "{http://www.w3.org/2000/svg}"
TRIANGLE = Symbol("star", (PathItem((("M", 0.5, 0.0), ("L", 1.0, 1.0), ("L", 0.0, 1.0), ("Z",)),
                                    Style(stroke=None, fill="#000000")),))


def _doc(pages: int = 2, title: str = "Test sheet") -> Document:
    shared = Form("sheet", (
        Rect(40, 40, 200, 100, Style(stroke="#000000", fill="#dddddd")),
        Circle(100, 200, 10),
        Line(40, 300, 300, 300, Style(dash=(3, 2))),
        PathItem((("M", 50, 400), ("L", 150, 400), ("L", 100, 480), ("Z",)), Style(fill="#cccccc"), even_odd=True),
        Text(60, 80, "Łódź İstanbul Brașov", 12, "bold"),
        Icon("star", 300, 100, 20),
    ))
    return Document(
        595.28, 841.89,
        tuple(Page((UseForm("sheet"), Text(60, 700, f'Player <b>&"{i}"', 12)), f"p{i}") for i in range(pages)),
        (shared,), (TRIANGLE,), title,
    )


def test_pdf_has_every_page_text_and_embedded_font() -> None:
    data = backends.render(_doc(3), "pdf")[0]
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 3
    assert [round(float(v), 2) for v in reader.pages[0].mediabox] == [0, 0, 595.28, 841.89]
    texts = [p.extract_text() for p in reader.pages]
    assert all("Łódź İstanbul Brașov" in t for t in texts)
    assert 'Player <b>&"2"' in texts[2]
    fonts = {}
    for page in reader.pages:
        resources = cast(DictionaryObject, page["/Resources"])
        for _, ref in cast(DictionaryObject, resources["/Font"]).items():
            font = ref.get_object()
            fonts[str(font["/BaseFont"])] = font
    assert fonts, "no fonts"
    for name, font in fonts.items():
        descriptor = font["/FontDescriptor"] if "/FontDescriptor" in font else None
        assert descriptor is not None and "/FontFile2" in descriptor, f"{name} is not embedded"
        assert "OpenSans" in name


def test_pdf_is_byte_identical_and_draws_the_form_once() -> None:
    one = backends.render(_doc(1), "pdf")[0]
    assert one == backends.render(_doc(1), "pdf")[0]
    many = backends.render(_doc(60), "pdf")[0]
    reader = pypdf.PdfReader(io.BytesIO(many))
    forms = {ref.idnum for page in reader.pages
             for ref in cast(DictionaryObject, cast(DictionaryObject, page["/Resources"])["/XObject"]).values()}
    assert len(forms) == 1  # one sheet form object, placed by all 60 pages
    assert len(many) < 5 * len(one)


def test_pdf_flips_y_to_the_top_left_origin() -> None:
    doc = Document(200, 100, (Page((Text(10, 20, "top", 10),)),))
    page = pypdf.PdfReader(io.BytesIO(backends.render(doc, "pdf")[0])).pages[0]
    seen: list[float] = []
    page.extract_text(visitor_text=lambda t, cm, tm, fd, fs: seen.append(tm[5]) if t.strip() else None)
    assert seen == [80.0]  # baseline 20 pt below the top of a 100 pt page


def labels(root: ET.Element) -> list[str]:
    """The text of an SVG drawn as outlines: each run's ``aria-label``, in document order."""
    return [g.get("aria-label", "") for g in root.iter(f"{SVG}g") if "aria-label" in g.attrib]


@pytest.mark.parametrize("svg_text", backends.SVG_TEXTS)
def test_svg_is_well_formed_escapes_text_and_reuses_defs(svg_text: backends.SvgText) -> None:
    doc, options = _doc(2), backends.Options(svg_text)
    files = backends.render(doc, "svg", options=options)
    assert len(files) == 2
    root = ET.fromstring(files[1])
    assert root.get("viewBox") == "0 0 595.28 841.89"
    assert root.get("width") == "595.28pt"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    if svg_text == "path":
        assert texts == [] and root.find(f"{SVG}defs/{SVG}style") is None
        assert labels(root) == ["Łódź İstanbul Brașov", 'Player <b>&"1"']  # the form's, then the page's own
        assert root.get("font-family") is None
    else:
        assert 'Player <b>&"1"' in texts
        assert "Łódź İstanbul Brașov" in texts
        assert "Open Sans" in (root.get("font-family") or "")
    assert b"&lt;b&gt;&amp;" in files[1]
    defs = root.find(f"{SVG}defs")
    assert defs is not None
    assert [s.get("id") for s in defs.iter(f"{SVG}symbol")] == ["icon-star"]
    assert [g.get("id") for g in defs.findall(f"{SVG}g")] == ["form-sheet"]
    uses = [u.get("{http://www.w3.org/1999/xlink}href") for u in root.iter(f"{SVG}use")]
    assert uses.count("#form-sheet") == 1 and uses.count("#icon-star") == 1
    path = next(p for p in root.iter(f"{SVG}path") if p.get("fill-rule"))
    assert path.get("fill-rule") == "evenodd" and path.get("d") == "M50 400L150 400L100 480Z"
    assert files == backends.render(doc, "svg", options=options)


def test_png_size_not_blank_and_deterministic() -> None:
    files = backends.render(_doc(2), "png")
    assert len(files) == 2
    img = Image.open(io.BytesIO(files[0]))
    assert img.size == (1241, 1754)  # A4 (595.28 x 841.89 pt) at 150 dpi, rounded up by the rasteriser
    assert img.mode == "RGB"
    grey = img.convert("L")
    assert grey.getpixel((5, 5)) == 255  # white paper
    # the shared rectangle (40..240 x 40..140 pt) is grey: sample its middle at 150/72 px per pt
    inside = grey.getpixel((int(200 * 150 / 72), int(120 * 150 / 72)))
    assert isinstance(inside, int) and 200 < inside < 240
    darkest = grey.getextrema()[0]
    assert isinstance(darkest, int) and darkest < 60  # black text and lines are there
    assert files == backends.render(_doc(2), "png")


def test_letter_png_is_11_inches_at_150_dpi() -> None:
    doc = Document(612.0, 792.0, (Page((Text(60, 700, "Letter", 12),)),))
    portrait = Image.open(io.BytesIO(backends.render(doc, "png")[0]))
    assert portrait.size == (1275, 1650)  # 8.5 x 11 in x 150, no extra row from 792 x 150 / 72 = 1650.0000000000002
    landscape = Document(792.0, 612.0, (Page((Text(60, 500, "Letter", 12),)),))
    assert Image.open(io.BytesIO(backends.render(landscape, "png")[0])).size == (1650, 1275)
    assert pixels(595.28, 150) == 1241 and pixels(841.89, 150) == 1754


def _embedded_fonts(svg: bytes) -> dict[str, TTFont]:
    """weight (400/700) -> the TrueType font each @font-face of the SVG carries."""
    css = "".join(ET.fromstring(svg).find(f"{SVG}defs").find(f"{SVG}style").itertext())  # type: ignore[union-attr]
    found = re.findall(r"font-family:'Open Sans';font-weight:(\d+);.*?base64,([A-Za-z0-9+/=]+)", css)
    return {weight: TTFont(io.BytesIO(base64.b64decode(data))) for weight, data in found}


def test_svg_carries_a_subset_of_its_font_with_exactly_the_glyphs_it_prints() -> None:
    doc = _doc(2)
    svg = backends.render(doc, "svg", options=backends.Options("font"))[1]
    fonts = _embedded_fonts(svg)
    assert sorted(fonts) == ["400", "700"]
    regular = {chr(c) for c in fonts["400"].getBestCmap()}
    bold = {chr(c) for c in fonts["700"].getBestCmap()}
    assert regular == set('Player <b>&"1"')  # page 2's own name text (regular)
    assert bold == set("Łódź İstanbul Brașov")  # the form's bold text
    assert "GPOS" not in fonts["400"] and "kern" not in fonts["400"]  # no kerning: the PDF applies none
    assert fonts["700"]["name"].getDebugName(1) == "Open Sans"
    assert backends.render(doc, "svg", options=backends.Options("font"))[1] == svg  # the same bytes every time


def test_svg_keeps_double_spaces() -> None:
    doc = Document(595.28, 841.89, (Page((Text(60, 700, "Ann  Lee", 12),)),))
    svg = backends.render(doc, "svg", options=backends.Options("font"))[0]
    root = ET.fromstring(svg)
    assert root.get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
    assert [t.text for t in root.iter(f"{SVG}text")] == ["Ann  Lee"]
    assert "white-space:pre" in "".join(root.find(f"{SVG}defs").find(f"{SVG}style").itertext())  # type: ignore[union-attr]


def _font(weight: str) -> TTFont:
    return TTFont(str(Path(backends.__file__).parent.parent / "assets" / "fonts" / f"OpenSans-{weight}.ttf"))


def _runs(svg: bytes) -> list[tuple[str, list[float], list[tuple[str, int]]]]:
    """Each run of outlined text: its label, its transform's six numbers, and its glyphs (id, x in font units)."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if "aria-label" in g.attrib:
            matrix = re.fullmatch(r"matrix\(([^)]*)\)", g.get("transform", ""))
            assert matrix is not None
            uses = [(str(u.get("{http://www.w3.org/1999/xlink}href")), int(u.get("x", "0"))) for u in g]
            out.append((g.get("aria-label", ""), [float(v) for v in matrix[1].split()], uses))
    return out


def test_svg_outlines_are_the_fonts_glyphs_at_the_pdfs_advances_without_kerning() -> None:
    bold, regular = _font("Bold"), _font("Regular")
    svg = backends.render(_doc(2), "svg")[1]
    defs = ET.fromstring(svg).find(f"{SVG}defs")
    assert defs is not None
    ids = [p.get("id") for p in defs.findall(f"{SVG}path")]
    drawn = {("gr", regular.getGlyphID(regular.getBestCmap()[ord(c)])) for c in 'Player<b>&"1'}
    drawn |= {("gb", bold.getGlyphID(bold.getBestCmap()[ord(c)])) for c in "ŁódźİstanbulBrașov"}
    assert ids == [f"{w}{g}" for w, g in sorted(drawn, key=lambda k: (k[0] == "gb", k[1]))]  # no space: it is blank
    (label, matrix, uses), _ = _runs(svg)  # the form's run (bold, in <defs>), then the page's
    assert label == "Łódź İstanbul Brașov"
    assert [round(v, 9) for v in matrix] == [0.005859375, 0, 0, 0.005859375, 60, 80]  # 12 pt over 2048 units/em
    widths, cmap = bold["hmtx"].metrics, bold.getBestCmap()
    pens = [sum(widths[cmap[ord(c)]][0] for c in label[:i]) for i, c in enumerate(label) if c != " "]
    assert [x for _, x in uses] == pens  # advance widths only: "Wo"/"Ty" pairs are not kerned either
    assert uses[0][0] == f"#gb{bold.getGlyphID(cmap[ord('Ł')])}"
    path = defs.find(f"{SVG}path[@id='gr{regular.getGlyphID('P')}']")
    assert path is not None
    box = ControlBoundsPen(None)
    parse_path(path.get("d", ""), box)
    glyph = regular["glyf"]["P"]
    assert box.bounds == (glyph.xMin, -glyph.yMax, glyph.xMax, -glyph.yMin)  # the glyph's own box, y flipped


@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
def test_svg_outlines_start_where_the_pdf_starts_its_text(anchor: str) -> None:
    doc = Document(200, 100, (Page((Text(100, 20, "AVATAR Wo", 10, anchor=anchor),)),))  # type: ignore[arg-type]
    page = pypdf.PdfReader(io.BytesIO(backends.render(doc, "pdf")[0])).pages[0]
    starts: list[float] = []
    page.extract_text(visitor_text=lambda t, cm, tm, fd, fs: starts.append(tm[4]) if t.strip() else None)
    [(label, matrix, uses)] = _runs(backends.render(doc, "svg")[0])
    assert label == "AVATAR Wo" and len(uses) == 8
    assert abs(matrix[4] - starts[0]) <= 0.005 and matrix[5] == 20  # the PDF's start, to the SVG's 0.01 pt
    regular = _font("Regular")
    width = sum(regular["hmtx"].metrics[regular.getBestCmap()[ord(c)]][0] for c in label) * 10 / 2048
    assert width == 54.5458984375  # no kerning: "AV", "VA", "TA", "Wo" are set at their advances
    assert matrix[4] == round(100 - {"start": 0, "middle": width / 2, "end": width}[anchor], 2)


def test_svg_outlines_keep_double_spaces_and_escape_the_label() -> None:
    doc = Document(595.28, 841.89, (Page((Text(60, 700, 'Ann  <&"> Lee', 12, fill="#4d4d4d"),)),))
    svg = backends.render(doc, "svg")[0]
    assert b'aria-label="Ann  &lt;&amp;&quot;&gt; Lee"' in svg
    [(label, _, uses)] = _runs(svg)
    assert label == 'Ann  <&"> Lee'
    regular = _font("Regular")
    widths, cmap = regular["hmtx"].metrics, regular.getBestCmap()
    assert uses[3][1] == sum(widths[cmap[ord(c)]][0] for c in "Ann  ")  # two spaces' advance before "<"
    g = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if "aria-label" in g.attrib)
    assert g.get("fill") == "#4d4d4d"


def test_encode_png_round_trips() -> None:
    # 2 x 2 pixels, rows padded to a stride of 9 bytes (the padding must be dropped)
    rgb = bytes([255, 0, 0, 0, 255, 0]) + b"..." + bytes([0, 0, 255, 9, 9, 9]) + b"..."
    data = encode_png(rgb, 2, 2, 9, 72)
    img = Image.open(io.BytesIO(data))
    pixels = [img.getpixel((x, y)) for y in range(2) for x in range(2)]
    assert pixels == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (9, 9, 9)]
    ihdr = data[8:33]
    assert struct.unpack(">I", ihdr[-4:])[0] == zlib.crc32(ihdr[4:-4])


@pytest.mark.parametrize("name,fmt,expected", [
    ("sheet.pdf", None, "pdf"), ("sheet.SVG", None, "svg"), ("a/b.png", None, "png"),
    ("sheet.txt", "png", "png"), ("sheet.PNG", "png", "png"), ("-", "svg", "svg"), ("-", None, "pdf"),
    (None, "SVG", "svg"),
])
def test_format_from_option_or_extension(name: str | None, fmt: str | None, expected: str) -> None:
    assert backends.format_for(name, fmt) == expected


def test_format_and_extension_that_disagree_are_refused() -> None:
    with pytest.raises(backends.OutputError) as err:
        backends.format_for("sheet.pdf", "png")
    assert str(err.value) == "sheet.pdf: the extension .pdf does not match the format png; " \
        "name the file .png or leave out --format"


def test_unknown_extension_is_reported() -> None:
    with pytest.raises(backends.OutputError) as err:
        backends.format_for("sheet.docx", None)
    assert str(err.value) == (
        "sheet.docx: cannot tell the format from the extension .docx; use .pdf, .svg or .png, or give --format"
    )


def test_many_pages_to_one_stream_is_refused() -> None:
    with pytest.raises(backends.OutputError) as err:
        backends.write(_doc(2), "svg", io.BytesIO())
    assert "SVG gives one file per page and this document has 2 pages" in str(err.value)


def test_numbered_files_and_atomic_replace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sheet.svg"
    paths = backends.write(_doc(3), "svg", target).paths
    assert [p.name for p in paths] == ["sheet-01.svg", "sheet-02.svg", "sheet-03.svg"]
    single = tmp_path / "one.pdf"
    single.write_bytes(b"old contents")
    backends.write(_doc(1), "pdf", single)
    assert single.read_bytes().startswith(b"%PDF-")

    def broken(*args: object, **kwargs: object) -> Iterator[bytes]:
        raise RuntimeError("interrupted")
        yield b""  # a generator, as render_each is

    before = single.read_bytes()
    monkeypatch.setattr(backends, "render_each", broken)
    with pytest.raises(RuntimeError):
        backends.write(_doc(1), "pdf", single)
    assert single.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.pdf", "sheet-01.svg", "sheet-02.svg", "sheet-03.svg"]


def test_a_pack_interrupted_after_its_first_page_leaves_the_earlier_pack(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sheet.svg"
    backends.write(_doc(3), "svg", target)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = backends.render_each

    def interrupted(*args: object, **kwargs: object) -> Iterator[bytes]:
        pages = real(_doc(3), "svg")
        yield next(pages)  # the first page is written to its temp file, then rendering fails
        raise RuntimeError("interrupted")

    monkeypatch.setattr(backends, "render_each", interrupted)
    with pytest.raises(RuntimeError):
        backends.write(_doc(3), "svg", target)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
