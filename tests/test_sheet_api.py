"""Builders are pure and return a Sheet; ``render_sheet`` decides the render options; the ``--fields`` bytes hold."""

from __future__ import annotations

import ast
import hashlib
import io
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from printkit import registry
from printkit.errors import UsageError
from printkit.loading.maps import load_map
from printkit.loading.records.atw import player_table
from printkit.render import FIELDS, FILLABLE, OUTPUT, SVG_TEXT, OptionError, Request, render_sheet
from printkit.sheets import atw, fields, mappages, mapsheet
from printkit.sheets.builder import Sheet

ROOT = Path(__file__).resolve().parents[1]
SHEETS_DIR = ROOT / "printkit" / "sheets"


def _module_level_mutations(tree: ast.Module) -> list[str]:
    """Names a module binds at its top level to a dict, list or set display and then changes inside a function."""
    containers = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                  and isinstance(node.value, (ast.Dict, ast.List, ast.Set, ast.Call))
                  and not (isinstance(node.value, ast.Call) and not isinstance(node.value.func, ast.Name))
                  for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
    found: list[str] = []
    for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        for node in ast.walk(fn):
            if isinstance(node, ast.Global):
                found += node.names
            target = node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else None
            if isinstance(target, ast.Name) and target.id in containers and isinstance(node, ast.Call) \
                    and isinstance(node.func, ast.Attribute) and node.func.attr in (
                        "append", "clear", "update", "pop", "setdefault", "add", "extend", "insert", "popitem"):
                found.append(f"{target.id}.{node.func.attr}")
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
                for t in node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in containers:
                        found.append(f"{t.value.id}[...]")
    return found


def test_no_sheet_module_keeps_state_between_calls() -> None:
    offenders = {}
    for path in sorted(SHEETS_DIR.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        hits = _module_level_mutations(tree)
        if "lru_cache" in source or "functools.cache" in source:
            hits.append("a memoising decorator")
        if hits:
            offenders[path.name] = hits
    assert offenders == {}


def test_the_state_check_sees_a_memo_dict() -> None:
    memo = ast.parse("_PAGES: dict[str, int] = {}\ndef pages(k):\n    _PAGES[k] = 1\n    _PAGES.clear()\n")
    assert _module_level_mutations(memo) == ["_PAGES[...]", "_PAGES.clear"]


def test_the_memo_names_and_the_keep_hook_are_gone() -> None:
    from printkit.sheets import builder, identity

    assert not hasattr(mappages, "_PAGES") and not hasattr(identity, "_MARKED")
    assert "keep" not in builder.Prepared._fields and not hasattr(mapsheet.compose, "cache_clear")


def test_a_builder_handed_a_layout_never_lays_out(monkeypatch: pytest.MonkeyPatch) -> None:
    m = load_map("europe")
    made = mappages.prepare(m, "letter")

    def fail(*_: object) -> None:
        raise AssertionError("laid out again")

    monkeypatch.setattr(mapsheet, "compose", fail)
    sheet = atw.PREPARED["map"].build(m, ["Ann", "Bo"], "letter", made)
    assert isinstance(sheet, Sheet) and len(sheet.document.pages) == 2
    assert sheet.geometry == made.geometry and sheet.name_slot == made.slot
    assert sheet.layout == made.geometry.layout == made.geometry.fields.layout


def test_building_twice_in_fresh_processes_gives_equal_sheets() -> None:
    probe = ("import pickle, sys\nfrom printkit.loading.maps import load_map\nfrom printkit.sheets import atw\n"
             "m = load_map('south-america')\nsheet = atw.map_sheet(m, ['Ann'], 'a4')\n"
             "again = atw.map_sheet(m, ['Ann'], 'a4')\nassert again == sheet\n"
             "sys.stdout.buffer.write(pickle.dumps(sheet))")
    env = {"PYTHONPATH": str(ROOT), "PRINTKIT_NO_CACHE": "1", "PATH": ""}
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True, env=env).stdout
            for _ in range(2)]
    import pickle

    first, second = (pickle.loads(r) for r in runs)
    assert first == second and first.geometry is not None and first.geometry.fields.map == "south-america"
    assert first == atw.map_sheet(load_map("south-america"), ["Ann"], "a4")


def test_other_sheets_carry_no_geometry() -> None:
    for kind in ("tracker", "scorepad"):
        sheet = registry.build_sheet(kind, "world", ["Ann"], "a4")
        assert (sheet.geometry, sheet.name_slot, sheet.layout) == (None, None, None)
        assert len(sheet.document.pages) == 1
    assert registry.build_sheet("passport", "globetrotting", [], "a4").geometry is None


def test_the_geometry_is_what_the_fields_file_says() -> None:
    sheet = registry.build_sheet("map", "world", [], "a4")
    g = sheet.geometry
    assert g is not None
    assert fields.loads(fields.dumps(g)) == g
    assert [k.id for k in g.markers] == [0, 1, 2, 3] and g.qr is not None
    assert (g.fields.width, g.fields.height) == (841.89, 595.28)
    assert all(round(v, 2) == v for b in g.fields.boxes for v in b.rect)  # rounded as written


FIELDS_SHA = {("world", "a4"): "6cd4614f8ca0be8a", ("south-america", "letter"): "f9a81746baf0ebd4"}
"""sha256 (16 hex digits) of the ``--fields`` files as printkit writes them (re-pinned for issue 21's layout:
curved routes, tags clear of other routes, each city's name and icon boxes, the regions' areas).

A change of the map sheet's layout changes these on purpose: render the two
files again, check them and update the digests.
"""


@pytest.mark.parametrize("map_id,paper", sorted(FIELDS_SHA))
def test_the_fields_file_keeps_its_bytes(map_id: str, paper: str, tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    render_sheet(Request("map", map_id, ["Ann"], paper, output=str(tmp_path / "s.pdf"), fields=str(target)))
    assert hashlib.sha256(target.read_bytes()).hexdigest()[:16] == FIELDS_SHA[map_id, paper]


@pytest.mark.parametrize("request_,option,message", [
    (Request("tracker", "world", [""], fields="f.json"), FIELDS,
     "the tracker sheet does not describe its geometry; map sheets do"),
    (Request("scorepad", "us", [""], fillable=True), FILLABLE,
     "the scorepad sheet has nothing to fill in on a tablet; map sheets do"),
    (Request("map", "world", [""], fmt="svg", fillable=True), FILLABLE,
     "form fields need a PDF, not SVG; use --format pdf or a .pdf file"),
    (Request("map", "world", [""], output="sheet.docx"), OUTPUT,
     "sheet.docx: cannot tell the format from the extension .docx; use .pdf, .svg or .png, or give --format"),
    (Request("map", "world", ["Ann", "Bo"], fmt="png", output="-"), None,
     "PNG gives one file per page and this sheet has 2 pages; use -o PATH (or --format pdf) instead of -o -"),
    (Request("tracker", "world", [""], svg_text="font"), SVG_TEXT,
     "only SVG has text to draw as outlines or as a font, not PDF"),
    (Request("tracker", "world", [""], fmt="svg", svg_text="bitmap"), SVG_TEXT, "'bitmap': expected one of path, font"),
])
def test_render_sheet_refuses_what_the_sheet_cannot_take(request_: Request, option: str | None, message: str,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OptionError) as err:
        render_sheet(request_, stream=io.BytesIO())
    assert (err.value.option, err.value.detail) == (option, message)
    assert isinstance(err.value, UsageError) and err.value.exit_code == 2
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_render_sheet_draws_svg_text_as_outlines_unless_asked_for_the_font() -> None:
    outlined, fonted = io.BytesIO(), io.BytesIO()
    render_sheet(Request("tracker", "world", [""], fmt="svg", output="-"), stream=outlined)
    render_sheet(Request("tracker", "world", [""], fmt="svg", output="-", svg_text="FONT"), stream=fonted)
    assert b"<text" not in outlined.getvalue() and b'aria-label="Turn tracker"' in outlined.getvalue()
    assert b">Turn tracker</text>" in fonted.getvalue() and b"@font-face" in fonted.getvalue()


def test_render_sheet_writes_the_one_file_to_the_stream_and_the_fields(tmp_path: Path) -> None:
    out = io.BytesIO()
    done = render_sheet(Request("map", "us", ["Ann"], "letter", output="-", fields=str(tmp_path / "f.json"),
                                fillable=True), stream=out)
    assert (done.format, done.pages, done.paths) == ("pdf", 1, [])
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()))
    assert "name" in (reader.get_fields() or {})
    assert fields.loads((tmp_path / "f.json").read_text("utf-8")).fields.map == "us"


def test_render_sheet_hands_every_path_to_the_caller_to_vet(tmp_path: Path) -> None:
    from printkit.render import Check

    seen: list[tuple[object, str]] = []
    check = Check(lambda path, option: seen.append((path, option)),
                  lambda paths, option: seen.append(([p.name for p in paths], option)))
    target = tmp_path / "s.svg"
    done = render_sheet(Request("map", "world", ["Ann", "Bo"], output=str(target), fields=str(tmp_path / "f.json")),
                        check=check)
    assert seen == [(str(target), OUTPUT), (str(tmp_path / "f.json"), FIELDS), (["s-01.svg", "s-02.svg"], OUTPUT)]
    assert [p.name for p in done.paths] == ["s-01.svg", "s-02.svg"] and done.format == "svg"


def test_one_builder_of_the_players_table() -> None:
    us, sa = load_map("us"), load_map("south-america")
    assert list(player_table(us, "Ann", {"hats": 1}, {"parks": 2}, visited={"west": 1}, iconic=0, returned=False,
                             first_rare=[])) == ["name", "souvenirs", "sights", "visited", "iconic", "returned"]
    table = player_table(sa, "Bo", {}, {"jaguar": 1}, route=["lima", "quito"], finished_turn=9)
    assert table == {"name": "Bo", "souvenirs": {}, "animals": {"jaguar": 1}, "route": ["lima", "quito"],
                     "finished_turn": 9}
