"""SVG path data to the absolute M/L/C/Z commands of :class:`primitives.Path`.

Every SVG command is accepted (M L H V C S Q T A Z, absolute and relative);
horizontal/vertical lines become L, quadratics and elliptical arcs become
cubic Béziers, so the backends only ever draw four commands.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from printkit.errors import DataError
from printkit.layout.primitives import PathCommand

_TOKEN = re.compile(
    r"\s*(?:([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))\s*,?"
)
_FLAG = re.compile(r"\s*([01])\s*,?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}

Point = tuple[float, float]


def _error(source: str, message: str) -> DataError:
    return DataError([f"{source}: path data: {message}"])


def _tokens(d: str, source: str) -> list[str | float]:
    """Split path data into command letters and numbers (arc flags may be unspaced)."""
    out: list[str | float] = []
    pos = 0
    command = ""
    arg_index = 0
    end = len(d.rstrip())
    while pos < end:
        if command in ("A", "a") and arg_index % 7 in (3, 4):
            flag = _FLAG.match(d, pos)
            if flag:
                out.append(float(flag.group(1)))
                pos = flag.end()
                arg_index += 1
                continue
        m = _TOKEN.match(d, pos)
        if not m or m.end() == pos:
            raise _error(source, f"unexpected {d[pos]!r} at position {pos}")
        if m.group(1):
            command = m.group(1)
            arg_index = 0
            out.append(command)
        else:
            out.append(float(m.group(2)))
            arg_index += 1
        pos = m.end()
    return out


def _arc_centre(
    p0: Point, rx: float, ry: float, phi: float, large: bool, sweep: bool, p1: Point
) -> tuple[float, float, float, float, float, float]:
    """Centre, corrected radii, start angle and sweep of an arc: (cx, cy, rx, ry, theta1, delta).

    SVG implementation notes F.6.5: radii too small to reach are scaled up.
    """
    x0, y0 = p0
    x1, y1 = p1
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x0 - x1) / 2, (y0 - y1) / 2
    x1p = cos_p * dx + sin_p * dy
    y1p = -sin_p * dx + cos_p * dy
    lam = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if lam > 1:
        rx *= math.sqrt(lam)
        ry *= math.sqrt(lam)
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp = coef * rx * y1p / ry
    cyp = -coef * ry * x1p / rx
    cx = cos_p * cxp - sin_p * cyp + (x0 + x1) / 2
    cy = sin_p * cxp + cos_p * cyp + (y0 + y1) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    theta1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    return cx, cy, rx, ry, theta1, delta


def _arc_to_cubics(
    p0: Point, rx: float, ry: float, phi_deg: float, large: bool, sweep: bool, p1: Point
) -> list[PathCommand]:
    """Elliptical arc from p0 to p1 as cubic Béziers (SVG implementation notes F.6)."""
    x1, y1 = p1
    if p0 == p1:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x1, y1)]
    phi = math.radians(phi_deg % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    cx, cy, rx, ry, theta1, delta = _arc_centre(p0, rx, ry, phi, large, sweep, p1)
    segments = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / segments
    k = 4 / 3 * math.tan(step / 4)
    out: list[PathCommand] = []

    def at(t: float) -> tuple[float, float, float, float]:
        """Point and derivative direction on the ellipse at parameter t."""
        ct, st = math.cos(t), math.sin(t)
        px = cx + rx * ct * cos_p - ry * st * sin_p
        py = cy + rx * ct * sin_p + ry * st * cos_p
        tx = -rx * st * cos_p - ry * ct * sin_p
        ty = -rx * st * sin_p + ry * ct * cos_p
        return px, py, tx, ty

    ax, ay, atx, aty = at(theta1)
    for i in range(segments):
        bx, by, btx, bty = at(theta1 + step * (i + 1))
        if i == segments - 1:
            bx, by = x1, y1
        out.append(("C", ax + k * atx, ay + k * aty, bx - k * btx, by - k * bty, bx, by))
        ax, ay, atx, aty = bx, by, btx, bty
    return out


class _Pen:
    """Where a path is: the current point, the subpath's start, the last curves' control points."""

    def __init__(self) -> None:
        self.cur: Point = (0.0, 0.0)
        self.start: Point = (0.0, 0.0)
        self.cubic: Point | None = None
        self.quad: Point | None = None

    def segment(self, upper: str, nums: list[float], ox: float, oy: float) -> list[PathCommand]:
        """One drawing command (not M or Z) as absolute commands; moves the pen."""
        cur = self.cur
        cubic: Point | None = None
        quad: Point | None = None
        out: list[PathCommand]
        if upper in "LHV":
            if upper == "L":
                end = (nums[0] + ox, nums[1] + oy)
            elif upper == "H":
                end = (nums[0] + ox, cur[1])
            else:
                end = (cur[0], nums[0] + oy)
            out = [("L", *end)]
        elif upper in "CS":
            if upper == "C":
                c1 = (nums[0] + ox, nums[1] + oy)
                rest = nums[2:]
            else:
                prev = self.cubic
                c1 = (2 * cur[0] - prev[0], 2 * cur[1] - prev[1]) if prev else cur
                rest = nums
            cubic = (rest[0] + ox, rest[1] + oy)
            end = (rest[2] + ox, rest[3] + oy)
            out = [("C", *c1, *cubic, *end)]
        elif upper in "QT":
            quad, end = self._quad_ends(upper, nums, ox, oy)
            c1 = (cur[0] + 2 / 3 * (quad[0] - cur[0]), cur[1] + 2 / 3 * (quad[1] - cur[1]))
            c2 = (end[0] + 2 / 3 * (quad[0] - end[0]), end[1] + 2 / 3 * (quad[1] - end[1]))
            out = [("C", *c1, *c2, *end)]
        else:  # A
            end = (nums[5] + ox, nums[6] + oy)
            out = _arc_to_cubics(cur, nums[0], nums[1], nums[2], nums[3] != 0, nums[4] != 0, end)
        self.cur = end
        self.cubic, self.quad = cubic, quad
        return out

    def _quad_ends(self, upper: str, nums: list[float], ox: float, oy: float) -> tuple[Point, Point]:
        """The control point and end of a Q or T command."""
        if upper == "Q":
            return (nums[0] + ox, nums[1] + oy), (nums[2] + ox, nums[3] + oy)
        prev, cur = self.quad, self.cur
        q = (2 * cur[0] - prev[0], 2 * cur[1] - prev[1]) if prev else cur
        return q, (nums[0] + ox, nums[1] + oy)


def parse(d: str, source: str = "<path>") -> tuple[PathCommand, ...]:
    """Parse SVG path data into absolute M/L/C/Z commands in the same coordinates."""
    tokens = _tokens(d, source)
    out: list[PathCommand] = []
    i = 0
    pen = _Pen()
    command = ""
    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, str):
            command = tok
            i += 1
            if command in "Zz":
                out.append(("Z",))
                pen.cur = pen.start
                pen.cubic = pen.quad = None
                continue
        elif not command or command in "Zz":
            raise _error(source, f"number {tok:g} before any command")
        upper = command.upper()
        n = _ARITY[upper]
        args = tokens[i : i + n]
        if len(args) < n or any(isinstance(a, str) for a in args):
            raise _error(source, f"command {command!r} needs {n} numbers")
        nums = [float(a) for a in args]
        i += n
        rel = command.islower()
        ox, oy = pen.cur if rel else (0.0, 0.0)
        if upper == "M":
            pen.cur = pen.start = (nums[0] + ox, nums[1] + oy)
            pen.cubic = pen.quad = None
            out.append(("M", *pen.cur))
            command = "l" if rel else "L"  # later pairs are implicit line-tos
        else:
            out.extend(pen.segment(upper, nums, ox, oy))
    if out and out[0][0] != "M":
        raise _error(source, "must start with a move-to (M or m)")
    return tuple(out)


def transform(
    commands: Iterable[PathCommand], scale: float, dx: float = 0.0, dy: float = 0.0,
    scale_y: float | None = None,
) -> tuple[PathCommand, ...]:
    """Scale then translate every point of absolute commands."""
    sy = scale if scale_y is None else scale_y
    out: list[PathCommand] = []
    for cmd in commands:
        nums = [float(v) for v in cmd[1:]]
        moved = [v * scale + dx if k % 2 == 0 else v * sy + dy for k, v in enumerate(nums)]
        out.append((cmd[0], *moved))
    return tuple(out)


def to_unit_box(
    commands: Sequence[PathCommand], width: float, height: float, precision: int = 5
) -> tuple[PathCommand, ...]:
    """Fit commands drawn in a ``width`` x ``height`` view box into 0..1, centred."""
    size = max(width, height)
    if size <= 0:
        raise ValueError("view box must have a positive size")
    dx = (size - width) / 2 / size
    dy = (size - height) / 2 / size
    scaled = transform(commands, 1 / size, dx, dy)
    return tuple((c[0], *(round(float(v), precision) for v in c[1:])) for c in scaled)


def bounds(commands: Iterable[PathCommand]) -> tuple[float, float, float, float]:
    """(x_min, y_min, x_max, y_max) of all end and control points."""
    xs: list[float] = []
    ys: list[float] = []
    for cmd in commands:
        nums = [float(v) for v in cmd[1:]]
        xs.extend(nums[0::2])
        ys.extend(nums[1::2])
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def extent(commands: Iterable[PathCommand], samples: int = 16) -> tuple[float, float, float, float]:
    """(x_min, y_min, x_max, y_max) of the drawn outline (cubics sampled), not its controls."""
    xs: list[float] = []
    ys: list[float] = []
    cur = (0.0, 0.0)
    for cmd in commands:
        nums = [float(v) for v in cmd[1:]]
        if cmd[0] == "C":
            x1, y1, x2, y2, x3, y3 = nums
            for k in range(1, samples + 1):
                t = k / samples
                u = 1 - t
                xs.append(u**3 * cur[0] + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3)
                ys.append(u**3 * cur[1] + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3)
        elif nums:
            xs.append(nums[0])
            ys.append(nums[1])
        if nums:
            cur = (nums[-2], nums[-1])
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def _num(v: float, precision: int) -> str:
    text = f"{v:.{precision}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def to_svg(commands: Iterable[PathCommand], precision: int = 3) -> str:
    """Compact SVG path data for absolute commands (what the SVG backend can write)."""
    parts: list[str] = []
    for cmd in commands:
        nums = " ".join(_num(float(v), precision) for v in cmd[1:])
        parts.append(f"{cmd[0]}{nums}")
    return "".join(parts)
