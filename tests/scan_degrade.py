"""A copier or a phone camera, simulated: what a clean rendered page looks like once photographed or scanned."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from printkit.scan.images import Image


@dataclass(frozen=True)
class Capture:
    """How a page is captured: resolution, rotation, tilt, blur, light, noise and JPEG quality (0 = PNG)."""

    dpi: int = 200
    rotation: float = 0.0
    tilt: float = 0.0
    blur: float = 0.0
    light: float = 0.0
    shadow: float = 0.0
    noise: float = 0.0
    jpeg: int = 0

    @staticmethod
    def random(rng: random.Random, dpi: int | None = None) -> Capture:
        """A random capture within the benchmark's bounds (rotation <= 10 deg, tilt <= 20 deg, JPEG 40-90)."""
        return Capture(
            dpi=dpi or rng.choice((150, 200, 300)), rotation=rng.uniform(-10, 10) + rng.choice((0, 0, 0, 180)),
            tilt=rng.uniform(0, 20), blur=rng.uniform(0, 1.2), light=rng.uniform(0, 0.35),
            shadow=rng.uniform(0, 0.4), noise=rng.uniform(0, 6), jpeg=rng.randint(40, 90),
        )


def _corners(w: float, h: float, c: Capture, rng: random.Random) -> Image:
    """Where the page's corners land: rotated about the centre, one edge pulled in by the tilt."""
    import numpy as np

    pull = math.sin(math.radians(c.tilt)) * 0.3
    side = rng.randrange(4)
    pts = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
    a, b = pts[side], pts[(side + 1) % 4]
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    a[0], a[1] = ax + (bx - ax) * pull / 2, ay + (by - ay) * pull / 2
    b[0], b[1] = bx + (ax - bx) * pull / 2, by + (ay - by) * pull / 2
    t = math.radians(c.rotation)
    cx, cy = w / 2, h / 2
    out = [[cx + (x - cx) * math.cos(t) - (y - cy) * math.sin(t), cy + (x - cx) * math.sin(t) + (y - cy) * math.cos(t)]
           for x, y in pts]
    return np.array(out, dtype=np.float32)


def _shade(size: tuple[int, int], c: Capture, rng: random.Random) -> Image:
    """The light falling on the page (1 = full), on a coarse grid: a ramp across it and a soft shadow."""
    import numpy as np

    w, h = max(2, size[0] // 8), max(2, size[1] // 8)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, math.tau)
    ramp = (xs * math.cos(angle) + ys * math.sin(angle)) / max(w, h)
    shade = 1.0 - c.light * (ramp - ramp.min())
    if c.shadow:
        edge = rng.uniform(0.3, 0.7) * w
        shade *= 1.0 - c.shadow / (1.0 + np.exp(-(xs - edge) / (0.02 * w)))
    out: Image = shade.astype(np.float32)
    return out


def capture(page: Image, page_dpi: float, c: Capture, rng: random.Random) -> bytes:
    """The page as the encoded file a scanner or phone would give (JPEG, or PNG when ``c.jpeg`` is 0)."""
    import cv2
    import numpy as np

    f = c.dpi / page_dpi
    small = cv2.resize(page, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    dst = _corners(w, h, c, rng)
    pad = 0.12 * max(w, h)
    dst += np.array([pad - dst[:, 0].min() + rng.uniform(0, pad * 0.3), pad - dst[:, 1].min()], dtype=np.float32)
    size = (int(dst[:, 0].max() + pad), int(dst[:, 1].max() + pad))
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32), dst)
    shot = cv2.warpPerspective(small, m, size, flags=cv2.INTER_LINEAR, borderValue=(70, 80, 90))
    shade = cv2.resize(_shade(size, c, rng), size, interpolation=cv2.INTER_LINEAR)
    lit = shot.astype(np.float32) * shade[..., None]
    blurred: Image = cv2.GaussianBlur(lit, (0, 0), c.blur * c.dpi / 150) if c.blur else lit
    if c.noise:
        blurred += np.random.default_rng(rng.randrange(2**32)).standard_normal(blurred.shape, dtype=np.float32) * c.noise
    out = np.clip(blurred, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, c.jpeg]) if c.jpeg else cv2.imencode(".png", out)
    assert ok
    return bytes(data.tobytes())
