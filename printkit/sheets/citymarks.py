"""How a city is marked on the map: a white circle, or for an iconic city the rulebook's shield and gold star.

The rulebook draws an iconic city (US: Anchorage, Honolulu, Washington, D.C.,
San Juan) "with the shield symbol instead of a circle" and "a gold star in
their text box". The shield stands where the circle would, inside the
circle's room (within ``SHIELD_REACH`` of the city's point, where a tag
touching the circle begins), so the layout, the field geometry (``radius``) and
the scan treat it as a circle; the star is the city's tag icon, in gold with a
black rim that a grey or 1-bit print keeps.
"""

from __future__ import annotations

from printkit.layout.common import INK, PAPER_WHITE
from printkit.layout.geo import Pt
from printkit.layout.primitives import Circle, Icon, Item, Path, Style
from printkit.layout.shapes import outline
from printkit.model.maps import City

CITY = Style(stroke=INK, fill=PAPER_WHITE, width=1.2)
"""A city's circle, and an iconic city's shield: white, so a route's end and a start star show on it."""
SHIELD = "shield"
SHIELD_SIZE = 10.6
"""The shield icon's box (points): its outline reaches 5.04 pt from its centre (the icon is 0.475 of its box at
its top corners), 5.6 pt with its stroke, inside the 5.8 pt where a tag touching a circle begins."""
STAR = "star"
"""An iconic city's tag icon: the gold star of the rulebook."""
GOLD = "#f2b705"
RIM = 0.9
"""The black rim (points) round the gold star."""


def shield(c: Pt, size: float = SHIELD_SIZE) -> Path:
    """An iconic city's shield centred on ``c``: the shield icon's outline, drawn as a city's circle is."""
    return Path(outline(SHIELD, c, size), CITY)


def city_mark(city: City, at: Pt, radius: float) -> Item:
    """The mark of ``city`` at ``at``: its circle of ``radius``, or an iconic city's shield in the circle's room."""
    return shield(at) if city.iconic else Circle(at[0], at[1], radius, CITY)


def tag_icon(name: str, x: float, y: float, size: float) -> list[Item]:
    """Icon ``name`` in a city's tag, ``size`` points square at top-left (x, y): the iconic star gold in a black rim."""
    if name != STAR:
        return [Icon(name, x, y, size)]
    return [Icon(STAR, x, y, size, INK), Icon(STAR, x + RIM, y + RIM, size - 2 * RIM, GOLD)]
