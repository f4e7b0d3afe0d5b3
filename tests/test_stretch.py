"""A route's exclusive stretch (sheets/stretch.py) and the displacement that gives every route one."""

from __future__ import annotations

import math

import pytest

from printkit.layout.displace import displace
from printkit.layout.geo import MapFrame
from printkit.loading.maps import bundled_maps, load_map
from printkit.sheets import displacement, mapsheet
from printkit.sheets.fields import CityField, Fields, RouteField
from printkit.sheets.stretch import capsule_span, exclusive_spans, exclusive_stretch, exclusive_stretches

A = RouteField("a", "b", ((100.0, 100.0), (100.0, 150.0)))


def sheet(*extra: tuple[str, float, float], routes: tuple[RouteField, ...] = ()) -> Fields:
    cities = [("a", 100.0, 100.0), ("b", 100.0, 150.0), *extra]
    return Fields("map", "t", "a4", 842, 595, tuple(CityField(c, (x, y), 4.6, (x, y, x, y)) for c, x, y in cities),
                  (A, *routes))


def test_a_lone_route_keeps_its_length_less_10_pt_past_each_circle() -> None:
    assert exclusive_spans(A, sheet()) == [pytest.approx((14.6, 35.4))]
    assert exclusive_stretch(A, sheet()) == pytest.approx(50 - 2 * (4.6 + 10))


def test_a_crossing_route_takes_6_pt_either_side() -> None:
    f = sheet(("c", 0.0, 125.0), ("d", 200.0, 125.0), routes=(RouteField("c", "d", ((0.0, 125.0), (200.0, 125.0))),))
    assert exclusive_spans(A, f) == [pytest.approx((14.6, 19.0)), pytest.approx((31.0, 35.4))]
    assert exclusive_stretches(f) == {"a-b": pytest.approx(8.8), "c-d": pytest.approx(200 - 29.2 - 12)}


def test_a_route_alongside_hides_it_and_a_circle_beside_it_takes_its_chord() -> None:
    along = sheet(("c", 104.0, 0.0), ("d", 104.0, 300.0), routes=(RouteField("c", "d", ((104.0, 0.0), (104.0, 300.0))),))
    assert exclusive_stretch(A, along) == 0.0
    beside = sheet(("e", 110.0, 125.0))  # 10 pt off the line: a chord of the 10.6 pt keep-out disk
    assert exclusive_stretch(A, beside) == pytest.approx(20.8 - 2 * math.sqrt(10.6 ** 2 - 10 ** 2))


def test_capsule_span_is_one_convex_stretch() -> None:
    assert capsule_span((0, 0), (10, 0), (5, -20), (5, 20), 1.0) == pytest.approx((0.4, 0.6))
    assert capsule_span((0, 0), (10, 0), (5, 3), (5, 20), 1.0) is None  # the capsule ends 2 pt short
    assert capsule_span((0, 0), (10, 0), (12, 0), (30, 0), 3.0) == pytest.approx((0.9, 1.0))  # round end


def test_displace_keeps_each_point_within_its_own_bound_and_the_box() -> None:
    points = {"p": (0.0, 0.0), "q": (1.0, 0.0), "r": (200.0, 0.0)}
    out = displace(points, {("p", "q"): 40.0}, {"p": 5.0, "q": 30.0, "r": 1.0}, keep_in=(-100, -10, 25, 10))
    assert math.dist(out["p"], points["p"]) <= 5.0 + 1e-9
    assert out["q"] == pytest.approx((25.0, 0.0))  # pushed east, stopped by the box
    assert out["r"] == pytest.approx((199.0, 0.0))  # outside the box: moved towards it, within its bound
    assert displace(points, {}, 12.0) == points  # one bound for all: nothing asked, nothing moves


def test_displace_pushes_a_chain_apart_along_its_true_line() -> None:
    chain = {"a": (0.0, 0.0), "b": (10.0, 10.0), "c": (20.0, 20.0), "d": (30.0, 30.0)}
    out = displace(chain, {("a", "b"): 30.0, ("b", "c"): 30.0, ("c", "d"): 30.0}, 40.0)
    for one, other in (("a", "b"), ("b", "c"), ("c", "d")):
        assert math.dist(out[one], out[other]) >= 30.0 - 1e-3
    assert all(abs(x - y) < 1e-6 for x, y in out.values())  # still on the diagonal, in order
    assert [out[k][0] for k in "abcd"] == sorted(out[k][0] for k in "abcd")


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("map_id", bundled_maps())
def test_bundled_cities_stay_near_their_true_places(map_id: str, paper: str) -> None:
    m = load_map(map_id)
    composed = mapsheet.compose(m, paper)
    box = composed.plan.map_box.grow(-displacement.MAP_PAD)
    frame = MapFrame(m.projection, box.x, box.y, box.w, box.h)
    moved = {c.id: math.dist(frame.point(c.lat, c.lon), f.center) for c, f in zip(m.cities, composed.fields.cities)}
    assert max(moved.values()) <= displacement.CROWDED_DISPLACE + 1e-6
    # most cities hardly move; the legibility rules (issue 21: every name 6 pt nearer its own circle) push the
    # crowded US north-east and Colombia further apart than the 12 pt mean this kept before
    assert sum(moved.values()) / len(moved) <= 18.0
    assert min(exclusive_stretches(composed.fields).values()) >= displacement.ROUTE_STRETCH
