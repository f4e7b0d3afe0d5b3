"""printkit's performance targets, each measured side by side with its floor in one run.

Run from the repository root:

    python benchmarks/bench_perf.py [--runs 15] [--only startup,score,render,svg,png,games,memory,scan,history]

(It took over benchmarks/bench_startup.py: ``startup`` also times ``printkit roll`` and
prints the floors, a bare ``python -c pass`` and the minimal Click program, in ms.)

Every row is a ratio of two things measured in the same run, interleaved
(A, B, A, B, ...), as the median of ``--runs`` runs, except the in-process
scoring rate (games per second), the scan's reading rate (sheets per second at
200 dpi, the corpus of benchmarks/bench_scan.py; in-process, and whole ``printkit scan``
processes over 20 photos, the median of at most 5 runs) and the peak memory of a 500-page
PNG pack and of the history commands at 10,000 games, which are absolute. Whole-process rows run printkit through a
launcher file
identical to the console script pip installs, byte-compiled first. The script
prints each row with its target and exits 1 if any target is missed, so a
missed target can never read as a pass.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "tests" / "data" / "games" / "world-chris.toml"

CLICK_FLOOR = """\
import random

import click


@click.command()
def main() -> None:
    click.echo(random.random())


main()
"""

REPORTLAB_FLOOR = """\
import sys

from reportlab.pdfgen.canvas import Canvas

canvas = Canvas(sys.argv[1], pagesize=(595.27, 841.89), invariant=1)
canvas.drawString(72, 720, "Around the World in 15 Minutes")
canvas.showPage()
canvas.save()
"""

NOTES: list[str] = []  # absolute medians printed beside the rows

LAUNCHER = """\
import sys

from printkit.cli import main

sys.exit(main())
"""


@dataclass
class Row:
    """One measured target: the value, the target and which way is better."""

    name: str
    value: float
    target: float | None  # None: a row for information, with no target
    unit: str = "x"
    lower_is_better: bool = True

    @property
    def met(self) -> bool:
        """Whether the value is within its target."""
        if self.target is None:
            return True
        return self.value <= self.target if self.lower_is_better else self.value >= self.target

    def line(self) -> str:
        """The printed row."""
        if self.target is None:
            return f"  {self.name:<66} {self.value:9.2f}{self.unit:<4} (information, no target)"
        sign = "<=" if self.lower_is_better else ">="
        verdict = "meets" if self.met else "MISSES"
        return f"  {self.name:<66} {self.value:9.2f}{self.unit:<4} target {sign} {self.target:g}{self.unit:<4} {verdict}"


def run(cmd: list[str], env: dict[str, str], before: Callable[[], None] | None = None) -> float:
    """Wall time of one run of ``cmd`` in seconds (``before`` runs untimed first)."""
    if before is not None:
        before()
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode().strip()}")
    return elapsed


def medians(commands: dict[str, tuple[list[str], Callable[[], None] | None]], env: dict[str, str],
            runs: int) -> dict[str, float]:
    """Median seconds per command, the commands run interleaved after one warm-up each."""
    for cmd, before in commands.values():
        run(cmd, env, before)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, before) in commands.items():
            samples[name].append(run(cmd, env, before))
    return {name: statistics.median(times) for name, times in samples.items()}


def peak_rss_mib(cmd: list[str], env: dict[str, str]) -> float:
    """Peak resident memory of one run of ``cmd`` (its own process), in MiB."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed")
    return usage.ru_maxrss / 1024  # kilobytes on Linux


def games_per_second(seconds: float = 1.0) -> float:
    """In-process scoring rate of the World example game (read, check and score), in games per second."""
    sys.path.insert(0, str(ROOT))
    from printkit import registry
    from printkit.loading.records import load_record

    doc = load_record(GAME)
    registry.score_document(doc, str(GAME), GAME.parent)  # warm: imports, first map load
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        registry.score_document(doc, str(GAME), GAME.parent)
        count += 1
    return count / (time.perf_counter() - start)


def render_rows(py: str, pk: list[str], work: Path, env: dict[str, str], runs: int) -> list[Row]:
    """``render map world`` to PDF against the reportlab floor: layout cache warm (primed first), and cold."""
    floor = ([py, str(work / "reportlab_floor.py"), str(work / "out" / "floor.pdf")], None)
    render = [*pk, "render", "map", "world", "-o", str(work / "out" / "map.pdf")]
    subprocess.run(render, env=env, check=True, stdout=subprocess.DEVNULL)  # primes the layout cache
    warm = medians({"floor": floor, "render": (render, None)}, env, runs)
    cold = medians({"floor": floor, "render": (render, None)}, {**env, "PRINTKIT_NO_CACHE": "1"}, runs)
    NOTES.append(f"render map world: warm cache {warm['render'] * 1000:.1f} ms, cold {cold['render'] * 1000:.1f} ms; "
                 f"reportlab floor {warm['floor'] * 1000:.1f} / {cold['floor'] * 1000:.1f} ms")
    return [Row("printkit render map world (PDF, layout cache warm) / reportlab page",
                warm["render"] / warm["floor"], 1.8),
            Row("printkit render map world (PDF, cold: PRINTKIT_NO_CACHE=1) / same",
                cold["render"] / cold["floor"], None)]


def scan_rate(sheets: int = 24) -> float:
    """In-process reading rate of filled-in, photographed sheets at 200 dpi (benchmarks/bench_scan.py's corpus)."""
    import random

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_scan

    return bench_scan.read_rate(bench_scan.corpus(sheets, random.Random(1), dpi=200))


SCAN_PHOTOS = 20
"""Photos a whole ``printkit scan`` process reads in the whole-process row (benchmarks/bench_scan.py --write-photos)."""


def scan_process_rows(pk: list[str], work: Path, env: dict[str, str], runs: int) -> list[Row]:
    """Whole ``printkit scan`` processes over 20 photos at 200 dpi (start-up, blank sheet and all): sheets per second,
    with the disk cache warm (primed by the first run) and cold."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_scan

    photos = work / "photos"
    bench_scan.write_photos(photos, SCAN_PHOTOS)
    scan = ([*pk, "scan", str(photos)], None)
    warm = medians({"scan": scan}, env, runs)["scan"]
    cold = medians({"scan": scan}, {**env, "PRINTKIT_NO_CACHE": "1"}, runs)["scan"]
    NOTES.append(f"printkit scan of {SCAN_PHOTOS} photos at 200 dpi: {warm:.2f} s with the cache warm, {cold:.2f} s cold")
    return [Row(f"printkit scan, {SCAN_PHOTOS} photos at 200 dpi, whole process: sheets per second", SCAN_PHOTOS / warm,
                8.0, "/s", lower_is_better=False),
            Row("same, cold (PRINTKIT_NO_CACHE=1): sheets per second", SCAN_PHOTOS / cold, None, "/s",
                lower_is_better=False)]


HISTORY_GAMES = 10_000
"""Games in the history the ``history`` rows read: a club's ten years (tests/history_helpers.py club_games)."""

HISTORY_FLOOR = """\
import csv
import itertools
import json
import sqlite3
import sys

conn = sqlite3.connect(sys.argv[1])
out = sys.stdout
if sys.argv[2] == "bests":  # the same aggregate, printed as it comes
    for row in conn.execute(
            "SELECT p.name_key, g.map, g.mode, count(*), sum(p.won), max(p.total), avg(p.total), "
            "(SELECT q.name FROM players q JOIN games h ON h.id = q.game_id WHERE q.name_key = p.name_key "
            " AND h.map = g.map AND h.mode = g.mode ORDER BY h.played_at DESC, h.rowid DESC LIMIT 1) "
            "FROM players p JOIN games g ON g.id = p.game_id GROUP BY p.name_key, g.map, g.mode"):
        out.write(" ".join(map(str, row)) + "\\n")
elif sys.argv[2] == "list":  # newest first, a line a game
    rows = conn.execute("SELECT g.id, g.map, g.mode, g.played_at, p.name, p.total, p.won FROM games g "
                        "JOIN players p ON p.game_id = g.id ORDER BY g.played_at DESC, g.rowid DESC, p.seat")
    for _, group in itertools.groupby(rows, key=lambda r: r[0]):
        game = list(group)
        players = ", ".join(f"{r[4]} {r[5]}" + (" (won)" if r[6] else "") for r in game)
        out.write(f"{game[0][3]}  {game[0][0]}  {game[0][1]}  {game[0][2]}  {players}\\n")
elif sys.argv[2] == "csv":  # a row a player, as csv writes them
    writer = csv.writer(out)
    writer.writerows(conn.execute("SELECT g.id, g.played_at, g.game, g.map, g.mode, p.name, p.total, p.won FROM games g "
                                  "JOIN players p ON p.game_id = g.id ORDER BY g.played_at, g.rowid, p.seat"))
else:  # every game as a line of JSON, its kept score as it is
    rows = conn.execute("SELECT g.id, g.game, g.map, g.mode, g.played_at, g.explanation, g.score, p.name, p.total, "
                        "p.won FROM games g JOIN players p ON p.game_id = g.id ORDER BY g.played_at, g.rowid, p.seat")
    for _, group in itertools.groupby(rows, key=lambda r: r[0]):
        game = list(group)
        head = json.dumps({"id": game[0][0], "game": game[0][1], "map": game[0][2], "mode": game[0][3],
                           "played_at": game[0][4], "players": [{"name": r[7], "total": r[8], "won": bool(r[9])}
                                                                for r in game], "explanation": game[0][5]},
                          ensure_ascii=False)
        out.write(head[:-1] + ', "score": ' + game[0][6] + "},\\n")
"""
"""The floors of the history rows: the stdlib script anyone would write to read the same rows with sqlite3 and
print them (``list``, ``bests``, ``csv``, ``json``), with nothing checked and no command line around it."""

HISTORY_IMPORT_FLOOR = """\
import json
import sqlite3
import sys

games = json.load(open(sys.argv[1], encoding="utf-8"))["games"]
conn = sqlite3.connect(sys.argv[2], isolation_level=None)
conn.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, game TEXT, map TEXT, mode TEXT, played_at TEXT, "
             "explanation TEXT, score TEXT)")
conn.execute("CREATE TABLE IF NOT EXISTS players (game_id TEXT, seat INTEGER, name TEXT, total INTEGER, won INTEGER)")
conn.execute("BEGIN")
conn.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", [
    (g["id"], g["game"], g["map"], g["mode"], g["played_at"], g["explanation"], json.dumps(g["score"]))
    for g in games])
conn.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?)", [
    (g["id"], i, p["name"], p["total"], int(p["won"])) for g in games for i, p in enumerate(g["players"])])
conn.execute("COMMIT")
"""
"""The floor of the import row: load the whole export and insert its rows in one transaction, nothing checked."""


def history_rows(py: str, pk: list[str], work: Path, env: dict[str, str], runs: int) -> list[Row]:
    """``history``, ``history bests`` and ``history export`` (JSON, CSV) at 10,000 games, each against a sqlite3
    script that reads the same rows and prints them (target 2.5x: printkit's start-up, checks and escaped output on
    top), their peak memory (target 100 MiB), and the import of that export against a script that loads and inserts
    it unchecked (for information); the seconds are in the notes."""
    import filecmp

    exported = work / "club.json"
    make = f"from history_helpers import club_games; open({str(exported)!r}, 'wb').write(club_games({HISTORY_GAMES}))"
    subprocess.run([py, "-c", make], env={**env, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])},
                   check=True)  # in a process of its own: a child's peak memory starts from its parent's at fork
    (work / "history_floor.py").write_text(HISTORY_FLOOR)
    (work / "history_import_floor.py").write_text(HISTORY_IMPORT_FLOOR)
    data = work / "history"
    here = {**env, "PRINTKIT_DATA_DIR": str(data)}
    subprocess.run([*pk, "history", "import", str(exported)], env=here, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*pk, "history", "export", "-o", str(work / "again.json")], env=here, check=True,
                   stdout=subprocess.DEVNULL)
    if not filecmp.cmp(work / "again.json", exported, shallow=False):
        raise SystemExit(f"the export of {HISTORY_GAMES} imported games is not the file imported")
    floor = [py, str(work / "history_floor.py"), str(data / "history.sqlite3")]
    commands = {
        "history": [*pk, "history"],
        "bests": [*pk, "history", "bests"],
        "export": [*pk, "history", "export", "--format", "json"],
        "csv": [*pk, "history", "export", "--format", "csv"],
    }
    floors = {"history": "list", "bests": "bests", "export": "json", "csv": "csv"}
    interleaved = {**{name: (cmd, None) for name, cmd in commands.items()},
                   **{f"{name} floor": ([*floor, kind], None) for name, kind in floors.items()}}
    m = medians(interleaved, here, runs)
    fresh = work / "fresh"

    def empty() -> None:
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(mode=0o700)

    imports = medians({
        "floor": ([py, str(work / "history_import_floor.py"), str(exported), str(fresh / "floor.sqlite3")], empty),
        "import": ([*pk, "history", "import", str(exported)], empty),
    }, {**env, "PRINTKIT_DATA_DIR": str(fresh)}, max(3, runs // 3))  # fmt: skip
    empty()
    import_peak = peak_rss_mib([*pk, "history", "import", str(exported)], {**env, "PRINTKIT_DATA_DIR": str(fresh)})
    size = exported.stat().st_size / 2**20
    NOTES.append(f"history of {HISTORY_GAMES:,} games ({size:.1f} MiB exported, and imported back byte for byte): " +
                 ", ".join(f"{' '.join(cmd[2:]) or 'history'} {m[name]:.2f} s (floor {m[name + ' floor']:.2f} s)"
                           for name, cmd in commands.items()) +
                 f"; import {imports['import']:.2f} s (json.load + executemany, nothing checked: {imports['floor']:.2f} s)")
    rows = [Row(f"printkit {' '.join(cmd[2:])}, {HISTORY_GAMES:,} games / sqlite3 script printing the same",
                m[name] / m[f"{name} floor"], 2.5) for name, cmd in commands.items()]
    rows.append(Row(f"printkit history import, {HISTORY_GAMES:,} games (every game checked) / json.load + executemany",
                    imports["import"] / imports["floor"], None))
    for name in ("history", "bests", "export", "csv"):
        rows.append(Row(f"printkit {' '.join(commands[name][2:])}, {HISTORY_GAMES:,} games: peak memory",
                        peak_rss_mib(commands[name], here), 100.0, " MiB"))
    rows.append(Row(f"printkit history import, {HISTORY_GAMES:,} games: peak memory", import_peak, 100.0, " MiB"))
    return rows


def measure(only: set[str], runs: int, work: Path, env: dict[str, str]) -> list[Row]:
    """Every selected row."""
    py = sys.executable
    env = {**env, "PRINTKIT_CACHE_DIR": str(work / "cache")}  # printkit's layout cache: the run's own, not ~/.cache
    (work / "click_floor.py").write_text(CLICK_FLOOR)
    (work / "reportlab_floor.py").write_text(REPORTLAB_FLOOR)
    (work / "printkit_launcher.py").write_text(LAUNCHER)
    pk = [py, str(work / "printkit_launcher.py")]
    state, saved = work / "game.json", work / "game.saved.json"
    subprocess.run([*pk, "turns", "start", "--seed", "1", "--players", "Ann,Bo,Cy", "--state", str(state)],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    shutil.copyfile(state, saved)
    restore = lambda: shutil.copyfile(saved, state)  # noqa: E731
    out = work / "out"
    out.mkdir()
    rows: list[Row] = []
    if only & {"startup", "score"}:
        m = medians({
            "bare": ([py, "-c", "pass"], None),
            "click": ([py, str(work / "click_floor.py")], None),
            "roll": ([*pk, "roll", "--seed", "1"], None),
            "turns": ([*pk, "turns", "next", "--state", str(state)], restore),
            "score": ([*pk, "score", str(GAME)], None),
        }, env, runs)  # fmt: skip
        NOTES.append(f"floors: python -c pass {m['bare'] * 1000:.1f} ms, minimal Click program {m['click'] * 1000:.1f} ms; "
                     f"printkit roll {m['roll'] * 1000:.1f} ms, turns next {m['turns'] * 1000:.1f} ms, "
                     f"score {m['score'] * 1000:.1f} ms")
        if "startup" in only:
            rows.append(Row("printkit turns next / minimal Click program", m["turns"] / m["click"], 1.15))
            rows.append(Row("printkit roll / minimal Click program", m["roll"] / m["click"], 1.15))
        if "score" in only:
            rows.append(Row("printkit score FILE / minimal Click program", m["score"] / m["click"], 1.4))
    if "render" in only:
        rows += render_rows(py, pk, work, env, runs)
    for fmt, players, target in (("svg", 100, 2.5), ("png", 20, 2.5)):
        if fmt in only:
            m = medians({
                "one": ([*pk, "render", "map", "world", "-o", str(out / f"one.{fmt}")], None),
                "pack": ([*pk, "render", "map", "world", "--players", str(players), "-o", str(out / f"pack.{fmt}")],
                         None),
            }, env, runs)  # fmt: skip
            rows.append(Row(f"{fmt.upper()} pack, {players} players / 1 player", m["pack"] / m["one"], target))
    if "memory" in only:
        cmd = [*pk, "render", "map", "world", "--players", "500", "-o", str(out / "big.png")]
        rows.append(Row("PNG pack of 500 players: peak memory", peak_rss_mib(cmd, env), 60.0, " MiB"))
    if "scan" in only:
        rows.append(Row("printkit scan: sheets read per second at 200 dpi", scan_rate(), 5.0, "/s",
                        lower_is_better=False))
        rows += scan_process_rows(pk, work, env, min(runs, 5))
    if "history" in only:
        rows += history_rows(py, pk, work, env, runs)
    if "games" in only:
        rows.append(Row("scoring in-process: World games per second", games_per_second(), 5000.0, "/s",
                        lower_is_better=False))
    return rows


def main() -> int:
    """Measure, print every row with its target, and exit 1 if any target is missed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="interleaved runs per command (default 15)")
    parser.add_argument("--only", default="startup,score,render,svg,png,games,memory,scan,history",
                        help="comma-separated rows to measure (default: all)")
    args = parser.parse_args()
    compileall.compile_dir(str(ROOT / "printkit"), quiet=1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory(prefix="printkit-bench-") as tmp:
        rows = measure(set(args.only.split(",")), args.runs, Path(tmp), env)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load:.2f}; medians of interleaved runs")
    for note in NOTES:
        print(f"  {note}")
    for row in rows:
        print(row.line())
    missed = [r.name for r in rows if not r.met]
    targets = sum(1 for r in rows if r.target is not None)
    print(f"{targets - len(missed)} of {targets} targets met" + (f"; missed: {'; '.join(missed)}" if missed else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
