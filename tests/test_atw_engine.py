"""The Around the World scoring engine on small hand-built maps.

The maps here are built with the model directly, so each rule is checked on
its own; tests/test_score_maps.py checks the same rules on the bundled maps.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from printkit.model.maps import (
    City,
    Dice,
    GameMap,
    Kind,
    Majority,
    Mode,
    Projection,
    Rating,
    Region,
    RegionScoring,
    SoloRules,
    Track,
)
from printkit.model.records import AtwRecord, PlayerMarks
from printkit.rules.atw import score_game, score_player, score_record

RATINGS = SoloRules(
    20,
    (
        Rating(70, "The Perfect Vacation"),
        Rating(60, "Timeless Trip"),
        Rating(50, "Great Getaway"),
        Rating(40, "Tepid Travels"),
        Rating(30, "Lame Leave"),
        Rating(20, "Horrible Holiday"),
        Rating(0, "Did You Lose Your Passport?"),
    ),
)


DICE = Dice((1, 2, 3, 4, 5, 6), ("Travel", "Travel", "Collect", "Collect", "Explore", "Explore"))


def kinds(*names: str) -> tuple[Kind, ...]:
    return tuple(Kind(n.lower(), n, n.lower()) for n in names)


COLLECT = Track("collect", "Collect", kinds("Mugs", "Clothes", "Postcards", "Textiles"), 3, (0, 0, 0, 6), 4)
SIGHTS = Track("sights", "Explore", kinds("Culture", "History", "Nature", "Food"), 5, (0, 1, 2, 4, 6, 9), 5)
COMMON = Track("common", "Common animals", kinds("Capybara", "Llama"), 5, (0, 1, 2, 3, 4, 5), 0, Majority(5, 2))
UNCOMMON = Track("uncommon", "Uncommon animals", kinds("Sloth", "Toucan"), 5, (0, 1, 2, 4, 6, 9), 4)
RARE = Track("rare", "Rare animals", kinds("Jaguar", "Condor"), 1, (0, 3), 0, None, 2)


def make_map(
    regions: int = 6,
    size: int = 3,
    scoring: RegionScoring = RegionScoring("table", table=(0, 2, 4, 7, 11, 16, 21)),
    explore: tuple[Track, ...] = (SIGHTS,),
    end: int = 1,
    rewards: tuple[int, ...] = (),
    iconic: tuple[int, ...] = (),
) -> GameMap:
    regs = tuple(
        Region(f"r{i}", f"Region {i}", ("mugs",), rewards[i] if rewards else None) for i in range(regions)
    )
    cities = [City(f"c{i}-{j}", f"City {i}-{j}", 0.0, 0.0, f"r{i}", ()) for i in range(regions) for j in range(size)]
    cities += [City(f"i{k}", f"Iconic {k}", 0.0, 0.0, None, (), True) for k in range(len(iconic) - 1)]
    return GameMap(
        "test", "Around Testland", COLLECT, explore, regs, tuple(cities), (), scoring, end, 3, RATINGS,
        Projection("natural-earth"), title="Around Testland in 15 Minutes", series="Around the World in 15 Minutes",
        min_multiplayer=2, max_multiplayer=6, dice=DICE, explore_key="sights", iconic_table=iconic,
    )  # fmt: skip


WORLD = make_map()
US = make_map(5, 4, RegionScoring("per_region", points=3), iconic=(0, 2, 5, 9, 15))
EUROPE = make_map(4, 4, RegionScoring("majority", tied=2), end=2, rewards=(8, 6, 5, 4))
SOUTH = make_map(4, 3, explore=(COMMON, UNCOMMON, RARE), end=2)


def souvenirs(*n: int) -> dict[str, int]:
    return dict(zip(COLLECT.kind_ids, n))


def sights(*n: int) -> dict[str, int]:
    return dict(zip(SIGHTS.kind_ids, n))


def everywhere(m: GameMap, n: int) -> dict[str, int]:
    return {r.id: n for r in m.regions}


def section(m: GameMap, p: PlayerMarks, key: str, mode: Mode = "multiplayer", others: tuple[PlayerMarks, ...] = ()) -> int:
    score = score_player(m, p, (p, *others), mode)
    return next(s.points for s in score.sections if s.key == key)


CHRIS = PlayerMarks(
    "Chris",
    {"collect": souvenirs(3, 2, 2, 2), "sights": sights(3, 1, 4, 2)},
    {"r0": 3, "r1": 3, "r2": 3, "r3": 3, "r4": 1, "r5": 1},
    returned=True,
)


def test_rulebook_example_chris() -> None:
    # Collect: Mugs row full 6 + 2 full columns 2*4 = 14
    # Explore: 4 + 1 + 6 + 2 = 13, + 1 full column 5 = 18
    # Regions: 4 complete = 11; speed: every region visited and returned = 3
    # 14 + 18 + 11 + 3 = 46
    score = score_player(WORLD, CHRIS, (CHRIS,), "multiplayer")
    assert [(s.key, s.points) for s in score.sections] == [
        ("collect", 14), ("explore", 18), ("regions", 11), ("speed", 3),
    ]  # fmt: skip
    assert score.total == 46
    reasons = {s.key: s.reason for s in score.sections}
    assert reasons["explore"] == "Culture 3 marks = 4, History 1 = 1, Nature 4 = 6, Food 2 = 2, 1 full column = 5"
    assert reasons["collect"] == "Mugs 3 marks = 6, Clothes 2 = 0, Postcards 2 = 0, Textiles 2 = 0, 2 full columns = 8"
    assert reasons["regions"] == "4 regions complete (Region 0, Region 1, Region 2, Region 3) = 11"
    assert reasons["speed"] == "every region visited (1+ city each) and returned = 3"


def test_a_record_on_a_map_built_here_scores_by_hand() -> None:
    # two regions of two cities; completed regions pay 0 / 5 / 12
    tiny = make_map(2, 2, RegionScoring("table", table=(0, 5, 12)))
    ann = PlayerMarks(
        "Ann", {"collect": souvenirs(3, 1, 1, 1), "sights": sights(2, 2, 2, 2)}, {"r0": 2, "r1": 2}, returned=True
    )
    bo = PlayerMarks("Bo", {"collect": souvenirs(3, 3, 0, 0), "sights": sights(0, 0, 0, 5)}, {"r0": 2, "r1": 1})
    game = score_record(AtwRecord(tiny, "multiplayer", (ann, bo)))
    # Ann: Collect Mugs row 6 + 1 full column 4 = 10; Explore rows 2+2+2+2 = 8 + 2 full columns 10 = 18;
    #      both regions complete 12; every region visited and back home 3 -> 43
    # Bo:  Collect two full rows 12, no full column = 12; Explore Food row of 5 = 9;
    #      one region complete 5; not back home 0 -> 26
    assert [[(s.key, s.points) for s in p.sections] for p in game.players] == [
        [("collect", 10), ("explore", 18), ("regions", 12), ("speed", 3)],
        [("collect", 12), ("explore", 9), ("regions", 5), ("speed", 0)],
    ]
    assert [p.total for p in game.players] == [43, 26]
    assert (game.game, game.map, game.mode, game.winners) == ("around-the-world", "test", "multiplayer", ("Ann",))
    assert game.players[1].sections[3].reason == "did not return to the start = 0"
    assert AtwRecord(tiny, "multiplayer", (ann, bo)).title == "Around Testland in 15 Minutes"


@pytest.mark.parametrize(
    ("marks", "points"),
    [
        ((0, 0, 0, 0), 0),  # nothing marked
        ((3, 0, 0, 0), 6),  # one full row, no full column
        ((1, 1, 1, 1), 4),  # column 1 full: 4
        ((3, 3, 3, 3), 36),  # 4 rows * 6 + 3 columns * 4 = 24 + 12
        ((3, 3, 3, 2), 26),  # 3 rows * 6 + 2 columns * 4 = 18 + 8
    ],
)
def test_collect_boundaries(marks: tuple[int, ...], points: int) -> None:
    p = PlayerMarks("P", {"collect": souvenirs(*marks)})
    assert section(WORLD, p, "collect") == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 1), (2, 2), (3, 4), (4, 6), (5, 9)])
def test_explore_row_table(n: int, points: int) -> None:
    # one row marked n times, no full column
    assert section(WORLD, PlayerMarks("P", {"sights": sights(n, 0, 0, 0)}), "explore") == points


def test_explore_five_full_columns_is_61() -> None:
    # 4 rows * 9 = 36, + 5 full columns * 5 = 25 -> 61
    assert section(WORLD, PlayerMarks("P", {"sights": sights(5, 5, 5, 5)}), "explore") == 61


@pytest.mark.parametrize(("done", "points"), [(0, 0), (1, 2), (2, 4), (3, 7), (4, 11), (5, 16), (6, 21)])
def test_world_regions_table(done: int, points: int) -> None:
    visited = {f"r{i}": 3 if i < done else 2 for i in range(6)}
    assert section(WORLD, PlayerMarks("P", visited=visited), "regions") == points


def test_us_regions_per_region_and_iconic_table() -> None:
    # 2 regions with all 4 cities visited: 2 * 3 = 6
    p = PlayerMarks("P", visited={"r0": 4, "r1": 4, "r2": 3})
    assert section(US, p, "regions") == 6
    for n, points in enumerate((0, 2, 5, 9, 15)):
        assert section(US, PlayerMarks("P", iconic=n), "iconic") == points
    assert "iconic" not in {s.key for s in score_player(WORLD, CHRIS, (CHRIS,), "multiplayer").sections}


def test_europe_majority_strict_two_way_three_way_and_zero() -> None:
    # r0 (reward 8): A 4, B 2, C 1 -> A strictly most: 8
    # r1 (reward 6): A 3, B 3, C 1 -> A and B tied: 2 each
    # r2 (reward 5): A 2, B 2, C 2 -> three-way tie: 2 each
    # r3 (reward 4): nobody visited -> nobody scores
    a = PlayerMarks("A", visited={"r0": 4, "r1": 3, "r2": 2})
    b = PlayerMarks("B", visited={"r0": 2, "r1": 3, "r2": 2})
    c = PlayerMarks("C", visited={"r0": 1, "r1": 1, "r2": 2})
    game = score_game(EUROPE, "multiplayer", (a, b, c), distance=lambda x, y: 0)
    regions = [next(s for s in p.sections if s.key == "regions") for p in game.players]
    assert [s.points for s in regions] == [8 + 2 + 2, 2 + 2, 2]
    assert regions[0].reason == (
        "Region 0 4 cities, most = 8, Region 1 3 cities, tied for most = 2, "
        "Region 2 2 cities, tied for most = 2, Region 3 none visited = 0"
    )
    assert regions[2].reason.startswith("Region 0 1 city, behind 4 = 0")


def test_europe_solo_scores_reward_of_fully_visited_regions() -> None:
    # r0 and r2 fully visited: 8 + 5 = 13 (r1 has 3 of 4 cities: nothing)
    p = PlayerMarks("P", visited={"r0": 4, "r1": 3, "r2": 4, "r3": 1})
    assert section(EUROPE, p, "regions", "solo") == 13
    assert section(EUROPE, p, "regions", "party") == 13


def test_south_america_common_majority_multiplayer_only() -> None:
    # A: Capybara 3 (strictly most: +5), Llama 2 (tied with B: +2); rows 3 + 2 = 5 -> 12
    # B: Capybara 1, Llama 2 (tied: +2); rows 1 + 2 = 3 -> 5
    a = PlayerMarks("A", {"common": {"capybara": 3, "llama": 2}})
    b = PlayerMarks("B", {"common": {"capybara": 1, "llama": 2}})
    assert section(SOUTH, a, "explore", "multiplayer", (b,)) == 12
    assert section(SOUTH, b, "explore", "multiplayer", (a,)) == 5
    # solo/party: no majority bonus, 1 point per mark
    assert section(SOUTH, a, "explore", "solo") == 5
    assert section(SOUTH, a, "explore", "party", (b,)) == 5


def test_south_america_nobody_marked_common_no_bonus() -> None:
    a = PlayerMarks("A")
    assert section(SOUTH, a, "explore", "multiplayer", (PlayerMarks("B"),)) == 0


def test_south_america_uncommon_columns_and_rare_first_bonus() -> None:
    # Uncommon: Sloth 3 = 4, Toucan 2 = 2, 2 full columns * 4 = 8 -> 14
    # Rare: Jaguar 3 + first 2, Condor 3 (not first) -> 8;  total 22
    p = PlayerMarks("P", {"uncommon": {"sloth": 3, "toucan": 2}, "rare": {"jaguar": 1, "condor": 1}}, first=frozenset({"jaguar"}))
    assert section(SOUTH, p, "explore", "multiplayer", (PlayerMarks("Q"),)) == 22
    # solo: every rare animal gets the bonus: 14 + 5 + 5 = 24
    assert section(SOUTH, p, "explore", "solo") == 24
    reason = next(s.reason for s in score_player(SOUTH, p, (p,), "solo").sections if s.key == "explore")
    assert "Rare animals: Jaguar 1 mark = 3, Condor 1 = 3, Jaguar bonus +2, Condor bonus +2" in reason


@pytest.mark.parametrize(("turn", "points"), [(1, 19), (16, 4), (20, 0), (None, 0)])
def test_solo_speed_bonus(turn: int | None, points: int) -> None:
    p = PlayerMarks("P", visited=everywhere(WORLD, 1), returned=True, finished_turn=turn)
    assert section(WORLD, p, "speed", "solo") == points


def test_multiplayer_speed_bonus_needs_every_region_and_return() -> None:
    home = PlayerMarks("P", visited=everywhere(EUROPE, 2), returned=True)
    assert section(EUROPE, home, "speed") == 3
    one_short = PlayerMarks("P", visited={**everywhere(EUROPE, 2), "r3": 1}, returned=True)
    assert section(EUROPE, one_short, "speed") == 0  # Europe needs 2 cities per region
    away = PlayerMarks("P", visited=everywhere(EUROPE, 2), returned=False)
    assert section(EUROPE, away, "speed") == 0


@pytest.mark.parametrize(
    ("total", "title"),
    [(70, "The Perfect Vacation"), (69, "Timeless Trip"), (50, "Great Getaway"), (20, "Horrible Holiday"),
     (19, "Did You Lose Your Passport?"), (0, "Did You Lose Your Passport?")],
)  # fmt: skip
def test_rating_boundaries(total: int, title: str) -> None:
    assert RATINGS.rating(total) == title


def test_solo_game_has_rating_and_no_winner() -> None:
    # Chris's sheet scored solo without finishing: 14 + 18 + 11 + 0 = 43 -> Tepid Travels
    game = score_game(WORLD, "solo", (CHRIS,))
    assert game.players[0].total == 43
    assert game.players[0].rating == "Tepid Travels"
    assert game.winners == ()


def tied(name: str, **kw: object) -> PlayerMarks:
    return PlayerMarks(name, {"collect": souvenirs(3, 0, 0, 0)}, **kw)  # type: ignore[arg-type]


ROUTES = {("c1-0", "c0-0"): 1, ("c2-0", "c0-0"): 3, ("c3-0", "c0-0"): 1}


def test_tie_broken_by_fewest_routes_home() -> None:
    a = tied("Ann", start_city="c0-0", final_city="c1-0")
    b = tied("Bo", start_city="c0-0", final_city="c2-0")
    game = score_game(WORLD, "multiplayer", (a, b), distance=lambda x, y: ROUTES[(x, y)])
    assert game.winners == ("Ann",)
    assert game.tiebreak == (
        "Ann and Bo tied on 6 points; routes from final city back to start: Ann 1 route, Bo 3 routes: "
        "Ann is closest and wins"
    )


def test_tie_still_tied_is_shared_and_returned_counts_as_zero() -> None:
    a = tied("Ann", start_city="c0-0", final_city="c1-0")
    b = tied("Bo", start_city="c0-0", final_city="c3-0")
    game = score_game(WORLD, "multiplayer", (a, b), distance=lambda x, y: ROUTES[(x, y)])
    assert game.winners == ("Ann", "Bo")
    assert game.tiebreak.endswith("Ann 1 route, Bo 1 route: Ann and Bo still tied, shared win")
    home = tied("Cy", returned=True)
    game = score_game(WORLD, "multiplayer", (a, home), distance=lambda x, y: ROUTES[(x, y)])
    assert game.winners == ("Cy",)


def test_tie_without_cities_is_shared_and_says_why() -> None:
    a = tied("Ann")
    b = tied("Bo", start_city="c0-0", final_city="c1-0")
    game = score_game(WORLD, "multiplayer", (a, b), distance=lambda x, y: ROUTES[(x, y)])
    assert game.winners == ("Ann", "Bo")
    assert game.tiebreak == (
        "Ann and Bo tied on 6 points; no final_city/start_city for Ann, so distance cannot break the tie: shared win"
    )


# --- properties -------------------------------------------------------------

TRACKS = (COLLECT, COMMON, UNCOMMON, RARE)


@st.composite
def players(draw: st.DrawFn) -> PlayerMarks:
    marks = {t.id: {k: draw(st.integers(0, t.boxes)) for k in t.kind_ids} for t in TRACKS}
    visited = {r.id: draw(st.integers(0, 3)) for r in SOUTH.regions}
    first = draw(st.frozensets(st.sampled_from(RARE.kind_ids)))
    return PlayerMarks(
        draw(st.text(min_size=1, max_size=5)), marks, visited, returned=draw(st.booleans()),
        finished_turn=draw(st.none() | st.integers(1, 20)), first=first,
    )  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(players(), min_size=1, max_size=7), st.sampled_from(["multiplayer", "solo", "party"]))
def test_no_legal_sheet_crashes_the_engine(field: list[PlayerMarks], mode: Mode) -> None:
    game = score_game(SOUTH, mode, field, distance=lambda a, b: 1)
    assert len(game.players) == len(field)
    assert all(p.total >= 0 for p in game.players)


@settings(max_examples=200, deadline=None)
@given(players(), players(), st.sampled_from(TRACKS), st.data())
def test_one_more_legal_mark_never_lowers_collect_or_explore(
    me: PlayerMarks, other: PlayerMarks, track: Track, data: st.DataObject
) -> None:
    open_rows = [k for k in track.kind_ids if me.marks_in(track, k) < track.boxes]
    assume(open_rows)
    kind = data.draw(st.sampled_from(open_rows))
    marks = {t: dict(v) for t, v in me.marks.items()}
    marks[track.id][kind] += 1
    more = PlayerMarks(me.name, marks, me.visited, first=me.first)
    for key in ("collect", "explore"):
        assert section(SOUTH, more, key, "multiplayer", (other,)) >= section(SOUTH, me, key, "multiplayer", (other,))
