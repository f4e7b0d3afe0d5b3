"""PNG encoding in bands: a valid zlib stream, the same pixels, and bands reused only where the rows are the same."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from printkit import registry
from printkit.backends import pngbands
from printkit.backends.pdf import render_pdf
from printkit.backends.png import rasterise
from printkit.backends.pngbands import Picture, adler32_combine, bands, encode_png


def idat(png: bytes) -> bytes:
    """The PNG's IDAT data, its chunks' CRCs checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, out = 8, b""
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 4 : pos + 8 + size]
        assert struct.unpack(">I", png[pos + 8 + size : pos + 12 + size])[0] == zlib.crc32(body)
        out += body[4:] if kind == b"IDAT" else b""
        pos += 12 + size
    return out


def rows(rgb: bytes, width: int, height: int, stride: int) -> bytes:
    """The rows as the PNG holds them: a filter byte 0 before each."""
    return b"".join(b"\x00" + rgb[y * stride : y * stride + width * 3] for y in range(height))


def test_adler32_combine_is_the_adler32_of_the_joined_bytes() -> None:
    rng = random.Random(5)
    data = rng.randbytes(200_000) + b"\xff" * 70_000  # longer than the modulus, and sums that wrap
    for cut in (0, 1, 65_520, 65_521, 65_522, 131_042, 199_999, 270_000, *rng.sample(range(len(data)), 20)):
        first, second = data[:cut], data[cut:]
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(data)


def picture(rng: random.Random, width: int, height: int, stride: int) -> bytearray:
    """Rows of a few colours in runs (so they compress), with junk in the padding."""
    rgb = bytearray(rng.randbytes(stride * height))
    for y in range(height):
        for x in range(0, width, 5):
            rgb[y * stride + x * 3 : y * stride + x * 3 + 15] = bytes(rng.choice((0, 128, 255)) for _ in range(3)) * 5
    return rgb[: stride * height]


@pytest.mark.parametrize("height", [1, 7, 8, 9, 23])
def test_bands_decode_to_the_rows(monkeypatch: pytest.MonkeyPatch, height: int) -> None:
    monkeypatch.setattr(pngbands, "BAND", 8)
    width, stride = 13, 13 * 3 + 2
    rgb = bytes(picture(random.Random(height), width, height, stride))
    data = encode_png(rgb, width, height, stride, 150)
    assert zlib.decompress(idat(data)) == rows(rgb, width, height, stride)  # the header, the final block and Adler-32
    image = Image.open(io.BytesIO(data))
    image.verify()
    assert len(bands(rgb, width, height, stride)) == -(-height // 8)
    assert encode_png(rgb, width, height, stride, 150) == data  # reproducible


@pytest.mark.parametrize("changed", [17 * 64 + 3 * 3, 17 * 64 + 61])  # a pixel of row 17, or its padding
def test_a_band_is_compressed_again_only_where_its_rows_differ(monkeypatch: pytest.MonkeyPatch, changed: int) -> None:
    monkeypatch.setattr(pngbands, "BAND", 8)
    width, height, stride = 20, 30, 64
    ground = picture(random.Random(1), width, height, stride)
    like = pngbands.picture(ground, width, height, stride)
    assert like.bands == bands(ground, width, height, stride)  # its pixels are not kept, only their digests
    page = bytearray(ground)
    page[changed] ^= 0xFF  # the third band of four
    compressed = []
    real = pngbands._band
    monkeypatch.setattr(pngbands, "_band", lambda *a: compressed.append(a[3]) or real(*a))
    data = encode_png(page, width, height, stride, 72, like)
    assert compressed == [16]
    assert data == encode_png(page, width, height, stride, 72)  # the same bytes as encoding it alone
    assert zlib.decompress(idat(data)) == rows(bytes(page), width, height, stride)
    other = Picture(width, height - 1, stride, like.bands, like.digests)  # another size: nothing taken from it
    compressed.clear()
    encode_png(page, width, height, stride, 72, other)
    assert compressed == [0, 8, 16, 24]


def test_a_band_inflated_again_is_its_rows_with_the_padding_kept() -> None:
    width, height, stride = 20, 30, 64
    ground = picture(random.Random(2), width, height, stride)
    like = pngbands.picture(ground, width, height, stride)
    page = bytearray(picture(random.Random(3), width, height, stride))  # other pixels, other padding
    for index, top in enumerate(range(0, height, pngbands.BAND)):
        span = slice(top * stride, min(top + pngbands.BAND, height) * stride)
        back = pngbands.band_rows(like, index, page[span])
        assert len(back) == span.stop - span.start
        for y in range(top, span.stop // stride):
            at = (y - top) * stride
            assert back[at : at + width * 3] == ground[y * stride : y * stride + width * 3]  # the ground's pixels
            assert back[at + width * 3 : at + stride] == page[y * stride + width * 3 : (y + 1) * stride]


def test_a_map_page_decodes_to_its_pixels() -> None:
    doc = registry.build_sheet("map", "world", ["Ann"], "a4").document
    rgb, width, height, stride = next(rasterise(render_pdf(doc), 150))
    data = encode_png(rgb, width, height, stride, 150)
    assert zlib.decompress(idat(data)) == rows(rgb, width, height, stride)
    image = Image.open(io.BytesIO(data))
    assert (image.size, image.mode) == ((width, height), "RGB")
    assert image.tobytes() == b"".join(rgb[y * stride : y * stride + width * 3] for y in range(height))
    assert image.info["dpi"] == pytest.approx((150, 150), abs=0.02)  # whole pixels a metre
