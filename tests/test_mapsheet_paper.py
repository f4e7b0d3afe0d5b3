"""The map sheet uses its paper: no blank band taller than 15 % of the printable height, play aids present."""

from __future__ import annotations

import pytest

from printkit.layout.boxes import item_box
from printkit.layout.common import printable_area
from printkit.layout.primitives import Text
from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import mapsheet

PAPERS = ("a4", "letter")


def tallest_blank_band(map_id: str, paper: str) -> float:
    """The tallest run of empty height (points) in any column of the sheet: the map's and each section column."""
    c = mapsheet.compose(load_map(map_id), paper)
    area = printable_area(c.fields.width, c.fields.height)
    p = c.plan
    strips = [(p.map_box.x, p.map_box.x + p.left_w, p.map_box.y)]
    strips += [(col.box.x, col.box.right, col.box.y) for col in p.columns]
    boxes = [b for b in (item_box(i) for i in c.shared) if b is not None]
    tallest = 0.0
    for x0, x1, top in strips:
        spans = sorted((max(b.y, top), min(b.bottom, area.bottom)) for b in boxes
                       if b.x < x1 - 1 and b.right > x0 + 1 and b.bottom > top and b.y < area.bottom)
        end = top
        for a, b in spans:
            tallest = max(tallest, a - end)
            end = max(end, b)
        tallest = max(tallest, area.bottom - end)
    return tallest


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("map_id", bundled_maps())
def test_no_blank_band_taller_than_15_percent(map_id: str, paper: str) -> None:
    doc = mapsheet.build(load_map(map_id), [], paper)
    area = printable_area(doc.width, doc.height)
    assert tallest_blank_band(map_id, paper) <= 0.15 * area.h


@pytest.mark.parametrize("paper", PAPERS)
def test_europe_has_its_each_turn_reminder(paper: str) -> None:
    c = mapsheet.compose(load_map("europe"), paper)
    assert c.plan.turn >= 1
    assert "Each turn" in [i.text for i in c.shared if isinstance(i, Text)]


@pytest.mark.parametrize("map_id", bundled_maps())
def test_speed_bonus_states_the_solo_party_rule_and_has_turn_boxes(map_id: str) -> None:
    m = load_map(map_id)
    c = mapsheet.compose(m, "a4")
    shown = " ".join(i.text for i in c.shared if isinstance(i, Text))
    assert f"Multiplayer: {m.speed_bonus} when you finish." in shown
    assert f"it scores {m.solo.turns} - that turn." in shown
    ids = [b.id for b in c.fields.boxes]
    assert [i for i in ids if i.startswith("finished_turn.")] == [f"finished_turn.{n}" for n in range(1, m.solo.turns + 1)]


@pytest.mark.parametrize("paper", PAPERS)
def test_europe_tallies_cities_visited_per_region(paper: str) -> None:
    m = load_map("europe")
    ids = [b.id for b in mapsheet.compose(m, paper).fields.boxes]
    for region in m.regions:
        count = len(m.region_cities(region.id))
        assert [i for i in ids if i.startswith(f"visited.{region.id}.")] == [
            f"visited.{region.id}.{n}" for n in range(1, count + 1)]
    assert not [i for i in ids if i.startswith("first_rare.")]


@pytest.mark.parametrize("paper", PAPERS)
def test_south_america_has_a_marked_it_first_box_beside_each_rare_animal(paper: str) -> None:
    m = load_map("south-america")
    c = mapsheet.compose(m, paper)
    boxes = {b.id: b.rect for b in c.fields.boxes}
    (rare,) = [t for t in m.explore if t.first_bonus]
    for kind in rare.kinds:
        seen, first = boxes[f"animals.{kind.id}.1"], boxes[f"first_rare.{kind.id}"]
        assert first[0] > seen[2] and abs(first[1] - seen[1]) < 0.01  # beside it, on its right
    shown = " ".join(i.text for i in c.shared if isinstance(i, Text))
    assert f"+{rare.first_bonus} if you marked it first (solo: always)" in shown
    assert not [i for i in boxes if i.startswith("visited.")]
