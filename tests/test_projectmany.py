"""Projecting a ring in one pass gives exactly the floats of projecting each point."""

from __future__ import annotations

import random

import pytest

from printkit.errors import DataError
from printkit.layout.geo import MapFrame, project
from printkit.layout.projectmany import project_all, ring_points
from printkit.loading.maps import load_map
from printkit.model.maps import Projection

PROJECTIONS = [
    Projection(name="natural-earth"),
    Projection(name="natural-earth", center_lon=150.0),
    Projection(name="albers", center_lon=-96.0, center_lat=37.5, parallels=(29.5, 45.5)),
    Projection(name="laea", center_lon=10.0, center_lat=52.0),
]


@pytest.mark.parametrize("p", PROJECTIONS, ids=lambda p: f"{p.name}-{p.center_lon:g}")
def test_every_float_is_the_one_project_gives(p: Projection) -> None:
    rng = random.Random(3)
    pairs = [(rng.uniform(-180, 180), rng.uniform(-89, 89)) for _ in range(2000)]
    pairs += [(-180.0, 0.0), (180.0, 0.0), (p.center_lon + 180.0, 10.0), (p.center_lon - 180.0, -10.0)]
    assert project_all(p, pairs) == [project(p, lat, lon) for lon, lat in pairs]


def test_a_projection_project_refuses_is_refused_the_same_way() -> None:
    flat = Projection(name="albers", parallels=(-20.0, 20.0))
    with pytest.raises(DataError) as exc:
        project_all(flat, [(0.0, 0.0)])
    with pytest.raises(DataError) as one:
        project(flat, 0.0, 0.0)
    assert exc.value.problems == one.value.problems


@pytest.mark.parametrize("map_id", ["us", "europe"])
def test_ring_points_are_frame_points_insets_included(map_id: str) -> None:
    m = load_map(map_id)
    frame = MapFrame(m.projection, 20.0, 30.0, 500.0, 300.0)
    rng = random.Random(5)
    lon0, lat0, lon1, lat1 = m.projection.bounds
    ring = [v for _ in range(500) for v in (rng.uniform(lon0 - 40, lon1 + 40), rng.uniform(lat0 - 20, lat1 + 20))]
    for inset in m.projection.insets:  # points inside each inset, drawn there
        b0, b1, b2, b3 = inset.bounds
        ring += [v for _ in range(50) for v in (rng.uniform(b0, b2), rng.uniform(b1, b3))]
    assert ring_points(frame, ring) == [frame.point(ring[i + 1], ring[i]) for i in range(0, len(ring), 2)]
