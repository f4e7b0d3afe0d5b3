"""Around the World in 15 Minutes scoring: pure functions over a map and marks.

Every mark section is a :class:`~printkit.model.maps.Track`, so one function scores
Collect and every Explore track of every map. Regions, iconic cities and the
speed bonus read the map's data; nothing here names a particular map.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from printkit.model.words import join_names, plural
from printkit.rules.report import GameScore, PlayerScore, Section, winners_by

if TYPE_CHECKING:  # annotations only: `printkit turns` imports the speed bonus without the map model
    from printkit.model.maps import GameMap, Mode, Track
    from printkit.model.records import AtwRecord, PlayerMarks

GAME = "around-the-world"
SECTION_KEYS = ("collect", "explore", "regions", "iconic", "speed")

DistanceFn = Callable[[str, str], "int | None"]


def solo_speed_bonus(turns: int, turn: int) -> int:
    """Solo/party speed bonus for a trip finished on ``turn`` of ``turns``: the turns left (never below 0)."""
    return max(turns - turn, 0)


def full_columns(track: Track, counts: Mapping[str, int]) -> int:
    """Completed columns: column k is full when every kind has at least k marks."""
    if not track.kinds:
        return 0
    return min(counts.get(k.id, 0) for k in track.kinds)


def majority_bonus(track: Track, kind_id: str, mine: int, others: Sequence[int]) -> tuple[int, str]:
    """Majority bonus for one kind: ``most`` if strictly most, ``tied`` if tied for most."""
    if track.majority is None or mine < 1:
        return 0, ""
    best_other = max(others, default=0)
    if mine > best_other:
        return track.majority.most, "most"
    if mine == best_other:
        return track.majority.tied, "tied for most"
    return 0, ""


def score_track(
    track: Track, player: PlayerMarks, field_: Sequence[PlayerMarks], mode: Mode
) -> tuple[int, str]:
    """Points and reason for one track: rows, full columns, majority and first bonuses."""
    row_marks = player.track_marks(track)
    counts = {k.id: row_marks.get(k.id, 0) for k in track.kinds}
    total = 0
    parts: list[str] = []
    row_points = track.row_points
    for i, kind in enumerate(track.kinds):
        n = counts[kind.id]
        pts = row_points[n]
        total += pts
        parts.append(f"{kind.name} {plural(n, 'mark') if i == 0 else n} = {pts}")
    if track.column_points:
        cols = full_columns(track, counts)
        total += cols * track.column_points
        parts.append(f"{plural(cols, 'full column')} = {cols * track.column_points}")
    if track.majority is not None and mode == "multiplayer":
        for kind in track.kinds:
            others = [p.marks_in(track, kind.id) for p in field_ if p is not player]
            pts, how = majority_bonus(track, kind.id, counts[kind.id], others)
            if pts:
                total += pts
                parts.append(f"{kind.name} {how} +{pts}")
    if track.first_bonus:
        for kind in track.kinds:
            if counts[kind.id] < 1:
                continue
            if mode != "multiplayer":
                total += track.first_bonus
                parts.append(f"{kind.name} bonus +{track.first_bonus}")
            elif kind.id in player.first:
                total += track.first_bonus
                parts.append(f"{kind.name} first +{track.first_bonus}")
    return total, ", ".join(parts)


def collect_section(m: GameMap, player: PlayerMarks) -> Section:
    """Collect: the suitcase's completed rows and columns."""
    pts, reason = score_track(m.collect, player, (player,), "solo")
    return Section("collect", "Collect", pts, reason)


def explore_section(m: GameMap, player: PlayerMarks, field_: Sequence[PlayerMarks], mode: Mode) -> Section:
    """Explore: every explore track (sights, or the three animal tracks)."""
    total = 0
    reasons: list[str] = []
    for track in m.explore:
        pts, reason = score_track(track, player, field_, mode)
        total += pts
        reasons.append(f"{track.name}: {reason}" if len(m.explore) > 1 else reason)
    return Section("explore", "Explore", total, "; ".join(reasons))


def completed_regions(m: GameMap, player: PlayerMarks) -> list[str]:
    """Ids of regions whose cities were all visited."""
    sizes, visited = m.region_sizes, player.visited
    return [i for i in m.region_ids if visited.get(i, 0) >= sizes[i] > 0]


def _region_names(m: GameMap, ids: Sequence[str]) -> str:
    return ", ".join(m.region(i).name for i in ids)


def regions_section(m: GameMap, player: PlayerMarks, field_: Sequence[PlayerMarks], mode: Mode) -> Section:
    """Regions: the completed-regions table, points per region, or majority rewards."""
    rs = m.region_scoring
    done = completed_regions(m, player)
    listed = f" ({_region_names(m, done)})" if done else ""
    if rs.mode == "table":
        pts = rs.table[min(len(done), len(rs.table) - 1)] if rs.table else 0
        return Section("regions", "Regions", pts, f"{plural(len(done), 'region')} complete{listed} = {pts}")
    if rs.mode == "per_region":
        pts = rs.points * len(done)
        reason = f"{plural(len(done), 'region')} complete{listed} x {rs.points} = {pts}"
        return Section("regions", "Regions", pts, reason)
    if mode != "multiplayer":
        pts = sum(m.region(r).reward or 0 for r in done)
        parts = [f"{m.region(r).name} all cities = {m.region(r).reward or 0}" for r in done]
        return Section("regions", "Regions", pts, ", ".join(parts) or "no region complete = 0")
    total = 0
    parts = []
    for region in m.regions:
        mine = player.visited.get(region.id, 0)
        best_other = max((p.visited.get(region.id, 0) for p in field_ if p is not player), default=0)
        cities = plural(mine, "city", "cities")
        if mine == 0:
            pts, how = 0, "none visited"
        elif mine > best_other:
            pts, how = region.reward or 0, f"{cities}, most"
        elif mine == best_other:
            pts, how = rs.tied, f"{cities}, tied for most"
        else:
            pts, how = 0, f"{cities}, behind {best_other}"
        total += pts
        parts.append(f"{region.name} {how} = {pts}")
    return Section("regions", "Regions", total, ", ".join(parts))


def iconic_section(m: GameMap, player: PlayerMarks) -> Section | None:
    """Iconic cities by count visited (maps with an iconic table only)."""
    if not m.iconic_table:
        return None
    n = min(player.iconic, len(m.iconic_table) - 1)
    pts = m.iconic_table[n]
    label = plural(n, "iconic city", "iconic cities")
    return Section("iconic", "Iconic cities", pts, f"{label} = {pts}")


def end_condition_met(m: GameMap, player: PlayerMarks) -> bool:
    """Whether every region has the map's minimum of visited cities."""
    return m.every_region_visited(player.visited)


def trip_finished(m: GameMap, player: PlayerMarks) -> bool:
    """Visited every region (as the map requires) and returned to the start."""
    return player.returned and end_condition_met(m, player)


def speed_section(m: GameMap, player: PlayerMarks, mode: Mode) -> Section:
    """Speed bonus: flat bonus in multiplayer, remaining turns in solo/party."""
    need = f"{m.end_cities_per_region}+ " + ("city" if m.end_cities_per_region == 1 else "cities")
    if mode == "multiplayer":
        if trip_finished(m, player):
            reason = f"every region visited ({need} each) and returned = {m.speed_bonus}"
            return Section("speed", "Speed bonus", m.speed_bonus, reason)
        why = "did not return to the start" if end_condition_met(m, player) else f"not every region visited ({need} each)"
        return Section("speed", "Speed bonus", 0, f"{why} = 0")
    turn = player.finished_turn
    if turn is None or not trip_finished(m, player):
        return Section("speed", "Speed bonus", 0, "trip not finished = 0")
    pts = solo_speed_bonus(m.solo.turns, turn)
    return Section("speed", "Speed bonus", pts, f"finished on turn {turn}: {m.solo.turns} - {turn} = {pts}")


def score_player(m: GameMap, player: PlayerMarks, field_: Sequence[PlayerMarks], mode: Mode) -> PlayerScore:
    """All sections of one player, with the rating in solo/party mode."""
    sections = [
        collect_section(m, player),
        explore_section(m, player, field_, mode),
        regions_section(m, player, field_, mode),
    ]
    iconic = iconic_section(m, player)
    if iconic is not None:
        sections.append(iconic)
    sections.append(speed_section(m, player, mode))
    score = PlayerScore(player.name, tuple(sections))
    if mode == "multiplayer":
        return score
    return PlayerScore(player.name, score.sections, m.solo.rating(score.total))


def distance_home(m: GameMap, player: PlayerMarks, distance: DistanceFn) -> int | None:
    """Routes from the final city back to the start (0 if returned; None if unknown or unreachable)."""
    if player.returned:
        return 0
    if player.start_city is None or player.final_city is None:
        return None
    return distance(player.final_city, player.start_city)


def pick_winners(
    m: GameMap, scores: Sequence[PlayerScore], players: Sequence[PlayerMarks], distance: DistanceFn
) -> tuple[tuple[str, ...], str]:
    """Highest total wins; ties go to the fewest routes home, then a shared win."""
    if not scores:
        return (), ""
    best = max(s.total for s in scores)
    tied = [(s, p) for s, p in zip(scores, players) if s.total == best]
    if len(tied) == 1:
        return (tied[0][0].name,), ""
    names = join_names([s.name for s, _ in tied])
    head = f"{names} tied on {best} points"
    missing = [p.name for _, p in tied if not p.returned and (p.start_city is None or p.final_city is None)]
    if missing:
        why = f"no final_city/start_city for {join_names(missing)}"
        return tuple(s.name for s, _ in tied), f"{head}; {why}, so distance cannot break the tie: shared win"
    dists = {p.name: distance_home(m, p, distance) for _, p in tied}
    far = 10**9  # not connected: farther than any real distance

    def show(name: str) -> str:
        d = dists[name]
        return f"{name} {plural(d, 'route') if d is not None else 'not connected'}"

    key = {n: far if d is None else d for n, d in dists.items()}
    return winners_by(
        scores, key, "low", "routes from final city back to start", show, "{name} is closest and wins", "shared win"
    )


def score_game(
    m: GameMap, mode: Mode, players: Sequence[PlayerMarks], distance: DistanceFn | None = None
) -> GameScore:
    """Score every player; pick winners (none in solo mode, the rating is the result)."""
    def on_graph(a: str, b: str) -> int | None:
        from printkit.model import graph

        return graph.distance(m, a, b)

    scores = tuple(score_player(m, p, players, mode) for p in players)
    warnings = first_warnings(m, mode, players)
    if mode == "solo":
        return GameScore(GAME, m.id, mode, scores, (), warnings=warnings)
    winners, tiebreak = pick_winners(m, scores, players, distance or on_graph)
    return GameScore(GAME, m.id, mode, scores, winners, tiebreak, warnings)


def first_warnings(m: GameMap, mode: Mode, players: Sequence[PlayerMarks]) -> tuple[str, ...]:
    """What looks wrong with the first-to-mark bonuses (docs/scoring.md, decisions): warnings, not errors."""
    if mode != "multiplayer":
        return tuple(f"{p.name}: first_rare is only used in multiplayer; in {mode} mode every marked "
                     f"{'/'.join(sorted(p.first))} scores its bonus anyway" for p in players if p.first)  # fmt: skip
    out = []
    for track in m.tracks:
        for kind in track.kinds if track.first_bonus else ():
            marked = [p.name for p in players if p.marks_in(track, kind.id) >= 1]
            if len(marked) >= 2 and not any(kind.id in p.first for p in players):
                out.append(f"{kind.name} is marked by {join_names(marked)}, but nobody has it in first_rare "
                           f"(the first to mark it scores +{track.first_bonus}: add it to that player's first_rare)")
    return tuple(out)


def score_record(record: AtwRecord) -> GameScore:
    """Score a checked Around the World record."""
    return score_game(record.map, record.mode, record.players)
