"""The leaderboard's totals from the marks in the game file, and the finished game kept in the history once.

Solo and party sheets score alone (solo mode: the same rules), each with the
tracker's finish turn; a multiplayer game is scored together once two or more
sheets are in. Pure but for :func:`record_game`, which writes the history.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printkit.errors import PrintkitError

if TYPE_CHECKING:
    from printkit.rules.turns import Game


def _table(game: Game, who: str) -> dict[str, Any]:
    """A player's marks with the tracker's finish turn (solo/party), as ``record_doc`` joins them."""
    table = dict(game.marks[who].table)
    if not game.dice:
        table.pop("finished_turn", None)
    elif who in game.finished:
        table["finished_turn"] = game.finished[who]
    return table


Scores = dict[str, tuple[int, dict[str, int]]]
"""Each player's total and points per section."""


def _score(doc: dict[str, Any]) -> Scores:
    from printkit import registry

    result, _ = registry.score_document(doc, "the party's sheets", Path("."))
    return {p["name"]: (p["total"], p["sections"]) for p in result.to_json()["players"]}


@lru_cache(maxsize=64)
def _totals(key: str) -> Scores:
    source, mode, tables = json.loads(key)
    out: Scores = {}
    if mode == "multiplayer":
        if len(tables) >= 2:
            out = _score({"map": source, "mode": mode, "players": tables})
        return out
    for table in tables:
        try:
            out.update(_score({"map": source, "mode": "solo", "players": [table]}))
        except PrintkitError:  # the tracker has them home, but the drawn routes do not finish the trip
            out.update(_score({"map": source, "mode": "solo", "players": [
                {k: v for k, v in table.items() if k != "finished_turn"}]}))
    return out


def scores(game: Game, extra: tuple[str, dict[str, Any]] | None = None) -> Scores:
    """Every counted sheet's score (with ``extra``, a (player, marks table) not yet counted, in its place)."""
    tables = [_table(game, who) for who in game.players if who in game.marks and (extra is None or who != extra[0])]
    if extra is not None:
        tables.append({**extra[1], **({"finished_turn": game.finished[extra[0]]}
                                      if game.dice and extra[0] in game.finished else {})})
    return _totals(json.dumps([game.map.source, game.mode, tables], sort_keys=True)) if tables else {}


def totals(game: Game, corrected: dict[str, int]) -> dict[str, int]:
    """Each player's total so far: their counted sheet's score, or the total they corrected it to."""
    return {**{who: total for who, (total, _) in scores(game).items()}, **corrected}


def record_game(game: Game) -> bool:
    """Keep the ended game, every sheet in, in the history under its id: True if recorded now, False if it was."""
    from printkit import registry
    from printkit.history import record, scored
    from printkit.present.score_text import score_text
    from printkit.rules.gamefile import record_doc

    result, title = registry.score_document(record_doc(game), "the party's sheets", Path("."))
    return record(game.id, scored(result, score_text(result, title), map=game.map.id, mode=game.mode))
