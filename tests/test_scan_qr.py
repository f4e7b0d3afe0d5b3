"""Forged sheet codes: every field of a QR code (or a fillable sheet's hidden field) is checked, never opened
as a path; a bad one makes that sheet one error line, and the other sheets of the call are still scored."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pypdf
import pytest
import scan_simulate as sim
from click.testing import CliRunner
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject
from scan_degrade import Capture, capture

from printkit import registry
from printkit.backends.pdf import render_pdf
from printkit.backends.png import render_png_page
from printkit.cli import cli
from printkit.sheets.fillable import fillable

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def layout() -> str:
    geometry = registry.build_sheet("map", "world", [""], "a4").geometry
    assert geometry is not None
    return geometry.layout


def forged_pack(values: dict[str, str], names: tuple[str, ...] = NAMES) -> bytes:
    """A fillable pack of ``names`` whose fields named in ``values`` hold those values instead."""
    sheet = registry.build_sheet("map", "world", list(names), "a4")
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(render_pdf(fillable(sheet).document))))
    for page in writer.pages:
        for ref in page["/Annots"]:
            widget = ref.get_object()
            if str(widget["/T"]) in values:
                widget[NameObject("/V")] = TextStringObject(values[str(widget["/T"])])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_forged_field_is_that_pages_error_and_the_others_are_scored(tmp_path: Path) -> None:
    evil = tmp_path / "evil.toml"
    evil.write_text("not = [valid toml")
    pack = tmp_path / "pack.pdf"
    pack.write_bytes(forged_pack({
        "p2.sheet": f"pk1|{evil}|a4|{layout()}|2|Bo",  # a path: never opened
        "p3.name": "C" * 41,
        "p4.sheet": f"pk1|world|a0|{layout()}|4|Di",
        "p5.name": "Ed\x1b]0;owned\x07",
    }))
    code, out, err = run(str(pack), "--json")
    assert code == 1
    errors = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert errors[0].startswith(f"Error: {pack}: page 2: the QR code's map '/tmp") and errors[0].endswith(
        " is not a map id")
    assert errors[1:] == [
        f"Error: {pack}: page 3: the QR code's player name '{'C' * 41}' is longer than 40 characters",
        f"Error: {pack}: page 4: the QR code's paper 'a0' is not one printkit prints (a4, letter)",
        f"Error: {pack}: page 5: the QR code's player name 'Ed\\x1b]0;owned\\x07' contains the unprintable "
        "character U+001B; names are plain text",
    ]
    assert "toml" not in err.lower().replace(str(evil).lower(), "")  # the file was not read
    assert [p["name"] for p in json.loads(out)["players"]] == ["Ann"]


def test_an_unknown_map_id_asks_for_its_file(tmp_path: Path) -> None:
    pack = tmp_path / "pack.pdf"
    pack.write_bytes(forged_pack({"p2.sheet": f"pk1|atlantis|a4|{layout()}|2|Bo"}, NAMES[:2]))
    code, _, err = run(str(pack))
    assert code == 1
    assert err.splitlines()[0] == (f"Error: {pack}: page 2: the sheet is for a map printkit does not have here "
                                   "('atlantis'): give its map file with --map FILE")


def test_a_forged_code_on_a_photo_is_that_files_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import printkit.sheets.identity as identity

    monkeypatch.setattr(identity, "sheet_payload", lambda *a: f"pk1|/etc/passwd|a4|{layout()}|1|Ann")
    doc = registry.build_sheet("map", "world", ["Ann"], "a4").document
    forged = tmp_path / "forged.jpg"
    forged.write_bytes(capture(sim.render_page(render_png_page(doc, 0, dpi=150)), 150, Capture(dpi=150, jpeg=85),
                               random.Random(0)))
    monkeypatch.undo()
    good = tmp_path / "good.pdf"
    good.write_bytes(forged_pack({}, ("Bo",)))
    code, out, err = run(str(forged), str(good), "--json")
    assert code == 1
    assert err == f"Error: {forged}: the QR code's map '/etc/passwd' is not a map id\n"
    assert [p["name"] for p in json.loads(out)["players"]] == ["Bo"]


def test_a_custom_map_is_matched_by_its_layout(tmp_path: Path) -> None:
    from printkit.loading.maps import map_path

    custom = tmp_path / "my-world.toml"
    custom.write_text(map_path("world").read_text().replace('id = "world"', 'id = "my-world"', 1))
    sheet = registry.build_sheet("map", str(custom), ["Ann"], "a4")
    pdf = tmp_path / "custom.pdf"
    pdf.write_bytes(render_pdf(fillable(sheet).document))
    code, _, err = run(str(pdf))
    assert (code, err) == (1, f"Error: {pdf}: page 1: the sheet is for a map printkit does not have here "
                              "('my-world'): give its map file with --map FILE\n")
    code, out, err = run(str(pdf), "--map", str(custom), "--json")
    assert code == 3 and [p["name"] for p in json.loads(out)["players"]] == ["Ann"]  # no route drawn: unsure


def _route_stroke(page_height: float, a: tuple[float, float], b: tuple[float, float]) -> DictionaryObject:
    pts = [(a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20) for k in range(21)]
    flat = [v for x, y in pts for v in (x, page_height - y)]
    return DictionaryObject({NameObject("/Subtype"): NameObject("/Ink"),
                             NameObject("/Rect"): ArrayObject(FloatObject(v) for v in (0, 0, 1, 1)),
                             NameObject("/InkList"): ArrayObject([ArrayObject(FloatObject(v) for v in flat)])})


def test_a_trail_without_a_start_star_is_unsure(tmp_path: Path) -> None:
    # the rules: each player stars a starting city before the game; a sheet with none has no start
    sheet = registry.build_sheet("map", "world", ["Ann"], "a4")
    assert sheet.geometry is not None
    route = next(r for r in sheet.geometry.fields.routes if r.id == "london-new-york")
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(render_pdf(fillable(sheet).document))))
    writer.add_annotation(0, _route_stroke(float(writer.pages[0].mediabox[3]), route.points[0], route.points[-1]))
    pdf = tmp_path / "nostar.pdf"
    out = io.BytesIO()
    writer.write(out)
    pdf.write_bytes(out.getvalue())
    code, _, err = run(str(pdf))
    assert code == 3
    assert err == ("Unsure: Ann: route: no start star at either end of the trail (London and New York); each player "
                   "stars their starting city\n")
