"""A map's indexes (built once per map) answer as the scans over its tuples they replace."""

from __future__ import annotations

import pytest

from printkit.loading.maps import bundled_maps, load_map
from printkit.model.words import match_id


@pytest.mark.parametrize("map_id", bundled_maps())
def test_city_ids_match_in_any_case_as_match_id_does(map_id: str) -> None:
    m = load_map(map_id)
    ids = [c.id for c in m.cities]
    tries: list[object] = [*ids, *(i.upper() for i in ids), *(f"  {i.title()} " for i in ids),
                           "atlantis", "", "  ", None, 3, ["london"]]
    for value in tries:
        assert m.match_city_id(value) == match_id(value, ids), value
    assert m.match_city_id(" LONDON ") == ("london" if "london" in ids else None)


def test_a_map_built_in_python_with_ids_differing_in_case_matches_the_first() -> None:
    world = load_map("world")
    city = world.cities[3]
    twins = world._replace(cities=(city._replace(id=city.id.title()), *world.cities))
    assert twins.match_city_id(city.id) == city.id.title() == match_id(city.id, [c.id for c in twins.cities])
    assert city.id.title() != city.id and world.match_city_id(city.id.upper()) == city.id  # its own index


@pytest.mark.parametrize("map_id", bundled_maps())
def test_regions_by_id_and_their_sizes(map_id: str) -> None:
    m = load_map(map_id)
    assert m.region_ids == tuple(r.id for r in m.regions)
    for r in m.regions:
        assert m.region(r.id) is r
        assert m.region_sizes[r.id] == len(m.region_cities(r.id)) == sum(1 for c in m.cities if c.region == r.id) > 0
    with pytest.raises(KeyError, match="atlantis"):
        m.region("atlantis")
    assert m.every_region_visited(dict.fromkeys(m.region_ids, m.end_cities_per_region))
    short = {**dict.fromkeys(m.region_ids, m.end_cities_per_region), m.region_ids[-1]: m.end_cities_per_region - 1}
    assert not m.every_region_visited(short)


def test_a_repeated_region_id_finds_its_first_region() -> None:
    world = load_map("world")
    first = world.regions[0]
    twice = world._replace(regions=(first, first._replace(name="Elsewhere"), *world.regions[1:]))
    assert twice.region(first.id).name == first.name
    assert world.region(first.id) is first


@pytest.mark.parametrize("map_id", bundled_maps())
def test_section_kinds_list_each_kind_with_its_track_in_sheet_order(map_id: str) -> None:
    m = load_map(map_id)
    collect = m.section_kinds("collect")
    assert list(collect) == list(m.collect.kind_ids)
    assert all(collect[k.id] == (m.collect, k) for k in m.collect.kinds)
    explore = m.section_kinds("explore")
    assert list(explore) == [k.id for t in m.explore for k in t.kinds]
    assert all(explore[k.id] == (t, k) for t in m.explore for k in t.kinds)
    assert m.tracks == (m.collect, *m.explore) and m.tracks is m.tracks
    assert m.iconic_cities == tuple(c for c in m.cities if c.iconic)


def test_south_america_explores_three_animal_tracks() -> None:
    m = load_map("south-america")
    tracks = {t.id for t, _ in m.section_kinds("explore").values()}
    assert len(m.explore) == 3 and tracks == {t.id for t in m.explore}
    assert "condor" in m.section_kinds("explore") and "condor" not in m.section_kinds("collect")
