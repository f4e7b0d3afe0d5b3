"""``render --fields``: the sheet's own geometry, checked against the PDF it describes."""

from __future__ import annotations

import io
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printkit.cli import cli as main
from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import atw, mapsheet
from printkit.sheets import fields as fieldmod
from printkit.sheets.citytags import name_lines

MAPS = bundled_maps()
PAPERS = ("a4", "letter")
TOL = 1.6
"""Text: pdfplumber's char box is the font size tall, ours ascent + descent."""


@lru_cache(maxsize=None)
def rendered(map_id: str, paper: str) -> tuple[bytes, dict[str, Any]]:
    """The PDF and the field JSON of one map sheet, through the CLI."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        pdf, out = Path(tmp) / "s.pdf", Path(tmp) / "s.json"
        result = CliRunner().invoke(main, ["render", "map", map_id, "--paper", paper, "-o", str(pdf),
                                           "--fields", str(out)])
        assert result.exit_code == 0, result.output
        return pdf.read_bytes(), json.loads(out.read_text("utf-8"))


@lru_cache(maxsize=None)
def page_shapes(map_id: str, paper: str) -> tuple[list[dict[str, Any]], list[tuple[float, ...]]]:
    """pdfplumber's view of the page: search hits of every city name, and every drawn rectangle."""
    import pdfplumber

    pdf, _ = rendered(map_id, paper)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        hits = []
        for c in load_map(map_id).cities:
            found = page.search(c.name, regex=False, case=True)
            if not found:  # a long name printed on two lines: each line in turn
                lines = name_lines(c.name, "bold" if c.iconic else "regular")[-1]
                found = [h for part in lines for h in page.search(part, regex=False, case=True)]
            for h in found:
                hits.append({"id": c.id, "box": (h["x0"], h["top"], h["x1"], h["bottom"]), "text": h["text"]})
        rects = [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects + page.curves]
    return hits, rects


def inside(inner: tuple[float, ...], outer: list[float], tol: float) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("map_id", MAPS)
def test_the_json_has_the_documented_shape(map_id: str, paper: str) -> None:
    _, f = rendered(map_id, paper)
    m = load_map(map_id)
    assert set(f) == {"sheet", "cities", "routes", "boxes", "regions", "markers", "qr", "start"}  # markers, qr: scan
    assert [g["id"] for g in f["regions"]] == [r.id for r in m.regions]
    assert all(set(g) == {"id", "name", "cities", "area", "label"} and len(g["label"]) == 4 for g in f["regions"])
    assert all(len(p) == 2 for g in f["regions"] for p in g["area"])
    assert len(f["start"]["rect"]) == 4  # the Start line: the fillable sheet's start field
    assert set(f["sheet"]) == {"kind", "map", "paper", "width", "height", "layout"}
    assert (f["sheet"]["kind"], f["sheet"]["map"], f["sheet"]["paper"]) == ("map", m.id, paper)
    assert f["sheet"]["width"] > f["sheet"]["height"]  # landscape
    assert [c["id"] for c in f["cities"]] == [c.id for c in m.cities]
    assert all(set(c) == {"id", "center", "radius", "tag", "name", "icons"} for c in f["cities"])
    assert all(len(c["icons"]) == (1 if m.city(c["id"]).iconic else len(m.city(c["id"]).sights)) for c in f["cities"])
    assert [r["id"] for r in f["routes"]] == [f"{r.a}-{r.b}" for r in m.routes]
    assert all(r["cities"] == [r["id"][:len(r["cities"][0])], r["cities"][1]] for r in f["routes"])
    ids = [b["id"] for b in f["boxes"]]
    assert len(ids) == len(set(ids))
    for kind in m.collect.kinds:
        assert [i for i in ids if i.startswith(f"souvenirs.{kind.id}.")] == [
            f"souvenirs.{kind.id}.{n}" for n in range(1, m.collect.boxes + 1)]
    for t in m.explore:
        for kind in t.kinds:
            assert [i for i in ids if i.startswith(f"{m.explore_key}.{kind.id}.")] == [
                f"{m.explore_key}.{kind.id}.{n}" for n in range(1, t.boxes + 1)]
    assert [i for i in ids if i.startswith("regions.")] == [f"regions.{r.id}" for r in m.regions]
    assert [i for i in ids if i.startswith("iconic.")] == [f"iconic.{n}" for n in range(1, len(m.iconic_table))]
    assert "speed" in ids and "total" in ids


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_name_in_the_pdf_lies_in_its_tag(map_id: str, paper: str) -> None:
    _, f = rendered(map_id, paper)
    tags = {c["id"]: c["tag"] for c in f["cities"]}
    names = {c["id"]: c["name"] for c in f["cities"]}
    hits, _ = page_shapes(map_id, paper)
    found = {h["id"] for h in hits}
    assert found == set(tags)  # every name is printed
    m = load_map(map_id)
    for h in hits:
        if h["text"] == m.city(h["id"]).name:
            assert inside(h["box"], names[h["id"]], TOL), (h, names[h["id"]])  # in its name's box, in its tag
            assert inside(h["box"], tags[h["id"]], TOL), (h, tags[h["id"]])
    for c in m.cities:  # a name on two lines: each line in its name's box
        parts = {h["text"] for h in hits if h["id"] == c.id and h["text"] != c.name}
        for part in parts:
            assert any(inside(h["box"], names[c.id], TOL) for h in hits if h["id"] == c.id and h["text"] == part)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("map_id", MAPS)
def test_every_box_matches_a_drawn_rectangle(map_id: str, paper: str) -> None:
    _, f = rendered(map_id, paper)
    _, rects = page_shapes(map_id, paper)
    for b in f["boxes"]:
        assert any(all(abs(p - q) <= 0.05 for p, q in zip(b["rect"], r)) for r in rects), b


@pytest.mark.parametrize("map_id", MAPS)
def test_city_centres_and_routes_are_the_drawn_ones(map_id: str) -> None:
    import pdfplumber

    pdf, f = rendered(map_id, "a4")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        lines = [((ln["x0"], ln["top"]), (ln["x1"], ln["bottom"])) for ln in page.lines]
        circles = [((c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2, (c["x1"] - c["x0"]) / 2)
                   for c in page.curves]
    for c in f["cities"]:
        cx, cy = c["center"]
        assert any(abs(x - cx) < 0.05 and abs(y - cy) < 0.05 for x, y, _ in circles), c["id"]
        curves = [c["pts"] for c in page.curves]
    for r in f["routes"]:
        if len(r["points"]) > 2:  # a gentle curve: drawn from its first point to its last, the samples on it
            (x1, y1), (x2, y2) = r["points"][0], r["points"][-1]
            assert any(math.dist(c[0], (x1, y1)) < 0.05 and math.dist(c[-1], (x2, y2)) < 0.05 for c in curves), r["id"]
            continue
        (x1, y1), (x2, y2) = r["points"]
        box = (min(x1, x2), min(y1, y2)), (max(x1, x2), max(y1, y2))
        assert any(all(abs(p - q) < 0.05 for p, q in zip(box[0] + box[1], a + b)) for a, b in lines), r["id"]


def test_layout_version_follows_the_geometry() -> None:
    m = load_map("world")
    a4, letter = mapsheet.sheet_fields(m, "a4"), mapsheet.sheet_fields(m, "letter")
    assert a4.layout != letter.layout
    assert a4.layout.startswith(fieldmod.SCHEME + ".")
    assert mapsheet.sheet_fields(m, "a4").layout == a4.layout  # reproducible
    moved = fieldmod.Fields(a4.kind, a4.map, a4.paper, a4.width, a4.height, a4.cities, a4.routes,
                            a4.boxes[1:])
    assert moved.layout != a4.layout
    geometry = atw.map_sheet(m, [], "a4").geometry
    assert geometry is not None and geometry.fields == a4 and geometry.layout == a4.layout
    assert fieldmod.loads(fieldmod.dumps(geometry)) == geometry
    assert fieldmod.loads(fieldmod.dumps(geometry)).fields.layout == a4.layout
    _, f = rendered("world", "a4")
    assert f["sheet"]["layout"] == a4.layout


def test_fields_for_a_sheet_without_geometry_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["render", "tracker", "us", "-o", str(tmp_path / "t.pdf"),
                                  "--fields", str(tmp_path / "t.json")])
    assert result.exit_code == 2
    assert "Error: Invalid value for '--fields': the tracker sheet does not describe its geometry; map sheets do" \
        in result.output
    assert not (tmp_path / "t.json").exists() and not (tmp_path / "t.pdf").exists()


def test_fields_beside_stdout_and_missing_folder(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    result = runner.invoke(main, ["render", "map", "europe", "-o", "-", "--fields", str(target)])
    assert result.exit_code == 0
    assert json.loads(target.read_text("utf-8"))["sheet"]["map"] == "europe"
    result = runner.invoke(main, ["render", "map", "europe", "-o", str(tmp_path / "s.pdf"),
                                  "--fields", str(tmp_path / "nope" / "f.json")])
    assert result.exit_code == 2
    assert f"folder {str(tmp_path / 'nope')!r} does not exist" in result.output
