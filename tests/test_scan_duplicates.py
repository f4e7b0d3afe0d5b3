"""The same sheet given twice is one player: counted once when every copy reads the same, else refused."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import scan_simulate as sim
from click.testing import CliRunner
from scan_degrade import Capture
from scan_helpers import photo

from printkit import registry
from printkit.backends.pdf import render_pdf
from printkit.cli import cli
from printkit.sheets.fillable import fillable

NAMES = ("Ann", "Bo")
ANN = sim.Filled(("souvenirs.mugs.1", "sights.food.1"), ("london-new-york",), "new-york")
BO = sim.Filled(("sights.nature.1",), ("cape-town-perth",), "cape-town")


def run(*args: str) -> tuple[int, dict[str, object] | None, str]:
    result = CliRunner().invoke(cli, ["scan", *args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout) if result.stdout else None, result.stderr


def names(data: dict[str, object] | None) -> list[str]:
    assert data is not None
    return [p["name"] for p in data["players"]]  # type: ignore[index, attr-defined]


def test_the_same_photo_twice_is_counted_once(tmp_path: Path) -> None:
    ann, bo = tmp_path / "ann.jpg", tmp_path / "bo.jpg"
    ann.write_bytes(photo("world", "a4", NAMES, 0, ANN))
    bo.write_bytes(photo("world", "a4", NAMES, 1, BO, seed=1))
    copy = tmp_path / "ann-copy.jpg"
    copy.write_bytes(ann.read_bytes())
    code, data, err = run(str(ann), str(bo), str(copy))
    assert (code, names(data)) == (0, ["Ann", "Bo"])
    assert err == f"Note: {copy}: the same sheet as {ann} (Ann's sheet, page 1), read the same: counted once\n"


def test_a_photo_and_a_scan_of_one_sheet_that_differ_are_refused(tmp_path: Path) -> None:
    # a second capture of Ann's sheet (another light, another angle) with one more box ticked: which is right?
    ann, bo = tmp_path / "ann.jpg", tmp_path / "bo.jpg"
    ann.write_bytes(photo("world", "a4", NAMES, 0, ANN))
    bo.write_bytes(photo("world", "a4", NAMES, 1, BO, seed=1))
    more = sim.Filled((*ANN.boxes, "souvenirs.mugs.2"), ANN.routes, ANN.start)
    scan = tmp_path / "ann-scan.jpg"
    scan.write_bytes(photo("world", "a4", NAMES, 0, more, seed=5, shot=Capture(dpi=150, rotation=1.0, jpeg=90)))
    code, data, err = run(str(ann), str(scan), str(bo))
    assert (code, names(data)) == (1, ["Bo"])
    assert err.splitlines() == [
        f"Error: {ann}: Ann's sheet (page 1) is also in {scan} and the copies read differently: scan one copy "
        "of each sheet",
        f"Error: {scan}: Ann's sheet (page 1) is also in {ann} and the copies read differently: scan one copy "
        "of each sheet",
    ]


def test_a_pdf_of_copies_is_one_player(tmp_path: Path) -> None:
    sheet = registry.build_sheet("map", "world", ["Ann"], "a4")
    one = pypdf.PdfReader(io.BytesIO(render_pdf(fillable(sheet).document)))
    writer = pypdf.PdfWriter()
    for _ in range(12):
        writer.append(one)
    out = io.BytesIO()
    writer.write(out)
    copies = tmp_path / "copies.pdf"
    copies.write_bytes(out.getvalue())
    code, data, err = run(str(copies))
    assert code == 3 and names(data) == ["Ann"]  # nothing drawn on it: unsure, but one player
    notes = [line for line in err.splitlines() if line.startswith("Note: ")]
    assert notes == [f"Note: {copies}: page {k}: the same sheet as {copies}: page 1 (Ann's sheet, page 1), read the "
                     "same: counted once" for k in range(2, 13)]
