"""SVG backend: one SVG per page, drawn with svgwrite (the only module importing it).

Forms go in ``<defs>`` as ``<g id>`` and are placed with ``<use>``; symbols are
``<symbol viewBox="0 0 1 1">`` placed with sized ``<use>``. Ids are derived
from names, so the same document gives the same bytes. svgwrite escapes text.

Text (:data:`printkit.backends.SvgText`) is ``path`` by default: glyph outlines
(:mod:`printkit.backends.glyphs`) every renderer draws alike. ``font`` writes
editable ``<text>`` and a ``<style>`` with one ``@font-face`` per weight used:
a TrueType subset of the shipped Open Sans (fontTools) with exactly the
characters the page prints, as a ``data:`` URI, without hinting, kerning,
ligatures (the PDF applies none) or timestamps (the same text, the same bytes).
Renderers that ignore ``@font-face`` (librsvg) draw a fallback font instead.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import svgwrite

from printkit.backends import SvgText, glyphs
from printkit.layout import fonts
from printkit.layout.primitives import (
    Cells,
    Circle,
    Clipped,
    Document,
    FontWeight,
    Form,
    Icon,
    Item,
    Line,
    Path,
    Rect,
    Style,
    Symbol,
    Text,
    UseForm,
)

_PLACEHOLDER = "printkit-shared-"  # a <g id> in <defs> replaced by a shared part's XML
_BODY = "printkit-body"  # a <g id> in a page's frame where its items go
_GLYPHS = "printkit-glyphs"  # a <g id> in a page's <defs> where its glyph outlines go
_SLOT = "\ue000"  # marks where a page's title, font rules or glyphs, and items go in its frame (no font has it)
_INK = "#000000"  # in a symbol, black means "the icon's colour" (inherited from <use>)


def _n(value: float) -> str:
    """A compact, stable number: at most 2 decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _ident(prefix: str, name: str) -> str:
    return prefix + "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)


def path_data(commands: Iterable[tuple[Any, ...]]) -> str:
    """SVG path data for absolute M/L/C/Z commands."""
    parts: list[str] = []
    for cmd in commands:
        op = str(cmd[0])
        if op not in ("M", "L", "C", "Z"):
            raise ValueError(f"unsupported path command {op!r}")
        parts.append(op + " ".join(_n(float(v)) for v in cmd[1:]))
    return "".join(parts)


def _style_attrs(style: Style, *, ink: bool = False) -> dict[str, str]:
    attrs: dict[str, str] = {}
    if style.stroke is None:
        attrs["stroke"] = "none"
    else:
        if not (ink and style.stroke == _INK):
            attrs["stroke"] = style.stroke
        attrs["stroke_width"] = _n(style.width) if not ink else f"{style.width:.4g}"
        if style.dash:
            attrs["stroke_dasharray"] = " ".join(_n(d) for d in style.dash)
    if style.fill is None:
        attrs["fill"] = "none"
    elif not (ink and style.fill == _INK):
        attrs["fill"] = style.fill
    if style.opacity != 1.0:
        attrs["opacity"] = _n(style.opacity)
    return attrs


_TEXT_ENTITIES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))
_ATTR_ENTITIES = (*_TEXT_ENTITIES, ('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def _escape(value: str, entities: tuple[tuple[str, str], ...] = _ATTR_ENTITIES) -> str:
    """An attribute value (or with ``_TEXT_ENTITIES``, text) escaped as ElementTree escapes it."""
    for raw, entity in entities:
        value = value.replace(raw, entity)
    return value


_BLACK_RUN = re.compile(b"\x01+")


@lru_cache(maxsize=64)
def cells_xml(item: Cells) -> str:
    """A grid's black runs as ``<rect>`` elements, the bytes svgwrite writes for them (without building them).

    The numbers are the floats :meth:`Cells.runs` computes, each formatted once
    per column, row or run length. Remembered per grid: a pack's pages share
    their corner markers.
    """
    attrs = {key.replace("_", "-"): _escape(value).replace("%", "%%")
             for key, value in _style_attrs(item.style).items() if value}  # fmt: skip
    attrs.update(dict.fromkeys(("height", "width", "x", "y"), "%s"))  # in this order among the sorted names
    template = "<rect " + " ".join(f'{k}="{attrs[k]}"' for k in sorted(attrs)) + " />"  # svgwrite sorts them
    xs, widths, rows = _grid_numbers(item.x, item.y, item.cell, item.columns, len(item.black) // item.columns)
    n, black = item.columns, item.black
    out: list[str] = []
    for r, (height, y) in enumerate(rows):
        out += [template % (height, widths[e - s], xs[s], y)
                for s, e in (m.span() for m in _BLACK_RUN.finditer(black[r * n : (r + 1) * n]))]  # fmt: skip
    return "".join(out)


@lru_cache(maxsize=16)
def _grid_numbers(
    x: float, y: float, cell: float, columns: int, rows: int
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """Per column its x, per run length its width, per row its height and y, as :meth:`Cells.runs` makes them."""
    # remembered: a pack's QR codes have the same geometry, only other cells
    xs = [_n(x + c * cell) for c in range(columns)]
    widths = [_n(k * cell) for k in range(columns + 1)]
    return xs, widths, [(_n(cell * 1.02 if r < rows - 1 else cell), _n(y + r * cell)) for r in range(rows)]


def _fill(text: str, placeholder: str, parts: list[str]) -> str:
    """``text`` with the n-th ``<g id="<placeholder>n" />`` replaced by ``parts[n]``."""
    for n, xml in enumerate(parts):
        text = text.replace(f'<g id="{placeholder}{n}" />', xml, 1)
    return text


class _Builder:
    """Turns primitives into svgwrite elements of one drawing (or, for glyph runs and grids, into XML directly)."""

    def __init__(self, dwg: svgwrite.Drawing, text: SvgText = "font") -> None:
        self.dwg = dwg
        self.outlines = text == "path"

    def xml(self, item: Item) -> str:
        """The item's XML (a grid's runs as ``<rect>``, text as glyphs when drawing outlines)."""
        if isinstance(item, Cells):
            return cells_xml(item)
        if isinstance(item, Text) and self.outlines:
            return glyphs.run_xml(item)
        return _xml(self.element(item))

    def element(self, item: Item) -> Any:
        d = self.dwg
        if isinstance(item, Text):
            attrs: dict[str, str] = {"font_size": _n(item.size), "fill": item.fill}
            if item.weight == "bold":
                attrs["font_weight"] = "bold"
            if item.anchor != "start":
                attrs["text_anchor"] = item.anchor
            return d.text(item.text, insert=(_n(item.x), _n(item.y)), **attrs)
        if isinstance(item, Line):
            return d.line((_n(item.x1), _n(item.y1)), (_n(item.x2), _n(item.y2)), **_style_attrs(item.style))
        if isinstance(item, Rect):
            extra = {"rx": _n(item.radius)} if item.radius else {}
            return d.rect((_n(item.x), _n(item.y)), (_n(item.w), _n(item.h)), **extra, **_style_attrs(item.style))
        if isinstance(item, Circle):
            return d.circle((_n(item.cx), _n(item.cy)), _n(item.r), **_style_attrs(item.style))
        if isinstance(item, Path):
            return self.path(item, ink=False)
        if isinstance(item, Icon):
            return d.use("#" + _ident("icon-", item.name), insert=(_n(item.x), _n(item.y)),
                         size=(_n(item.size), _n(item.size)), fill=item.fill, stroke=item.fill)
        if isinstance(item, UseForm):
            return d.use("#" + _ident("form-", item.name))
        if isinstance(item, Clipped):
            return self.clipped(item)
        raise TypeError(f"cannot draw {type(item).__name__}")  # pragma: no cover

    def path(self, item: Path, *, ink: bool) -> Any:
        attrs = _style_attrs(item.style, ink=ink)
        if item.even_odd:
            attrs["fill_rule"] = "evenodd"
        return self.dwg.path(d=path_data(item.commands), **attrs)

    def clipped(self, item: Clipped) -> Any:
        """``<g><clipPath id><path/></clipPath><g clip-path>paths</g></g>``, the id a digest of the clip (stable)."""
        data = path_data(item.clip)
        ident = "clip-" + hashlib.sha256(data.encode("ascii")).hexdigest()[:12]
        outer = self.dwg.g()
        clip = outer.add(self.dwg.clipPath(id=ident))
        clip.add(self.dwg.path(d=data, **({"clip_rule": "evenodd"} if item.even_odd else {})))
        inner = outer.add(self.dwg.g(clip_path=f"url(#{ident})"))
        for path in item.paths:
            inner.add(self.path(path, ink=False))
        return outer

    def symbol(self, sym: Symbol) -> Any:
        el = self.dwg.symbol(id=_ident("icon-", sym.name), viewBox="0 0 1 1")
        for p in sym.paths:
            el.add(self.path(p, ink=True))
        return el

    def form(self, form: Form) -> Any:
        group = self.dwg.g(id=_ident("form-", form.name))
        for item in form.items:
            for one in item.rects() if isinstance(item, Cells) else (item,):
                group.add(self.element(one))
        return group

    def form_xml(self, form: Form) -> str:
        """The form's ``<g id>`` in ``<defs>``: svgwrite's bytes for text as ``<text>``, else built as a string."""
        if not self.outlines:
            return _xml(self.form(form))
        ident = _escape(_ident("form-", form.name))
        inner = "".join(self.xml(item) for item in form.items)
        return f'<g id="{ident}">{inner}</g>' if inner else f'<g id="{ident}" />'


@lru_cache(maxsize=64)
def font_subset(weight: FontWeight, chars: str) -> bytes:
    """A TrueType subset of the shipped font for ``weight`` with exactly the glyphs of ``chars``."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.drop_tables += ["GPOS", "GSUB", "GDEF", "kern", "DSIG"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14]  # names, copyright, trademark and the licence notice
    font = TTFont(str(fonts.font_file(weight)), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _chars_by_weight(texts: Iterable[Text]) -> dict[FontWeight, frozenset[str]]:
    used: dict[FontWeight, set[str]] = {}
    for t in texts:
        used.setdefault(t.weight, set()).update(t.text)
    return {weight: frozenset(chars) for weight, chars in used.items()}


@lru_cache(maxsize=64)
def _font_face(weight: FontWeight, chars: str) -> str:
    data = base64.b64encode(font_subset(weight, chars)).decode("ascii")
    return (
        f"@font-face{{font-family:'{fonts.NAME}';font-weight:{700 if weight == 'bold' else 400};"
        f"font-style:normal;src:url(data:font/ttf;base64,{data}) format('truetype')}}"
    )


def _css(used: dict[FontWeight, frozenset[str]]) -> str:
    rules = [_font_face(weight, "".join(sorted(used[weight]))) for weight in sorted(used)]
    return "".join(rules) + "text{white-space:pre}"


@lru_cache(maxsize=64)
def _css_bytes(used: tuple[tuple[FontWeight, frozenset[str]], ...]) -> bytes:
    return _css(dict(used)).encode("utf-8")


@lru_cache(maxsize=64)
def _glyph_bytes(chars: tuple[tuple[FontWeight, frozenset[str]], ...]) -> bytes:
    return glyphs.defs_xml(chars).encode("utf-8")


def font_css(texts: Iterable[Text]) -> str:
    """``@font-face`` rules embedding the subset of each weight the texts use (empty if none)."""
    return _css(_chars_by_weight(texts))


def _walk(items: Iterable[Item], forms: dict[str, Form]) -> Iterator[Item]:
    for item in items:
        yield item
        if isinstance(item, UseForm) and item.name in forms:
            yield from _walk(forms[item.name].items, forms)


def _xml(element: Any) -> str:
    return str(element.tostring())


@dataclass
class _Uses:
    """The forms, icons and characters (per weight) some items use."""

    forms: set[str]
    icons: set[str]
    chars: dict[FontWeight, frozenset[str]]

    @classmethod
    def of(cls, items: list[Item], forms: dict[str, Form]) -> _Uses:
        """What ``items`` use themselves (not what the forms they place use)."""
        return cls({i.name for i in items if isinstance(i, UseForm) and i.name in forms},
                   {i.name for i in items if isinstance(i, Icon)},
                   _chars_by_weight(i for i in items if isinstance(i, Text)))  # fmt: skip

    def add(self, other: _Uses) -> None:
        """Add what ``other`` uses."""
        self.forms |= other.forms
        self.icons |= other.icons
        for weight, chars in other.chars.items():
            self.chars[weight] = self.chars.get(weight, frozenset()) | chars


class SvgPack:
    """The pages of one document as SVG: the forms and symbols pages share are serialised once."""

    def __init__(self, document: Document, text: SvgText = "path") -> None:
        self.document = document
        self.text: SvgText = text
        self.forms = {f.name: f for f in document.forms}
        self._dwg = self._drawing()
        self._xml: dict[str, str] = {}  # "form-<name>" / "icon-<name>" -> its serialised <defs> entry
        self._uses: dict[str, _Uses] = {}  # per form: what it and the forms inside it use
        self._frames: dict[tuple[tuple[str, ...], bool], list[bytes]] = {}  # see _frame

    def _drawing(self) -> svgwrite.Drawing:
        d = self.document
        dwg = svgwrite.Drawing(
            size=(f"{_n(d.width)}pt", f"{_n(d.height)}pt"), viewBox=f"0 0 {_n(d.width)} {_n(d.height)}",
            profile="full", debug=False,
        )  # fmt: skip
        if self.text == "font":
            dwg.attribs["font-family"] = fonts.FAMILY
            dwg.attribs["xml:space"] = "preserve"  # double spaces print as in the PDF
        return dwg

    def _key(self, prefix: str, part: Symbol | Form) -> str:
        """The key of a shared part (``icon-<name>`` / ``form-<name>``), serialised on first use."""
        key = prefix + part.name
        if key not in self._xml:
            b = _Builder(self._dwg, self.text)
            self._xml[key] = _xml(b.symbol(part)) if isinstance(part, Symbol) else b.form_xml(part)
        return key

    def _form_uses(self, name: str) -> _Uses:
        if name not in self._uses:
            self._uses[name] = _Uses.of(list(_walk(self.forms[name].items, self.forms)), self.forms)
        return self._uses[name]

    def _frame(self, shared: list[str], titled: bool) -> list[bytes]:
        """A page's bytes around its slots (title, font rules or glyphs, items): the same for pages sharing parts."""
        key = (tuple(shared), titled)
        if key not in self._frames:
            dwg = self._drawing()
            if titled:
                dwg.set_desc(title=_SLOT)
            dwg.defs.add(dwg.style(_SLOT) if self.text == "font" else dwg.g(id=_GLYPHS))
            for n in range(len(shared)):
                dwg.defs.add(dwg.g(id=f"{_PLACEHOLDER}{n}"))
            dwg.add(dwg.rect((0, 0), ("100%", "100%"), fill="#ffffff"))
            dwg.add(dwg.g(id=_BODY))
            out = io.StringIO()
            dwg.write(out, pretty=False)
            text = _fill(out.getvalue(), _PLACEHOLDER, [self._xml[k] for k in shared])
            text = text.replace(f'<g id="{_GLYPHS}" />', _SLOT, 1)
            parts = text.replace(f'<g id="{_BODY}" />', _SLOT, 1).split(_SLOT)
            assert len(parts) == 3 + titled, "a shared part holds the slot character"
            self._frames[key] = [part.encode("utf-8") for part in parts[:-1]] + [(parts[-1] + "\n").encode("utf-8")]
        return self._frames[key]

    def page(self, index: int) -> bytes:
        """Page ``index`` as standalone SVG bytes (UTF-8): its frame with its title, font or glyphs and items in."""
        document, page = self.document, self.document.pages[index]
        uses = _Uses.of(list(page.items), self.forms)
        for name in list(uses.forms):
            uses.add(self._form_uses(name))
        shared = [self._key("icon-", sym) for sym in document.symbols if sym.name in uses.icons]
        shared += [self._key("form-", form) for form in document.forms if form.name in uses.forms]
        b = _Builder(self._dwg, self.text)
        body = "".join(b.xml(i) for i in page.items)
        chars = tuple(sorted(uses.chars.items()))
        slots = [_css_bytes(chars) if self.text == "font" else _glyph_bytes(chars), body.encode("utf-8")]
        if document.title:
            title = document.title if not page.label else f"{document.title} - {page.label}"
            slots.insert(0, _escape(title, _TEXT_ENTITIES).encode("utf-8"))
        frame = self._frame(shared, bool(document.title))
        return b"".join([part for pair in zip(frame, slots) for part in pair] + [frame[-1]])


def render_svg_page(document: Document, index: int, text: SvgText = "path") -> bytes:
    """Page ``index`` of the document as standalone SVG bytes (UTF-8)."""
    return SvgPack(document, text).page(index)
