"""Game records: read TOML/JSON game files into plain tables, and write them back.

Each game's reader (``printkit.loading.records.<game>.read_record``) checks a
table against the game's data and returns its typed record
(:mod:`printkit.model.records`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from printkit.loading.text import Format, parse, read_text

UNSURE_HEADER = "# Read by printkit scan. Check these unsure reads"
"""How a game file ``printkit scan --save`` wrote with unsure reads listed begins (``printkit score`` warns on it)."""


def guess_format(path: Path, text: str) -> Format:
    """``json`` or ``toml``: by extension, otherwise by the first character."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix == ".toml":
        return "toml"
    return "json" if text.lstrip().startswith(("{", "[")) else "toml"


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a TOML or JSON game record into a table (DataError on bad syntax)."""
    text, source = read_text(path)
    return parse(text, source, guess_format(Path(path), text))


def _toml_key(key: str) -> str:
    import json  # here: reading and scoring a record (`printkit score FILE`) never writes one

    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def dump_toml(doc: dict[str, Any]) -> str:
    """Write a record as TOML: top-level values, then each ``[[players]]`` table."""
    lines: list[str] = []
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    for key, value in doc.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value))
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, rows in tables:
        for row in rows:
            lines.append("")
            lines.append(f"[[{_toml_key(key)}]]")
            lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in row.items())
    return "\n".join(lines) + "\n"


def dump_record(doc: dict[str, Any], fmt: str) -> str:
    """A record as ``toml`` or ``json`` text, ready to save."""
    import json

    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return dump_toml(doc)
