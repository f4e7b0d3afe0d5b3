"""Every kind of PDF printkit writes, opened by two other readers: poppler and qpdf.

Each sheet is written once per module (``render_sheet``, the call behind
``printkit render``), then:

- poppler (Debian ``poppler-utils``) draws every page (``pdftoppm -r 20``) and
  reads its text (``pdftotext``) without a line on stderr: an undefined
  resource such as a graphics state is ``Syntax Error: ExtGState 'gRLs0' is
  unknown`` there, and the item it sets is painted opaque;
- ``qpdf --check`` (Debian ``qpdf``) finds no error and no warning (exit 0);
- every name a content stream uses (``gs`` graphics states, ``Do`` forms, ``Tf``
  fonts) is defined in that stream's own resources: a form that leaves one to
  the page is what reportlab wrote for transparency set inside a form.

The sheets: the map of every bundled map, its turn tracker and score pad, and
the other games' sheets, on A4 and Letter; a 3-player pack; a fillable pack
printed for a game. poppler and the name check are shown to fail on a PDF
whose form leaves its transparency undefined (qpdf does not look into the
resources), and qpdf on one whose cross-reference offset is wrong.
``.ci/run`` installs the tools; the tests skip, saying so, where one is missing.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple, cast

import pypdf
import pytest
from PIL import Image
from pypdf.generic import DictionaryObject, StreamObject

from printkit.backends.pdf import render_pdf
from printkit.layout.primitives import Document, Form, Icon, Page, Rect, Style, Symbol, UseForm
from printkit.layout.primitives import Path as PathItem
from printkit.render import STREAM, Request, render_sheet

TOOLS = ("pdftoppm", "pdftotext", "qpdf")
MISSING = [tool for tool in TOOLS if shutil.which(tool) is None]
needs_tools = pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (Debian: apt-get "
                                 "install poppler-utils qpdf; .ci/run installs them)")

TITLES = {"world": "Around the World in 15 Minutes", "us": "Around the US in 15 Minutes",
          "europe": "Around Europe in 15 Minutes", "south-america": "Around South America in 15 Minutes"}
HEADINGS = {"map": (), "tracker": ("Turn tracker",), "scorepad": ("Score pad",)}
OTHERS = {("scorepad", "trekking-the-world"): ("Trekking the World", "Score pad"),
          ("passport", "globetrotting"): ("Globetrotting", "Passport"),
          ("tracker", "wereldsteden"): ("Wereldsteden", "Player tracker"),
          ("aid", "wereldsteden"): ("Wereldsteden", "Player aid")}
PARTY = ["Ann", "Bo", "Cy"]
GAME = "5eed0123abcd"
CLEAN = "No syntax or stream encoding errors found"
"""What ``qpdf --check`` says of a file it finds nothing wrong in."""


class Case(NamedTuple):
    """One PDF to write: its name, what to render, and words every page prints (besides its player's name)."""

    name: str
    request: Request
    words: tuple[str, ...]


def _cases() -> Iterator[Case]:
    for paper in ("a4", "letter"):
        for subject, title in TITLES.items():
            for kind, headings in HEADINGS.items():
                yield Case(f"{kind}-{subject}-{paper}", Request(kind, subject, [], paper, "pdf", STREAM),
                           (title, *headings))
        for (kind, subject), words in OTHERS.items():
            yield Case(f"{kind}-{subject}-{paper}", Request(kind, subject, [], paper, "pdf", STREAM), words)
    yield Case("pack-map-world-a4", Request("map", "world", PARTY, "a4", "pdf", STREAM), (TITLES["world"],))
    yield Case("fillable-game-map-us-letter", Request("map", "us", PARTY, "letter", "pdf", STREAM, fillable=True,
                                                      game=GAME), (TITLES["us"],))


CASES = list(_cases())


class Written(NamedTuple):
    """A PDF written for a case, and how many pages it has."""

    path: Path
    pages: int


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Case], Written]:
    """Each case's PDF, written once for the module when a test first asks for it."""
    folder = tmp_path_factory.mktemp("pdfs")
    made: dict[str, Written] = {}

    def write(case: Case) -> Written:
        if case.name not in made:
            out = io.BytesIO()
            rendered = render_sheet(case.request, stream=out)
            path = folder / f"{case.name}.pdf"
            path.write_bytes(out.getvalue())
            made[case.name] = Written(path, rendered.pages)
        return made[case.name]

    return write


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """A tool's run, its output as text."""
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def test_the_cases_are_every_kind_of_pdf() -> None:
    assert len(CASES) == 2 * (4 * 3 + 4) + 2
    assert {c.request.subject for c in CASES} == {*TITLES, "trekking-the-world", "globetrotting", "wereldsteden"}
    assert [c.request.paper for c in CASES if c.request.kind == "map" and not c.request.names] == ["a4"] * 4 + [
        "letter"] * 4


def poppler_problems(path: Path, pages: int, folder: Path) -> list[str]:
    """What poppler says drawing each page (at 20 dpi) and reading its text; an empty list for a clean file."""
    draw = run("pdftoppm", "-r", "20", "-png", str(path), str(folder / "page"))
    text = run("pdftotext", str(path), "-")
    said = [f"pdftoppm: {line}" for line in draw.stderr.splitlines()]
    said += [f"pdftotext: {line}" for line in text.stderr.splitlines()]
    said += [f"{tool} exit {p.returncode}" for tool, p in (("pdftoppm", draw), ("pdftotext", text)) if p.returncode]
    drawn = len(list(folder.glob("page-*.png")))
    return said + ([] if drawn == pages else [f"pdftoppm drew {drawn} of {pages} pages"])


def qpdf_problems(path: Path) -> list[str]:
    """What ``qpdf --check`` finds: its stderr and warnings, a missing all-clear, and its exit code unless 0."""
    check = run("qpdf", "--check", str(path))
    said = check.stderr.splitlines() + [line for line in check.stdout.splitlines() if "warning" in line.lower()]
    if CLEAN not in check.stdout:
        said.append(f"no {CLEAN!r}")
    return said + ([f"exit {check.returncode}"] if check.returncode else [])


_USES = {b"gs": "ExtGState", b"Do": "XObject", b"Tf": "Font"}
_NAMED = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s+(?:[-\d.]+\s+)?(gs|Do|Tf)\b")
"""A name and the operator that uses it (``/Alpha.45 gs``, ``/FormXob.F_map Do``, ``/F1 12 Tf``)."""


def undefined_names(path: Path) -> list[str]:
    """Every name a page or form content stream uses that its own resources leave undefined."""
    reader = pypdf.PdfReader(path)
    found: list[str] = []
    seen: set[int] = set()

    def check(where: str, content: bytes, resources: DictionaryObject) -> None:
        for name, op in _NAMED.findall(content):
            kind = _USES[op]
            defined = cast(DictionaryObject, resources.get(f"/{kind}", DictionaryObject())).get_object()
            if f"/{name.decode()}" not in cast(DictionaryObject, defined):
                found.append(f"{where}: /{name.decode()} {op.decode()} (no /{kind} entry)")
        xobjects = cast(DictionaryObject, resources.get("/XObject", DictionaryObject())).get_object()
        for key, ref in cast(DictionaryObject, xobjects).items():
            form = cast(StreamObject, ref.get_object())
            if id(form) not in seen and form.get("/Subtype") == "/Form":
                seen.add(id(form))
                check(f"form {key}", form.get_data(), cast(DictionaryObject, form.get("/Resources", {})))

    for k, page in enumerate(reader.pages, start=1):
        contents = page.get_contents()
        resources = cast(DictionaryObject, page.get("/Resources", DictionaryObject()))
        check(f"page {k}", contents.get_data() if contents is not None else b"", resources)
    return found


@needs_tools
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_poppler_draws_and_reads_every_page_without_a_word(case: Case, written: Callable[[Case], Written],
                                                           tmp_path: Path) -> None:
    pdf = written(case)
    assert poppler_problems(pdf.path, pdf.pages, tmp_path) == []
    for png in tmp_path.glob("page-*.png"):
        with Image.open(png) as image:
            assert image.convert("L").getextrema()[0] < 100  # something dark was drawn
    pages = run("pdftotext", str(pdf.path), "-").stdout.split("\f")
    assert len(pages) == pdf.pages + 1 and pages[-1] == ""
    names = case.request.names or [""] * pdf.pages
    for text, name in zip(pages, names, strict=False):
        assert all(word in text for word in (*case.words, name)), (case.words, name, text[:200])


@needs_tools
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_qpdf_checks_every_pdf_clean(case: Case, written: Callable[[Case], Written]) -> None:
    assert qpdf_problems(written(case).path) == []


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_name_a_content_stream_uses_is_in_its_own_resources(case: Case,
                                                                  written: Callable[[Case], Written]) -> None:
    assert undefined_names(written(case).path) == []


def undefined_transparency(pdf: bytes) -> bytes:
    """``pdf`` with the graphics states its forms define renamed, the same length (every offset holds): each
    ``/Alpha... gs`` in a form is then undefined, as reportlab leaves a form's transparency."""
    broken, count = re.subn(rb"/Alpha([0-9.]+) <<", rb"/Alphx\1 <<", pdf)
    assert count and len(broken) == len(pdf)
    return broken


def test_a_form_leaving_its_transparency_undefined_fails_poppler_and_the_name_check(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(render_pdf(TRANSLUCENT))
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(undefined_transparency(good.read_bytes()))
    assert undefined_names(good) == []
    assert undefined_names(bad) == ["form /FormXob.F_sheet: /Alpha.5 gs (no /ExtGState entry)",
                                    "form /FormXob.S_tile: /Alpha.25 gs (no /ExtGState entry)"]
    if MISSING:
        pytest.skip(f"{', '.join(MISSING)} not installed (Debian: apt-get install poppler-utils qpdf)")
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    assert poppler_problems(good, 1, tmp_path / "good") == []
    said = poppler_problems(bad, 1, tmp_path / "bad")
    assert "pdftoppm: Syntax Error: ExtGState 'Alpha.5' is unknown" in said
    assert "pdftotext: Syntax Error: ExtGState 'Alpha.25' is unknown" in said


@needs_tools
def test_qpdf_reports_a_file_whose_offsets_are_wrong(tmp_path: Path) -> None:
    pdf = render_pdf(TRANSLUCENT)
    start = int(re.findall(rb"startxref\s+(\d+)", pdf)[-1])
    moved = re.sub(rb"(startxref\s+)\d+", lambda m: m[1] + str(start - 7).encode(), pdf)
    (tmp_path / "good.pdf").write_bytes(pdf)
    (tmp_path / "bad.pdf").write_bytes(moved)
    assert qpdf_problems(tmp_path / "good.pdf") == []
    said = qpdf_problems(tmp_path / "bad.pdf")
    assert f"WARNING: {tmp_path / 'bad.pdf'}: file is damaged" in said
    assert said[-2:] == [f"no {CLEAN!r}", "exit 3"]  # 3: succeeded with warnings


# A page over which translucent black lies: in a form (half), in a symbol placed in that form (a quarter), and
# on the page itself (three quarters), each over white and over red.
TILE = Symbol("tile", (PathItem((("M", 0, 0), ("L", 1, 0), ("L", 1, 1), ("L", 0, 1), ("Z",)),
                                Style(stroke=None, fill="#000000", opacity=0.25)),))
BLACK = "#000000"
RED = "#ff0000"
TRANSLUCENT = Document(200, 100, (Page((
    Rect(0, 50, 200, 50, Style(stroke=None, fill=RED)),
    UseForm("sheet"),
    Rect(140, 0, 40, 100, Style(stroke=None, fill=BLACK, opacity=0.75)),
)),), (Form("sheet", (
    Rect(20, 0, 40, 100, Style(stroke=None, fill=BLACK, opacity=0.5)),
    Icon("tile", 80, 0, 40, BLACK),
    Icon("tile", 80, 60, 40, BLACK),
)),), (TILE,), "Translucent")
"""Black at 0.5 over x 20-60, at 0.25 over x 80-120 (a symbol: top and bottom squares), at 0.75 over x 140-180;
red under the lower half."""


def _expected(alpha: float, under: tuple[int, int, int]) -> tuple[int, int, int]:
    return cast(tuple[int, int, int], tuple(round(c * (1 - alpha)) for c in under))


SPOTS = {(40, 25): _expected(0.5, (255, 255, 255)), (40, 75): _expected(0.5, (255, 0, 0)),
         (100, 20): _expected(0.25, (255, 255, 255)), (100, 80): _expected(0.25, (255, 0, 0)),
         (160, 25): _expected(0.75, (255, 255, 255)), (160, 75): _expected(0.75, (255, 0, 0)),
         (10, 25): (255, 255, 255), (10, 75): (255, 0, 0)}
"""Points (x, y, top-left origin) of TRANSLUCENT and their colour composited over white or red."""


def _colours(image: Image.Image) -> dict[tuple[int, int], tuple[int, int, int]]:
    scale = image.width / TRANSLUCENT.width
    rgb = image.convert("RGB")
    return {spot: cast(tuple[int, int, int], rgb.getpixel((round(spot[0] * scale), round(spot[1] * scale))))
            for spot in SPOTS}


def _near(found: dict[tuple[int, int], tuple[int, int, int]]) -> bool:
    return all(max(abs(a - b) for a, b in zip(found[s], SPOTS[s])) <= 3 for s in SPOTS)


def test_the_form_and_the_symbol_define_the_transparency_they_set() -> None:
    reader = pypdf.PdfReader(io.BytesIO(render_pdf(TRANSLUCENT)))
    xobjects = cast(DictionaryObject, cast(DictionaryObject, reader.pages[0]["/Resources"])["/XObject"])
    form = cast(StreamObject, xobjects["/FormXob.F_sheet"].get_object())
    states = cast(DictionaryObject, cast(DictionaryObject, form["/Resources"])["/ExtGState"])
    assert {k: (float(v["/ca"]), float(v["/CA"])) for k, v in states.items()} == {"/Alpha.5": (0.5, 0.5)}
    inner = cast(DictionaryObject, cast(DictionaryObject, form["/Resources"])["/XObject"])
    assert list(inner) == ["/FormXob.S_tile"]  # the symbol it places, as reportlab names it
    tile = cast(StreamObject, inner["/FormXob.S_tile"].get_object())
    tile_states = cast(DictionaryObject, cast(DictionaryObject, tile["/Resources"])["/ExtGState"])
    assert {k: float(v["/ca"]) for k, v in tile_states.items()} == {"/Alpha.25": 0.25}
    assert b"/Alpha.5 gs" in form.get_data() and b"/Alpha.25 gs" in tile.get_data()
    assert render_pdf(TRANSLUCENT) == render_pdf(TRANSLUCENT)


def test_an_opacity_out_of_range_in_a_form_is_refused() -> None:
    doc = Document(10, 10, (Page((UseForm("f"),)),), (Form("f", (Rect(0, 0, 5, 5, Style(opacity=1.5)),)),))
    with pytest.raises(ValueError, match="opacity 1.5 is not between 0 and 1"):
        render_pdf(doc)


def test_pdfium_composites_the_transparency_of_forms_symbols_and_pages() -> None:
    from printkit.backends.png import render_png_page

    with Image.open(io.BytesIO(render_png_page(TRANSLUCENT, 0))) as image:
        found = _colours(image)
    assert _near(found), found


@needs_tools
def test_poppler_composites_the_transparency_of_forms_symbols_and_pages(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.pdf", tmp_path / "bad.pdf"
    good.write_bytes(render_pdf(TRANSLUCENT))
    bad.write_bytes(undefined_transparency(good.read_bytes()))
    drawn = {}
    for pdf in (good, bad):
        done = run("pdftoppm", "-r", "72", "-png", "-singlefile", str(pdf), str(pdf.with_suffix("")))
        with Image.open(pdf.with_suffix(".png")) as image:
            drawn[pdf.stem] = (_colours(image), done.stderr)
    assert drawn["good"][1] == "" and _near(drawn["good"][0]), drawn["good"]
    colours, said = drawn["bad"]
    assert "ExtGState 'Alpha.5' is unknown" in said
    assert colours[(40, 25)] == colours[(100, 20)] == (0, 0, 0)  # undefined: the form's items painted opaque
    assert _near({**colours, (40, 25): SPOTS[(40, 25)], (40, 75): SPOTS[(40, 75)], (100, 20): SPOTS[(100, 20)],
                  (100, 80): SPOTS[(100, 80)]})  # the page's own state (reportlab's) still holds
