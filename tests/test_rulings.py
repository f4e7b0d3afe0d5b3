"""One test per ruling in the shared RULINGS.md, on the real bundled maps and games.

Each test is named after its ruling and works one example by hand (arithmetic in
the comments). Game records go through the real entry point
(``printkit.registry.score_file``) where the ruling is about scoring.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from printkit import registry
from printkit.errors import DataError, RuleError
from printkit.loading.dice import load_dice
from printkit.loading.games import load_globetrotting, load_trekking, load_wereldsteden
from printkit.loading.maps import load_map
from printkit.loading.records.atw import read_record
from printkit.model.records import PlayerMarks
from printkit.rules import abby, dice, turns, wereldsteden
from printkit.rules.atw import score_player
from printkit.rules.report import GameScore


def score(tmp_path: Path, text: str) -> GameScore:
    """Score a game record written to a tmp file, through the real entry point."""
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    return registry.score_file(path)


def problems(tmp_path: Path, text: str) -> list[str]:
    """The problem lines (without the file name) of a record that must be refused."""
    with pytest.raises(DataError) as info:
        score(tmp_path, text)
    return [line.removeprefix(f"{tmp_path / 'game.toml'}: ") for line in info.value.problems]


def pts(game: GameScore) -> dict[str, dict[str, int]]:
    """Points per player and section key."""
    return {p.name: {s.key: s.points for s in p.sections} for p in game.players}


def solo(map_id: str, player: str) -> str:
    return f'map = "{map_id}"\nmode = "solo"\n[[players]]\nname = "Ann"\n{player}\n'


# ------------------------------------------------------ Around the World in 15 Minutes


def test_collect_rows_6_columns_4_rulebook_example_14(tmp_path: Path) -> None:
    # Mugs 3 / Clothes 2 / Postcards 2 / Textiles 2: 1 full row (Mugs) = 6,
    # columns 1 and 2 full (everyone has 2+), column 3 not -> 2 * 4 = 8; 6 + 8 = 14
    game = score(tmp_path, solo("world", "souvenirs = { mugs = 3, clothes = 2, postcards = 2, textiles = 2 }"))
    assert pts(game)["Ann"]["collect"] == 14
    # all four rows full: 4 * 6 + 3 columns * 4 = 36
    game = score(tmp_path, solo("world", "souvenirs = { mugs = 3, clothes = 3, postcards = 3, textiles = 3 }"))
    assert pts(game)["Ann"]["collect"] == 36


def test_explore_rows_0_1_2_4_6_9_columns_5_rulebook_example_18(tmp_path: Path) -> None:
    # Culture 3 = 4, History 1 = 1, Nature 4 = 6, Food 2 = 2 -> 13, column 1 full -> +5 = 18
    game = score(tmp_path, solo("europe", "sights = { culture = 3, history = 1, nature = 4, food = 2 }"))
    assert pts(game)["Ann"]["explore"] == 18
    # every row full (5 marks): 4 * 9 + 5 columns * 5 = 61
    game = score(tmp_path, solo("us", "sights = { culture = 5, history = 5, nature = 5, food = 5 }"))
    assert pts(game)["Ann"]["explore"] == 61


def test_mark_beyond_a_rows_length_is_rejected_never_capped(tmp_path: Path) -> None:
    assert problems(tmp_path, solo("world", "souvenirs = { mugs = 4 }")) == [
        "players[0].souvenirs.mugs: 4 marks, but the Mugs row has only 3 boxes"
    ]
    assert problems(tmp_path, solo("world", "sights = { culture = 6 }")) == [
        "players[0].sights.culture: 6 marks, but the Culture row has only 5 boxes"
    ]
    assert problems(tmp_path, solo("south-america", "animals = { condor = 2 }")) == [
        "players[0].animals.condor: 2 marks, but the Condor row has only 1 box"
    ]


def _read(map_id: str, route: list[str]) -> PlayerMarks:
    doc = {"map": map_id, "mode": "multiplayer", "players": [{"name": "Ann", "route": route}, {"name": "Bo"}]}
    return read_record(doc, "game.toml", Path(".")).players[0]


def test_start_city_is_visited_and_returned_means_back_after_leaving() -> None:
    # [cairo] alone: Cairo (Africa) is visited from the start, but the player never left: not returned
    only_start = _read("world", ["cairo"])
    assert only_start.visited["africa"] == 1 and only_start.returned is False
    # Cairo -> Delhi -> Moscow -> Rome -> Cairo (each route drawn once): left and came back:
    # returned; Africa 1 (Cairo), Asia 1 (Delhi), Europe 2 (Moscow, Rome)
    loop = ["cairo", "delhi", "moscow", "rome", "cairo"]
    back = _read("world", loop)
    assert back.returned is True
    assert (back.visited["africa"], back.visited["asia"], back.visited["europe"]) == (1, 1, 2)
    # back home, then off again to Lagos: the current city is Lagos, not the start
    assert _read("world", [*loop, "lagos"]).returned is False


def test_world_regions_completed_table(tmp_path: Path) -> None:
    # 3 regions with all 3 cities visited (Oceania has 2 of 3: not complete) -> table[3] = 7
    text = solo("world", "visited = { europe = 3, africa = 3, asia = 3, oceania = 2 }")
    assert pts(score(tmp_path, text))["Ann"]["regions"] == 7
    # all 6 regions -> 21
    everywhere = ", ".join(f"{r.id} = 3" for r in load_map("world").regions)
    assert pts(score(tmp_path, solo("world", f"visited = {{ {everywhere} }}")))["Ann"]["regions"] == 21


def test_rulebook_chris_totals_46() -> None:
    game = registry.score_file(Path(__file__).parent / "data" / "games" / "world-chris.toml")
    # Collect 14 + Explore 18 + Regions 11 + Speed 3 = 46
    assert game.players[0].name == "Chris" and game.players[0].total == 46


MULTI = 'map = "{map}"\n[[players]]\nname = "Ann"\nvisited = {{ {ann} }}\nreturned = true\n' \
        '[[players]]\nname = "Bo"\n'  # fmt: skip


@pytest.mark.parametrize(
    ("map_id", "per_region", "points"),
    [("world", 1, 3), ("us", 1, 3), ("europe", 2, 3), ("south-america", 2, 3), ("europe", 1, 0), ("south-america", 1, 0)],
)  # fmt: skip
def test_multiplayer_speed_bonus_3_per_map_cities_per_region(
    tmp_path: Path, map_id: str, per_region: int, points: int
) -> None:
    # World, US: 1 city in every region + home = 3. Europe, South America need 2 per region:
    # 2 each = 3, but 1 each = 0.
    ann = ", ".join(f"{r.id} = {per_region}" for r in load_map(map_id).regions)
    assert pts(score(tmp_path, MULTI.format(map=map_id, ann=ann)))["Ann"]["speed"] == points
    # the same visits without being back at the start: 0
    away = MULTI.format(map=map_id, ann=ann).replace("returned = true", "returned = false")
    assert pts(score(tmp_path, away))["Ann"]["speed"] == 0


def test_tie_break_fewest_routes_from_final_city_to_start(tmp_path: Path) -> None:
    # Both score Collect 6 (one full row). Ann ends in Rome: Cairo-Rome is 1 route;
    # Bo ends in Tokyo: 3 routes from Cairo -> Ann wins. Neither drew those routes.
    text = (
        'map = "world"\n'
        '[[players]]\nname = "Ann"\nsouvenirs = { mugs = 3 }\nvisited = { africa = 1, europe = 1 }\n'
        'start_city = "cairo"\nfinal_city = "rome"\n'
        '[[players]]\nname = "Bo"\nsouvenirs = { clothes = 3 }\nvisited = { africa = 1, asia = 1 }\n'
        'start_city = "cairo"\nfinal_city = "tokyo"\n'
    )
    game = score(tmp_path, text)
    assert [p.total for p in game.players] == [6, 6]
    assert game.winners == ("Ann",)


def test_blocked_travel_nearest_city_by_routes_ties_are_the_players_choice() -> None:
    from printkit.model import graph

    m = load_map("world")
    # Cairo has open routes: stay (0 routes away). With every route out of Cairo used,
    # its neighbours Rome, Lagos and Delhi (1 route each) still have open routes: all three offered.
    assert graph.nearest_open(m, "cairo", set()) == ["cairo"]
    used = {r for r in m.routes if "cairo" in (r.a, r.b)}
    assert sorted(graph.nearest_open(m, "cairo", used)) == ["delhi", "lagos", "rome"]


def test_us_iconic_cities_no_region_no_sights_cannot_start_count_table(tmp_path: Path) -> None:
    us = load_map("us")
    assert all(c.region is None and c.sights == () and not c.can_start for c in us.iconic_cities)
    assert problems(tmp_path, solo("us", 'route = ["washington-dc", "philadelphia"]')) == [
        "players[0].route[0]: Washington, D.C. is an iconic city and cannot be a starting city"
    ]
    assert problems(tmp_path, solo("us", 'start_city = "honolulu"')) == [
        "players[0].start_city: Honolulu is an iconic city and cannot be a starting city"
    ]
    # iconic count table 0:0 1:2 2:5 3:9 4:15; regions: 3 each (not the World table)
    for n, points in [(0, 0), (1, 2), (2, 5), (3, 9), (4, 15)]:
        assert pts(score(tmp_path, solo("us", f"iconic = {n}")))["Ann"]["iconic"] == points
    # West and South complete (3 of 3 each), Midwest 2 of 3: 2 * 3 = 6
    text = solo("us", "visited = { west = 3, south = 3, midwest = 2 }")
    assert pts(score(tmp_path, text))["Ann"]["regions"] == 6


def test_europe_majority_strict_tied_2_and_nobody_at_zero(tmp_path: Path) -> None:
    # Northern (8): 2/2/2 three-way tie -> 2 each.  Western (6): 0/0/0 -> nobody scores.
    # Central (7): Ann 3 strictly most -> 7.  Southern (9): Ann 1, Bo 1 tied -> 2 each; Cy 0 -> 0.
    # Ann 2 + 0 + 7 + 2 = 11; Bo 2 + 0 + 0 + 2 = 4; Cy 2 + 0 + 0 + 0 = 2
    text = (
        'map = "europe"\n'
        '[[players]]\nname = "Ann"\nvisited = { northern-europe = 2, central-europe = 3, southern-europe = 1 }\n'
        '[[players]]\nname = "Bo"\nvisited = { northern-europe = 2, central-europe = 1, southern-europe = 1 }\n'
        '[[players]]\nname = "Cy"\nvisited = { northern-europe = 2 }\n'
    )
    assert {n: s["regions"] for n, s in pts(score(tmp_path, text)).items()} == {"Ann": 11, "Bo": 4, "Cy": 2}


@pytest.mark.parametrize("mode", ["solo", "party"])
def test_europe_solo_party_reward_only_for_fully_visited_regions(tmp_path: Path, mode: str) -> None:
    # Northern 5 of 5 -> 8; Western 3 of 4 -> 0; Central 4 of 4 -> 7; Southern 4 of 5 -> 0: 15
    visited = "visited = { northern-europe = 5, western-europe = 3, central-europe = 4, southern-europe = 4 }"
    text = f'map = "europe"\nmode = "{mode}"\n[[players]]\nname = "Ann"\n{visited}\n'
    if mode == "party":
        text += '[[players]]\nname = "Bo"\nvisited = { northern-europe = 5 }\n'
    assert pts(score(tmp_path, text))["Ann"]["regions"] == 15


def test_south_america_common_1_per_mark_majority_5_tied_2_needs_a_mark(tmp_path: Path) -> None:
    # Llama: Ann 1, Bo 1, Cy 0 -> Ann, Bo tied for most +2 each.  Parrot: Ann 2, Cy 1 -> Ann +5.
    # Capybara, Butterfly: nobody marked -> no "tied at 0" bonus for anyone.
    # Ann 1 + 2 (rows) + 2 + 5 = 10; Bo 1 + 2 = 3; Cy 1 (behind on Parrot) = 1
    text = (
        'map = "south-america"\n'
        '[[players]]\nname = "Ann"\nanimals = { llama = 1, parrot = 2 }\n'
        '[[players]]\nname = "Bo"\nanimals = { llama = 1 }\n'
        '[[players]]\nname = "Cy"\nanimals = { parrot = 1 }\n'
    )
    assert {n: s["explore"] for n, s in pts(score(tmp_path, text)).items()} == {"Ann": 10, "Bo": 3, "Cy": 1}
    # solo: 1 point per mark, no majority: Llama 5 (a common row has 5 boxes) + Parrot 2 = 7
    assert pts(score(tmp_path, solo("south-america", "animals = { llama = 5, parrot = 2 }")))["Ann"]["explore"] == 7


def test_south_america_uncommon_like_sights_plus_4_per_column(tmp_path: Path) -> None:
    # Jaguar 3 = 4, Toucan 2 = 2, Sloth 2 = 2, Penguin 5 = 9 -> 17; columns 1, 2 full -> 2 * 4 = 8: 25
    text = solo("south-america", "animals = { jaguar = 3, toucan = 2, sloth = 2, penguin = 5 }")
    assert pts(score(tmp_path, text))["Ann"]["explore"] == 25


def test_south_america_rare_3_plus_2_first_same_turn_all_first_solo_always(tmp_path: Path) -> None:
    # Ann and Bo marked the Condor on the same turn: both first: 3 + 2 = 5 each.
    # Cy marked it later: 3.  Bo's Anteater, not first: 3 -> Bo 8.
    text = (
        'map = "south-america"\n'
        '[[players]]\nname = "Ann"\nanimals = { condor = 1 }\nfirst_rare = ["condor"]\n'
        '[[players]]\nname = "Bo"\nanimals = { condor = 1, anteater = 1 }\nfirst_rare = ["condor"]\n'
        '[[players]]\nname = "Cy"\nanimals = { condor = 1 }\n'
    )
    assert {n: s["explore"] for n, s in pts(score(tmp_path, text)).items()} == {"Ann": 5, "Bo": 8, "Cy": 3}
    # solo: always +2: (3 + 2) * 3 = 15
    text = solo("south-america", "animals = { condor = 1, anteater = 1, tortoise = 1 }")
    assert pts(score(tmp_path, text))["Ann"]["explore"] == 15


def test_south_america_regions_use_world_table_europe_has_none(tmp_path: Path) -> None:
    # South America: 2 regions complete (Andes 4 of 4, Southern Cone 4 of 4) -> World table[2] = 4;
    # all 4 regions -> 11 (0:0 1:2 2:4 3:7 4:11)
    assert pts(score(tmp_path, solo("south-america", "visited = { andes = 4, southern-cone = 4 }")))["Ann"]["regions"] == 4
    everywhere = "visited = { north = 5, brazil = 5, andes = 4, southern-cone = 4 }"
    assert pts(score(tmp_path, solo("south-america", everywhere)))["Ann"]["regions"] == 11
    europe = load_map("europe")
    assert europe.region_scoring.mode == "majority" and europe.region_scoring.table == ()


def test_solo_dice_faces_and_same_action_rule() -> None:
    table = load_dice()
    assert [table.action_of(f) for f in range(1, 7)] == ["Travel", "Travel", "Collect", "Collect", "Explore", "Explore"]
    # 1 + 2: both Travel -> Travel plus one action of your choice
    assert dice.Roll(1, 2, table).choice and dice.Roll(1, 2, table).actions == ("Travel",)
    assert dice.outcome_text(table, 1, 2) == "1 + 2 -> Travel, plus one action of your choice"
    # 2 + 3: Travel and Collect, no free action
    assert not dice.Roll(2, 3, table).choice and dice.Roll(2, 3, table).actions == ("Travel", "Collect")
    # same action exactly when both faces fall in one pair: 3 pairs * 4 of 36 = 12/36 = 1/3
    assert sum(dice.Roll(a, b, table).choice for a in range(1, 7) for b in range(1, 7)) == 12


def test_solo_game_ends_after_20_turns_or_when_everyone_finished() -> None:
    info = turns.map_info(load_map("world"))
    party = turns.Game(info, ("Ann", "Bo"), seed=7)
    for _ in range(3):
        party.next_turn()
    assert party.finish(["Ann"]) == [("Ann", 3, 17)]  # home on turn 3: 20 - 3 = 17
    party.next_turn()
    assert party.finish(["Bo"]) == [("Bo", 4, 16)] and party.over  # everyone home after turn 4
    with pytest.raises(RuleError):
        party.next_turn()
    alone = turns.Game(info, ("Ann",), seed=7)
    for _ in range(19):
        alone.next_turn()
    assert not alone.over
    alone.next_turn()
    assert alone.turn == 20 and alone.over


def test_solo_speed_bonus_20_minus_t_only_when_trip_finished(tmp_path: Path) -> None:
    every = ", ".join(f"{r.id} = 1" for r in load_map("world").regions)
    # every region visited, home, finished on turn 14: 20 - 14 = 6
    game = score(tmp_path, solo("world", f"visited = {{ {every} }}\nreturned = true\nfinished_turn = 14"))
    assert pts(game)["Ann"]["speed"] == 6
    # Oceania never visited: the trip cannot have finished, so a finished turn is refused
    partial = every.replace(", oceania = 1", "")
    assert problems(tmp_path, solo("world", f"visited = {{ {partial} }}\nreturned = true\nfinished_turn = 14")) == [
        "players[0].finished_turn: the trip is not finished "
        "(every region needs 1+ visited and the player back at the start)"
    ]
    # the pure scorer agrees: a turn without the end condition scores 0
    m = load_map("europe")
    one_each = PlayerMarks("Ann", visited={r.id: 1 for r in m.regions}, returned=True, finished_turn=14)
    speed = next(s for s in score_player(m, one_each, (one_each,), "solo").sections if s.key == "speed")
    assert speed.points == 0  # Europe needs 2 cities per region


@pytest.mark.parametrize(
    ("total", "title"),
    [(70, "The Perfect Vacation"), (69, "Timeless Trip"), (60, "Timeless Trip"), (59, "Great Getaway"),
     (50, "Great Getaway"), (49, "Tepid Travels"), (40, "Tepid Travels"), (39, "Lame Leave"), (30, "Lame Leave"),
     (29, "Horrible Holiday"), (20, "Horrible Holiday"), (19, "Did You Lose Your Passport?"),
     (0, "Did You Lose Your Passport?")],
)  # fmt: skip
def test_solo_rating_boundaries(total: int, title: str) -> None:
    for map_id in ("world", "us", "europe", "south-america"):
        assert load_map(map_id).solo.rating(total) == title


# ------------------------------------------------------------------ Trekking the World

TREK = 'game = "trekking-the-world"\n'


def _trek_player(name: str, tours: list[int], money: int = 0, columns: int = 0) -> str:
    return f'[[players]]\nname = "{name}"\ntours = {tours}\nsuitcase_columns = {columns}\nmoney = {money}\n'


def test_trekking_score_tours_encounters_suitcase_ties_money_capped(tmp_path: Path) -> None:
    # Ann: tours 22 + 9 + 14 = 45, encounters 3 + 2 = 5, right-most full column 3 -> 6: 56
    text = TREK + _trek_player("Ann", [22, 9, 14], money=7, columns=3).replace("money", "encounters = [3, 2]\nmoney")
    text += _trek_player("Bo", [30, 16], money=9, columns=4)
    # Bo: tours 30 + 16 = 46, no encounters, column 4 -> 10: 56. Tied; Bo has more money ($9 > $7): Bo wins
    game = score(tmp_path, text)
    assert [p.total for p in game.players] == [56, 56] and game.winners == ("Bo",)
    # same money too: shared victory
    assert score(tmp_path, text.replace("money = 9", "money = 7")).winners == ("Ann", "Bo")
    # money is capped at $20
    assert problems(tmp_path, TREK + _trek_player("Ann", [1], money=21) + _trek_player("Bo", [1])) == [
        "players[0].money: 21 is above the $20 cap"
    ]


def test_trekking_end_trigger_per_player_count_house_rule_up_to_6(tmp_path: Path) -> None:
    game = load_trekking()
    assert [game.end_trigger(n) for n in (2, 3, 4, 5)] == [5, 5, 4, 4]
    four = "".join(_trek_player(n, [1]) for n in ("B", "C", "D"))
    # 4 players end at the 4th tour: 6 tours is impossible (5 at most, counting the last round)
    assert problems(tmp_path, TREK + _trek_player("A", [1] * 6) + four) == [
        "players[0].tours: 6 tours, but the game ends at the 4th tour (at most 5 counting the last round)"
    ]
    two = _trek_player("A", [1]) + _trek_player("B", [1])
    assert problems(tmp_path, TREK + "end_trigger = 7\n" + two) == [
        "end_trigger: 7 is above the house-rule maximum of 6 tours"
    ]
    assert problems(tmp_path, TREK + "end_trigger = 4\n" + two) == [
        "end_trigger: 4 is below the 5 tours of a 2-player game (a house rule may only raise it)"
    ]


def test_trekking_suitcase_values_are_data() -> None:
    # points under columns 1..7 come from maps/trekking-the-world.toml
    assert load_trekking().suitcase_points == (1, 3, 6, 10, 15, 21, 28)


# ----------------------------------------------------------------------- Globetrotting

GLOBE = 'game = "globetrotting"\n'


def test_globetrotting_airfare_strictly_more_and_objectives_6_then_4(tmp_path: Path) -> None:
    # Airfare: Ann 20, Bo 20, Cy 25. Ann: only Cy spent strictly more (Bo equal) -> 2; Bo 2; Cy 0.
    # "Six continents": Ann and Bo on turn 3 (first anyone) -> 6 each, Cy turn 5 -> 4.
    # "All four types": only Cy, turn 9: the first turn anyone achieved it -> 6.
    # Ann 2 + 6 = 8; Bo 8; Cy 0 + 4 + 6 = 10
    text = GLOBE + (
        '[[players]]\nname = "Ann"\nairfare = 20\nobjectives = { "Six continents" = 3 }\n'
        '[[players]]\nname = "Bo"\nairfare = 20\nobjectives = { "Six continents" = 3 }\n'
        '[[players]]\nname = "Cy"\nairfare = 25\nobjectives = { "Six continents" = 5, "All four types" = 9 }\n'
    )
    got = pts(score(tmp_path, text))
    assert {n: (s["airfare"], s["objectives"]) for n, s in got.items()} == {
        "Ann": (2, 6), "Bo": (2, 6), "Cy": (0, 10)
    }  # fmt: skip
    assert load_globetrotting().flights == 9


def test_globetrotting_festivals_companions_bucket_list_ties_lower_airfare(tmp_path: Path) -> None:
    # 2 players, festivals: Ann 2 + 1 + 0 = 3, bucket 3 + 4 = 7, airfare 30 (Bo spent 31: +2): 12
    # Bo: festivals 2 + 2 + 2 = 6, bucket 6, airfare 31: 0 -> 12. Tied: lower airfare wins: Ann.
    text = GLOBE + (
        '[[players]]\nname = "Ann"\nairfare = 30\nfestivals = [2, 1, 0]\nbucket_list = [3, 4]\n'
        '[[players]]\nname = "Bo"\nairfare = 31\nfestivals = [2, 2, 2]\nbucket_list = [6]\n'
    )
    game = score(tmp_path, text)
    assert [p.total for p in game.players] == [12, 12] and game.winners == ("Ann",)
    # at most 2 festivals per season
    assert problems(tmp_path, text.replace("[2, 1, 0]", "[3, 0, 0]")) == [
        "players[0].festivals[0]: 3 in Spring, at most 2 per season"
    ]
    # 3 players use Travel Companions, 1 point per "1": 1 + 0 + 2 = 3
    three = GLOBE + "".join(
        f'[[players]]\nname = "{n}"\nairfare = {a}\ncompanions = [1, 0, 2]\n' for n, a in (("A", 1), ("B", 2), ("C", 3))
    )
    assert pts(score(tmp_path, three))["C"]["companions"] == 3


def test_abby_wraps_around_and_scores_bucket_festivals_objectives_on_turn_6_airfare() -> None:
    rules = load_globetrotting()
    # cards 4, 7, 2: chose left -> middle's 7; middle -> right's 2; right wraps to left's 4
    assert [abby.abby_fare((4, 7, 2), c) for c in (1, 2, 3)] == [7, 2, 4]
    game = abby.new_game(rules, 5)
    for _ in range(9):
        game = abby.play_turn(rules, game, (4, 7, 2), 3, 5)  # player pays 5, Abby 4: 45 vs 36
    # Objectives: the player achieved one on turn 4 (earlier than 6: Abby 4) and one on turn 6
    # (same turn as Abby: she still scores 6): 4 + 6 = 10. Bucket: 2 * 5 cards = 10. Festivals 3.
    # She spent 36 < 45: +2.  Abby 10 + 10 + 3 + 2 = 25.
    # Player: objectives 6 + 6 (turn 4 and turn 6 are not later than Abby's turn 6) = 12, bucket 5 + 5 = 10,
    # festivals 2, airfare 0 (Abby spent less): 24
    result = abby.score(rules, game, [4, 6], [5, 5], 2)
    by = pts(result)
    assert by["Abby"] == {"airfare": 2, "objectives": 10, "bucket_list": 10, "festivals": 3}
    assert by["You"] == {"airfare": 0, "objectives": 12, "bucket_list": 10, "festivals": 2}
    assert result.winners == ("Abby",)
    # player achieves one only on turn 7: player 4 (Abby got it first on turn 6); Abby 6 + 6 = 12
    late = pts(abby.score(rules, game, [7], [], 0))
    assert late["You"]["objectives"] == 4 and late["Abby"]["objectives"] == 12


# ------------------------------------------------------------------------ Wereldsteden


def test_wereldsteden_win_at_6_different_tiles_variant_8_duplicates_do_not_count() -> None:
    game = load_wereldsteden()
    five_and_dups = ["rug", "fan", "rug", "mask", "sombrero", "doll", "fan"]  # 5 different, 2 duplicates
    r = wereldsteden.score_game(game, [("Ann", five_and_dups), ("Bo", ["rug"])])
    assert r.players[0].total == 5 and r.winners == ()
    six = [*five_and_dups, "hammock"]  # 6 different
    assert wereldsteden.score_game(game, [("Ann", six), ("Bo", [])]).winners == ("Ann",)
    assert wereldsteden.score_game(game, [("Ann", six), ("Bo", [])], variant=True).winners == ()
    eight = [*six, "lantern", "spices"]
    assert wereldsteden.score_game(game, [("Ann", eight), ("Bo", [])], variant=True).winners == ("Ann",)


def test_wereldsteden_display_yellow_differ_purple_differ_helsinki_differ() -> None:
    game = load_wereldsteden()
    groups = {frozenset(g) for g in game.distinct}
    assert groups == {
        frozenset({"helsinki-yellow", "tokyo", "wellington"}),
        frozenset({"helsinki-purple", "vancouver", "buenos-aires"}),
        frozenset({"helsinki-yellow", "helsinki-purple"}),
    }
    yellow = ("helsinki-yellow", "tokyo", "wellington")
    purple = ("helsinki-purple", "vancouver", "buenos-aires")
    for seed in range(40):
        rng = random.Random(seed)
        board, _ = wereldsteden.setup(game, rng)
        for _ in range(8):  # sell two tiles and refill, eight times
            sold = rng.sample([s for s, t in board.display.items() if t is not None], 2)
            board, _ = wereldsteden.refill(game, board, sold, rng)
            shown = board.display
            for spaces in (yellow, purple, ("helsinki-yellow", "helsinki-purple")):
                tiles = [shown[s] for s in spaces if shown[s] is not None]
                assert len(tiles) == len(set(tiles)), (seed, shown)
    # a drawn tile that would lie beside an identical one goes aside and the next is drawn
    display = {"helsinki-yellow": "rug", "tokyo": "fan", "wellington": None,
               "helsinki-purple": "mask", "vancouver": "hammock", "buenos-aires": "spices"}  # fmt: skip
    board = wereldsteden.Board(display, {"yellow": ("rug", "fan", "doll"), "purple": ()}, {"yellow": (), "purple": ()})
    board, log = wereldsteden.fill(game, board, random.Random(0))
    assert board.display["wellington"] == "doll" and board.aside["yellow"] == ("rug", "fan")
    assert log == ["wellington: Nesting doll (put aside: Rug, Fan)"]


def test_solo_rating_chart_as_printed() -> None:
    # the tracker's chart of the same data: 70+, 60-69, ..., 20-29, 19 or less
    bands = turns.rating_bands(turns.map_info(load_map("world")).ratings)
    assert [points for points, _ in bands] == ["70 or more", "60-69", "50-59", "40-49", "30-39", "20-29", "19 or less"]
