"""Pages to read: PNG/JPEG files, PDFs of scanned pages (one sheet a page), folders of them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printkit.errors import PrintkitError

if TYPE_CHECKING:
    from cv2.typing import MatLike

    Image = MatLike
    """An OpenCV image (a numpy array: BGR, or one channel)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
PDF_DPI = 200
"""Resolution a scanned PDF's pages are rasterised at."""


class ScanError(PrintkitError):
    """One page cannot be read (the message names the file and page)."""


@dataclass(frozen=True)
class PageSource:
    """Where a page came from: its file, and its page number in a PDF (1-based, 0 for an image file)."""

    path: Path
    page: int = 0

    def __str__(self) -> str:
        return f"{self.path}: page {self.page}" if self.page else str(self.path)


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


def decode_image(data: bytes) -> Image | None:
    """A BGR image from PNG/JPEG bytes, or None if they are not a readable image."""
    import cv2
    import numpy as np

    if not data:
        return None
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_ERROR)  # a cut-short file is our one-line error, not OpenCV's warning too
    try:
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    finally:
        logging.setLogLevel(level)
    return None if image is None or image.size == 0 else image


def pages(path: Path) -> Iterator[tuple[PageSource, Image | ScanError]]:
    """Each page of one file as an image, or the error that page gives (the rest are still read)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        yield PageSource(path), ScanError(f"{path}: cannot read the file ({exc.strerror or exc})")
        return
    if data[:5] == b"%PDF-" or path.suffix.lower() == ".pdf":
        yield from _pdf_pages(path, data)
        return
    image = decode_image(data)
    if image is None:
        yield PageSource(path), ScanError(f"{path}: not a readable PNG or JPEG image (corrupt or truncated?)")
    else:
        yield PageSource(path), image


def raw_image(buf: bytes, width: int, height: int, stride: int) -> Image:
    """A BGR image from packed pixel rows (3 bytes a pixel, ``stride`` bytes a row)."""
    import numpy as np

    rows = np.frombuffer(buf, dtype=np.uint8).reshape(height, stride)
    image: Image = rows[:, : width * 3].reshape(height, width, 3).copy()
    return image


def _pdf_pages(path: Path, data: bytes) -> Iterator[tuple[PageSource, Image | ScanError]]:
    """Each page of a PDF rasterised at PDF_DPI (pdfium, through the PNG backend's one user of it)."""
    from printkit.backends.png import rasterise

    count = 0
    try:
        for count, (buf, width, height, stride) in enumerate(rasterise(data, PDF_DPI, rgb=False), start=1):
            yield PageSource(path, count), raw_image(buf, width, height, stride)
    except Exception as exc:  # pypdfium2 raises its own PdfiumError for damaged files
        where = PageSource(path, count + 1) if count else PageSource(path)
        yield where, ScanError(f"{where}: not a readable PDF ({type(exc).__name__}: {exc})")
        return
    if not count:
        yield PageSource(path), ScanError(f"{path}: the PDF has no pages")
