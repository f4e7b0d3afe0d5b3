"""PDF backend: draws a :class:`Document` with reportlab (the only module importing it).

Pages use our top-left origin; every y is flipped here. Forms become PDF Form
XObjects drawn once and placed on every page; symbols become small forms
scaled into place. reportlab's invariant mode makes the bytes reproducible.

Transparency (a :class:`Style` whose ``opacity`` is not 1) is a graphics state
(``/name gs``) that the resources of the content stream drawing it must define.
reportlab defines the states a page sets, but a form's resources leave out the
states set inside it (its ``PDFFormXObject`` writes no ``/ExtGState``), and
readers then paint the item opaque. So inside a form (or a symbol) the painter
names the state itself (``/Alpha.45`` for opacity 0.45, fill and stroke alike)
and hands the form a resource dictionary that defines it (:class:`_FormScope`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence

from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor, toColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from printkit.layout import fonts
from printkit.layout.primitives import (
    Cells,
    Circle,
    Clipped,
    Document,
    FontWeight,
    FormField,
    Icon,
    Item,
    Line,
    Path,
    PathCommand,
    Rect,
    Style,
    Symbol,
    Text,
    UseForm,
)

rl_config.useA85 = 0  # streams are Flate only: ASCII85 made them 13% bigger and cost 16% of drawing time

_FONT_NAMES: dict[FontWeight, str] = {"regular": "PrintkitSans", "bold": "PrintkitSans-Bold"}
_INK = "#000000"  # in a symbol, black means "the icon's colour"

_FACES: dict[FontWeight, bytes] = {"regular": b"OpenSans", "bold": b"OpenSans-Bold"}
"""The PostScript names of the shipped faces, as a PDF's font dictionaries give them."""
_SUBSET_NAME = re.compile(rb"/(BaseFont|FontName) /([A-Z]{6})\+([A-Za-z0-9-]+)")
"""A subset font's name where the file's font dictionaries give it (``/BaseFont /AAAAAA+OpenSans``)."""


def subset_tag(face: bytes, chars: str, index: int) -> bytes:
    """The six capital letters before a subset's ``+``: a digest of the face's name, the text it draws, its index.

    The PDF reference asks for a tag that differs between subsets (imposing
    several PDFs in one job must not mix them up); the same face and text give
    the same tag, so the bytes stay reproducible.
    """
    import hashlib  # here: only a PDF with text needs it

    digest = hashlib.sha256(b"\0".join((face, chars.encode("utf-8"), str(index).encode()))).digest()
    return bytes(ord("A") + b % 26 for b in digest[:6])


def _tagged(pdf: bytes, document: Document) -> bytes:
    """``pdf`` with each font subset's numbered tag (reportlab writes ``AAAAAA+`` for every font's first) replaced.

    The new tag has the same length, so every byte offset in the file stays right.
    """
    items = [*(i for page in document.pages for i in page.items), *(i for f in document.forms for i in f.items)]
    texts = [item for item in items if isinstance(item, Text)]
    chars = {_FACES[w]: "".join(sorted({ch for t in texts if t.weight == w for ch in t.text})) for w in _FACES}
    every = "".join(sorted({ch for t in texts for ch in t.text}))

    def tag(found: re.Match[bytes]) -> bytes:
        key, number, face = found[1], found[2], found[3]
        index = sum((ch - ord("A")) * 26**k for k, ch in enumerate(reversed(number)))
        return b"/%s /%s+%s" % (key, subset_tag(face, chars.get(face, every), index), face)

    return _SUBSET_NAME.sub(tag, pdf)


def _register_fonts() -> None:
    """Register the shipped TTFs with reportlab once per process."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for weight, name in _FONT_NAMES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(fonts.font_file(weight))))


_COLORS: dict[str, Color] = {}
_HEX = frozenset("0123456789abcdefABCDEF")


def _color(value: str) -> Color:
    """reportlab's colour for ``value``, converted once (``toColor`` parses a string with a safe eval every call).

    ``#rrggbb`` is what ``toColor`` comes to after its other readings fail: ``HexColor`` at once.
    """
    found = _COLORS.get(value)
    if found is None:
        hexadecimal = len(value) == 7 and value[0] == "#" and all(ch in _HEX for ch in value[1:])
        found = _COLORS[value] = HexColor(value) if hexadecimal else toColor(value)
    return found


_TEMPLATES = {"M": "%s %s m", "L": "%s %s l", "C": "%s %s %s %s %s %s c", "Z": "h"}
"""Path commands as reportlab's path object writes them (``moveTo``, ``lineTo``, ``curveTo``, ``close``)."""


def _path_code(commands: Sequence[PathCommand], height: float | None) -> str:
    """A path's PDF operators exactly as ``PDFPathObject``'s methods write them, y flipped in a page ``height`` high.

    Written in one pass (one template, one ``fp_str`` call): a method call per point cost a
    map sheet 6,400 calls. Every command holds (x, y) pairs, so every second number is a y.
    """
    if not commands:
        return ""
    if commands[0][0] != "M":
        raise ValueError("a path must start with a move (M)")
    unknown = next((cmd[0] for cmd in commands if cmd[0] not in _TEMPLATES), None)
    if unknown is not None:
        raise ValueError(f"unsupported path command {unknown!r}")
    template = " ".join([_TEMPLATES[cmd[0]] for cmd in commands])  # type: ignore[index]  # checked just above
    nums = [float(v) for cmd in commands for v in cmd[1:]]
    if len(nums) != template.count("%s"):
        raise ValueError("a path command with the wrong count of numbers")
    if height is not None:
        nums[1::2] = [height - v for v in nums[1::2]]
    return "n " + template % tuple(fp_str(*nums).split(" "))


def _form_id(name: str) -> str:
    return "F_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def _symbol_id(name: str) -> str:
    return "S_" + "".join(ch if ch.isalnum() else "_" for ch in name)


class _FormScope:
    """What the form being drawn refers to: the graphics states it sets and the forms it places, in first use."""

    def __init__(self) -> None:
        self.alphas: dict[str, float] = {}
        self.forms: dict[str, None] = {}

    def alpha(self, opacity: float) -> str:
        """The name of the graphics state that sets fill and stroke ``opacity`` (0 to 1)."""
        if not 0.0 <= opacity <= 1.0:
            raise ValueError(f"opacity {opacity!r} is not between 0 and 1")
        name = "Alpha" + str(fp_str(opacity))
        self.alphas[name] = opacity
        return name

    def resources(self) -> pdfdoc.PDFResourceDictionary | None:
        """The form's resources as reportlab writes a form's, with its graphics states; None if it sets none.

        Only a form that sets a state needs them; every other form keeps reportlab's own, so its bytes stay.
        """
        if not self.alphas:
            return None
        resources = pdfdoc.PDFResourceDictionary()
        resources.basicFonts()
        resources.allProcs()
        if self.forms:
            resources.XObject = pdfdoc.PDFDictionary(
                {pdfdoc.xObjectName(n): pdfdoc.PDFObjectReference(pdfdoc.xObjectName(n)) for n in self.forms})
        resources.ExtGState = {
            name: pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("ExtGState"), "CA": value, "ca": value})
            for name, value in self.alphas.items()}
        return resources


class _Painter:
    """Draws items on a canvas of page height ``height``, flipping y."""

    def __init__(self, canvas: Canvas, height: float, symbols: dict[str, Symbol]) -> None:
        self.c = canvas
        self.h = height
        self.symbols = symbols
        self.form: _FormScope | None = None  # the form being drawn; None on a page

    def begin_form(self, name: str, width: float, height: float) -> None:
        """Start drawing the form ``name`` (a ``width`` x ``height`` box from the origin)."""
        self.c.beginForm(name, lowerx=0, lowery=0, upperx=width, uppery=height)
        self.form = _FormScope()

    def end_form(self) -> None:
        """Finish the form, defining in its resources every graphics state it sets."""
        assert self.form is not None
        resources = self.form.resources()
        self.form = None
        if resources is None:
            self.c.endForm()
        else:
            self.c.endForm(Resources=resources)

    def place(self, form: str) -> None:
        """Draw the form (or symbol) ``form`` here."""
        self.c.doForm(form)
        if self.form is not None:
            self.form.forms[form] = None

    def _opacity(self, opacity: float) -> None:
        """Fill and stroke at ``opacity``: reportlab's states on a page, the form's own in a form."""
        if self.form is None:
            self.c.setFillAlpha(opacity)
            self.c.setStrokeAlpha(opacity)
        else:
            self.c.addLiteral(f"/{self.form.alpha(opacity)} gs")

    def y(self, value: float) -> float:
        return self.h - value

    def _apply(self, style: Style, *, ink: str | None = None) -> tuple[bool, bool]:
        """Set colours, width and dash; return (stroke?, fill?)."""
        c = self.c
        stroke = style.stroke is not None
        fill = style.fill is not None
        if stroke:
            assert style.stroke is not None
            if not (ink is not None and style.stroke == _INK):
                c.setStrokeColor(_color(style.stroke))
            c.setLineWidth(style.width)
            c.setDash(list(style.dash) if style.dash else [])
        if fill and not (ink is not None and style.fill == _INK):
            assert style.fill is not None
            c.setFillColor(_color(style.fill))
        if style.opacity != 1.0:
            self._opacity(style.opacity)
        return stroke, fill

    def draw(self, items: Iterable[Item]) -> None:
        for item in items:
            self.item(item)

    def item(self, item: Item) -> None:
        c = self.c
        if isinstance(item, Text):
            c.setFillColor(_color(item.fill))
            c.setFont(_FONT_NAMES[item.weight], item.size)
            y = self.y(item.y)
            if item.anchor == "middle":
                c.drawCentredString(item.x, y, item.text)
            elif item.anchor == "end":
                c.drawRightString(item.x, y, item.text)
            else:
                c.drawString(item.x, y, item.text)
        elif isinstance(item, Line):
            c.saveState()
            if self._apply(item.style)[0]:
                c.line(item.x1, self.y(item.y1), item.x2, self.y(item.y2))
            c.restoreState()
        elif isinstance(item, Rect):
            c.saveState()
            stroke, fill = self._apply(item.style)
            if item.radius:
                c.roundRect(item.x, self.y(item.y + item.h), item.w, item.h, item.radius,
                            stroke=int(stroke), fill=int(fill))
            else:
                c.rect(item.x, self.y(item.y + item.h), item.w, item.h, stroke=int(stroke), fill=int(fill))
            c.restoreState()
        elif isinstance(item, Circle):
            c.saveState()
            stroke, fill = self._apply(item.style)
            c.circle(item.cx, self.y(item.cy), item.r, stroke=int(stroke), fill=int(fill))
            c.restoreState()
        elif isinstance(item, Path):
            c.saveState()
            self.path(item, flip=True)
            c.restoreState()
        elif isinstance(item, Icon):
            c.saveState()
            c.setFillColor(_color(item.fill))
            c.setStrokeColor(_color(item.fill))
            c.translate(item.x, self.y(item.y))
            c.scale(item.size, -item.size)
            self.place(_symbol_id(item.name))
            c.restoreState()
        elif isinstance(item, UseForm):
            self.place(_form_id(item.name))
        elif isinstance(item, Cells):
            _draw_cells(self, item)
        elif isinstance(item, Clipped):  # opaque paths (a pattern) inside a clipping path (W n: clip, no paint)
            c.saveState()
            c.clipPath(PDFPathObject([_path_code(item.clip, self.h)]), 0, 0, fillMode=int(not item.even_odd))
            for path in item.paths:
                self.item(path)
            c.restoreState()
        else:  # pragma: no cover - the Item union is closed
            raise TypeError(f"cannot draw {type(item).__name__}")

    def path(self, item: Path, *, flip: bool, ink: str | None = None) -> None:
        stroke, fill = self._apply(item.style, ink=ink)
        if not (stroke or fill):
            return
        code = _path_code(item.commands, self.h if flip else None)
        self.c.drawPath(PDFPathObject([code] if code else []), stroke=int(stroke), fill=int(fill),
                        fillMode=0 if item.even_odd else 1)

    def symbol(self, sym: Symbol) -> None:
        """Draw a symbol in its unit box (y down; the Icon's transform flips it)."""
        for path in sym.paths:
            self.c.saveState()
            # line widths of symbols are in unit-box units
            self.path(path, flip=False, ink=_INK)
            self.c.restoreState()


def _draw_cells(painter: _Painter, item: Cells) -> None:
    """A grid's black runs, each drawn as the :class:`Rect` it is (a QR code has about 250 runs)."""
    c, style = painter.c, item.style
    for x, y, w, h in item.runs():
        c.saveState()
        stroke, fill = painter._apply(style)
        c.rect(x, painter.y(y + h), w, h, stroke=int(stroke), fill=int(fill))
        c.restoreState()


FIELD_TEXT = 0
"""Size of a text field's type: 0, auto-sized (the whole typed text fits the field), in the form's Helvetica.

reportlab puts only the standard 14 fonts in a form's ``/DR`` resources; the
sheet's Open Sans is embedded as subsets of the characters the page prints,
which could not show what a player types. See docs/render.md.
"""


def _form_field(c: Canvas, f: FormField, height: float) -> None:
    """One AcroForm field: a check box (states /Yes and /Off) centred in its box, or a text field (auto-sized).

    A form with text fields asks the PDF app to draw them (``/NeedAppearances``):
    reportlab draws an auto-sized field's value at size 0, and the app sizes it.
    """
    form = c.acroForm
    tooltip = f.tooltip or None
    if f.kind == "checkbox":
        size = min(f.w, f.h)
        form.checkbox(name=f.name, x=f.x + (f.w - size) / 2, y=height - f.y - (f.h + size) / 2, size=size,
                      buttonStyle="check", fillColor=None, borderColor=None, borderWidth=0, textColor=None,
                      fieldFlags="", annotationFlags="print", tooltip=tooltip)
    else:
        form.textfield(name=f.name, value=f.value, x=f.x, y=height - f.y - f.h, width=f.w, height=f.h,
                       fillColor=None, borderColor=None, borderWidth=0, fontName="Helvetica",
                       fontSize=FIELD_TEXT, maxlen=200, fieldFlags="readOnly" if f.hidden else "",
                       annotationFlags="hidden" if f.hidden else "print", tooltip=tooltip)
        if not f.hidden:
            form.extras["NeedAppearances"] = pdfdoc.PDFtrue


def render_pdf(document: Document, progress: Callable[[int], None] | None = None) -> bytes:
    """The document as PDF bytes (byte-identical for identical documents).

    ``progress(1)`` is called after each page is drawn.
    """
    _register_fonts()
    buf = io.BytesIO()
    c = Canvas(
        buf,
        pagesize=(document.width, document.height),
        invariant=1,
        pageCompression=1,
        initialFontName=_FONT_NAMES["regular"],
    )
    if document.title:
        c.setTitle(document.title)
    c.setCreator("printkit")
    c.setAuthor(document.meta.get("author", ""))
    c.setSubject(document.meta.get("subject", ""))
    if "keywords" in document.meta:
        c.setKeywords(document.meta["keywords"])
    symbols = {s.name: s for s in document.symbols}
    painter = _Painter(c, document.height, symbols)
    for sym in document.symbols:
        painter.begin_form(_symbol_id(sym.name), 1, 1)
        painter.symbol(sym)
        painter.end_form()
    for form in document.forms:
        painter.begin_form(_form_id(form.name), document.width, document.height)
        painter.draw(form.items)
        painter.end_form()
    for page in document.pages:
        painter.draw(page.items)
        for f in page.fields:
            _form_field(c, f, document.height)
        c.showPage()
        if progress is not None:
            progress(1)
    c.save()
    return _tagged(buf.getvalue(), document)
