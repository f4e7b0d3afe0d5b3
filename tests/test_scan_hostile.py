"""`printkit scan` on hostile inputs: decompression bombs, a huge PDF page, pipes and devices, warnings.

Every bomb is made here, small on disk; one real process (a timeout, an
address-space limit so a regression cannot exhaust the machine) scans them
all and reports its peak memory."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pypdf
import pytest
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, TextStringObject

from printkit.scan.images import MAX_FILE_BYTES, decode_image, image_size

CHILD = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
    from printkit.cli import cli
    try:
        cli.main(["scan", *sys.argv[2:]], prog_name="printkit")
        code = 0
    except SystemExit as exc:
        code = exc.code
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:  # Linux: ru_maxrss keeps the parent's size across exec; this process's own peak is VmHWM
        with open("/proc/self/status") as f:
            peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except OSError:
        pass
    with open(sys.argv[1], "w") as f:
        json.dump({"code": code, "peak_kib": peak}, f)
""")
PEAK_MIB = 400  # python, OpenCV and numpy loaded; a 30000 x 30000 image decoded would be 2575 MiB


def _chunk(kind: bytes, body: bytes, crc: int | None = None) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) if crc is None else crc)


def png_bomb(side: int = 30000) -> bytes:
    """A 1-bit grey PNG of side x side pixels (2.7 GB once decoded to colour), about 110 KB."""
    row = b"\x00" * (1 + (side + 7) // 8)
    z = zlib.compressobj(9)
    body = b"".join(z.compress(row * 1000) for _ in range(side // 1000)) + z.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", body) + _chunk(b"IEND", b"")


def jpeg_bomb(side: int = 65000) -> bytes:
    """A 64 x 64 JPEG whose frame header says side x side (too big even at 1/8)."""
    data = bytearray(cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))[1].tobytes())
    at = data.index(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", side, side)
    return bytes(data)


def warning_png() -> bytes:
    """A small white PNG with a text chunk whose checksum is wrong: libpng warns about it on stderr."""
    data = cv2.imencode(".png", np.full((50, 50, 3), 255, np.uint8))[1].tobytes()
    return data[:33] + _chunk(b"tEXt", b"Comment\x00hello", crc=1) + data[33:]


def pdf_bomb(form: bool) -> bytes:
    """A PDF of one 200000 x 200000 pt page (a form page naming a sheet if ``form``), under 1 KB."""
    writer = pypdf.PdfWriter()
    writer.add_blank_page(200000, 200000)
    if form:
        writer.add_annotation(0, DictionaryObject({
            NameObject("/Subtype"): NameObject("/Widget"), NameObject("/T"): TextStringObject("sheet"),
            NameObject("/V"): TextStringObject("pk1|world|a4|1.0|1|Ann"),
            NameObject("/Rect"): ArrayObject([NumberObject(0)] * 4)}))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object], str, float]:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "bomb.png").write_bytes(png_bomb())
    (folder / "bomb.jpg").write_bytes(jpeg_bomb())
    (folder / "bomb.pdf").write_bytes(pdf_bomb(form=False))
    (folder / "form.pdf").write_bytes(pdf_bomb(form=True))
    (folder / "warn.png").write_bytes(warning_png())
    os.mkfifo(folder / "fifo.png")
    (folder / "zero.png").symlink_to("/dev/zero")
    with open(folder / "huge.jpg", "wb") as f:  # sparse: no disk used
        f.truncate(MAX_FILE_BYTES + 44 * 2**20)
    report = folder / "report.json"
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, str(report), str(folder), "/dev/zero"],
                          capture_output=True, text=True, timeout=60)
    took = time.monotonic() - start
    assert done.stdout == ""
    return folder, json.loads(report.read_text()), done.stderr, took


def test_every_bomb_is_one_line_from_its_header(hostile: tuple[Path, dict[str, object], str, float]) -> None:
    folder, report, err, _ = hostile
    assert report["code"] == 1
    assert err.splitlines() == [
        f"Error: {folder}/bomb.jpg: the image is 65000 x 65000 pixels (4225 megapixels), more than the 60 "
        "megapixels scan decodes",
        f"Error: {folder}/bomb.pdf: page 1: the page is 200000 x 200000 pt, 308642 megapixels at 200 dpi, more "
        "than the 60 megapixels scan draws (not a sheet's page)",
        f"Error: {folder}/bomb.png: the image is 30000 x 30000 pixels (900 megapixels), more than the 60 megapixels "
        "scan decodes: save it smaller, or as a JPEG",
        f"Error: {folder}/fifo.png: not a regular file (a folder, pipe or device?): give an image or PDF file",
        f"Error: {folder}/form.pdf: page 1: the page is 200000 x 200000 pt, 250000 megapixels at 180 dpi, more "
        "than the 60 megapixels scan draws (not a sheet's page)",
        f"Error: {folder}/huge.jpg: the file is 300 MiB, more than the 256 MiB scan reads",
        f"Error: {folder}/warn.png: no printkit map sheet found (found 0 of its 4 corner markers; are all four "
        "corners in the picture, sharp and not in shadow?)",  # and not libpng's warning about its chunk
        f"Error: {folder}/zero.png: not a regular file (a folder, pipe or device?): give an image or PDF file",
        "Error: /dev/zero: not a regular file (a folder, pipe or device?): give an image or PDF file",
    ]


def test_the_bombs_take_little_memory_and_time(hostile: tuple[Path, dict[str, object], str, float]) -> None:
    folder, report, _, took = hostile
    assert int(str(report["peak_kib"])) < PEAK_MIB * 1024
    assert took < 30
    assert (folder / "fifo.png").is_fifo() and (folder / "zero.png").is_symlink()


def test_the_headers_are_read_without_decoding() -> None:
    assert image_size(png_bomb(3000)) == ("png", 3000, 3000)
    assert image_size(jpeg_bomb()) == ("jpeg", 65000, 65000)
    assert image_size(b"GIF89a...") is None


def test_a_big_jpeg_is_decoded_smaller_not_refused() -> None:
    # a 108-megapixel phone photo: libjpeg decodes it at half size straight away
    photo = cv2.imencode(".jpg", np.full((9000, 12000, 3), 200, np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 50])[1]
    image = decode_image(photo.tobytes())
    assert image is not None and image.shape == (4500, 6000, 3)


def test_a_jpeg_cut_short_is_not_decoded_by_any_opencv() -> None:
    # OpenCV 4.8 decodes a truncated JPEG (grey where the data stopped), 5.x refuses it: scan refuses it under both,
    # and a thumbnail's own end marker (in an EXIF segment before the image) does not make a cut file look whole
    image = np.random.default_rng(3).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    for progressive in (0, 1):
        ok, coded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_PROGRESSIVE, progressive])
        assert ok
        thumb = b"Exif\x00\x00" + b"\xff\xd8" + bytes(40) + b"\xff\xd9"
        data = coded.tobytes()[:2] + b"\xff\xe1" + struct.pack(">H", len(thumb) + 2) + thumb + coded.tobytes()[2:]
        got = decode_image(data)
        assert got is not None and got.shape == image.shape
        for cut in (len(data) * 3 // 4, len(data) - 2):
            assert decode_image(data[:cut]) is None, (progressive, cut)
