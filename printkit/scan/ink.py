"""The ink a player added: the warped scan compared with the blank sheet rendered from the same geometry."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from printkit.scan.locate import SCALE

if TYPE_CHECKING:
    from printkit.layout.primitives import Document
    from printkit.scan.images import Image
    from printkit.sheets.fields import Fields

INK_MARGIN = 60
"""How much darker than the blank sheet (0-255, after normalising the light) a pixel must be to be ink."""
LIGHT_WINDOW = 15.0
"""Points: the paper's own brightness is estimated over windows this wide (uneven light, shadows)."""
SLACK = 0.5
"""Points: a printed line may sit this far off its place (registration, blur) without reading as ink."""


@dataclass(frozen=True)
class Blank:
    """The blank sheet of one map, paper and layout: its fields and its picture at SCALE (darkest channel).

    ``gray`` has its printed lines widened by SLACK (what ink is compared
    with); ``sharp`` is the sheet as printed (what a scan is aligned on).
    """

    fields: Fields
    gray: Image
    sharp: Image

    @cached_property
    def ink_below(self) -> Image:
        """Per pixel, the light-normalised grey below which a scan's pixel is ink (INK_MARGIN under ``gray``)."""
        import numpy as np

        floor: Image = self.gray.astype(np.float32) - INK_MARGIN
        return floor


def darkest(image: Image) -> Image:
    """Each pixel's darkest colour channel (blue ink and pencil read as dark as black)."""
    import cv2

    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)


def blank_sheet(map_id: str, paper: str) -> Blank:
    """The blank map sheet of ``map_id`` on ``paper`` (from its ``--map`` file if one was given), rendered once."""
    from printkit.scan.ident import subject

    return _blank(subject(map_id), paper)


@lru_cache(maxsize=16)
def _blank(map_id: str, paper: str) -> Blank:
    """The blank map sheet of a bundled map id or a map file on ``paper``."""
    import cv2

    from printkit import registry

    sheet = registry.build_sheet("map", map_id, [""], paper)
    document = sheet.document
    assert sheet.geometry is not None  # a map sheet has its fields
    gray = blank_gray(document)
    k = max(3, round(SLACK * SCALE) * 2 + 1)
    wide = cv2.erode(gray, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return Blank(sheet.geometry.fields, wide, gray)


def blank_gray(document: Document) -> Image:
    """A blank sheet drawn at SCALE, its darkest channel: kept in the disk cache (a lossless PNG) under the whole
    drawing and the versions of the PDF writer and rasteriser, else drawn (pdfium, through the PNG backend)."""
    from importlib import metadata

    import cv2
    import numpy as np

    from printkit import cache

    versions = (f"{p} {metadata.version(p)}" for p in ("reportlab", "pypdfium2"))  # the PDF writer, the rasteriser
    key = (repr(document), str(SCALE), *versions)
    size = (round(document.height * SCALE), round(document.width * SCALE))
    png = cache.remembered("scan-blank", key, bytes, lambda: _drawn(document))
    gray: Image | None = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if gray is None or gray.shape != size:  # not a picture of this sheet (sealed, so never seen): drawn again
        gray = cv2.imdecode(np.frombuffer(_drawn(document), np.uint8), cv2.IMREAD_UNCHANGED)
    assert gray is not None  # our own PNG
    return gray


def _drawn(document: Document) -> bytes:
    """The blank sheet drawn at SCALE, its darkest channel exactly the page's pixels, as a one-channel PNG."""
    import cv2

    from printkit.backends.png import render_png_page
    from printkit.scan.images import decode_image

    image = decode_image(render_png_page(document, 0, dpi=round(SCALE * 72)))
    assert image is not None  # our own PNG
    gray = darkest(image)
    size = (round(document.width * SCALE), round(document.height * SCALE))
    if (gray.shape[1], gray.shape[0]) != size:  # a partly covered last pixel: cut or pad, never stretch
        gray = gray[:size[1], :size[0]]
        gray = cv2.copyMakeBorder(gray, 0, size[1] - gray.shape[0], 0, size[0] - gray.shape[1], cv2.BORDER_REPLICATE)
    ok, png = cv2.imencode(".png", gray)
    assert ok  # a one-channel 8-bit image always encodes
    return png.tobytes()


def light(warped: Image) -> tuple[Image, Image]:
    """(the local paper brightness, 0-255, the darkest channel divided by it, 0-255): uneven light taken out."""
    import cv2
    import numpy as np

    gray = darkest(warped)
    k = round(LIGHT_WINDOW * SCALE) | 1
    paper = cv2.blur(cv2.dilate(gray, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))), (k, k))
    normal: Image = cv2.divide(gray, np.maximum(paper, PAPER_FLOOR), scale=255.0, dtype=cv2.CV_32F)
    return paper, normal


PAPER_FLOOR = 32
"""The least paper brightness a pixel is divided by (a black table round the sheet is not brightened to white)."""


def ink_of(normal: Image, blank: Blank) -> Image:
    """Pixels (1, else 0) where the light-normalised scan is INK_MARGIN darker than the blank sheet."""
    import numpy as np

    mask: Image = np.less(normal, blank.ink_below).view(np.uint8)  # a bool is a byte of 0 or 1
    return mask


def ink_mask(warped: Image, blank: Blank) -> Image:
    """Pixels (1, else 0) where the scan is clearly darker than the blank sheet: the player's ink.

    The darkest colour channel is used, so blue pen and pencil read like
    black; the scan is divided by its local paper brightness first, so
    uneven light and a shadow do not read as ink.
    """
    return ink_of(light(warped)[1], blank)
