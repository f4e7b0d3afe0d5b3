"""``printkit score --game`` and ``printkit scan --game``: a game file's sheets joined to its tracker, and scored.

The game file (``printkit turns``) holds the players, the mode, the finish
turns and, once scanned or typed, every player's marks. Scoring builds the
game record from them (:func:`printkit.rules.gamefile.record_doc`) and
scores it as ``printkit score GAMEFILE`` would, with the same output. The
state files of ``printkit abby`` and ``printkit wereldsteden`` are game files
too: :func:`score_game_file` hands them to their command's scorer, and every
ended game is recorded here, once (:func:`record_in_history`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from printkit.cli.common import PATH_SHOWN, show_score
from printkit.cli.turns_cmd import saved_game
from printkit.errors import PrintkitError
from printkit.model.names import shorten

if TYPE_CHECKING:
    from printkit.cli.state import Saved
    from printkit.rules.report import GameScore
    from printkit.rules.turns import Game
    from printkit.scan.sheet import SheetRead


def game_result(game: Game, path: str) -> tuple[GameScore, str]:
    """The game's score and title; a StateError naming who has no marks yet, and how to give them."""
    from printkit import registry
    from printkit.errors import StateError
    from printkit.rules.gamefile import missing_marks, record_doc

    missing = missing_marks(game)
    if missing:
        shown = shorten(path, PATH_SHOWN)
        raise StateError(f"{shown}: no marks yet for {', '.join(missing)}: scan their sheets "
                         f"(`printkit scan SHEETS --game {shown}`) or type them (`printkit score --game {shown} --prompt`)")
    return registry.score_document(record_doc(game), path, Path(path).parent)


def record_in_history(game_id: str, result: GameScore, title: str | None, map_id: str, mode: str) -> bool:
    """Keep a game that has ended in the history, once (keyed by its id): True if recorded now, False if it was there.

    The one place ``score --game`` records a game (of ``turns``, ``abby`` or
    ``wereldsteden``); the explanation kept is the text ``score`` printed.
    """
    from printkit.history import record, scored
    from printkit.present.score_text import score_text

    return record(game_id, scored(result, score_text(result, title), map=map_id, mode=mode))


def report_recorded(recorded: bool, game_id: str) -> None:
    """Say on stderr whether the game was recorded now or was in the history already."""
    click.echo(f"Recorded in the history as {game_id}." if recorded else
               f"Already in the history as {game_id}; not recorded again.", err=True)


def report_unended(how: str) -> None:
    """Say on stderr that a game scored before its end is not kept, and when to score it again."""
    click.echo(f"Note: the game is not over yet, so it is not kept in the history; score it again {how}.", err=True)


def game_file_kind(path: str) -> str | None:
    """The kind a companion's game file says it is (``turns``, ``abby``, ``wereldsteden``), or None if it says none.

    Only a peek to pick the reader: that reader then checks the file whole and
    reports what is wrong with it.
    """
    from printkit.errors import DataError
    from printkit.loading.text import FileProblem, parse_json, read_bytes, utf8_text

    try:
        doc = parse_json(utf8_text(read_bytes(path)), path)
    except (FileProblem, DataError, UnicodeDecodeError):
        return None
    kind = doc.get("printkit") if isinstance(doc, dict) else None
    return kind if isinstance(kind, str) else None


def score_game_file(path: str, as_json: bool, prompt: bool) -> None:
    """Score the game file at ``path``, of any companion (asking for missing marks with ``--prompt`` or on a terminal)."""
    kind = game_file_kind(path)
    if kind == "abby":
        from printkit.cli.abby_cmd import score_game_file as score_solo

        score_solo(path, as_json, prompt)
    elif kind == "wereldsteden":
        from printkit.cli.wereldsteden_cmd import score_game_file as score_sales

        score_sales(path, as_json)
    else:
        _score_turns(path, as_json, prompt)


def _score_turns(path: str, as_json: bool, prompt: bool) -> None:
    """Score the game file of ``printkit turns`` at ``path``."""
    saved = saved_game(path)
    game = saved.load()
    if game.marks.keys() != set(game.players) and (prompt or sys.stdin.isatty()):
        game = _enter_missing(saved, game, path)
    result, title = game_result(game, path)
    show_score(result, title, as_json=as_json)
    for u in game.unsure:
        click.echo(f"Unsure: {u.player}: {u.message}", err=True)
    if not game.over:
        report_unended("after `printkit turns end`")
        return
    report_recorded(record_in_history(game.id, result, title, game.map.id, game.mode), game.id)


def _enter_missing(saved: Saved[Game], game: Game, path: str) -> Game:
    """Ask for the marks of every player who has none, saving the game file after each player."""
    from printkit.cli.score_cmd import enter_player
    from printkit.loading.maps import load_map
    from printkit.rules.gamefile import Marks, missing_marks, set_marks

    m = load_map(game.map.source)
    click.echo(f"Scoring {game.mode} game {game.id} on the {shorten(m.name)} map. Each question shows the allowed range.")
    for done, who in enumerate(missing_marks(game)):
        try:
            table = enter_player(m, game.mode, who, game.finished.get(who) if game.dice else None)
        except PrintkitError as exc:  # input ended: the players typed before this one are in the file
            kept = f"; {who}'s marks were not saved, the players before are" if done else ""
            raise PrintkitError(str(exc).replace("; nothing was saved", kept or "; nothing was saved")) from None
        with saved.changing() as box:
            set_marks(box.value, who, Marks("typed", table), [])
        click.echo(f"Saved {who}'s marks in {shorten(path, PATH_SHOWN)}.", err=True)
    click.echo("")
    return saved.load()


def attach_scans(path: str, sheets: list[SheetRead]) -> Game:
    """Attach the sheets read by ``scan`` to the game file at ``path`` (all or none); the game as saved."""
    from printkit.rules.gamefile import set_marks
    from printkit.scan.game import game_reads

    with saved_game(path).changing() as box:
        for who, marks, unsure in game_reads(sheets, box.value):
            set_marks(box.value, who, marks, unsure)
    return box.value
