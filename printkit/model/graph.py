"""The route graph of a map: distances and drawn routes (used by record reading and scoring).

Distances count routes (edges) on the map's whole graph, drawn or not, as the
rulings say for tie-breaks and blocked travel.
"""

from collections import deque
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from printkit.model.maps import GameMap, Route


def route_key(a: str, b: str) -> Route:
    """The undirected route between two city ids (a <= b order)."""
    return Route(a, b) if a <= b else Route(b, a)


def _adjacency(m: GameMap) -> dict[str, list[str]]:
    adjacent: dict[str, list[str]] = {c.id: [] for c in m.cities}
    for r in m.routes:
        adjacent[r.a].append(r.b)
        adjacent[r.b].append(r.a)
    return adjacent


def distances_from(m: GameMap, start: str) -> dict[str, int]:
    """Fewest routes from ``start`` to every reachable city (KeyError for an unknown city)."""
    adjacent = _adjacency(m)
    if start not in adjacent:
        raise KeyError(start)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in adjacent[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def distance(m: GameMap, a: str, b: str) -> int | None:
    """Fewest routes between cities ``a`` and ``b``; None if unreachable."""
    if b not in {c.id for c in m.cities}:
        raise KeyError(b)
    return distances_from(m, a).get(b)


def open_routes(m: GameMap, city: str, used: Iterable[Route]) -> tuple[Route, ...]:
    """Routes out of ``city`` not yet in ``used``, in map order."""
    taken = set(used)
    return tuple(r for r in m.routes if city in (r.a, r.b) and r not in taken)


def nearest_open(m: GameMap, city: str, used: Iterable[Route]) -> list[str]:
    """All tied nearest cities with an open route (``[city]`` if it has one; [] if none anywhere)."""
    taken = set(used)
    has_open = {c for r in m.routes if r not in taken for c in (r.a, r.b)}
    dist = distances_from(m, city)
    reachable = [(d, c.id) for c in m.cities if (d := dist.get(c.id)) is not None and c.id in has_open]
    if not reachable:
        return []
    best = min(d for d, _ in reachable)
    return [cid for d, cid in reachable if d == best]


class RouteCheck(NamedTuple):
    """The result of checking a drawn route; ``visited``/``used`` cover its valid part.

    ``bad_index`` is the position in the sequence of the first bad city
    (0 = the start), ``message`` says what is wrong; both empty when ``ok``.
    """

    ok: bool
    visited: frozenset[str]
    used: tuple[Route, ...]
    bad_index: int | None = None
    message: str = ""
    cities: tuple[str, ...] = ()

    @property
    def current(self) -> str | None:
        """The last city reached by the valid part of the route."""
        return self.cities[-1] if self.cities else None

    @property
    def returned(self) -> bool:
        """Whether the route ends on its start after leaving it at least once."""
        return len(self.cities) > 1 and self.cities[-1] == self.cities[0]


def check_route(m: GameMap, cities: Sequence[str]) -> RouteCheck:
    """Check a drawn route (city ids from the start): real routes, none used twice."""
    if not cities:
        return RouteCheck(False, frozenset(), (), 0, "the route is empty: it needs at least the starting city")
    known = {c.id for c in m.cities}
    start = cities[0]
    if start not in known:
        return RouteCheck(False, frozenset(), (), 0, f"start: {start!r} is not a city of this map")
    if not m.city(start).can_start:
        return RouteCheck(
            False, frozenset(), (), 0, f"start: {m.city(start).name} is an iconic city and cannot be a starting city"
        )
    routes = set(m.routes)
    visited = {start}
    used: list[Route] = []
    path = [start]
    for i in range(1, len(cities)):
        here, nxt = cities[i - 1], cities[i]
        message = ""
        key = route_key(here, nxt)
        if nxt not in known:
            message = f"step {i}: {nxt!r} is not a city of this map"
        elif key not in routes:
            message = f"step {i}: there is no route from {m.city(here).name} to {m.city(nxt).name}"
        elif key in used:
            message = f"step {i}: the route {m.city(here).name} - {m.city(nxt).name} was already used"
        if message:
            return RouteCheck(False, frozenset(visited), tuple(used), i, message, tuple(path))
        used.append(key)
        visited.add(nxt)
        path.append(nxt)
    return RouteCheck(True, frozenset(visited), tuple(used), None, "", tuple(path))
