"""The offline host page of ``printkit host``: one self-contained HTML file (the only Jinja2 user)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    ]  # fmt: skip
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
