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
