"""``printkit score``: score a finished game from a game file, or enter the marks."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from printkit.cli.common import PATH_SHOWN, FactsCommand, Whole, bundled_map_ids, output_path, show_score, shown_path
from printkit.errors import PrintkitError
from printkit.model.names import shorten, shown, typed

if TYPE_CHECKING:
    from printkit.model.maps import GameMap, Mode
    from printkit.rules.report import GameScore


GAME_FROM_ENV = "\0"
"""``--game`` given without a file: the game file is ``$PRINTKIT_STATE``, else ``turns``' default (as ``--state``)."""
DEFAULT_GAME = "printkit-game.json"


def _facts() -> dict[str, object]:
    return {"maps": bundled_map_ids()}


@click.command(name="score", cls=FactsCommand, facts=_facts)
@click.argument("gamefile", metavar="GAMEFILE|MAP", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON (keys documented in the README).")
@click.option(
    "--save",
    type=click.Path(dir_okay=False, writable=True),
    help="After entering marks, save them as a game file (.toml, or .json).",
)
@click.option("--prompt", "force_prompt", is_flag=True, help="Ask for the marks even when input is not a terminal.")
@click.option("--record", is_flag=True, help="Keep the game in the history (printkit history); once per file.")
@click.option("--game", "game_path", metavar="FILE", is_flag=False, flag_value=GAME_FROM_ENV,
              help="Score a game file of `printkit turns`, `abby` or `wereldsteden` (--game alone: $PRINTKIT_STATE, "
                   "else printkit-game.json).")
def score(gamefile: str | None, as_json: bool, save: str | None, force_prompt: bool, record: bool,
          game_path: str | None) -> None:
    """Score a finished game: every section, totals, winner(s) and tie-breaks.

    GAMEFILE is a TOML or JSON game record (any game: its `game` key picks
    the rules; Around the World by default). Give a MAP instead ({maps},
    or a map .toml file) to type in each player's marks; --save keeps them
    as a game file for later.

    Ties go to the player fewest routes from their final city back to the
    start; still tied, the win is shared. Solo/party games get a rating.
    A count beyond a row's boxes is rejected, never capped.

    \b
    Example:
      printkit score chris.toml
      printkit score game.json --json
      printkit score world --save tonight.toml
      printkit score chris.toml --record
      printkit score --game printkit-game.json
    """
    from printkit import registry
    from printkit.loading.records import load_record

    if game_path is not None or gamefile is None:
        _score_game(game_path, gamefile, save, as_json, force_prompt)
        return

    path = Path(gamefile)
    if _is_file(path):
        doc = load_record(path)
        if "players" in doc or "cities" not in doc:
            if save:
                raise click.UsageError("--save is for marks typed in; this game is already a file")
            _warn_unsure(path)
            result, title = registry.score_document(doc, str(path), path.parent)
            show_score(result, title, as_json=as_json)
            if record:
                _record(path, result, title)
            return
        map_value = str(path.resolve())
    else:
        map_value = _map_to_enter(gamefile)
    if record:
        raise click.UsageError("--record keeps a game file: --save the marks, then score that file with --record")
    if sys.stdin is None or sys.stdin.closed:
        raise click.UsageError(f"standard input is closed; typing in the marks of {shown_path(gamefile)} reads them "
                               "there: run this in a terminal, or give a game file")
    if not (force_prompt or sys.stdin.isatty()):
        raise click.UsageError(
            f"{shown_path(gamefile)} is a map, not a game file: run this in a terminal to type in the marks "
            "(or pass --prompt), or give a game file"
        )
    if save:
        output_path(save, "'--save'", [gamefile])
    _score_entered(map_value, save, as_json)


def _warn_unsure(path: Path) -> None:
    """A one-line warning when the game file still carries the unsure reads ``printkit scan --save`` listed."""
    from printkit.loading.records import UNSURE_HEADER

    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            head = f.read(len(UNSURE_HEADER))
    except OSError:
        return
    if head == UNSURE_HEADER:
        click.echo(f"Warning: {shown_path(str(path))} still lists the unsure reads printkit scan left in it: check "
                   "each one, correct the file, then delete those comments", err=True)


def _score_game(game_path: str | None, gamefile: str | None, save: str | None, as_json: bool, prompt: bool) -> None:
    """``--game FILE``: the game file of `printkit turns` scored alone (a usage error beside GAMEFILE or --save)."""
    from printkit.cli.game_score import score_game_file

    if game_path is None:
        raise click.UsageError("Missing argument 'GAMEFILE|MAP' (or give --game FILE).")
    if gamefile is not None or save is not None:
        raise click.UsageError("--game scores the game file alone: leave out GAMEFILE|MAP and --save")
    if game_path == GAME_FROM_ENV:
        game_path = os.environ.get("PRINTKIT_STATE") or DEFAULT_GAME
    score_game_file(game_path, as_json, prompt)


def _record(path: Path, result: GameScore, title: str) -> None:
    """Keep a scored standalone file in the history, keyed by a digest of its bytes (a second time: nothing)."""
    from printkit.history import file_id, record, scored
    from printkit.loading.text import read_source
    from printkit.present.score_text import score_text

    game_id = file_id(read_source(path)[0])
    if record(game_id, scored(result, score_text(result, title))):
        click.echo(f"Recorded in the history as {game_id}.", err=True)
    else:
        click.echo(f"Already in the history as {game_id}; not recorded again.", err=True)


def _is_file(path: Path) -> bool:
    """Whether ``path`` names anything but a folder (the reader refuses pipes, devices and link loops)."""
    try:
        return os.path.lexists(path) and not path.is_dir()
    except (OSError, ValueError):
        return False


def _map_to_enter(gamefile: str) -> str:
    """A bundled map named instead of a game file; a usage error for anything else."""
    from printkit.loading.maps import bundled_maps
    from printkit.model.words import match_id

    if match_id(gamefile, bundled_maps()) is None:
        raise click.BadParameter(
            f"no game file {shown_path(gamefile)}; give a game file (.toml or .json) or a map to type in "
            f"the marks ({', '.join(bundled_maps())}, or a map .toml file)",
            param_hint="'GAMEFILE|MAP'",
        )
    return gamefile


def _score_entered(map_value: str, save: str | None, as_json: bool) -> None:
    """Ask for the marks on this map, score them, and save them as a game file if asked."""
    from printkit import registry
    from printkit.loading.maps import load_map

    m = load_map(map_value)
    doc = enter_game(m, map_value)
    result = registry.score_document(doc, "entered marks", Path("."))[0]
    result, doc = break_tie(m, doc, result)
    title = m.title
    if save:
        _save_entered(doc, map_value, save)
    show_score(result, title, as_json=as_json)


def _save_entered(doc: dict[str, Any], map_value: str, save: str) -> None:
    """Save typed-in marks as a game file (.json or .toml), the map path relative to it."""
    from printkit.files import atomic_write
    from printkit.loading.maps import bundled_maps
    from printkit.loading.records import dump_record

    fmt = "json" if save.lower().endswith(".json") else "toml"
    if map_value not in bundled_maps():
        doc["map"] = os.path.relpath(map_value, Path(save).resolve().parent)
    try:
        atomic_write(save, dump_record(doc, fmt).encode())
    except OSError as exc:
        raise click.FileError(save, hint=exc.strerror or str(exc)) from None
    click.echo(f"Saved the game to {shorten(save, PATH_SHOWN)}", err=True)


MAX_REPLY = 1000  # characters of a typed reply: longer is refused (and echoed shortened) before any check


def _ask(text: str, expected: str, type: click.ParamType[Any, Any] | None = None, **kwargs: Any) -> Any:
    """``click.prompt``; input that ends (or Ctrl-C) before an answer says what was asked and that nothing was saved."""
    convert = click.types.convert_type(type)

    def checked(value: str) -> Any:
        if len(value) > MAX_REPLY:
            raise click.UsageError(f"expected {expected}, got {shown(value)}")
        return convert(value)

    try:
        return click.prompt(text, type=type, value_proc=checked, **kwargs)
    except click.Abort as exc:
        _interrupted(exc)
        raise _ended(text, expected) from None


def ask(text: str, expected: str, type: click.ParamType[Any, Any], default: str) -> Any:
    """One question of an entry saved answer by answer, asked until ``type`` takes the answer.

    Input that ends first is one clear error saying the earlier answers are kept.
    """
    try:
        return _ask(text, expected, type=type, default=default)
    except PrintkitError as exc:
        raise PrintkitError(str(exc).replace("; nothing was saved", "; the answers before it are saved")) from None


def _interrupted(exc: click.Abort) -> None:
    """Ctrl-C at a question is an interruption (the group's ``Error: interrupted``), not the end of the input."""
    if isinstance(exc.__context__, KeyboardInterrupt):
        raise exc.__context__ from None


def _confirm(text: str) -> bool:
    """``click.confirm`` (default no), with the same end-of-input message as :func:`_ask`."""
    try:
        return click.confirm(text, default=False)
    except click.Abort as exc:
        _interrupted(exc)
        raise _ended(text, "y or n") from None


def _ended(text: str, expected: str) -> PrintkitError:
    return PrintkitError(f"input ended while asking for {shorten(text.strip())!r} (expected {expected}); "
                         "nothing was saved")


def _ask_int(text: str, top: int, low: int = 0) -> int:
    value: int = _ask(f"{text} ({low}-{top})", f"a whole number from {low} to {top}", type=Whole(low, top))
    return value


def _ask_names(m: GameMap, mode: str) -> list[str]:
    from printkit.loading.records.atw import players_count_problem
    from printkit.model.names import duplicate_problem, name_problem

    while True:
        raw = _ask("Player names, comma-separated" if mode != "solo" else "Player name", "player names")
        names = [n.strip() for n in typed(str(raw)).split(",") if n.strip()]
        problem = players_count_problem(m, cast("Mode", mode), len(names))
        problem = next((p for p in map(name_problem, names) if p), None) or duplicate_problem(names) or problem
        if problem is None:
            return names
        click.echo(f"Error: {problem}", err=True)


def enter_game(m: GameMap, map_value: str) -> dict[str, Any]:
    """Ask for the mode, names and every player's marks; return a game record."""
    click.echo(f"Scoring a game on the {shorten(m.name)} map. Each question shows the allowed range.")
    mode = _ask("Mode", "multiplayer, solo or party", type=click.Choice(["multiplayer", "solo", "party"], case_sensitive=False),
                default="multiplayer")
    players = [enter_player(m, mode, name) for name in _ask_names(m, mode)]
    click.echo("")
    return {"map": map_value, "mode": mode, "players": players}


def enter_player(m: GameMap, mode: str, name: str, finished: int | None = None) -> dict[str, Any]:
    """Ask for one player's marks; their ``[[players]]`` table (``finished``: the tracker's finish turn, not asked)."""
    from printkit.loading.records.atw import player_table

    click.echo(f"\n{name}")
    click.echo(f"  {m.collect.name} (souvenirs)")
    souvenirs = {k.id: _ask_int(f"    {k.name}", m.collect.boxes) for k in m.collect.kinds}
    explore: dict[str, int] = {}
    for track in m.explore:
        click.echo(f"  {track.name}")
        explore.update({k.id: _ask_int(f"    {k.name}", track.boxes) for k in track.kinds})
    click.echo("  Cities visited (the starting city counts)")
    visited = {r.id: _ask_int(f"    {r.name}", len(m.region_cities(r.id))) for r in m.regions}
    iconic = _ask_int("  Iconic cities visited", len(m.iconic_cities)) if m.iconic_table else None
    returned = _confirm("  Back at the starting city?")
    return player_table(m, name, souvenirs, explore, visited=visited, iconic=iconic, returned=returned,
                        **_entered_end(m, mode, name, visited, returned, explore, finished))


def _entered_end(m: GameMap, mode: str, name: str, visited: dict[str, int], returned: bool,
                 explore: dict[str, int], finished: int | None = None) -> dict[str, Any]:
    """The turn a solo or party trip ended on (``finished`` if the tracker knows it), or who marked a rare kind
    first (multiplayer), asked for."""
    from printkit.model.records import PlayerMarks
    from printkit.rules.atw import end_condition_met

    marks = PlayerMarks(name, visited=visited, returned=returned)
    if mode != "multiplayer" and end_condition_met(m, marks) and returned:
        if finished is not None:
            return {"finished_turn": finished}
        return {"finished_turn": _ask_int("  Turn the trip ended on", m.solo.turns, 1)}
    if mode == "multiplayer":
        firsts = [k.id for t in m.explore if t.first_bonus for k in t.kinds
                  if explore.get(k.id, 0) > 0 and _confirm(f"  First to mark {k.name}?")]
        return {"first_rare": firsts}
    return {}


def break_tie(m: GameMap, doc: dict[str, Any], result: GameScore) -> tuple[GameScore, dict[str, Any]]:
    """If winners tie and some lack start/final cities, ask for them and score again."""
    from printkit import registry
    from printkit.errors import DataError

    tied = [p for p in doc["players"] if p["name"] in result.winners and not p.get("returned")]
    if len(result.winners) < 2 or not tied:
        return result, doc
    city_ids = click.Choice([c.id for c in m.cities], case_sensitive=False)
    click.echo(f"Tie on {max(p.total for p in result.players)} points: the player closest to their start wins.")
    while True:
        for p in tied:
            click.echo(f"{p['name']}: starting and final city (city ids, e.g. {m.cities[0].id})")
            p["start_city"] = _ask("  Starting city", "a city id", type=city_ids, show_choices=False)
            p["final_city"] = _ask("  Final city", "a city id", type=city_ids, show_choices=False)
        try:
            return registry.score_document(doc, "entered marks", Path("."))[0], doc
        except DataError as exc:
            for line in exc.problems:
                click.echo(f"Error: {line}", err=True)
