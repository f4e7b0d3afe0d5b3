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
    warm: float = 0.0
    """Warm light: blue dimmed by this share, green by half of it."""
    hand: float = 0.0
    """A hand's shadow: a soft blob over part of the page, this much darker at its middle."""
    fold: float = 0.0
    """Points: a fold across the page at ``fold_at`` (share of its height) moves the page below it up this much."""
    fold_at: float = 0.7
    cut: float = 0.0
    """Share of the page's width: the picture's edge cuts this far into the page at its rightmost corner."""
    table: bool = False
    """A textured table round the page (else a plain grey one)."""
    onebit: bool = False
    """A 1-bit copier: background removed, then ordered dithering (greys become dots)."""

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
    if c.hand:
        hx, hy, r = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, rng.uniform(0.15, 0.3) * w
        d = np.hypot((xs - hx) / 1.6, ys - hy) / r
        shade *= 1.0 - c.hand / (1.0 + np.exp((d - 1.0) * 6.0))
    out: Image = shade.astype(np.float32)
    return out


def capture(page: Image, page_dpi: float, c: Capture, rng: random.Random) -> bytes:
    """The page as the encoded file a scanner or phone would give (JPEG, or PNG when ``c.jpeg`` is 0)."""
    import cv2
    import numpy as np

    f = c.dpi / page_dpi
    small = cv2.resize(page, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    if c.fold:
        small = _fold(small, c.fold * c.dpi / 72, c.fold_at)
    h, w = small.shape[:2]
    dst = _corners(w, h, c, rng)
    pad = 0.12 * max(w, h)
    dst += np.array([pad - dst[:, 0].min() + rng.uniform(0, pad * 0.3), pad - dst[:, 1].min()], dtype=np.float32)
    size = (int(dst[:, 0].max() + pad), int(dst[:, 1].max() + pad))
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32), dst)
    shot = cv2.warpPerspective(small, m, size, flags=cv2.INTER_LINEAR, borderValue=(70, 80, 90))
    if c.table:
        inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size, flags=cv2.INTER_NEAREST) > 0
        shot[~inside] = _texture(size, rng)[~inside]
    shade = cv2.resize(_shade(size, c, rng), size, interpolation=cv2.INTER_LINEAR)
    lit = shot.astype(np.float32) * shade[..., None]
    if c.warm:
        lit *= np.array([1 - c.warm, 1 - c.warm / 2, 1.0], np.float32)
    blurred: Image = cv2.GaussianBlur(lit, (0, 0), c.blur * c.dpi / 150) if c.blur else lit
    if c.noise:
        blurred += np.random.default_rng(rng.randrange(2**32)).standard_normal(blurred.shape, dtype=np.float32) * c.noise
    out = np.clip(blurred, 0, 255).astype(np.uint8)
    if c.cut:
        right = float(dst[:, 0].max())
        out = out[:, :max(1, int(right - c.cut * w))].copy()
    if c.onebit:
        out = _dither(out)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, c.jpeg]) if c.jpeg else cv2.imencode(".png", out)
    assert ok
    return bytes(data.tobytes())


def _fold(page: Image, d: float, at: float) -> Image:
    """The page with a fold across it: everything below the crease moved up ``d`` pixels, the crease shaded."""
    import cv2
    import numpy as np

    h, w = page.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    y0 = at * h
    step = 1.0 / (1.0 + np.exp(np.clip(-(ys - y0) / max(1.0, d / 3), -50, 50)))
    out = cv2.remap(page, xs, ys + d * step, cv2.INTER_LINEAR, borderValue=(255, 255, 255)).astype(np.float32)
    crease = 1.0 - 0.25 * np.exp(-((ys - y0) / max(1.0, d / 4)) ** 2) - 0.06 * step
    folded: Image = np.clip(out * crease[..., None], 0, 255).astype(np.uint8)
    return folded


def _texture(size: tuple[int, int], rng: random.Random) -> Image:
    """A wood-like table: grain along one direction, blotches, noise."""
    import cv2
    import numpy as np

    g = np.random.default_rng(rng.randrange(2**32))
    w, h = size
    grain = cv2.resize(g.standard_normal((max(2, h // 3), max(2, w // 60))).astype(np.float32), (w, h))
    spots = cv2.resize(g.standard_normal((max(2, h // 40), max(2, w // 40))).astype(np.float32), (w, h))
    base = 110 + 25 * grain + 15 * spots + g.standard_normal((h, w)).astype(np.float32) * 6
    wood = np.stack([base * 0.55, base * 0.75, base], axis=-1)
    out: Image = np.clip(wood, 0, 255).astype(np.uint8)
    return out


def _dither(image: Image) -> Image:
    """A 1-bit copy: greys at or above 230 are paper, the rest dithered by a 4 x 4 Bayer matrix."""
    import cv2
    import numpy as np

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    level = np.clip(gray * 255.0 / 230.0, 0, 255)
    bayer = (np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]], np.float32) + 0.5) * 16
    h, w = gray.shape
    tiles = np.tile(bayer, (h // 4 + 1, w // 4 + 1))[:h, :w]
    bits = np.where(level > tiles, 255, 0).astype(np.uint8)
    out: Image = cv2.cvtColor(bits, cv2.COLOR_GRAY2BGR)
    return out
