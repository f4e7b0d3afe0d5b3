"""Iconic cities drawn as the rulebook draws them: a shield instead of the circle, a gold star in the name box;
the geometry (``--fields``) and ``printkit scan`` treat a shield city as a circle city."""

from __future__ import annotations

import math

import scan_simulate as sim
from scan_helpers import photo, read, sheets

from printkit import registry
from printkit.layout.boxes import flatten
from printkit.layout.primitives import Circle, Icon, Path
from printkit.loading.maps import load_map
from printkit.scan.read import STAR_RING
from printkit.sheets import citymarks
from printkit.sheets.displacement import CITY_R

TRAIL = ("anchorage-seattle", "anchorage-honolulu", "honolulu-san-francisco", "los-angeles-san-francisco",
         "los-angeles-phoenix", "dallas-phoenix", "dallas-houston", "houston-new-orleans", "atlanta-new-orleans",
         "atlanta-washington-dc", "philadelphia-washington-dc", "new-york-philadelphia", "new-york-san-juan",
         "miami-san-juan")
"""From Seattle through all four iconic cities to Miami."""


def test_a_shield_stands_in_the_circles_room_and_the_star_in_the_tag() -> None:
    m = load_map("us")
    sheet = registry.build_sheet("map", "us", [], "a4")
    assert sheet.geometry is not None
    fields = sheet.geometry.fields
    items = flatten(sheet.document.pages[0].items, sheet.document.forms)
    shields = [i for i in items if isinstance(i, Path) and i.style == citymarks.CITY]
    for c in m.iconic_cities:
        f = next(x for x in fields.cities if x.id == c.id)
        assert f.radius == CITY_R  # the scan's circle
        assert not any(isinstance(i, Circle) and math.dist((i.cx, i.cy), f.center) < 0.01 for i in items)
        (mine,) = [s for s in shields if math.dist(f.center, _middle(s)) < 1.0]
        reach = max(math.dist(f.center, (float(cmd[k]), float(cmd[k + 1])))
                    for cmd in mine.commands for k in range(1, len(cmd) - 1, 2))
        assert reach + mine.style.width / 2 <= CITY_R + 1.5  # the scan's star ring starts 1.5 pt outside
        (icon,) = f.icons  # the star, inside the tag, where the rulebook puts it
        stars = [i for i in items if isinstance(i, Icon) and i.name == citymarks.STAR and i.fill == citymarks.GOLD]
        assert any(abs(s.x - icon[0] - citymarks.RIM) < 0.01 and abs(s.y - icon[1] - citymarks.RIM) < 0.01
                   for s in stars)
        assert f.tag[0] <= icon[0] and icon[2] <= f.tag[2]
    assert STAR_RING > 1.5


def _middle(p: Path) -> tuple[float, float]:
    xs = [float(c[k]) for c in p.commands for k in range(1, len(c) - 1, 2)]
    ys = [float(c[k + 1]) for c in p.commands for k in range(1, len(c) - 1, 2)]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def test_the_scan_reads_a_trail_through_every_shield() -> None:
    fields = sheets("us", "a4", ("Ann",))[1]
    assert set(TRAIL) <= {r.id for r in fields.routes}
    s = read(photo("us", "a4", ("Ann",), 0, sim.Filled((), TRAIL, "seattle")))
    assert s.uncertain == []
    assert s.route is not None and s.route[0] == "seattle" and s.route[-1] == "miami"
    assert {"anchorage", "honolulu", "washington-dc", "san-juan"} <= set(s.route)
