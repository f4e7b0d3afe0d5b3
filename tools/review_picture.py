"""Make the README's review-overlay picture (docs/img/scan-review.png) from the current sheet layout.

    python tools/review_picture.py

A World sheet for "Cy" is filled with the simulated pen (a trail Cape Town -
Perth, two Collect marks, Nature marked with a gap so the row is unsure), then
photographed with the simulated camera and scanned with ``printkit scan --review``.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import scan_simulate as sim  # noqa: E402
from scan_helpers import photo  # noqa: E402

from printkit.cli import cli  # noqa: E402


def main() -> int:
    """Render, fill, photograph and scan one sheet; copy its overlay to docs/img."""
    filled = sim.Filled(boxes=("souvenirs.mugs.1", "souvenirs.textiles.1", "sights.nature.1", "sights.nature.3"),
                        routes=("cape-town-perth",), start="cape-town")
    with tempfile.TemporaryDirectory() as tmp:
        shot = Path(tmp) / "cy.jpg"
        shot.write_bytes(photo("world", "a4", ("Cy",), 0, filled, seed=random.Random(4).randrange(1000)))
        result = CliRunner().invoke(cli, ["scan", str(shot), "--review", tmp, "--accept"])
        print(result.output, file=sys.stderr)
        overlays = sorted(Path(tmp).glob("*.png"))
        if not overlays:
            return 1
        from PIL import Image

        picture = Image.open(overlays[0]).convert("RGB")  # 1300 px wide: small enough for a README
        picture = picture.resize((1300, round(picture.height * 1300 / picture.width)), Image.Resampling.LANCZOS)
        picture.save(ROOT / "docs" / "img" / "scan-review.png", optimize=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
