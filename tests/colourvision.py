"""Colour as different eyes see it: Machado et al. (2009) dichromacy simulation and CIEDE2000 differences.

Written out here (numpy only) so the tests and ``tools/region_palette.py``
measure the same way without another dependency. The matrices are the
paper's severity 1.0 rows for protanopia, deuteranopia and tritanopia,
applied to linear sRGB as the paper does; CIEDE2000 follows Sharma, Wu and
Dalal (2005), whose test pairs ``tests/test_region_colours.py`` checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]

MACHADO: dict[str, Array] = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
"""Each vision's matrix on linear sRGB (Machado, Oliveira and Fernandes 2009, severity 1.0)."""
VISIONS = tuple(MACHADO)

_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                 [0.2126729, 0.7151522, 0.0721750],
                 [0.0193339, 0.1191920, 0.9503041]])
_WHITE = _XYZ @ np.ones(3)  # D65, Y = 1


def linear(rgb: Array) -> Array:
    """sRGB values 0..1 (any shape ending in 3) to linear light."""
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def encoded(lin: Array) -> Array:
    """Linear light to sRGB values 0..1."""
    lin = np.clip(lin, 0.0, 1.0)
    return np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)


def hex_rgb(colour: str) -> Array:
    """``#rrggbb`` as sRGB 0..1."""
    return np.array([int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)])


def seen(rgb: Array, vision: str) -> Array:
    """sRGB 0..1 as a person with ``vision`` sees it (sRGB 0..1)."""
    return encoded(linear(rgb) @ MACHADO[vision].T)


def lab(rgb: Array) -> Array:
    """sRGB 0..1 to CIELAB (D65)."""
    xyz = (linear(rgb) @ _XYZ.T) / _WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1: Array, lab2: Array) -> Any:
    """The CIEDE2000 difference of CIELAB colours (kL = kC = kH = 1): a float for two colours, an array for arrays
    of them (the last axis L, a, b; shapes broadcast)."""
    l1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    l2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p, h2p = np.degrees(np.arctan2(b1, a1p)) % 360, np.degrees(np.arctan2(b2, a2p)) % 360
    chroma = c1p * c2p != 0
    dh = h2p - h1p
    dh = np.where(chroma, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)), 0.0)
    dhh = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean, cp_mean, h_sum = (l1 + l2) / 2, (c1p + c2p) / 2, h1p + h2p
    h_mean = np.where(np.abs(h1p - h2p) <= 180, h_sum / 2, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2))
    h_mean = np.where(chroma, h_mean, h_sum)
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    rc = 2 * np.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    rt = -np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2)))) * rc
    dc = c2p - c1p
    out = np.sqrt(((l2 - l1) / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))
    return float(out) if np.ndim(out) == 0 else out


def difference(rgb1: Array, rgb2: Array, vision: str = "normal") -> float:
    """CIEDE2000 between two sRGB colours (0..1) as a person with ``vision`` sees them."""
    return float(ciede2000(lab(seen(rgb1, vision)), lab(seen(rgb2, vision))))


def least_difference(rgb1: Array, rgb2: Array) -> tuple[float, str]:
    """The smallest CIEDE2000 between two colours over normal vision and the three dichromacies, and its vision."""
    return min((difference(rgb1, rgb2, v), v) for v in VISIONS)
