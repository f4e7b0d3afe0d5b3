"""What a map sheet's QR code costs: printkit's encoder against segno's, the same codes, side by side.

    PYTHONPATH=$PWD python benchmarks/bench_qr.py [--rounds 15]

Each round encodes the 100 page payloads of a 100-player World pack (a layout
version as long as a real one) with segno's encoder and with printkit's
(``layout.qrfast``: the same modules), interleaved; the medians over the rounds
are printed per code with their ratio, and beside them what the code then costs
formatted as SVG. Target: printkit's encoder at most a quarter of segno's time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from printkit.backends.svg import cells_xml  # noqa: E402
from printkit.layout import marks  # noqa: E402
from printkit.layout.marks import qr_code, sheet_payload  # noqa: E402

TARGET = 0.25


def per_code_ms(work: object, payloads: list[str]) -> float:
    """Milliseconds per payload of ``work(payload)``."""
    start = time.perf_counter()
    for payload in payloads:
        work(payload)  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000 / len(payloads)


def main() -> int:
    """Measure, print the medians and the ratio, exit 1 if the target is missed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    args = parser.parse_args()
    encoder = marks._qr_encoder()
    payloads = [sheet_payload("world", "a4", "1.0123456789abcdef", page, "") for page in range(1, 101)]
    segno = lambda p: encoder.encode(p, "l", micro=False, boost_error=True)  # noqa: E731
    svg = lambda p: cells_xml.__wrapped__(qr_code(p, 487.89, 18.0, 40.0))  # noqa: E731 - not remembered
    times: dict[str, list[float]] = {"segno": [], "printkit": [], "printkit + SVG": []}
    for _ in range(args.rounds):
        times["segno"].append(per_code_ms(segno, payloads))
        times["printkit"].append(per_code_ms(marks.qr_modules, payloads))
        times["printkit + SVG"].append(per_code_ms(svg, payloads))
    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"QR code of a sheet ({marks.qr_modules(payloads[0])[1]} modules wide), medians of {args.rounds} rounds:")
    ratio = med["printkit"] / med["segno"]
    print(f"  segno.encoder.encode            {med['segno']:.3f} ms")
    print(f"  printkit (layout.qrfast)        {med['printkit']:.3f} ms   {ratio:.2f}x segno's   "
          f"target <= {TARGET}x   {'meets' if ratio <= TARGET else 'MISSES'}")
    print(f"  printkit, then SVG <rect>s      {med['printkit + SVG']:.3f} ms   (information, no target)")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
