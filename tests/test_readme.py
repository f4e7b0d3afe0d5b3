"""The README stays true: set-up commands, CI, example game files (console examples: test_docs_examples.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printkit.registry import score_file

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, flags=re.S)
GAME_FILES = [body for lang, body in BLOCKS if lang == "toml" and "[[players]]" in body]


def test_readme_opens_with_the_two_commands() -> None:
    first, second = (body.strip() for lang, body in BLOCKS[:2])
    assert first.endswith("printkit render map world")
    assert ".[test]" in second and "pytest" in second


def test_ci_runs_the_readme_test_command() -> None:
    test_command = BLOCKS[1][1].strip()
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_game_files_are_the_example_files() -> None:
    """Each game file shown names its file in docs/examples/ (where the console examples run) and is that file."""
    for body in GAME_FILES:
        name = re.match(r"# ([\w-]+\.toml)\b", body)
        assert name, body.splitlines()[0]
        assert (ROOT / "docs" / "examples" / name.group(1)).read_text(encoding="utf-8") == body


def test_readme_has_a_game_file_per_map() -> None:
    maps = {m for body in GAME_FILES for m in re.findall(r'^map = "([\w-]+)"', body, flags=re.M)}
    assert maps == {"world", "us", "europe", "south-america"}


@pytest.mark.parametrize("body", GAME_FILES, ids=lambda b: b.splitlines()[0][:40])
def test_readme_game_files_score(body: str, tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(body, encoding="utf-8")
    score = score_file(path)
    assert score.players and all(p.total >= 0 for p in score.players)
    if "Chris totals 46" in body:
        chris = score.players[0]
        assert (chris.name, chris.total) == ("Chris", 46)
        assert [s.points for s in chris.sections] == [14, 18, 11, 3]
