"""Crash-safe files: atomic writes and the lock beside a file that changes.

Nothing is lost: every write of a file goes to a temp file in the same
folder, is fsynced, then renamed over the target; a target that is a
symbolic link is the file it points to (the link stays). A character device
or a pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is written in place, never
renamed over; any other target that is not a file (a folder, a block device,
a socket) is refused. The companions' state files are read and written with
these by :mod:`printkit.loading.state`.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import stat
import time
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Union

from printkit.errors import StateError

TEMP_SUFFIX = ".tmp"
STALE_TEMP_SECONDS = 600  # a temp file of ours this old was left by a killed write
_RANDOM_PART = r"[a-z0-9_]{8}"  # what _new_temp (like tempfile.mkstemp) puts between our prefix and suffix
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
FilePath = Union[str, "os.PathLike[str]"]
"""A file named by a string or a path object (os.path, not pathlib: pathlib costs every command 2.5 ms)."""


def _new_temp(folder: str, prefix: str) -> tuple[int, str]:
    """Create ``<folder>/<prefix>XXXXXXXX.tmp`` exclusively (mode 0600) and open it; tempfile's way, without tempfile.

    tempfile is not imported: it brings shutil, bz2, lzma and random into every command that saves a file.
    """
    for _ in range(100):
        part = "".join(_NAME_CHARS[b % len(_NAME_CHARS)] for b in os.urandom(8))
        path = os.path.join(folder, f"{prefix}{part}{TEMP_SUFFIX}")
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {prefix!r} in {folder}")


def path_text(path: FilePath) -> str:
    """``path`` as messages write it, the way ``str(pathlib.Path(path))`` does (``./a//b/`` -> ``a/b``)."""
    name = os.fspath(path)
    root = "//" if name.startswith("//") and not name.startswith("///") else "/" if name.startswith("/") else ""
    return root + "/".join(part for part in name.split("/") if part not in ("", ".")) or "."


def file_mode(path: FilePath) -> int | None:
    """``os.stat(path).st_mode``, or None where there is no file (decided as pathlib's ``exists()`` does)."""
    try:
        return os.stat(path).st_mode
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            raise
        return None


def _folder(target: FilePath) -> str:
    return os.path.dirname(target) or "."


def _mode(target: FilePath) -> int:
    try:
        return os.stat(target).st_mode & 0o777
    except FileNotFoundError:
        return 0o644


def write_temp(target: FilePath, data: bytes | Iterable[bytes], mode: int | None = None) -> str:
    """Write ``data`` (bytes, or chunks of them as they come) to a new fsynced ``.<name>.XXXXXXXX.tmp`` beside
    ``target``, with its mode (or ``mode``)."""
    fd, tmp = _new_temp(_folder(target), f".{os.path.basename(target)}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in (data,) if isinstance(data, bytes) else data:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode(target) if mode is None else mode)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def replace_file(path: FilePath, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to a temp file and rename it over ``path``, whatever ``path`` is now (a folder's own file)."""
    tmp = write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


SYSTEM_NAMES = ("/dev/stdout", "/dev/stderr")
SYSTEM_FOLDERS = ("/dev/fd/", "/proc/")
"""A file named by the system's names for an open file (``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/1``) is
written in place: the file the shell opened."""


class NotAFile(OSError):
    """An output that is neither a file, nor a character device, nor a pipe (a folder, a block device, a socket)."""


def _where(path: FilePath) -> tuple[str, bool]:
    """Where to write ``path``: (the file to rename over, False), or (``path`` itself, True) to write in place.

    A link is followed to the file it names, so the link stays; a character device, a pipe or a file named
    by :data:`SYSTEM_NAMES` or under :data:`SYSTEM_FOLDERS` is written in place; anything else that is not a file raises :class:`NotAFile`.
    """
    name = os.fspath(path)
    try:
        st = os.stat(name)
    except (FileNotFoundError, NotADirectoryError):
        return (os.path.realpath(name) if os.path.islink(name) else name), False  # a dangling link: its target
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return name, True
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "a block device" if stat.S_ISBLK(st.st_mode) else \
            "not a file, a character device or a pipe"
        raise NotAFile(errno.EINVAL, f"{what}: printkit writes only files, character devices and pipes", name)
    if os.path.abspath(name) in SYSTEM_NAMES or os.path.abspath(name).startswith(SYSTEM_FOLDERS):
        return name, True  # /dev/stdout onto a file: that file, as the shell opened it
    if not os.path.islink(name):
        return name, False
    real = os.path.realpath(name)
    try:
        same = os.path.samestat(os.stat(real), st)
    except OSError:
        same = False
    return (real, False) if same else (name, True)  # a link the system makes (/dev/stdout onto a file): in place


def _write_in_place(path: str, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or chunks of them) into the character device or pipe at ``path`` (a regular file there
    is truncated first)."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            os.ftruncate(fd, 0)
        elif not (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            raise NotAFile(errno.EINVAL, "not a file, a character device or a pipe", path)
        for chunk in (data,) if isinstance(data, bytes) else data:
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _sync_folder(folder: str) -> None:
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _unlink_all(paths: Iterable[FilePath]) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)


def atomic_write(path: FilePath, data: bytes) -> None:
    """Write ``data`` to ``path`` via temp file + fsync + rename (a device or a pipe: in place); stale temps of a
    killed write are removed."""
    atomic_write_all([(path, data)])
    target, in_place = _where(path)
    if not in_place:
        remove_stale_temps(_folder(target), re.escape(os.path.basename(target)))


def atomic_write_chunks(path: FilePath, chunks: Iterable[bytes]) -> None:
    """:func:`atomic_write` of the bytes ``chunks`` gives, each written as it comes (a long export is never held
    whole): whole or not at all, a device or a pipe in place."""
    target, in_place = _where(path)
    if in_place:
        _write_in_place(target, chunks)
        return
    tmp = write_temp(target, chunks)
    try:
        os.replace(tmp, target)
    except BaseException:
        _unlink_all([tmp])
        raise
    _sync_folder(_folder(target))
    remove_stale_temps(_folder(target), re.escape(os.path.basename(target)))


def atomic_write_all(files: Iterable[tuple[FilePath, bytes]]) -> None:
    """Write every file or none: all temp files first (each as it comes), then the devices and pipes, then every rename.

    On any failure the temp files are removed, and so are the new files
    already renamed into place; the OSError is raised again. What went into a
    device or a pipe cannot be taken back: those are written only once every
    temp file is.
    """
    temps: list[tuple[str, FilePath]] = []
    direct: list[tuple[str, bytes]] = []

    def files_to_rename() -> Iterator[tuple[FilePath, bytes]]:
        for path, data in files:
            target, in_place = _where(path)
            if in_place:
                direct.append((target, data))
            else:
                yield target, data

    try:
        _write_temps(files_to_rename(), temps)
        for device, data in direct:
            _write_in_place(device, data)
    except BaseException:
        _unlink_all(tmp for tmp, _ in temps)
        raise
    done: list[FilePath] = []
    try:
        for tmp, target in temps:
            os.replace(tmp, target)
            done.append(target)
    except BaseException:
        _unlink_all([tmp for tmp, _ in temps[len(done):]] + done)
        raise
    for folder in {_folder(target) for _, target in temps}:
        _sync_folder(folder)


SYNC_WORKERS = 8  # a pack's temp files written and fsynced this many at a time: the file system joins the syncs


def _write_temps(files: Iterator[tuple[FilePath, bytes]], temps: list[tuple[str, FilePath]]) -> None:
    """Append each file's fsynced temp to ``temps``, in order; several files are written at once.

    A failure (an error while ``files`` yields, Ctrl-C, SIGTERM) puts every temp file written
    so far in ``temps`` for the caller to remove; a write still under way, or handed over and
    not begun, removes its own temp (or writes none). Nothing depends on the main thread
    noting a write it handed over: an interruption between the two loses no temp file.
    """
    first = next(files, None)
    if first is None:
        return
    second = next(files, None)
    if second is None:
        temps.append((write_temp(*first), first[0]))
        return
    import threading
    from concurrent.futures import Future, ThreadPoolExecutor

    pending: deque[tuple[Future[str], FilePath]] = deque()
    made: list[tuple[str, FilePath]] = []  # every temp written and kept, in the order written
    lock = threading.Lock()
    failed = threading.Event()

    def write(target: FilePath, data: bytes) -> str:
        if failed.is_set():
            return ""
        tmp = write_temp(target, data)
        with lock:
            if failed.is_set():  # the caller has cleaned up already: this temp is this thread's to remove
                _unlink_all([tmp])
            else:
                made.append((tmp, target))
        return tmp

    def collect() -> None:
        future, target = pending.popleft()
        temps.append((future.result(), target))

    with ThreadPoolExecutor(max_workers=SYNC_WORKERS) as pool:
        try:
            for target, data in itertools.chain((first, second), files):
                pending.append((pool.submit(write, target, data), target))
                while len(pending) > SYNC_WORKERS:
                    collect()
            while pending:
                collect()
        except BaseException:
            with lock:
                failed.set()
                temps[:] = made
            raise


def remove_stale_temps(folder: FilePath, names: str, max_age: float = STALE_TEMP_SECONDS) -> int:
    """Remove our temp files ``.<name>.XXXXXXXX.tmp`` older than ``max_age`` seconds, ``name`` matching regex ``names``.

    Returns how many were removed; a file that cannot be removed is left.
    """
    pattern: re.Pattern[str] | None = None  # compiled only when a name may match: most folders have no temp file
    now = time.time()
    removed = 0
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
                continue
            pattern = pattern or re.compile(rf"\.(?:{names})\.{_RANDOM_PART}{re.escape(TEMP_SUFFIX)}")
            with contextlib.suppress(OSError):
                if (pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)
                        and now - entry.stat(follow_symlinks=False).st_mtime > max_age):
                    os.unlink(entry.path)
                    removed += 1
    return removed


LOCK_SUFFIX = ".lock"


@contextlib.contextmanager
def locked(path: FilePath) -> Iterator[None]:
    """Hold an exclusive lock beside ``path`` (``<path>.lock``) so two commands cannot both apply.

    The lock is the system's (``flock``; on Windows, through the filelock library's
    ``msvcrt`` lock), so a killed command never leaves it held; a lock path that is a
    link or not a file is refused, never followed.
    """
    lock_path = f"{os.fspath(path)}{LOCK_SUFFIX}"
    try:
        st = os.lstat(lock_path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StateError(f"{path}: cannot use lock file {lock_path}: {exc.strerror}") from None
    else:
        if not stat.S_ISREG(st.st_mode):
            what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a file"
            raise StateError(f"{path}: lock file {lock_path} is {what}; remove it and try again")
    hold = _flock if os.name == "posix" else _library_lock
    with hold(path, lock_path):
        yield


def _busy(path: FilePath) -> StateError:
    return StateError(f"{path}: another printkit command is using this game; try again")


@contextlib.contextmanager
def _flock(path: FilePath, lock_path: str) -> Iterator[None]:
    """The lock as ``flock`` on ``lock_path``, opened without following a link (the kernel drops it if we die)."""
    import fcntl

    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NOCTTY | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StateError(f"{path}: lock file {lock_path} is a symbolic link; remove it and try again") from None
        raise StateError(f"{path}: cannot create lock file {lock_path}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StateError(f"{path}: lock file {lock_path} is not a file; remove it and try again")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(path) from None
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def _library_lock(path: FilePath, lock_path: str) -> Iterator[None]:
    """The lock through the filelock library (Windows: no ``fcntl``); imported only here, as it is slow to import."""
    from filelock import FileLock, Timeout

    lock = FileLock(lock_path)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        raise _busy(path) from None
    except OSError as exc:
        raise StateError(f"{path}: cannot create lock file {lock_path}: {exc.strerror}") from None
    try:
        yield
    finally:
        lock.release()
