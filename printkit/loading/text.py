"""The one reader of TOML and JSON text files, with one wording for their problems.

Every message starts with the file as the user named it (``maps/<file>`` for
bundled data): ``no such file``, ``is a folder, not a file``, ``is not a
regular file``, ``is larger than 4 MiB``, ``cannot read file (...)``, ``line
L: not UTF-8 text (...)``, and for a syntax error ``line L, column C: invalid
TOML (reason)`` (or ``invalid JSON``). A file is checked with ``stat`` before
it is opened, so a pipe or device is refused without blocking; a UTF-8 BOM is
accepted; lists and tables nest at most :data:`MAX_DEPTH` deep; JSON numbers
stay within :data:`MAX_NUMBER`, JSON keys may not repeat, and ``NaN`` and
``Infinity`` are refused (the field readers give each TOML number its range). Everything printkit reads as JSON from outside (game
and state files, a history export, a party request's body) is read here:
:func:`parse_json` for a text held whole; :mod:`printkit.loading.jsonstream`
applies the same rules (:func:`decoder`, :func:`nesting`) to a file too big to
hold (a history export), read a piece at a time.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from typing import TYPE_CHECKING, Any, BinaryIO, Literal

from printkit.errors import DataError, shorten
from printkit.model.limits import MAX_SEED

if TYPE_CHECKING:
    import json
    from pathlib import Path

Format = Literal["toml", "json"]
MAX_BYTES = 4 * 1024 * 1024  # no printkit file comes near this
MAX_DEPTH = 32  # lists and tables inside each other
MAX_NUMBER = MAX_SEED
"""The largest number (either sign) printkit reads: a seed, the largest number it writes (SQLite's integers end here)."""
TOO_LONG_NUMBER = "a number has more than 4300 digits (numbers in printkit files are far smaller)"


class FileProblem(Exception):
    """Why a file cannot be read, worded for the user (``no such file``, ...), and what kind of problem it is
    (``missing``, ``folder``, ``special`` for a pipe, device or socket, ``large``, ``os``), with the file's size."""

    def __init__(self, reason: str, kind: str = "os", size: int = 0) -> None:
        self.reason = reason
        self.kind = kind
        self.size = size
        super().__init__(reason)

    @property
    def missing(self) -> bool:
        """Whether there is no such file."""
        return self.kind == "missing"


def source_name(path: Path) -> str:
    """How a file is named in messages: ``maps/<file>`` for bundled data, else as given."""
    from printkit.resources import data_dir  # pathlib: not on the way of `turns next`, which reads no map

    try:
        maps = data_dir("maps")
        if path.resolve().parent == maps.resolve():
            return f"maps/{path.name}"
    except (FileNotFoundError, RuntimeError, OSError):
        pass
    return str(path)


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> bytes:
    """A regular file's bytes, at most ``limit``; FileProblem otherwise, never blocking (a pipe is not opened)."""
    with open_regular(path, limit) as f:
        try:
            raw = f.read(limit + 1)
        except OSError as exc:
            raise FileProblem(os_reason(exc)) from None
    if len(raw) > limit:
        raise _too_large(len(raw), limit)
    return raw


def open_regular(path: str | os.PathLike[str], limit: int | None = MAX_BYTES) -> BinaryIO:
    """A regular file opened to read (at most ``limit`` bytes by its size, None: any); FileProblem otherwise.

    Checked with ``stat`` before it is opened and again once open, so a pipe,
    device or socket is refused without blocking.
    """
    special = "is not a regular file (a pipe, device or socket); give a saved file"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileProblem("no such file", "missing") from None
    except OSError as exc:
        raise FileProblem(os_reason(exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise FileProblem("is a folder, not a file", "folder")
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem(special, "special")
    if limit is not None and info.st_size > limit:
        raise _too_large(info.st_size, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        f = os.fdopen(fd, "rb")
    except OSError as exc:
        raise FileProblem(os_reason(exc)) from None
    try:
        regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    except OSError as exc:
        f.close()
        raise FileProblem(os_reason(exc)) from None
    if not regular:
        f.close()
        raise FileProblem(special, "special")
    return f


def _too_large(size: int, limit: int) -> FileProblem:
    return FileProblem(f"is larger than {limit // (1024 * 1024)} MiB; no printkit file is that big", "large", size)


def os_reason(exc: OSError) -> str:
    """Why a file could not be read, worded for the user."""
    if exc.errno == errno.ELOOP:
        return "is a symbolic link that loops back on itself"
    if exc.errno == errno.ENAMETOOLONG:
        return "the file name is too long"
    return f"cannot read file ({exc.strerror or exc})"


def read_source(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    """A file's bytes and its name for messages; DataError if unreadable."""
    from pathlib import Path

    p = Path(path)
    source = source_name(p)
    try:
        return read_bytes(p), source
    except FileProblem as exc:
        raise DataError([f"{source}: {exc.reason}"]) from None


def open_source(path: str | os.PathLike[str]) -> tuple[BinaryIO, str]:
    """A regular file of any size opened to read (a piece at a time), and its name for messages; DataError if it
    cannot be."""
    from pathlib import Path

    source = source_name(Path(path))
    try:
        return open_regular(path, None), source
    except FileProblem as exc:
        raise DataError([f"{source}: {exc.reason}"]) from None


SETTLED_NS = 2_000_000_000  # a file unchanged this long before it was read is remembered by its stat
_remembered: dict[tuple[str, str], tuple[tuple[int, ...], bytes, str]] = {}


def read_source_remembered(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    """:func:`read_source`, but a file read before is not read again while its stat is unchanged.

    The stat (device, inode, size, modification and change times) is checked on every call;
    a file is remembered only if it had not changed for :data:`SETTLED_NS` when it was read, so an
    edit within one tick of the file system's clock is never missed.
    """
    name = os.fspath(path)
    key = (name, "" if os.path.isabs(name) else os.getcwd())
    try:
        info = os.stat(name)
    except OSError:
        return read_source(path)
    signature = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode)
    hit = _remembered.get(key)
    if hit is not None and hit[0] == signature:
        return hit[1], hit[2]
    raw, source = read_source(path)
    if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > SETTLED_NS:
        if len(_remembered) >= 64:
            _remembered.clear()
        _remembered[key] = (signature, raw, source)
    return raw, source


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """A UTF-8 text file's text (a BOM dropped) and its name for messages; DataError if unreadable."""
    return decode(*read_source(path))


def _body(raw: bytes) -> bytes:
    """A file's bytes without a leading UTF-8 BOM."""
    return raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw


def utf8_text(raw: bytes) -> str:
    """``raw.decode("utf-8-sig")``: UTF-8 with a leading BOM dropped, without importing that codec's module."""
    return _body(raw).decode("utf-8")


def decode(raw: bytes, source: str) -> tuple[str, str]:
    """The UTF-8 text of a file's bytes (a BOM dropped) and its name; DataError if not UTF-8."""
    try:
        return utf8_text(raw), source
    except UnicodeDecodeError as exc:
        line = _body(raw)[: exc.start].count(b"\n") + 1  # the error's offset counts from after the BOM
        raise DataError([f"{source}: line {line}: not UTF-8 text (save the file as UTF-8)"]) from None


class JSONRefused(ValueError):
    """A JSON text uses something printkit files never do (repeated keys, NaN, a number past :data:`MAX_NUMBER`),
    raised while :func:`decoder` parses it."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JSONRefused(f"the key {shown_key(key)} is given twice in one object (keep one)")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise JSONRefused(f"{name} is not a number printkit reads (use a plain number)")


NUMBER_DIGITS = len(str(MAX_NUMBER))


def _whole(text: str) -> int:
    """A JSON integer, refused past :data:`MAX_NUMBER` (its digits counted before it is converted)."""
    if len(text) < NUMBER_DIGITS:
        return int(text)
    if len(text) - text.startswith("-") > NUMBER_DIGITS or abs(value := int(text)) > MAX_NUMBER:
        raise JSONRefused(f"the number {shorten(text, 30)} is beyond ±{MAX_NUMBER} (numbers in printkit files are "
                       "far smaller)")
    return value


def _real(text: str) -> float:
    """A JSON fraction, refused past :data:`MAX_NUMBER` (``1e999`` would be infinite)."""
    value = float(text)
    if not abs(value) <= MAX_NUMBER:
        raise JSONRefused(f"the number {shorten(text, 30)} is beyond ±{MAX_NUMBER} (numbers in printkit files are "
                       "far smaller)")
    return value


def shown_key(key: str) -> str:
    """A key as messages quote it, shortened."""
    text = repr(key)
    return text if len(text) <= 60 else text[:57] + "..."


def decoder() -> json.JSONDecoder:
    """The one JSON decoder: repeated keys, ``NaN``/``Infinity`` and numbers past :data:`MAX_NUMBER` refused."""
    global _DECODER
    if _DECODER is None:
        import json

        _DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_int=_whole,
                                    parse_float=_real)
    return _DECODER


_DECODER: json.JSONDecoder | None = None


def parse_json(text: str, source: str) -> Any:
    """Any JSON value from ``text``, nested at most :data:`MAX_DEPTH` deep; DataError in the user's words on any problem."""
    import json

    if not text.strip():
        raise DataError([f"{source}: the file is empty (expected a JSON object {{...}})"])
    try:
        value = decoder().decode(text)
    except json.JSONDecodeError as exc:
        hint = "; the file looks like TOML: save it with a .toml name" if _looks_like_toml(text) else ""
        raise DataError([f"{source}: line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg}){hint}"]) from None
    except JSONRefused as exc:
        raise DataError([f"{source}: invalid JSON: {exc}"]) from None
    except RecursionError:
        raise DataError([f"{source}: {too_deep()}"]) from None
    if nesting(text) > MAX_DEPTH:
        raise DataError([f"{source}: {too_deep()}"])
    return value


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting(text: str, start: int = 0, end: int | None = None) -> int:
    """How deep lists and objects nest in the JSON text ``text[start:end]`` (0 for a plain value), without recursion."""
    end = len(text) if end is None else end
    opened = text.count("[", start, end) + text.count("{", start, end)
    if opened <= 1:
        return opened
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text[start:end] if start or end < len(text) else text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _looks_like_toml(text: str) -> bool:
    import tomllib

    try:
        return bool(tomllib.loads(text))
    except (ValueError, RecursionError):
        return False


def too_deep() -> str:
    """The one wording of a document nested past :data:`MAX_DEPTH`."""
    return f"lists or tables nested more than {MAX_DEPTH} deep (printkit files nest a few levels)"


def depth_ok(value: object) -> bool:
    """Whether lists and tables in ``value`` nest at most :data:`MAX_DEPTH` deep (checked without recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth >= MAX_DEPTH:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def top_table(doc: object, source: str, what: str = "a JSON object {...}") -> dict[str, Any]:
    """``doc`` if it is a table nested at most :data:`MAX_DEPTH` deep, else DataError."""
    if not isinstance(doc, dict):
        raise DataError([f"{source}: expected {what} at the top, got {json_kind(doc)}"])
    if not depth_ok(doc):
        raise DataError([f"{source}: {too_deep()}"])
    return doc


def json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words (``null``, ``a list [...]``, ``a string``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list [...]"
    return f"a {type(value).__name__}"


def parse(text: str, source: str, fmt: Format) -> dict[str, Any]:
    """Parse ``toml`` or ``json`` text into a table; syntax errors carry line and column."""
    if fmt == "json":
        return top_table(parse_json(text, source), source)
    import tomllib

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError([f"{source}: {_toml_syntax(str(exc))}"]) from None
    except RecursionError:
        raise DataError([f"{source}: {too_deep()}"]) from None
    except ValueError:
        raise DataError([f"{source}: {TOO_LONG_NUMBER}"]) from None
    return top_table(doc, source, "a TOML table")


def _toml_syntax(message: str) -> str:
    """``line L, column C: invalid TOML (reason)`` from tomllib's ``reason (at line L, column C)``."""
    m = re.match(r"^(.*) \(at line (\d+), column (\d+)\)$", message, re.S)
    if m:
        return f"line {m.group(2)}, column {m.group(3)}: invalid TOML ({m.group(1)})"
    m = re.match(r"^(.*) \(at end of document\)$", message, re.S)
    if m:
        return f"at end of file: invalid TOML ({m.group(1)})"
    return f"invalid TOML ({message})"


def read_toml(path: str | os.PathLike[str]) -> tuple[dict[str, Any], str]:
    """Read and parse a TOML file: its table and its name for messages."""
    text, source = read_text(path)
    return parse(text, source, "toml"), source
