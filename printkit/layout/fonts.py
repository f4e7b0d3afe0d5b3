"""The embedded sheet font (Open Sans, Apache-2.0) and its exact metrics.

Widths come straight from the shipped TrueType files (``cmap`` formats 4 and
12, ``hmtx``, ``hhea``, ``head``), parsed here in pure Python with ``struct``
so layout code can measure text without importing a PDF library. Kerning is
not applied (the PDF backend does not kern either).
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from printkit.errors import DataError
from printkit.layout.primitives import FontWeight
from printkit.resources import asset

FAMILY = "'Open Sans', 'DejaVu Sans', 'Noto Sans', Arial, Helvetica, sans-serif"
"""CSS font-family for SVG output: the embedded face first, then fallbacks."""

NAME = "Open Sans"
"""Family name of the embedded face."""

_FILES: dict[str, str] = {"regular": "OpenSans-Regular.ttf", "bold": "OpenSans-Bold.ttf"}


class FontMetrics(NamedTuple):
    """What layout needs from one TrueType file, in font units."""

    units_per_em: int
    ascender: int
    descender: int
    line_gap: int
    advances: tuple[int, ...]
    cmap: dict[int, int]

    def glyph(self, char: str) -> int:
        """Glyph index for a character (0, the .notdef box, when missing)."""
        return self.cmap.get(ord(char), 0)

    def advance(self, char: str) -> int:
        """Advance width of a character in font units."""
        gid = self.glyph(char)
        if gid < len(self.advances):
            return self.advances[gid]
        return self.advances[-1]


def font_file(weight: FontWeight = "regular") -> Path:
    """The shipped TrueType file for ``weight`` ("regular" or "bold")."""
    try:
        name = _FILES[weight]
    except KeyError:
        raise ValueError(f"unknown font weight {weight!r}: expected regular or bold") from None
    return asset("fonts", name)


def _tables(data: bytes, source: str) -> dict[str, tuple[int, int]]:
    """Offset and length of each table in a TrueType file."""
    if len(data) < 12:
        raise DataError([f"{source}: not a TrueType font (file too short)"])
    version, num_tables = struct.unpack_from(">IH", data, 0)
    if version not in (0x00010000, 0x74727565):
        raise DataError([f"{source}: not a TrueType font (sfnt version {version:#010x})"])
    tables: dict[str, tuple[int, int]] = {}
    for i in range(num_tables):
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag.decode("latin-1")] = (offset, length)
    for needed in ("head", "hhea", "hmtx", "cmap", "maxp"):
        if needed not in tables:
            raise DataError([f"{source}: TrueType font has no {needed!r} table"])
    return tables


def _cmap_format4(data: bytes, off: int) -> dict[int, int]:
    """Decode a cmap format 4 subtable (BMP segments)."""
    seg_x2 = struct.unpack_from(">H", data, off + 6)[0]
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", data, off + 14)
    starts = struct.unpack_from(f">{segs}H", data, off + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}h", data, off + 16 + 2 * seg_x2)
    range_off_pos = off + 16 + 3 * seg_x2
    range_offs = struct.unpack_from(f">{segs}H", data, range_off_pos)
    out: dict[int, int] = {}
    for i in range(segs):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if range_offs[i] == 0:
                gid = (code + deltas[i]) & 0xFFFF
            else:
                pos = range_off_pos + 2 * i + range_offs[i] + 2 * (code - starts[i])
                gid = struct.unpack_from(">H", data, pos)[0]
                if gid:
                    gid = (gid + deltas[i]) & 0xFFFF
            if gid:
                out[code] = gid
    return out


def _cmap_format12(data: bytes, off: int) -> dict[int, int]:
    """Decode a cmap format 12 subtable (segmented coverage, full Unicode)."""
    n_groups = struct.unpack_from(">I", data, off + 12)[0]
    out: dict[int, int] = {}
    for g in range(n_groups):
        start, end, gid0 = struct.unpack_from(">III", data, off + 16 + 12 * g)
        for code in range(start, end + 1):
            out[code] = gid0 + code - start
    return out


def _cmap(data: bytes, off: int, source: str) -> dict[int, int]:
    """The best Unicode mapping of the cmap table (format 12 preferred over 4)."""
    num = struct.unpack_from(">H", data, off + 2)[0]
    best: tuple[int, int] | None = None  # (rank, subtable offset)
    for i in range(num):
        plat, enc, sub = struct.unpack_from(">HHI", data, off + 4 + 8 * i)
        fmt = struct.unpack_from(">H", data, off + sub)[0]
        unicode = plat == 0 or (plat == 3 and enc in (1, 10))
        if not unicode or fmt not in (4, 12):
            continue
        rank = 2 if fmt == 12 else 1
        if best is None or rank > best[0]:
            best = (rank, off + sub)
    if best is None:
        raise DataError([f"{source}: cmap: no Unicode subtable of format 4 or 12"])
    if best[0] == 2:
        return _cmap_format12(data, best[1])
    return _cmap_format4(data, best[1])


def parse_metrics(data: bytes, source: str = "<font>") -> FontMetrics:
    """Read units per em, vertical metrics, advances and cmap from TTF bytes."""
    try:
        tables = _tables(data, source)
        head = tables["head"][0]
        units_per_em = struct.unpack_from(">H", data, head + 18)[0]
        hhea = tables["hhea"][0]
        ascender, descender, line_gap = struct.unpack_from(">hhh", data, hhea + 4)
        n_hmetrics = struct.unpack_from(">H", data, hhea + 34)[0]
        hmtx = tables["hmtx"][0]
        # hmtx holds (advance, lsb) pairs; take every other value.
        pairs = struct.unpack_from(f">{2 * n_hmetrics}H", data, hmtx)
        advances = pairs[0::2]
        cmap = _cmap(data, tables["cmap"][0], source)
    except struct.error as exc:
        raise DataError([f"{source}: truncated TrueType table ({exc})"]) from None
    return FontMetrics(units_per_em, ascender, descender, line_gap, tuple(advances), cmap)


@lru_cache(maxsize=None)
def metrics(weight: FontWeight = "regular") -> FontMetrics:
    """Parsed metrics of the shipped font for ``weight`` (read once, cached)."""
    path = font_file(weight)
    return parse_metrics(path.read_bytes(), str(path))


def text_width(text: str, size: float, weight: FontWeight = "regular") -> float:
    """Width in points of ``text`` set at ``size`` points (advance widths, no kerning)."""
    m = metrics(weight)
    return _units(text, weight) * size / m.units_per_em


@lru_cache(maxsize=8192)
def _units(text: str, weight: FontWeight) -> int:
    """Summed advance widths of ``text`` in font units (layout asks for the same strings often)."""
    m = metrics(weight)
    return sum(m.advance(ch) for ch in text)


def ascent(size: float, weight: FontWeight = "regular") -> float:
    """Height above the baseline in points at ``size`` (hhea ascender)."""
    m = metrics(weight)
    return m.ascender * size / m.units_per_em


def descent(size: float, weight: FontWeight = "regular") -> float:
    """Depth below the baseline in points at ``size``, as a positive number."""
    m = metrics(weight)
    return -m.descender * size / m.units_per_em


@lru_cache(maxsize=16384)
def missing_glyphs(text: str, weight: FontWeight = "regular") -> str:
    """The distinct characters of ``text`` the font has no glyph for, in order (cached per string)."""
    m = metrics(weight)
    seen: list[str] = []
    for ch in text:
        if ch in "\n\t":
            continue
        if ord(ch) not in m.cmap and ch not in seen:
            seen.append(ch)
    return "".join(seen)


def fit_size(text: str, max_width: float, size: float, weight: FontWeight = "regular",
             min_size: float = 5.0) -> float:
    """The largest size <= ``size`` (not below ``min_size``) at which ``text`` fits."""
    width = text_width(text, size, weight)
    if width <= max_width or width == 0:
        return size
    return max(min_size, size * max_width / width)
