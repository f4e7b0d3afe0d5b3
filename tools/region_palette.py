"""The map regions' grounds as every eye sees them: check the palette, or search for one by simulation.

    python tools/region_palette.py            # each pair of grounds: its least CIEDE2000 and for which vision
    python tools/region_palette.py --search   # search a palette as printkit's was chosen (a few minutes)

The grounds are ``printkit.sheets.mapregions.PALETTE``. A difference is
CIEDE2000 between two colours as seen with normal vision and with simulated
protanopia, deuteranopia and tritanopia (Machado 2009, ``tests/colourvision.py``);
a pair's figure is the least of the four. The search keeps each colour near one
hue (blue, orange, green, purple, rose, teal, olive: the regions' old order),
light (CIELAB L* 76-95) and soft (chroma 10-30), and moves the worst pair's
colours apart until no move helps, from several seeded starts.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the colour science lives with the tests that use it

import colourvision as cv  # noqa: E402

from printkit.sheets.mapregions import PALETTE  # noqa: E402

HUES = (262.0, 70.0, 137.0, 311.0, 8.0, 192.0, 101.0)
"""The hue angle (CIELAB, degrees) each colour stays within ``WINDOW`` of."""
WINDOW = 20.0


def hexed(rgb: np.ndarray) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in rgb)


def report(fills: list[str]) -> float:
    """Print each pair's least difference; return the least of all."""
    rgb = [cv.hex_rgb(f) for f in fills]
    rows = []
    for (i, a), (j, b) in itertools.combinations(enumerate(rgb), 2):
        least, vision = cv.least_difference(a, b)
        rows.append((least, fills[i], fills[j], vision))
    for least, a, b, vision in sorted(rows):
        print(f"{a} {b}  {least:5.1f}  ({vision})")
    for f, c in zip(fills, rgb):
        lab = cv.lab(c)
        print(f"{f}  L* {lab[0]:4.1f}  chroma {np.hypot(lab[1], lab[2]):4.1f}")
    return min(r[0] for r in rows)


def search(seed: int, starts: int) -> list[str]:
    """A palette found as printkit's was: the best of ``starts`` climbs from random colours."""
    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 1, 60)
    rgb = np.array(list(itertools.product(grid, grid, grid)))
    lab = cv.lab(rgb)
    chroma, hue = np.hypot(lab[:, 1], lab[:, 2]), np.degrees(np.arctan2(lab[:, 2], lab[:, 1])) % 360
    keep = (lab[:, 0] >= 76) & (lab[:, 0] <= 95) & (chroma >= 10) & (chroma <= 30)
    slots = [np.nonzero(keep & (np.abs((hue - h + 180) % 360 - 180) <= WINDOW))[0] for h in HUES]
    seen = np.stack([cv.lab(cv.seen(rgb, v)) for v in cv.VISIONS])

    def apart(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The least difference over the visions between each of ``a`` and each of ``b`` (indices)."""
        return np.asarray(cv.ciede2000(seen[:, a][:, :, None, :], seen[:, b][:, None, :, :])).min(axis=0)

    best: tuple[float, list[int]] | None = None
    for _ in range(starts):
        pick = [int(rng.choice(s)) for s in slots]
        while True:
            d = apart(np.array(pick), np.array(pick))
            np.fill_diagonal(d, np.inf)
            worst = float(d.min())
            for k in np.unravel_index(d.argmin(), d.shape):
                others = np.array([p for n, p in enumerate(pick) if n != k])
                gain = apart(slots[k], others).min(axis=1)
                if gain.max() > worst + 1e-6:
                    pick[k] = int(slots[k][gain.argmax()])
                    break
            else:
                break
        if best is None or worst > best[0]:
            best = (worst, pick)
    assert best is not None
    return [hexed(rgb[k]) for k in best[1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--search", action="store_true", help="search a palette instead of checking printkit's")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--starts", type=int, default=8)
    args = parser.parse_args()
    fills = search(args.seed, args.starts) if args.search else [fill for fill, _ in PALETTE]
    print(f"least difference of any two grounds, any vision: {report(fills):.2f}")


if __name__ == "__main__":
    main()
