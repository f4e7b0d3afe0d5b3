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
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from printkit import registry
from printkit.backends import Options, SvgText, render_page
from printkit.backends.png import render_png_page
from printkit.layout.primitives import Document, Text, UseForm

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


@dataclass
class Pending:
    """One sheet whose SVG rsvg-convert is rasterising."""

    name: str
    pdf_png: Image.Image
    out: Path
    process: subprocess.Popen[bytes]


def start(folder: Path, name: str, svg: bytes, pdf_png: bytes, embedded: bool = True) -> Pending:
    """Write the SVG and start rsvg-convert on it at the PDF render's size, with only the given fonts."""
    folder.mkdir()
    image = Image.open(io.BytesIO(pdf_png))
    env = {"FONTCONFIG_FILE": str(fonts_conf(folder, svg, embedded)), "PATH": "/usr/bin:/bin"}
    (folder / "sheet.svg").write_bytes(svg)
    out = folder / "sheet.png"
    cmd = [str(RSVG), "-w", str(image.width), "-h", str(image.height), "-b", "white", "-o", str(out),
           str(folder / "sheet.svg")]
    return Pending(name, image, out, subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE))


def finish(p: Pending) -> float:
    """Wait for rsvg-convert and measure the difference."""
    _, err = p.process.communicate(timeout=60)
    assert p.process.returncode == 0, f"{p.name}: rsvg-convert failed: {err.decode(errors='replace')}"
    with Image.open(p.out) as svg_png:
        assert svg_png.size == p.pdf_png.size
        return difference(p.pdf_png, svg_png.convert("RGB"))


def renders(tmp: Path, options: Options) -> Iterator[Pending]:
    """Every sheet's PDF render, with its SVG's rsvg-convert started (they run while the next is built).

    With outlines librsvg is handed no font; with ``font`` exactly those the SVG carries.
    """
    for subject, kind, paper in SHEETS:
        doc = registry.build_sheet(kind, subject, ["Ann Lee"], paper).document
        name = f"{kind}-{subject}-{paper}"
        svg = render_page(doc, "svg", 0, options)
        yield start(tmp / name, name, svg, render_png_page(doc, 0), embedded=options.svg_text == "font")


def every_sheet(tmp: Path, options: Options) -> dict[str, float]:
    """Each sheet's difference between its SVG (drawn by librsvg) and its PDF (drawn by pdfium)."""
    pending: list[Pending] = []
    results: dict[str, float] = {}
    for p in renders(tmp, options):
        pending.append(p)
        if len(pending) > 2:
            done = pending.pop(0)
            results[done.name] = finish(done)
    results.update((p.name, finish(p)) for p in pending)
    assert len(results) == len(SHEETS) == 32
    return results


def test_open_sans_is_not_installed() -> None:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        pytest.skip("fc-list not installed")
    listed = subprocess.run([fc_list], capture_output=True, text=True, check=True).stdout
    assert "open sans" not in listed.lower(), "Open Sans is installed: the parity test would not show the SVG's own font"


@needs_rsvg
def test_every_svg_draws_like_its_pdf_with_no_font_at_all(tmp_path: Path) -> None:
    results = every_sheet(tmp_path, Options())
    worst = {name: round(d * 100, 2) for name, d in results.items() if d > MAX_DIFFERENCE_OUTLINES}
    assert not worst, f"SVG (outlines) and PDF differ by more than 3 % of the ink (%): {worst}"
    folder = tmp_path / "aid-wereldsteden-a4"
    svg = (folder / "sheet.svg").read_bytes()
    assert b"<text" not in svg and b"data:font" not in svg
    assert list((folder / "fonts").iterdir()) == []  # librsvg was handed no font


@needs_rsvg
def test_every_svg_with_its_font_draws_like_its_pdf_with_only_that_font(tmp_path: Path) -> None:
    results = every_sheet(tmp_path, FONT)
    worst = {name: round(d * 100, 2) for name, d in results.items() if d > MAX_DIFFERENCE}
    assert not worst, f"SVG and PDF differ by more than 2 % of the ink (%): {worst}"


@needs_rsvg
def test_without_the_embedded_font_the_measure_fails(tmp_path: Path) -> None:
    doc = registry.build_sheet("tracker", "world", [], "a4").document
    p = start(tmp_path / "fallback", "tracker", render_page(doc, "svg", 0, FONT), render_png_page(doc, 0),
              embedded=False)
    assert finish(p) > 5 * MAX_DIFFERENCE  # the fallback font (DejaVu) is wider: whole words move


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
