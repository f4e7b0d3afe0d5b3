"""Projections against PROJ, map frames fitted to the page, land outlines clipped and on the right spot."""

from __future__ import annotations

import math

import pytest

from printkit.errors import DataError
from printkit.layout import geo
from printkit.loading.maps import bundled_maps, load_map
from printkit.model.maps import Projection
from printkit.resources import asset

# Reference values from PROJ 9.5.1 on the unit sphere, computed with pyproj 3.7.2:
#   python -c "from pyproj import Transformer as T; t=T.from_crs('+proj=longlat +R=1',
#       '+proj=natearth +R=1 +lon_0=0', always_xy=True); print(t.transform(2.35, 48.85))"
# (and likewise with each projection string below).
NATEARTH = [
    ((2.35, 48.85), (0.03150198156918184, 0.8593882027330019)),
    ((151.2, -33.87), (2.1716182131866377, -0.597645181774258)),
    ((-180.0, 0.0), (-2.735384723480633, 0.0)),
    ((0.0, 90.0), (0.0, 1.422390506730596)),
]
# +proj=aea +R=1 +lat_1=29.5 +lat_2=45.5 +lat_0=37.5 +lon_0=-96
AEA_US = [
    ((-74.0, 40.7), (0.28604893707844015, 0.0896347237779711)),
    ((-150.0, 61.2), (-0.4845349345982566, 0.544251017394437)),
    ((-157.86, 21.31), (-0.9603512232886212, 0.04223307217668992)),
]
# +proj=aea +R=1 +lat_1=-5 +lat_2=-42 +lat_0=-20 +lon_0=-60
AEA_SA = [
    ((-46.63, -23.55), (0.2026504495935343, -0.07417984419225787)),
    ((-70.0, -55.0), (-0.11553081989021002, -0.6168350296442973)),
]
# +proj=laea +R=1 +lat_0=52 +lon_0=10
LAEA_EU = [
    ((2.35, 48.85), (-0.08771044808804836, -0.05039958184532103)),
    ((28.98, 41.01), (0.24814255402933447, -0.16006317206308548)),
    ((-21.9, 64.15), (-0.23412135173886417, 0.2665914166866514)),
]


@pytest.mark.parametrize(("lonlat", "xy"), NATEARTH)
def test_natural_earth_matches_proj(lonlat: tuple[float, float], xy: tuple[float, float]) -> None:
    assert geo.natural_earth(*lonlat) == pytest.approx(xy, abs=1e-12)


@pytest.mark.parametrize(("lonlat", "xy"), AEA_US)
def test_albers_us_matches_proj(lonlat: tuple[float, float], xy: tuple[float, float]) -> None:
    assert geo.albers(*lonlat, -96.0, 37.5, (29.5, 45.5)) == pytest.approx(xy, abs=1e-12)


@pytest.mark.parametrize(("lonlat", "xy"), AEA_SA)
def test_albers_south_america_matches_proj(lonlat: tuple[float, float], xy: tuple[float, float]) -> None:
    assert geo.albers(*lonlat, -60.0, -20.0, (-5.0, -42.0)) == pytest.approx(xy, abs=1e-12)


@pytest.mark.parametrize(("lonlat", "xy"), LAEA_EU)
def test_laea_europe_matches_proj(lonlat: tuple[float, float], xy: tuple[float, float]) -> None:
    assert geo.laea(*lonlat, 10.0, 52.0) == pytest.approx(xy, abs=1e-12)


def test_identities_centre_to_origin_and_symmetry() -> None:
    assert geo.albers(-96.0, 37.5, -96.0, 37.5, (29.5, 45.5)) == pytest.approx((0.0, 0.0), abs=1e-15)
    assert geo.laea(10.0, 52.0, 10.0, 52.0) == pytest.approx((0.0, 0.0), abs=1e-15)
    x, y = geo.natural_earth(40.0, 30.0)
    assert geo.natural_earth(-40.0, -30.0) == pytest.approx((-x, -y))
    assert geo.natural_earth(-180.0, 10.0)[0] == pytest.approx(-geo.natural_earth(180.0, 10.0)[0])
    # recentring shifts longitudes: 100E seen from a 100E centre is the centre line
    assert geo.natural_earth(100.0, 20.0, center_lon=100.0)[0] == 0.0


def test_albers_rejects_parallels_symmetric_about_the_equator() -> None:
    with pytest.raises(DataError) as err:
        geo.albers(0.0, 0.0, 0.0, 0.0, (-20.0, 20.0))
    assert str(err.value) == (
        "projection.parallels: [-20.0, 20.0] are symmetric about the equator; albers needs them on one side"
    )


def _inside(p: tuple[float, float], box: tuple[float, float, float, float], eps: float = 1e-6) -> bool:
    return box[0] - eps <= p[0] <= box[2] + eps and box[1] - eps <= p[1] <= box[3] + eps


@pytest.mark.parametrize("map_id", ["world", "us", "europe", "south-america"])
def test_every_city_lands_inside_the_frame(map_id: str) -> None:
    gm = load_map(map_id)
    frame = geo.MapFrame(gm.projection, 36.0, 50.0, 500.0, 340.0)
    cx, cy, cw, ch = frame.content
    # bounds fitted with the aspect kept: one side fills the box, content centred in it
    assert cw == pytest.approx(500.0) or ch == pytest.approx(340.0)
    assert cx - 36.0 == pytest.approx(36.0 + 500.0 - (cx + cw))
    assert cy - 50.0 == pytest.approx(50.0 + 340.0 - (cy + ch))
    for city in gm.cities:
        assert _inside(frame.point(city.lat, city.lon), (cx, cy, cx + cw, cy + ch)), city.name


def test_us_frame_shows_the_iconic_cities_far_from_the_mainland() -> None:
    gm = load_map("us")
    frame = geo.MapFrame(gm.projection, 0.0, 0.0, 500.0, 300.0)
    names = {c.name for c in gm.iconic_cities}
    assert {"Anchorage", "Honolulu", "San Juan"} <= names
    for city in gm.iconic_cities:
        assert _inside(frame.point(city.lat, city.lon), frame.box)


@pytest.mark.parametrize("map_id", ["world", "us", "europe", "south-america"])
def test_land_is_an_even_odd_path_inside_the_box(map_id: str) -> None:
    gm = load_map(map_id)
    frame = geo.MapFrame(gm.projection, 20.0, 30.0, 400.0, 260.0)
    land = frame.land()
    assert land.even_odd
    assert len(land.commands) > 300
    assert {c[0] for c in land.commands} == {"M", "L", "Z"}
    for cmd in land.commands:
        if cmd[0] != "Z":
            assert _inside((float(cmd[1]), float(cmd[2])), frame.box, eps=0.006), cmd
    for cmd in frame.borders().commands:
        assert _inside((float(cmd[1]), float(cmd[2])), frame.box, eps=0.006), cmd


def _page_rings(frame: geo.MapFrame) -> list[list[tuple[float, float]]]:
    rings: list[list[tuple[float, float]]] = []
    for cmd in frame.land().commands:
        if cmd[0] == "M":
            rings.append([(float(cmd[1]), float(cmd[2]))])
        elif cmd[0] == "L":
            rings[-1].append((float(cmd[1]), float(cmd[2])))
    return rings


def _even_odd(p: tuple[float, float], rings: list[list[tuple[float, float]]]) -> bool:
    inside = False
    x, y = p
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
    return inside


@pytest.mark.parametrize(
    ("map_id", "city", "latlon"),
    [
        ("world", "Paris", (48.86, 2.35)),
        ("world", "Cairo", (30.04, 31.24)),
        ("world", "Brasília", (-15.79, -47.88)),
        ("us", "Denver", (39.74, -104.99)),
        ("us", "Anchorage", (61.22, -149.9)),
        ("europe", "Paris", (48.86, 2.35)),
        ("europe", "Kraków", (50.06, 19.94)),
        ("europe", "Ankara", (39.93, 32.86)),
        ("south-america", "La Paz", (-16.5, -68.15)),
    ],
)
def test_known_cities_fall_on_the_drawn_land(map_id: str, city: str, latlon: tuple[float, float]) -> None:
    gm = load_map(map_id)
    frame = geo.MapFrame(gm.projection, 0.0, 0.0, 600.0, 400.0)
    assert geo.on_land(gm.projection.outline, *latlon), city
    assert _even_odd(frame.point(*latlon), _page_rings(frame)), city


@pytest.mark.parametrize(
    ("outline", "latlon"),
    [("world", (0.0, 0.0)), ("world", (30.0, -40.0)), ("world", (-40.0, 80.0)),
     ("europe", (43.0, 5.0)), ("europe", (56.0, 3.0)), ("us-states", (30.0, -140.0))],
)
def test_seas_are_not_land(outline: str, latlon: tuple[float, float]) -> None:
    assert not geo.on_land(outline, *latlon)


def test_clip_polygon_to_a_box_keeps_the_overlap() -> None:
    # square (5,5)-(15,15) clipped to (0,0)-(10,10) leaves (5,5)-(10,10)
    square = [(5.0, 5.0), (15.0, 5.0), (15.0, 15.0), (5.0, 15.0)]
    clipped = geo.clip_polygon(square, (0.0, 0.0, 10.0, 10.0))
    assert sorted(set(clipped)) == [(5.0, 5.0), (5.0, 10.0), (10.0, 5.0), (10.0, 10.0)]
    assert geo.clip_polygon([(20.0, 20.0), (30.0, 20.0), (30.0, 30.0)], (0.0, 0.0, 10.0, 10.0)) == []


def test_clip_segment() -> None:
    assert geo.clip_segment((-5.0, 5.0), (15.0, 5.0), (0.0, 0.0, 10.0, 10.0)) == ((0.0, 5.0), (10.0, 5.0))
    assert geo.clip_segment((-5.0, -5.0), (-1.0, 20.0), (0.0, 0.0, 10.0, 10.0)) is None


def test_unknown_outline_is_a_clear_error() -> None:
    frame = geo.MapFrame(Projection(name="natural-earth", outline="mars"), 0.0, 0.0, 100.0, 50.0)
    with pytest.raises(DataError) as err:
        frame.land()
    assert str(err.value) == (
        "projection.outline: no bundled outline 'mars' (expected one of: europe, us-states, world)"
    )


def test_empty_box_is_rejected() -> None:
    with pytest.raises(ValueError, match="map box must have a positive size, got 0.0 x 10.0"):
        geo.MapFrame(Projection(name="natural-earth"), 0.0, 0.0, 0.0, 10.0)


def test_scale_is_points_per_unit_sphere_radian() -> None:
    # World bounds span 360 degrees of longitude at the equator: 2 * 2.7354 units (see PROJ value)
    frame = geo.MapFrame(Projection(name="natural-earth", bounds=(-180.0, -60.0, 180.0, 85.0)),
                         0.0, 0.0, 547.0769, 1000.0)
    assert frame.scale == pytest.approx(547.0769 / (2 * 2.735384723480633), rel=1e-6)
    x0, _ = frame.point(0.0, -180.0)
    x1, _ = frame.point(0.0, 180.0)
    assert (x0, x1) == pytest.approx((0.0, 547.0769))


def test_outline_files_are_small_and_documented() -> None:
    provenance = asset("geo", "PROVENANCE.md").read_text(encoding="utf-8")
    for name in ("world", "us-states", "europe"):
        path = asset("geo", f"{name}.json")
        assert path.stat().st_size < 300_000
        assert f"{name}.json" in provenance
        assert "public domain" in geo.outline(name)["licence"]
    assert set(bundled_maps()) >= {"world", "us", "europe", "south-america"}


def test_natural_earth_pole_is_flat_not_a_point() -> None:
    # Natural Earth has a flat pole line: 180 degrees of longitude still spans width at 90N
    assert geo.natural_earth(180.0, 90.0)[0] > 1.0
    assert math.isclose(geo.natural_earth(180.0, 90.0)[1], 1.422390506730596, rel_tol=1e-12)


US_MAIN = Projection(name="albers", center_lon=-96.0, center_lat=37.5, parallels=(29.5, 45.5),
                     bounds=(-125.0, 17.5, -64.0, 49.5), outline="us-states")
US_INSETS = [
    geo.Inset(bounds=(-170.0, 51.0, -129.0, 72.0), box=(0.0, 0.62, 0.26, 0.38)),  # Alaska
    geo.Inset(bounds=(-161.0, 18.5, -154.5, 22.5), box=(0.27, 0.80, 0.16, 0.20)),  # Hawaii
]


def test_insets_take_far_places_into_their_own_boxes() -> None:
    frame = geo.MapFrame(US_MAIN, 0.0, 0.0, 500.0, 300.0, insets=US_INSETS)
    alaska, hawaii = frame.inset_boxes
    # Alaska box: x 0..130, y 186..300 (0.62 * 300 = 186); Hawaii: x 135..215, y 240..300
    assert alaska == pytest.approx((0.0, 186.0, 130.0, 114.0))
    assert hawaii == pytest.approx((135.0, 240.0, 80.0, 60.0))
    ax, ay, aw, ah = alaska
    assert _inside(frame.point(61.22, -149.9), (ax, ay, ax + aw, ay + ah))  # Anchorage
    hx, hy, hw, hh = hawaii
    assert _inside(frame.point(21.31, -157.86), (hx, hy, hx + hw, hy + hh))  # Honolulu
    # Denver is placed by the main frame, not an inset
    main = geo.MapFrame(US_MAIN, 0.0, 0.0, 500.0, 300.0, insets=[])
    assert frame.point(39.74, -104.99) == main.point(39.74, -104.99)
    # Alaska drawn once, in its inset: the main frame leaves out rings wholly inside inset bounds
    assert len(frame.land().commands) > len(main.land().commands)
    assert geo.on_land("us-states", 61.22, -149.9)
    assert _even_odd(frame.point(61.22, -149.9), _page_rings(frame))


def test_insets_default_to_the_projections_own() -> None:
    proj = US_MAIN._replace(insets=tuple(US_INSETS))  # a projection that carries its insets (as maps/us.toml does)
    assert len(geo.MapFrame(proj, 0.0, 0.0, 500.0, 300.0).inset_boxes) == 2
    assert geo.MapFrame(US_MAIN, 0.0, 0.0, 500.0, 300.0).inset_boxes == ()
