"""Text as glyph outlines for SVG: every renderer draws the shipped Open Sans, installed or not.

Each glyph of the shipped fonts becomes SVG path data once per process
(fontTools, imported here and in ``svg.py`` only): in font units, y down, so a
run of text is one ``<g>`` scaled by ``size / unitsPerEm`` holding a ``<use>``
per glyph at its pen position. The pen advances by the glyphs' advance widths
from :mod:`printkit.layout.fonts`, without kerning, exactly as the layout
measures and the PDF places text (anchors too: ``middle`` starts half the
width to the left). The run's ``<g>`` carries its text as ``aria-label`` for
screen readers and search.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

from printkit.layout import fonts
from printkit.layout.primitives import FontWeight, Text

_XLINK = "xlink:href"
_ATTR = {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}  # and & < >: as ElementTree writes an attribute


def _units(value: float) -> str:
    """A font-unit coordinate: an integer, or the half an implied on-curve point falls on."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def glyph_id(weight: FontWeight, gid: int) -> str:
    """The ``<path id>`` of glyph ``gid`` of the font for ``weight``."""
    return f"g{weight[0]}{gid}"


@lru_cache(maxsize=2)
def _glyph_set(weight: FontWeight) -> tuple[Any, list[str]]:
    """The font's glyph set and glyph names (read once per process)."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(fonts.font_file(weight)), lazy=True)
    return font.getGlyphSet(), font.getGlyphOrder()


@lru_cache(maxsize=4096)
def outline(weight: FontWeight, gid: int) -> str:
    """SVG path data of glyph ``gid`` in font units, y pointing down (empty for a blank glyph such as space)."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    glyph_set, order = _glyph_set(weight)
    pen = SVGPathPen(glyph_set, ntos=_units)
    glyph_set[order[gid]].draw(TransformPen(pen, (1, 0, 0, -1, 0, 0)))
    commands: str = pen.getCommands()
    return commands


def defs_xml(chars: tuple[tuple[FontWeight, frozenset[str]], ...]) -> str:
    """One ``<path id>`` per glyph drawing the characters of each weight (blank glyphs left out), in a stable order."""
    used = sorted({(weight, fonts.metrics(weight).glyph(ch)) for weight, some in chars for ch in some},
                  key=lambda key: (key[0] != "regular", key[1]))
    return "".join(f'<path d="{outline(w, g)}" id="{glyph_id(w, g)}"/>' for w, g in used if outline(w, g))


@lru_cache(maxsize=8192)
def uses_xml(text: str, weight: FontWeight) -> str:
    """A ``<use>`` per drawn glyph of ``text`` at its pen position in font units (advance widths, no kerning)."""
    m = fonts.metrics(weight)
    out: list[str] = []
    pen = 0
    for ch in text:
        gid = m.glyph(ch)
        if outline(weight, gid):
            out.append(f'<use {_XLINK}="#{glyph_id(weight, gid)}" x="{pen}"/>' if pen else
                       f'<use {_XLINK}="#{glyph_id(weight, gid)}"/>')
        pen += m.advance(ch)
    return "".join(out)


def scale(size: float, weight: FontWeight) -> str:
    """The factor from font units to points at ``size``, as written in a transform."""
    return f"{size / fonts.metrics(weight).units_per_em:.7g}"


def _num(value: float) -> str:
    """A page coordinate as the SVG backend writes one: at most 2 decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def run_xml(item: Text) -> str:
    """A run of text as outlines: a ``<g>`` labelled with its text, placed and anchored as the PDF places it."""
    width = fonts.text_width(item.text, item.size, item.weight)
    x = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
    s = scale(item.size, item.weight)
    return (f'<g aria-label="{escape(item.text, _ATTR)}" fill="{escape(item.fill, _ATTR)}" '
            f'transform="matrix({s} 0 0 {s} {_num(x)} {_num(item.y)})">{uses_xml(item.text, item.weight)}</g>')
