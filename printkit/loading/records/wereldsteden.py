"""Read a Wereldsteden game record (checked against the game's data).

A game file (TOML or JSON) looks like::

    game = "wereldsteden"
    # variant = true            # play to 8 different winning tiles
    [[players]]
    name = "Ann"
    tiles = ["rug", "fan", "rug", "mask"]   # winning tiles taken, by id or name
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printkit.errors import DataError
from printkit.loading.fields import Problems, Reader, describe
from printkit.loading.games import load_wereldsteden
from printkit.model.games import Wereldsteden
from printkit.model.records import WereldstedenPlayer, WereldstedenRecord


def _tile_id(game: Wereldsteden, value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    for t in game.tiles:
        if value.strip().lower() in (t.id, t.name.lower()):
            return t.id
    return None


def read_record(doc: dict[str, Any], source: str, base_dir: Path) -> WereldstedenRecord:
    """Check a ``game = "wereldsteden"`` record against the bundled game data."""
    game = load_wereldsteden()
    problems = Problems()
    r = Reader(problems, source)
    r.keys(doc, "", ("game", "variant", "players"))
    variant = bool(r.boolean(doc, "variant", ""))
    rows = r.tables(doc, "players", "")
    if not game.min_players <= len(rows) <= game.max_players:
        r.problem("players", f"{len(rows)} players, but {game.name} is for {game.min_players}-{game.max_players}")
    players: list[WereldstedenPlayer] = []
    seen: list[str] = []
    for path, row in rows:
        r.keys(row, path, ("name", "tiles"))
        name = r.player_name(row, path, seen)
        raw = r.listing(row, "tiles", path, "a list of winning tiles")
        tiles = []
        for i, value in enumerate(raw or []):
            tile = _tile_id(game, value)
            if tile is None:
                r.problem(f"{path}.tiles[{i}]", f"unknown winning tile {describe(value)} "
                          f"(tiles: {', '.join(t.id for t in game.tiles)})")  # fmt: skip
            tiles.append(tile or "")
        if name is not None and raw is not None:
            players.append(WereldstedenPlayer(name, tuple(tiles)))
    for t in game.tiles:
        held = sum(p.tiles.count(t.id) for p in players)
        if held > game.tiles_per_type:
            r.problem("players", f"{held} {t.id} tiles taken, but the game has {game.tiles_per_type} of each type")
    if len(problems):
        raise DataError(problems.lines)
    return WereldstedenRecord(game, tuple(players), variant, source)
