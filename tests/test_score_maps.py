"""Scoring game files on the four bundled maps, routes, tie-breaks and dispatch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printkit import registry
from printkit.errors import DataError
from printkit.loading.records import dump_toml
from printkit.rules.report import GameScore

GAMES = Path(__file__).parent / "data" / "games"


def sections(game: GameScore) -> dict[str, dict[str, int]]:
    return {p.name: {s.key: s.points for s in p.sections} for p in game.players}


def score(text: str, tmp_path: Path, name: str = "game.toml") -> GameScore:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return registry.score_file(tmp_path / name)


def problems(text: str, tmp_path: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        score(text, tmp_path)
    return [line.removeprefix(f"{tmp_path / 'game.toml'}: ") for line in info.value.problems]


def test_world_chris_is_46() -> None:
    game = registry.score_file(GAMES / "world-chris.toml")
    # 14 / 18 / 11 / 3 = 46, the rulebook's scoring example
    assert sections(game)["Chris"] == {"collect": 14, "explore": 18, "regions": 11, "speed": 3}
    assert game.players[0].total == 46 and game.winners == ("Chris",)


def test_us_route_and_iconic_cities() -> None:
    game = registry.score_file(GAMES / "us-road-trip.toml")
    # Dana: Collect Sauce+Candy rows 12 + 1 column 4 = 16
    #       Explore 2 + 4 + 2 + 2 = 10 + 2 columns * 5 = 20
    #       route completes West, South, Northeast: 3 * 3 = 9; Washington, D.C.: 1 iconic = 2
    #       final city Washington, D.C. is not her start: speed 0.  16+20+9+2+0 = 47
    # Eli:  Collect 2 columns = 8; Explore 6 + 1 + 4 + 4 = 15 + 5 = 20; West, Southeast 6;
    #       2 iconic = 5; every region and home: 3.  8+20+6+5+3 = 42
    assert sections(game) == {
        "Dana": {"collect": 16, "explore": 20, "regions": 9, "iconic": 2, "speed": 0},
        "Eli": {"collect": 8, "explore": 20, "regions": 6, "iconic": 5, "speed": 3},
    }
    assert game.winners == ("Dana",)


def test_europe_majority_file() -> None:
    game = registry.score_file(GAMES / "europe-majority.toml")
    # Northern (8): Femke 4 strictly most -> 8.  Western (6): Gus 3, Hana 3 tied -> 2 each.
    # Central (7): 2/2/2 three-way tie -> 2 each.  Southern (9): Femke 2 > Gus 1 -> 9; Hana 0.
    # Femke 8 + 2 + 9 = 19; Gus 2 + 2 = 4; Hana 2 + 2 = 4
    assert {n: s["regions"] for n, s in sections(game).items()} == {"Femke": 19, "Gus": 4, "Hana": 4}
    # Femke: Collect 6 + 4 = 10, Explore 4+2+1+2 + 5 = 14, speed 3 (2+ cities everywhere, home): 46
    assert game.players[0].total == 46 and game.winners == ("Femke",)


def test_europe_solo_rewards_fully_visited_regions(tmp_path: Path) -> None:
    text = 'map = "europe"\nmode = "solo"\n[[players]]\nname = "Ann"\n' \
           'visited = { western-europe = 4, central-europe = 4, northern-europe = 4 }\n'  # fmt: skip
    # Western 6 + Central 7 (all 4 cities each); Northern has 5 cities: 4 is not all -> 13
    assert sections(score(text, tmp_path))["Ann"]["regions"] == 13


def test_south_america_animals_file() -> None:
    game = registry.score_file(GAMES / "south-america-safari.toml")
    # Ines common: 3+2+1+0 = 6, Llama most +5, Parrot tied +2 -> 13
    #      uncommon: 1+1+2+1 = 5 + 1 full column 4 -> 9;  rare: Condor 3 + first 2, Anteater 3 -> 8
    #      explore 13 + 9 + 8 = 30
    # Joao common: 1+2+4+2 = 9, Parrot tied +2, Capybara most +5, Butterfly most +5 -> 21
    #      uncommon: 0+4+4+0 = 8, no full column;  rare: Condor 3, Pink dolphin 3 + first 2 -> 8
    #      explore 21 + 8 + 8 = 37
    assert sections(game)["Ines"]["explore"] == 30
    assert sections(game)["Joao"]["explore"] == 37
    # regions use the World table: one complete region = 2 each
    assert sections(game)["Ines"]["regions"] == 2 and sections(game)["Joao"]["regions"] == 2


def test_south_america_rare_bonus_always_in_solo(tmp_path: Path) -> None:
    text = 'map = "south-america"\nmode = "solo"\n[[players]]\nname = "Ann"\n' \
           'animals = { condor = 1, tortoise = 1, llama = 5 }\n'  # fmt: skip
    # rare: (3 + 2) * 2 = 10; common: Llama 5 marks = 5, no majority in solo -> 15
    assert sections(score(text, tmp_path))["Ann"]["explore"] == 15


def test_world_solo_route_finishes_on_turn_17() -> None:
    game = registry.score_file(GAMES / "world-solo.toml")
    # Collect: 2 full rows 12 + 2 columns 8 = 20; Explore: 6+4+4+4 = 18 + 3 columns 15 = 33
    # route: 2 cities in 5 regions, all 3 of Asia -> 1 region = 2; home on turn 17: 20 - 17 = 3
    assert sections(game)["Kit"] == {"collect": 20, "explore": 33, "regions": 2, "speed": 3}
    assert game.players[0].rating == "Great Getaway"  # 58 is in 50-59
    assert game.winners == ()


TIE = """map = "world"
[[players]]
name = "Ann"
souvenirs = {{ mugs = 3 }}
route = [{ann}]
[[players]]
name = "Bo"
souvenirs = {{ clothes = 3 }}
route = [{bo}]
"""


def test_tie_broken_by_routes_home_on_the_map(tmp_path: Path) -> None:
    # both 6 points; Ann ends in Cairo, 2 routes from London (via Rome); Bo in Moscow, 1 from London
    game = score(TIE.format(ann='"london", "rome", "cairo"', bo='"london", "moscow"'), tmp_path)
    assert game.winners == ("Bo",)
    assert game.tiebreak == (
        "Ann and Bo tied on 6 points; routes from final city back to start: Ann 2 routes, Bo 1 route: "
        "Bo is closest and wins"
    )


def test_tie_still_tied_is_a_shared_win(tmp_path: Path) -> None:
    # Ann: Rome -> London, 1 route back; Bo: London -> Moscow, 1 route back
    game = score(TIE.format(ann='"rome", "london"', bo='"london", "moscow"'), tmp_path)
    assert game.winners == ("Ann", "Bo")
    assert game.tiebreak.endswith("Ann 1 route, Bo 1 route: Ann and Bo still tied, shared win")


@pytest.mark.parametrize(
    ("route", "message"),
    [
        ('"london", "cairo"', "players[0].route: step 1: there is no route from London to Cairo"),
        ('"london", "rome", "london"', "players[0].route: step 2: the route Rome - London was already used"),
        ('"london", "atlantis"', "players[0].route[1]: unknown city 'atlantis' on the World map"),
        ("", "players[0].route: expected a list of city ids, starting city first, got an empty list"),
    ],
)
def test_bad_routes(tmp_path: Path, route: str, message: str) -> None:
    text = f'map = "world"\nmode = "solo"\n[[players]]\nname = "A"\nroute = [{route}]\n'
    assert problems(text, tmp_path) == [message]


def test_iconic_city_cannot_start(tmp_path: Path) -> None:
    text = 'map = "us"\nmode = "solo"\n[[players]]\nname = "A"\nroute = ["anchorage", "seattle"]\n'
    assert problems(text, tmp_path) == ["players[0].route[0]: Anchorage is an iconic city and cannot be a starting city"]


def test_route_excludes_visited(tmp_path: Path) -> None:
    text = 'map = "world"\nmode = "solo"\n[[players]]\nname = "A"\nroute = ["london"]\nreturned = true\n'
    assert problems(text, tmp_path) == ["players[0].returned: not allowed with route (the route gives it)"]


def test_animal_not_on_the_map_and_us_iconic_limit(tmp_path: Path) -> None:
    text = 'map = "south-america"\nmode = "solo"\n[[players]]\nname = "A"\nanimals = { ale = 1, condor = 2 }\n'
    assert problems(text, tmp_path) == [
        "players[0].animals.ale: 'ale' is not an animal of the South America map (animals: llama, parrot, "
        "capybara, butterfly, jaguar, toucan, sloth, penguin, condor, pink-dolphin, anteater, tortoise)",
        "players[0].animals.condor: 2 marks, but the Condor row has only 1 box",
    ]
    text = 'map = "us"\nmode = "solo"\n[[players]]\nname = "A"\niconic = 5\n'
    assert problems(text, tmp_path) == ["players[0].iconic: 5 iconic cities visited, but the map has only 4"]


def test_first_rare_must_be_marked(tmp_path: Path) -> None:
    text = 'map = "south-america"\n[[players]]\nname = "A"\nfirst_rare = ["condor", "llama"]\n' \
           '[[players]]\nname = "B"\n'  # fmt: skip
    assert problems(text, tmp_path) == [
        "players[0].first_rare[0]: 'condor' is not marked, so it cannot have been marked first",
        "players[0].first_rare[1]: 'llama' has no first bonus on the South America map "
        "(first_rare: condor, pink-dolphin, anteater, tortoise)",
    ]


def test_solo_finished_trip_needs_its_turn(tmp_path: Path) -> None:
    text = 'map = "world"\n[[players]]\nname = "A"\nroute = ["london", "moscow", "rome", "london"]\n'
    # only Europe visited: not finished, so no turn is needed and speed is 0
    assert sections(score(text, tmp_path))["A"]["speed"] == 0
    text = 'map = "world"\n[[players]]\nname = "A"\nreturned = true\n' \
           'visited = { europe = 1, africa = 1, asia = 1, oceania = 1, north-america = 1, south-america = 1 }\n'  # fmt: skip
    assert problems(text, tmp_path) == [
        "players[0].finished_turn: missing: the trip is finished, give the turn it ended on (1..20)"
    ]


def test_mode_defaults_by_number_of_players(tmp_path: Path) -> None:
    one = 'map = "world"\n[[players]]\nname = "A"\n'
    assert score(one, tmp_path).mode == "solo"
    seven = 'map = "world"\n' + "".join(f'[[players]]\nname = "P{i}"\n' for i in range(7))
    assert score(seven, tmp_path).mode == "party"


def test_custom_map_file_relative_to_the_record(tmp_path: Path) -> None:
    from printkit.resources import data_dir

    (tmp_path / "maps").mkdir()
    for name in ("world.toml", "around-the-world.toml"):
        (tmp_path / "maps" / name).write_bytes((data_dir("maps") / name).read_bytes())
    text = (GAMES / "world-chris.toml").read_text().replace('map = "world"', 'map = "maps/world.toml"')
    assert score(text, tmp_path).players[0].total == 46


def test_other_games_are_dispatched(tmp_path: Path) -> None:
    text = 'game = "trekking-the-world"\n[[players]]\nname = "Ann"\ntours = [22, 9]\nencounters = [3]\n' \
           'suitcase_columns = 2\nmoney = 1\n[[players]]\nname = "Bo"\ntours = [15]\nsuitcase = 10\nmoney = 3\n'  # fmt: skip
    game = score(text, tmp_path)
    # Trekking's own scorer: Ann 22 + 9 + 3 + 3 (2 suitcase columns) = 37, Bo 15 + 10 = 25
    assert (game.game, [p.total for p in game.players], game.winners) == ("trekking-the-world", [37, 25], ("Ann",))


def test_dump_toml_round_trips() -> None:
    import tomllib

    doc = tomllib.loads((GAMES / "us-road-trip.toml").read_text())
    assert tomllib.loads(dump_toml(doc)) == doc


# --- no input crashes ---------------------------------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 25) | st.floats(allow_nan=False) | st.sampled_from(
        ["world", "us", "europe", "south-america", "solo", "party", "multiplayer", "london", "rome", "mugs", ""]
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["mugs", "culture", "europe", "llama", "condor", "name", "x"]), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip
player_docs = st.fixed_dictionaries(
    {"name": st.sampled_from(["A", "B", ""]) | values},
    optional={k: values for k in ("souvenirs", "sights", "animals", "visited", "returned", "route", "iconic",
                                  "finished_turn", "first_rare", "start_city", "final_city")},
)  # fmt: skip
record_docs = st.fixed_dictionaries(
    {"map": st.sampled_from(["world", "us", "europe", "south-america"]) | values},
    optional={"mode": st.sampled_from(["multiplayer", "solo", "party"]) | values,
              "players": st.lists(player_docs, max_size=4) | values},
)  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record_docs)
def test_no_record_crashes(doc: dict[str, Any]) -> None:
    try:
        game = registry.score_document(doc, "game.toml", Path("."))[0]
    except DataError as exc:
        assert exc.problems and all(p.startswith("game.toml: ") for p in exc.problems)
    else:
        assert all(p.total >= 0 for p in game.players)
