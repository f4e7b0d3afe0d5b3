"""Cross-checks of a parsed map: references, scoring tables, routes, graph and shape.

Called by :mod:`printkit.loading.maps` once every field has its type; records each
problem on the map file's :class:`~printkit.loading.fields.Reader`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from printkit.loading.fields import Reader, describe
from printkit.model import maps as model
from printkit.model.words import plural

SHAPE_KEYS = (
    "regions", "cities", "cities_per_region", "souvenirs_per_region", "sights_per_city",
    "iconic_cities", "iconic_routes",
)  # fmt: skip
MIN_ROUTES = 2

Located = list[tuple[str, Any]]


def raw_count(doc: dict[str, Any], key: str) -> int:
    """How many entries the raw list ``doc[key]`` has (0 if it is not a list)."""
    value = doc.get(key)
    return len(value) if isinstance(value, list) else 0


def _declared(doc: dict[str, Any], key: str) -> list[str]:
    """Ids written in ``doc[key]`` tables, valid or not, so one bad entry is not also "unknown"."""
    value = doc.get(key)
    items = value if isinstance(value, list) else []
    out: list[str] = []
    for t in items:
        if isinstance(t, dict) and isinstance(t.get("id"), str) and t["id"] not in out:
            out.append(t["id"])
    return out


def check_map(
    rd: Reader,
    doc: dict[str, Any],
    collect: model.Track | None,
    explore: list[model.Track],
    regions: list[tuple[str, model.Region]],
    cities: list[tuple[str, model.City]],
    scoring: model.RegionScoring | None,
    iconic_table: tuple[int, ...],
    projection: model.Projection | None,
    explore_complete: bool,
) -> tuple[model.Route, ...] | None:
    """Check everything that spans fields; return the routes (None if they are unusable)."""
    complete = len(regions) == raw_count(doc, "regions") and len(cities) == raw_count(doc, "cities")
    _check_kinds(rd, collect, explore)
    _check_unique(rd, regions, "region")
    _check_unique(rd, cities, "city")
    _check_regions(rd, regions, collect, scoring)
    _check_cities(rd, cities, _declared(doc, "regions"), explore if explore_complete else None, projection)
    if complete and explore_complete:
        _check_usage(rd, regions, cities, collect, explore)
    n_regions = raw_count(doc, "regions")
    if scoring is not None and scoring.mode == "table" and len(scoring.table) != n_regions + 1:
        rd.problem(
            "region_scoring.table",
            f"expected {n_regions + 1} numbers (points for 0..{n_regions} regions completed), got {len(scoring.table)}",
        )
    iconic = [c for _, c in cities if c.iconic]
    if iconic and not iconic_table:
        count = plural(len(iconic), "iconic city", "iconic cities")
        rd.problem("iconic_table", f"missing (the map has {count}: {', '.join(c.name for c in iconic)})")
    elif iconic_table and len(iconic_table) != len(iconic) + 1:
        rd.problem(
            "iconic_table",
            f"expected {len(iconic) + 1} numbers (points for 0..{len(iconic)} iconic cities visited), "
            f"got {len(iconic_table)}",
        )
    routes = _routes(rd, doc, _declared(doc, "cities"))
    if routes is not None and len(cities) == raw_count(doc, "cities"):
        _check_graph(rd, routes, [c for _, c in cities])
    shape = rd.table(doc, "shape", "", required=False)
    if shape is not None and complete:  # counts of a half-read map would only mislead
        _check_shape(rd, shape, regions, cities, routes)
    return routes


def _check_kinds(rd: Reader, collect: model.Track | None, explore: list[model.Track]) -> None:
    seen: dict[str, str] = {}
    tracks = ([("collect", collect)] if collect else []) + [(f"explore[{i}]", t) for i, t in enumerate(explore)]
    track_ids: set[str] = set()
    for path, track in tracks:
        if track.id in track_ids:
            rd.problem(f"{path}.id", f"duplicate track id {track.id!r}")
        track_ids.add(track.id)
        for i, k in enumerate(track.kinds):
            if k.id in seen:
                rd.problem(f"{path}.kinds[{i}].id", f"{k.id!r} is already a kind of {seen[k.id]}")
            else:
                seen[k.id] = path
        if not track.kinds:
            rd.problem(f"{path}.kinds", "expected at least one kind")


def _check_unique(rd: Reader, items: Located, what: str) -> None:
    ids: dict[str, str] = {}
    names: dict[str, str] = {}
    for path, item in items:
        if item.id in ids:
            rd.problem(f"{path}.id", f"duplicate {what} id {item.id!r} (also {ids[item.id]})")
        else:
            ids[item.id] = path
        key = item.name.strip().casefold()
        if key in names:
            rd.problem(f"{path}.name", f"duplicate {what} name {item.name!r} (also {names[key]})")
        else:
            names[key] = path


def _check_regions(
    rd: Reader,
    regions: list[tuple[str, model.Region]],
    collect: model.Track | None,
    scoring: model.RegionScoring | None,
) -> None:
    souvenirs = collect.kind_ids if collect else None
    majority = scoring is not None and scoring.mode == "majority"
    for path, r in regions:
        for i, s in enumerate(r.souvenirs):
            if souvenirs is not None and s not in souvenirs:
                rd.problem(
                    f"{path}.souvenirs[{i}]",
                    f"{s!r} is not a souvenir of this map (souvenirs: {', '.join(souvenirs)})",
                )
        if majority and r.reward is None:
            rd.problem(f"{path}.reward", "missing (region_scoring.mode is 'majority': each region needs a reward)")
        if scoring is not None and not majority and r.reward is not None:
            rd.problem(f"{path}.reward", "only used when region_scoring.mode is 'majority'")


def _check_cities(
    rd: Reader,
    cities: list[tuple[str, model.City]],
    region_ids: list[str],
    explore: list[model.Track] | None,
    projection: model.Projection | None,
) -> None:
    kinds = None if explore is None else [k for t in explore for k in t.kind_ids]
    for path, c in cities:
        if c.region is not None and c.region not in region_ids:
            rd.problem(
                f"{path}.region", f"{c.region!r} is not a region of this map (regions: {', '.join(region_ids)})"
            )
        for i, s in enumerate(c.sights):
            if kinds is not None and s not in kinds:
                rd.problem(
                    f"{path}.sights[{i}]",
                    f"{s!r} is not an Explore kind of this map (kinds: {', '.join(kinds) or 'none'})",
                )
        if projection is not None and not any(
            b[0] <= c.lon <= b[2] and b[1] <= c.lat <= b[3]
            for b in (projection.bounds, *(i.bounds for i in projection.insets))
        ):
            lon0, lat0, lon1, lat1 = projection.bounds
            also = " or any projection.insets bounds" if projection.insets else ""
            rd.problem(
                path,
                f"{c.name} at lat {c.lat:g}, lon {c.lon:g} lies outside projection.bounds "
                f"[{lon0:g}, {lat0:g}, {lon1:g}, {lat1:g}]{also}",
            )


def _check_usage(
    rd: Reader,
    regions: list[tuple[str, model.Region]],
    cities: list[tuple[str, model.City]],
    collect: model.Track | None,
    explore: list[model.Track],
) -> None:
    region_ids = {c.region for _, c in cities}
    for path, r in regions:
        if r.id not in region_ids:
            rd.problem(path, f"region {r.name} has no cities")
    offered = {s for _, r in regions for s in r.souvenirs}
    if collect is not None and regions:
        for i, k in enumerate(collect.kinds):
            if k.id not in offered:
                rd.problem(f"collect.kinds[{i}]", f"no region sells {k.name} ({k.id!r})")
    shown = Counter(s for _, c in cities for s in c.sights)
    for ti, track in enumerate(explore):
        for i, k in enumerate(track.kinds):
            if cities and shown[k.id] == 0:
                rd.problem(f"explore[{ti}].kinds[{i}]", f"no city shows {k.name} ({k.id!r})")
            elif track.cities_per_kind is not None and shown[k.id] != track.cities_per_kind:
                rd.problem(
                    f"explore[{ti}].kinds[{i}]",
                    f"{k.name} is shown in {plural(shown[k.id], 'city', 'cities')}, "
                    f"cities_per_kind expects {track.cities_per_kind}",
                )


def _routes(rd: Reader, doc: dict[str, Any], known: list[str]) -> tuple[model.Route, ...] | None:
    items = rd.listing(doc, "routes", "", 'a list of city id pairs like [["cairo", "lagos"], ...]')
    if items is None:
        return None
    routes: list[model.Route] = []
    first: dict[model.Route, int] = {}
    ok = True
    for i, item in enumerate(items):
        path = f"routes[{i}]"
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
            rd.problem(path, f'expected a pair of city ids like ["cairo", "lagos"], got {_show(item)}')
            ok = False
            continue
        a, b = item
        bad = False
        for j, cid in enumerate(item):
            if cid not in known:
                rd.problem(f"{path}[{j}]", f"{cid!r} is not a city of this map")
                bad = True
        if not bad and a == b:
            rd.problem(path, f"a route joins two different cities, got {a!r} twice")
            bad = True
        if bad:
            ok = False
            continue
        route = model.Route(min(a, b), max(a, b))
        if route in first:
            rd.problem(path, f"duplicate of routes[{first[route]}] ({route.a} - {route.b})")
            ok = False
            continue
        first[route] = i
        routes.append(route)
    return tuple(routes) if ok else None


def _show(item: object) -> str:
    return repr(item) if isinstance(item, list) else describe(item)


def _check_graph(rd: Reader, routes: tuple[model.Route, ...], cities: list[model.City]) -> None:
    if not cities:
        return
    adjacent: dict[str, list[str]] = {c.id: [] for c in cities}
    for r in routes:
        adjacent[r.a].append(r.b)
        adjacent[r.b].append(r.a)
    names = {c.id: c.name for c in cities}
    for c in cities:
        n = len(adjacent[c.id])
        if n == 0:
            rd.problem("routes", f"{c.name} has no routes; every city needs at least {MIN_ROUTES}")
        elif n < MIN_ROUTES:
            to = ", ".join(names[x] for x in adjacent[c.id])
            rd.problem("routes", f"{c.name} has only {plural(n, 'route')} (to {to}); every city needs at least {MIN_ROUTES}")
    start = cities[0].id
    seen = {start}
    todo = [start]
    while todo:
        for nxt in adjacent[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    cut = [c.name for c in cities if c.id not in seen]
    if cut:
        rd.problem("routes", f"the map is not connected: {', '.join(cut)} cannot be reached from {names[start]}")


def _check_shape(
    rd: Reader,
    shape: dict[str, Any],
    regions: list[tuple[str, model.Region]],
    cities: list[tuple[str, model.City]],
    routes: tuple[model.Route, ...] | None,
) -> None:
    rd.keys(shape, "shape", SHAPE_KEYS)
    want = {key: rd.integer(shape, key, "shape", required=False, minimum=0) for key in SHAPE_KEYS}
    ordinary = [(p, c) for p, c in cities if not c.iconic]
    iconic = [(p, c) for p, c in cities if c.iconic]
    if want["regions"] is not None and len(regions) != want["regions"]:
        rd.problem("regions", f"the map has {plural(len(regions), 'region')}, shape.regions expects {want['regions']}")
    if want["cities"] is not None and len(ordinary) != want["cities"]:
        rd.problem(
            "cities", f"the map has {len(ordinary)} ordinary cities, shape.cities expects {want['cities']}"
        )
    if want["iconic_cities"] is not None and len(iconic) != want["iconic_cities"]:
        rd.problem(
            "cities", f"the map has {len(iconic)} iconic cities, shape.iconic_cities expects {want['iconic_cities']}"
        )
    for path, r in regions:
        n = sum(1 for _, c in cities if c.region == r.id)
        if want["cities_per_region"] is not None and n != want["cities_per_region"]:
            rd.problem(path, f"{r.name} has {n} cities, shape.cities_per_region expects {want['cities_per_region']}")
        k = want["souvenirs_per_region"]
        if k is not None and len(r.souvenirs) != k:
            rd.problem(f"{path}.souvenirs", f"{r.name} sells {len(r.souvenirs)} souvenirs, shape expects {k}")
    k = want["sights_per_city"]
    for path, c in ordinary:
        if k is not None and len(c.sights) != k:
            rd.problem(f"{path}.sights", f"{c.name} shows {len(c.sights)} kinds, shape.sights_per_city expects {k}")
    k = want["iconic_routes"]
    if k is not None and routes is not None:
        for path, c in iconic:
            n = sum(1 for r in routes if c.id in (r.a, r.b))
            if n != k:
                rd.problem("routes", f"iconic city {c.name} has {plural(n, 'route')}, shape.iconic_routes expects {k}")
