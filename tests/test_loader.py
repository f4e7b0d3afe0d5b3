"""The map loader on bad input: every problem at once, exact messages, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.errors import DataError, UnknownMapError
from printkit.loading.maps import bundled_maps, load_map, load_map_file
from printkit.loading.text import read_toml

DATA = Path(__file__).parent / "data" / "maps"
TINY = (DATA / "tiny.toml").read_text(encoding="utf-8")


def problems_of(tmp_path: Path, text: str) -> list[str]:
    """Load ``text`` as bad.toml; return its problems with the folder stripped."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_map(str(path))
    return [p.replace(f"{tmp_path}/", "") for p in info.value.problems]


def variant(old: str, new: str, count: int = 1) -> str:
    """tiny.toml with ``old`` replaced by ``new`` (which must occur ``count`` times)."""
    assert TINY.count(old) == count, old
    return TINY.replace(old, new)


def test_tiny_map_loads_with_shared_facts() -> None:
    m = load_map(str(DATA / "tiny.toml"))
    assert m.id == "tiny"
    assert [r.id for r in m.regions] == ["north", "south"]
    assert len(m.routes) == 8
    # shared facts merged from maps/around-the-world.toml
    assert m.speed_bonus == 3
    assert m.solo.turns == 20
    assert m.collect.row_points == (0, 0, 0, 6) and m.collect.column_points == 4
    assert m.explore[0].kind_ids == ("culture", "history", "nature", "food")
    assert m.region_scoring.table == (0, 3, 8)


def test_markup_and_non_latin_names_load_intact() -> None:
    m = load_map(str(DATA / "tiny.toml"))
    assert m.name == 'Tiny <Test> & "Friends"'
    assert m.city("fish").name == 'Fish & "Chips" <Bay>'
    assert m.city("reykjavik").name == "Reykjavík"
    assert m.city("lodz").name == "Łódź"
    assert m.city("sao-paulo").name == "São Paulo"
    assert m.city("cairo").name == "القاهرة"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        load_map(str(tmp_path / "atlantis.toml"))
    assert info.value.problems == [f"{tmp_path}/atlantis.toml: no such file"]


def test_unknown_bundled_name() -> None:
    with pytest.raises(UnknownMapError) as info:
        load_map("atlantis")
    assert isinstance(info.value, DataError)  # callers that only know DataError still catch it
    assert info.value.problems == [
        "unknown map 'atlantis'; choose one of world, us, europe, south-america, or give the path of a .toml map file"
    ]


def test_folder_instead_of_file(tmp_path: Path) -> None:
    (tmp_path / "dir.toml").mkdir()
    with pytest.raises(DataError) as info:
        load_map_file(tmp_path / "dir.toml")
    assert info.value.problems == [f"{tmp_path}/dir.toml: is a folder, not a file"]


def test_syntax_error_gives_line_and_column() -> None:
    with pytest.raises(DataError) as info:
        load_map(str(DATA / "syntax.toml"))
    assert info.value.problems == [f"{DATA}/syntax.toml: line 5, column 3: invalid TOML (Unclosed array)"]


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('id = "x"\nname = "Bogot\u00e1"\n'.encode("latin-1"))
    with pytest.raises(DataError) as info:
        read_toml(path)
    assert info.value.problems == [f"{path}: line 2: not UTF-8 text (save the file as UTF-8)"]


def test_wrong_types_are_all_reported(tmp_path: Path) -> None:
    text = variant("lat = 64.15", 'lat = "64.15"')
    text = text.replace('souvenirs = ["bags", "coffee"]', 'souvenirs = "bags"')
    text = text.replace("cities_per_region = 1", "cities_per_region = true")
    text = text.replace("table = [0, 3, 8]", "table = [0, 3, 8.5]")
    assert problems_of(tmp_path, text) == [
        "bad.toml: regions[1].souvenirs: expected a list of ids, got string 'bags'",
        "bad.toml: cities[0].lat: expected a number, got string '64.15'",
        "bad.toml: region_scoring.table[2]: expected a whole number, got number 8.5",
        "bad.toml: end.cities_per_region: expected a whole number, got boolean true",
    ]


def test_typo_key_is_an_error_with_a_suggestion() -> None:
    with pytest.raises(DataError) as info:
        load_map(str(DATA / "typo.toml"))
    assert info.value.problems == [
        f"{DATA}/typo.toml: regions[0].souvenier: unknown key (did you mean 'souvenirs'?)",
        f"{DATA}/typo.toml: regions[0].souvenirs: missing (expected a list of ids)",
    ]


def test_unknown_top_level_key_lists_the_allowed_keys(tmp_path: Path) -> None:
    text = variant('id = "tiny"', 'id = "tiny"\ncolour = "red"')
    assert problems_of(tmp_path, text) == [
        "bad.toml: colour: unknown key (expected one of: id, name, game, routes, projection, collect, explore, "
        "regions, cities, region_scoring, iconic_table, end, speed_bonus, solo, shape)"
    ]


def test_dangling_references(tmp_path: Path) -> None:
    text = variant('region = "south"\nsights = ["culture", "food"]', 'region = "sooth"\nsights = ["culture", "fod"]')
    text = text.replace('souvenirs = ["mugs", "hats"]', 'souvenirs = ["mugs", "hat"]')
    text = text.replace('["cairo", "perth"]', '["cairo", "perht"]')
    assert problems_of(tmp_path, text) == [
        "bad.toml: regions[0].souvenirs[1]: 'hat' is not a souvenir of this map (souvenirs: mugs, hats, bags, coffee)",
        "bad.toml: cities[3].region: 'sooth' is not a region of this map (regions: north, south)",
        "bad.toml: cities[3].sights[1]: 'fod' is not an Explore kind of this map "
        "(kinds: culture, history, nature, food)",
        "bad.toml: collect.kinds[1]: no region sells Hats ('hats')",
        "bad.toml: routes[4][1]: 'perht' is not a city of this map",
    ]


def test_duplicate_ids_and_routes(tmp_path: Path) -> None:
    text = TINY + '\n[[cities]]\nid = "lodz"\nname = "ŁÓDŹ"\nlat = 0\nlon = 0\nregion = "north"\nsights = ["food"]\n'
    text = text.replace('  ["reykjavik", "sao-paulo"],', '  ["reykjavik", "sao-paulo"],\n  ["sao-paulo", "reykjavik"],')
    text = text.replace('{ id = "coffee", name = "Coffee"', '{ id = "mugs", name = "Coffee"')
    assert problems_of(tmp_path, text) == [
        "bad.toml: collect.kinds[3].id: duplicate id 'mugs'",
        "bad.toml: cities[6].id: duplicate city id 'lodz' (also cities[1])",
        "bad.toml: cities[6].name: duplicate city name 'ŁÓDŹ' (also cities[1])",
        "bad.toml: routes[8]: duplicate of routes[7] (reykjavik - sao-paulo)",
    ]


def test_disconnected_graph(tmp_path: Path) -> None:
    text = variant('  ["lodz", "cairo"],\n  ["reykjavik", "sao-paulo"],\n', "")
    assert problems_of(tmp_path, text) == [
        "bad.toml: routes: the map is not connected: São Paulo, القاهرة, Perth cannot be reached from Reykjavík"
    ]


def test_city_with_one_route(tmp_path: Path) -> None:
    text = variant('  ["fish", "reykjavik"],\n', "")
    assert problems_of(tmp_path, text) == [
        'bad.toml: routes: Fish & "Chips" <Bay> has only 1 route (to Łódź); every city needs at least 2'
    ]


def test_route_shape_and_self_loop(tmp_path: Path) -> None:
    text = variant('  ["lodz", "fish"],', '  ["lodz", "lodz"],\n  "fish",\n  ["lodz", "fish"],')
    assert problems_of(tmp_path, text) == [
        "bad.toml: routes[1]: a route joins two different cities, got 'lodz' twice",
        'bad.toml: routes[2]: expected a pair of city ids like ["cairo", "lagos"], got string \'fish\'',
    ]


def test_bad_ids_and_ranges(tmp_path: Path) -> None:
    text = variant('id = "sao-paulo"', 'id = "São Paulo"').replace("lon = 115.86", "lon = 215.86")
    text = text.replace('["sao-paulo", "cairo"]', '["São Paulo", "cairo"]')
    text = text.replace('["perth", "sao-paulo"]', '["perth", "São Paulo"]')
    text = text.replace('["reykjavik", "sao-paulo"]', '["reykjavik", "São Paulo"]')
    assert problems_of(tmp_path, text) == [
        "bad.toml: cities[3].id: 'São Paulo' is not a valid id (use lowercase letters, digits and hyphens, "
        "e.g. 'sao-paulo')",
        "bad.toml: cities[5].lon: longitude must be between -180 and 180, got 215.86",
    ]


def test_scoring_tables_must_fit_the_map(tmp_path: Path) -> None:
    text = variant("table = [0, 3, 8]", "table = [0, 3]").replace("[collect]", "[collect]\nrow_points = [0, 6]")
    assert problems_of(tmp_path, text) == [
        "bad.toml: collect.row_points: expected 4 numbers (points for 0..3 marks), got 2",
        "bad.toml: region_scoring.table: expected 3 numbers (points for 0..2 regions completed), got 2",
    ]


def test_iconic_city_rules(tmp_path: Path) -> None:
    text = variant('id = "perth"\nname = "Perth"', 'id = "perth"\nname = "Perth"\niconic = true')
    assert problems_of(tmp_path, text) == [
        "bad.toml: cities[5].region: an iconic city belongs to no region (remove region or iconic)",
        "bad.toml: cities[5].sights: an iconic city shows no sights (remove sights or iconic)",
    ]
    fixed = text.replace('iconic = true\nlat = -31.95\nlon = 115.86\nregion = "south"\nsights = ["nature", "history"]',
                         "iconic = true\nlat = -31.95\nlon = 115.86")
    assert problems_of(tmp_path, fixed) == [
        "bad.toml: iconic_table: missing (the map has 1 iconic city: Perth)",
    ]


def test_majority_regions_need_rewards(tmp_path: Path) -> None:
    text = variant('mode = "table"\ntable = [0, 3, 8]', 'mode = "majority"\ntied = 2')
    text = text.replace('name = "North"', 'name = "North"\nreward = 5')
    assert problems_of(tmp_path, text) == [
        "bad.toml: regions[1].reward: missing (region_scoring.mode is 'majority': each region needs a reward)"
    ]


def test_shared_facts_can_be_overridden_and_are_checked(tmp_path: Path) -> None:
    text = variant('id = "tiny"', 'id = "tiny"\nspeed_bonus = -1')
    assert problems_of(tmp_path, text) == ["bad.toml: speed_bonus: must be at least 0, got -1"]
    path = tmp_path / "ok.toml"
    path.write_text(variant('id = "tiny"', 'id = "tiny"\nspeed_bonus = 5'), encoding="utf-8")
    assert load_map(str(path)).speed_bonus == 5


def test_shape_constraints(tmp_path: Path) -> None:
    text = variant("[end]", "[shape]\nregions = 3\ncities_per_region = 4\nsights_per_city = 3\n\n[end]")
    assert problems_of(tmp_path, text) == [
        "bad.toml: regions: the map has 2 regions, shape.regions expects 3",
        "bad.toml: regions[0]: North has 3 cities, shape.cities_per_region expects 4",
        "bad.toml: regions[1]: South has 3 cities, shape.cities_per_region expects 4",
        *(
            f"bad.toml: cities[{i}].sights: {name} shows 2 kinds, shape.sights_per_city expects 3"
            for i, name in enumerate(["Reykjavík", "Łódź", 'Fish & "Chips" <Bay>', "São Paulo", "القاهرة", "Perth"])
        ),
    ]


def test_other_games_files_are_not_maps() -> None:
    with pytest.raises(DataError) as info:
        load_map_file("maps/around-the-world.toml")
    assert info.value.problems == [
        "maps/around-the-world.toml: not an Around the World map file "
        "(no [[cities]], [[regions]] or routes; it holds the facts the maps share)"
    ]


def test_bundled_maps_order() -> None:
    assert bundled_maps() == ("world", "us", "europe", "south-america")


def test_not_utf8_after_a_bom_names_the_right_line(tmp_path: Path) -> None:
    # the decoder's offset counts from after the BOM: a bad byte just after a line break is on the next line
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbfa = 1\n\xff = 2\n")
    with pytest.raises(DataError) as info:
        read_toml(path)
    assert info.value.problems == [f"{path}: line 2: not UTF-8 text (save the file as UTF-8)"]
