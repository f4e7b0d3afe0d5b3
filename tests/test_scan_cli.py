"""`printkit scan` on the command line: one game from many sheets, outputs, exit codes, every bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
import scan_simulate as sim
from click.testing import CliRunner
from PIL import Image
from scan_degrade import Capture
from scan_helpers import pack_photo, photo

from printkit import registry
from printkit.cli import cli
from printkit.scan.review import UNCERTAIN

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "scan" / "world-ann.jpg"
NAMES = ("Ann", "Bo", "Cy")
SHEETS = [  # three players of one world game: Ann completes the Americas and comes back
    sim.Filled(("souvenirs.mugs.1", "souvenirs.mugs.2", "sights.food.1", "regions.north-america"),
               ("new-york-vancouver", "mexico-city-vancouver", "mexico-city-new-york"), "new-york"),
    sim.Filled(("souvenirs.clothes.1", "sights.culture.1", "sights.culture.2"), ("london-new-york",), "new-york"),
    sim.Filled(("sights.nature.1",), ("cape-town-perth",), "cape-town"),
]


def pdf_of(images: list[bytes]) -> bytes:
    """The captured pages as one PDF, as a copier makes it."""
    pages = [Image.open(io.BytesIO(b)).convert("RGB") for b in images]
    out = io.BytesIO()
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=150)
    return out.getvalue()


@pytest.fixture(scope="module")
def party_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shot = Capture(dpi=150, rotation=2.0, tilt=4.0, blur=0.4, light=0.2, noise=2, jpeg=80)
    images = [photo("world", "a4", NAMES, k, f, seed=k, shot=shot) for k, f in enumerate(SHEETS)]
    path = tmp_path_factory.mktemp("scan") / "scan.pdf"
    path.write_bytes(pdf_of(images))
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_three_sheets_in_one_pdf_are_one_game_with_the_right_winner(party_pdf: Path) -> None:
    code, out, err = run(str(party_pdf))
    assert (code, err) == (0, "")
    doc = {"map": "world", "players": [
        {"name": "Ann", "souvenirs": {"mugs": 2}, "sights": {"food": 1},
         "route": ["new-york", "mexico-city", "vancouver", "new-york"]},
        {"name": "Bo", "souvenirs": {"clothes": 1}, "sights": {"culture": 2}, "route": ["new-york", "london"]},
        {"name": "Cy", "sights": {"nature": 1}, "route": ["cape-town", "perth"]}]}
    from printkit.present.score_text import score_text

    expected, title = registry.score_document(doc, "x", Path("."))
    assert out == score_text(expected, title) + "\n"
    assert "Winner: Ann" in out


def test_json_is_the_score_json_plus_reads(party_pdf: Path) -> None:
    code, out, _ = run(str(party_pdf), "--json")
    data = json.loads(out)
    assert code == 0 and data["reads"] == []
    assert [p["name"] for p in data["players"]] == list(NAMES)


def test_save_writes_a_game_file_that_scores_the_same(party_pdf: Path, tmp_path: Path) -> None:
    target = tmp_path / "game.toml"
    code, out, err = run(str(party_pdf), "--save", str(target))
    assert code == 0 and err == f"Saved the game to {target}\n"
    again = CliRunner().invoke(cli, ["score", str(target)])
    assert again.exit_code == 0 and again.stdout == out


def test_unsure_reads_exit_3_are_listed_and_saved_as_comments(tmp_path: Path) -> None:
    image = tmp_path / "gap.png"
    image.write_bytes(photo("world", "a4", ("Ann",), 0, sim.Filled(("sights.food.1", "sights.food.3"), (), "tokyo")))
    target = tmp_path / "game.toml"
    code, _, err = run(str(image), "--save", str(target))
    assert code == 3
    assert "Unsure: Ann: sights.food: marks do not run from the left without gaps (x . x . .)\n" in err
    text = target.read_text()
    assert text.startswith("# Read by printkit scan.")
    assert "# Ann: sights.food: marks do not run from the left without gaps (x . x . .) (confidence 0.30)\n" in text
    assert run(str(image), "--accept")[0] == 0
    data = json.loads(run(str(image), "--json")[1])
    assert data["reads"] == [{"player": "Ann", "field": "sights.food", "confidence": 0.3,
                              "message": "sights.food: marks do not run from the left without gaps (x . x . .)"}]


def test_the_review_overlay_draws_an_unsure_row_red(tmp_path: Path) -> None:
    image = tmp_path / "gap.png"
    image.write_bytes(photo("world", "a4", ("Ann",), 0, sim.Filled(("sights.food.1", "sights.food.3"), (), "tokyo")))
    code, _, err = run(str(image), "--review", str(tmp_path / "review"), "--accept")
    assert code == 0 and err.endswith(f"Wrote {tmp_path / 'review' / '01-ann.png'}\n")
    overlay = cv2.imread(str(tmp_path / "review" / "01-ann.png"))
    from printkit.scan.ink import blank_sheet
    from printkit.scan.locate import SCALE

    boxes = {b.id: b.rect for b in blank_sheet("world", "a4").fields.boxes}
    def edge(box_id: str) -> tuple[int, int, int]:
        x0, y0, _, _ = boxes[box_id]
        px = overlay[round((y0 - 1.5) * SCALE) + 1, round((x0 + 4) * SCALE)]
        return int(px[0]), int(px[1]), int(px[2])
    assert edge("sights.food.2") == UNCERTAIN  # the unsure row, red
    assert edge("sights.culture.1") != UNCERTAIN


def test_without_the_scan_extra_it_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cv2" else real(name, *a))
    code, out, err = run(str(FIXTURE))
    assert (code, out) == (1, "")
    assert err == 'Error: printkit scan needs OpenCV, numpy, zxing-cpp and pypdf: pip install "printkit-travel[scan]"\n'


def test_bad_pages_are_named_and_the_others_still_read(tmp_path: Path, party_pdf: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((600, 800, 3), 255, np.uint8))
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(FIXTURE.read_bytes()[:2000])
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    code, out, err = run(str(blank), str(truncated), str(party_pdf), "--save", str(tmp_path / "g.toml"))
    assert code == 1
    assert err.splitlines() == [
        f"Error: {blank}: no printkit map sheet found (found 0 of its 4 corner markers; "
        "are all four corners in the picture, sharp and not in shadow?)",
        f"Error: {truncated}: not a readable PNG or JPEG image (corrupt or truncated?)",
        f"Not saved to {tmp_path / 'g.toml'}: some pages could not be read",
    ]
    assert "Winner: Ann" in out and not (tmp_path / "g.toml").exists()


@pytest.mark.parametrize("content, message", [
    (b"", "not a readable PDF"),
    (b"%PDF-1.4\n%%EOF\n", "not a readable PDF"),
])
def test_an_empty_or_broken_pdf_is_one_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(content)
    code, out, err = run(str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {path}: {message}") and len(err.splitlines()) == 1


@pytest.mark.parametrize("name, message", [("scan.pdf", "not a readable PDF"), ("scan.png", "not a readable PNG")])
def test_a_file_cut_short_is_one_line_in_a_real_process(tmp_path: Path, name: str, message: str) -> None:
    # pypdf and OpenCV warn on stderr (Python's last-resort handler, OpenCV's log): only a real process shows it
    import subprocess
    import sys

    path = tmp_path / name
    if name.endswith(".pdf"):
        path.write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
    else:
        path.write_bytes(photo("world", "a4", ("Ann",), 0, sim.Filled(), shot=Capture(dpi=150, jpeg=0))[:5000])
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-m", "printkit", "scan", str(path)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"Error: {path}: {message}") and len(done.stderr.splitlines()) == 1
    assert path.read_bytes() == before


def test_a_foreign_qr_code_and_a_blurred_photo_are_refused(tmp_path: Path) -> None:
    blurred = tmp_path / "blur.jpg"
    blurred.write_bytes(photo("world", "a4", ("Ann",), 0, sim.Filled(), shot=Capture(dpi=150, blur=6.0, jpeg=60)))
    code, _, err = run(str(blurred))
    assert code == 1 and err.startswith(f"Error: {blurred}: ") and len(err.splitlines()) == 1


def _photo_with_payload(monkeypatch: pytest.MonkeyPatch, payload: str | None, layout: str | None) -> bytes:
    """A world sheet whose QR code says something else: another payload, or another layout version."""
    from scan_degrade import capture

    import printkit.sheets.identity as identity
    from printkit.backends.png import render_png_page

    if payload is not None:
        monkeypatch.setattr(identity, "sheet_payload", lambda *a: payload)
    if layout is not None:
        real = identity.sheet_payload
        monkeypatch.setattr(identity, "sheet_payload", lambda m, p, _, n, name: real(m, p, layout, n, name))
    doc = registry.build_sheet("map", "world", ["Ann"], "a4").document
    image = sim.render_page(render_png_page(doc, 0, dpi=150))
    import random

    return capture(image, 150, Capture(dpi=150, jpeg=85), random.Random(0))


def test_a_sheet_of_another_layout_version_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.jpg"
    path.write_bytes(_photo_with_payload(monkeypatch, None, "1.0123456789abcdef"))
    monkeypatch.undo()
    code, _, err = run(str(path))
    from printkit.scan.ink import blank_sheet

    now = blank_sheet("world", "a4").fields.layout
    assert code == 1
    assert err == (f"Error: {path}: the sheet was printed by another printkit version (layout 1.0123456789abcdef, "
                   f"this one draws {now}): print it again, or scan with that version\n")


def test_another_qr_code_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "other.jpg"
    path.write_bytes(_photo_with_payload(monkeypatch, "https://example.com/ticket/42", None))
    monkeypatch.undo()
    code, _, err = run(str(path))
    assert code == 1
    assert err == f"Error: {path}: the QR code is not a printkit map sheet's ('https://example.com/ticket/42')\n"


def test_a_folder_is_read_in_name_order(tmp_path: Path) -> None:
    for k, f in enumerate(SHEETS[:2]):
        (tmp_path / f"{k}.jpg").write_bytes(photo("world", "a4", NAMES, k, f, seed=k))
    (tmp_path / "notes.txt").write_text("not a scan")
    data = json.loads(run(str(tmp_path), "--json")[1])
    assert [p["name"] for p in data["players"]] == ["Ann", "Bo"] and data["mode"] == "multiplayer"


def test_a_14_page_scan_is_one_party_game_and_a_bad_page_is_named(tmp_path: Path) -> None:
    names = tuple(f"P{k:02d}" for k in range(1, 15))
    shot = Capture(dpi=150, rotation=1.0, jpeg=80)
    images = [pack_photo("europe", "a4", names, k, sim.Filled(("visited.western-europe.1",
                                                             *(f"sights.food.{n}" for n in range(1, k % 5 + 1))), (), "paris"), k, shot) for k in range(14)]
    blank = io.BytesIO()
    Image.new("RGB", (800, 600), "white").save(blank, "PNG")
    images[11] = blank.getvalue()  # page 12 is not a sheet
    path = tmp_path / "party.pdf"
    path.write_bytes(pdf_of(images))
    code, out, err = run(str(path), "--json")
    assert code == 1
    assert err == (f"Error: {path}: page 12: no printkit map sheet found (found 0 of its 4 corner markers; "
                   "are all four corners in the picture, sharp and not in shadow?)\n")
    data = json.loads(out)
    assert data["mode"] == "party" and len(data["players"]) == 13
    assert [p["name"] for p in data["players"]] == [n for k, n in enumerate(names) if k != 11]
    assert data["reads"] == []
