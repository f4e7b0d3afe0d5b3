"""`printkit roll` and `printkit turns next` import nothing heavy (timings: benchmarks/bench_perf.py --only startup)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printkit.cli import PAUSED_PAGES, cli

ROOT = Path(__file__).resolve().parents[1]
HEAVY = [
    "reportlab", "svgwrite", "fontTools", "jinja2", "pypdf", "pypdfium2", "pdfplumber", "PIL",
    "tomllib", "fractions", "decimal", "printkit.loading.maps", "printkit.model.maps", "printkit.layout",
    "cv2", "numpy", "zxingcpp", "segno", "printkit.scan", "sqlite3", "printkit.history",
]
SCAN = ["cv2", "numpy", "zxingcpp", "printkit.scan"]
LIGHT_PATH_OFF = ["pathlib", "urllib", "ipaddress", "tempfile", "encodings.utf_8_sig"]
"""Not heavy, but 2.5 ms that `roll` and the turn commands do without (os.path instead; a state file's BOM by hand)."""

# Run the CLI in a fresh interpreter, then report which modules got imported and how many
# garbage collections ran inside main() (PROBE_GC_OFF=1: the collector is off before main()).
PROBE = """
import gc, os, sys
if os.environ.get("PROBE_GC_OFF"):
    gc.disable()
from printkit.cli import main
before = sum(s["collections"] for s in gc.get_stats())
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
collections = sum(s["collections"] for s in gc.get_stats()) - before
collecting = gc.isenabled()
modules = sorted(sys.modules)
built = sorted(f"{n}.{k}" for n, mod in list(sys.modules.items()) if n.startswith("printkit") and mod is not None
               for k, v in vars(mod).items() if isinstance(v, type) and v.__module__ == n and "__dataclass_fields__" in vars(v))
import json
print(json.dumps({"code": code, "modules": modules, "collections": collections, "collecting": collecting,
                  "dataclasses": built}))
"""


def probe(*args: str, gc_off: bool = False) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    if gc_off:
        env["PROBE_GC_OFF"] = "1"
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, capture_output=True, text=True, check=True)
    doc: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    return doc


def loaded_after(*args: str) -> tuple[int, list[str]]:
    doc = probe(*args)
    return doc["code"], doc["modules"]


def heavy_in(modules: list[str]) -> list[str]:
    return [h for h in HEAVY if any(m == h or m.startswith(h + ".") for m in modules)]


def test_roll_imports_nothing_heavy() -> None:
    code, modules = loaded_after("roll", "--seed", "1")
    assert code == 0
    assert heavy_in(modules) == []
    assert "printkit.rules.dice" in modules  # the probe did run the command
    assert [m for m in [*LIGHT_PATH_OFF, "dataclasses"] if m in modules] == []
    assert "json" not in modules  # only --json needs it


@pytest.mark.parametrize("command", [["next"], ["status"], ["finish", "Ann"], ["undo"], ["history"]])
def test_turn_commands_import_nothing_heavy(tmp_path: Path, command: list[str]) -> None:
    state = tmp_path / "game.json"
    runner = CliRunner()
    assert runner.invoke(cli, ["turns", "start", "--players", "Ann,Bo", "--seed", "1", "--state", str(state)]).exit_code == 0
    assert runner.invoke(cli, ["turns", "next", "--state", str(state)]).exit_code == 0
    code, modules = loaded_after("turns", *command, "--state", str(state))
    assert code == 0
    assert heavy_in(modules) == []
    assert "printkit.rules.turns" in modules
    assert [m for m in LIGHT_PATH_OFF if m in modules] == []
    if command[0] != "finish":  # finishing a player may give a speed bonus: the scoring rules' dataclasses
        assert "dataclasses" not in modules


def test_the_probe_would_notice_a_heavy_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `turns start` loads the map (tomllib, the loader): the same check flags it (no cache: the map is parsed)
    monkeypatch.setenv("PRINTKIT_NO_CACHE", "1")
    code, modules = loaded_after("turns", "start", "--seed", "1", "--state", str(tmp_path / "g.json"))
    assert code == 0
    assert "tomllib" in heavy_in(modules) and "printkit.loading.maps" in heavy_in(modules)


@pytest.mark.parametrize("command", [["--help"], ["roll", "--help"], ["turns", "--help"], ["turns", "start", "--help"]])
def test_help_imports_nothing_heavy(command: list[str]) -> None:
    code, modules = loaded_after(*command)
    assert code == 0
    assert heavy_in(modules) == []
    assert "printkit.loading.games" not in modules and "printkit.sheets" not in modules


def test_render_and_scan_help_import_no_scan_library(tmp_path: Path) -> None:
    code, modules = loaded_after("render", "map", "world", "--names", "Ann", "-o", str(tmp_path / "w.pdf"))
    assert code == 0 and "segno" in modules  # the probe did draw a QR code (a named page's is never kept)
    assert [m for m in SCAN if any(n == m or n.startswith(m + ".") for n in modules)] == []
    code, modules = loaded_after("scan", "--help")
    assert code == 0 and [m for m in SCAN if any(n == m or n.startswith(m + ".") for n in modules)] == []


WARM_RENDER_OFF = ["tomllib", "printkit.layout.icons", "printkit.layout.pathdata", "segno", "segno.encoder",
                   "printkit.sheets.mapplan", "printkit.sheets.citytags", "printkit.sheets.layoutcheck",
                   "printkit.sheets.mapsheet"]
"""What a render from the cache does without: the map is kept built (no TOML parser), the layout, the icons'
symbols, the field JSON and a blank sheet's QR code too (no planner, no SVG path reader, no QR encoder). json is
read: the cache's entries are JSON (never pickles: docs/render.md)."""


def test_a_warm_render_parses_no_toml_and_builds_only_the_primitives_dataclasses(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(tmp_path / "cache"))
    cold = probe("render", "map", "world", "-o", str(tmp_path / "cold.pdf"))
    assert cold["code"] == 0 and "tomllib" in cold["modules"]  # the probe would notice
    doc = probe("render", "map", "world", "-o", str(tmp_path / "warm.pdf"))
    assert doc["code"] == 0 and (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()
    assert [m for m in WARM_RENDER_OFF if m in doc["modules"]] == []
    # a frozen dataclass costs 0.3-0.8 ms to define: only the drawing primitives still are
    assert {name.rsplit(".", 1)[0] for name in doc["dataclasses"]} == {"printkit.layout.primitives"}


def test_paths_are_written_as_pathlib_writes_them(tmp_path: Path) -> None:
    # the light path writes file names in messages without pathlib: the same text as str(Path(...))
    import itertools

    from printkit.files import file_mode, path_text

    atoms = ["", "/", "//", ".", "..", "a", "b.c", " "]
    for k in range(1, 5):
        for combo in itertools.product(atoms, repeat=k):
            name = "".join(combo)
            if name:
                assert path_text(name) == str(Path(name)), name
    (tmp_path / "f").write_text("x")
    for name in ("f", "missing", "f/below", ""):
        assert (file_mode(tmp_path / name) is not None) == (tmp_path / name).exists(), name


def test_score_file_imports_only_what_scoring_uses() -> None:
    code, modules = loaded_after("score", str(ROOT / "tests" / "data" / "games" / "world-chris.toml"))
    assert code == 0 and "printkit.rules.atw" in modules  # the probe did score the game
    # json reads the built map from the cache (its entries are JSON), difflib only suggests a misspelt key;
    # no sheet, no backend
    off = ["difflib", "encodings.utf_8_sig", "printkit.layout", "printkit.sheets", "printkit.backends",
           "reportlab", "PIL", "numpy"]
    assert [m for m in off if any(n == m or n.startswith(m + ".") for n in modules)] == []


def test_short_commands_run_without_garbage_collections(tmp_path: Path) -> None:
    # start-up makes no garbage cycles: the collector is paused through a short command, and on again after it
    state = tmp_path / "game.json"
    assert CliRunner().invoke(cli, ["turns", "start", "--players", "Ann,Bo", "--seed", "1", "--state", str(state)]).exit_code == 0
    game = str(ROOT / "tests" / "data" / "games" / "world-chris.toml")
    for args in (["roll", "--seed", "1"], ["turns", "next", "--state", str(state)], ["score", game], ["--help"]):
        doc = probe(*args)
        assert (doc["code"], doc["collections"], doc["collecting"]) == (0, 0, True), args
    doc = probe("roll", "--seed", "1", gc_off=True)  # a caller's collector that was off stays off
    assert (doc["code"], doc["collections"], doc["collecting"]) == (0, 0, False)


def test_rendering_a_big_pack_runs_with_the_collector_on(tmp_path: Path) -> None:
    # a sheet or a small pack runs with the collector paused (no garbage cycles worth walking before the exit)
    doc = probe("render", "map", "world", "-o", str(tmp_path / "w.pdf"))
    assert (doc["code"], doc["collections"], doc["collecting"]) == (0, 0, True)
    doc = probe("render", "map", "world", "--players", str(PAUSED_PAGES), "-o", str(tmp_path / "s.pdf"))
    assert (doc["code"], doc["collections"], doc["collecting"]) == (0, 0, True)
    doc = probe("render", "map", "world", "--players", str(PAUSED_PAGES + 1), "-o", str(tmp_path / "p.pdf"))
    assert doc["code"] == 0 and doc["collections"] > 0 and doc["collecting"] is True
    doc = probe("render", "map", "world", "-o", str(tmp_path / "w2.pdf"), gc_off=True)
    assert doc["code"] == 0 and doc["collections"] == 0 and doc["collecting"] is False


def test_text_is_decoded_as_utf_8_sig_decodes_it() -> None:
    # the light path drops a BOM by hand: the same text, and the same error at the same place, as "utf-8-sig"
    import itertools

    from printkit.loading.text import utf8_text

    def outcome(decode: Any, raw: bytes) -> tuple[object, ...]:
        try:
            return ("text", decode(raw))
        except UnicodeDecodeError as exc:
            return ("error", exc.start, exc.end, exc.reason)

    atoms = [b"\xef\xbb\xbf", b"\xef", b"\xbb", b"a", b"\n", b"\xff", b"\xc3\xa9", b"\xc3"]
    for k in range(0, 4):
        for combo in itertools.product(atoms, repeat=k):
            raw = b"".join(combo)
            assert outcome(utf8_text, raw) == outcome(lambda b: b.decode("utf-8-sig"), raw), raw
