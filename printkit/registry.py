"""The one registry of games: what each game loads, how its records are read and scored, its sheets, its commands.

In the spirit of python-chess's ``VARIANTS``: one typed :class:`Game` per game in :data:`GAMES`, found by
:func:`find_game`; adding a game is its modules and one entry here (see ``docs/architecture.md``). A
``Game[M, R, L]`` is typed by its model ``M``, record ``R`` and shared layout ``L``, so ``mypy --strict`` checks its
parts fit together. Each part is a small function that imports its module when called (``printkit --help`` and
``roll`` stay light); :data:`GAMES` offers only operations closed over each game's own types (:class:`Playable`,
:class:`Subject`).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from printkit.errors import DataError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path
    from typing import TypeAlias

    from printkit.model.games import Globetrotting, Trekking, Wereldsteden
    from printkit.model.maps import GameMap
    from printkit.model.records import AtwRecord, GlobetrottingRecord, TrekkingRecord, WereldstedenRecord
    from printkit.rules.report import GameScore
    from printkit.sheets.atw import MapLayout
    from printkit.sheets.builder import Prepared, Sheet, SheetBuilder

ATW = "around-the-world"


class Model(Hashable, Protocol):
    """What the registry needs of a game's data model: its id, and to be frozen (a layout of it is remembered)."""

    @property
    def id(self) -> str:
        """The model's id (a map's or a game's)."""


class Record(Protocol):
    """What the registry needs of a typed record: its printed title."""

    @property
    def title(self) -> str:
        """The title a score is printed under."""


M = TypeVar("M", bound=Model)
R = TypeVar("R", bound=Record)
L = TypeVar("L")
T = TypeVar("T")

if TYPE_CHECKING:  # the shapes of a game's parts (annotations only: nothing to build at start-up)
    Part: TypeAlias = Callable[[], T]  # imports the part's module when called, and gives the part
    Loader: TypeAlias = Callable[[str], M]  # (name_or_path) -> the data model
    RecordReader: TypeAlias = Callable[[dict[str, object], str, Path], R]  # (doc, source, base_dir) -> record
    Scorer: TypeAlias = Callable[[R], GameScore]
    Content: TypeAlias = Callable[[M], "tuple[str | bytes, ...] | None"]  # what the model was read from


class UnknownSheet(UsageError):
    """A sheet kind the subject does not have (a usage error on the command line)."""


def _available(part: Part[T], what: str) -> T:
    """A game's part, its module imported now (DataError if this install lacks a printkit module it needs)."""
    try:
        return part()
    except ImportError as exc:
        if exc.name != "printkit" and not (exc.name or "").startswith("printkit."):
            raise
        raise DataError([f"{what} is not available in this printkit"]) from None


class Command:
    """A command of the command line that a game brings: its name, where it lives, its one-line help."""

    __slots__ = ("name", "ref", "help")

    def __init__(self, name: str, ref: str, help: str) -> None:
        self.name, self.ref, self.help = name, ref, help  # ref: "printkit.cli.<module>:<attribute>"

    def load(self, kind: type[T]) -> T:
        """The command, its module imported now (TypeError if it is not a ``kind``)."""
        import importlib

        module, _, attribute = self.ref.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, kind):
            raise TypeError(f"{self.ref} is not a {kind.__name__}")
        return command


class Game(Generic[M, R, L]):
    """One game: its id, its typed parts (each a function that imports it when called), its commands.

    ``data``: its model ``M``'s loader; ``record``: its record ``R``'s reader; ``score``: its rules; ``sheets``:
    kind -> builder(model, names, paper); ``prepared``, ``content``: what a kind's pages share (a layout ``L``, kept
    on disk by what the model was read from); ``companion``: the command that plays it; ``modes``: its scores' modes.
    """

    __slots__ = ("id", "data", "record", "score", "sheets", "prepared", "content", "companion", "commands", "modes")

    def __init__(self, id: str, *, data: Part[Loader[M]], record: Part[RecordReader[R]], score: Part[Scorer[R]],
                 sheets: Part[Mapping[str, SheetBuilder[M]]], commands: tuple[Command, ...] = (),
                 prepared: Part[Mapping[str, Prepared[M, L]]] | None = None, content: Part[Content[M]] | None = None,
                 companion: str | None = None, modes: tuple[str, ...] = ("multiplayer",)) -> None:
        self.id, self.data, self.record, self.score, self.sheets, self.modes = id, data, record, score, sheets, modes
        self.prepared, self.content, self.companion, self.commands = prepared, content, companion, commands

    def load(self, name_or_path: str | None = None) -> M:
        """The game's data model (for Around the World: a map, by id or path; else its own file by default)."""
        loader = _available(self.data, f"the data of {self.id}")
        return loader(self.id if name_or_path is None else name_or_path)

    def read_record(self, doc: dict[str, object], source: str, base_dir: Path) -> R:
        """A parsed game record as this game's typed record (DataError listing every problem)."""
        try:
            reader = _available(self.record, f"scoring {self.id}")
        except DataError as exc:
            raise DataError([f"{source}: game: {exc.problems[0]}"]) from None
        return reader(doc, source, base_dir)

    def score_record(self, record: R) -> GameScore:
        """The scores of a typed record of this game."""
        return _available(self.score, f"scoring {self.id}")(record)

    def score_document(self, doc: dict[str, object], source: str, base_dir: Path) -> tuple[GameScore, str]:
        """Read and score a parsed record of this game, with its printed title."""
        record = self.read_record(doc, source, base_dir)
        return self.score_record(record), record.title

    def sheet_builders(self) -> Mapping[str, SheetBuilder[M]]:
        """This game's sheet kinds, in listing order, with their builders."""
        return _available(self.sheets, f"printable sheets of {self.id}")

    def sheet_kinds(self) -> tuple[str, ...]:
        """This game's sheet kinds, in listing order."""
        return tuple(self.sheet_builders())

    def subject(self, name_or_path: str | None = None) -> Loaded[M, R, L]:
        """The game with its model loaded, ready to draw sheets of."""
        return Loaded(self, self.load(name_or_path))


class Playable(Protocol):
    """A game of :data:`GAMES` as the rest of printkit sees it: only operations closed over its own types."""

    id: str  # as a record's `game =` key gives it
    companion: str | None  # the command that plays it at the table
    commands: tuple[Command, ...]  # the commands of the command line it brings
    modes: tuple[str, ...]  # the modes its scores name

    def score_document(self, doc: dict[str, object], source: str, base_dir: Path) -> tuple[GameScore, str]:
        """Read and score a parsed record of this game, with its printed title."""

    def sheet_kinds(self) -> tuple[str, ...]:
        """Its sheet kinds, in listing order."""

    def subject(self, name_or_path: str | None = None) -> Subject:
        """The game with its model loaded."""


class Subject(Protocol):
    """What ``render`` draws sheets of: a game and its loaded model."""

    @property
    def game(self) -> Playable:
        """The game."""

    @property
    def model(self) -> Model:
        """Its loaded data model (for Around the World: the map)."""

    def build(self, kind: str, names: list[str], paper: str) -> Sheet:
        """Lay out sheet ``kind`` for these players on ``paper``."""


class Loaded(Generic[M, R, L]):
    """A game and its loaded model: a :class:`Subject` whose builders are checked against the model's type."""

    __slots__ = ("game", "model")

    def __init__(self, game: Game[M, R, L], model: M) -> None:
        self.game, self.model = game, model

    def build(self, kind: str, names: list[str], paper: str) -> Sheet:
        """Lay out sheet ``kind`` of the model for these players on ``paper`` (from its shared layout, if it has one)."""
        entry, data = self.game, self.model
        prepared = _prepared(entry, kind)
        if prepared is None:
            return entry.sheet_builders()[kind](data, names, paper)
        made = _kept_layout(entry, kind, prepared, data, paper)
        assert isinstance(made, prepared.kind)  # as the disk cache checks it
        return prepared.build(data, names, paper, made)


# The parts of each game, one small function per part: the import runs when the part is first used.

def _map_loader() -> Loader[GameMap]:
    from printkit.loading.maps import load_map
    return load_map


def _map_content() -> Content[GameMap]:
    from printkit.loading.maps import map_content
    return map_content


def _atw_record() -> RecordReader[AtwRecord]:
    from printkit.loading.records.atw import read_record
    return read_record


def _atw_score() -> Scorer[AtwRecord]:
    from printkit.rules.atw import score_record
    return score_record


def _atw_sheets() -> Mapping[str, SheetBuilder[GameMap]]:
    from printkit.sheets.atw import SHEETS
    return SHEETS


def _atw_prepared() -> Mapping[str, Prepared[GameMap, MapLayout]]:
    from printkit.sheets.atw import PREPARED
    return PREPARED


def _trekking_loader() -> Loader[Trekking]:
    from printkit.loading.games import load_trekking
    return load_trekking


def _trekking_record() -> RecordReader[TrekkingRecord]:
    from printkit.loading.records.trekking import read_record
    return read_record


def _trekking_score() -> Scorer[TrekkingRecord]:
    from printkit.rules.trekking import score_record
    return score_record


def _trekking_sheets() -> Mapping[str, SheetBuilder[Trekking]]:
    from printkit.sheets.trekking import SHEETS
    return SHEETS


def _globetrotting_loader() -> Loader[Globetrotting]:
    from printkit.loading.games import load_globetrotting
    return load_globetrotting


def _globetrotting_record() -> RecordReader[GlobetrottingRecord]:
    from printkit.loading.records.globetrotting import read_record
    return read_record


def _globetrotting_score() -> Scorer[GlobetrottingRecord]:
    from printkit.rules.globetrotting import score_record
    return score_record


def _globetrotting_sheets() -> Mapping[str, SheetBuilder[Globetrotting]]:
    from printkit.sheets.globetrotting import SHEETS
    return SHEETS


def _wereldsteden_loader() -> Loader[Wereldsteden]:
    from printkit.loading.games import load_wereldsteden
    return load_wereldsteden


def _wereldsteden_record() -> RecordReader[WereldstedenRecord]:
    from printkit.loading.records.wereldsteden import read_record
    return read_record


def _wereldsteden_score() -> Scorer[WereldstedenRecord]:
    from printkit.rules.wereldsteden import score_record
    return score_record


def _wereldsteden_sheets() -> Mapping[str, SheetBuilder[Wereldsteden]]:
    from printkit.sheets.wereldsteden import SHEETS
    return SHEETS


AROUND_THE_WORLD: Game[GameMap, AtwRecord, MapLayout] = Game(
    ATW, data=_map_loader, record=_atw_record, score=_atw_score, sheets=_atw_sheets,
    prepared=_atw_prepared, content=_map_content, companion="turns", modes=("multiplayer", "solo", "party"), commands=(
        Command("roll", "printkit.cli.roll_cmd:roll", "Roll the two solo/party dice."),
        Command("turns", "printkit.cli.turns_cmd:turns", "Track a solo/party game turn by turn."),
        Command("host", "printkit.cli.host_cmd:host", "Write an offline host screen (HTML)."),
    ))
TREKKING: Game[Trekking, TrekkingRecord, None] = Game(
    "trekking-the-world", data=_trekking_loader, record=_trekking_record, score=_trekking_score,
    sheets=_trekking_sheets)
GLOBETROTTING: Game[Globetrotting, GlobetrottingRecord, None] = Game(
    "globetrotting", data=_globetrotting_loader, record=_globetrotting_record, score=_globetrotting_score,
    sheets=_globetrotting_sheets, companion="abby", modes=("multiplayer", "solo"),
    commands=(Command("abby", "printkit.cli.abby_cmd:abby", "Play Globetrotting solo against Abby."),))
WERELDSTEDEN: Game[Wereldsteden, WereldstedenRecord, None] = Game(
    "wereldsteden", data=_wereldsteden_loader, record=_wereldsteden_record, score=_wereldsteden_score,
    sheets=_wereldsteden_sheets, companion="wereldsteden", modes=("standard", "variant"),
    commands=(Command("wereldsteden", "printkit.cli.wereldsteden_cmd:wereldsteden",
                      "Deal Wereldsteden winning tiles."),))

GAMES: tuple[Playable, ...] = (AROUND_THE_WORLD, TREKKING, GLOBETROTTING, WERELDSTEDEN)


def game_ids() -> tuple[str, ...]:
    """Every game's id, Around the World first."""
    return tuple(g.id for g in GAMES)


def find_game(game_id: object) -> Playable:
    """The game ``game_id`` names (DataError naming the known games if there is none)."""
    from printkit.errors import did_you_mean
    from printkit.model.names import shown
    from printkit.model.words import match_id

    found = match_id(game_id, game_ids())
    for entry in GAMES:
        if entry.id == found:
            return entry
    hint = did_you_mean(game_id, game_ids())
    raise DataError([f"unknown game {shown(game_id)}{hint} (games: {', '.join(game_ids())})"])


def companion_commands() -> tuple[Command, ...]:
    """The commands the games bring, in the order of :data:`GAMES` (the command line lists them after its own)."""
    return tuple(c for g in GAMES for c in g.commands)


def score_document(doc: dict[str, object], source: str, base_dir: Path) -> tuple[GameScore, str]:
    """Score a parsed game record (its ``game`` key picks the game) and give its printed title."""
    game = doc.get("game", ATW)
    try:
        entry = find_game(game)
    except DataError as exc:
        raise DataError([f"{source}: game: {exc.problems[0]}"]) from None
    return entry.score_document(doc, source, base_dir)


def score_file(path: str | Path) -> GameScore:
    """Read and score one game file."""
    from pathlib import Path

    from printkit.loading.records import load_record

    p = Path(path)
    return score_document(load_record(p), str(path), p.parent)[0]


def sheet_subject(subject: str) -> Subject:
    """The game a ``render`` subject names with its loaded data: another game's id, else a map."""
    entry = next((g for g in GAMES if g.id == subject and g.id != ATW), None)
    if entry is not None:
        return entry.subject()
    return find_game(ATW).subject(subject)


def sheet_kinds(subject: str) -> tuple[str, ...]:
    """The sheet kinds ``subject`` has, in listing order, without loading its data."""
    entry = next((g for g in GAMES if g.id == subject), find_game(ATW))
    return entry.sheet_kinds()


def build_sheet(kind: str, subject: str, names: list[str], paper: str) -> Sheet:
    """Lay out sheet ``kind`` of ``subject`` (a map or another game) for these players on ``paper``."""
    kinds = sheet_kinds(subject)
    if kind not in kinds:
        what = subject if subject in game_ids() else "an Around the World map"
        raise UnknownSheet(f"no sheet {kind!r} for {what}; choose one of: {', '.join(kinds)}")
    return sheet_subject(subject).build(kind, names, paper)


def _prepared(entry: Game[M, R, L], kind: str) -> Prepared[M, L] | None:
    """The layout sheet ``kind`` of this game shares between its pages and is built from, if it has one."""
    return None if entry.prepared is None else _available(entry.prepared, f"sheets of {entry.id}").get(kind)


@lru_cache(maxsize=16)  # per process: a scan's many pages lay their sheet out once
def _kept_layout(entry: Game[M, R, L], kind: str, prepared: Prepared[M, L], data: M, paper: str) -> object:
    """The layout of ``data``'s sheet ``kind`` on ``paper``, from the disk cache (made and kept there if need be)."""
    content = None if entry.content is None else _available(entry.content, f"the data of {entry.id}")(data)
    if content is None:  # a model not read from files: nothing to key a kept layout by
        return prepared.make(data, paper)
    from printkit import cache

    return cache.remembered(f"{entry.id}-{kind}", (*content, paper), prepared.kind, lambda: prepared.make(data, paper))


def forget_layouts() -> None:
    """Forget the layouts remembered in this process (the disk cache keeps its own)."""
    _kept_layout.cache_clear()
