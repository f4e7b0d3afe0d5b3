"""The loader never crashes: every one-line damage to a valid map is a DataError or loads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printkit.errors import DataError
from printkit.loading.maps import build_map
from printkit.loading.text import read_toml

DATA = Path(__file__).parent / "data" / "maps"
LINES = (DATA / "tiny.toml").read_text(encoding="utf-8").splitlines()
SHARED, SHARED_SOURCE = read_toml(Path(__file__).parent.parent / "maps" / "around-the-world.toml")
REPLACEMENTS = ("true", '"x"', "[]", "{}", "1.5", "-3", '[["a"]]', "[1, 2]")


def outcome(lines: list[str]) -> str:
    """'ok', 'syntax' or 'invalid': anything else (an exception) fails the test."""
    import tomllib

    try:
        doc = tomllib.loads("\n".join(lines))
    except tomllib.TOMLDecodeError:
        return "syntax"
    try:
        build_map(doc, "m.toml", SHARED, SHARED_SOURCE)
    except DataError as exc:
        assert exc.problems and all(p.startswith("m.toml: ") for p in exc.problems), exc.problems
        return "invalid"
    return "ok"


def test_every_deleted_line() -> None:
    results = [outcome(LINES[:i] + LINES[i + 1 :]) for i in range(len(LINES))]
    assert "invalid" in results and "ok" in results  # comments and blank lines are harmless


@pytest.mark.parametrize("value", REPLACEMENTS)
def test_every_value_replaced(value: str) -> None:
    seen = set()
    for i, line in enumerate(LINES):
        m = re.match(r"^(\s*[a-z_]+ = ).+$", line)
        if m:
            seen.add(outcome(LINES[:i] + [m.group(1) + value] + LINES[i + 1 :]))
    assert "invalid" in seen
