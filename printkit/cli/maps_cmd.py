"""``printkit maps``: list, show and validate Around the World map files."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from printkit.cli.common import PATH_SHOWN, FactsCommand, bundled_map_ids, map_param
from printkit.model.names import shorten
from printkit.model.words import plural

if TYPE_CHECKING:
    from printkit.model.maps import GameMap, Track


@click.group(invoke_without_command=True)
@click.pass_context
def maps(ctx: click.Context) -> None:
    """List the bundled maps; show or validate a map file.

    Without a subcommand, lists the bundled Around the World maps with their
    regions and cities.

    \b
    Example:
      printkit maps
      printkit maps show europe
      printkit maps show world --json
      printkit maps validate my-island.toml
    """
    if ctx.invoked_subcommand is not None:
        return
    from printkit.loading.maps import bundled_maps, load_map

    rows = [load_map(name) for name in bundled_maps()]
    click.echo(f"{'MAP':<15} {'NAME':<22} {'REGIONS':>7} {'CITIES':>6}")
    for m in rows:
        iconic = len(m.iconic_cities)
        extra = f"  (incl. {iconic} iconic)" if iconic else ""
        click.echo(f"{m.id:<15} {shorten(m.name):<22} {len(m.regions):>7} {len(m.cities):>6}{extra}")


@maps.command(cls=FactsCommand, facts=lambda: {"maps": bundled_map_ids()})
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the whole map as JSON (stable keys).")
def show(name: str, as_json: bool) -> None:
    """Show a map: regions, cities, souvenirs, sights, routes, scoring.

    NAME is a bundled map ({maps}) or the path of a map .toml file.

    \b
    Example:
      printkit maps show us
      printkit maps show south-america --json
      printkit maps show ./my-island.toml
    """
    from printkit.loading.maps import load_map

    with map_param("'NAME'"):
        m = load_map(name)
    if as_json:
        import json

        click.echo(json.dumps(m.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(summary(m)))


@maps.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
def validate(files: tuple[str, ...]) -> None:
    """Check map files; print OK per valid file, or every problem found.

    Exits 0 when every file is valid, 1 otherwise. Each problem names the
    file, the field and what was expected. A valid file's map sheet is also
    laid out on A4 and Letter and checked for crowded cities.

    \b
    Example:
      printkit maps validate maps/world.toml my-island.toml
    """
    from printkit.errors import DataError
    from printkit.loading.maps import load_map_file

    failed = False
    for path in files:
        try:
            m = load_map_file(path)
        except DataError as exc:
            failed = True
            for line in exc.problems:
                click.echo(f"Error: {line}", err=True)
            continue
        problems = _layout_problems(m)
        if problems:
            failed = True
            for line in problems:
                click.echo(f"Error: {line}", err=True)
            continue
        click.echo(f"OK {shorten(str(m.source), PATH_SHOWN)}: {shorten(m.name)} ({len(m.regions)} regions, {len(m.cities)} cities, {len(m.routes)} routes)")
    if failed:
        raise SystemExit(1)


def _layout_problems(m: GameMap) -> list[str]:
    """The map sheet's layout check on both papers (a sheet the font cannot print is left to render)."""
    from printkit.layout.common import LayoutError
    from printkit.sheets.mapsheet import layout_problems

    problems: list[str] = []
    for paper in ("a4", "letter"):
        try:
            problems += layout_problems(m, paper)
        except LayoutError:
            return []
    return list(dict.fromkeys(problems))  # a problem on both papers is told once


def _points(table: tuple[int, ...]) -> str:
    return " ".join(f"{n}:{p}" for n, p in enumerate(table) if n > 0)


def _track_line(t: Track) -> str:
    parts = [f"{plural(t.boxes, 'box', 'boxes')} per row", f"marks score {_points(t.row_points)}"]
    if t.column_points:
        parts.append(f"full column {t.column_points}")
    if t.majority:
        parts.append(f"most marks +{t.majority.most} (tied +{t.majority.tied})")
    if t.first_bonus:
        parts.append(f"first to mark +{t.first_bonus}")
    if t.cities_per_kind:
        parts.append(f"each in {t.cities_per_kind} {'city' if t.cities_per_kind == 1 else 'cities'}")
    return f"{t.name}: {', '.join(k.name for k in t.kinds)}\n  {'; '.join(parts)}"


def summary(m: GameMap) -> list[str]:
    """The readable lines of ``printkit maps show``."""
    lines = [
        f"{shorten(m.name)} ({m.id}), from {shorten(str(m.source), PATH_SHOWN)}",
        f"{len(m.cities)} cities in {len(m.regions)} regions, {len(m.routes)} routes",
        "",
        "Regions:",
    ]
    for r in m.regions:
        souvenirs = ", ".join(m.kind(s).name for s in r.souvenirs)
        reward = f", reward {r.reward}" if r.reward is not None else ""
        lines.append(f"  {r.name} (sells {souvenirs}{reward})")
        for c in m.region_cities(r.id):
            lines.append(f"    {c.name}: {', '.join(m.kind(s).name for s in c.sights)}")
    if m.iconic_cities:
        lines.append(f"Iconic cities (no region, no sights, not a start): {', '.join(c.name for c in m.iconic_cities)}")
        lines.append(f"  visited score {_points(m.iconic_table)}")
    lines += ["", "Scoring:", *("  " + t for t in _track_line(m.collect).split("\n"))]
    for t in m.explore:
        lines += ["  " + line for line in _track_line(t).split("\n")]
    rs = m.region_scoring
    if rs.mode == "table":
        lines.append(f"  Regions completed: {_points(rs.table)}")
    elif rs.mode == "per_region":
        lines.append(f"  Regions completed: {rs.points} each")
    else:
        lines.append(f"  Region majority: most cities visited scores the region's reward, tied {rs.tied} each")
    n = m.end_cities_per_region
    lines.append(f"  Speed bonus {m.speed_bonus}: {n}+ {'city' if n == 1 else 'cities'} in every region, back at the start")
    ratings = ", ".join(f"{r.min_points}+ {r.title}" for r in m.solo.ratings)
    lines.append(f"  Solo/party: {m.solo.turns} turns; {ratings}")
    return lines
