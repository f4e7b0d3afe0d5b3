"""Icons and SVG path data: every kind's icon exists, shapes fit the unit box, paths parse exactly."""

from __future__ import annotations

import math
import tomllib
from typing import Any, Iterator

import pytest

from printkit.errors import DataError
from printkit.layout import icons, pathdata
from printkit.resources import asset, data_dir

REQUIRED = (
    "mug shirt postcard textile sauce candy jewelry keychain ornament statue chocolate ale "
    "hat emerald bag coffee culture history nature food star shield home dice plane"
).split()


def test_required_names_are_all_there() -> None:
    assert set(REQUIRED) <= set(icons.icon_names())


@pytest.mark.parametrize("name", icons.icon_names())
def test_every_icon_is_absolute_mlcz_inside_the_unit_box(name: str) -> None:
    sym = icons.symbol(name)
    assert sym.name == name and sym.paths
    for path in sym.paths:
        assert {c[0] for c in path.commands} <= {"M", "L", "C", "Z"}
        assert path.commands[0][0] == "M"
        assert path.style.fill == "#000000" and path.style.stroke is None
        assert not path.even_odd  # source icons are drawn with the nonzero rule
        x0, y0, x1, y1 = pathdata.extent(path.commands)
        assert -0.005 <= x0 and -0.005 <= y0 and x1 <= 1.005 and y1 <= 1.005


@pytest.mark.parametrize("name", icons.icon_names())
def test_every_icon_fills_a_good_part_of_its_box(name: str) -> None:
    xs: list[float] = []
    ys: list[float] = []
    for path in icons.symbol(name).paths:
        x0, y0, x1, y1 = pathdata.extent(path.commands)
        xs += [x0, x1]
        ys += [y0, y1]
    # readable when small: the drawing spans at least 70% of the box one way
    assert max(max(xs) - min(xs), max(ys) - min(ys)) >= 0.7


def test_icons_are_distinct_so_kinds_never_look_alike() -> None:
    seen: dict[str, str] = {}
    for name in icons.icon_names():
        if name == "dice":  # alias of dice-5 by design
            continue
        key = icons.source(name).source
        assert key not in seen, f"{name} and {seen[key]} share {key}"
        seen[key] = name
    assert icons.symbol("mug") != icons.symbol("coffee")
    assert icons.source("mug").source == "mdi:coffee"  # the mug shape...
    assert icons.source("coffee").source == "game-icons:coffee-beans"  # ...coffee is beans


def test_every_icon_has_its_source_and_licence_recorded() -> None:
    provenance = asset("icons", "PROVENANCE.md").read_text(encoding="utf-8")
    for name in icons.icon_names():
        src = icons.source(name)
        assert src.licence in {"Apache-2.0", "CC-BY-3.0", "MIT"}
        assert f"| `{name}` | `{src.source}` | {src.licence} |" in provenance
    for licence_file in ("LICENSE-Apache-2.0.txt", "LICENSE-mdi.txt", "LICENSE-MIT-fluentui-emoji.txt"):
        assert asset("icons", licence_file).is_file()


def test_unknown_icon_is_a_clear_error() -> None:
    with pytest.raises(DataError) as err:
        icons.symbol("unicorn")
    assert str(err.value).startswith("icons: no icon named 'unicorn'; known icons: ale, anteater, ")


def test_symbols_dedupes_in_first_seen_order() -> None:
    assert [s.name for s in icons.symbols(["star", "mug", "star"])] == ["star", "mug"]


def _icons_in(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "icon" and isinstance(value, str):
                yield value
            else:
                yield from _icons_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _icons_in(value)


def test_every_icon_named_in_the_map_data_exists() -> None:
    used: set[str] = set()
    for path in sorted(data_dir("maps").glob("*.toml")):
        used |= {f"{path.name}:{i}" for i in _icons_in(tomllib.loads(path.read_text(encoding="utf-8")))}
    assert used, "no map data names an icon"
    missing = sorted(u for u in used if u.split(":", 1)[1] not in icons.icon_names())
    assert missing == []


# --- path data -------------------------------------------------------------


def test_lines_relative_and_implicit_commands() -> None:
    # m after Z is relative to the closed subpath's start; pairs after M are line-tos
    assert pathdata.parse("M10 10h5v5H10zm1,1 2 0l-1-1V0") == (
        ("M", 10.0, 10.0), ("L", 15.0, 10.0), ("L", 15.0, 15.0), ("L", 10.0, 15.0), ("Z",),
        ("M", 11.0, 11.0), ("L", 13.0, 11.0), ("L", 12.0, 10.0), ("L", 12.0, 0.0),
    )


def test_compact_numbers_and_exponents() -> None:
    assert pathdata.parse("M1.5.5-2e1-.25") == (("M", 1.5, 0.5), ("L", -20.0, -0.25))


def test_quadratic_becomes_cubic_with_two_thirds_controls() -> None:
    # Q from (0,0) via (3,6) to (6,0): controls at 2/3 of the way to (3,6) -> (2,4) and (4,4)
    (_, cmd) = pathdata.parse("M0 0Q3 6 6 0")
    assert cmd == pytest.approx(("C", 2.0, 4.0, 4.0, 4.0, 6.0, 0.0))


def test_smooth_commands_reflect_the_previous_control_point() -> None:
    cmds = pathdata.parse("M0 0C0 1 1 1 1 0S2-1 2 0")
    # reflection of (1,1) about (1,0) is (1,-1)
    assert cmds[2] == ("C", 1.0, -1.0, 2.0, -1.0, 2.0, 0.0)
    t = pathdata.parse("M0 0Q1 1 2 0T4 0")
    # T reflects quadratic control (1,1) about (2,0) -> (3,-1); cubic controls 2/3 towards it
    assert t[2] == pytest.approx(("C", 2 + 2 / 3, -2 / 3, 3 + 1 / 3, -2 / 3, 4.0, 0.0))


def _cubic(c: tuple[float, ...], p0: tuple[float, float], t: float) -> tuple[float, float]:
    x1, y1, x2, y2, x3, y3 = c
    u = 1 - t
    x = u**3 * p0[0] + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3
    y = u**3 * p0[1] + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3
    return x, y


def test_arc_becomes_cubics_on_the_circle_with_packed_flags() -> None:
    # half circle of radius 5 from (0,0) to (10,0), sweep=1 goes through y<0 (y down: clockwise)
    cmds = pathdata.parse("M0 0A5 5 0 0110 0")
    assert len(cmds) == 3  # two quarter arcs
    start = (0.0, 0.0)
    for cmd in cmds[1:]:
        nums = tuple(float(v) for v in cmd[1:])
        for t in (0.25, 0.5, 0.75):
            x, y = _cubic(nums, start, t)
            assert math.hypot(x - 5, y) == pytest.approx(5, abs=0.01)
            assert y <= 0
        start = (nums[4], nums[5])
    assert start == (10.0, 0.0)


def test_arc_radius_too_small_is_scaled_up() -> None:
    # radius 1 cannot span 4 units: scaled to 2, so the arc is a half circle through (2,-2)
    cmds = pathdata.parse("M0 0a1 1 0 0 1 4 0")
    x, y = _cubic(tuple(float(v) for v in cmds[1][1:]), (0.0, 0.0), 1.0)
    assert (x, y) == pytest.approx((2.0, -2.0))


@pytest.mark.parametrize(
    ("d", "message"),
    [
        ("M0 0 L#", "x.svg: path data: unexpected '#' at position 6"),
        ("M0 0L5", "x.svg: path data: command 'L' needs 2 numbers"),
        ("5 5", "x.svg: path data: number 5 before any command"),
        ("L5 5", "x.svg: path data: must start with a move-to (M or m)"),
    ],
)
def test_bad_path_data_is_a_clear_error(d: str, message: str) -> None:
    with pytest.raises(DataError) as err:
        pathdata.parse(d, "x.svg")
    assert str(err.value) == message


def test_extent_follows_the_curve_not_its_control_points() -> None:
    # control points at y=-4 pull the curve only to y=-3 (Bezier midpoint 3/4 of the way)
    cmds = pathdata.parse("M0 0C0-4 4-4 4 0")
    assert pathdata.bounds(cmds) == (0.0, -4.0, 4.0, 0.0)
    assert pathdata.extent(cmds) == pytest.approx((0.0, -3.0, 4.0, 0.0))


def test_unit_box_centres_a_wide_view_box_and_svg_round_trips() -> None:
    cmds = pathdata.to_unit_box(pathdata.parse("M0 0H20V10H0Z"), 20, 10)
    assert cmds == (("M", 0.0, 0.25), ("L", 1.0, 0.25), ("L", 1.0, 0.75), ("L", 0.0, 0.75), ("Z",))
    assert pathdata.to_svg(cmds) == "M0 0.25L1 0.25L1 0.75L0 0.75Z"
    assert pathdata.parse(pathdata.to_svg(cmds)) == cmds
