"""Score pads: a player's name of up to 40 characters fits its column's header cell (shrunk, then on more lines)."""

from __future__ import annotations

import pytest

from printkit.layout import fonts
from printkit.layout.common import LIGHT
from printkit.layout.primitives import Rect, Text
from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import scorepad

LONG = "Wolfeschlegelsteinhausenberg Maximiliana"  # 40 characters


def _headers(doc: scorepad.Document) -> list[Rect]:
    (form,) = doc.forms
    return [i for i in form.items if isinstance(i, Rect) and i.style.fill == LIGHT and i.h < 40
            and any(isinstance(t, Text) and t.text == "Player" and i.y < t.y < i.y + i.h for t in form.items)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("map_id", bundled_maps())
def test_a_40_character_name_fits_its_header_cell(map_id: str, paper: str) -> None:
    m = load_map(map_id)
    names = [LONG, "Ann", "Jean-Baptiste Emmanuel Zorg de la Fontai", "W" * 40]
    assert all(len(n) == 40 for n in names if n != "Ann")
    doc = scorepad.build(m, names, paper)
    headers = _headers(doc)
    assert headers  # every table's header row
    col_w = (headers[0].w - scorepad.LABEL_W) / m.max_multiplayer
    texts = [i for i in doc.pages[0].items if isinstance(i, Text)]
    for column, name in enumerate(names):
        x0 = headers[0].x + scorepad.LABEL_W + column * col_w
        mine = [t for t in texts if x0 < t.x < x0 + col_w]
        assert len(mine) % len(headers) == 0
        per_cell = len(mine) // len(headers)
        assert per_cell == (1 if name == "Ann" else 3)
        shown = "".join(t.text.removesuffix("-") if k < per_cell - 1 else t.text
                        for k, t in enumerate(mine[:per_cell]))
        assert shown.replace(" ", "") == name.replace(" ", "")  # every letter printed, none cut
        for t in mine:
            width = fonts.text_width(t.text, t.size, t.weight)
            assert t.x - width / 2 >= x0 + 2.9 and t.x + width / 2 <= x0 + col_w - 2.9, (name, t)
            cell = next(h for h in headers if h.y <= t.y <= h.y + h.h)
            top, bottom = t.y - fonts.ascent(t.size, "bold") * 0.75, t.y + fonts.descent(t.size, "bold")
            assert cell.y <= top and bottom <= cell.y + cell.h, (name, t, cell)
        assert min(t.size for t in mine) >= (3.9 if name.startswith("W") else 5.9)
    ann = next(t for t in texts if t.text == "Ann")
    assert ann.size == 11.0  # a short name as before


def test_a_name_that_fits_one_line_shrinks_before_it_takes_two() -> None:
    width, room = 53.5, 19.8
    one = "Christopher"
    assert 8.0 <= fonts.fit_size(one, width, 11.0, "bold", 0.0) < 11.0  # too wide at 11 pt, fits at 8 pt or more
    assert scorepad.name_lines(one, width, room) == ((one,), fonts.fit_size(one, width, 11.0, "bold", 0.0))
    two = "Christopher Montgomery"
    assert fonts.fit_size(two, width, 11.0, "bold", 0.0) < 8.0
    lines, size = scorepad.name_lines(two, width, room)
    assert lines == ("Christopher", "Montgomery") and size >= scorepad.LINES_MIN
    assert all(fonts.text_width(t, size, "bold") <= width + 1e-9 for t in lines)
