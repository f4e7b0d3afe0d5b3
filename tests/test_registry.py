"""The one registry of games: every entry resolves, dispatch goes through it, a new game needs one entry."""

from __future__ import annotations

import copy
import subprocess
import sys
import types
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from printkit import registry
from printkit.cli import cli
from printkit.errors import DataError
from printkit.loading.maps import bundled_maps
from printkit.resources import data_dir

GAMES = Path(__file__).parent / "data" / "games"
ROOT = Path(__file__).resolve().parents[1]


def test_the_registry_lists_each_game_once_with_its_data_file() -> None:
    assert registry.game_ids() == ("around-the-world", "trekking-the-world", "globetrotting", "wereldsteden")
    for game in registry.GAMES:
        assert (data_dir("maps") / f"{game.id}.toml").is_file()


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.id)
def test_every_entry_resolves_to_real_functions(game: registry.Playable) -> None:
    subject = game.subject("world") if game.id == registry.ATW else game.subject()
    assert subject.model.id == ("world" if game.id == registry.ATW else game.id)
    assert subject.game is game
    assert isinstance(game, registry.Game)  # the typed object behind the closed view
    assert game.sheet_builders() and all(callable(b) for b in game.sheet_builders().values())
    assert game.sheet_kinds() == tuple(game.sheet_builders())


def test_sheet_kinds_come_from_the_games_sheet_module() -> None:
    assert registry.sheet_kinds("world") == ("map", "tracker", "scorepad")
    assert registry.sheet_kinds("maps/europe.toml") == ("map", "tracker", "scorepad")
    assert registry.sheet_kinds("wereldsteden") == ("tracker", "aid")
    assert registry.sheet_kinds("globetrotting") == ("passport",)
    with pytest.raises(registry.UnknownSheet, match="no sheet 'passport' for an Around the World map; "
                                                     "choose one of: map, tracker, scorepad"):
        registry.build_sheet("passport", "world", [], "a4")


def test_each_game_lists_its_own_sheet_kinds() -> None:
    assert {g.id: g.sheet_kinds() for g in registry.GAMES} == {
        "around-the-world": ("map", "tracker", "scorepad"), "trekking-the-world": ("scorepad",),
        "globetrotting": ("passport",), "wereldsteden": ("tracker", "aid"),
    }


def test_companions_are_named_by_the_registry() -> None:
    assert {g.id: g.companion for g in registry.GAMES} == {
        "around-the-world": "turns", "trekking-the-world": None, "globetrotting": "abby", "wereldsteden": "wereldsteden",
    }
    assert {g.id: [c.name for c in g.commands] for g in registry.GAMES} == {
        "around-the-world": ["roll", "turns", "host"], "trekking-the-world": [],
        "globetrotting": ["abby"], "wereldsteden": ["wereldsteden"],
    }
    assert all(g.companion in [c.name for c in g.commands] for g in registry.GAMES if g.companion)


def test_the_help_lists_the_core_commands_then_the_registrys_companions() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    rows = [line.split(None, 1) for line in result.output.split("Commands:")[1].splitlines() if line.strip()]
    companions = [[c.name, c.help] for c in registry.companion_commands()]
    assert companions == [["roll", "Roll the two solo/party dice."], ["turns", "Track a solo/party game turn by turn."],
                          ["host", "Write an offline host screen (HTML)."],
                          ["abby", "Play Globetrotting solo against Abby."],
                          ["wereldsteden", "Deal Wereldsteden winning tiles."]]
    assert [name for name, _ in rows[:5]] == ["maps", "render", "score", "scan", "history"] and rows[5:] == companions
    ctx = click.Context(cli)
    for command in registry.companion_commands():
        loaded = cli.get_command(ctx, command.name)
        assert isinstance(loaded, click.Command) and loaded is command.load(click.Command)
        assert loaded.name == command.name
    assert cli.get_command(ctx, "no-such-command") is None


def test_a_companion_that_is_not_a_command_is_refused() -> None:
    with pytest.raises(TypeError, match="printkit.registry:ATW is not a Command"):
        registry.Command("atw", "printkit.registry:ATW", "Not a command.").load(click.Command)


def test_unknown_game_key_names_the_known_games() -> None:
    with pytest.raises(DataError) as info:
        registry.score_document({"game": "chess"}, "g.toml", Path("."))
    assert info.value.problems == ["g.toml: game: unknown game 'chess' (games: around-the-world, "
                                   "trekking-the-world, globetrotting, wereldsteden)"]


def _missing_part() -> object:
    import printkit.no_such_module  # type: ignore[import-not-found]  # noqa: F401

    raise AssertionError("unreachable")


def _missing_dependency() -> object:
    import no_such_dependency  # type: ignore[import-not-found]  # noqa: F401

    raise AssertionError("unreachable")


def test_unavailable_game_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    trek = registry.find_game("trekking-the-world")
    broken = copy.copy(trek)
    broken.record = _missing_part  # type: ignore[misc]
    monkeypatch.setattr(registry, "GAMES", tuple(broken if g is trek else g for g in registry.GAMES))
    with pytest.raises(DataError) as info:
        registry.score_document({"game": "trekking-the-world"}, "g.toml", Path("."))
    assert info.value.problems == ["g.toml: game: scoring trekking-the-world is not available in this printkit"]
    broken.sheets = _missing_part  # type: ignore[misc]
    with pytest.raises(DataError, match="^printable sheets of trekking-the-world is not available in this printkit$"):
        registry.sheet_kinds("trekking-the-world")
    broken.record = _missing_dependency  # type: ignore[misc]  # not printkit's own: the import error as it is
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency"):
        registry.score_document({"game": "trekking-the-world"}, "g.toml", Path("."))


def test_a_fifth_game_needs_only_its_modules_and_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A made-up game wired by one registry entry is scored and rendered like the bundled ones."""
    from printkit.layout.primitives import Document, Page, Text
    from printkit.rules.report import GameScore, PlayerScore, Section
    from printkit.sheets.builder import Sheet

    class Record:
        title = "Voyage"

        def __init__(self, ports: dict[str, int]) -> None:
            self.ports = ports

    def read_record(doc: dict[str, object], source: str, base_dir: Path) -> Record:
        players = doc["players"]
        assert isinstance(players, list)
        return Record({p["name"]: p["ports"] for p in players})

    def score_record(record: Record) -> GameScore:
        scores = tuple(PlayerScore(n, (Section("ports", "Ports", 10 * k, f"{k} ports x 10"),), None)
                       for n, k in record.ports.items())
        best = max(s.total for s in scores)
        return GameScore("voyage", "", "multiplayer", scores, tuple(s.name for s in scores if s.total == best), "")

    def scorepad(data: object, names: list[str], paper: str) -> Sheet:
        return Sheet(Document(100, 100, tuple(Page((Text(5, 50, n, 10),)) for n in names or [""])))

    def load(name_or_path: str = "voyage") -> types.SimpleNamespace:
        return types.SimpleNamespace(id=name_or_path)

    entry = registry.Game("voyage", data=lambda: load, record=lambda: read_record, score=lambda: score_record,
                          sheets=lambda: {"scorepad": scorepad})
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, entry))
    doc = {"game": "voyage", "players": [{"name": "Ann", "ports": 3}, {"name": "Bo", "ports": 5}]}
    result, title = registry.score_document(doc, "v.toml", Path("."))
    assert (title, [p.total for p in result.players], result.winners) == ("Voyage", [30, 50], ("Bo",))
    sheet = registry.build_sheet("scorepad", "voyage", ["Ann", "Bo"], "a4")
    assert [p.items[0].text for p in sheet.document.pages] == ["Ann", "Bo"]  # type: ignore[attr-defined]
    assert sheet.geometry is None


def test_maps_are_around_the_world_subjects() -> None:
    for map_id in bundled_maps():
        subject = registry.sheet_subject(map_id)
        assert (subject.game.id, subject.model.id) == ("around-the-world", map_id)
    assert registry.sheet_subject("wereldsteden").game is registry.WERELDSTEDEN
    assert registry.score_file(GAMES / "world-chris.toml").players[0].total == 46


TYPED = """
from printkit import registry
from printkit.model.maps import GameMap
from printkit.model.records import AtwRecord
from printkit.sheets.atw import MapLayout

atw, trek = registry.AROUND_THE_WORLD, registry.TREKKING
same: registry.Game[GameMap, AtwRecord, MapLayout] = registry.Game(
    "same", data=atw.data, record=atw.record, score=atw.score, sheets=atw.sheets, prepared=atw.prepared,
    content=atw.content)
other_sheets: registry.Game[GameMap, AtwRecord, None] = registry.Game(
    "x", data=atw.data, record=atw.record, score=atw.score, sheets=trek.sheets)  # error: Argument "sheets"
other_rules: registry.Game[GameMap, AtwRecord, None] = registry.Game(
    "x", data=atw.data, record=atw.record, score=trek.score, sheets=atw.sheets)  # error: Argument "score"
hidden = registry.GAMES[0].sheet_builders()  # error: "Playable" has no attribute "sheet_builders"
"""


def test_mypy_checks_that_a_games_parts_fit_its_model_and_record(tmp_path: Path) -> None:
    """A map game handed Trekking's sheets or rules fails type checking; GAMES hides each game's own types."""
    (tmp_path / "wiring.py").write_text(TYPED, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
                             "--cache-dir", "/dev/null", "--no-error-summary", str(tmp_path / "wiring.py")],
                            cwd=ROOT, capture_output=True, text=True)
    found = [(int(line.split(":")[1]), line.split(": error: ")[1]) for line in result.stdout.splitlines()
             if ": error: " in line]
    wanted = [(n, line.split("# error: ")[1]) for n, line in enumerate(TYPED.splitlines(), 1) if "# error: " in line]
    assert len(wanted) == 3 and [n for n, _ in found] == [n for n, _ in wanted], result.stdout + result.stderr
    assert all(message.startswith(want) for (_, message), (_, want) in zip(found, wanted)), result.stdout
