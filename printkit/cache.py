"""A cache on disk of results slow to make and cheap to keep (a map sheet's layout): never state.

Each entry is one file ``<name>-<digest>.json`` in :func:`cache_dir`, keyed by
a digest of everything its value depends on: the caller's key (for a map sheet,
the bytes of the map's data files and the paper) and :func:`code_fingerprint`
(printkit's version and the size and modification time of every file in the
package), so an edit or an upgrade makes a new entry. Only the newest
:data:`MAX_ENTRIES` entries are kept. The folder may be deleted at any time.

Nothing kept can run code: an entry is plain JSON (with a digest of itself),
rebuilt into the ``kind`` asked for by :mod:`printkit.plaindata` from that
type's annotations, never unpickled. An entry that cannot be read, is cut
short, corrupt, of another format or does not match its type exactly is a
miss: made again, never an error. The folder is used only when it is the
user's own (owned by them, not writable by group or others; made mode 700);
any other is ignored, said once per process (a :class:`CacheIgnored`
warning), and the command works as without a cache. An entry that is not a
regular file of the user's (a link, a pipe, a device) is never opened, and
no entry is read past :data:`MAX_ENTRY_BYTES`.
"""

import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from typing import TypeVar

from printkit import __version__
from printkit.errors import PrintkitWarning

T = TypeVar("T")

FORMAT = b"printkit-cache 2\n"
"""The first bytes of every entry, then the hex digest of the JSON text that follows: another format is ignored."""
SUFFIX = ".json"
MAX_ENTRIES = 64
"""Entries kept; making one more removes the oldest (a layout is about 170 KB)."""
MAX_ENTRY_BYTES = 64 << 20
"""No entry is read past this size (a layout is about 170 KB)."""
ENTRY_NAME = re.compile(r"[a-z0-9-]+-[0-9a-f]{40}\.(?:json|pickle)")
"""What an entry of ours is called (``.pickle``: an older printkit's, removed with the stale ones): nothing else in
the folder is ever removed."""
DIGEST_SIZE = 20
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

    h = blake2b(digest_size=DIGEST_SIZE)
    for part in (code_fingerprint(), *key):
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return os.path.join(cache_dir(), f"{name}-{h.hexdigest()}{SUFFIX}")


def _seal(body: bytes) -> bytes:
    """The hex digest an entry keeps of its JSON text."""
    from hashlib import blake2b

    return blake2b(body, digest_size=DIGEST_SIZE).hexdigest().encode()


class CacheIgnored(PrintkitWarning):
    """The cache folder is not the user's own, so it is not used (said once per process)."""


_said: list[str] = []  # the folders already said to be ignored, in this process
_CHECKS = os.name == "posix"  # owners and mode bits mean something (not on Windows, whose folders are per user)


def _not_own(st: os.stat_result) -> str | None:
    """Why a file or folder with this status is not the user's own, or None when it is."""
    if not _CHECKS:
        return None
    if st.st_uid != os.geteuid():
        return f"owned by another user, uid {st.st_uid}"
    if st.st_mode & 0o022:
        return f"writable by others, mode {stat.S_IMODE(st.st_mode):o}"
    return None


def folder_problem(folder: str) -> str | None:
    """Why ``folder`` is not the user's own (owned by another, writable by others, a link of another's), or None.

    A folder that does not exist has none: it is made, mode 700, when an entry is kept (and if it cannot be,
    nothing is kept, silently, as when ``folder`` is a file).
    """
    try:
        link = os.lstat(folder)
        st = os.stat(folder) if stat.S_ISLNK(link.st_mode) else link
    except OSError:
        return None
    return (_not_own(link) if stat.S_ISLNK(link.st_mode) else None) or _not_own(st)


def _usable(folder: str) -> bool:
    """Whether ``folder`` may be used; one that is not the user's own is said once (a :class:`CacheIgnored`)."""
    why = folder_problem(folder)
    if why is None:
        return True
    if folder not in _said:
        _said.append(folder)
        import warnings

        try:
            warnings.warn_explicit(f"the cache folder {folder} is not used ({why}): it must be yours alone",
                                   CacheIgnored, "printkit", 0)
        except CacheIgnored:  # warnings turned into errors: the cache is still never one
            pass
    return False


def _entry_bytes(path: str) -> bytes | None:
    """The bytes of the regular file of the user's at ``path``, or None: never a link, a pipe or a device, and
    never more than :data:`MAX_ENTRY_BYTES`."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or _not_own(st) or st.st_size > MAX_ENTRY_BYTES:
            return None
        chunks, left = [], MAX_ENTRY_BYTES + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return None if left <= 0 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read(path: str, kind: type[T]) -> tuple[T] | None:
    """The value kept at ``path`` (in a 1-tuple: it may be None), or None when there is none that can be trusted."""
    from printkit.plaindata import Refused, loads

    data = _entry_bytes(path)
    if data is None or not data.startswith(FORMAT):
        return None
    digest, newline, body = data[len(FORMAT):].partition(b"\n")
    if not newline or digest != _seal(body):
        return None
    try:
        return (loads(body, kind),)
    except Refused:
        return None


def _prune(folder: str) -> None:
    """Remove all but the :data:`MAX_ENTRIES` newest entries of ``folder`` (stale ones pile up as code changes).

    Only files named as entries are (:data:`ENTRY_NAME`); an older printkit's pickles go first.
    """
    try:
        with os.scandir(folder) as found:
            entries = [(e.name.endswith(SUFFIX), e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in found
                       if ENTRY_NAME.fullmatch(e.name) and e.is_file(follow_symlinks=False)]
        for *_, path in sorted(entries, reverse=True)[MAX_ENTRIES:]:
            os.unlink(path)
    except OSError:
        pass


def _write(path: str, kind: type[T], value: T) -> None:
    """Keep ``value`` at ``path``; a folder that cannot be written is skipped (the cache is never state)."""
    from printkit.files import replace_file
    from printkit.plaindata import Refused, dumps

    folder = os.path.dirname(path)
    try:
        body = dumps(value, kind)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _usable(folder):  # made by someone else meanwhile, or under a umask that lets others write
            return
        replace_file(path, FORMAT + _seal(body) + b"\n" + body, mode=0o600)
    except (OSError, Refused):
        return  # a value that does not match its type, or a folder that cannot be written: made again next time
    _prune(folder)


def remembered(name: str, key: Iterable[bytes | str], kind: type[T], make: Callable[[], T]) -> T:
    """The ``kind`` kept for (``name``, ``key``) on disk, else ``make()``, kept for next time.

    ``kind`` must be plain data (:mod:`printkit.plaindata`; a ``TypeError`` before anything is made if it is not).
    """
    if not enabled():
        return make()
    from printkit.plaindata import codec

    codec(kind)
    path = entry_path(name, key)
    if not _usable(os.path.dirname(path)):
        return make()
    kept = _read(path, kind)
    if kept is not None:
        return kept[0]
    value = make()
    _write(path, kind, value)
    return value
