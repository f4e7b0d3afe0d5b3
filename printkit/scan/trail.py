"""The drawn routes as one trail on the map's graph: its start, its order, and why it may not be one."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from printkit.model import graph
from printkit.model.maps import GameMap

Edge = tuple[str, str]


def _components(edges: list[Edge]) -> list[set[str]]:
    """Cities joined by the edges, one set per connected piece."""
    pieces: list[set[str]] = []
    for a, b in edges:
        joined = [p for p in pieces if a in p or b in p]
        merged = {a, b}.union(*joined)
        pieces = [p for p in pieces if p not in joined] + [merged]
    return pieces


def _euler(edges: list[Edge], start: str) -> list[str]:
    """A trail from ``start`` using every edge once (Hierholzer; the edges must allow one)."""
    left: dict[str, list[str]] = {}
    for a, b in edges:
        left.setdefault(a, []).append(b)
        left.setdefault(b, []).append(a)
    for nbrs in left.values():
        nbrs.sort()
    stack, path = [start], []
    while stack:
        here = stack[-1]
        if left.get(here):
            nxt = left[here].pop(0)
            left[nxt].remove(here)
            stack.append(nxt)
        else:
            path.append(stack.pop())
    return path[::-1]


def _pick(m: GameMap, candidates: list[str], star: Mapping[str, float]) -> str | None:
    """The candidate a star marks best (iconic cities cannot start); None if there is none."""
    able = [c for c in candidates if m.city(c).can_start]
    return max(able, key=lambda c: (star.get(c, 0.0), -candidates.index(c))) if able else None


def trail(m: GameMap, drawn: list[Edge], star: Mapping[str, float], star_min: float) -> tuple[list[str] | None, str]:
    """(the route from the start, "") or (None, why the drawn routes are not one trail)."""

    def names(ids: list[str] | set[str]) -> str:
        return ", ".join(sorted(m.city(c).name for c in ids))

    if not drawn:
        ranked = sorted((c.id for c in m.cities if c.can_start), key=lambda c: -star.get(c, 0.0))
        best = ranked[0] if ranked else None
        if best is None or star.get(best, 0.0) < star_min or (
                len(ranked) > 1 and star.get(ranked[1], 0.0) > star.get(best, 0.0) / 2):
            return None, "no route is drawn and no single city is starred as the start"
        return [best], ""
    pieces = _components(drawn)
    if len(pieces) > 1:
        return None, f"the drawn routes do not join into one trail ({' / '.join(names(p) for p in pieces)})"
    degree: dict[str, int] = {}
    for a, b in drawn:
        degree[a], degree[b] = degree.get(a, 0) + 1, degree.get(b, 0) + 1
    odd = sorted(c for c, d in degree.items() if d % 2)
    if len(odd) not in (0, 2):
        return None, f"the drawn routes branch (a trail has two ends, these cities are ends: {names(odd)})"
    start = _pick(m, odd if odd else sorted(degree), star)
    if start is None:
        return None, f"the trail's ends ({names(odd)}) are iconic cities, which cannot be a start"
    route = _euler(drawn, start)
    check = graph.check_route(m, route)
    return (route, "") if check.ok else (None, check.message)


SETTLE_MAX = 6
"""At most this many unsure routes are settled by the trail (2**6 choices tried); more stay unsure."""


def settle(m: GameMap, drawn: list[Edge], unsure: Mapping[Edge, bool | None], star: Mapping[str, float],
           star_min: float, fits: Callable[[dict[Edge, bool]], bool] | None = None) -> dict[Edge, bool] | None:
    """The unsure routes that every legal trail from a starred start decides the same way, or None if there are none.

    ``unsure`` gives each unsure route's lean (its own read; None where it
    cannot be read). A choice of the unsure routes is legal when the drawn
    routes with it form one trail on the map (connected, two ends or none, a
    legal route) whose start carries a star, and ``fits`` (when given) says
    the ink agrees with it. A route is settled only when every legal choice
    gives it the same answer and that answer agrees with its lean; the others
    stay unsure.
    """
    edges = list(unsure)
    if not edges or len(edges) > SETTLE_MAX:
        return None
    legal: list[dict[Edge, bool]] = []
    for bits in range(2 ** len(edges)):
        choice = {e: bool(bits >> k & 1) for k, e in enumerate(edges)}
        if fits is not None and not fits(choice):
            continue
        route, _ = trail(m, drawn + [e for e in edges if choice[e]], star, star_min)
        if route is not None and star.get(route[0], 0.0) >= star_min:
            legal.append(choice)
    settled = {e: legal[0][e] for e in edges if legal and all(c[e] == legal[0][e] for c in legal)
               and unsure[e] in (None, legal[0][e])}
    return settled or None
