"""``printkit host``: one offline HTML page to run a solo/party game on a big screen."""

from __future__ import annotations

import click

from printkit.cli.common import SEED


@click.command(name="host")
@click.option("--map", "map_name", default="world", show_default=True, help="Map id or .toml file.")
@click.option("--seed", type=SEED, default=None, help="Seed for the dice (default: random; shown on the page).")
@click.option("--players", default=None, help="Comma-separated names, to tick off who got home (optional).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="HTML file to write; '-' writes the page to stdout.")
def host(map_name: str, seed: int | None, players: str | None, output: str) -> None:
    """Write an offline host screen: Roll button, dice, turn track, undo, ratings.

    One self-contained HTML file (no network needed) for a phone or a big
    screen. It rolls the same dice as `printkit turns` with the same --seed,
    and remembers the game in the browser if the page is reloaded.

    \b
    Example:
      printkit host --map europe --seed 7 --players "Ann,Bo,Cy,Di,Ed,Flo,Gus" -o party.html
    """
    from printkit.cli.common import PATH_SHOWN, STDOUT, checked_players, load_map_param, output_path, seed_or_random
    from printkit.errors import PrintkitError
    from printkit.files import atomic_write
    from printkit.model.names import shorten
    from printkit.present.host import render_host
    from printkit.rules.turns import map_info

    names = checked_players(players, []) if players is not None else ()
    if output != STDOUT:
        output_path(output, "'-o' / '--output'", [map_name])
    info = map_info(load_map_param(map_name))
    seed = seed_or_random(seed)
    html = render_host(info, seed, names)
    if output == STDOUT:
        click.echo(html, nl=False)
        return
    try:
        atomic_write(output, html.encode("utf-8"))
    except OSError as exc:
        raise PrintkitError(f"{shorten(output, PATH_SHOWN)}: cannot write the host page ({exc.strerror or exc})") from None
    click.echo(f"Wrote {shorten(output, PATH_SHOWN)}: {shorten(info.name)}, seed {seed}, {info.turns} turns. "
               "Open it in any browser (works offline).")
