"""Every console example of README.md and docs/*.md runs as shown.

Convention (details in tests/docs_examples.py): only ```console blocks run; ``$ cmd``
lines are commands, the lines below them their output; a line ``...`` stands for
any number of lines; a last line ``[exit N]`` is the expected non-zero status.
Each block starts in a fresh copy of docs/examples/. ```sh blocks (set-up,
downloads, benchmarks, the test suite) are not run and hold no printkit command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from docs_examples import (
    EXAMPLES,
    ROOT,
    Block,
    Outcome,
    console_blocks,
    doc_files,
    fences,
    lines_match,
    misplaced_commands,
    parse_block,
    report,
    run_block,
)

BLOCKS = console_blocks()


@pytest.fixture(scope="module")
def results(request: pytest.FixtureRequest) -> Iterator[dict[str, Future[list[Outcome]]]]:
    """Every selected block started at once in a few threads (each command is its own process)."""
    chosen = [block for item in request.session.items
              if isinstance(item, pytest.Function) and item.originalname == "test_docs_example"
              and isinstance(block := item.callspec.params["block"], Block)]
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        futures = {block.name: pool.submit(run_block, block) for block in chosen}
        yield futures
        for future in futures.values():
            future.cancel()


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_docs_example(block: Block, results: dict[str, Future[list[Outcome]]]) -> None:
    outcomes = results[block.name].result()
    assert len(outcomes) == len(block.steps)
    assert report(block, outcomes) == ""


def test_the_docs_have_console_examples() -> None:
    names = {b.path.name for b in BLOCKS}
    assert {"README.md", "companion.md", "games.md", "maps.md", "render.md", "scan.md", "scoring.md"} <= names
    assert sum(len(b.steps) for b in BLOCKS) > 60


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: p.name)
def test_commands_are_only_in_console_blocks(path: Path) -> None:
    assert misplaced_commands(fences(path)) == []


def test_files_shown_are_the_example_files() -> None:
    """A file shown in the docs under its name (`# trek.toml` as its first line) is that file in docs/examples/."""
    shown = [(f, m.group(1)) for path in doc_files() for f in fences(path)
             if f.lines and (m := re.match(r"# ([\w-]+\.(?:toml|json))\b", f.lines[0]))]
    assert len(shown) >= 7
    for fence, name in shown:
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        where = f"{fence.path.name}:{fence.line}"
        assert text == "\n".join(fence.lines) + "\n", f"{where} differs from docs/examples/{name}"


def test_every_example_file_is_used() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in doc_files())
    names = sorted(p.name for p in EXAMPLES.iterdir())
    assert names and [n for n in names if n not in text] == []


# The harness itself can fail.

def _block(text: str) -> Block:
    (fence,) = fences(ROOT / "fake.md", text)
    return parse_block(fence)


def test_commands_outside_console_blocks_are_found() -> None:
    text = ("```\n$ printkit roll\n```\n```sh\nprintkit roll\n```\n```text\nprintkit score GAMEFILE\n```\n"
            "```console\n$ printkit roll\n```\n```sh\npython -m venv .venv\n```\n")
    assert misplaced_commands(fences(ROOT / "fake.md", text)) == [
        "fake.md:1 (no language): $ printkit roll", "fake.md:4 (sh): printkit roll"]


def test_lines_match_literal_and_ellipsis() -> None:
    assert lines_match(["a", "b"], ["a", "b"])
    assert not lines_match(["a", "b"], ["a", "c"])
    assert not lines_match(["a"], ["a", "b"])
    assert not lines_match(["a", "b"], ["a"])
    assert lines_match(["a", "...", "d"], ["a", "b", "c", "d"])
    assert lines_match(["a", "...", "d"], ["a", "d"])
    assert lines_match(["  ..."], [])
    assert lines_match(["...", "x", "..."], ["1", "x", "2"])
    assert not lines_match(["a", "...", "d"], ["a", "b", "c"])
    assert not lines_match(["...", "x"], ["x", "y"])
    assert not lines_match(["a", "...", "d"], ["a", "b", "d", "e"])


def test_a_block_parses_into_steps_with_exit_statuses() -> None:
    block = _block("```console\n$ one\nout\n[exit 2]\n$ two\n```\n")
    assert [(s.command, s.expected, s.status) for s in block.steps] == [("one", ("out",), 2), ("two", (), 0)]
    with pytest.raises(ValueError, match="starts with a `\\$ ` line"):
        _block("```console\noutput first\n```\n")


def test_a_wrong_output_is_reported() -> None:
    block = _block("```console\n$ printkit roll --seed 7\n3 + 3 -> Collect, plus one action of your choice\n```\n")
    outcomes = run_block(block)
    assert [o.output for o in outcomes] == [("3 + 2 -> Collect and Travel, in either order",)]
    message = report(block, outcomes)
    assert "fake.md:2: $ printkit roll --seed 7" in message
    assert "| 3 + 3 -> Collect" in message and "| 3 + 2 -> Collect and Travel" in message


def test_ellipsis_and_state_carry_through_a_block() -> None:
    block = _block(
        "```console\n"
        "$ printkit turns start --seed 42\n...\nRoll turn 1 with `printkit turns next`. Saved in printkit-game.json.\n"
        "$ printkit turns next\nTurn 1 of 20: 2 + 5 -> Travel and Explore, in either order\n...\n"
        "$ ls *.json\nprintkit-game.json\n"
        "```\n"
    )
    outcomes = run_block(block)
    assert report(block, outcomes) == ""
    cut = _block("```console\n$ printkit turns start --seed 42\nNew game\n...\n```\n")
    assert "fake.md:2" in report(cut, run_block(cut))


def test_the_exit_status_is_checked() -> None:
    shown = ("```console\n$ printkit roll --seed x\n...\n"
             "Error: Invalid value for '--seed': expected a whole number from 0 to 9223372036854775807, got 'x'\n")
    failing = _block(shown + "[exit 2]\n```\n")
    assert report(failing, run_block(failing)) == ""
    unshown = _block(shown + "```\n")
    assert "exit status 2, shown 0" in report(unshown, run_block(unshown))
    wrong = _block(shown + "[exit 1]\n```\n")
    assert "exit status 2, shown 1" in report(wrong, run_block(wrong))


def test_the_environment_is_fixed_and_inside_the_folder() -> None:
    block = _block("```console\n$ echo $HOME $PWD $COLUMNS; printenv PRINTKIT_CACHE_DIR\n```\n")
    (outcome,) = run_block(block)
    assert outcome.output == ("/home/me /home/me/games 80", "/home/me/.cache/printkit")
