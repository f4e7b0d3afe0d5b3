"""Sheet layouts at the primitive level: content from the data, no overlaps, inside margins."""

from __future__ import annotations

import math
from functools import lru_cache

import pytest

from printkit.layout import fonts
from printkit.layout.boxes import Box, flatten, item_box, outside, overlapping_texts, text_box
from printkit.layout.common import LayoutError, check_glyphs, name_texts, page_size, printable_area
from printkit.layout.labels import LabelPlacer
from printkit.layout.primitives import Cells, Circle, Document, Icon, Item, Line, Path, Text
from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import citymarks, identity, mapsheet, scorepad
from printkit.sheets.atw import SHEETS as BUILDERS
from printkit.sheets.citytags import name_lines

MAPS = bundled_maps()
PAPERS = ("a4", "letter")


@lru_cache(maxsize=None)
def sheet(kind: str, map_id: str, paper: str, names: tuple[str, ...] = ("Ann",)) -> Document:
    return BUILDERS[kind](load_map(map_id), list(names), paper).document


def page_items(doc: Document, index: int = 0) -> list[Item]:
    return flatten(doc.pages[index].items, doc.forms)


def texts(items: list[Item]) -> list[str]:
    return [i.text for i in items if isinstance(i, Text)]


def test_every_bundled_map_is_tested() -> None:
    assert set(MAPS) == {"world", "us", "europe", "south-america"}


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("kind", sorted(BUILDERS))
@pytest.mark.parametrize("map_id", MAPS)
def test_nothing_overlaps_and_everything_is_inside_the_margins(kind: str, map_id: str, paper: str) -> None:
    doc = sheet(kind, map_id, paper)
    landscape = kind == "map"
    assert (doc.width, doc.height) == page_size(paper, landscape)
    items = page_items(doc)
    assert overlapping_texts(items) == []
    marks = scan_marks(doc, map_id, paper) if landscape else []
    assert all(mark in items for mark in marks)
    rest = [i for i in items if i not in marks]
    assert outside(rest, printable_area(doc.width, doc.height)) == []
    if not landscape:
        return
    assert sum(len(list(m.rects())) for m in marks if isinstance(m, Cells)) > 100  # four markers and a QR code on every map sheet
    # the scan's marks sit in the margin, clear of the edge a printer cannot print, and touch nothing else
    assert outside(marks, Box(14, 14, doc.width - 28, doc.height - 28), tol=0.0) == []
    quiet = [Box(x0, y0, x1 - x0, y1 - y0).grow(2.5) for _, x0, y0, x1, y1 in identity.marker_boxes(paper, doc.width, doc.height)]
    qx0, qy0, qx1, qy1 = identity.qr_box(doc.width)
    quiet.append(Box(qx0, qy0, qx1 - qx0, qy1 - qy0).grow(4.0))
    for item in rest:
        box = item_box(item)
        assert box is None or not any(box.intersects(q) for q in quiet), item


def scan_marks(doc: Document, map_id: str, paper: str) -> list[Item]:
    layout = BUILDERS["map"](load_map(map_id), ["Ann"], paper).layout
    assert layout is not None
    return identity.identity_items(load_map(map_id), paper, layout, (doc.width, doc.height), 1, "Ann")


def corners_of(p: Path) -> list[tuple[float, float]]:
    """A path's end points."""
    return [(float(c[-2]), float(c[-1])) for c in p.commands if len(c) > 1]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("map_id", MAPS)
def test_map_sheet_shows_every_city_route_and_sight(map_id: str, paper: str) -> None:
    m = load_map(map_id)
    items = page_items(sheet("map", map_id, paper))
    shown = texts(items)
    for c in m.cities:  # on one line, or (a long name) on two
        lines = name_lines(c.name, "bold" if c.iconic else "regular")
        assert any(all(shown.count(part) >= 1 for part in way) for way in lines), c.name
    circles = [i for i in items if isinstance(i, Circle) and i.r == mapsheet.CITY_R]
    assert len(circles) == len(m.cities) - len(m.iconic_cities)  # an iconic city is a shield instead (rulebook)
    shields = [i for i in items if isinstance(i, Path) and i.style == citymarks.CITY]
    assert len(shields) == len(m.iconic_cities) + (2 if m.iconic_cities else 0)  # key + section
    for c in m.iconic_cities:  # where the circle would be, inside its room
        p = mapsheet.sheet_fields(m, paper).cities[m.cities.index(c)].center
        assert sum(1 for s in shields if all(math.dist(p, q) <= 5.05 for q in corners_of(s))) == 1, c.name
    routes = [i for i in items if isinstance(i, (Line, Path)) and i.style == mapsheet.ROUTE]
    assert len(routes) == len(m.routes) + 1  # straight or curved, plus the one in the key
    stars = [i for i in items if isinstance(i, Icon) and i.name == citymarks.STAR and i.fill == citymarks.GOLD]
    assert len(stars) == len(m.iconic_cities) + (1 if m.iconic_cities else 0)  # in each tag, and the key's
    assert not any(isinstance(i, Icon) and i.name == "shield" for i in items)
    sights = [i for i in items if isinstance(i, Icon) and i.size in mapsheet.SIGHTS and i.name != citymarks.STAR]
    assert len(sights) == sum(len(c.sights) for c in m.cities)
    # labels on the map are readable: at least 7 pt
    assert min(i.size for i in items if isinstance(i, Text)) >= 7.0


@pytest.mark.parametrize("map_id", MAPS)
def test_map_sheet_scoring_numbers_come_from_the_data(map_id: str) -> None:
    m = load_map(map_id)
    shown = texts(page_items(sheet("map", map_id, "a4")))
    # Collect: the full-row points once per souvenir row, the column points under each column
    assert shown.count(str(m.collect.row_points[-1])) >= len(m.collect.kinds)
    for kind in m.collect.kinds:
        assert kind.name in shown
    for track in m.explore:
        assert track.name in shown
        for kind in track.kinds:
            assert kind.name in shown
    for region in m.regions:
        assert region.name in shown
        if region.reward is not None:
            assert f"most: {region.reward}" in shown
    if m.region_scoring.mode == "table":
        for points in m.region_scoring.table[1:]:
            assert str(points) in shown
    if m.iconic_table:
        assert "Iconic cities" in shown
    assert "TOTAL" in shown and "Name:" in shown and "Start:" in shown


def test_south_america_sections_show_animal_bonuses() -> None:
    shown = " ".join(texts(page_items(sheet("map", "south-america", "a4"))))
    # common animals: 1 per mark, majority 5 / tied 2; rare: 3 each, +2 first (RULINGS.md)
    assert "most marks +5, tied +2 (multiplayer)" in shown
    assert "3 each, +2 if you marked it first" in shown


def test_pack_has_one_page_per_name_with_shared_form() -> None:
    doc = sheet("map", "world", "a4", ("Ann", "Bo", "Cy"))
    assert len(doc.pages) == 3 and len(doc.forms) == 1
    for page, name in zip(doc.pages, ("Ann", "Bo", "Cy")):
        assert texts(list(page.items)) == [name]
    blank = sheet("map", "world", "a4", ("", ""))
    assert len(blank.pages) == 2 and all(texts(list(p.items)) == [] for p in blank.pages)


def test_tracker_has_20_turns_bonuses_dice_and_ratings() -> None:
    m = load_map("world")
    shown = texts(page_items(sheet("tracker", "world", "a4")))
    for t in range(1, 21):
        assert str(t) in shown
        assert f"finish: {20 - t}" in shown  # 20 - turn, the solo speed bonus
    assert ["1 or 2:", "3 or 4:", "5 or 6:"] == [s for s in shown if s.endswith(":") and " or " in s]
    assert [s for s in shown if s in ("Travel", "Collect", "Explore")] == ["Travel", "Collect", "Explore"]
    for r in m.solo.ratings:
        assert r.title in shown
    assert "70 or more" in shown and "60-69" in shown and "19 or less" in shown


def test_tracker_notes_follow_the_map() -> None:
    europe = " ".join(texts(page_items(sheet("tracker", "europe", "a4"))))
    assert "Regions: no majority." in europe
    sa = " ".join(texts(page_items(sheet("tracker", "south-america", "a4"))))
    assert "no majority bonus" in sa and "first bonus" in sa
    assert "2 cities in every region" in sa


def test_scorepad_rows_follow_each_map() -> None:
    labels = {m: [label for label, _ in scorepad.categories(load_map(m))] for m in MAPS}
    assert labels["world"] == ["Collect (souvenirs)", "Explore", "Regions completed", "Speed bonus"]
    assert labels["us"] == ["Collect (souvenirs)", "Explore", "Regions completed", "Iconic cities", "Speed bonus"]
    assert labels["europe"] == ["Collect (souvenirs)", "Explore", "Region majorities", "Speed bonus"]
    assert labels["south-america"][1:4] == [t.name for t in load_map("south-america").explore]
    hints = dict(scorepad.categories(load_map("world")))
    assert hints["Explore"] == "marks 1:1 2:2 3:4 4:6 5:9, full column 5"
    assert hints["Regions completed"] == "1:2 2:4 3:7 4:11 5:16 6:21"
    assert dict(scorepad.categories(load_map("us")))["Iconic cities"] == "1:2 2:5 3:9 4:15"


def test_scorepad_continues_on_more_pages() -> None:
    names = tuple(f"P{i}" for i in range(1, 15))
    doc = sheet("scorepad", "world", "letter", names)
    assert len(doc.pages) == 3  # 6 + 6 + 2 columns
    first = texts(list(doc.pages[0].items))
    assert sorted(t for t in first if t.startswith("P")) == sorted([f"P{i}" for i in range(1, 7)] * 3)  # 3 games
    assert "page 1 of 3" in first
    last = texts(list(doc.pages[2].items))
    assert sorted(t for t in last if t.startswith("P")) == ["P13", "P13", "P13", "P14", "P14", "P14"]
    items = page_items(doc, 2)
    assert overlapping_texts(items) == [] and outside(items, printable_area(doc.width, doc.height)) == []
    shown = texts(items)
    assert "Total" in shown and any("closest to their starting city" in t for t in shown)


def test_every_bundled_name_has_glyphs() -> None:
    for map_id in MAPS:
        m = load_map(map_id)
        every = [m.name] + [c.name for c in m.cities] + [r.name for r in m.regions]
        every += [k.name for t in m.tracks for k in t.kinds]
        for value in every:
            assert fonts.missing_glyphs(value) == "", value
            assert fonts.missing_glyphs(value, "bold") == "", value


def test_text_the_font_cannot_print_is_refused() -> None:
    with pytest.raises(LayoutError) as err:
        check_glyphs("Ann 安")
    assert str(err.value) == "cannot print 'Ann 安': the sheet font has no glyph for '安' (U+5B89)"


def test_long_names_shrink_then_take_two_lines_never_cut() -> None:
    (short,) = name_texts(0, 20, "Bo", 100, 12)
    assert (short.text, short.size, short.y) == ("Bo", 12, 20)
    name = "Esmeralda-Wilhelmina von Something"
    (one,) = name_texts(0, 20, name, 160, 12)  # shrunk on one line while it keeps 8 pt
    assert one.text == name and 8.0 <= one.size < 12 and fonts.text_width(name, one.size, "bold") <= 160 + 1e-9
    first, second = name_texts(0, 20, name, 100, 12)  # too long for 8 pt: two lines, the second on the baseline
    assert (first.text, second.text) == ("Esmeralda-Wilhelmina", "von Something") and second.y == 20
    assert first.size == second.size >= 8.0 and first.y == pytest.approx(20 - 1.15 * first.size)
    assert max(fonts.text_width(t.text, t.size, "bold") for t in (first, second)) <= 100 + 1e-9


def test_label_placer_avoids_obstacles_and_area_edges() -> None:
    placer = LabelPlacer(Box(0, 0, 200, 100))
    placer.block(Box(105, 40, 60, 20))  # right of the point is taken
    label = placer.place("Cairo", 100, 50, 5)
    assert label is not None and label.anchor == "end"  # so it goes left
    box = text_box(label)
    assert box.right <= 95 and not box.intersects(Box(105, 40, 60, 20))
    cornered = LabelPlacer(Box(0, 0, 30, 12))
    assert cornered.place("A very long city name", 15, 6, 3) is None


def test_item_boxes_include_strokes() -> None:
    assert item_box(Circle(10, 10, 5)) == Box(4.5, 4.5, 11, 11)
    assert item_box(Icon("star", 1, 2, 3)) == Box(1, 2, 3, 3)
