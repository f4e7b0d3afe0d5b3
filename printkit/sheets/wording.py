"""Words the Around the World sheets use for a map's facts, each worded in one place."""

from __future__ import annotations

from printkit.model.maps import GameMap


def cities_needed(m: GameMap, one: str = "a city") -> str:
    """How many cities a trip must visit in every region: ``a city`` (or ``one``), else ``2 cities``."""
    return one if m.end_cities_per_region == 1 else f"{m.end_cities_per_region} cities"


def explored(m: GameMap) -> str:
    """What Explore marks, plural: ``animals`` on a map with several Explore tracks, else ``sights``."""
    return "animals" if len(m.explore) > 1 else "sights"


def one_explored(m: GameMap) -> str:
    """One thing Explore marks, with its article: ``an animal`` or ``a sight``."""
    return "an animal" if len(m.explore) > 1 else "a sight"
