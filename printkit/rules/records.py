"""Game records: read TOML/JSON game files and score them with the right game.

A record's ``game`` key picks the scorer: absent or ``around-the-world`` uses
:mod:`printkit.rules.atw` (records read by :mod:`printkit.rules.atw_record`);
``trekking-the-world``, ``globetrotting`` and ``wereldsteden`` go to
``printkit.rules.<module>.score_record(doc, source)``.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

from printkit.errors import DataError
from printkit.rules.report import GameScore

ATW = "around-the-world"
# game key -> module under printkit.rules providing score_record(doc, source)
OTHER_GAMES = {
    "trekking-the-world": "trekking",
    "globetrotting": "globetrotting",
    "wereldsteden": "wereldsteden",
}
GAMES = (ATW, *OTHER_GAMES)
# printed titles; an Around the World game is titled by its map (atw_record.game_title)
GAME_TITLES = {
    ATW: "Around the World in 15 Minutes",
    "trekking-the-world": "Trekking the World",
    "globetrotting": "Globetrotting",
    "wereldsteden": "Wereldsteden",
}

_TOML_POS = re.compile(r"^(?P<msg>.*?)\s*\(at line (?P<line>\d+), column (?P<col>\d+)\)$", re.S)


def parse_text(text: str, source: str, fmt: str) -> dict[str, Any]:
    """Parse record text as ``toml`` or ``json``; syntax errors carry line and column."""
    if fmt == "json":
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError([f"{source}: line {exc.lineno}, column {exc.colno}: {exc.msg}"]) from None
        if not isinstance(doc, dict):
            raise DataError([f"{source}: expected a JSON object {{...}} at the top, got {type(doc).__name__}"])
        return doc
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        match = _TOML_POS.match(msg)
        if match:
            msg = f"line {match['line']}, column {match['col']}: {match['msg']}"
        raise DataError([f"{source}: {msg}"]) from None


def guess_format(path: Path, text: str) -> str:
    """``json`` or ``toml``: by extension, otherwise by the first character."""
    suffix = path.suffix.lower()
    if suffix in (".json", ".toml"):
        return suffix[1:]
    return "json" if text.lstrip().startswith(("{", "[")) else "toml"


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a TOML or JSON game record into a dict (DataError on bad syntax)."""
    p = Path(path)
    source = str(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise DataError([f"{source}: cannot read game file: {exc.strerror}"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError([f"{source}: not UTF-8 text (byte {exc.start})"]) from None
    return parse_text(text, source, guess_format(p, text))


def score_record(doc: dict[str, Any], source: str, base_dir: Path | None = None) -> GameScore:
    """Score a parsed record, dispatching on its ``game`` key."""
    return score_titled(doc, source, base_dir)[0]


def score_titled(doc: dict[str, Any], source: str, base_dir: Path | None = None) -> tuple[GameScore, str]:
    """Score a parsed record and title it for printing (the map's own name for Around the World)."""
    game = doc.get("game", ATW)
    if game == ATW:
        from printkit.rules import atw_record

        return atw_record.score_document(doc, source, base_dir or Path("."))
    if not isinstance(game, str) or game not in OTHER_GAMES:
        raise DataError([f"{source}: game: unknown game {game!r} (games: {', '.join(GAMES)})"])
    module_name = f"printkit.rules.{OTHER_GAMES[game]}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise DataError([f"{source}: game: scoring {game} is not available in this printkit"]) from None
    scorer = getattr(module, "score_record", None)
    if scorer is None:
        raise DataError([f"{source}: game: scoring {game} is not available in this printkit"])
    result: GameScore = scorer(doc, source)
    return result, GAME_TITLES[game]


def score_file(path: str | Path) -> GameScore:
    """Read and score one game file."""
    p = Path(path)
    return score_record(load_record(p), str(path), p.parent)


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
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
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return dump_toml(doc)
