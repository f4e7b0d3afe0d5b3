"""``printkit roll``: roll the two solo/party dice and say what everyone does."""

from __future__ import annotations

import random

import click

from printkit.cli.common import reported
from printkit.rules.dice import roll as roll_dice


@click.command(name="roll")
@click.option("--seed", type=int, default=None, help="Seed for a repeatable roll (default: random).")
@click.option("--json", "as_json", is_flag=True, help='Print {"dice":[a,b],"actions":[...],"choice":bool}.')
def roll(seed: int | None, as_json: bool) -> None:
    """Roll two six-sided dice: 1-2 Travel, 3-4 Collect, 5-6 Explore.

    Two dice showing the same action mean that action plus one action of
    your choice. The same --seed always gives the same roll.

    \b
    Example:
      printkit roll
      printkit roll --seed 7 --json
    """
    from printkit.loading.dice import load_dice

    with reported():
        table = load_dice()
    result = roll_dice(table, random.Random(seed))
    if as_json:
        import json

        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(result.text)
