"""Crash-safe files: atomic writes and the JSON state files of the companions.

Nothing is lost: every write goes to a temp file in the same folder, is
fsynced, then renamed over the target. A state file that cannot be read is
reported with its path and never overwritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from printkit.errors import StateError

STATE_FORMAT = 1


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` via temp file + fsync + rename."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


@contextlib.contextmanager
def locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold an exclusive lock beside ``path`` so two commands cannot both apply."""
    import fcntl

    lock_path = Path(f"{os.fspath(path)}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StateError(f"{path}: cannot create lock file {lock_path}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StateError(f"{path}: another printkit command is using this game; try again") from None
        yield
    finally:
        os.close(fd)


def read_state(path: str | os.PathLike[str], kind: str, version: str) -> dict[str, Any]:
    """Load a companion state file of ``kind``, refusing corrupt or foreign files."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise StateError(f"{p}: no saved game here") from None
    except OSError as exc:
        raise StateError(f"{p}: cannot read state file: {exc.strerror}") from None
    try:
        state = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise StateError(f"{p}: state file is corrupt ({exc}); it was left untouched") from None
    if not isinstance(state, dict) or state.get("printkit") != kind:
        raise StateError(f"{p}: not a printkit {kind} state file; it was left untouched")
    fmt = state.get("format")
    if not isinstance(fmt, int):
        raise StateError(f"{p}: state file is corrupt (no format number); it was left untouched")
    if fmt > STATE_FORMAT:
        raise StateError(
            f"{p}: written by a newer printkit (state format {fmt}, this is printkit {version} "
            f"reading format {STATE_FORMAT}); upgrade printkit to continue this game"
        )
    return state


def write_state(path: str | os.PathLike[str], kind: str, state: dict[str, Any]) -> None:
    """Save a companion state atomically, tagged with its kind and format."""
    p = Path(path)
    if p.exists() and not p.stat().st_mode & 0o222:
        raise StateError(f"{p}: state file is read-only; the game was not changed")
    doc = {"printkit": kind, "format": STATE_FORMAT, **state}
    data = (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    try:
        atomic_write(path, data)
    except PermissionError:
        raise StateError(f"{path}: cannot write state file (permission denied); the game was not changed") from None
    except OSError as exc:
        raise StateError(f"{path}: cannot write state file ({exc.strerror}); the game was not changed") from None
