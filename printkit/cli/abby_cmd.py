"""``printkit abby``: play Globetrotting solo against Abby, one turn at a time.

The game lives in a small JSON state file (default ./printkit-abby.json),
written atomically after every change, locked while it changes; a corrupt
file is reported and never overwritten. It is a game file: ``printkit score
--game FILE`` scores it (:func:`score_game_file`), asking for the player's
end-of-game marks with ``--prompt`` and keeping each answer in the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from printkit.cli.common import MAX_COUNT, PATH_SHOWN, FactsCommand, Whole, input_param, show_score, whole_numbers
from printkit.cli.state import Companion, force_option
from printkit.model.limits import LARGEST
from printkit.model.names import shorten

if TYPE_CHECKING:
    from printkit.cli.state import Saved
    from printkit.model.games import Globetrotting
    from printkit.rules.abby import SoloGame

ABBY = Companion("abby", "printkit-abby.json", "The solo game's state file.",
                 "no solo game here; start one with", "printkit abby start --bucket-cards 3")  # fmt: skip


def _rules() -> Globetrotting:
    from printkit.loading.games import load_globetrotting

    return load_globetrotting()


def _facts() -> dict[str, object]:
    """The numbers Abby's help quotes, from the Globetrotting data."""
    rules = _rules()
    a = rules.abby
    return {"flights": rules.flights, "bucket_min": rules.bucket_cards_min, "bucket_max": rules.bucket_cards_max,
            "per_card": a.per_bucket_card, "festivals": a.festivals, "turn": a.objectives_turn,
            "later": rules.objective_later, "first": rules.objective_first, "airfare": a.airfare_bonus}  # fmt: skip


def _saved(path: str, rules: Globetrotting) -> Saved[SoloGame]:
    from printkit.rules.abby import STATE_FORMAT, from_state, migrate, to_state

    return ABBY.at(path, to_state, lambda doc, p: from_state(doc, p, rules), STATE_FORMAT, migrate)


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


@abby.command(name="start", cls=FactsCommand, facts=_facts)
@click.option("--bucket-cards", type=Whole(0, MAX_COUNT), required=True, help="Bucket List cards you keep.")
@click.option("--player", default="You", show_default=True, help="Your name, as the score and the history show it.")
@force_option("Replace a game that is still in progress.")
@ABBY.option
def start(bucket_cards: int, player: str, force: bool, state_path: str) -> None:
    """Start a solo game against Abby, keeping {bucket_min}-{bucket_max} Bucket List cards.

    \b
    Example:
      printkit abby start --bucket-cards 5 --state solo.json
    """
    from printkit.cli.common import checked_names
    from printkit.model.names import typed
    from printkit.rules.abby import new_game
    from printkit.rules.gamefile import new_id

    rules = _rules()
    name = checked_names([typed(player).strip()], "'--player'")[0]
    if name.casefold() == "abby":
        raise click.BadParameter("Abby is the opponent's name; give yours", param_hint="'--player'")
    with input_param("'--bucket-cards'"):
        game = new_game(rules, bucket_cards, new_id(), name)

    def busy(old: SoloGame) -> str | None:
        if len(old.turns) >= rules.flights:
            return None
        return f"a solo game is in progress (flight {len(old.turns)} of {rules.flights}); replace it with --force"

    _saved(state_path, rules).replace(game, force, busy)
    click.echo(f"New solo game against Abby: {bucket_cards} Bucket List cards, {rules.flights} flights.")
    click.echo("Each turn: `printkit abby turn --cards A,B,C --chose K --airfare N`.")
    click.echo(f"Saved in {shorten(state_path, PATH_SHOWN)}.")


@abby.command(name="turn")
@click.option("--cards", required=True, help="The 3 cards' coordinate numbers, left to right, e.g. 7,12,3.")
@click.option("--chose", required=True, help="Position of your card: 1-3 or left/middle/right.")
@click.option("--airfare", type=Whole(0, LARGEST), required=True, help="Your airfare this flight.")
@ABBY.option
def turn(cards: str, chose: str, airfare: int, state_path: str) -> None:
    """Log a flight: your card and airfare; Abby flies for the card to its right.

    \b
    Example:
      printkit abby turn --cards 7,12,3 --chose right --airfare 5
    """
    from printkit.rules.abby import check_cards, play_turn, position_of

    numbers = whole_numbers(cards, "'--cards'", LARGEST)
    with input_param("'--cards'", cards):
        check_cards(numbers)
    with input_param("'--chose'", chose):
        position = position_of(chose)
    rules = _rules()
    with _saved(state_path, rules).changing() as box:
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
@ABBY.option
def undo(state_path: str) -> None:
    """Take back the last flight.

    \b
    Example:
      printkit abby undo
    """
    from printkit.rules.abby import undo as undo_turn

    rules = _rules()
    with _saved(state_path, rules).changing() as box:
        last = len(box.value.turns)
        box.value = undo_turn(box.value)
    click.echo(f"Took back flight {last}. {_totals(box.value)}")


@abby.command(name="status")
@ABBY.option
def status(state_path: str) -> None:
    """Show every flight so far and both running totals.

    \b
    Example:
      printkit abby status
    """
    rules = _rules()
    game = _saved(state_path, rules).load()
    click.echo(f"Solo game against Abby: {game.bucket_cards} Bucket List cards, "
               f"flight {len(game.turns)} of {rules.flights}.")  # fmt: skip
    you = her = 0
    for i, t in enumerate(game.turns, 1):
        you, her = you + t.airfare, her + t.abby
        cards = ",".join(str(c) for c in t.cards)
        click.echo(f"  {i}. cards {cards:<10} chose {t.chose}  you {t.airfare:>2} (total {you:>3})  "
                   f"Abby {t.abby:>2} (total {her:>3})")  # fmt: skip
    click.echo(_totals(game))


@abby.command(name="score", cls=FactsCommand, facts=_facts)
@click.option("--objective", "objectives", type=Whole(1, MAX_COUNT), multiple=True,
              help="Turn you achieved a global objective (once per objective achieved).")
@click.option("--bucket-list", default="", help="Points of each Bucket List card you completed, e.g. 3,5.")
@click.option("--festivals", default="0", help="Festivals marked: a total, or per season e.g. 1,2,0.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@ABBY.option
def score(objectives: tuple[int, ...], bucket_list: str, festivals: str, as_json: bool, state_path: str) -> None:
    """Score you and Abby after {flights} flights and say who won.

    Abby: {per_card} per Bucket List card you started with, {festivals} for
    festivals, both objectives on turn {turn} ({later} instead of {first} for one
    you achieved earlier), and {airfare} if she spent less. Ties: lower airfare
    wins, then a shared victory.

    \b
    Example:
      printkit abby score --objective 4 --objective 8 --bucket-list 3,5 --festivals 1,2,0
    """
    from printkit.errors import InputError, RuleError
    from printkit.rules.abby import check_bucket_points, festival_total
    from printkit.rules.abby import score as score_game

    rules = _rules()
    with input_param("'--festivals'", festivals):
        marks = festival_total(rules, whole_numbers(festivals, "'--festivals'"))
    bucket = whole_numbers(bucket_list, "'--bucket-list'")
    with input_param("'--bucket-list'", bucket_list):
        check_bucket_points(bucket)
    game = _saved(state_path, rules).load()
    try:
        result = score_game(rules, game, list(objectives), bucket, marks)
    except RuleError as exc:
        if len(game.turns) < rules.flights:
            raise
        flag = f"--{exc.field.replace('_', '-')} " if isinstance(exc, InputError) else ""
        raise click.UsageError(flag + (exc.detail if isinstance(exc, InputError) else str(exc))) from None
    show_score(result, as_json=as_json)


_QUESTIONS = {
    "objectives": ("Turns you achieved a global objective, comma-separated", "none"),
    "bucket_list": ("Points of each Bucket List card you completed, comma-separated", "none"),
    "festivals": ("Festivals marked: a total, or one number per season like 1,2,0", "0"),
}


class _Answer(click.ParamType[list[int], str]):
    """One typed answer: whole numbers separated by commas (``none``: no numbers), checked by the rules."""

    name = "numbers"

    def __init__(self, rules: Globetrotting, game: SoloGame, key: str) -> None:
        self.rules, self.game, self.key = rules, game, key

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> list[int]:
        from printkit.errors import InputError
        from printkit.rules.abby import check_mark

        text = str(value).strip()
        numbers = [] if text.lower() in ("none", "-", "") else whole_numbers(text, "answer", LARGEST)
        try:
            check_mark(self.rules, self.game, self.key, numbers)
        except InputError as exc:
            self.fail(exc.says(text), param, ctx)
        return numbers


def score_game_file(path: str, as_json: bool, prompt: bool) -> None:
    """``printkit score --game``: score the solo game at ``path``, asking for missing marks (``--prompt``, a terminal)."""
    import sys

    from printkit.cli.game_score import record_in_history, report_recorded
    from printkit.errors import StateError
    from printkit.rules.abby import missing_marks, over, score_marks

    rules = _rules()
    saved = _saved(path, rules)
    game = saved.load()
    shown = shorten(path, PATH_SHOWN)
    if not over(rules, game):
        raise StateError(f"{shown}: {len(game.turns)} of {rules.flights} flights are logged; score the game after "
                         "the last one (`printkit abby turn`)")
    if missing_marks(game) and (prompt or sys.stdin.isatty()):
        game = _enter_marks(saved, rules, game, path)
    if missing_marks(game):
        missing = ", ".join(key.replace("_", " ") for key in missing_marks(game))
        raise StateError(f"{shown}: no marks yet for {game.player} ({missing}): "
                         f"type them (`printkit score --game {shown} --prompt`)")
    result = score_marks(rules, game)
    show_score(result, as_json=as_json)
    report_recorded(record_in_history(game.id, result, None, "globetrotting", "solo"), game.id)


def _enter_marks(saved: Saved[SoloGame], rules: Globetrotting, game: SoloGame, path: str) -> SoloGame:
    """Ask for every end-of-game answer not typed yet, saving the game file after each one."""
    from printkit.cli.score_cmd import ask
    from printkit.rules.abby import missing_marks, with_mark

    click.echo(f"Scoring solo game {game.id} ({game.player} against Abby): the end-of-game marks.")
    for key in missing_marks(game):
        text, default = _QUESTIONS[key]
        numbers = ask(text, "whole numbers separated by commas, or none", _Answer(rules, game, key), default)
        with saved.changing() as box:
            box.value = with_mark(rules, box.value, key, numbers)
        game = box.value
        click.echo(f"Saved in {shorten(path, PATH_SHOWN)}.", err=True)
    click.echo("")
    return game
