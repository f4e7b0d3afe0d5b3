"""The history database: where it lives, opening it safely, its schema and migrations.

One SQLite file, ``history.sqlite3``, in :func:`data_dir`. It is opened in WAL
mode with a busy timeout, so several printkit processes can record at once;
each write is one ``BEGIN IMMEDIATE`` transaction. The schema version is
``PRAGMA user_version`` (the number of :data:`MIGRATIONS` applied), the file is
marked as printkit's by ``PRAGMA application_id``. A file that is not SQLite,
is another program's database or was made by a newer printkit is reported
(:class:`~printkit.errors.StateError` naming the file) and never written.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator

from printkit.errors import StateError
from printkit.files import FilePath, path_text
from printkit.history.model import name_key

FILE_NAME = "history.sqlite3"
APPLICATION_ID = 0x506B4869  # "PkHi": marks the file as printkit's history
HEADER = b"SQLite format 3\x00"
BUSY_SECONDS = 30.0  # how long a writer waits for another one before giving up


def data_dir() -> str:
    """``$PRINTKIT_DATA_DIR``, else ``$XDG_DATA_HOME/printkit``, else ``~/.local/share/printkit``."""
    chosen = os.environ.get("PRINTKIT_DATA_DIR")
    if chosen:
        return chosen
    xdg = os.environ.get("XDG_DATA_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "printkit")


def db_path(db: FilePath | None = None) -> str:
    """The database file: ``db`` if given, else ``history.sqlite3`` in :func:`data_dir`."""
    return path_text(db) if db is not None else os.path.join(data_dir(), FILE_NAME)


def _v1(conn: sqlite3.Connection) -> None:
    conn.execute("""CREATE TABLE games (
        id TEXT PRIMARY KEY, game TEXT NOT NULL, map TEXT NOT NULL, mode TEXT NOT NULL,
        played_at TEXT NOT NULL, explanation TEXT NOT NULL, score TEXT NOT NULL)""")
    conn.execute("""CREATE TABLE players (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, seat INTEGER NOT NULL,
        name TEXT NOT NULL, total INTEGER NOT NULL, won INTEGER NOT NULL, PRIMARY KEY (game_id, seat))""")


def _v2(conn: sqlite3.Connection) -> None:
    """Names compared ignoring case beyond ASCII (SQLite's lower() is ASCII only): a kept key, indexed."""
    conn.execute("ALTER TABLE players ADD COLUMN name_key TEXT NOT NULL DEFAULT ''")
    rows = conn.execute("SELECT game_id, seat, name FROM players").fetchall()
    conn.executemany("UPDATE players SET name_key = ? WHERE game_id = ? AND seat = ?",
                     [(name_key(name), game, seat) for game, seat, name in rows])
    conn.execute("CREATE INDEX players_by_name ON players (name_key)")
    conn.execute("CREATE INDEX games_by_time ON games (played_at)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2)
"""Schema version N is the first N of these applied, in order; add one for every change, never edit one."""
VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, upto: int = VERSION) -> int:
    """Bring the schema up to version ``upto`` in one transaction; the version it was at."""
    with transaction(conn):
        found = int(conn.execute("PRAGMA user_version").fetchone()[0])
        for step in MIGRATIONS[found:upto]:
            step(conn)
        if found < upto:
            conn.execute(f"PRAGMA user_version = {int(upto)}")
    return found


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` (waiting for other writers) ... ``COMMIT``; any error rolls it back."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _own_folder(folder: str) -> None:
    """Make ``folder`` (0700) if missing; refuse one that is not the user's alone (the cache's rule)."""
    from printkit.cache import folder_problem

    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
    except OSError as exc:
        raise StateError(f"{folder}: cannot make the history folder ({exc.strerror or exc})") from None
    if not stat.S_ISDIR(st.st_mode):
        raise StateError(f"{folder}: the history folder is not a folder")
    why = folder_problem(folder)
    if why is not None:
        raise StateError(f"{folder}: the history folder is not yours alone ({why}); make it yours with "
                         "chmod 700, or set PRINTKIT_DATA_DIR")


def _header_problem(path: str) -> str | None:
    """Why the file at ``path`` is not printkit's history, from its header alone; None if it is (or is empty)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return "is not a regular file"
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not head:
        return None  # made but never written (a first run killed at once): nothing to keep
    if len(head) < 100 or not head.startswith(HEADER):
        return "is not a SQLite database"
    found = int.from_bytes(head[68:72], "big")
    if found != APPLICATION_ID:
        return f"is not printkit's history (another program's SQLite database, application id {found:#x})"
    return None


def _left(path: str, why: str) -> StateError:
    return StateError(f"{path}: {why}; it was left untouched")


@contextlib.contextmanager
def errors_named(path: str) -> Iterator[None]:
    """Any SQLite error inside becomes one StateError line naming the database file."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StateError(f"{path}: the history is busy (another printkit is writing it); try again") from None
        raise _left(path, f"the history database cannot be used ({exc})") from None
    except sqlite3.DatabaseError as exc:
        raise _left(path, f"the history database is damaged ({exc})") from None


def _prepare(conn: sqlite3.Connection, path: str) -> None:
    """Mark a new file as printkit's, refuse a newer schema, switch to WAL, migrate."""
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    found = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if found == 0:  # a new, empty file: marked before anything else, outside WAL, so its header says it
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    elif found != APPLICATION_ID:
        raise _left(path, f"is not printkit's history (application id {found:#x})")
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > VERSION:
        raise _left(path, f"was written by a newer printkit (history schema version {version}; this printkit "
                          f"reads up to {VERSION}): upgrade printkit")
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    if version < VERSION:
        migrate(conn)


@contextlib.contextmanager
def connect(db: FilePath | None = None) -> Iterator[sqlite3.Connection]:
    """An open, checked and migrated connection to the history (autocommit: write in :func:`transaction`)."""
    path = db_path(db)
    _own_folder(os.path.dirname(os.path.abspath(path)))
    if os.path.lexists(path) and (why := _header_problem(path)) is not None:
        raise _left(path, why)
    with errors_named(path):
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        with errors_named(path):
            _prepare(conn, path)
            yield conn
    finally:
        conn.close()
