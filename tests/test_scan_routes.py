"""printkit scan: routes between close cities, by a start star or a drawn neighbour, read from ink and trail."""

from __future__ import annotations

from pathlib import Path

import pytest
import scan_simulate as sim
from scan_helpers import photo

from printkit.loading.maps import load_map
from printkit.scan.images import PageSource, decode_image
from printkit.scan.read import ROUTE_DRAWN, ROUTE_EMPTY
from printkit.scan.sheet import SheetRead, read_sheet
from printkit.scan.trail import settle

THICK = sim.Pen("black", 1.2, 1.5)
"""The benchmark's widest, shakiest pen: its ink reaches furthest off its line."""


def read(data: bytes) -> SheetRead:
    image = decode_image(data)
    assert image is not None
    return read_sheet(image, PageSource(Path("sheet.jpg")))


@pytest.mark.parametrize("routes, trail", [((), ["london"]), (("london-rome",), ["london", "rome"])])
def test_a_short_route_at_a_starred_city_is_read_drawn_or_not(routes: tuple[str, ...], trail: list[str]) -> None:
    # London - Rome keeps 9 pt of line outside its circles; the star round London inks part of it
    s = read(photo("world", "a4", ("Ann",), 0, sim.Filled((), routes, "london")))
    assert s.uncertain == [] and s.route == trail


def test_short_routes_beside_drawn_neighbours_are_read() -> None:
    # Boston - New York and New York - Philadelphia: 24 pt apart, Boston - New York within 6 pt of the drawn
    # Boston - Detroit nearly all along; the trail may end at New York or at Philadelphia
    filled = sim.Filled((), ("boston-detroit", "boston-new-york", "new-york-philadelphia"), "detroit")
    s = read(photo("us", "a4", ("Ann",), 0, filled))
    assert s.uncertain == [] and s.route == ["detroit", "boston", "new-york", "philadelphia"]
    s = read(photo("europe", "a4", ("Ann",), 0, sim.Filled((), ("berlin-prague", "prague-vienna"), "berlin"),
                   pen=sim.Pen("pencil", 0.4, 0.5)))
    assert s.uncertain == [] and s.route == ["berlin", "prague", "vienna"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_route_drawn_halfway_at_the_trails_end_is_flagged_not_guessed(paper: str) -> None:
    # Detroit - Boston drawn, then Boston - New York broken off halfway: the trail may end at Boston or
    # at New York, so neither the trail nor the ink (half of the line) can tell; the read says so
    s = read(photo("us", paper, ("Ann",), 0, sim.Filled((), ("boston-detroit",), "detroit"),
                   halfway=("boston-new-york",)))
    assert [u.field for u in s.uncertain] == ["route.boston-new-york"]
    message = s.uncertain[0].message
    assert message.startswith("route boston-new-york: drawn? (") and message.endswith("% of it inked)")
    assert ROUTE_EMPTY * 100 < int(message.split("(")[1].split("%")[0]) < ROUTE_DRAWN * 100


def test_the_trail_settles_the_routes_every_legal_trail_agrees_on() -> None:
    m = load_map("us")
    star = {"boston": 0.3}
    middle, far = ("new-york", "philadelphia"), ("anchorage", "seattle")
    # the middle route may end the trail or not; the far one cannot be drawn (the trail would break)
    assert settle(m, [("boston", "new-york")], {middle: None, far: None}, star, 0.06) == {far: False}
    # the ink may rule choices out: here it says the middle route is drawn
    assert settle(m, [("boston", "new-york")], {middle: None, far: None}, star, 0.06,
                  lambda choice: choice[middle]) == {middle: True, far: False}
    # nothing fits the ink: nothing is settled
    assert settle(m, [("boston", "new-york")], {middle: None}, star, 0.06, lambda choice: False) is None
