"""The starting city always counts as visited (RULINGS.md), and it is never an iconic city: a player whose record
visits no city of a region is refused, one city of a region is enough."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit import registry
from printkit.errors import DataError

NO_START = ("players[0].visited: no city of a region visited, only iconic cities (the starting city counts as "
            "visited from the start, and it is never an iconic city)")


def score(player: dict[str, object], map_id: str = "us") -> int:
    doc = {"map": map_id, "mode": "solo", "players": [{"name": "Kit", **player}]}
    return registry.score_document(doc, "g.json", Path("."))[0].players[0].total


def problems(player: dict[str, object], map_id: str = "us") -> list[str]:
    with pytest.raises(DataError) as caught:
        score(player, map_id)
    return caught.value.problems


@pytest.mark.parametrize("visited", [{}, {"west": 0}, {"west": 0, "south": 0, "northeast": 0}])
def test_iconic_cities_alone_are_no_visit_at_all(visited: dict[str, int]) -> None:
    assert problems({"visited": visited, "iconic": 2}) == [f"g.json: {NO_START}"]


def test_one_city_of_a_region_beside_the_iconic_ones_is_a_start() -> None:
    assert score({"visited": {"west": 1}, "iconic": 2}) == 5  # the iconic table: 2 cities = 5
    assert score({"visited": {"west": 1}}) == 0


@pytest.mark.parametrize("map_id,region", [("us", "west"), ("world", "europe"), ("europe", "northern-europe"),
                                           ("south-america", "andes")])
def test_no_city_at_all_is_refused_on_every_map(map_id: str, region: str) -> None:
    assert problems({"visited": {region: 0}}, map_id) == [
        "g.json: players[0].visited: no city visited (the starting city counts as visited from the start)"]
    assert score({"visited": {region: 1}}, map_id) == 0  # one city: no region complete, no marks
