"""The history's file: where it lives, WAL and its schema, migrations, parallel writers, kill -9, bad files."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from history_helpers import EXAMPLES, scored_file

from printkit.errors import StateError
from printkit.history import data_dir, db_path, games, record
from printkit.history.store import APPLICATION_ID, VERSION, connect, migrate

ROOT = Path(__file__).resolve().parent.parent
CHRIS = EXAMPLES / "world-chris.toml"
BOUND = 120  # seconds any child process may take


def _query(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_the_data_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PRINTKIT_DATA_DIR", str(tmp_path / "mine"))
    assert data_dir() == str(tmp_path / "mine")
    assert db_path() == str(tmp_path / "mine" / "history.sqlite3")
    monkeypatch.delenv("PRINTKIT_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == str(tmp_path / "xdg" / "printkit")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: a relative path is ignored
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == str(tmp_path / "home" / ".local" / "share" / "printkit")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert data_dir() == str(tmp_path / "home" / ".local" / "share" / "printkit")


def test_a_new_history_is_a_0700_folder_a_wal_database_marked_as_printkits(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTKIT_DATA_DIR", str(tmp_path / "share" / "printkit"))
    assert record(*scored_file(CHRIS, "2024-03-07T19:30:00Z")) is True
    folder = tmp_path / "share" / "printkit"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    path = folder / "history.sqlite3"
    assert path.read_bytes()[:16] == b"SQLite format 3\x00"
    assert int.from_bytes(path.read_bytes()[68:72], "big") == APPLICATION_ID == 0x506B4869
    assert _query(path, "PRAGMA journal_mode") == [("wal",)]
    assert _query(path, "PRAGMA user_version") == [(VERSION,)] == [(2,)]
    assert _query(path, "SELECT name, name_key, total, won FROM players ORDER BY seat") == [
        ("Chris", "chris", 46, 1), ("Ana", "ana", 29, 0)]


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_folder_others_can_write_is_not_used(tmp_path: Path, mode: int) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(mode)
    with pytest.raises(StateError, match=rf"shared: the history folder is not yours alone \(writable by others, mode {mode:o}\); make it yours with chmod 700"):
        record(*scored_file(CHRIS, "2024-03-07T19:30:00Z"), db=folder / "history.sqlite3")
    assert list(folder.iterdir()) == []


def test_the_v1_schema_is_migrated_to_v2_keeping_every_game(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    assert migrate(conn, upto=1) == 0
    conn.execute("INSERT INTO games VALUES ('old', 'around-the-world', 'world', 'multiplayer', "
                 "'2023-12-31T20:00:00Z', 'the text', '{}')")
    conn.execute("INSERT INTO players VALUES ('old', 0, 'ÅSA', 40, 1), ('old', 1, 'Straße', 30, 0)")
    conn.close()
    assert _query(path, "PRAGMA user_version") == [(1,)]
    found = games(player="åsa", db=path)  # opening migrates: names compared ignoring case beyond ASCII
    assert [(g.id, [(p.name, p.total, p.won) for p in g.players]) for g in found] == [
        ("old", [("ÅSA", 40, True), ("Straße", 30, False)])]
    assert [g.id for g in games(player="STRASSE", db=path)] == ["old"]  # casefold: ß is ss
    assert _query(path, "PRAGMA user_version") == [(2,)]
    assert _query(path, "SELECT name_key FROM players ORDER BY seat") == [("åsa",), ("strasse",)]
    with connect(path) as conn:
        assert migrate(conn) == 2  # already there: nothing to do


def _write(path: Path, data: bytes) -> bytes:
    path.write_bytes(data)
    return data


def _newer(path: Path) -> bytes:
    record(*scored_file(CHRIS, "2024-03-07T19:30:00Z"), db=path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    return path.read_bytes()


def _foreign(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("INSERT INTO notes VALUES ('my shopping list')")
    conn.commit()
    conn.close()
    return path.read_bytes()


def _damaged(path: Path) -> bytes:
    record(*scored_file(CHRIS, "2024-03-07T19:30:00Z"), db=path)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)  # page 1 past the header: the schema is gone
    return _write(path, bytes(data))


BAD = {
    "not sqlite": (lambda p: _write(p, b"Chris 46, Ana 29\n" * 20), "is not a SQLite database"),
    "short": (lambda p: _write(p, b"SQLite format 3\x00"), "is not a SQLite database"),
    "another program's": (_foreign, "is not printkit's history (another program's SQLite database, application id 0x0)"),
    "newer": (_newer, "was written by a newer printkit (history schema version 3; this printkit reads up to 2)"),
    "damaged": (_damaged, "the history database is damaged"),
}


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_database_is_reported_in_one_line_and_left_byte_identical(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "history.sqlite3"
    make, said = BAD[kind]
    before = make(path)
    for attempt in (lambda: games(db=path), lambda: record(*scored_file(CHRIS, "2024-03-08T19:30:00Z"), db=path)):
        with pytest.raises(StateError) as caught:
            attempt()
        message = str(caught.value)
        assert message.startswith(f"{path}: ") and said in message and "\n" not in message, message
        assert message.endswith("; it was left untouched") or "upgrade printkit" in message
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.sqlite3"]


WRITER = """
import sys
from history_helpers import EXAMPLES, scored_file
from printkit.history import record
db, who, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
_, game = scored_file(EXAMPLES / "world-chris.toml", "2024-03-07T19:30:00Z")
added = [record(f"{who}-{i}", game, db=db) for i in range(count)]
shared = record("shared", game, db=db)
print(sum(added), int(shared), flush=True)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}


def test_parallel_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"w{n}", "10"], env=_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(4)]
    results = [w.communicate(timeout=BOUND) for w in writers]
    assert [w.returncode for w in writers] == [0, 0, 0, 0], [err for _, err in results]
    counts = [tuple(map(int, out.split())) for out, _ in results]
    assert [added for added, _ in counts] == [10, 10, 10, 10]
    assert sum(shared for _, shared in counts) == 1  # the same game recorded by all four: kept once
    ids = {g.id for g in games(db=path)}
    assert ids == {f"w{n}-{i}" for n in range(4) for i in range(10)} | {"shared"}
    assert _query(path, "SELECT count(*) FROM players") == [(41 * 2,)]
    assert _query(path, "PRAGMA integrity_check") == [("ok",)]


STUCK = """
import sys, time
from history_helpers import EXAMPLES, scored_file
from printkit.history import record
from printkit.history.queries import insert
from printkit.history.store import connect, transaction
db = sys.argv[1]
_, game = scored_file(EXAMPLES / "world-chris.toml", "2024-03-07T19:30:00Z")
for i in range(5):
    record(f"kept-{i}", game, db=db)
    print(f"kept-{i}", flush=True)
if sys.argv[2] == "stuck":
    with connect(db) as conn, transaction(conn):
        insert(conn, "half-done", game)
        print("inside", flush=True)
        time.sleep(600)
else:
    for i in range(5, 10_000):
        record(f"kept-{i}", game, db=db)
        print(f"kept-{i}", flush=True)
"""


@pytest.mark.parametrize("when", ["stuck", "racing"])
def test_kill_9_of_a_writer_loses_nothing_committed(tmp_path: Path, when: str) -> None:
    """Killed inside an open transaction, or at once while it records game after game (bounded)."""
    path = tmp_path / "history.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", STUCK, str(path), when], env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    committed = []
    try:
        for _ in range(8):  # 5 kept games, then "inside" (stuck) or 3 more (racing), then the kill
            line = child.stdout.readline().strip()
            assert line, child.stderr.read() if child.stderr else ""
            if line == "inside":
                break
            committed.append(line)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=BOUND)
    assert child.returncode == -signal.SIGKILL
    assert len(committed) >= 5
    ids = {g.id for g in games(db=path)}
    assert set(committed) <= ids and "half-done" not in ids
    assert _query(path, "PRAGMA integrity_check") == [("ok",)]
    assert record(*scored_file(CHRIS, "2024-03-07T19:30:00Z"), db=path) is True  # no lock left behind
