"""Route-graph helpers on the real maps: distances, blocked travel, drawn routes."""

from __future__ import annotations

import pytest

from printkit.loading.maps import load_map
from printkit.model.graph import check_route, distance, nearest_open, open_routes, route_key
from printkit.model.maps import GameMap, Route


@pytest.fixture(scope="module")
def world() -> GameMap:
    return load_map("world")


def test_route_key_is_undirected() -> None:
    assert route_key("lagos", "cairo") == route_key("cairo", "lagos") == Route("cairo", "lagos")


def test_distance(world: GameMap) -> None:
    assert distance(world, "cairo", "cairo") == 0
    assert distance(world, "cairo", "lagos") == 1
    assert distance(world, "london", "delhi") == 2  # London - Moscow - Delhi
    # Vancouver - New York - London - Moscow - Delhi - Bangkok - Perth (or via
    # Mexico City, Bogotá, Rio, Lagos, Cape Town): 6 either way
    assert distance(world, "vancouver", "perth") == 6
    with pytest.raises(KeyError):
        distance(world, "cairo", "atlantis")


def test_nearest_open_when_blocked(world: GameMap) -> None:
    # Cape Town's routes (Lagos, Perth) are both used; Lagos and Perth are one
    # route away and still have open routes, so both tie.
    used = {route_key("cape-town", "lagos"), route_key("cape-town", "perth")}
    assert open_routes(world, "cape-town", used) == ()
    assert nearest_open(world, "cape-town", used) == ["lagos", "perth"]
    # with Lagos fully used too, Perth is the only nearest city
    used |= {route_key("lagos", "cairo"), route_key("lagos", "rio-de-janeiro")}
    assert nearest_open(world, "cape-town", used) == ["perth"]


def test_nearest_open_is_here_when_not_blocked(world: GameMap) -> None:
    assert nearest_open(world, "cairo", set()) == ["cairo"]
    assert nearest_open(world, "cairo", set(world.routes)) == []


def test_check_route_ok(world: GameMap) -> None:
    check = check_route(world, ["cairo", "lagos", "cape-town", "perth", "bangkok", "delhi", "cairo"])
    assert check.ok and check.message == "" and check.bad_index is None
    assert check.visited == {"cairo", "lagos", "cape-town", "perth", "bangkok", "delhi"}
    assert check.used[0] == Route("cairo", "lagos") and len(check.used) == 6
    assert check.returned and check.current == "cairo"


def test_check_route_no_such_route(world: GameMap) -> None:
    check = check_route(world, ["cairo", "lagos", "tokyo", "sydney"])
    assert not check.ok
    assert (check.bad_index, check.message) == (2, "step 2: there is no route from Lagos to Tokyo")
    assert check.visited == {"cairo", "lagos"} and check.used == (Route("cairo", "lagos"),)


def test_check_route_used_twice(world: GameMap) -> None:
    check = check_route(world, ["rome", "cairo", "lagos", "cairo"])
    assert (check.bad_index, check.message) == (3, "step 3: the route Lagos - Cairo was already used")


def test_check_route_unknown_city_and_start(world: GameMap) -> None:
    assert check_route(world, ["cairo", "kairo"]).message == "step 1: 'kairo' is not a city of this map"
    assert check_route(world, ["atlantis"]).message == "start: 'atlantis' is not a city of this map"
    assert check_route(world, []).message == "the route is empty: it needs at least the starting city"
    single = check_route(world, ["cairo"])
    assert single.ok and single.visited == {"cairo"} and not single.returned


def test_iconic_city_cannot_start() -> None:
    us = load_map("us")
    check = check_route(us, ["anchorage", "seattle"])
    assert (check.bad_index, check.message) == (0, "start: Anchorage is an iconic city and cannot be a starting city")
    assert check_route(us, ["seattle", "anchorage", "honolulu", "san-francisco"]).ok
