"""Benchmark: a 100-player World map pack against a 1-player sheet, side by side.

The shared sheet (map and empty scoring sections) is drawn once as a PDF Form
XObject and every page places it, so the pack should cost at most 3x the time
and 5x the bytes of a single sheet. Run from the project root:

    python benchmarks/bench_render.py [--repeats 5] [--map world] [--players 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from printkit import registry  # noqa: E402
from printkit.backends.pdf import render_pdf  # noqa: E402

TIME_TARGET = 3.0
BYTES_TARGET = 5.0


def run_once(map_id: str, players: int) -> tuple[float, int]:
    """Seconds and bytes for laying out and writing one PDF pack."""
    names = [f"Player {i + 1}" for i in range(players)]
    start = time.perf_counter()
    data = render_pdf(registry.build_sheet("map", map_id, names, "a4").document)
    return time.perf_counter() - start, len(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--map", default="world")
    parser.add_argument("--players", type=int, default=100)
    args = parser.parse_args()
    run_once(args.map, 1)  # warm up: imports, font registration, outlines
    single: list[float] = []
    pack: list[float] = []
    single_bytes = pack_bytes = 0
    for _ in range(args.repeats):  # interleaved, so both see the same machine state
        t, single_bytes = run_once(args.map, 1)
        single.append(t)
        t, pack_bytes = run_once(args.map, args.players)
        pack.append(t)
    t1, tn = statistics.median(single), statistics.median(pack)
    time_ratio, bytes_ratio = tn / t1, pack_bytes / single_bytes
    print(f"map {args.map}, A4, median of {args.repeats} runs (layout + PDF)")
    print(f"  1 player:    {t1 * 1000:8.1f} ms  {single_bytes:>9,} bytes")
    print(f"  {args.players} players: {tn * 1000:8.1f} ms  {pack_bytes:>9,} bytes")
    print(f"  time ratio  {time_ratio:5.2f}x (target <= {TIME_TARGET:g}x)")
    print(f"  bytes ratio {bytes_ratio:5.2f}x (target <= {BYTES_TARGET:g}x)")
    ok = time_ratio <= TIME_TARGET and bytes_ratio <= BYTES_TARGET
    print("  within target" if ok else "  OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
