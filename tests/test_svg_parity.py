"""An independent renderer draws the same sheet from the SVG as pdfium from the PDF.

Every sheet of every game on both papers is rendered twice: the PDF rasterised
by pdfium (the PNG backend) and the SVG rasterised by librsvg's
``rsvg-convert`` (Debian's librsvg2-bin; ``.ci/run`` installs it), at the same
size in pixels. Open Sans is not installed on the machine (checked).

By default the SVG's text is glyph outlines (``--svg-text path``): librsvg is
handed no font at all and must still draw every sheet as the PDF (at most 3 %
of the ink differs; measured 0.02-1.7 %, the most on the Europe map, whose
region hatching rasterises differently, not its text).

With ``--svg-text font`` the SVG carries a subset of its font in ``@font-face``
rules, which librsvg does not read, so the renderer is handed, through a
private fontconfig file, exactly the fonts the SVG itself carries (decoded from
its ``data:`` URIs) and nothing else of Open Sans: the test shows that the
embedded subset holds every glyph the sheet prints, at the PDF's metrics (at
most 2 %). Without them librsvg falls back to DejaVu: 22-67 % differ.

Ink is a pixel darker than 160 (of 255: black and the grey text both count).
A pixel differs when one render has ink there and the other has none within
1 px (two rasterisers place glyph edges up to a pixel apart; a fallback font
9 % wider moves whole words). The measure is differing pixels / ink pixels of
the PDF render.

A browser reads ``@font-face`` itself: headless Chromium (on CI for the host
page) screenshots two SVGs with no font handed to it, which proves the CSS
and its data URI work as written (measured 0.003 %; without them 34 %), and
draws the outlines alike.

A third reader draws the PDF: poppler's ``pdftoppm`` (Debian poppler-utils)
at the PNG backend's 150 dpi, with nothing on stderr, must agree with our PNG
(pdfium) and with the SVG (librsvg) in colour, not only in ink: a pixel
differs when one of its red, green or blue levels lies more than 16 (of 255)
outside the range of that level over the other render's 3 x 3 pixels round it
(rasterisers shade edges differently and place them up to a pixel apart);
at most 3 % of the page's pixels may differ. Measured on every sheet: 0.1-1.8 %
(the most on text-heavy sheets: glyph edges); the region tints painted
opaque, as poppler and pdfium did while a form left its transparency
undefined, 4.6-11.3 % (South America to the US); the US map sheet with its
regions' areas tinted at 45 % over its form and that state left undefined
8.9 % against our PNG and 9.6 % against the SVG (the test asks for over 6 %).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import pytest
from PIL import Image, ImageChops, ImageFilter

from printkit import registry
from printkit.backends import Options, SvgText, render_page
from printkit.backends.png import DEFAULT_DPI, render_png_page
from printkit.layout.primitives import Document, Style, Text, UseForm
from printkit.layout.primitives import Path as PathItem

INK_BELOW = 160
MAX_DIFFERENCE = 0.02  # --svg-text font, its own fonts handed to librsvg
MAX_DIFFERENCE_OUTLINES = 0.03  # --svg-text path (the default), no font at all
FONT = Options(svg_text="font")
SVG = "{http://www.w3.org/2000/svg}"
SUBJECTS = ("world", "us", "europe", "south-america", "trekking-the-world", "globetrotting", "wereldsteden")
SHEETS = [(s, k, p) for s in SUBJECTS for k in registry.sheet_kinds(s) for p in ("a4", "letter")]
RSVG = shutil.which("rsvg-convert")
needs_rsvg = pytest.mark.skipif(RSVG is None, reason="rsvg-convert not installed (Debian: apt-get install "
                                "librsvg2-bin; .ci/run installs it)")
PDFTOPPM = shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(PDFTOPPM is None or RSVG is None, reason="pdftoppm or rsvg-convert not installed "
                                   "(Debian: apt-get install poppler-utils librsvg2-bin; .ci/run installs them)")
LEVELS = 16
"""A colour level (of 255) may lie this far outside the other render's levels within 1 px."""
MAX_COLOUR_DIFFERENCE = 0.03
"""The share of a page's pixels whose colour may differ between poppler and pdfium or librsvg."""


def fonts_conf(folder: Path, svg: bytes, embedded: bool = True) -> Path:
    """A fontconfig file: the system's fonts plus (if ``embedded``) the fonts the SVG carries."""
    fonts = folder / "fonts"
    fonts.mkdir()
    if embedded:
        for data in re.findall(rb"data:font/ttf;base64,([A-Za-z0-9+/=]+)", svg):
            font = base64.b64decode(data)
            (fonts / f"{hashlib.sha256(font).hexdigest()[:16]}.ttf").write_bytes(font)
    conf = folder / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf'
                    f"</include><dir>{fonts}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>")
    return conf


def ink(image: Image.Image) -> Image.Image:
    """The ink mask (255 where darker than INK_BELOW)."""
    return image.convert("L").point(lambda v: 255 if v < INK_BELOW else 0)


def test_near_grows_a_mask_by_one_pixel() -> None:
    mask = Image.new("L", (5, 5), 0)
    mask.putpixel((2, 2), 255)
    grown = near(mask)
    assert [(x, y) for y in range(5) for x in range(5) if grown.getpixel((x, y))] == \
        [(x, y) for y in range(1, 4) for x in range(1, 4)]


def near(mask: Image.Image) -> Image.Image:
    """The mask grown by 1 px (255 wherever ink lies within the 3 x 3 block around a pixel)."""
    return mask.filter(ImageFilter.BoxBlur(1)).point(lambda v: 255 if v > 0 else 0)


def difference(pdf_png: Image.Image, svg_png: Image.Image) -> float:
    """Ink pixels of either render with no ink within 1 px in the other, over the PDF render's ink."""
    a, b = ink(pdf_png), ink(svg_png)
    only_a = ImageChops.subtract(a, near(b))
    only_b = ImageChops.subtract(b, near(a))
    return (only_a.histogram()[255] + only_b.histogram()[255]) / a.histogram()[255]


def colour_difference(one: Image.Image, other: Image.Image) -> float:
    """The share of pixels where a red, green or blue level of either render lies more than LEVELS outside
    that level's range over the other render's 3 x 3 pixels round it."""
    import numpy as np

    a, b = (np.asarray(image.convert("RGB")) for image in (one, other))
    assert a.shape == b.shape

    def spread(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # each level's min and max over 3 x 3 pixels
        lo, hi = x.copy(), x.copy()
        for axis in (0, 1):
            src_lo, src_hi = lo.copy(), hi.copy()
            head = (slice(None, -1), slice(None)) if axis == 0 else (slice(None), slice(None, -1))
            tail = (slice(1, None), slice(None)) if axis == 0 else (slice(None), slice(1, None))
            for to, fro in ((head, tail), (tail, head)):
                np.minimum(lo[to], src_lo[fro], out=lo[to])
                np.maximum(hi[to], src_hi[fro], out=hi[to])
        return lo, hi

    def outside(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # uint8 throughout: max(lo, x) - x never wraps
        lo, hi = spread(y)
        return (np.maximum(lo, x) - x > LEVELS) | (x - np.minimum(x, hi) > LEVELS)

    return float((outside(a, b) | outside(b, a)).any(axis=2).mean())


def test_colour_difference_allows_a_pixel_of_shift_and_levels_of_shade() -> None:
    page = Image.new("RGB", (40, 20), "white")
    page.paste((200, 40, 40), (10, 5, 20, 15))  # 100 pixels of red
    moved = Image.new("RGB", (40, 20), "white")
    moved.paste((210, 50, 30), (11, 5, 21, 15))  # a pixel right, 10 levels off
    assert colour_difference(page, moved) == 0
    paler = Image.new("RGB", (40, 20), "white")
    paler.paste((200, 57, 40), (10, 5, 20, 15))  # green 17 levels off
    assert colour_difference(page, paler) == 100 / 800
    further = Image.new("RGB", (40, 20), "white")
    further.paste((200, 40, 40), (12, 5, 22, 15))  # two pixels right
    # a red column of each with only white within 1 px in the other (10 pixels each), and a white column of each
    # with only red within 1 px in the other (8: their end pixels have white above or below)
    assert colour_difference(page, further) == (10 + 10 + 8 + 8) / 800


@dataclass
class Pending:
    """One sheet whose SVG rsvg-convert is rasterising (and its PDF pdftoppm, if asked)."""

    name: str
    pdf_png: Image.Image
    out: Path
    process: subprocess.Popen[bytes]
    poppler: subprocess.Popen[bytes] | None = None


class Measured(NamedTuple):
    """One sheet's differences: SVG to PDF ink, and poppler's render of the PDF to our PNG and to the SVG's."""

    ink: float
    poppler_png: float = 0.0
    poppler_svg: float = 0.0
    poppler_said: str = ""


def start(folder: Path, name: str, svg: bytes, pdf_png: bytes, embedded: bool = True,
          pdf: bytes | None = None) -> Pending:
    """Write the SVG and start rsvg-convert on it at the PDF render's size, with only the given fonts; and
    pdftoppm on ``pdf`` at the PNG backend's resolution, if given."""
    folder.mkdir()
    image = Image.open(io.BytesIO(pdf_png))
    env = {"FONTCONFIG_FILE": str(fonts_conf(folder, svg, embedded)), "PATH": "/usr/bin:/bin"}
    (folder / "sheet.svg").write_bytes(svg)
    out = folder / "sheet.png"
    cmd = [str(RSVG), "-w", str(image.width), "-h", str(image.height), "-b", "white", "-o", str(out),
           str(folder / "sheet.svg")]
    poppler = None
    if pdf is not None:
        (folder / "sheet.pdf").write_bytes(pdf)
        (folder / "ours.png").write_bytes(pdf_png)
        poppler = subprocess.Popen([str(PDFTOPPM), "-r", str(DEFAULT_DPI), "-png", "-singlefile",
                                    str(folder / "sheet.pdf"), str(folder / "poppler")], stderr=subprocess.PIPE)
    return Pending(name, image, out, subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE), poppler)


def finish(p: Pending) -> Measured:
    """Wait for rsvg-convert (and pdftoppm) and measure the differences."""
    _, err = p.process.communicate(timeout=60)
    assert p.process.returncode == 0, f"{p.name}: rsvg-convert failed: {err.decode(errors='replace')}"
    with Image.open(p.out) as svg_png:
        assert svg_png.size == p.pdf_png.size
        measured = Measured(difference(p.pdf_png, svg_png.convert("RGB")))
        if p.poppler is None:
            return measured
        _, said = p.poppler.communicate(timeout=60)
        assert p.poppler.returncode == 0, f"{p.name}: pdftoppm failed: {said.decode(errors='replace')}"
        with Image.open(p.out.with_name("poppler.png")) as drawn:
            assert drawn.size == p.pdf_png.size
            return measured._replace(poppler_png=colour_difference(drawn, p.pdf_png),
                                     poppler_svg=colour_difference(drawn, svg_png),
                                     poppler_said=said.decode(errors="replace"))


def renders(tmp: Path, options: Options, poppler: bool) -> Iterator[Pending]:
    """Every sheet's PDF render, with its SVG's rsvg-convert started (they run while the next is built), and
    pdftoppm on its PDF if ``poppler``.

    With outlines librsvg is handed no font; with ``font`` exactly those the SVG carries.
    """
    for subject, kind, paper in SHEETS:
        doc = registry.build_sheet(kind, subject, ["Ann Lee"], paper).document
        name = f"{kind}-{subject}-{paper}"
        svg = render_page(doc, "svg", 0, options)
        pdf = render_page(doc, "pdf", 0) if poppler else None
        yield start(tmp / name, name, svg, render_png_page(doc, 0), embedded=options.svg_text == "font", pdf=pdf)


def every_sheet(tmp: Path, options: Options, poppler: bool = False) -> dict[str, Measured]:
    """Each sheet's difference between its SVG (drawn by librsvg) and its PDF (drawn by pdfium), and if
    ``poppler`` between the PDF drawn by poppler and each of those."""
    pending: list[Pending] = []
    results: dict[str, Measured] = {}
    for p in renders(tmp, options, poppler):
        pending.append(p)
        if len(pending) > 2:
            done = pending.pop(0)
            results[done.name] = finish(done)
    results.update((p.name, finish(p)) for p in pending)
    assert len(results) == len(SHEETS) == 32
    return results


@pytest.fixture(scope="module")
def outlined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Measured]]:
    """Every sheet measured once for the module: its SVG with outlines (the default) against its PDF, drawn by
    librsvg, pdfium and (where installed) poppler; and the folder holding the renders."""
    if RSVG is None:
        pytest.skip("rsvg-convert not installed (Debian: apt-get install librsvg2-bin; .ci/run installs it)")
    folder = tmp_path_factory.mktemp("outlined")
    return folder, every_sheet(folder, Options(), poppler=PDFTOPPM is not None)


def test_open_sans_is_not_installed() -> None:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        pytest.skip("fc-list not installed")
    listed = subprocess.run([fc_list], capture_output=True, text=True, check=True).stdout
    assert "open sans" not in listed.lower(), "Open Sans is installed: the parity test would not show the SVG's own font"


@needs_rsvg
def test_every_svg_draws_like_its_pdf_with_no_font_at_all(outlined: tuple[Path, dict[str, Measured]]) -> None:
    folder, results = outlined
    worst = {name: round(d.ink * 100, 2) for name, d in results.items() if d.ink > MAX_DIFFERENCE_OUTLINES}
    assert not worst, f"SVG (outlines) and PDF differ by more than 3 % of the ink (%): {worst}"
    aid = folder / "aid-wereldsteden-a4"
    svg = (aid / "sheet.svg").read_bytes()
    assert b"<text" not in svg and b"data:font" not in svg
    assert list((aid / "fonts").iterdir()) == []  # librsvg was handed no font


@needs_poppler
def test_poppler_draws_every_pdf_like_our_png_and_the_svg(outlined: tuple[Path, dict[str, Measured]]) -> None:
    _, results = outlined
    assert {name: d.poppler_said for name, d in results.items() if d.poppler_said} == {}
    worst = {name: (round(d.poppler_png * 100, 2), round(d.poppler_svg * 100, 2)) for name, d in results.items()
             if max(d.poppler_png, d.poppler_svg) > MAX_COLOUR_DIFFERENCE}
    assert not worst, f"poppler's render differs from (our PNG, the SVG's) in more than 3 % of the pixels: {worst}"
    assert all(d.poppler_png > 0 and d.poppler_svg > 0 for d in results.values())  # three rasterisers indeed


def tinted(doc: Document, areas: list[tuple[tuple[float, float], ...]]) -> Document:
    """``doc`` with ``areas`` tinted at 45 % over everything its first form draws, as the map's regions were."""
    tints = tuple(PathItem((("M", *area[0]), *(("L", *p) for p in area[1:]), ("Z",)),
                           Style(stroke=None, fill="#d4e3f5", opacity=0.45)) for area in areas)
    first, *rest = doc.forms
    return replace(doc, forms=(first._replace(items=first.items + tints), *rest))


@needs_poppler
def test_poppler_differs_in_colour_when_a_form_leaves_its_transparency_undefined(tmp_path: Path) -> None:
    sheet = registry.build_sheet("map", "us", ["Ann Lee"], "a4")
    assert sheet.geometry is not None
    doc = tinted(sheet.document, [tuple(r.area) for r in sheet.geometry.fields.regions])
    pdf = render_page(doc, "pdf", 0)
    undefined, count = re.subn(rb"/Alpha([0-9.]+) <<", rb"/Alphx\1 <<", pdf)  # the same length: offsets hold
    assert count >= 1
    svg, png = render_page(doc, "svg", 0), render_png_page(doc, 0)
    good = finish(start(tmp_path / "defined", "defined", svg, png, pdf=pdf))
    bad = finish(start(tmp_path / "undefined", "undefined", svg, png, pdf=undefined))
    assert good.poppler_said == "" and max(good.poppler_png, good.poppler_svg) <= MAX_COLOUR_DIFFERENCE
    assert "ExtGState 'Alpha.45' is unknown" in bad.poppler_said
    assert min(bad.poppler_png, bad.poppler_svg) > 2 * MAX_COLOUR_DIFFERENCE  # the tints painted opaque


@needs_rsvg
def test_every_svg_with_its_font_draws_like_its_pdf_with_only_that_font(tmp_path: Path) -> None:
    results = every_sheet(tmp_path, FONT)
    worst = {name: round(d.ink * 100, 2) for name, d in results.items() if d.ink > MAX_DIFFERENCE}
    assert not worst, f"SVG and PDF differ by more than 2 % of the ink (%): {worst}"


@needs_rsvg
def test_without_the_embedded_font_the_measure_fails(tmp_path: Path) -> None:
    doc = registry.build_sheet("tracker", "world", [], "a4").document
    p = start(tmp_path / "fallback", "tracker", render_page(doc, "svg", 0, FONT), render_png_page(doc, 0),
              embedded=False)
    assert finish(p).ink > 5 * MAX_DIFFERENCE  # the fallback font (DejaVu) is wider: whole words move


def texts(doc: Document, index: int) -> list[str]:
    """The text a page prints: its forms' (each once, in the document's order), then its own items'."""
    forms = {f.name: f for f in doc.forms}
    used: set[str] = set()
    todo = [i.name for i in doc.pages[index].items if isinstance(i, UseForm)]
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo += [i.name for i in forms[name].items if isinstance(i, UseForm)]
    own = [f.items for f in doc.forms if f.name in used] + [doc.pages[index].items]
    return [i.text for items in own for i in items if isinstance(i, Text)]


@pytest.mark.parametrize("kind,subject,paper", [("map", "world", "a4"), ("tracker", "europe", "letter"),
                                                ("scorepad", "us", "a4"), ("aid", "wereldsteden", "letter")])
def test_the_outlined_svg_keeps_every_text_as_its_label(kind: str, subject: str, paper: str) -> None:
    doc = registry.build_sheet(kind, subject, ["Ann Lee", 'Bo <&"> Cy'], paper).document
    for index in range(len(doc.pages)):
        root = ET.fromstring(render_page(doc, "svg", index))
        labels = [g.get("aria-label") for g in root.iter(f"{SVG}g") if "aria-label" in g.attrib]
        assert labels == texts(doc, index) and len(labels) > 20
        assert not list(root.iter(f"{SVG}text"))
        fonted = ET.fromstring(render_page(doc, "svg", index, FONT))
        assert [t.text for t in fonted.iter(f"{SVG}text")] == labels  # the same text as --svg-text font writes


def test_a_name_of_markup_characters_is_well_formed_and_labelled() -> None:
    doc = registry.build_sheet("scorepad", "world", ['<b>&"x"'], "a4").document
    svg = render_page(doc, "svg", 0)
    root = ET.fromstring(svg)  # well-formed
    assert '<b>&"x"' in [g.get("aria-label") for g in root.iter(f"{SVG}g")]
    assert b'aria-label="&lt;b&gt;&amp;&quot;x&quot;"' in svg


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium; .ci/run "
                    "installs it)")
@pytest.mark.parametrize("svg_text", ["font", "path"])
@pytest.mark.parametrize("kind,subject,paper", [("tracker", "world", "a4"), ("aid", "wereldsteden", "letter")])
def test_a_browser_draws_the_svg_in_the_font_it_carries(tmp_path: Path, kind: str, subject: str, paper: str,
                                                        svg_text: SvgText) -> None:
    # a browser reads @font-face itself: no font is handed to it (Open Sans is not installed); outlines need none
    doc = registry.build_sheet(kind, subject, ["Ann Lee"], paper).document
    pdf_png = Image.open(io.BytesIO(render_png_page(doc, 0)))
    (tmp_path / "sheet.svg").write_bytes(render_page(doc, "svg", 0, Options(svg_text)))
    (tmp_path / "sheet.html").write_text(
        f'<html><body style="margin:0"><img src="sheet.svg" style="display:block;width:{pdf_png.width}px;'
        f'height:{pdf_png.height}px"></body></html>')
    shot = tmp_path / "shot.png"
    subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--user-data-dir={tmp_path / 'profile'}", "--force-device-scale-factor=1",
                    f"--window-size={pdf_png.width},{pdf_png.height}", f"--screenshot={shot}",
                    (tmp_path / "sheet.html").as_uri()], capture_output=True, timeout=120, check=True)
    with Image.open(shot) as browser_png:
        assert browser_png.size == pdf_png.size
        assert difference(pdf_png.convert("RGB"), browser_png.convert("RGB")) <= MAX_DIFFERENCE
