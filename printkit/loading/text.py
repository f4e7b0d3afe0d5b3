"""The one reader of TOML and JSON text files, with one wording for their problems.

Every message starts with the file as the user named it (``maps/<file>`` for
bundled data): ``no such file``, ``is a folder, not a file``, ``cannot read
file (...)``, ``line L: not UTF-8 text (...)``, and for a syntax error
``line L, column C: invalid TOML (reason)`` (or ``invalid JSON``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from printkit.errors import DataError
from printkit.resources import data_dir

Format = Literal["toml", "json"]


def source_name(path: Path) -> str:
    """How a file is named in messages: ``maps/<file>`` for bundled data, else as given."""
    try:
        maps = data_dir("maps")
    except FileNotFoundError:
        return str(path)
    if path.resolve().parent == maps.resolve():
        return f"maps/{path.name}"
    return str(path)


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """A UTF-8 text file's text and its name for messages; DataError if unreadable."""
    p = Path(path)
    source = source_name(p)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise DataError([f"{source}: no such file"]) from None
    except IsADirectoryError:
        raise DataError([f"{source}: is a folder, not a file"]) from None
    except OSError as exc:
        raise DataError([f"{source}: cannot read file ({exc.strerror})"]) from None
    try:
        return raw.decode("utf-8"), source
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError([f"{source}: line {line}: not UTF-8 text (save the file as UTF-8)"]) from None


def parse(text: str, source: str, fmt: Format) -> dict[str, Any]:
    """Parse ``toml`` or ``json`` text into a table; syntax errors carry line and column."""
    if fmt == "json":
        import json

        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError([f"{source}: line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg})"]) from None
        if not isinstance(doc, dict):
            raise DataError([f"{source}: expected a JSON object {{...}} at the top, got {type(doc).__name__}"])
        return doc
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError([f"{source}: {_toml_syntax(str(exc))}"]) from None


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
