"""``printkit roll``: roll the two solo/party dice and say what everyone does."""

from __future__ import annotations

import random

import click

from printkit.cli.common import SEED, FactsCommand
from printkit.rules.dice import roll as roll_dice


def _facts() -> dict[str, object]:
    """The dice table the help quotes, from the data."""
    from printkit.loading.dice import load_dice

    return {"legend": load_dice().legend()}


@click.command(name="roll", cls=FactsCommand, facts=_facts)
@click.option("--seed", type=SEED, default=None, help="Seed for a repeatable roll (default: random).")
@click.option("--json", "as_json", is_flag=True, help='Print {"dice":[a,b],"actions":[...],"choice":bool}.')
def roll(seed: int | None, as_json: bool) -> None:
    """Roll the two solo/party dice: {legend}.

    Two dice showing the same action mean that action plus one action of
    your choice. The same --seed always gives the same roll.

    \b
    Example:
      printkit roll
      printkit roll --seed 7 --json
    """
    from printkit.loading.dice import load_dice

    result = roll_dice(load_dice(), random.Random(seed))
    if as_json:
        import json

        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(result.text)
