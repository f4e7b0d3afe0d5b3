"""``printkit abby``: play Globetrotting solo against Abby, one turn at a time.

The game lives in a small JSON state file (default ./printkit-abby.json),
written atomically after every change, locked while it changes; a corrupt
file is reported and never overwritten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from printkit.cli.common import (
    changing, load_state, replacing, reported, save_state, state_flag, state_option,
)
from printkit.errors import StateError

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from printkit.cli.common import Box
    from printkit.model.games import Globetrotting
    from printkit.rules.abby import SoloGame

DEFAULT_STATE = "printkit-abby.json"
STATE_KIND = "abby"
POSITIONS = {"left": 1, "middle": 2, "right": 3, "1": 1, "2": 2, "3": 3}
STATE = state_option(DEFAULT_STATE, "The solo game's state file.")


def _rules() -> Globetrotting:
    from printkit.loading.games import load_globetrotting

    return load_globetrotting()


def _load(path: str, rules: Globetrotting) -> SoloGame:
    from printkit.rules.abby import from_state

    hint = f"printkit abby start --bucket-cards 3{state_flag(path, DEFAULT_STATE)}"
    missing = f"no solo game here; start one with `{hint}`"
    return from_state(load_state(path, STATE_KIND, missing), path, rules)


def _changing(path: str, rules: Globetrotting) -> AbstractContextManager[Box[SoloGame]]:
    """Lock and load the solo game; the caller replaces ``box.value``; saved if it changed."""
    from printkit.rules.abby import to_state

    return changing(path, STATE_KIND, lambda p: _load(p, rules), to_state)


def _ints(value: str, option: str) -> list[int]:
    try:
        return [int(x) for x in value.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"expected whole numbers separated by commas, got {value!r}",
                                 param_hint=f"'{option}'") from None  # fmt: skip


def _totals(game: SoloGame) -> str:
    return f"Running totals: you {game.player_total}, Abby {game.abby_total}."


@click.group(name="abby")
def abby() -> None:
    """Play Globetrotting solo against Abby: her airfare each turn and her score.

    Each turn give the three Destination cards' coordinate numbers (left to
    right), the position of the one you chose (1-3 or left/middle/right) and
    your own airfare. Abby's airfare is the number on the card to the right of
    yours (the rightmost wraps to the leftmost); both running totals are kept
    in --state (default ./printkit-abby.json).

    \b
    Example:
      printkit abby start --bucket-cards 3
      printkit abby turn --cards 7,12,3 --chose 2 --airfare 4
      printkit abby status
      printkit abby score --objective 4 --bucket-list 3,5 --festivals 3
    """


@abby.command(name="start")
@click.option("--bucket-cards", type=int, required=True, help="Bucket List cards you keep (3-7).")
@click.option("--force", is_flag=True, help="Replace a game that is still in progress.")
@STATE
def start(bucket_cards: int, force: bool, state_path: str) -> None:
    """Start a solo game against Abby.

    \b
    Example:
      printkit abby start --bucket-cards 5 --state solo.json
    """
    from printkit.errors import RuleError
    from printkit.rules.abby import new_game, to_state

    rules = _rules()
    try:
        game = new_game(rules, bucket_cards)
    except RuleError as exc:
        raise click.BadParameter(str(exc).removeprefix("--bucket-cards "), param_hint="'--bucket-cards'") from None
    with replacing(state_path, lambda path: _load(path, rules)) as old:
        if old is not None and len(old.turns) < rules.flights and not force:
            raise StateError(f"{state_path}: a solo game is in progress (flight {len(old.turns)} of "
                             f"{rules.flights}); replace it with --force")  # fmt: skip
        save_state(state_path, STATE_KIND, to_state(game))
    click.echo(f"New solo game against Abby: {bucket_cards} Bucket List cards, {rules.flights} flights.")
    click.echo("Each turn: `printkit abby turn --cards A,B,C --chose K --airfare N`.")
    click.echo(f"Saved in {state_path}.")


@abby.command(name="turn")
@click.option("--cards", required=True, help="The 3 cards' coordinate numbers, left to right, e.g. 7,12,3.")
@click.option("--chose", required=True, help="Position of your card: 1-3 or left/middle/right.")
@click.option("--airfare", type=click.IntRange(min=0), required=True, help="Your airfare this flight.")
@STATE
def turn(cards: str, chose: str, airfare: int, state_path: str) -> None:
    """Log a flight: your card and airfare; Abby flies for the card to its right.

    \b
    Example:
      printkit abby turn --cards 7,12,3 --chose right --airfare 5
    """
    from printkit.rules.abby import play_turn

    numbers = _ints(cards, "--cards")
    if len(numbers) != 3 or any(n < 1 for n in numbers):
        raise click.BadParameter(f"expected the 3 coordinate numbers shown (1 or more), left to right, like 7,12,3; "
                                 f"got {cards!r}", param_hint="'--cards'")  # fmt: skip
    position = POSITIONS.get(chose.strip().lower())
    if position is None:
        raise click.BadParameter(f"expected the position of your card, 1-3 or left/middle/right; got {chose!r}",
                                 param_hint="'--chose'")  # fmt: skip
    rules = _rules()
    with _changing(state_path, rules) as box:
        box.value = play_turn(rules, box.value, numbers, position, airfare)
    game = box.value
    t = game.turns[-1]
    right = "the leftmost card, wrapping" if position == 3 else "the card to the right"
    click.echo(f"Flight {len(game.turns)} of {rules.flights}: you chose card {position} ({t.cards[position - 1]}), "
               f"airfare {t.airfare}; Abby flies for {t.abby} ({right}).")  # fmt: skip
    click.echo(_totals(game))
    if len(game.turns) == rules.flights:
        click.echo("All flights are logged: score the game with `printkit abby score`.")


@abby.command(name="undo")
@STATE
def undo(state_path: str) -> None:
    """Take back the last flight.

    \b
    Example:
      printkit abby undo
    """
    from printkit.rules.abby import undo as undo_turn

    rules = _rules()
    with _changing(state_path, rules) as box:
        last = len(box.value.turns)
        box.value = undo_turn(box.value)
    click.echo(f"Took back flight {last}. {_totals(box.value)}")


@abby.command(name="status")
@STATE
def status(state_path: str) -> None:
    """Show every flight so far and both running totals.

    \b
    Example:
      printkit abby status
    """
    rules = _rules()
    with reported():
        game = _load(state_path, rules)
    click.echo(f"Solo game against Abby: {game.bucket_cards} Bucket List cards, "
               f"flight {len(game.turns)} of {rules.flights}.")  # fmt: skip
    you = her = 0
    for i, t in enumerate(game.turns, 1):
        you, her = you + t.airfare, her + t.abby
        cards = ",".join(str(c) for c in t.cards)
        click.echo(f"  {i}. cards {cards:<10} chose {t.chose}  you {t.airfare:>2} (total {you:>3})  "
                   f"Abby {t.abby:>2} (total {her:>3})")  # fmt: skip
    click.echo(_totals(game))


@abby.command(name="score")
@click.option("--objective", "objectives", type=int, multiple=True,
              help="Turn you achieved a global objective (once per objective achieved).")
@click.option("--bucket-list", default="", help="Points of each Bucket List card you completed, e.g. 3,5.")
@click.option("--festivals", default="0", help="Festivals marked: a total, or per season e.g. 1,2,0.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@STATE
def score(objectives: tuple[int, ...], bucket_list: str, festivals: str, as_json: bool, state_path: str) -> None:
    """Score you and Abby after 9 flights and say who won.

    Abby: 2 per Bucket List card you started with, 3 for festivals, both
    objectives on turn 6 (4 instead of 6 for one you achieved earlier), and
    2 if she spent less. Ties: lower airfare wins, then a shared victory.

    \b
    Example:
      printkit abby score --objective 4 --objective 8 --bucket-list 3,5 --festivals 1,2,0
    """
    from printkit.cli.score_cmd import show
    from printkit.errors import RuleError
    from printkit.rules.abby import score as score_game

    rules = _rules()
    marks = _ints(festivals, "--festivals")
    per = rules.festivals_per_season
    if len(marks) not in (1, len(rules.seasons)) or any(m < 0 for m in marks) or (
            len(marks) > 1 and any(m > per for m in marks)):
        raise click.BadParameter(f"expected a total (0-{per * len(rules.seasons)}) or one number per season "
                                 f"(0-{per} each), e.g. 1,2,0; got {festivals!r}", param_hint="'--festivals'")  # fmt: skip
    bucket = _ints(bucket_list, "--bucket-list")
    if any(b < 0 for b in bucket):
        raise click.BadParameter(f"points cannot be negative, got {bucket_list!r}", param_hint="'--bucket-list'")
    with reported():
        game = _load(state_path, rules)
        try:
            result = score_game(rules, game, list(objectives), bucket, sum(marks))
        except RuleError as exc:
            if len(game.turns) < rules.flights:
                raise
            raise click.UsageError(str(exc)) from None
    show(result, rules.name, as_json=as_json)
