"""A sweep of `printkit history` with hostile exports, files and arguments: one clear line, never a traceback, a hang,
a half-import or a spreadsheet formula.

Every case runs printkit in-process (the group's own streams) against a history
holding one game, and checks: the exit status is 0, 1 or 2; nothing raised past
the group and no traceback was printed; a refusal is one ``Error:`` line and leaves
the history byte for byte as it was (no half-import); an import that is taken adds
every game of the file and nothing else; the CSV export then has no cell a
spreadsheet would run; the JSON export still imports into a fresh history as the
same history; the case ended within :data:`SECONDS`. The export the variants are
made from is the club's of docs/history.md. ``SWEEP_REPORT=1 pytest -s
tests/test_sweep_history.py`` prints the totals.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from history_helpers import CLUB, EXAMPLES, scored_file
from sweep_tally import Hang, Tally, timed

from printkit.cli import cli
from printkit.history import export, import_, record
from printkit.history.transfer import FORMULA_START, GAME_CHARS

SECONDS = 30
KINDS = ("tracebacks", "hangs", "bad exit statuses", "unclear errors", "half-imports", "formula cells",
         "round-trips lost")
EVIL = "x\x1b]0;pwned\x07\u202e"
GOOD = json.loads(CLUB.read_bytes())
VALUES: list[Any] = [None, True, -1, 10_000, 2**63 - 1, 1.5, "", " ", "=1+2", "@SUM(A1)", "-2+3", "+1", "\tx",
                     "a" * 5000, EVIL, "Chr\ud800is", [], {}, ["x"], {"a": 1}]
"""What a field is replaced by (each leaf of a game gets every one of these)."""


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every leaf (and of every list and object) under ``value``."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, (*path, i))


def put(doc: Any, path: tuple[Any, ...], value: Any, remove: bool = False) -> Any:
    doc = copy.deepcopy(doc)
    here = doc
    for step in path[:-1]:
        here = here[step]
    if remove:
        del here[path[-1]]
    else:
        here[path[-1]] = value
    return doc


def text(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")


def variants() -> Iterator[tuple[str, bytes]]:
    """Hostile and careless exports made from the club's: every field of two games replaced, removed or joined by a
    stranger, the file cut, doubled, nested, mis-encoded."""
    for index in (1, 4):  # a multiplayer game and a solo one
        game = GOOD["games"][index]
        for path in leaves(game):
            where = ".".join(map(str, path))
            for value in VALUES if index == 1 else VALUES[:6]:
                yield f"games[{index}].{where} = {value!r:.20}", text(put(GOOD, ("games", index, *path), value))
            if isinstance(path[-1], str):
                yield f"games[{index}].{where} removed", text(put(GOOD, ("games", index, *path), None, remove=True))
        for path in [(), *(p for p in leaves(game) if isinstance(game_at(game, p), dict))]:
            yield f"games[{index}] {path} + unknown key", text(put(GOOD, ("games", index, *path, "stranger"), 1))
    raw = CLUB.read_bytes()
    for cut in range(0, len(raw), len(raw) // 23):
        yield f"cut at {cut}", raw[:cut]
    yield "bom", b"\xef\xbb\xbf" + raw
    yield "bom twice", b"\xef\xbb\xbf\xef\xbb\xbf" + raw
    yield "not utf-8", raw.replace(b"Chris", b"Chr\xffis", 1)
    yield "utf-16", raw.decode().encode("utf-16")
    yield "nul", raw.replace(b"Chris", b"Chr\x00is", 1)
    for number in ("NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, str(2**63), "1" + "0" * 30, "46.0"):
        yield f"total {number}", raw.replace(b'"total": 46', f'"total": {number}'.encode(), 1)
    yield "key twice", raw.replace(b'"total": 46', b'"total": 46, "total": 46', 1)
    yield "format twice", raw.replace(b'"version": 1', b'"version": 1, "format": "printkit-history"', 1)
    for depth in (31, 32, 2000, 100_000):
        yield f"nested {depth}", raw.replace(b'"tiebreak": ""', b'"tiebreak": ' + b"[" * depth + b"]" * depth, 1)
    yield "games twice", raw.replace(b'"version": 1', b'"version": 1, "games": []', 1)
    yield "games first", raw.replace(b'"format": "printkit-history",\n  "version": 1,\n  ', b"", 1).replace(
        b"\n  ]\n}", b'\n  ], "format": "printkit-history", "version": 1\n}', 1)
    yield "games not a list", text({**GOOD, "games": {"0": GOOD["games"][0]}})
    yield "no games", text({k: v for k, v in GOOD.items() if k != "games"})
    yield "version 2", text({**GOOD, "version": 2})
    yield "version true", text({**GOOD, "version": True})
    yield "same game twice", text({**GOOD, "games": [*GOOD["games"], GOOD["games"][0]]})
    yield "one game long", text({**GOOD, "games": [{**GOOD["games"][0], "explanation": "x" * GAME_CHARS}]})
    for name, body in (("empty", b""), ("spaces", b"  \n"), ("null", b"null"), ("list", b"[]"), ("number", b"7"),
                       ("string", b'"x"'), ("toml", (EXAMPLES / "world-chris.toml").read_bytes()),
                       ("trailing", raw + b"[]"), ("object", b"{}"), ("junk", bytes(range(256)) * 16)):
        yield name, body


def game_at(game: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        game = game[step]
    return game


VARIANTS = list(variants())


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A history holding one game (not one of the club's), every case starting from a copy of it."""
    db = tmp_path_factory.mktemp("history") / "data" / "history.sqlite3"
    record(*scored_file(EXAMPLES / "us-road-trip.toml", "2024-01-01T12:00:00Z"), db=db)
    return db.parent


def run(args: list[str], folder: Path, data: Path) -> Any:
    """printkit ``args`` in ``folder`` with its history in ``data``: the Click result, or the Hang."""
    old = os.getcwd()
    os.chdir(folder)
    try:
        return timed(SECONDS, lambda: CliRunner(env={"PRINTKIT_DATA_DIR": str(data)}).invoke(cli, args, input=""))
    finally:
        os.chdir(old)


def formulas(data: Path) -> list[str]:
    """The cells of the CSV export a spreadsheet would run."""
    rows = csv.reader(io.StringIO(export("csv", db=data / "history.sqlite3").decode("utf-8"), newline=""))
    return [cell for row in rows for cell in row if cell.startswith(FORMULA_START)]


def check(tally: Tally, name: str, args: list[str], folder: Path, data: Path, before: bytes) -> None:
    """Run one case and count what it got wrong."""
    tally.case()
    result = run(args, folder, data)
    if isinstance(result, Hang):
        tally.failed("hangs", name)
        return
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tally.failed("tracebacks", f"{name}: {type(result.exception).__name__}: {str(result.exception)[:100]}")
    if "Traceback" in result.stdout + result.stderr:
        tally.failed("tracebacks", f"{name}: printed")
    if result.exit_code not in (0, 1, 2):
        tally.failed("bad exit statuses", f"{name}: {result.exit_code}")
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    if result.exit_code != 0 and (len(errors) != 1 or any(c in result.stderr for c in "\x1b\x07\u202e")):
        tally.failed("unclear errors", f"{name}: {result.stderr[:200]!r}")
    after = export("json", db=data / "history.sqlite3")
    if result.exit_code != 0 and after != before:
        tally.failed("half-imports", name)
    cells = formulas(data)
    if cells:
        tally.failed("formula cells", f"{name}: {cells[0]!r}")
    if after != before:  # taken: it must move to another history whole
        fresh = folder / "fresh" / "history.sqlite3"
        try:
            import_(after, "again.json", db=fresh)
            same = export("json", db=fresh) == after
        except Exception as exc:  # noqa: BLE001 - any failure here is the finding
            same = False
            name = f"{name}: {type(exc).__name__} {exc}"
        if not same:
            tally.failed("round-trips lost", name)


def case_folder(tmp_path: Path, history: Path) -> tuple[Path, Path, bytes]:
    folder = tmp_path / "case"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    data = folder / "data"
    shutil.copytree(history, data)
    return folder, data, export("json", db=data / "history.sqlite3")


def test_hostile_exports_are_refused_whole_or_taken_whole(history: Path, tmp_path: Path) -> None:
    tally = Tally("history import, hostile exports", KINDS)
    for name, data in VARIANTS:
        folder, home, before = case_folder(tmp_path, history)
        (folder / "h.json").write_bytes(data)
        check(tally, name, ["history", "import", "h.json"], folder, home, before)
    tally.report()
    assert tally.problems() == []
    assert tally.cases == len(VARIANTS) >= 600


ARGS: list[list[str]] = [
    *(["history", "import", f] for f in ["missing.json", "folder", "/dev/null", "/dev/zero", "fifo", "loop",
                                         f"{EVIL}.json", "", "a" * 5000, "../../etc/passwd", "-"]),
    *(["history", "export", "-o", f] for f in ["", "folder", "nofolder/x.csv", f"{EVIL}.csv", "x.txt", "-", "/dev/full",
                                               "/dev/null", "a" * 5000 + ".csv", "h.json", "folder/"]),
    *(["history", "export", "--format", f] for f in ["", "xml", "CSV", "json", EVIL, "csv,json"]),
    *(["history", *a] for a in (["--map", EVIL], ["--player", "a" * 10000], ["--map", ""], ["--json", "--player", "=1"],
                                ["show", EVIL], ["show", "c049"], ["show", ""], ["show", "%"], ["show", "_" * 16],
                                ["forget", EVIL], ["forget", "%%%%"], ["bests", "--mode", EVIL],
                                ["bests", "--map", "a" * 10000], ["bests", "--json"], ["import"], ["export", "-o"],
                                ["nothing"])),
]
"""Files and values given where the history commands read a file, write one, or take a word."""


def test_hostile_files_and_arguments_are_one_line(history: Path, tmp_path: Path) -> None:
    tally = Tally("history commands, hostile files and arguments", KINDS)
    for args in ARGS:
        folder, home, before = case_folder(tmp_path, history)
        (folder / "folder").mkdir()
        (folder / "h.json").write_bytes(CLUB.read_bytes())
        os.mkfifo(folder / "fifo")
        (folder / "loop").symlink_to("loop")
        check(tally, " ".join(args)[:60], args, folder, home, before)
    tally.report()
    assert tally.problems() == []
    assert tally.cases == len(ARGS)
