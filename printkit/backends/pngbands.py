"""PNG encoding in bands: each band of rows is deflated on its own, so a page of a pack
reuses the compressed bands it shares with the picture it was drawn over.

The IDAT stream is a zlib header, the bands as raw deflate data (each from a
fresh compressor, ended by a sync flush: byte-aligned, not final), an empty
final block, and the Adler-32 of all the rows, combined from the bands'. Every
row has filter 0, so no row depends on another and a band's bytes depend only
on its own rows: the same pixels give the same bytes, in a pack or alone.
"""

from __future__ import annotations

import functools
import hashlib
import struct
import zlib
from collections.abc import Iterator
from typing import NamedTuple

BAND = 64  # rows deflated together (measured, docs/performance.md)
ZLIB_LEVEL = 3  # measured (docs/performance.md): twice as fast as 6, and smaller on map sheets
_MOD_ADLER = 65521


class Band(NamedTuple):
    """One band's raw deflate data, with the Adler-32 and length of its filtered rows."""

    data: bytes
    adler: int
    length: int


class Picture(NamedTuple):
    """A picture's size, its compressed bands and a digest of each band's pixel rows (not the rows themselves)."""

    width: int
    height: int
    stride: int
    bands: tuple[Band, ...]
    digests: tuple[bytes, ...]


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from the Adler-32 of each and the second's length."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % _MOD_ADLER
    b = (b1 + b2 + second_length * (a1 - 1)) % _MOD_ADLER
    return b << 16 | a


def _band(rgb: bytes | memoryview, row: int, stride: int, top: int, bottom: int) -> Band:
    raw = bytearray((bottom - top) * (row + 1))  # each row after its filter byte 0: none
    for y in range(top, bottom):
        at = (y - top) * (row + 1) + 1
        raw[at : at + row] = rgb[y * stride : y * stride + row]
    packer = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, -15)
    return Band(packer.compress(raw) + packer.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(raw), len(raw))


def _digest(rows: bytes | memoryview) -> bytes:
    """SHA-256 of a band's rows: two bands with the same digest hold the same bytes (no collision is known)."""
    return hashlib.sha256(rows).digest()


def _spans(height: int, stride: int) -> Iterator[tuple[int, int, slice]]:
    """Each band's index, first row and bytes (its rows with their padding)."""
    for index, top in enumerate(range(0, height, BAND)):
        yield index, top, slice(top * stride, min(top + BAND, height) * stride)


def picture(rgb: bytes | memoryview, width: int, height: int, stride: int) -> Picture:
    """The picture's compressed bands and their digests, to encode pictures drawn over it (the rows are not kept)."""
    digests = tuple(_digest(rgb[span]) for _, _, span in _spans(height, stride))
    return Picture(width, height, stride, bands(rgb, width, height, stride), digests)


def bands(rgb: bytes | memoryview, width: int, height: int, stride: int, like: Picture | None = None) -> tuple[Band, ...]:
    """The compressed bands of packed RGB rows; a band whose rows are the same as ``like``'s is taken from it."""
    if like is not None and (like.width, like.height, like.stride) != (width, height, stride):
        like = None
    out = []
    for index, top, span in _spans(height, stride):
        if like is not None and _digest(rgb[span]) == like.digests[index]:
            out.append(like.bands[index])
        else:
            out.append(_band(rgb, width * 3, stride, top, min(top + BAND, height)))
    return tuple(out)


def band_rows(like: Picture, index: int, current: bytes | memoryview) -> bytes:
    """Band ``index`` of ``like`` as packed rows again (inflated), with the padding of the ``current`` band's rows."""
    row, stride = like.width * 3, like.stride
    raw = zlib.decompressobj(-15).decompress(like.bands[index].data)
    parts: list[bytes] = []
    for k in range(len(raw) // (row + 1)):
        parts += (raw[k * (row + 1) + 1 : (k + 1) * (row + 1)], bytes(current[k * stride + row : (k + 1) * stride]))
    return b"".join(parts)


@functools.cache
def _ends() -> tuple[bytes, bytes]:
    """The zlib header zlib writes at ``ZLIB_LEVEL``, and an empty final deflate block."""
    return zlib.compressobj(ZLIB_LEVEL).flush()[:2], zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, -15).flush()


def idat(parts: tuple[Band, ...]) -> bytes:
    """A zlib stream of the bands: header, their deflate data, an empty final block, the combined Adler-32."""
    adler = 1  # of no bytes
    for band in parts:
        adler = adler32_combine(adler, band.adler, band.length)
    header, final = _ends()
    return b"".join((header, *(band.data for band in parts), final, struct.pack(">I", adler)))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_file(parts: tuple[Band, ...], width: int, height: int, dpi: int) -> bytes:
    """A truecolour PNG of the compressed bands, with the resolution and nothing else (no timestamps)."""
    ppm = round(dpi / 0.0254)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),
            _chunk(b"IDAT", idat(parts)),
            _chunk(b"IEND", b""),
        )
    )


def encode_png(rgb: bytes | memoryview, width: int, height: int, stride: int, dpi: int,
               like: Picture | None = None) -> bytes:  # fmt: skip
    """A truecolour PNG from packed RGB rows of ``stride`` bytes; bands the same as ``like``'s are not compressed again."""
    return png_file(bands(rgb, width, height, stride, like), width, height, dpi)
