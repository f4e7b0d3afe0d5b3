"""A sweep of every command with hostile and careless arguments: one clear line, never a traceback or a hang.

Each case runs printkit in-process (the group's own streams, as the console
script) in a fresh copy of a folder of inputs (a map, a game file, junk, an empty
file, a folder, a state file of each companion) and checks: the exit status is 0, 1
or 2; nothing raised past the group; every stderr line is one of printkit's own
(``Error:``, Click's ``Usage:`` block, the notes a command prints); no raw escape or
bidi character reached either stream; the case ended within :data:`SECONDS`; and no
input file changed. Devices are given only where a command reads (``/dev/null``,
``/dev/full``), never as an output. Run it alone with
``pytest tests/test_sweep.py -q``; ``SWEEP_REPORT=1 pytest -s ...`` prints the totals (as do
tests/test_sweep_party.py and tests/test_sweep_history.py).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
from click.testing import CliRunner
from sweep_tally import Tally

from printkit.cli import cli

ROOT = Path(__file__).parent.parent
SECONDS = 60  # one case, at most (the slowest valid one renders a sheet)
EVIL = "x\x1b]0;pwned\x07\u202e"
TEXTS = ["", " ", "0", "-1", "9" * 30, "nan", "Zoë", "東京", EVIL, "a" * 10000, ",,,", "-",
         "../../etc/passwd", "Ann,ann"]
"""Values typed where a command expects a word, a number or names."""
INPUTS = ["missing.toml", "folder", "/dev/null", "/dev/full", "empty.toml", "junk.toml", "world.toml", "game.toml",
          "../../etc/passwd", "a" * 5000, f"{EVIL}.toml", ""]
"""Files named where a command reads one."""
OUTPUTS = ["", "folder", "nofolder/x.pdf", "a" * 5000 + ".pdf", f"{EVIL}.pdf", "Zoë.pdf", "folder/", ".", "x.pdf"]
"""Files named where a command writes one (no device, nothing outside the case's folder)."""
STDERR = ("Error: ", "Usage: ", "Try '", "Note: ", "Unsure: ", "Wrote ", "Saved ", "Not saved")

TEMPLATES: list[tuple[str, ...]] = [
    ("render", "map", "world", "--names", "{T}", "-o", "r.pdf"),
    ("render", "map", "world", "--players", "{T}", "-o", "r.pdf"),
    ("render", "{T}", "world", "-o", "r.pdf"),
    ("render", "map", "{T}", "-o", "r.pdf"),
    ("render", "map", "{I}", "-o", "r.pdf"),
    ("render", "map", "world", "-o", "{O}"),
    ("render", "map", "world", "-o", "f.pdf", "--fields", "{O}"),
    ("render", "map", "world", "--paper", "{T}", "-o", "r.pdf"),
    ("render", "map", "world", "--format", "{T}", "-o", "r.pdf"),
    ("render", "map", "world", "--seed", "{T}", "-o", "r.pdf"),
    ("score", "{I}"),
    ("score", "{I}", "--json"),
    ("score", "{T}"),
    ("score", "world", "--prompt", "--save", "{O}"),
    ("maps", "show", "{I}"),
    ("maps", "show", "{T}", "--json"),
    ("maps", "validate", "{I}"),
    ("roll", "--seed", "{T}"),
    ("turns", "start", "--players", "{T}", "--state", "new.json"),
    ("turns", "start", "--map", "{T}", "--state", "new.json"),
    ("turns", "start", "--map", "{I}", "--state", "new.json"),
    ("turns", "start", "--seed", "{T}", "--state", "new.json"),
    ("turns", "start", "--state", "{O}"),
    ("turns", "status", "--state", "{I}"),
    ("turns", "finish", "{T}", "--state", "turns.json"),
    ("abby", "start", "--bucket-cards", "{T}", "--state", "new.json"),
    ("abby", "turn", "--cards", "{T}", "--chose", "1", "--airfare", "3", "--state", "abby.json"),
    ("abby", "turn", "--cards", "7,12,3", "--chose", "{T}", "--airfare", "3", "--state", "abby.json"),
    ("abby", "turn", "--cards", "7,12,3", "--chose", "1", "--airfare", "{T}", "--state", "abby.json"),
    ("abby", "status", "--state", "{I}"),
    ("wereldsteden", "setup", "--seed", "{T}", "--state", "new.json"),
    ("wereldsteden", "refill", "{T}", "--state", "dealer.json"),
    ("wereldsteden", "status", "--state", "{I}"),
    ("host", "--players", "{T}", "-o", "h.html"),
    ("host", "--map", "{T}", "-o", "h.html"),
    ("host", "--map", "{I}", "-o", "h.html"),
    ("host", "--seed", "{T}", "-o", "h.html"),
    ("host", "-o", "{O}"),
    ("{T}",),
]
SCAN = [("scan", "{I}"), ("scan", "{T}")]
"""scan reads what it is given to the end: no endless device for it (its budgets are another part of issue 20)."""


def cases() -> Iterator[tuple[str, ...]]:
    """Every template with every value of its slot."""
    for template in TEMPLATES + SCAN:
        slot = next(part for part in template if part in ("{T}", "{I}", "{O}"))
        values = {"{T}": TEXTS, "{I}": INPUTS, "{O}": OUTPUTS}[slot]
        for value in values:
            if template[0] == "scan" and value.startswith("/dev/"):
                continue
            yield tuple(value if part == slot else part for part in template)


CASES = list(cases())


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The inputs every case starts from."""
    folder = tmp_path_factory.mktemp("sweep")
    shutil.copy(ROOT / "maps" / "world.toml", folder / "world.toml")
    shutil.copy(ROOT / "maps" / "world.toml", folder / f"{EVIL}.toml")
    game = (Path(__file__).parent / "data" / "games" / "world-chris.toml").read_text(encoding="utf-8")
    (folder / "game.toml").write_text(game, encoding="utf-8")
    (folder / "empty.toml").write_bytes(b"")
    (folder / "junk.toml").write_bytes(bytes(range(256)) * 4)
    (folder / "folder").mkdir()
    (folder / "folder" / "inside.txt").write_text("mine")
    runner = CliRunner()
    for args in (["turns", "start", "--players", "Ann,Bo", "--state", "turns.json", "--seed", "1"],
                 ["abby", "start", "--bucket-cards", "3", "--state", "abby.json"],
                 ["wereldsteden", "setup", "--seed", "1", "--state", "dealer.json"]):
        old = os.getcwd()
        os.chdir(folder)
        try:
            assert runner.invoke(cli, args).exit_code == 0
        finally:
            os.chdir(old)
    return folder


def digests(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and the bundled maps, by content."""
    files = [p for p in folder.rglob("*") if p.is_file()] + sorted((ROOT / "maps").glob("*.toml"))
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


class Hang(Exception):
    """A case ran past :data:`SECONDS`."""


def _alarm(number: int, frame: FrameType | None) -> None:
    raise Hang()


def sweep(args: tuple[str, ...], folder: Path) -> list[str]:
    """Run one case in ``folder``; what it got wrong (nothing, if all is well)."""
    before = digests(folder)
    old = os.getcwd()
    os.chdir(folder)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        result = CliRunner().invoke(cli, list(args), input="")
    except Hang:
        return [f"no end within {SECONDS} s"]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(old)
    problems = []
    if isinstance(result.exception, Hang):
        problems.append(f"no end within {SECONDS} s")
    elif result.exception is not None and not isinstance(result.exception, SystemExit):
        problems.append(f"traceback: {type(result.exception).__name__}: {str(result.exception)[:200]}")
    if result.exit_code not in (0, 1, 2):
        problems.append(f"exit status {result.exit_code}")
    out, err = result.stdout, result.stderr
    if "Traceback" in out + err or "Aborted!" in err:
        problems.append("a traceback or Click's Aborted! printed")
    odd = [line for line in err.splitlines() if line and not line.startswith(STDERR)]
    if odd:
        problems.append(f"stderr line {odd[0][:120]!r}")
    if any(ch in out + err for ch in ("\x1b", "\x07", "\u202e")):
        problems.append("a raw escape or bidi character printed")
    after = digests(folder)
    written = {name for name in ("new.json", "turns.json", "abby.json", "dealer.json") if name in args}
    changed = [p for p, d in before.items() if after.get(p) != d and not (result.exit_code == 0 and
                                                                         Path(p).name in written)]
    if changed:
        problems.append(f"input changed: {changed[:3]}")
    return problems


TALLY = Tally("every command, hostile arguments and files", ("tracebacks", "hangs", "other failures"))


@pytest.fixture(scope="module", autouse=True)
def totals() -> Iterator[None]:
    """The totals of the cases this process ran, printed at the end with ``SWEEP_REPORT=1`` (and ``-s``)."""
    yield
    TALLY.report()


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a)[:60].encode("unicode_escape").decode())
def test_sweep(args: tuple[str, ...], template: Path, tmp_path: Path) -> None:
    if args[0] == "scan":
        pytest.importorskip("cv2")
    folder = tmp_path / "case"
    shutil.copytree(template, folder)
    TALLY.case()
    problems = sweep(args, folder)
    for problem in problems:
        kind = "tracebacks" if problem.startswith("traceback") else "hangs" if "no end" in problem else "other failures"
        TALLY.failed(kind, f"{' '.join(args)[:60]}: {problem}")
    assert problems == []


def test_the_sweep_is_big_enough() -> None:
    assert len(CASES) >= 400
