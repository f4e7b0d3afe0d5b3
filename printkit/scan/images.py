"""Pages to read: PNG/JPEG files, PDFs of scanned pages (one sheet a page), folders of them.

Every input is bounded before anything big is allocated: only regular files
are opened (a pipe, a device or a link to one is refused from ``stat``), a file
holds at most :data:`MAX_FILE_BYTES`, an image at most :data:`MAX_PIXELS`
(read from the PNG or JPEG header before decoding), and a PDF page at most as
many pixels at :data:`PDF_DPI` (read from its page box before drawing).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printkit.errors import PrintkitError
from printkit.model.names import printable

if TYPE_CHECKING:
    from cv2.typing import MatLike

    from printkit.loading.text import FileProblem

    Image = MatLike
    """An OpenCV image (a numpy array: BGR, or one channel)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
PDF_DPI = 200
"""Resolution a scanned PDF's pages are rasterised at."""
MAX_PIXELS = 60_000_000
"""The most pixels a page is decoded to (a 60 megapixel photo; an A4 sheet at 200 dpi is 3.9)."""
MAX_FILE_BYTES = 256 * 2**20
"""The largest file read (256 MiB: a 60-page PDF of photographed sheets is about 30)."""
MAX_PDF_PAGES = 1000
"""The most pages read from one PDF."""
SMALL_OTHER = 2 * 2**20
"""An image neither PNG nor JPEG (no header read here) is decoded only when its file is at most this big."""
PATH_SHOWN = 240
"""Characters of a file name shown in a message."""


class ScanError(PrintkitError):
    """One page cannot be read (the message names the file and page)."""


def shown_file(path: str | os.PathLike[str]) -> str:
    """A file name as messages show it: control characters escaped (no terminal escapes), shortened."""
    return printable(os.fspath(path), PATH_SHOWN)


@dataclass(frozen=True)
class PageSource:
    """Where a page came from: its file, and its page number in a PDF (1-based, 0 for an image file)."""

    path: Path
    page: int = 0

    def __str__(self) -> str:
        return f"{shown_file(self.path)}: page {self.page}" if self.page else shown_file(self.path)


def expand(paths: list[str]) -> list[Path]:
    """Files to read: each file given, and the images and PDFs in each folder given (sorted by name)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out += sorted(f for f in p.iterdir() if f.suffix.lower() in (*IMAGE_SUFFIXES, ".pdf"))
        else:
            out.append(p)
    return out


_SILENT = threading.Lock()
_USERS: dict[str, int] = {}
_UNDO: dict[str, Callable[[], None]] = {}


@contextlib.contextmanager
def _shared(name: str, start: Callable[[], Callable[[], None]]) -> Iterator[None]:
    """A change to the process's own state (its stderr, OpenCV's log) made by the first thread in and undone by the
    last one out: a page decoded on one thread while another reads never leaves it changed."""
    with _SILENT:
        if not _USERS.get(name):
            _UNDO[name] = start()
        _USERS[name] = _USERS.get(name, 0) + 1
    try:
        yield
    finally:
        with _SILENT:
            _USERS[name] -= 1
            if not _USERS[name]:
                _UNDO.pop(name)()


def _log_off() -> Callable[[], None]:
    """OpenCV's log and Python's warnings silenced; the undoing of it."""
    import warnings

    import cv2

    # OpenCV 5 has only cv2.utils.logging; 4.8 (the floor) only cv2.setLogLevel, where 0 is silent
    logging = getattr(cv2.utils, "logging", cv2)
    level = logging.getLogLevel()
    catcher = warnings.catch_warnings()
    catcher.__enter__()
    warnings.simplefilter("ignore")
    logging.setLogLevel(getattr(logging, "LOG_LEVEL_SILENT", 0))

    def undo() -> None:
        logging.setLogLevel(level)
        catcher.__exit__(None, None, None)

    return undo


def _null_stderr() -> Callable[[], None]:
    """File descriptor 2 sent to the null device; the undoing of it."""
    import sys

    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)

    def undo() -> None:
        os.dup2(saved, 2)
        os.close(saved)

    return undo


def quiet() -> contextlib.AbstractContextManager[None]:
    """OpenCV's log (libpng and libjpeg warnings included) and Python warnings kept off stderr: each bad page
    is one line of ours."""
    return _shared("log", _log_off)


def stderr_off() -> contextlib.AbstractContextManager[None]:
    """The process's stderr (file descriptor 2) sent to the null device: libpng and pdfium print their
    warnings there themselves, past OpenCV's log level."""
    return _shared("stderr", _null_stderr)


def limit_decoder() -> None:
    """OpenCV's own pixel limit set to :data:`MAX_PIXELS` for this process (unless the user set it).

    A second net under the header checks, for the formats they do not parse;
    OpenCV reads it once, when it is first imported.
    """
    os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))


def read_input(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES; a ScanError for anything else, never blocking.

    A pipe, a device or a link to one is refused from ``stat`` without being
    opened; the file is opened without blocking and checked again (``fstat``)
    before a byte is read (:func:`printkit.loading.text.read_bytes`).
    """
    from printkit.loading.text import FileProblem, read_bytes

    try:
        return read_bytes(path, MAX_FILE_BYTES)
    except FileProblem as exc:
        raise ScanError(f"{shown_file(path)}: {_said(exc)}") from None


def _said(problem: FileProblem) -> str:
    """A file problem as scan words it (its inputs are pictures and PDFs)."""
    if problem.kind in ("folder", "special"):
        return "not a regular file (a folder, pipe or device?): give an image or PDF file"
    if problem.kind == "large":
        return f"the file is {problem.size / 2**20:.0f} MiB, more than the {MAX_FILE_BYTES // 2**20} MiB scan reads"
    return problem.reason


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """("png" or "jpeg", width, height) from a PNG's IHDR or a JPEG's frame header, or None if neither is found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return "png", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length follows
            at += 2
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
            return "jpeg", int.from_bytes(data[at + 7:at + 9], "big"), int.from_bytes(data[at + 5:at + 7], "big")
        at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    return None


def jpeg_whole(data: bytes) -> bool:
    """Whether a JPEG's image data runs to its end marker (EOI): a file cut short has none after its first scan.

    The markers are walked by their lengths up to the first start of scan, so an
    EXIF thumbnail's own end marker is never taken for the image's; within the
    coded data an FF byte is always stuffed or a restart, so the next FF D9 is the
    end. OpenCV 4.8 decodes a truncated JPEG (its libjpeg warns and fills the rest
    grey), 5.x refuses it: this says the same under both.
    """
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return False
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
        elif marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
        elif marker == 0xDA:
            return data.find(b"\xff\xd9", at) >= 0
        else:
            at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    return False


def decode_image(data: bytes) -> Image | None:
    """A BGR image from PNG/JPEG bytes (within MAX_PIXELS, a large JPEG decoded at 1/2, 1/4 or 1/8), or None.

    None also for an image over the budget; :func:`decode_page` says why.
    """
    import cv2
    import numpy as np

    if not data:
        return None
    size = image_size(data)
    if size is None and len(data) > SMALL_OTHER:
        return None
    flag = cv2.IMREAD_COLOR
    if size is not None:
        kind, width, height = size
        scale = next((f for f in (1, 2, 4, 8) if (width // f) * (height // f) <= MAX_PIXELS), 0)
        if not scale or (scale > 1 and kind != "jpeg") or (kind == "jpeg" and not jpeg_whole(data)):
            return None
        flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                8: cv2.IMREAD_REDUCED_COLOR_8}[scale]
    with quiet(), stderr_off():
        try:
            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag)
        except cv2.error:  # OpenCV's own limit (OPENCV_IO_MAX_IMAGE_PIXELS) or a broken header
            return None
    if image is None or image.size == 0 or image.shape[0] * image.shape[1] > MAX_PIXELS:
        return None
    return image


def decode_page(data: bytes, where: PageSource) -> Image | ScanError:
    """The image in an image file's bytes, or the error saying why it cannot be read."""
    image = decode_image(data)
    if image is not None:
        return image
    size = image_size(data)
    if size is not None and size[1] * size[2] > MAX_PIXELS:
        kind, width, height = size
        return ScanError(f"{where}: the image is {width} x {height} pixels ({width * height / 1e6:.0f} megapixels), "
                         f"more than the {MAX_PIXELS // 10**6} megapixels scan decodes"
                         + ("" if kind == "jpeg" else ": save it smaller, or as a JPEG"))
    if size is None and len(data) > SMALL_OTHER:
        return ScanError(f"{where}: not a PNG or JPEG image (other formats are read only up to "
                         f"{SMALL_OTHER // 2**20} MiB)")
    return ScanError(f"{where}: not a readable PNG or JPEG image (corrupt or truncated?)")


def pages(path: Path, data: bytes | None = None) -> Iterator[tuple[PageSource, Image | ScanError]]:
    """Each page of one file (its bytes, if read already) as an image, or the error that page gives."""
    if data is None:
        try:
            data = read_input(path)
        except ScanError as exc:
            yield PageSource(path), exc
            return
    if data[:5] == b"%PDF-" or path.suffix.lower() == ".pdf":
        yield from pdf_pages(path, data)
        return
    yield PageSource(path), decode_page(data, PageSource(path))


def raw_image(buf: bytes, width: int, height: int, stride: int) -> Image:
    """A BGR image from packed pixel rows (3 bytes a pixel, ``stride`` bytes a row)."""
    import numpy as np

    rows = np.frombuffer(buf, dtype=np.uint8).reshape(height, stride)
    image: Image = rows[:, : width * 3].reshape(height, width, 3).copy()
    return image


def page_problem(width: float, height: float, dpi: float, where: PageSource) -> str | None:
    """Why a PDF page of this size (points) is not drawn at ``dpi`` (more than MAX_PIXELS), or None."""
    import math

    pixels = width * dpi / 72 * height * dpi / 72
    if math.isfinite(pixels) and 0 < width and 0 < height and pixels <= MAX_PIXELS:
        return None
    return (f"{where}: the page is {width:.0f} x {height:.0f} pt, {pixels / 1e6:.0f} megapixels at {dpi:.0f} dpi, "
            f"more than the {MAX_PIXELS // 10**6} megapixels scan draws (not a sheet's page)")


def pdf_pages(path: Path, data: bytes) -> Iterator[tuple[PageSource, Image | ScanError]]:
    """Each page of a PDF rasterised at PDF_DPI (pdfium, through the PNG backend), a page too big an error."""
    from printkit.backends.png import page_sizes, rasterise

    try:
        with stderr_off():
            sizes = page_sizes(data)
    except Exception as exc:  # pypdfium2 raises its own PdfiumError for damaged files
        yield PageSource(path), ScanError(f"{PageSource(path)}: not a readable PDF ({type(exc).__name__}: {exc})")
        return
    if not sizes:
        yield PageSource(path), ScanError(f"{PageSource(path)}: the PDF has no pages")
        return
    if len(sizes) > MAX_PDF_PAGES:
        yield PageSource(path), ScanError(f"{PageSource(path)}: the PDF has {len(sizes)} pages, more than the "
                                          f"{MAX_PDF_PAGES} scan reads from one file")
        return
    problems = [page_problem(w, h, PDF_DPI, PageSource(path, k)) for k, (w, h) in enumerate(sizes, start=1)]
    whole = not any(problems)  # every page fits: drawn in one pass
    drawn = rasterise(data, PDF_DPI, rgb=False)
    for index, problem in enumerate(problems):
        where = PageSource(path, index + 1)
        if problem is not None:
            yield where, ScanError(problem)
            continue
        try:
            with stderr_off():
                buf, w, h, stride = next(drawn if whole else rasterise(data, PDF_DPI, rgb=False, only=index))
        except Exception as exc:  # pdfium's errors on a damaged page
            yield where, ScanError(f"{where}: not a readable PDF ({type(exc).__name__}: {exc})")
            if whole:
                return
            continue
        yield where, raw_image(buf, w, h, stride)
