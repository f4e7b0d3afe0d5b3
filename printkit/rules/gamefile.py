"""The sheets' side of a game file: each player's marks (scanned or typed), the unsure reads, and the record.

A game file (``printkit turns``) keeps, beside its events, one ``[[players]]``
table per player as ``printkit score`` reads it (built by
``loading.records.atw.player_table``), where it came from (``scan`` or
``typed``), and the reads a person should check. :func:`record_doc` joins
them to the tracker's finish turns into the game record ``printkit score
--game`` scores. Pure: nothing here opens a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from printkit.errors import corrupt_state
from printkit.model.names import plain

if TYPE_CHECKING:
    from printkit.rules.turns import Game

SOURCES = ("scan", "typed")
ID_LENGTH = 12
"""A game's id: this many lowercase hex digits (``new_id``), printed in its sheets' QR codes."""


def new_id() -> str:
    """A fresh game id from the system's random source."""
    import secrets

    return secrets.token_hex(ID_LENGTH // 2)


def valid_id(value: object) -> bool:
    """Whether ``value`` is a game id: :data:`ID_LENGTH` lowercase hex digits."""
    return isinstance(value, str) and len(value) == ID_LENGTH and all(c in "0123456789abcdef" for c in value)


class Marks(NamedTuple):
    """One player's sheet: its ``[[players]]`` table and where it came from (``scan`` or ``typed``)."""

    source: str
    table: dict[str, Any]


class Unsure(NamedTuple):
    """A read a person should check: whose sheet, which field, how sure (0-1), and what is in doubt."""

    player: str
    field: str
    confidence: float
    message: str

    def to_json(self) -> dict[str, Any]:
        """As the game file and ``--json`` list it."""
        return {"player": self.player, "field": self.field, "confidence": self.confidence, "message": self.message}


def marks_to_state(marks: dict[str, Marks], unsure: list[Unsure]) -> dict[str, Any]:
    """The ``marks`` and ``unsure`` keys of a game file."""
    return {"marks": {who: {"from": m.source, "table": m.table} for who, m in marks.items()},
            "unsure": [u.to_json() for u in unsure]}


def marks_from_state(doc: dict[str, Any], players: tuple[str, ...], source: str) -> tuple[dict[str, Marks], list[Unsure]]:
    """The saved marks and unsure reads, checked against the game's players (StateError naming the field)."""
    raw = doc.get("marks")
    if not isinstance(raw, dict):
        raise corrupt_state(source, "marks", "a table of players' marks")
    marks: dict[str, Marks] = {}
    for who, entry in raw.items():
        where = f"marks.{who}"
        if who not in players:
            raise corrupt_state(source, where, "the marks of a player of this game")
        if not isinstance(entry, dict) or entry.get("from") not in SOURCES or not isinstance(entry.get("table"), dict):
            raise corrupt_state(source, where, "from (scan or typed) and a table")
        if entry["table"].get("name") != who:
            raise corrupt_state(source, f"{where}.table.name", repr(who))
        marks[who] = Marks(entry["from"], entry["table"])
    raw_unsure = doc.get("unsure")
    if not isinstance(raw_unsure, list):
        raise corrupt_state(source, "unsure", "a list")
    unsure = [_unsure(u, f"unsure[{i}]", players, source) for i, u in enumerate(raw_unsure)]
    return marks, unsure


def _unsure(u: object, where: str, players: tuple[str, ...], source: str) -> Unsure:
    """One saved unsure read."""
    if not isinstance(u, dict) or u.get("player") not in players:
        raise corrupt_state(source, f"{where}.player", "a player of this game")
    confidence = u.get("confidence")
    if not isinstance(confidence, (int, float)) or isinstance(confidence, bool) or not 0 <= confidence <= 1:
        raise corrupt_state(source, f"{where}.confidence", "a number from 0 to 1")
    for key in ("field", "message"):
        if not plain(u.get(key)):
            raise corrupt_state(source, f"{where}.{key}", "a string of plain text")
    return Unsure(u["player"], u["field"], float(confidence), u["message"])


def set_marks(game: Game, who: str, marks: Marks, unsure: list[Unsure]) -> None:
    """Keep ``who``'s sheet (replacing an earlier one and its unsure reads) and its new unsure reads."""
    game.marks[who] = marks
    game.unsure = [u for u in game.unsure if u.player != who] + unsure


def finish_check(game: Game, who: str, table: dict[str, Any], sheet_unsure: bool) -> tuple[dict[str, Any], list[Unsure]]:
    """A sheet's turn boxes against the tracker's finish (solo/party): the table to keep, and the disagreements.

    ``sheet_unsure`` says the sheet's turn boxes were not marked exactly once;
    the tracker's turn then stands. Where both are known and differ, the
    tracker's turn is scored and the read is unsure, naming both.
    """
    if not game.dice:
        return table, []
    tracked = game.finished.get(who)
    marked = None if sheet_unsure else table.get("finished_turn")
    if tracked is None:
        if marked is None:
            return table, []
        return table, [Unsure(who, "finished_turn", 0.0,
                              f"finished_turn: the sheet's turn boxes say turn {marked}, but the tracker has no finish "
                              f"for {who} (`printkit turns finish {who} --turn {marked}` records it)")]
    kept = {**table, "finished_turn": tracked}
    if marked is None or marked == tracked:
        return kept, []
    return kept, [Unsure(who, "finished_turn", 0.0, f"finished_turn: the sheet's turn boxes say turn {marked}, "
                         f"the tracker says turn {tracked} (scored with the tracker's)")]


def missing_marks(game: Game) -> list[str]:
    """The players whose sheet is neither scanned nor typed yet, in seating order."""
    return [p for p in game.players if p not in game.marks]


def record_doc(game: Game) -> dict[str, Any]:
    """The game record ``printkit score`` scores: the map, the mode, every player's marks with the tracker's finish."""
    players: list[dict[str, Any]] = []
    for who in game.players:
        table = dict(game.marks[who].table)
        if not game.dice:
            table.pop("finished_turn", None)
        elif who in game.finished:
            table["finished_turn"] = game.finished[who]
        players.append(table)
    return {"map": game.map.source, "mode": game.mode, "players": players}
