"""A club's ten years: 10,000 games go into the history and come out again byte for byte, the export a game at a time.

Speed is measured by ``python benchmarks/bench_perf.py --only history``, not here.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from history_helpers import club_games

from printkit.history import bests, exported, games, import_

GAMES = 10_000


def test_ten_thousand_games_round_trip_and_the_export_streams(tmp_path: Path) -> None:
    data = club_games(GAMES)
    assert len(data) > 4 * 2**20 * 3  # three times the old flat 4 MiB limit
    db = tmp_path / "data" / "history.sqlite3"
    assert import_(data, "club.json", db=db) == GAMES
    assert b"".join(exported("json", db=db)) == data
    held = 0
    tracemalloc.start()
    try:
        for chunk in exported("json", db=db):
            held = max(held, len(chunk))
        streamed = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert streamed < 4 * 2**20 and held < 2**20  # 14 MB written, a few hundred games held at a time
    assert len(games(db=db)) == GAMES
    assert sum(b.games for b in bests(db=db)) == sum(len(g.players) for g in games(db=db))
    assert import_(data, "club.json", db=db) == 0
