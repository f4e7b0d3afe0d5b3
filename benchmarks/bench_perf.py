"""printkit's performance targets, each measured side by side with its floor in one run.

Run from the repository root:

    python benchmarks/bench_perf.py [--runs 15] [--only startup,score,render,svg,png,games,memory,scan]

(It took over benchmarks/bench_startup.py: ``startup`` also times ``printkit roll`` and
prints the floors, a bare ``python -c pass`` and the minimal Click program, in ms.)

Every row is a ratio of two things measured in the same run, interleaved
(A, B, A, B, ...), as the median of ``--runs`` runs, except the in-process
scoring rate (games per second), the scan's reading rate (sheets per second at
200 dpi, the corpus of benchmarks/bench_scan.py; in-process, and whole ``printkit scan``
processes over 20 photos, the median of at most 5 runs) and the peak memory of a 500-page
PNG pack, which are absolute. Whole-process rows run printkit through a launcher file
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
    if "games" in only:
        rows.append(Row("scoring in-process: World games per second", games_per_second(), 5000.0, "/s",
                        lower_is_better=False))
    return rows


def main() -> int:
    """Measure, print every row with its target, and exit 1 if any target is missed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="interleaved runs per command (default 15)")
    parser.add_argument("--only", default="startup,score,render,svg,png,games,memory,scan",
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
