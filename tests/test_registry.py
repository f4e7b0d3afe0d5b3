"""The one registry of games: every entry resolves, dispatch goes through it, a new game needs one entry."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from printkit import registry
from printkit.errors import DataError
from printkit.loading.maps import bundled_maps
from printkit.resources import data_dir

GAMES = Path(__file__).parent / "data" / "games"


def test_the_registry_lists_each_game_once_with_its_data_file() -> None:
    assert registry.game_ids() == ("around-the-world", "trekking-the-world", "globetrotting", "wereldsteden")
    for game in registry.GAMES:
        assert (data_dir("maps") / f"{game.id}.toml").is_file()


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.id)
def test_every_entry_resolves_to_real_functions(game: registry.GameEntry) -> None:
    data = game.load("world") if game.id == registry.ATW else game.load()
    assert data.id == ("world" if game.id == registry.ATW else game.id)
    assert game.sheet_builders() and all(callable(b) for b in game.sheet_builders().values())


def test_sheet_kinds_come_from_the_games_sheet_module() -> None:
    assert registry.sheet_kinds("world") == ("map", "tracker", "scorepad")
    assert registry.sheet_kinds("maps/europe.toml") == ("map", "tracker", "scorepad")
    assert registry.sheet_kinds("wereldsteden") == ("tracker", "aid")
    assert registry.sheet_kinds("globetrotting") == ("passport",)
    with pytest.raises(registry.UnknownSheet, match="no sheet 'passport' for an Around the World map; "
                                                     "choose one of: map, tracker, scorepad"):
        registry.build_sheet("passport", "world", [], "a4")


def test_companions_are_named_by_the_registry() -> None:
    assert {g.id: g.companion for g in registry.GAMES} == {
        "around-the-world": "turns", "trekking-the-world": None, "globetrotting": "abby", "wereldsteden": "wereldsteden",
    }


def test_unknown_game_key_names_the_known_games() -> None:
    with pytest.raises(DataError) as info:
        registry.score_document({"game": "chess"}, "g.toml", Path("."))
    assert info.value.problems == ["g.toml: game: unknown game 'chess' (games: around-the-world, "
                                   "trekking-the-world, globetrotting, wereldsteden)"]


def test_unavailable_game_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    trek = registry.find_game("trekking-the-world")
    broken = trek._replace(record="no_such_module:read_record")
    monkeypatch.setattr(registry, "GAMES", tuple(broken if g is trek else g for g in registry.GAMES))
    with pytest.raises(DataError) as info:
        registry.score_document({"game": "trekking-the-world"}, "g.toml", Path("."))
    assert info.value.problems == ["g.toml: game: scoring trekking-the-world is not available in this printkit"]


def test_a_fifth_game_needs_only_its_modules_and_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A made-up game wired by one registry entry is scored and rendered like the bundled ones."""
    from printkit.layout.primitives import Document, Page, Text
    from printkit.rules.report import GameScore, PlayerScore, Section
    from printkit.sheets.builder import Sheet

    module = types.ModuleType("voyage_game")

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

    module.load = lambda name="voyage": types.SimpleNamespace(id="voyage")  # type: ignore[attr-defined]
    module.read_record, module.score_record = read_record, score_record  # type: ignore[attr-defined]
    module.SHEETS = {"scorepad": scorepad}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "voyage_game", module)
    entry = registry.GameEntry("voyage", data="voyage_game:load", record="voyage_game:read_record",
                               score="voyage_game:score_record", sheets="voyage_game:SHEETS")
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, entry))
    doc = {"game": "voyage", "players": [{"name": "Ann", "ports": 3}, {"name": "Bo", "ports": 5}]}
    result, title = registry.score_document(doc, "v.toml", Path("."))
    assert (title, [p.total for p in result.players], result.winners) == ("Voyage", [30, 50], ("Bo",))
    sheet = registry.build_sheet("scorepad", "voyage", ["Ann", "Bo"], "a4")
    assert [p.items[0].text for p in sheet.document.pages] == ["Ann", "Bo"]  # type: ignore[attr-defined]
    assert sheet.geometry is None


def test_maps_are_around_the_world_subjects() -> None:
    for map_id in bundled_maps():
        entry, data = registry.sheet_subject(map_id)
        assert (entry.id, data.id) == ("around-the-world", map_id)
    assert registry.score_file(GAMES / "world-chris.toml").players[0].total == 46
