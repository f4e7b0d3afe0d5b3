"""Fillable map sheets (render --fillable), filled as a tablet app would and read back by printkit scan."""

from __future__ import annotations

import io
import json
import math
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import pypdf
import pytest
import scan_simulate as sim
from click.testing import CliRunner
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject
from scan_helpers import game, truth_doc

from printkit import registry
from printkit.backends.pdf import render_pdf
from printkit.cli import cli
from printkit.loading.maps import load_map
from printkit.scan.form import read_form
from printkit.scan.game import scan_game
from printkit.sheets.fields import Fields
from printkit.sheets.fillable import fillable, tick_boxes

MAPS = ["world", "us", "europe", "south-america"]
KINDS = ("/Ink", "/PolyLine", "/Line", "/Highlight")


@lru_cache(maxsize=None)
def blank(map_id: str, paper: str, names: tuple[str, ...]) -> tuple[bytes, Fields]:
    """The fillable PDF of a pack and its geometry."""
    sheet = registry.build_sheet("map", map_id, list(names), paper)
    assert sheet.geometry is not None
    return render_pdf(fillable(sheet).document), sheet.geometry.fields


def _stroke(kind: str, pts: list[tuple[float, float]], height: float) -> DictionaryObject:
    """A pen annotation of ``kind`` through ``pts`` (top-left points), in PDF user space."""
    flat = [v for x, y in pts for v in (x, height - y)]
    xs, ys = flat[0::2], flat[1::2]
    annot = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject(kind),
        NameObject("/Rect"): ArrayObject(FloatObject(v) for v in (min(xs) - 2, min(ys) - 2, max(xs) + 2, max(ys) + 2)),
        NameObject("/BS"): DictionaryObject({NameObject("/W"): FloatObject(1.5)}),
    })
    nums = ArrayObject(FloatObject(round(v, 2)) for v in flat)
    if kind == "/Ink":
        annot[NameObject("/InkList")] = ArrayObject([nums])
    elif kind == "/PolyLine":
        annot[NameObject("/Vertices")] = nums
    elif kind == "/Line":
        annot[NameObject("/L")] = ArrayObject(nums[:2] + nums[-2:])
    else:  # a freehand highlight: one quad per stretch, 3 pt tall
        quads: list[float] = []
        for (ax, ay), (bx, by) in zip(zip(xs, ys), list(zip(xs, ys))[1:]):
            quads += [ax, ay + 1.5, bx, by + 1.5, ax, ay - 1.5, bx, by - 1.5]
        annot[NameObject("/QuadPoints")] = ArrayObject(FloatObject(v) for v in quads)
    return annot


def _route_line(a: tuple[float, float], b: tuple[float, float], rng: random.Random) -> list[tuple[float, float]]:
    """A finger's line from city a to city b: points every 5 pt, wobbling up to 1 pt."""
    n = max(2, int(math.dist(a, b) / 5))
    return [(a[0] + (b[0] - a[0]) * k / n + rng.uniform(-1, 1) * (0 < k < n),
             a[1] + (b[1] - a[1]) * k / n + rng.uniform(-1, 1) * (0 < k < n)) for k in range(n + 1)]


def tablet(pdf: bytes, fills: list[sim.Filled], seed: int = 0, kinds: tuple[str, ...] = ("/Ink",),
           values: dict[str, str] | None = None) -> bytes:
    """The PDF filled as a tablet app does: ticked boxes get /V and /AS set to their on-state, routes and the
    start star become pen annotations; ``values`` sets other fields' /V (a typed name, a broken value)."""
    rng = random.Random(seed)
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(pdf)))
    fields = blank_fields(writer)
    height = float(writer.pages[0].mediabox[3])
    for k, (page, filled) in enumerate(zip(writer.pages, fills), start=1):
        prefix = f"p{k}." if len(writer.pages) > 1 else ""
        for ref in page["/Annots"]:
            widget = ref.get_object()
            name = str(widget["/T"])
            if name.removeprefix(prefix) in filled.boxes:
                on = next(s for s in widget["/AP"]["/N"] if s != "/Off")
                widget[NameObject("/V")] = widget[NameObject("/AS")] = NameObject(on)
            if values and name in values:
                widget[NameObject("/V")] = (NameObject(values[name]) if values[name].startswith("/")
                                            else TextStringObject(values[name]))
        for route in fields.routes:
            if route.id in filled.routes:
                pts = [q for a, b in zip(route.points, route.points[1:]) for q in _route_line(a, b, rng)]
                kind = rng.choice(kinds)
                if len(route.points) > 2 and kind == "/Line":  # a curved route: a straight /Line cannot follow it
                    kind = "/PolyLine"
                page.annotations.append(writer._add_object(_stroke(kind, pts, height)))
        if filled.start is not None:
            c = fields.city(filled.start)
            r = c.radius + 4.5
            star = [(c.center[0] + r * math.sin(j * 4 * math.pi / 5), c.center[1] - r * math.cos(j * 4 * math.pi / 5))
                    for j in range(6)]
            page.annotations.append(writer._add_object(_stroke("/Ink", star, height)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def blank_fields(writer: pypdf.PdfWriter) -> Fields:
    """The geometry of the sheet the writer holds (from its hidden sheet field)."""
    from printkit.scan.form import sheet_geometry

    for ref in writer.pages[0]["/Annots"]:
        w = ref.get_object()
        if str(w["/T"]).endswith("sheet"):
            _, map_id, paper, *_ = str(w["/V"]).split("|")
            return sheet_geometry(map_id, paper)
    raise AssertionError("no sheet field")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def scores(score: Any) -> list[tuple[str, int, list[tuple[str, int]]]]:
    return [(p.name, p.total, [(s.key, s.points) for s in p.sections]) for p in score.players]


def edges(route: list[str]) -> set[frozenset[str]]:
    return {frozenset(p) for p in zip(route, route[1:])}


def read_pdf(data: bytes, tmp: Path, name: str = "filled.pdf") -> list[Any]:
    path = tmp / name
    path.write_bytes(data)
    form = read_form(path, data)
    assert not form.fallback and form.errors == ()
    return list(form.sheets)


@pytest.mark.parametrize("map_id", MAPS)
def test_a_filled_pack_reads_as_the_exact_game_on_every_map(map_id: str, tmp_path: Path) -> None:
    names = ("Ann", "Bo")
    plays = game(map_id, "a4", names, seed=10 + MAPS.index(map_id))
    pdf = tablet(blank(map_id, "a4", names)[0], [f for f, _ in plays], seed=1, kinds=KINDS)
    scanned = scan_game(read_pdf(pdf, tmp_path))
    assert scanned.uncertain == ()
    expected = truth_doc(map_id, names, [t for _, t in plays])
    m = load_map(map_id)
    for got, want in zip(scanned.doc["players"], expected["players"]):
        assert (got["name"], got["souvenirs"], got[m.explore_key]) == (want["name"], want["souvenirs"], want[m.explore_key])
        assert edges(got["route"]) == edges(want["route"])
        assert got["route"][0] == want["route"][0] and got["route"][-1] == want["route"][-1]
    want_score, _ = registry.score_document(expected, "truth", Path("."))
    assert scores(scanned.score) == scores(want_score)
    assert scanned.score.winners == want_score.winners


def test_ticked_boxes_show_ticked_in_a_pdf_app() -> None:
    import pypdfium2 as pdfium

    pdf, fields = blank("world", "a4", ())
    ticked = {"souvenirs.mugs.1", "souvenirs.mugs.2", "sights.food.1", "regions.asia", "speed"}
    doc = pdfium.PdfDocument(tablet(pdf, [sim.Filled(boxes=tuple(sorted(ticked)))]))
    doc.init_forms()
    scale = 2.0
    image = doc[0].render(scale=scale, may_draw_forms=True).to_pil().convert("L")

    def dark(rect: tuple[float, float, float, float]) -> float:
        inner = image.crop(tuple(round((v + d) * scale) for v, d in zip(rect, (3, 3, -3, -3))))
        return sum(1 for v in inner.get_flattened_data() if v < 128) / (inner.width * inner.height)

    for box_id, rect in tick_boxes(fields):
        assert (dark(rect) > 0.05) == (box_id in ticked), box_id


def test_a_12_page_party_file_is_one_game(tmp_path: Path) -> None:
    names = tuple(f"P{k}" for k in range(1, 13))
    plays = game("world", "a4", names, seed=7)
    pdf = tablet(blank("world", "a4", names)[0], [f for f, _ in plays], seed=2)
    sheets = read_pdf(pdf, tmp_path)
    scanned = scan_game(sheets)
    assert [s.source.page for s in sheets] == list(range(1, 13))
    assert scanned.uncertain == () and scanned.doc["players"][11]["name"] == "P12"
    want, _ = registry.score_document(truth_doc("world", names, [t for _, t in plays]), "truth", Path("."))
    assert scanned.score.mode == "party" and scores(scanned.score) == scores(want)


def test_the_field_names_are_the_box_ids_and_a_pack_prefixes_the_page() -> None:
    pdf, fields = blank("us", "a4", ())
    found = pypdf.PdfReader(io.BytesIO(pdf)).get_fields() or {}
    single = set(found)
    written = {b.id for b in fields.boxes if b.id.startswith(("score.", "total"))}
    assert written == {"score.collect", "score.sights", "score.regions", "score.iconic", "score.speed", "total"}
    assert single == {b for b, _ in tick_boxes(fields)} | written | {"name", "start", "sheet"}
    assert "iconic.4" in single and "regions.west" in single and "speed" in single
    assert {n for n in single if found[n]["/FT"] == "/Tx"} == written | {"name", "start", "sheet"}
    pack = set(pypdf.PdfReader(io.BytesIO(blank("us", "a4", ("Ann", "Bo", "Cy"))[0])).get_fields() or {})
    assert pack == {f"p{k}.{n}" for k in (1, 2, 3) for n in single}


def test_render_fillable_is_byte_identical_and_pdf_only(tmp_path: Path) -> None:
    out = [tmp_path / "a.pdf", tmp_path / "b.pdf"]
    for path in out:
        assert run("render", "map", "europe", "--names", "Ann,Bo", "--fillable", "-o", str(path))[0] == 0
    assert out[0].read_bytes() == out[1].read_bytes()
    fields = pypdf.PdfReader(str(out[0])).get_fields() or {}
    assert fields["p2.name"]["/V"] == "Bo" and str(fields["p1.sheet"]["/V"]).startswith("pk1|europe|a4|")
    code, _, err = run("render", "map", "world", "--fillable", "--format", "svg", "-o", str(tmp_path / "x.svg"))
    assert code == 2 and err.endswith("Error: Invalid value for '--fillable': form fields need a PDF, not SVG; "
                                      "use --format pdf or a .pdf file\n")
    code, _, err = run("render", "tracker", "world", "--fillable", "-o", str(tmp_path / "t.pdf"))
    assert code == 2 and err.endswith("Error: Invalid value for '--fillable': the tracker sheet has nothing to "
                                      "fill in on a tablet; map sheets do\n")
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "t.pdf").exists()


PARTY = ("Ann", "Bo", "Cy")


@lru_cache(maxsize=None)
def party() -> tuple[bytes, list[bytes], dict[str, Any]]:
    """Three World players on tablets: one pack file, three single-sheet files, and the game they played."""
    plays = game("world", "a4", PARTY, seed=3)
    pack = tablet(blank("world", "a4", PARTY)[0], [f for f, _ in plays], seed=4)
    files = [tablet(blank("world", "a4", (n,))[0], [f], seed=5 + k) for k, (n, (f, _)) in enumerate(zip(PARTY, plays))]
    return pack, files, truth_doc("world", PARTY, [t for _, t in plays])


def test_scan_scores_a_pack_file_and_three_files_alike_with_no_typing(tmp_path: Path) -> None:
    pack, files, truth = party()
    (tmp_path / "party.pdf").write_bytes(pack)
    paths = []
    for name, data in zip(PARTY, files):
        paths.append(str(tmp_path / f"{name}.pdf"))
        Path(paths[-1]).write_bytes(data)
    code, out, err = run("scan", str(tmp_path / "party.pdf"), "--save", str(tmp_path / "game.toml"))
    assert (code, err) == (0, f"Saved the game to {tmp_path / 'game.toml'}\n")
    assert run("scan", *paths)[:2] == (0, out)
    assert run("score", str(tmp_path / "game.toml"))[:2] == (0, out)
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    assert run("score", str(tmp_path / "truth.json"))[:2] == (0, out)
    code, text, _ = run("scan", str(tmp_path / "party.pdf"), "--json")
    assert code == 0 and json.loads(text)["reads"] == []
    assert run("score", str(tmp_path / "truth.json"), "--json")[1].strip() == \
        json.dumps({k: v for k, v in json.loads(text).items() if k != "reads"}, indent=2, ensure_ascii=False)


def test_review_draws_the_reads_over_the_page(tmp_path: Path) -> None:
    from PIL import Image

    from printkit.scan.locate import SCALE
    from printkit.scan.review import EMPTY, MARKED

    pdf, fields = blank("world", "a4", ("Ann",))
    (tmp_path / "f.pdf").write_bytes(tablet(pdf, [sim.Filled(("souvenirs.mugs.1",), start="rome")]))
    code, _, err = run("scan", str(tmp_path / "f.pdf"), "--review", str(tmp_path / "review"))
    assert code == 0 and f"Wrote {tmp_path / 'review' / '01-ann.png'}\n" in err
    image = Image.open(tmp_path / "review" / "01-ann.png").convert("RGB")
    rects = dict(tick_boxes(fields))

    def edge(box_id: str) -> tuple[int, int, int]:
        x0, y0, _, y1 = rects[box_id]
        px = image.getpixel((round((x0 - 1.5) * SCALE), round((y0 + y1) / 2 * SCALE)))
        assert isinstance(px, tuple)
        return px[0], px[1], px[2]

    assert edge("souvenirs.mugs.1") == MARKED[::-1] and edge("souvenirs.mugs.2") == EMPTY[::-1]


def test_a_name_typed_on_a_blank_sheet_names_the_player(tmp_path: Path) -> None:
    pdf = tablet(blank("world", "a4", ())[0], [sim.Filled(start="rome")], values={"name": "Zoë"})
    assert scan_game(read_pdf(pdf, tmp_path)).doc["players"][0]["name"] == "Zoë"


def _edited(pdf: bytes, widget: Any = None, flatten: bool = False, stroke: list[tuple[float, float]] | None = None
            ) -> bytes:
    """The PDF with ``widget(w)`` applied to each widget (return False to remove it), or its fields flattened."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(pdf)))
    page = writer.pages[0]
    if flatten:
        del page[NameObject("/Annots")]
        del writer._root_object[NameObject("/AcroForm")]
    elif widget is not None:
        page[NameObject("/Annots")] = ArrayObject(a for a in page["/Annots"] if widget(a.get_object()) is not False)
    if stroke is not None:
        page.annotations.append(writer._add_object(_stroke("/Ink", stroke, float(page.mediabox[3]))))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _scan_one(tmp_path: Path, data: bytes) -> tuple[int, str, str]:
    (tmp_path / "f.pdf").write_bytes(data)
    return run("scan", str(tmp_path / "f.pdf"))


def _started() -> bytes:
    return tablet(blank("world", "a4", ())[0], [sim.Filled(("souvenirs.mugs.1",), start="rome")])


def test_renamed_or_removed_fields_are_one_line_errors(tmp_path: Path) -> None:
    def rename(w: Any) -> None:
        if str(w.get("/T")).startswith("souvenirs."):
            w[NameObject("/T")] = TextStringObject("x" + str(w["/T"]))

    code, out, err = _scan_one(tmp_path, _edited(_started(), rename))
    where = tmp_path / "f.pdf"
    assert (code, out) == (1, "") and err == (
        f"Error: {where}: page 1: 12 of the sheet's {len(tick_boxes(blank('world', 'a4', ())[1]))} check boxes are "
        "missing (souvenirs.mugs.1, souvenirs.mugs.2, souvenirs.mugs.3, ...): renamed or removed? Render the sheet "
        "again with --fillable\n")
    code, _, err = _scan_one(tmp_path, _edited(_started(), lambda w: str(w.get("/T")) != "sheet"))
    assert code == 1 and err == (f"Error: {where}: page 1: the form has no 'sheet' field naming the sheet (renamed or "
                                 "removed?): render it again with --fillable\n")


def test_a_check_box_neither_on_nor_off_is_an_error(tmp_path: Path) -> None:
    data = tablet(blank("world", "a4", ())[0], [sim.Filled(start="rome")], values={"speed": "/Maybe"})
    code, _, err = _scan_one(tmp_path, data)
    assert code == 1 and err == f"Error: {tmp_path / 'f.pdf'}: page 1: check box speed: value /Maybe is neither on " \
        "(/Yes) nor off (/Off)\n"


def test_a_form_of_another_layout_version_is_refused(tmp_path: Path) -> None:
    pdf, fields = blank("world", "a4", ())
    payload = "pk1|world|a4|1.0123456789abcdef|1|"
    code, _, err = _scan_one(tmp_path, tablet(pdf, [sim.Filled(start="rome")], values={"sheet": payload}))
    assert code == 1 and err == (f"Error: {tmp_path / 'f.pdf'}: page 1: the sheet was printed by another printkit "
                                 f"version (layout 1.0123456789abcdef, this one draws {fields.layout}): print it "
                                 "again, or scan with that version\n")


def test_a_flattened_form_is_scanned_as_pages_and_says_so(tmp_path: Path) -> None:
    code, out, err = _scan_one(tmp_path, _edited(_started(), flatten=True))
    assert err.startswith(f"Note: {tmp_path / 'f.pdf'}: a fillable sheet without its form fields (flattened?): "
                          "reading its pages as scans\n")
    assert "Unsure: Sheet 1: route: no route is drawn and no single city is starred as the start" in err
    assert code == 3 and out.startswith("Around the World in 15 Minutes: solo")


def test_a_stroke_along_no_route_is_reported_not_guessed(tmp_path: Path) -> None:
    code, _, err = _scan_one(tmp_path, _edited(_started(), stroke=[(300.0, 560.0), (330.0, 566.0)]))
    assert code == 3 and err == "Unsure: Sheet 1: pen stroke 2 (300,560 to 330,566 pt from the top left) runs " \
        "along no route: check what it means\n"


def _widget_dicts(pdf: bytes, page: int = 0) -> dict[str, Any]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return {str(a.get_object()["/T"]): a.get_object() for a in reader.pages[page]["/Annots"]}


@pytest.mark.parametrize("map_id", ["world", "south-america"])
def test_every_field_has_a_tooltip_naming_it(map_id: str) -> None:
    pdf, fields = blank(map_id, "a4", ())
    widgets = _widget_dicts(pdf)
    assert all(str(w.get("/TU", "")).strip() for w in widgets.values())
    tips = {name: str(w["/TU"]) for name, w in widgets.items()}
    assert tips["name"] == "Player name" and tips["start"] == "Starting city (its name as on the map)"
    assert tips["total"] == "Total points" and tips["score.collect"] == "Points: collect"
    assert tips["score.speed"] == "Points: speed bonus"
    if map_id == "world":
        assert tips["souvenirs.mugs.1"] == "Collect: mugs, box 1" and tips["sights.food.3"] == "Sights: food, box 3"
        assert tips["regions.north-america"] == "Region: North America"
    else:
        assert tips["animals.pink-dolphin.1"] == "Animals: pink dolphin, box 1"
        assert tips["first_rare.pink-dolphin"] == "Marked first: pink dolphin"
        assert tips["score.rare"] == "Points: rare" and tips["regions.southern-cone"] == "Region: Southern Cone"
    assert len(set(tips.values())) == len(tips)  # no two fields read alike


def test_the_start_line_and_the_write_in_boxes_are_fields_over_their_boxes() -> None:
    from printkit.sheets.fields import dumps, loads

    sheet = registry.build_sheet("map", "world", ["Ann"], "a4")
    assert sheet.geometry is not None and sheet.geometry.start is not None
    x0, y0, x1, y1 = sheet.geometry.start
    assert loads(dumps(sheet.geometry)).start == sheet.geometry.start
    assert '"start": {\n  "rect": [' in dumps(sheet.geometry)
    height = sheet.document.height
    widgets = _widget_dicts(render_pdf(fillable(sheet).document))
    rect = [float(v) for v in widgets["start"]["/Rect"]]
    assert [round(v, 2) for v in rect] == [x0, round(height - y1, 2), x1, round(height - y0, 2)]
    assert 150 < x1 - x0 < 250 and 10 < y1 - y0 < 16  # the line beside "Start:", a line of type tall
    for box in (b for b in sheet.geometry.fields.boxes if b.id.startswith(("score.", "total"))):
        rect = [round(float(v), 2) for v in widgets[box.id]["/Rect"]]
        assert rect == [box.rect[0], round(height - box.rect[3], 2), box.rect[2], round(height - box.rect[1], 2)]


LONG = "Wolfeschlegelsteinhausenberg Maximiliana"  # 40 characters, wide ones


def _name_ink(pdf: bytes) -> tuple[Any, tuple[float, float, float, float]]:
    """The page as a PDF app draws it (fields too) at 4 px/pt, and the name field's rect (top-left points)."""
    import pypdfium2 as pdfium

    widget = _widget_dicts(pdf)["name"]
    x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
    doc = pdfium.PdfDocument(pdf)
    doc.init_forms()
    page = doc[0]
    height = page.get_height()
    image = page.render(scale=4, may_draw_forms=True).to_pil().convert("L")
    return image, (x0, height - y1, x1, height - y0)


def _dark_columns(image: Any, rect: tuple[float, float, float, float]) -> list[int]:
    x0, y0, x1, y1 = (round(v * 4) for v in rect)
    crop = image.crop((x0, y0 + 2, x1, y1 - 2))
    data = crop.load()
    return [x for x in range(crop.width) if any(data[x, y] < 128 for y in range(crop.height))]


def test_the_name_field_is_auto_sized_so_a_40_character_name_is_not_clipped() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert len(LONG) == 40
    pdf, _ = blank("world", "a4", (LONG,))
    widget = _widget_dicts(pdf)["name"]
    assert " 0 Tf" in str(widget["/DA"]) and str(widget["/V"]) == LONG
    form = pypdf.PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/AcroForm"]
    assert form["/NeedAppearances"].value is True and "/Helv" in form["/DR"]["/Font"]
    image, rect = _name_ink(pdf)
    width = rect[2] - rect[0]
    assert stringWidth(LONG, "Helvetica", 11) > width  # at the old fixed 11 pt it was cut
    ink = _dark_columns(image, rect)
    assert ink and ink[-1] < (width - 1) * 4  # the last letter is drawn before the field's edge, not cut by it
    assert ink[-1] - ink[0] > 0.8 * width * 4  # and the name is set large enough to fill most of the field
    # typed on a tablet into a blank sheet's field: the app sizes it the same way
    typed = tablet(blank("world", "a4", ())[0], [sim.Filled()], values={"name": LONG})
    ink = _dark_columns(*_name_ink(typed))
    assert ink and ink[-1] < (width - 1) * 4 and ink[-1] - ink[0] > 0.8 * width * 4


def _font_names(pdf: bytes) -> set[str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    names: set[str] = set()
    for page in reader.pages:
        resources = page["/Resources"]
        for form in (resources.get("/XObject") or {}).values():
            for font in (form.get_object()["/Resources"].get("/Font") or {}).values():
                names.add(str(font.get_object()["/BaseFont"]))
        for font in (resources.get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return {n.lstrip("/") for n in names if "+" in n}


def _tags(names: list[str]) -> dict[str, str]:
    """Font name -> its subset tag, in the map sheet of these players."""
    found = _font_names(render_pdf(registry.build_sheet("map", "europe", names, "a4").document))
    return {n.split("+")[1]: n.split("+")[0] for n in found}


def test_each_embedded_font_subset_has_its_own_stable_tag() -> None:
    import re

    tags = _tags(["Zoë"])
    assert tags == _tags(["Zoë"])  # the same inputs, the same tags
    assert sorted(tags) == ["OpenSans", "OpenSans-Bold"] and tags["OpenSans"] != tags["OpenSans-Bold"]
    assert all(re.fullmatch("[A-Z]{6}", t) for t in tags.values()) and "AAAAAA" not in tags.values()
    other = _tags(["Łukasz"])  # the name is bold: another bold subset, the same regular one
    assert other["OpenSans-Bold"] != tags["OpenSans-Bold"] and other["OpenSans"] == tags["OpenSans"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scan_marks_sit_at_least_6_5_mm_from_every_edge(paper: str, tmp_path: Path) -> None:
    from printkit.sheets.identity import EDGE_CLEAR

    assert round(EDGE_CLEAR, 2) == 18.43
    for map_id in MAPS:
        out = tmp_path / f"{map_id}.json"
        assert run("render", "map", map_id, "--paper", paper, "--fields", str(out), "-o",
                   str(tmp_path / f"{map_id}.pdf"))[0] == 0
        doc = json.loads(out.read_text())
        width, height = doc["sheet"]["width"], doc["sheet"]["height"]
        rects = [k["rect"] for k in doc["markers"]] + [doc["qr"]["rect"]]
        assert len(rects) == 5
        for x0, y0, x1, y1 in rects:
            assert min(x0, y0, width - x1, height - y1) >= 18.43, (map_id, x0, y0, x1, y1)


def _plain_upper(name: str) -> str:
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).upper()


@lru_cache(maxsize=None)
def _solo(map_id: str, seed: int) -> tuple[sim.Filled, dict[str, Any]]:
    """A legal solo sheet whose trip starts at the end that, unstarred, would not be read as its start
    (the scan takes the end with the first id when no star tells)."""
    for k in range(seed, seed + 40):
        filled, truth = game(map_id, "a4", ("Ann",), seed=k)[0]
        route = truth["route"]
        if len(route) > 3 and route[0] > route[-1]:
            return filled, truth
    raise AssertionError("no such trip among 40 seeds")


def _scan_typed(tmp_path: Path, filled: sim.Filled, values: dict[str, str], map_id: str = "world") -> Any:
    pdf = tablet(blank(map_id, "a4", ())[0], [filled], seed=3, values=values)
    return scan_game(read_pdf(pdf, tmp_path))


@pytest.mark.parametrize("map_id", ["world", "south-america"])
def test_a_typed_start_city_is_the_start_ignoring_case_and_accents(map_id: str, tmp_path: Path) -> None:
    from dataclasses import replace

    filled, truth = _solo(map_id, 30)
    m = load_map(map_id)
    start = m.city(truth["route"][0])
    unstarred = replace(filled, start=None)
    lost = _scan_typed(tmp_path, unstarred, {}, map_id)
    assert lost.doc["players"][0].get("route", [None])[0] != start.id  # no star, no typed start: not known
    typed = f"  {_plain_upper(start.name)} "
    scanned = _scan_typed(tmp_path, unstarred, {"start": typed}, map_id)
    assert scanned.uncertain == ()
    route = scanned.doc["players"][0]["route"]
    assert route[0] == start.id and edges(route) == edges(truth["route"])


def test_a_typed_start_that_disagrees_or_is_no_city_is_unsure(tmp_path: Path) -> None:
    filled, truth = _solo("world", 30)
    m = load_map("world")
    start = m.city(truth["route"][0])
    other = next(c for c in m.cities if c.id not in truth["route"])
    scanned = _scan_typed(tmp_path, filled, {"start": other.name.lower()})
    assert f"start: {other.name} typed, but the star is drawn at {start.name}" in \
        [u.message for _, u in scanned.uncertain]
    assert scanned.doc["players"][0]["route"][0] == start.id  # the drawn star still reads as drawn
    scanned = _scan_typed(tmp_path, filled, {"start": "Atlantis"})
    assert [u.message for _, u in scanned.uncertain] == [
        f"start: the typed city 'Atlantis' is no city of {m.name}; check it"]


def test_typed_points_are_checked_against_the_scans_own_score(tmp_path: Path) -> None:
    filled, truth = _solo("world", 30)
    want, _ = registry.score_document(truth_doc("world", ("Ann",), [truth]), "truth", Path("."))
    player = want.players[0]
    points = {s.key: s.points for s in player.sections}
    right = {"score.collect": str(points["collect"]), "score.sights": str(points["explore"]),
             "score.regions": str(points["regions"]), "score.speed": str(points["speed"]), "total": str(player.total)}
    scanned = _scan_typed(tmp_path, filled, right)
    assert scanned.uncertain == () and scanned.score.players[0].total == player.total
    wrong = {**right, "score.collect": str(points["collect"] + 2), "total": str(player.total + 7),
             "score.regions": "lots"}
    scanned = _scan_typed(tmp_path, filled, wrong)
    assert [u.message for _, u in scanned.uncertain] == [
        "score.regions: the typed 'lots' is not a number of points",
        f"score.collect: {points['collect'] + 2} typed, but the sheet's marks score {points['collect']}",
        f"total: {player.total + 7} typed, but the sheet's marks score {player.total}"]
    assert scanned.score.players[0].total == player.total  # the scan's own score stands


def test_a_typed_city_name_matches_ignoring_case_accents_and_spacing() -> None:
    from printkit.scan.typed import typed_start

    m = load_map("south-america")
    assert [typed_start(m, t) for t in ("  SAO   paulo ", "São Paulo", "sao-paulo", "Bogotá", "bogota", "", "Sao")] \
        == ["sao-paulo", "sao-paulo", "sao-paulo", "bogota", "bogota", None, None]
