"""printkit scan: marks on the sheet, round trips through a simulated pen and camera, every cross-check."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
import scan_simulate as sim
from scan_degrade import Capture
from scan_helpers import game, photo, truth_doc

from printkit import registry
from printkit.layout.marks import aruco_marker, parse_payload, qr_modules, sheet_payload
from printkit.layout.primitives import Rect
from printkit.scan.game import scan_game
from printkit.scan.images import PageSource, decode_image
from printkit.scan.sheet import SheetRead, read_sheet

MAPS = ("world", "us", "europe", "south-america")


def read(data: bytes, name: str = "sheet.jpg") -> SheetRead:
    image = decode_image(data)
    assert image is not None
    return read_sheet(image, PageSource(Path(name)))


def edges(route: list[str]) -> set[frozenset[str]]:
    return {frozenset(p) for p in zip(route, route[1:])}


@pytest.mark.parametrize("marker_id", range(8))
def test_a_drawn_marker_is_opencvs_marker(marker_id: int) -> None:
    image = np.full((120, 120), 255, np.uint8)
    for item in aruco_marker(marker_id, 30, 30, 60).rects():
        assert isinstance(item, Rect)
        image[round(item.y):round(item.y + item.h), round(item.x):round(item.x + item.w)] = 0
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = detector.detectMarkers(image)
    assert ids is not None and ids.flatten().tolist() == [marker_id]


def test_the_payload_round_trips_and_foreign_codes_are_refused() -> None:
    text = sheet_payload("world", "A4", "1.abc", 3, "Ann | Bo")
    assert text == "pk1|world|a4|1.abc|3|Ann | Bo"
    assert parse_payload(text) == ("world", "a4", "1.abc", 3, "Ann | Bo")
    assert parse_payload("https://example.com") is None
    assert parse_payload("pk1|world|a4|1.abc|x|Ann") is None
    assert qr_modules(text)[1] == 25  # version 2: the smallest code that holds it


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("map_id", MAPS)
def test_round_trip_gives_the_exact_game_and_score(map_id: str, paper: str) -> None:
    names = ("Ann", "Bo")
    plays = game(map_id, paper, names, seed=MAPS.index(map_id) * 2 + (paper == "letter"))
    reads = [read(photo(map_id, paper, names, k, filled, seed=k)) for k, (filled, _) in enumerate(plays)]
    scanned = scan_game(reads)
    assert scanned.uncertain == ()
    expected = truth_doc(map_id, names, [t for _, t in plays])
    for got, want in zip(scanned.doc["players"], expected["players"]):
        m = reads[0].m
        assert got["souvenirs"] == want["souvenirs"] and got[m.explore_key] == want[m.explore_key]
        assert edges(got["route"]) == edges(want["route"])
        assert {got["route"][0], got["route"][-1]} == {want["route"][0], want["route"][-1]}
    want_score, _ = registry.score_document(expected, "truth", Path("."))
    assert [(p.name, p.total, [(s.key, s.points) for s in p.sections]) for p in scanned.score.players] == \
        [(p.name, p.total, [(s.key, s.points) for s in p.sections]) for p in want_score.players]
    assert scanned.score.winners == want_score.winners


@pytest.mark.parametrize("ink", sorted(sim.INKS))
def test_upside_down_pencil_and_blue_and_black_read_the_same(ink: str) -> None:
    filled = sim.Filled(("souvenirs.mugs.1", "sights.culture.1", "sights.culture.2"), ("london-new-york",), "new-york")
    data = photo("world", "a4", ("Ann",), 0, filled, pen=sim.Pen(ink, 0.35, 1.0),
                 shot=Capture(dpi=150, rotation=184.0, tilt=12.0, blur=0.8, light=0.3, shadow=0.3, noise=4, jpeg=50))
    s = read(data)
    assert s.uncertain == []
    assert s.route in (["london", "new-york"], ["new-york", "london"])
    assert s.ident.name == "Ann" and s.ident.page == 1
    assert [k for k, r in s.boxes.items() if r.on] == list(filled.boxes)


def test_a_gap_in_a_row_is_unsure() -> None:
    scanned = scan_game([read(photo("world", "a4", ("Ann",), 0, sim.Filled(("sights.food.1", "sights.food.3"), (), "tokyo")))])
    assert [(u.field, u.message) for _, u in scanned.uncertain] == [
        ("sights.food", "sights.food: marks do not run from the left without gaps (x . x . .)")]


def test_a_region_tick_the_routes_do_not_give_is_unsure() -> None:
    filled = sim.Filled(("regions.europe",), ("london-new-york",), "new-york")
    scanned = scan_game([read(photo("world", "a4", ("Ann",), 0, filled))])
    assert [(p, u.field) for p, u in scanned.uncertain] == [("Ann", "regions.europe")]
    assert "ticked, but the drawn routes do not visit every city of Europe" in scanned.uncertain[0][1].message


def test_routes_that_do_not_join_into_one_trail_are_unsure() -> None:
    filled = sim.Filled((), ("mexico-city-new-york", "cape-town-perth"), "new-york")
    s = read(photo("world", "a4", ("Ann",), 0, filled))
    assert s.route is None
    assert [u.message for u in s.uncertain] == [
        "route: the drawn routes do not join into one trail (Mexico City, New York / Cape Town, Perth)"]


def test_a_branching_trail_is_unsure() -> None:
    filled = sim.Filled((), ("mexico-city-new-york", "new-york-vancouver", "london-new-york"), "vancouver")
    s = read(photo("world", "a4", ("Ann",), 0, filled))
    assert s.route is None
    assert s.uncertain[-1].message.startswith("route: the drawn routes branch")


def test_a_star_alone_is_the_start() -> None:
    s = read(photo("world", "a4", ("Ann",), 0, sim.Filled((), (), "tokyo")))
    assert s.route == ["tokyo"] and s.uncertain == []


def test_the_trail_settles_an_unsure_route_only_when_one_legal_trail_explains_it() -> None:
    from printkit.loading.maps import load_map
    from printkit.scan.trail import settle

    m = load_map("us")
    star = {"boston": 0.3}
    drawn = [("boston", "new-york"), ("philadelphia", "washington-dc")]
    middle = ("new-york", "philadelphia")
    # the trail is broken without the middle route: only "drawn" is legal, and its read leans that way
    assert settle(m, drawn, {middle: True}, star, 0.06) == {middle: True}
    assert settle(m, drawn, {middle: None}, star, 0.06) == {middle: True}
    # a lean against the one legal trail is not overruled
    assert settle(m, drawn, {middle: False}, star, 0.06) is None
    # at the trail's end both answers are legal trails: it stays unsure
    assert settle(m, [("boston", "new-york")], {middle: True}, star, 0.06) is None
    # the start must carry a star: without one nothing is settled
    assert settle(m, drawn, {middle: True}, {}, 0.06) is None
