"""Start-up time of `printkit roll` and `printkit turns next` against two floors.

Run from the repository root:

    python benchmarks/bench_startup.py [--runs 30]

Floors: a bare ``python -c pass``, and a minimal one-command Click program that
prints one random number (Click's own start-up is the floor of any Click
tool). printkit runs through a launcher file identical to the ``printkit``
console script pip installs, so both Click programs start as a script file.
printkit's modules are byte-compiled first, as ``pip install`` does. Each
command runs ``--runs`` times, interleaved, and the median wall time is shown.
Target: each printkit command at most 1.25x the Click floor.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CLICK_FLOOR = """\
import random

import click


@click.command()
def main() -> None:
    click.echo(random.random())


main()
"""

# What pip writes as the `printkit` console script.
LAUNCHER = """\
import sys

from printkit.cli import main

sys.exit(main())
"""


def time_once(cmd: list[str], env: dict[str, str], before: Callable[[], None] | None = None) -> float:
    """Wall time of one run of ``cmd`` in seconds (``before`` runs untimed first)."""
    if before is not None:
        before()
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode().strip()}")
    return elapsed


def main() -> None:
    """Measure and print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30, help="runs per command (default 30)")
    args = parser.parse_args()

    compileall.compile_dir(str(ROOT / "printkit"), quiet=1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="printkit-bench-") as tmp:
        work = Path(tmp)
        (work / "click_floor.py").write_text(CLICK_FLOOR)
        (work / "printkit_launcher.py").write_text(LAUNCHER)
        state = work / "game.json"
        saved = work / "game.saved.json"
        launcher = [py, str(work / "printkit_launcher.py")]
        subprocess.run([*launcher, "turns", "start", "--seed", "1", "--players", "Ann,Bo,Cy", "--state", str(state)],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        shutil.copyfile(state, saved)

        def restore() -> None:
            shutil.copyfile(saved, state)

        commands: dict[str, tuple[list[str], Callable[[], None] | None]] = {
            "python -c pass": ([py, "-c", "pass"], None),
            "minimal Click program": ([py, str(work / "click_floor.py")], None),
            "printkit roll --seed 1": ([*launcher, "roll", "--seed", "1"], None),
            "printkit turns next": ([*launcher, "turns", "next", "--state", str(state)], restore),
        }
        for cmd, before in commands.values():  # warm the file cache
            time_once(cmd, env, before)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (cmd, before) in commands.items():
                samples[name].append(time_once(cmd, env, before))

    median = {name: statistics.median(times) * 1000 for name, times in samples.items()}
    bare, floor = median["python -c pass"], median["minimal Click program"]
    print(f"Python {sys.version.split()[0]}, {args.runs} runs each, median wall time")
    for name, ms in median.items():
        print(f"  {name:<24} {ms:7.1f} ms   {ms / bare:5.2f}x bare python   {ms / floor:5.2f}x Click floor")
    worst = max(median["printkit roll --seed 1"], median["printkit turns next"]) / floor
    verdict = "meets" if worst <= 1.25 else "misses"
    print(f"Slowest printkit command: {worst:.2f}x the Click floor ({verdict} the 1.25x target)")


if __name__ == "__main__":
    main()
