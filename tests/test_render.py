"""`printkit render` end to end: real files parsed back (pypdf, xml.etree, Pillow)."""

from __future__ import annotations

import io
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import cast

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf.generic import DictionaryObject

from printkit.cli import cli
from printkit.layout.common import page_size
from printkit.layout.primitives import Document, Page, Text
from printkit.loading.maps import bundled_maps, load_map
from printkit.model.games import Globetrotting
from printkit.sheets.builder import Sheet
from printkit.sheets.citytags import name_lines

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["render", *args])
    return result.exit_code, result.stdout, result.stderr


def test_three_player_world_pack(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "pack.pdf"
    code, stdout, stderr = run(runner, "map", "world", "--names", "Ann,Bo,Cy", "-o", str(out))
    assert code == 0, stderr
    assert stdout == f"Wrote {out} (3 pages, PDF, A4)\n"
    assert stderr == ""  # no progress bar when stderr is not a terminal
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 3
    m = load_map("world")
    for page, name in zip(reader.pages, ("Ann", "Bo", "Cy")):
        assert [round(float(v), 2) for v in page.mediabox[2:]] == [841.89, 595.28]  # A4 landscape
        words = page.extract_text()
        assert name in words
        for city in m.cities:
            assert city.name in words, city.name
    resources = cast(DictionaryObject, reader.pages[0]["/Resources"])
    (form,) = cast(DictionaryObject, resources["/XObject"]).values()  # the shared sheet
    form_fonts = cast(DictionaryObject, cast(DictionaryObject, form.get_object()["/Resources"])["/Font"])
    font_names = {str(f.get_object()["/BaseFont"]) for f in form_fonts.values()}
    assert font_names and all("OpenSans" in n for n in font_names)


def test_same_inputs_give_identical_bytes(runner: CliRunner, tmp_path: Path) -> None:
    for fmt in ("pdf", "svg", "png"):
        a, b = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
        assert run(runner, "map", "europe", "--names", "Ann", "-o", str(a))[0] == 0
        assert run(runner, "map", "europe", "--names", "Ann", "-o", str(b))[0] == 0
        assert a.read_bytes() == b.read_bytes(), fmt


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str, str], Path]:
    """Every sheet of every bundled map, in every format, on both papers."""
    runner = CliRunner()
    out = tmp_path_factory.mktemp("sheets")
    files: dict[tuple[str, str, str, str], Path] = {}
    for map_id in bundled_maps():
        for kind in ("map", "tracker", "scorepad"):
            for paper in ("a4", "letter"):
                for fmt in ("pdf", "svg", "png"):
                    target = out / f"{kind}-{map_id}-{paper}.{fmt}"
                    result = runner.invoke(cli, ["render", kind, map_id, "--paper", paper, "-o", str(target)])
                    assert result.exit_code == 0, result.output
                    files[(kind, map_id, paper, fmt)] = target
    return files


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind", ["map", "tracker", "scorepad"])
@pytest.mark.parametrize("map_id", bundled_maps())
def test_every_sheet_in_every_format(rendered: dict[tuple[str, str, str, str], Path], map_id: str,
                                     kind: str, paper: str) -> None:
    w, h = page_size(paper, landscape=kind == "map")
    pdf = pypdf.PdfReader(rendered[(kind, map_id, paper, "pdf")])
    assert len(pdf.pages) == 1
    assert [round(float(v), 2) for v in pdf.pages[0].mediabox[2:]] == [round(w, 2), round(h, 2)]
    svg = ET.parse(rendered[(kind, map_id, paper, "svg")]).getroot()
    assert svg.get("viewBox") == f"0 0 {w:g} {h:g}"
    img = Image.open(rendered[(kind, map_id, paper, "png")])
    assert abs(img.size[0] - w * 150 / 72) <= 1 and abs(img.size[1] - h * 150 / 72) <= 1
    grey = img.convert("L")
    lo, hi = cast(tuple[int, int], grey.getextrema())
    assert lo < 40 and hi == 255  # black ink on white paper
    dark = sum(grey.histogram()[:128])
    assert dark > img.size[0] * img.size[1] * 0.005  # not blank


@pytest.mark.parametrize("map_id", bundled_maps())
def test_svg_has_a_circle_per_city_and_a_line_per_route(rendered: dict[tuple[str, str, str, str], Path],
                                                        map_id: str) -> None:
    m = load_map(map_id)
    root = ET.parse(rendered[("map", map_id, "a4", "svg")]).getroot()
    form = root.find(f"{SVG}defs/{SVG}g[@id='form-map']")
    assert form is not None
    circles = [c for c in form.iter(f"{SVG}circle") if c.get("r") == "4.6"]
    assert len(circles) == len(m.cities) - len(m.iconic_cities)  # an iconic city is a shield (below)
    shields = [p for p in form.iter(f"{SVG}path") if p.get("fill") == "#ffffff" and p.get("stroke-width") == "1.2"]
    assert len(shields) == len(m.iconic_cities) + (2 if m.iconic_cities else 0)  # on the map, in the key, section
    routes = [ln for tag in ("line", "path") for ln in form.iter(f"{SVG}{tag}") if ln.get("stroke-dasharray") == "3 2"]
    assert len(routes) == len(m.routes) + 1  # straight or curved, and one in the key
    curves = [p for p in routes if p.tag == f"{SVG}path"]
    assert all((p.get("d") or "").count("C") == 1 for p in curves)  # a gentle curve: one cubic each
    names = [g.get("aria-label") for g in form.iter(f"{SVG}g")]  # text drawn as outlines, labelled
    for c in m.cities:  # on one line, or a long name on two
        assert any(all(part in names for part in way) for way in name_lines(c.name, "bold" if c.iconic else "regular"))


def test_city_names_are_escaped_in_svg(runner: CliRunner, tmp_path: Path) -> None:
    source = (ROOT / "maps" / "world.toml").read_text(encoding="utf-8")
    custom = tmp_path / "custom.toml"
    custom.write_text(source.replace('name = "Vancouver"', 'name = "<b>&\\"x\\""'), encoding="utf-8")
    out = tmp_path / "custom.svg"
    code, _, stderr = run(runner, "map", str(custom), "-o", str(out))
    assert code == 0, stderr
    root = ET.parse(out).getroot()  # well-formed
    assert '<b>&"x"' in [g.get("aria-label") for g in root.iter(f"{SVG}g")]
    assert b"&lt;b&gt;&amp;" in out.read_bytes()


def test_svg_text_is_outlines_by_default_and_editable_text_with_its_font_on_request(runner: CliRunner,
                                                                                   tmp_path: Path) -> None:
    outlined, fonted = tmp_path / "paths.svg", tmp_path / "font.svg"
    sheet = ("scorepad", "world", "--names", "Ann,Bo")
    assert run(runner, *sheet, "-o", str(outlined))[0] == 0
    code, stdout, stderr = run(runner, *sheet, "--svg-text", "font", "-o", str(fonted))
    assert (code, stdout) == (0, f"Wrote {fonted} (1 page, SVG, A4)\n"), stderr
    paths, font = ET.parse(outlined).getroot(), ET.parse(fonted).getroot()
    labels = [g.get("aria-label") for g in paths.iter(f"{SVG}g") if "aria-label" in g.attrib]
    assert not list(paths.iter(f"{SVG}text")) and b"@font-face" not in outlined.read_bytes()
    assert [t.text for t in font.iter(f"{SVG}text")] == labels and {"Ann", "Bo"} <= set(labels)
    css = "".join(font.find(f"{SVG}defs/{SVG}style").itertext())  # type: ignore[union-attr]
    assert css.count("@font-face{font-family:'Open Sans'") == 2 and "data:font/ttf;base64," in css
    again = tmp_path / "again.svg"
    assert run(runner, *sheet, "--svg-text", "path", "-o", str(again))[0] == 0
    assert again.read_bytes() == outlined.read_bytes()  # reproducible, and path is the default
    code, _, stderr = run(runner, "tracker", "world", "--svg-text", "font", "-o", str(tmp_path / "t.pdf"))
    assert code == 2 and "--svg-text" in stderr and "only SVG" in stderr


def test_svg_and_png_packs_are_one_file_per_page(runner: CliRunner, tmp_path: Path) -> None:
    code, stdout, _ = run(runner, "map", "us", "--players", "3", "--format", "png", "-o", str(tmp_path / "us.png"))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["us-01.png", "us-02.png", "us-03.png"]
    assert stdout == f"Wrote {tmp_path / 'us-01.png'} ... us-03.png (3 pages, PNG, A4)\n"


def test_default_output_and_stdout(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, stdout, _ = run(runner, "scorepad", "south-america", "--names", "Ann,Bo", "--paper", "letter")
    assert code == 0
    assert stdout == "Wrote output/scorepad-south-america-letter-2players.pdf (1 page, PDF, Letter)\n"
    reader = pypdf.PdfReader("output/scorepad-south-america-letter-2players.pdf")
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [612, 792]
    text = reader.pages[0].extract_text()
    assert "Ann" in text and "Bo" in text and "Common animals" in text
    result = runner.invoke(cli, ["render", "tracker", "world", "-o", "-"])
    assert result.exit_code == 0
    reader = pypdf.PdfReader(io.BytesIO(result.stdout_bytes))
    assert "Turn tracker" in reader.pages[0].extract_text()


@pytest.mark.parametrize("args,code,message", [
    (["poster", "world"], 2,
     "Error: no sheet 'poster' for an Around the World map; choose one of: map, tracker, scorepad"),
    (["map", "atlantis"], 2, "Error: Invalid value for 'MAP': unknown map 'atlantis'; choose one of world, us, "
                             "europe, south-america, or give the path of a .toml map file"),
    (["map", "world", "-o", "sheet.docx"], 2,
     "sheet.docx: cannot tell the format from the extension .docx; use .pdf, .svg or .png, or give --format"),
    (["map", "world", "--players", "2", "--names", "Ann,Bo,Cy"], 2,
     "Error: --players 2 does not match the 3 names given; give one of them"),
    (["map", "world", "--players", "2", "--format", "svg", "-o", "-"], 2,
     "Error: SVG gives one file per page and this sheet has 2 pages; use -o PATH (or --format pdf) instead of -o -"),
    (["map", "world", "--names", " , "], 2, "give at least one name"),
    (["map", "world", "--paper", "a3"], 2, "Invalid value for '--paper'"),
    (["map", "world", "-o", "no/such/folder/x.pdf"], 2, "folder 'no/such/folder' does not exist"),
])
def test_bad_input_is_one_clear_line(runner: CliRunner, args: list[str], code: int, message: str,
                                     tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["render", *args])
    assert result.exit_code == code
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_other_games_sheets_are_dispatched(runner: CliRunner, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, list[str], str]] = []

    def card(game: Globetrotting, names: list[str], paper: str) -> Sheet:
        calls.append((game.id, names, paper))  # handed the game's model, not loading it
        return Sheet(Document(200, 100, tuple(Page((Text(10, 50, n or "blank", 12),)) for n in names)))

    fake = types.ModuleType("printkit.sheets.globetrotting")
    fake.SHEETS = {"card": card}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "printkit.sheets.globetrotting", fake)
    out = tmp_path / "card.pdf"
    code, _, stderr = run(runner, "card", "globetrotting", "--names", "Ann,Bo", "--paper", "letter", "-o", str(out))
    assert code == 0, stderr
    assert calls == [("globetrotting", ["Ann", "Bo"], "letter")]
    assert len(pypdf.PdfReader(out).pages) == 2
    code, _, stderr = run(runner, "map", "globetrotting")
    assert code == 2
    assert "Error: no sheet 'map' for globetrotting; choose one of: card" in stderr
