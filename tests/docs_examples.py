"""Run the console examples of README.md and docs/*.md exactly as shown.

The convention, for anyone writing docs:

- Only ```console blocks are run. Each line ``$ command`` is a command; the lines
  below it, up to the next ``$`` line, are its output (stdout and stderr as one
  stream), matched line by line. A line ``...`` (indentation allowed) matches any
  number of lines. A last line ``[exit N]`` means the command exits with status N;
  without it the status must be 0.
- Each block runs in a fresh temporary folder that starts as a copy of
  ``docs/examples/``; its commands run there one after another through ``bash -c``
  (pipes, redirections and ``# comments`` work), so a transcript's state carries
  from line to line. ``printkit`` is the checkout under test. The environment is
  fixed (HOME, the XDG folders and the layout cache inside the temporary folder,
  COLUMNS=80, UTF-8, UTC); the folder reads ``/home/me/games`` in the output.
- ```sh blocks are commands the suite cannot run as shown (set-up in a fresh
  venv, downloads, benchmarks whose numbers differ by machine, the test suite
  itself); they hold no ``printkit`` command and no ``$`` prompt.

``python tests/docs_examples.py FILE.md...`` prints each console block of the
files with the commands' real output, ready to paste.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
SHOWN_HOME = "/home/me"
"""HOME as the output shows it: the temporary root is cut from every path."""
WORK = "games"
"""The folder under HOME where a block's commands run."""
TIMEOUT = 120
EXIT_LINE = re.compile(r"^\[exit (\d+)\]$")
FENCE = re.compile(r"^( *)```(\w*)\s*$")
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b")


@dataclass(frozen=True)
class Fence:
    """One fenced block of a Markdown file: its language tag and lines."""

    path: Path
    line: int
    lang: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """One ``$ command`` of a console block, the output shown below it and the exit status expected."""

    line: int
    command: str
    expected: tuple[str, ...]
    status: int


@dataclass(frozen=True)
class Block:
    """A console block: commands run in sequence in one folder."""

    path: Path
    line: int
    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        """``README.md:123``: where the block starts."""
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


@dataclass(frozen=True)
class Outcome:
    """What a step really printed and its exit status."""

    step: Step
    output: tuple[str, ...]
    status: int

    @property
    def ok(self) -> bool:
        """Whether the output and status are the ones shown."""
        return self.status == self.step.status and lines_match(self.step.expected, self.output)


def doc_files() -> list[Path]:
    """README.md and docs/*.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def fences(path: Path, text: str | None = None) -> list[Fence]:
    """Every fenced block of a Markdown file (indented fences in lists too)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    found: list[Fence] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent = opening.group(1)
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = tuple(line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end])
        found.append(Fence(path, i + 1, opening.group(2), body))
        i = end + 1
    return found


def parse_block(fence: Fence) -> Block:
    """The steps of a console block; text before the first ``$`` line is an error."""
    steps: list[Step] = []
    command: tuple[int, str] | None = None
    shown: list[str] = []

    def close() -> None:
        if command is None:
            return
        status = 0
        if shown and (end := EXIT_LINE.match(shown[-1])):
            status = int(end.group(1))
            del shown[-1]
        steps.append(Step(command[0], command[1], tuple(shown), status))

    for offset, line in enumerate(fence.lines, start=fence.line + 1):
        if line.startswith("$ "):
            close()
            command, shown = (offset, line[2:]), []
        elif command is None:
            raise ValueError(f"{fence.path.name}:{offset}: a console block starts with a `$ ` line: {line!r}")
        else:
            shown.append(line)
    close()
    return Block(fence.path, fence.line, tuple(steps))


def console_blocks(paths: Sequence[Path] | None = None) -> list[Block]:
    """Every ```console block of the docs, parsed."""
    return [parse_block(f) for path in (paths or doc_files()) for f in fences(path) if f.lang == "console"]


def misplaced_commands(found: Sequence[Fence]) -> list[str]:
    """Commands the suite would not run: a ``$`` prompt or a printkit command outside a console block."""
    problems = []  # a synopsis with placeholders (``printkit score GAMEFILE``) may stand in a ```text block
    for fence in found:
        if fence.lang == "console":
            continue
        for line in fence.lines:
            synopsis = fence.lang == "text" and PLACEHOLDER.search(line)
            if line.startswith("$ ") or (line.startswith("printkit ") and not synopsis):
                problems.append(f"{fence.path.name}:{fence.line} ({fence.lang or 'no language'}): {line}")
    return problems


def lines_match(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` is ``expected`` line by line, each ``...`` line standing for any number of lines."""
    reached = {0}  # how many actual lines the expected lines so far can have matched
    for line in expected:
        if not reached:
            return False
        if line.strip() == "...":
            reached = set(range(min(reached), len(actual) + 1))
        else:
            reached = {j + 1 for j in reached if j < len(actual) and actual[j] == line}
    return len(actual) in reached


def _environment(root: Path) -> dict[str, str]:
    """The fixed environment a block runs in, everything inside ``root``."""
    home = root / SHOWN_HOME.lstrip("/")
    return {
        "PATH": f"{root / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "PRINTKIT_CACHE_DIR": str(home / ".cache" / "printkit"),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",  # stdout and stderr interleave as in a terminal
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "COLUMNS": "80",
        "LINES": "24",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "TERM": "dumb",
    }


SPAWNING = threading.Lock()
"""Held while a block's ``printkit`` script is written and while a command is started, so that no child
process forked by another thread holds the script open for writing when it is run."""


def _prepare(root: Path) -> Path:
    """Make HOME, the working folder (a copy of docs/examples) and a ``printkit`` script; return the folder."""
    work = root / SHOWN_HOME.lstrip("/") / WORK
    shutil.copytree(EXAMPLES, work)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    script = bin_dir / "printkit"  # what the console script runs, run by this interpreter
    lines = [f"#!{sys.executable}", "import sys", "from printkit.cli import main", "sys.exit(main())"]
    with SPAWNING:  # no other thread forks while the script is open for writing (exec would fail: ETXTBSY)
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        script.chmod(0o755)
    return work


def run_block(block: Block) -> list[Outcome]:
    """Run a block's commands in sequence in a fresh copy of docs/examples."""
    with tempfile.TemporaryDirectory(prefix="printkit-docs-") as tmp:
        root = Path(tmp).resolve()
        work = _prepare(root)
        env = _environment(root)
        outcomes = []
        for step in block.steps:
            with SPAWNING:
                child = subprocess.Popen(["bash", "-c", step.command], cwd=work, env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            with child:
                try:
                    out, _ = child.communicate(timeout=TIMEOUT)
                except subprocess.TimeoutExpired:
                    child.kill()
                    raise
            text = out.decode("utf-8", errors="replace").replace(str(root), "")
            outcomes.append(Outcome(step, tuple(text.splitlines()), child.returncode))
        return outcomes


def report(block: Block, outcomes: Sequence[Outcome]) -> str:
    """A readable account of every step that did not print what the docs show ('' if all did)."""
    parts = []
    for outcome in outcomes:
        if outcome.ok:
            continue
        step = outcome.step
        where = f"{block.path.relative_to(ROOT).as_posix()}:{step.line}"
        parts.append(f"{where}: $ {step.command}\n  exit status {outcome.status}, shown {step.status}")
        if not lines_match(step.expected, outcome.output):
            parts.append("  shown:\n" + _indent(step.expected) + "\n  real:\n" + _indent(outcome.output))
    return "\n".join(parts)


def _indent(lines: Sequence[str]) -> str:
    return "\n".join(f"    | {line}" for line in lines) or "    (nothing)"


def transcript(outcomes: Sequence[Outcome]) -> Iterator[str]:
    """The block as it should read: each command and its real output."""
    for outcome in outcomes:
        yield f"$ {outcome.step.command}"
        yield from outcome.output
        if outcome.status:
            yield f"[exit {outcome.status}]"


def main(argv: Sequence[str]) -> int:
    """Print every console block of the files given with the commands' real output."""
    failed = 0
    for block in console_blocks([Path(a).resolve() for a in argv] or None):
        outcomes = run_block(block)
        failed += not all(o.ok for o in outcomes)
        mark = "ok" if all(o.ok for o in outcomes) else "DIFFERS"
        print(f"== {block.name} ({mark})\n```console")
        print("\n".join(transcript(outcomes)))
        print("```")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
