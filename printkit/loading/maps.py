"""Load a map file into a validated :class:`printkit.model.maps.GameMap`.

A map file is TOML read on top of ``maps/around-the-world.toml`` (the facts
the four maps share). Every problem in a file is reported at once, each line
``<file>: <field.path>: <message>``; syntax errors carry the parser's line and
column. See docs/maps.md for the format.
"""

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from printkit.errors import DataError, UnknownMapError
from printkit.loading.checks import check_map, raw_count
from printkit.loading.dice import dice_from_table
from printkit.loading.dice import load_dice as load_dice  # the quick reader, for `roll` and `turns`
from printkit.loading.fields import Problems, Reader
from printkit.loading.projection import read_projection
from printkit.loading.text import decode, parse, read_source_remembered
from printkit.model import maps as model
from printkit.model.words import match_id
from printkit.resources import data_folder

GAME = "around-the-world"
SHARED_FILE = "around-the-world.toml"

MAP_KEYS = (
    "id", "name", "game", "routes", "projection", "collect", "explore", "regions", "cities",
    "region_scoring", "iconic_table", "end", "speed_bonus", "solo", "shape",
)  # fmt: skip
SHARED_KEYS = (
    "maps", "series", "title", "speed_bonus", "multiplayer", "explore_keys", "dice", "collect", "sights", "solo",
)  # fmt: skip
TRACK_KEYS = (
    "id", "name", "kinds", "boxes", "row_points", "column_points", "majority", "first_bonus", "cities_per_kind",
)  # fmt: skip
KIND_KEYS = ("id", "name", "icon")
REGION_KEYS = ("id", "name", "souvenirs", "reward")
CITY_KEYS = ("id", "name", "lat", "lon", "region", "sights", "iconic")
SCORING_KEYS = ("mode", "table", "points", "tied")
SCORING_MODES = ("table", "per_region", "majority")
SOLO_KEYS = ("turns", "ratings")

ReaderFor = Callable[[str], Reader]


class SharedFacts(NamedTuple):
    """What the four maps share beside their tracks: titles, player counts, dice, record keys."""

    title: str
    series: str
    min_multiplayer: int
    max_multiplayer: int
    dice: model.Dice
    explore_keys: tuple[str, str]  # (a map using the shared sights track, a map with its own tracks)


CACHE_LIMIT = 64  # files remembered per process; a long-running caller reading many maps starts over
_parsed: dict[str, tuple[bytes, dict[str, Any]]] = {}
_built: dict[str, tuple[bytes, bytes, model.GameMap]] = {}


def _remember(cache: dict[str, Any], key: str, value: Any) -> None:
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def _shared_raw(folder: str = "") -> tuple[bytes, str]:
    return read_source_remembered(os.path.join(folder or data_folder("maps"), SHARED_FILE))


def _parsed_shared(raw: bytes, source: str) -> dict[str, Any]:
    """The shared file's table, parsed once per content (the file is read every time, parsed when it changed)."""
    hit = _parsed.get(source)
    if hit is not None and hit[0] == raw:
        return hit[1]
    from printkit.cache import remembered  # kept on disk by name and bytes, like a built map

    doc: dict[str, Any] = remembered(f"{GAME}-shared", (source, raw), dict, lambda: parse(*decode(raw, source), "toml"))
    _remember(_parsed, source, (raw, doc))
    return doc


def bundled_maps(shared: tuple[bytes, str] | None = None) -> tuple[str, ...]:
    """Ids of the bundled Around the World maps, in listing order (from the shared file's bytes and name, if read)."""
    raw, source = shared or _shared_raw()
    maps = _parsed_shared(raw, source).get("maps")
    if not isinstance(maps, list) or not all(isinstance(m, str) for m in maps):
        raise DataError([f"{source}: maps: expected a list of map ids"])
    return tuple(maps)


def is_map_path(name_or_path: str) -> bool:
    """Whether ``name_or_path`` is read as a file path (ends in .toml or has a slash), not a map id."""
    return name_or_path.endswith(".toml") or "/" in name_or_path or os.sep in name_or_path


def map_path(name_or_path: str) -> Path:
    """The file behind a bundled map id, or ``name_or_path`` itself if it names a file (UnknownMapError if neither)."""
    return Path(_located(name_or_path)[0])


def _located(name_or_path: str) -> tuple[str | Path, tuple[bytes, str] | None]:
    """The map file, and for a bundled id the shared file's bytes and name (the bundled folder found once)."""
    if is_map_path(name_or_path):
        return Path(name_or_path), None
    folder = data_folder("maps")
    shared = _shared_raw(folder)
    known = bundled_maps(shared)
    map_id = match_id(name_or_path, known)
    if map_id is None:
        raise UnknownMapError(name_or_path, known)
    return os.path.join(folder, f"{map_id}.toml"), shared


def load_map(name_or_path: str) -> model.GameMap:
    """Load and validate a bundled map id or a path to a map .toml file."""
    return load_map_file(*_located(name_or_path))


def load_map_file(path: str | os.PathLike[str], shared: tuple[bytes, str] | None = None) -> model.GameMap:
    """Load and validate the map file at ``path`` (never a bundled id) over the shared file (``shared``, if read).

    Both files are read every time; a map whose two files hold the same bytes
    as last time (under the same names) is the GameMap built then (in this
    process, else kept on disk by :mod:`printkit.cache`), so a caller scoring
    many games validates each map once, and an edited file is read anew.
    """
    raw, source = read_source_remembered(path)
    shared_raw, shared_source = shared or _shared_raw()
    hit = _built.get(source)
    if hit is not None and hit[0] == raw and hit[1] == shared_raw and hit[2].source == source:
        return hit[2]
    from printkit.cache import remembered  # a valid map is built once per content, then kept on disk

    built = remembered(f"{GAME}-loaded", (source, raw, shared_source, shared_raw), model.GameMap, lambda: build_map(
        parse(*decode(raw, source), "toml"), source, _parsed_shared(shared_raw, shared_source), shared_source))
    _remember(_built, source, (raw, shared_raw, built))
    return built


def map_content(m: model.GameMap) -> tuple[str, bytes, bytes] | None:
    """The name and bytes of the map file and shared file ``m`` was built from (None if not loaded here)."""
    hit = _built.get(m.source)
    return (m.source, hit[0], hit[1]) if hit is not None and hit[2] is m else None


def _check_kind(rd: Reader, doc: dict[str, Any]) -> None:
    """DataError at once if ``doc`` is another game's file or the shared facts, not a map."""
    game = doc.get("game", GAME)
    if game != GAME:
        rd.problem("game", f"{game!r} files are not Around the World maps (expected {GAME!r} or no game key)")
        raise DataError(rd.problems.lines)
    if not any(key in doc for key in ("cities", "regions", "routes")):
        shared_note = "; it holds the facts the maps share" if "maps" in doc else ""
        rd.problem("", f"not an Around the World map file (no [[cities]], [[regions]] or routes{shared_note})")
        raise DataError(rd.problems.lines)


def read_shared(sh: Reader, shared: dict[str, Any]) -> SharedFacts | None:
    """Titles, multiplayer player counts, dice and Explore record keys from the shared file."""
    before = len(sh.problems)
    title = sh.string(shared, "title", "")
    if title is not None and "{name}" not in title:
        sh.problem("title", "expected a title containing {name}, the map's name")
    series = sh.string(shared, "series", "")
    players = sh.table(shared, "multiplayer", "") or {}
    sh.keys(players, "multiplayer", ("min_players", "max_players"))
    low = sh.integer(players, "min_players", "multiplayer", minimum=1)
    high = sh.integer(players, "max_players", "multiplayer", minimum=1)
    keys = sh.table(shared, "explore_keys", "") or {}
    sh.keys(keys, "explore_keys", ("shared", "own"))
    own_key, shared_key = sh.ident(keys, "own", "explore_keys"), sh.ident(keys, "shared", "explore_keys")
    try:
        dice: model.Dice | None = dice_from_table(shared.get("dice"), sh.source)
    except DataError as exc:
        sh.problems.lines.extend(exc.problems)
        dice = None
    if len(sh.problems) > before:
        return None
    assert title is not None and series is not None and low is not None and high is not None
    assert own_key is not None and shared_key is not None and dice is not None
    return SharedFacts(title, series, low, high, dice, (shared_key, own_key))


def _collect(rd: Reader, sh: Reader, doc: dict[str, Any], shared: dict[str, Any]) -> model.Track | None:
    """The Collect track: the shared [collect] completed by the map's own."""
    collect_doc = rd.table(doc, "collect", "") or {}
    shared_collect = sh.table(shared, "collect", "", required=False) or {}
    rd.keys(collect_doc, "collect", TRACK_KEYS)
    sh.keys(shared_collect, "collect", TRACK_KEYS)
    merged = {**shared_collect, **collect_doc}
    return _track(merged, "collect", lambda key: rd if key in collect_doc or key not in merged else sh)


def _explore(rd: Reader, sh: Reader, doc: dict[str, Any], shared: dict[str, Any]) -> tuple[list[model.Track], bool]:
    """The map's [[explore]] tracks, or the shared [sights] track; and whether all were read."""
    explore: list[model.Track] = []
    if "explore" in doc:
        for path, t in rd.tables(doc, "explore", ""):
            rd.keys(t, path, TRACK_KEYS)
            track = _track(t, path, lambda key: rd)
            if track is not None:
                explore.append(track)
        return explore, len(explore) == raw_count(doc, "explore")
    sights = sh.table(shared, "sights", "", required=False)
    if sights is None:
        rd.problem("explore", "missing (expected [[explore]] tracks; the shared sights track is absent)")
    else:
        sh.keys(sights, "sights", TRACK_KEYS)
        track = _track(sights, "sights", lambda key: sh)
        if track is not None:
            explore.append(track)
    return explore, len(explore) == 1


def build_map(doc: dict[str, Any], source: str, shared: dict[str, Any], shared_source: str) -> model.GameMap:
    """Validate a parsed map document (over the shared facts) into a GameMap."""
    problems = Problems()
    rd = Reader(problems, source)
    sh = Reader(problems, shared_source)
    _check_kind(rd, doc)
    rd.keys(doc, "", MAP_KEYS)
    sh.keys(shared, "", SHARED_KEYS)

    map_id = rd.ident(doc, "id", "")
    name = rd.string(doc, "name", "")
    projection = read_projection(rd, doc)
    collect = _collect(rd, sh, doc, shared)
    explore, explore_ok = _explore(rd, sh, doc, shared)
    regions = [(p, r) for p, t in rd.tables(doc, "regions", "") if (r := _region(rd, t, p)) is not None]
    cities = [(p, c) for p, t in rd.tables(doc, "cities", "") if (c := _city(rd, t, p)) is not None]
    scoring = _scoring(rd, doc)
    iconic_table = rd.ints(doc, "iconic_table", "", required=False, minimum=0) or ()
    end_doc = rd.table(doc, "end", "") or {}
    rd.keys(end_doc, "end", ("cities_per_region",))
    end = rd.integer(end_doc, "cities_per_region", "end", required="end" in doc, minimum=1)
    speed_bonus = (rd if "speed_bonus" in doc else sh).integer(
        doc if "speed_bonus" in doc else shared, "speed_bonus", "", minimum=0
    )
    solo = _solo(rd, doc) if "solo" in doc else _solo(sh, shared)
    facts = read_shared(sh, shared)

    routes = check_map(rd, doc, collect, explore, regions, cities, scoring, iconic_table, projection, explore_ok)
    if problems.lines:
        raise DataError(problems.lines)
    assert map_id is not None and name is not None and collect is not None and scoring is not None
    assert end is not None and speed_bonus is not None and solo is not None and routes is not None
    assert facts is not None
    return model.GameMap(
        id=map_id, name=name, collect=collect, explore=tuple(explore),
        regions=tuple(r for _, r in regions), cities=tuple(c for _, c in cities), routes=routes,
        region_scoring=scoring, end_cities_per_region=end, speed_bonus=speed_bonus, solo=solo,
        projection=projection or model.Projection(name="natural-earth"),
        title=facts.title.replace("{name}", name), series=facts.series,
        min_multiplayer=facts.min_multiplayer, max_multiplayer=facts.max_multiplayer, dice=facts.dice,
        explore_key=facts.explore_keys[1 if "explore" in doc else 0],
        iconic_table=iconic_table, source=source,
    )  # fmt: skip


def _track(t: dict[str, Any], path: str, rd: ReaderFor) -> model.Track | None:
    problems = rd("id").problems
    before = len(problems)
    track_id = rd("id").ident(t, "id", path)
    name = rd("name").string(t, "name", path)
    boxes = rd("boxes").integer(t, "boxes", path, minimum=1)
    row_points = rd("row_points").ints(t, "row_points", path, minimum=0)
    if boxes is not None and row_points is not None and len(row_points) != boxes + 1:
        if rd("boxes") is rd("") is not rd("row_points"):  # the map changed boxes; the shared file gives points
            rd("boxes").problem(f"{path}.boxes", f"{boxes} boxes, but the row_points of {rd('row_points').source} "
                                f"score 0..{len(row_points) - 1} marks; give row_points with {boxes + 1} numbers too")
        else:
            rd("row_points").problem(
                f"{path}.row_points",
                f"expected {boxes + 1} numbers (points for 0..{boxes} marks), got {len(row_points)}",
            )
    column_points = rd("column_points").integer(t, "column_points", path, required=False, minimum=0)
    first_bonus = rd("first_bonus").integer(t, "first_bonus", path, required=False, minimum=0)
    per_kind = rd("cities_per_kind").integer(t, "cities_per_kind", path, required=False, minimum=1)
    majority: model.Majority | None = None
    mt = rd("majority").table(t, "majority", path, required=False)
    if mt is not None:
        rd("majority").keys(mt, f"{path}.majority", ("most", "tied"))
        most = rd("majority").integer(mt, "most", f"{path}.majority", minimum=0)
        tied = rd("majority").integer(mt, "tied", f"{path}.majority", minimum=0)
        if most is not None and tied is not None:
            majority = model.Majority(most=most, tied=tied)
    kinds: list[model.Kind] = []
    for kpath, kt in rd("kinds").tables(t, "kinds", path):
        r = rd("kinds")
        r.keys(kt, kpath, KIND_KEYS)
        kid = r.ident(kt, "id", kpath)
        kname = r.string(kt, "name", kpath)
        icon = r.ident(kt, "icon", kpath, required=False)
        if kid is not None and kid in [k.id for k in kinds]:
            r.problem(f"{kpath}.id", f"duplicate id {kid!r}")
        elif kid is not None and kname is not None:
            kinds.append(model.Kind(id=kid, name=kname, icon=icon or kid))
    if len(problems) > before:
        return None
    assert track_id is not None and name is not None and boxes is not None and row_points is not None
    return model.Track(
        id=track_id,
        name=name,
        kinds=tuple(kinds),
        boxes=boxes,
        row_points=row_points,
        column_points=column_points or 0,
        majority=majority,
        first_bonus=first_bonus or 0,
        cities_per_kind=per_kind,
    )


def _region(rd: Reader, t: dict[str, Any], path: str) -> model.Region | None:
    rd.keys(t, path, REGION_KEYS)
    before = len(rd.problems)
    rid = rd.ident(t, "id", path)
    name = rd.string(t, "name", path)
    souvenirs = rd.idents(t, "souvenirs", path)
    reward = rd.integer(t, "reward", path, required=False, minimum=0)
    if len(rd.problems) > before:
        return None
    assert rid is not None and name is not None and souvenirs is not None
    return model.Region(id=rid, name=name, souvenirs=souvenirs, reward=reward)


def _city(rd: Reader, t: dict[str, Any], path: str) -> model.City | None:
    rd.keys(t, path, CITY_KEYS)
    before = len(rd.problems)
    cid = rd.ident(t, "id", path)
    name = rd.string(t, "name", path)
    lat = rd.number(t, "lat", path)
    lon = rd.number(t, "lon", path)
    if lat is not None and not -90 <= lat <= 90:
        rd.problem(f"{path}.lat", f"latitude must be between -90 and 90, got {lat:g}")
    if lon is not None and not -180 <= lon <= 180:
        rd.problem(f"{path}.lon", f"longitude must be between -180 and 180, got {lon:g}")
    iconic = bool(rd.boolean(t, "iconic", path))
    region = rd.ident(t, "region", path, required=not iconic)
    sights = rd.idents(t, "sights", path, required=not iconic)
    if iconic and region is not None:
        rd.problem(f"{path}.region", "an iconic city belongs to no region (remove region or iconic)")
    if iconic and sights:
        rd.problem(f"{path}.sights", "an iconic city shows no sights (remove sights or iconic)")
    if len(rd.problems) > before:
        return None
    assert cid is not None and name is not None and lat is not None and lon is not None
    return model.City(id=cid, name=name, lat=lat, lon=lon, region=region, sights=sights or (), iconic=iconic)


def _scoring(rd: Reader, doc: dict[str, Any]) -> model.RegionScoring | None:
    t = rd.table(doc, "region_scoring", "")
    if t is None:
        return None
    path = "region_scoring"
    rd.keys(t, path, SCORING_KEYS)
    before = len(rd.problems)
    mode = rd.string(t, "mode", path)
    if mode is not None and mode not in SCORING_MODES:
        rd.problem(f"{path}.mode", f"{mode!r} is not a scoring mode (expected one of: {', '.join(SCORING_MODES)})")
    table = rd.ints(t, "table", path, required=mode == "table", minimum=0)
    points = rd.integer(t, "points", path, required=mode == "per_region", minimum=0)
    tied = rd.integer(t, "tied", path, required=mode == "majority", minimum=0)
    if len(rd.problems) > before:
        return None
    return model.RegionScoring(
        mode=mode,  # type: ignore[arg-type]  # checked against SCORING_MODES above
        table=table or (),
        points=points or 0,
        tied=tied or 0,
    )


def _solo(rd: Reader, doc: dict[str, Any]) -> model.SoloRules | None:
    t = rd.table(doc, "solo", "")
    if t is None:
        return None
    rd.keys(t, "solo", SOLO_KEYS)
    before = len(rd.problems)
    turns = rd.integer(t, "turns", "solo", minimum=1)
    ratings: list[model.Rating] = []
    for path, rt in rd.tables(t, "ratings", "solo"):
        rd.keys(rt, path, ("min_points", "title"))
        low = rd.integer(rt, "min_points", path)
        title = rd.string(rt, "title", path)
        if low is not None and ratings and low >= ratings[-1].min_points:
            rd.problem(f"{path}.min_points", "ratings must be listed best first (min_points decreasing)")
        if low is not None and title is not None:
            ratings.append(model.Rating(min_points=low, title=title))
    if not ratings and len(rd.problems) == before:
        rd.problem("solo.ratings", "expected at least one rating")
    if len(rd.problems) > before:
        return None
    assert turns is not None
    return model.SoloRules(turns=turns, ratings=tuple(ratings))
