"""The one registry of games: what each game loads, how its records are read and scored, its sheets.

In the spirit of python-chess's ``VARIANTS``: one :class:`GameEntry` per game,
found by :func:`find_game`. The command line, scoring and rendering all look
games up here, so adding a game is its data file, its rules and sheets
modules, and one entry in :data:`GAMES` (see ``docs/architecture.md``).

Entries name their functions as ``"module:attribute"`` and import them only
when used, so ``printkit --help`` and ``printkit roll`` stay light.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from printkit.errors import DataError, UsageError

if TYPE_CHECKING:
    from printkit.rules.report import GameScore
    from printkit.sheets.builder import Prepared, Sheet

ATW = "around-the-world"
SheetBuilder = Callable[[Any, list[str], str], "Sheet"]


class UnknownSheet(UsageError):
    """A sheet kind the subject does not have (a usage error on the command line)."""


def _resolve(ref: str, what: str) -> Any:
    """Import ``"package.module:attribute"`` and return the attribute (DataError if this install lacks it)."""
    module_name, _, attribute = ref.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise DataError([f"{what} is not available in this printkit"]) from None
    if not hasattr(module, attribute):
        raise DataError([f"{what} is not available in this printkit"])
    return getattr(module, attribute)


class GameEntry(NamedTuple):
    """One game: its id, where its data, record reader, scorer, sheets and companion live."""

    id: str
    data: str  # "module:function" (name_or_path: str | None) -> the game's data model
    record: str  # "module:function" (doc, source, base_dir) -> a typed record holding its data model
    score: str  # "module:function" (record) -> GameScore
    sheets: str  # "module:attribute", a dict kind -> builder(data model, names, paper) -> Sheet
    companion: str | None = None  # the command that plays it at the table
    prepared: str | None = None  # "module:attribute", a dict kind -> Prepared (a layout kept on disk, its builder)
    content: str | None = None  # "module:function" (data model) -> the names and bytes it was read from, or None

    def load(self, name_or_path: str | None = None) -> Any:
        """The game's data model (for Around the World: a map, by id or path)."""
        loader = _resolve(self.data, f"the data of {self.id}")
        return loader() if name_or_path is None else loader(name_or_path)

    def read_record(self, doc: dict[str, Any], source: str, base_dir: Path) -> Any:
        """A parsed game record as this game's typed record (DataError listing every problem)."""
        try:
            reader = _resolve(self.record, f"scoring {self.id}")
        except DataError as exc:
            raise DataError([f"{source}: game: {exc.problems[0]}"]) from None
        return reader(doc, source, base_dir)

    def score_record(self, record: Any) -> GameScore:
        """The scores of a typed record of this game."""
        result: GameScore = _resolve(self.score, f"scoring {self.id}")(record)
        return result

    def sheet_builders(self) -> dict[str, SheetBuilder]:
        """This game's sheet kinds, in listing order, with their builders."""
        builders: dict[str, SheetBuilder] = _resolve(self.sheets, f"printable sheets of {self.id}")
        return builders


GAMES: tuple[GameEntry, ...] = (
    GameEntry(ATW, data="printkit.loading.maps:load_map", record="printkit.loading.records.atw:read_record",
              score="printkit.rules.atw:score_record", sheets="printkit.sheets.atw:SHEETS", companion="turns",
              prepared="printkit.sheets.atw:PREPARED", content="printkit.loading.maps:map_content"),
    GameEntry("trekking-the-world", data="printkit.loading.games:load_trekking",
              record="printkit.loading.records.trekking:read_record", score="printkit.rules.trekking:score_record",
              sheets="printkit.sheets.trekking:SHEETS"),
    GameEntry("globetrotting", data="printkit.loading.games:load_globetrotting",
              record="printkit.loading.records.globetrotting:read_record",
              score="printkit.rules.globetrotting:score_record", sheets="printkit.sheets.globetrotting:SHEETS",
              companion="abby"),
    GameEntry("wereldsteden", data="printkit.loading.games:load_wereldsteden",
              record="printkit.loading.records.wereldsteden:read_record",
              score="printkit.rules.wereldsteden:score_record", sheets="printkit.sheets.wereldsteden:SHEETS",
              companion="wereldsteden"),
)  # fmt: skip


def game_ids() -> tuple[str, ...]:
    """Every game's id, Around the World first."""
    return tuple(g.id for g in GAMES)


def find_game(game_id: object) -> GameEntry:
    """The entry of ``game_id`` (DataError naming the known games if there is none)."""
    from printkit.model.names import shown
    from printkit.errors import did_you_mean
    from printkit.model.words import match_id

    found = match_id(game_id, game_ids())
    for entry in GAMES:
        if entry.id == found:
            return entry
    hint = did_you_mean(game_id, game_ids())
    raise DataError([f"unknown game {shown(game_id)}{hint} (games: {', '.join(game_ids())})"])


def score_document(doc: dict[str, Any], source: str, base_dir: Path) -> tuple[GameScore, str]:
    """Score a parsed game record (its ``game`` key picks the game) and give its printed title."""
    game = doc.get("game", ATW)
    try:
        entry = find_game(game)
    except DataError as exc:
        raise DataError([f"{source}: game: {exc.problems[0]}"]) from None
    record = entry.read_record(doc, source, base_dir)
    title: str = record.title
    return entry.score_record(record), title


def score_file(path: str | Path) -> GameScore:
    """Read and score one game file."""
    from printkit.loading.records import load_record

    p = Path(path)
    return score_document(load_record(p), str(path), p.parent)[0]


def sheet_subject(subject: str) -> tuple[GameEntry, Any]:
    """The game a ``render`` subject names and its loaded data: another game's id, else a map."""
    entry = next((g for g in GAMES if g.id == subject and g.id != ATW), None)
    if entry is not None:
        return entry, entry.load()
    atw = find_game(ATW)
    return atw, atw.load(subject)


def sheet_kinds(subject: str) -> tuple[str, ...]:
    """The sheet kinds ``subject`` has, in listing order, without loading its data."""
    entry = next((g for g in GAMES if g.id == subject), find_game(ATW))
    return tuple(entry.sheet_builders())


def build_sheet(kind: str, subject: str, names: list[str], paper: str) -> Sheet:
    """Lay out sheet ``kind`` of ``subject`` (a map or another game) for these players on ``paper``."""
    kinds = sheet_kinds(subject)
    if kind not in kinds:
        what = subject if subject in game_ids() else "an Around the World map"
        raise UnknownSheet(f"no sheet {kind!r} for {what}; choose one of: {', '.join(kinds)}")
    entry, data = sheet_subject(subject)
    prepared = _prepared(entry, kind)
    if prepared is None:
        return entry.sheet_builders()[kind](data, names, paper)
    return prepared.build(data, names, paper, prepared_layout(entry, kind, data, paper))


def _prepared(entry: GameEntry, kind: str) -> Prepared[Any, Any] | None:
    """The layout sheet ``kind`` of this game shares between its pages and builds from, if it has one."""
    if entry.prepared is None or entry.content is None:
        return None
    found: Prepared[Any, Any] | None = _resolve(entry.prepared, f"sheets of {entry.id}").get(kind)
    return found


@lru_cache(maxsize=16)
def prepared_layout(entry: GameEntry, kind: str, data: Any, paper: str) -> Any:
    """The layout sheet ``kind`` of ``data`` shares on ``paper``: from the disk cache (made and kept there when
    missing or stale), remembered per process so a scan's many pages lay a sheet out once."""
    prepared = _prepared(entry, kind)
    assert prepared is not None and entry.content is not None  # only called for a kind that has one
    content: tuple[str | bytes, ...] | None = _resolve(entry.content, f"the data of {entry.id}")(data)
    if content is None:
        return prepared.make(data, paper)
    from printkit import cache

    return cache.remembered(f"{entry.id}-{kind}", (*content, paper), prepared.kind, lambda: prepared.make(data, paper))
