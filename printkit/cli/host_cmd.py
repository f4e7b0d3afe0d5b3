"""``printkit host``: one offline HTML page to run a solo/party game on a big screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from printkit.cli.common import reported

if TYPE_CHECKING:
    from printkit.rules.turns import MapInfo


def host_data(info: MapInfo, seed: int, players: tuple[str, ...]) -> dict[str, Any]:
    """Everything the page's script needs, computed here with the same rules as the CLI."""
    import json

    from printkit.rules.dice import game_rolls
    from printkit.rules.turns import speed_bonus

    rolls = [
        {"turn": t, "dice": list(r.dice), "actions": list(r.actions), "choice": r.choice,
         "headline": r.headline, "text": r.text}
        for t, r in enumerate(game_rolls(info.dice, seed, info.turns), start=1)
    ]
    return {
        "key": json.dumps([info.id, seed, list(players)], ensure_ascii=False),
        "map": {"id": info.id, "name": info.name},
        "seed": seed,
        "turns": info.turns,
        "players": list(players),
        "rolls": rolls,
        "bonus": [speed_bonus(info.turns, t) for t in range(info.turns + 1)],
    }


def render_host(info: MapInfo, seed: int, players: tuple[str, ...]) -> str:
    """The host page's HTML (Jinja2, autoescaped, undefined names are errors)."""
    import jinja2

    from printkit.resources import data_dir
    from printkit.rules.turns import rating_bands

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    template = env.get_template("host.html.j2")
    return template.render(
        title=f"{info.name}: solo/party host",
        seed=seed,
        turns=info.turns,
        players=players,
        end_condition=info.end_condition(),
        ratings=rating_bands(info.ratings),
        data=host_data(info, seed, players),
    )


@click.command(name="host")
@click.option("--map", "map_name", default="world", show_default=True, help="Map id or .toml file.")
@click.option("--seed", type=int, default=None, help="Seed for the dice (default: random; shown on the page).")
@click.option("--players", default=None, help="Comma-separated names, to tick off who got home (optional).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="HTML file to write.")
def host(map_name: str, seed: int | None, players: str | None, output: str) -> None:
    """Write an offline host screen: Roll button, dice, turn track, undo, ratings.

    One self-contained HTML file (no network needed) for a phone or a big
    screen. It rolls the same dice as `printkit turns` with the same --seed,
    and remembers the game in the browser if the page is reloaded.

    \b
    Example:
      printkit host --map europe --seed 7 --players "Ann,Bo,Cy,Di,Ed,Flo,Gus" -o party.html
    """
    from printkit.cli.common import seed_or_random
    from printkit.cli.turns_cmd import checked_players, resolve_map
    from printkit.errors import PrintkitError
    from printkit.files import atomic_write

    names = checked_players(players, []) if players is not None else ()
    info = resolve_map(map_name)
    seed = seed_or_random(seed)
    html = render_host(info, seed, names)
    with reported():
        try:
            atomic_write(output, html.encode("utf-8"))
        except OSError as exc:
            raise PrintkitError(f"{output}: cannot write the host page ({exc.strerror or exc})") from None
    click.echo(f"Wrote {output}: {info.name}, seed {seed}, {info.turns} turns. Open it in any browser (works offline).")
