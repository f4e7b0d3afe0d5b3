"""The embedded font: metrics read by printkit agree with fontTools; every map name has glyphs."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path
from typing import Any, Iterator, Literal

import pytest
from fontTools.fontBuilder import FontBuilder  # type: ignore[import-untyped]
from fontTools.pens.ttGlyphPen import TTGlyphPen  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from printkit.errors import DataError
from printkit.layout import fonts
from printkit.resources import asset, data_dir

Weight = Literal["regular", "bold"]
WEIGHTS: tuple[Weight, ...] = ("regular", "bold")
HARD_NAMES = "São Paulo Łódź Kraków Reykjavík İstanbul Brașov Bogotá Asunción Zürich Île-de-France Mérida Ñuñoa"


def _reference(weight: Weight) -> Any:
    return TTFont(str(fonts.font_file(weight)))


@pytest.mark.parametrize("weight", WEIGHTS)
def test_font_file_is_shipped_truetype_with_licence(weight: Weight) -> None:
    path = fonts.font_file(weight)
    assert path.parent == asset("fonts")
    assert path.read_bytes()[:4] == b"\x00\x01\x00\x00"  # TrueType outlines, not CFF 'OTTO'
    assert "glyf" in _reference(weight)
    assert (path.parent / "LICENSE-Apache-2.0.txt").is_file()
    assert "Apache" in (path.parent / "PROVENANCE.md").read_text(encoding="utf-8")


def test_unknown_weight_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown font weight 'heavy': expected regular or bold"):
        fonts.font_file("heavy")  # type: ignore[arg-type]


@pytest.mark.parametrize("weight", WEIGHTS)
def test_cmap_and_vertical_metrics_match_fonttools(weight: Weight) -> None:
    ref = _reference(weight)
    names = ref.getGlyphOrder()
    m = fonts.metrics(weight)
    assert {code: names[gid] for code, gid in m.cmap.items()} == ref.getBestCmap()
    assert m.units_per_em == ref["head"].unitsPerEm == 2048
    assert m.ascender == ref["hhea"].ascent
    assert m.descender == ref["hhea"].descent
    assert fonts.ascent(10, weight) == pytest.approx(10 * ref["hhea"].ascent / 2048)
    assert fonts.descent(10, weight) > 0  # positive depth below the baseline


@pytest.mark.parametrize("weight", WEIGHTS)
@pytest.mark.parametrize("text", ["São Paulo", "Łódź", "İstanbul", "Brașov", "Total", "WWW iii 0123456789", ""])
def test_text_width_matches_fonttools_advances(weight: Weight, text: str) -> None:
    ref = _reference(weight)
    cmap = ref.getBestCmap()
    hmtx = ref["hmtx"]
    expected = sum(hmtx[cmap[ord(ch)]][0] for ch in text) * 12 / ref["head"].unitsPerEm
    assert fonts.text_width(text, 12, weight) == pytest.approx(expected)


def test_bold_is_wider_and_width_scales_with_size() -> None:
    assert fonts.text_width("Around the World", 10, "bold") > fonts.text_width("Around the World", 10)
    assert fonts.text_width("Cairo", 20) == pytest.approx(2 * fonts.text_width("Cairo", 10))


def test_missing_glyphs_finds_cjk_and_emoji_once_each() -> None:
    assert fonts.missing_glyphs("Tokyo 東京 東 🎲") == "東京🎲"
    assert fonts.missing_glyphs(HARD_NAMES) == ""
    assert fonts.missing_glyphs(HARD_NAMES, "bold") == ""


def test_fit_size_shrinks_long_text_to_the_width() -> None:
    size = fonts.fit_size("Saint Petersburg", 40, 10)
    assert size < 10
    assert fonts.text_width("Saint Petersburg", size) == pytest.approx(40)
    assert fonts.fit_size("Rome", 400, 10) == 10


def test_not_a_font_is_a_clear_error() -> None:
    with pytest.raises(DataError) as err:
        fonts.parse_metrics(b"<svg>not a font</svg>", "bad.ttf")
    assert str(err.value) == "bad.ttf: not a TrueType font (sfnt version 0x3c737667)"


def test_cmap_format_12_is_read_for_characters_beyond_the_bmp() -> None:
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "A", "die"])
    fb.setupCharacterMap({0x41: "A", 0x1F3B2: "die"})
    pen = TTGlyphPen(None)
    fb.setupGlyf({g: pen.glyph() for g in (".notdef", "A", "die")})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "A": (600, 0), "die": (900, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "T", "styleName": "R"})
    fb.setupOS2()
    fb.setupPost()
    buf = io.BytesIO()
    fb.save(buf)
    m = fonts.parse_metrics(buf.getvalue(), "t.ttf")
    assert m.cmap == {0x41: 1, 0x1F3B2: 2}
    # "A" + die + a missing char drawn as .notdef: 600 + 900 + 500 units
    assert sum(m.advance(ch) for ch in "A\U0001F3B2z") == 2000
    assert (m.ascender, m.descender) == (800, -200)


def _strings(node: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, f"{path}.{key}" if path else key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _strings(value, f"{path}[{i}]")


MAP_FILES = sorted(data_dir("maps").glob("*.toml"))


def test_the_four_bundled_maps_are_checked() -> None:
    stems = {p.stem for p in MAP_FILES}
    assert {"world", "us", "europe", "south-america"} <= stems


@pytest.mark.parametrize("weight", WEIGHTS)
@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: Path(p).name)
def test_every_string_in_every_map_file_has_glyphs(path: Path, weight: Weight) -> None:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    missing = [
        f"{path.name}: {field}: {value!r} lacks {fonts.missing_glyphs(value, weight)!r}"
        for field, value in _strings(doc, "")
        if fonts.missing_glyphs(value, weight)
    ]
    assert missing == []
