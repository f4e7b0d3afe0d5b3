"""Companion state files: the versioned JSON documents of ``turns``, ``abby`` and ``wereldsteden``.

A state file is a JSON object tagged with its kind (``"printkit": "turns"``),
the state format number and the printkit version that wrote it. It is written
atomically and never overwritten when it cannot be read. Each companion's
rules module defines only its own schema (``to_state`` / ``from_state``); a
:class:`StateFile` joins that schema to the file. Kept light (``json``, ``os``):
``printkit turns next`` reads a state file and nothing else.
"""

import json
import os
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from printkit import __version__
from printkit.errors import DataError, StateError
from printkit.files import atomic_write, file_mode, path_text
from printkit.loading.text import FileProblem, parse_json, read_bytes, top_table, utf8_text

STATE_FORMAT = 1
"""The state format of a kind that declares none (``abby``, ``wereldsteden``); ``turns`` is at format 2."""
T = TypeVar("T")
Migration = Callable[[dict[str, Any], int, str], dict[str, Any]]
"""``migrate(doc, format, path)``: a state document of an older ``format`` rewritten in the current one."""


def read_state(path: str | os.PathLike[str], kind: str, version: str = __version__,
               current: int = STATE_FORMAT) -> dict[str, Any]:
    """Load a companion state file of ``kind`` (formats 1..``current``), refusing corrupt or foreign files."""
    p = path_text(path)
    try:
        raw = read_bytes(p)
    except FileProblem as exc:
        raise StateError(f"{p}: no saved game here" if exc.missing else f"{p}: {exc.reason}") from None
    try:
        state = parse_json(utf8_text(raw), p)
        if isinstance(state, dict):
            top_table(state, p)
    except UnicodeDecodeError:
        raise StateError(f"{p}: state file is corrupt (not UTF-8 text); it was left untouched") from None
    except DataError as exc:
        detail = str(exc).removeprefix(f"{p}: ")
        raise StateError(f"{p}: state file is corrupt ({detail}); it was left untouched") from None
    if not isinstance(state, dict) or state.get("printkit") != kind:
        raise StateError(f"{p}: not a printkit {kind} state file; it was left untouched")
    fmt = state.get("format")
    if type(fmt) is not int:  # a bool is no format number
        raise StateError(f"{p}: state file is corrupt (no format number); it was left untouched")
    if fmt < 1:
        raise StateError(f"{p}: state file is corrupt (format {fmt} was never written by printkit); it was left untouched")
    if fmt > current:
        raise StateError(
            f"{p}: written by a newer printkit (state format {fmt}, this is printkit {version} "
            f"reading format {current}); upgrade printkit to continue this game"
        )
    return state


def write_state(path: str | os.PathLike[str], kind: str, state: dict[str, Any], fmt: int = STATE_FORMAT) -> None:
    """Save a companion state atomically, tagged with its kind and format ``fmt``."""
    p = path_text(path)
    mode = file_mode(path)
    if mode is not None and not mode & 0o222:
        raise StateError(f"{p}: state file is read-only; the game was not changed")
    doc = {"printkit": kind, "format": fmt, **state}
    data = (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    try:
        atomic_write(path, data)
    except PermissionError:
        raise StateError(f"{path}: cannot write state file (permission denied); the game was not changed") from None
    except OSError as exc:
        raise StateError(f"{path}: cannot write state file ({exc.strerror}); the game was not changed") from None


def unknown_key(saved: object, known: object, path: str = "") -> str | None:
    """The first key path in ``saved`` that ``known`` (the same state dumped again) lacks, or None."""
    if isinstance(saved, dict) and isinstance(known, dict):
        for key, value in saved.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in known:
                return where
            found = unknown_key(value, known[key], where)
            if found is not None:
                return found
    elif isinstance(saved, list) and isinstance(known, list):
        for i, (a, b) in enumerate(zip(saved, known)):
            found = unknown_key(a, b, f"{path}[{i}]")
            if found is not None:
                return found
    return None


class StateFile(NamedTuple, Generic[T]):
    """One companion's state file: its kind and its schema, ``dump(value)`` and ``load(doc, path)``.

    ``format`` is the kind's current state format; a file of an older one is
    read through ``migrate`` (and written back in the current format the next
    time the game changes).
    """

    kind: str
    dump: Callable[[T], dict[str, Any]]
    load: Callable[[dict[str, Any], str], T]
    format: int = STATE_FORMAT
    migrate: Migration | None = None

    def exists(self, path: str) -> bool:
        """Whether a state file (of any content) is saved at ``path``."""
        return os.path.exists(path)

    def read(self, path: str, missing: str) -> T:
        """The value saved at ``path``; StateError ``<path>: <missing>`` when there is no file."""
        if not self.exists(path):
            raise StateError(f"{path}: {missing}")
        doc = read_state(path, self.kind, current=self.format)
        if doc["format"] < self.format:
            if self.migrate is None:
                raise StateError(f"{path}: state format {doc['format']} cannot be read any more; it was left untouched")
            doc = self.migrate(doc, doc["format"], path)
        value = self.load(doc, path)
        extra = unknown_key(doc, {"printkit": 0, "format": 0, "printkit_version": 0, **self.dump(value)})
        if extra is not None:
            raise StateError(f"{path}: state file is corrupt (unknown key {extra}); it was left untouched")
        return value

    def write(self, path: str, value: T) -> None:
        """Save ``value`` at ``path`` atomically, stamped with its kind, format and printkit's version."""
        self.write_doc(path, self.dump(value))

    def write_doc(self, path: str, doc: dict[str, Any]) -> None:
        """Save an already dumped state document at ``path``."""
        write_state(path, self.kind, {"printkit_version": __version__, **doc}, self.format)
