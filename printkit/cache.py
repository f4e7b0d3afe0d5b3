"""A cache on disk of results slow to make and cheap to keep (a map sheet's layout): never state.

Each entry is one file ``<name>-<digest>.pickle`` in :func:`cache_dir`, keyed by
a digest of everything its value depends on: the caller's key (for a map sheet,
the bytes of the map's data files and the paper) and :func:`code_fingerprint`
(printkit's version and the size and modification time of every file in the
package), so an edit or an upgrade makes a new entry. An entry that cannot be
read, is cut short, corrupt, of another format or of the wrong type is ignored
and made again; a folder that cannot be written is skipped; only the newest
:data:`MAX_ENTRIES` entries are kept. The folder may be deleted at any time.
Entries are pickles: the folder is the user's own, like any file a program of
theirs writes and reads back.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from typing import TypeVar

from printkit import __version__

T = TypeVar("T")

FORMAT = b"printkit-cache 1\n"
"""The first bytes of every entry: an entry of another format is ignored."""
SUFFIX = ".pickle"
MAX_ENTRIES = 64
"""Entries kept; making one more removes the oldest (a layout is about 170 KB)."""
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_fingerprint: list[str] = []  # the code fingerprint, worked out once per process


def enabled() -> bool:
    """Whether the cache is used (``PRINTKIT_NO_CACHE=1`` turns it off)."""
    return os.environ.get("PRINTKIT_NO_CACHE", "") in ("", "0")


def cache_dir() -> str:
    """``$PRINTKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/printkit``, else ``~/.cache/printkit``."""
    chosen = os.environ.get("PRINTKIT_CACHE_DIR")
    if chosen:
        return chosen
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "printkit")


def _files(folder: str) -> Iterable[tuple[str, int, int]]:
    """(path, size, mtime in ns) of every file under ``folder`` but byte-code caches, in a stable order."""
    with os.scandir(folder) as entries:
        found = sorted(entries, key=lambda e: e.name)
    for entry in found:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                yield from _files(entry.path)
        elif not entry.name.endswith((".pyc", ".pyo")):
            st = entry.stat()
            yield os.path.relpath(entry.path, _PACKAGE), st.st_size, st.st_mtime_ns


def code_fingerprint() -> str:
    """printkit's version, Python's, and the size and mtime of every file of the package (its code and assets)."""
    if not _fingerprint:
        parts = [__version__, sys.version] + [f"{p} {size} {mtime}" for p, size, mtime in _files(_PACKAGE)]
        _fingerprint.append("\n".join(parts))
    return _fingerprint[0]


def entry_path(name: str, key: Iterable[bytes | str]) -> str:
    """The file holding ``name``'s entry for ``key`` (the code fingerprint is part of every key)."""
    from hashlib import blake2b

    h = blake2b(digest_size=20)
    for part in (code_fingerprint(), *key):
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return os.path.join(cache_dir(), f"{name}-{h.hexdigest()}{SUFFIX}")


def _read(path: str, kind: type[T]) -> T | None:
    """The value kept at ``path``, or None when there is none that can be trusted."""
    import pickle

    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if not data.startswith(FORMAT):
            return None
        value = pickle.loads(data[len(FORMAT):])
    except Exception:  # noqa: BLE001 - a bad entry of any kind is made again, never an error
        return None
    return value if isinstance(value, kind) else None


def _prune(folder: str) -> None:
    """Remove all but the :data:`MAX_ENTRIES` newest entries of ``folder`` (stale ones pile up as code changes)."""
    keep = MAX_ENTRIES
    try:
        with os.scandir(folder) as found:
            entries = [(e.stat().st_mtime_ns, e.path) for e in found if e.name.endswith(SUFFIX) and e.is_file()]
        for _, path in sorted(entries, reverse=True)[keep:]:
            os.unlink(path)
    except OSError:
        pass


def _write(path: str, value: object) -> None:
    """Keep ``value`` at ``path``; a folder that cannot be written is skipped (the cache is never state)."""
    import pickle

    from printkit.files import atomic_write

    try:
        data = FORMAT + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        atomic_write(path, data)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return  # a value that cannot be pickled or kept is simply made again next time
    _prune(os.path.dirname(path))


def remembered(name: str, key: Iterable[bytes | str], kind: type[T], make: Callable[[], T]) -> T:
    """The ``kind`` kept for (``name``, ``key``) on disk, else ``make()``, kept for next time."""
    if not enabled():
        return make()
    path = entry_path(name, key)
    value = _read(path, kind)
    if value is None:
        value = make()
        _write(path, value)
    return value
