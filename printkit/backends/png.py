"""PNG backend: rasterise the PDF with pypdfium2, one PNG per page.

The PNG is encoded with zlib by ``backends.pngbands`` (no timestamps, no extra
chunks besides the resolution), so identical documents give identical bytes
and no imaging library is needed.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from printkit.backends.pngbands import BAND, band_rows, bands, encode_png, picture, png_file
from printkit.layout.primitives import Document, Page, UseForm

DEFAULT_DPI = 150
_BYTES_PER_PIXEL = {1: 1, 2: 3}  # pdfium's Gray and BGR formats; the others have 4


def pixels(points: float, dpi: int) -> int:
    """Whole pixels covering ``points`` at ``dpi``: 11 in at 150 dpi is 1650, A4's 595.28 pt is 1241.

    The product is rounded to 6 decimals before rounding up, so floating-point
    noise (792 x 150 / 72 = 1650.0000000000002) adds no pixel row.
    """
    return math.ceil(round(points * dpi / 72, 6))


def _size(page: Any, bitmap: Any, dpi: int) -> tuple[int, int]:
    """The page's width and height in whole pixels, at most the bitmap's."""
    width, height = (min(pixels(pt, dpi), px) for pt, px in zip(page.get_size(), (bitmap.width, bitmap.height)))
    return width, height


def rasterise(
    pdf_bytes: bytes, dpi: int, rgb: bool = True, forms: bool = False, only: int | None = None
) -> Iterator[tuple[bytes, int, int, int]]:
    """Each page of a PDF as packed pixel rows: (bytes, width, height, stride); RGB, or BGR if not ``rgb``.

    ``forms`` draws filled-in form fields as a PDF app shows them; ``only``
    gives just that page (from 0).
    """
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_bytes)
    if forms:
        pdf.init_forms()
    try:
        for index in range(len(pdf)) if only is None else (only,):
            page = pdf[index]
            bitmap = page.render(scale=dpi / 72, rev_byteorder=rgb, fill_color=(255, 255, 255, 255))
            width, height = _size(page, bitmap, dpi)
            yield bytes(bitmap.buffer), width, height, bitmap.stride
            bitmap.close()
            page.close()
    finally:
        pdf.close()


def page_sizes(pdf_bytes: bytes) -> list[tuple[float, float]]:
    """Each page's (width, height) in points as :func:`rasterise` draws it, without drawing anything."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_bytes)
    try:
        return [(float(w), float(h)) for w, h in (pdf.get_page_size(k) for k in range(len(pdf)))]
    finally:
        pdf.close()


class _Buffers:
    """Pixel buffers taken in turn (allocated when first needed): with two, a page is drawn into one
    while the other is still being encoded."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.buffers: list[Any] = []
        self.size = 0
        self.turn = -1

    def bitmap(self, width: int, height: int, format: int, rev_byteorder: bool) -> Any:
        """A pdfium bitmap over the next buffer (pypdfium2's ``bitmap_maker``)."""
        import pypdfium2 as pdfium

        size = width * height * _BYTES_PER_PIXEL.get(format, 4)
        if size != self.size:
            self.buffers, self.size = [], size
        self.turn = (self.turn + 1) % self.count
        if self.turn == len(self.buffers):
            self.buffers.append((ctypes.c_ubyte * size)())
        return pdfium.PdfBitmap.new_native(width, height, format, rev_byteorder, buffer=self.buffers[self.turn])


def png_pages(
    pdf_bytes: bytes, dpi: int = DEFAULT_DPI, progress: Callable[[int], None] | None = None
) -> Iterator[bytes]:
    """Every page of a PDF as PNG bytes at ``dpi``, one at a time; ``progress(1)`` after each page.

    Page n is encoded (zlib, which lets other threads run) in a thread while
    page n+1 is drawn.
    """
    from concurrent.futures import Future, ThreadPoolExecutor

    import pypdfium2 as pdfium

    buffers = _Buffers(2)
    pdf = pdfium.PdfDocument(pdf_bytes)
    encoding: tuple[Future[bytes], Any, Any] | None = None  # the page being encoded, its bitmap and page

    def finished(png: Future[bytes], bitmap: Any, page: Any) -> bytes:
        done = png.result()
        bitmap.close()
        page.close()
        if progress is not None:
            progress(1)
        return done

    try:
        with ThreadPoolExecutor(max_workers=1) as encoder:  # its thread starts at the first page given to it
            for index in range(len(pdf)):
                page = pdf[index]
                bitmap = page.render(scale=dpi / 72, rev_byteorder=True, fill_color=(255, 255, 255, 255),
                                     bitmap_maker=buffers.bitmap)  # fmt: skip
                future = encoder.submit(encode_png, memoryview(bitmap.buffer), *_size(page, bitmap, dpi),
                                        bitmap.stride, dpi)  # fmt: skip
                if encoding is not None:
                    yield finished(*encoding)
                encoding = (future, bitmap, page)
            if encoding is not None:
                yield finished(*encoding)
    finally:
        pdf.close()


def split_ground(document: Document) -> tuple[Document, Document] | None:
    """(the form every page starts with, alone on one page; the pages without it), or None if they share none.

    The ground is drawn once; the other forms stay in the second document only
    if its pages place any of them.
    """
    firsts = {p.items[0] if p.items else None for p in document.pages}
    if len(document.pages) < 2 or len(firsts) != 1:
        return None
    (first,) = firsts
    if not isinstance(first, UseForm):
        return None
    ground = replace(document, pages=(Page((first,)),))
    pages = tuple(replace(p, items=p.items[1:]) for p in document.pages)
    placed = any(isinstance(i, UseForm) for p in pages for i in p.items)
    return ground, replace(document, pages=pages, forms=document.forms if placed else ())


PDF_PAGES = 32
"""Pages of a pack drawn into one PDF at a time, so a big pack's PDF is never held whole."""


class _Canvas:
    """The one pixel buffer of a pack: the ground rasterised, each page drawn over it, encoded, then the bands
    it changed put back (from the ground's compressed bands; the ground's pixels are not kept beside it)."""

    def __init__(self, pdf_bytes: bytes, dpi: int) -> None:
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(pdf_bytes)  # closed at once: the bitmap does not need it
        try:
            page = pdf[0]
            self.bitmap = page.render(scale=dpi / 72, rev_byteorder=True, fill_color=(255, 255, 255, 255))
            self.width, self.height = _size(page, self.bitmap, dpi)
        finally:
            pdf.close()
        self.rgb = memoryview(self.bitmap.buffer).cast("B")  # ctypes says '<B': written to as plain bytes
        self.like = picture(self.rgb, self.width, self.height, self.bitmap.stride)
        self.kept: dict[int, bytes] = {}  # the ground's rows of the bands pages changed, to put back again

    def page_png(self, page: Any, dpi: int) -> bytes:
        """The page drawn over the ground, as PNG bytes; the buffer holds the ground again after."""
        import pypdfium2.raw as pdfium_c

        # as page.render draws (annotations on, RGB order), only without painting the bitmap white first
        pdfium_c.FPDF_RenderPageBitmap(self.bitmap.raw, page.raw, 0, 0, self.bitmap.width, self.bitmap.height, 0,
                                       pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER)  # fmt: skip
        stride = self.bitmap.stride
        parts = bands(self.rgb, self.width, self.height, stride, self.like)
        for index, part in enumerate(parts):
            if part is not self.like.bands[index]:  # changed by the page
                span = slice(index * BAND * stride, min((index + 1) * BAND, self.height) * stride)
                kept = self.kept.get(index) or self.kept.setdefault(index, band_rows(self.like, index, self.rgb[span]))
                self.rgb[span] = kept
        return png_file(parts, self.width, self.height, dpi)

    def close(self) -> None:
        """Let the buffer go."""
        self.rgb.release()
        self.bitmap.close()


def _over_ground(
    pdf_bytes: bytes, dpi: int, canvas: _Canvas, progress: Callable[[int], None] | None
) -> Iterator[bytes]:
    """Every page of a PDF drawn over the canvas's ground, as PNG bytes; ``progress(1)`` after each page."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_bytes)
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                png = canvas.page_png(page, dpi)
            finally:
                page.close()
            if progress is not None:
                progress(1)
            yield png
    finally:
        pdf.close()


def pack_pngs(document: Document, dpi: int = DEFAULT_DPI, progress: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """Every page as PNG bytes, one at a time; ``progress(1)`` after each page is drawn and after each is encoded.

    What every page shares (the form each starts with) is rasterised and
    compressed once (in a thread, while the first pages' PDF is drawn) and each
    page drawn over it in the same buffer: the same pixels and bytes as drawing
    it whole, only the bands of rows it changes compressed again (and put back after).
    """
    from concurrent.futures import ThreadPoolExecutor

    from printkit.backends.pdf import render_pdf

    split = split_ground(document)
    if split is None:
        yield from png_pages(render_pdf(document, progress), dpi, progress)
        return
    ground, pages = split
    with ThreadPoolExecutor(max_workers=1) as pool:
        made = pool.submit(_Canvas, render_pdf(ground), dpi)
        try:
            for start in range(0, len(pages.pages), PDF_PAGES):
                chunk = render_pdf(replace(pages, pages=pages.pages[start : start + PDF_PAGES]), progress)
                yield from _over_ground(chunk, dpi, made.result(), progress)
        finally:
            if made.exception() is None:
                made.result().close()


def render_png_pages(
    pdf_bytes: bytes, dpi: int = DEFAULT_DPI, progress: Callable[[int], None] | None = None
) -> list[bytes]:
    """Every page of a PDF as PNG bytes at ``dpi``; ``progress(1)`` after each page."""
    return list(png_pages(pdf_bytes, dpi, progress))


def render_png_page(document: Document, index: int, dpi: int = DEFAULT_DPI) -> bytes:
    """Page ``index`` of the document as PNG bytes."""
    from printkit.backends.pdf import render_pdf

    single = Document(
        width=document.width,
        height=document.height,
        pages=(document.pages[index],),
        forms=document.forms,
        symbols=document.symbols,
        title=document.title,
        meta=document.meta,
    )
    return render_png_pages(render_pdf(single), dpi)[0]
