"""Issue 20, the command line: escaped echoes, signals, one-line errors, tampered state, a C locale."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.model.names import escaped, typed

ROOT = Path(__file__).parent.parent
WORLD = ROOT / "maps" / "world.toml"
GAME = Path(__file__).parent / "data" / "games" / "world-chris.toml"
EVIL = "x\x1b]0;pwned\x07\u202e"  # an OSC title sequence and a right-to-left override
RAW = ("\x1b", "\x07", "\u202e")
SHOWN = "x\\x1b]0;pwned\\x07\\u202e"


def run(args: list[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """printkit in-process (the group's own streams): no traceback."""
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args)
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def no_raw(out: str, err: str) -> None:
    for ch in RAW:
        assert ch not in out and ch not in err, (out, err)


def shell(args: list[str], cwd: Path, env: dict[str, str] | None = None, **kw: object) -> subprocess.CompletedProcess[bytes]:
    """The real console script path (``python -m printkit``), bytes as they reach the terminal."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, env=environ, capture_output=True,
                          timeout=120, **kw)  # type: ignore[call-overload,no-any-return]


# ---------------------------------------------------------------- one escaping helper


def test_escaped_shows_controls_and_format_characters_and_keeps_text() -> None:
    assert escaped(EVIL) == SHOWN
    assert escaped("Zoë 東京 👨\u200d👩\n\tok") == "Zoë 東京 👨\u200d👩\n\tok"  # ZWJ joins emoji, as names allow
    assert escaped("a\rb\x7f\x9b\u2028\U000e0001") == "a\\x0db\\x7f\\x9b\\u2028\\U000e0001"
    assert escaped("Zo\udcc3\udcab") == "Zoë"  # a C locale's undecoded UTF-8 file name is shown as the name it is
    assert escaped("\udcff") == "\\udcff"  # not UTF-8: shown escaped, never a lone surrogate on the terminal


def test_typed_reads_undecoded_utf8_bytes() -> None:
    assert typed("Zo\udcc3\udcab") == "Zoë"
    assert typed("Zo\udceb") == "Zo\udceb"  # Latin-1 bytes are not UTF-8: left for the name rule to refuse
    assert typed("plain") == "plain"


# ---------------------------------------------------------------- every echo of a path or a name


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    """A folder holding a copy of the world map, a game file and a folder, each named with EVIL."""
    shutil.copy(WORLD, tmp_path / f"{EVIL}.toml")
    shutil.copy(GAME, tmp_path / f"{EVIL}-game.toml")
    (tmp_path / f"{EVIL}-game.toml").write_text(GAME.read_text().replace('"world"', json.dumps(str(WORLD))))
    return tmp_path


ECHOING = [
    (["maps", "validate", f"{EVIL}.toml"], 0, "OK "),
    (["maps", "validate", f"{EVIL}-missing.toml"], 1, "Error: "),
    (["maps", "show", f"{EVIL}-missing.toml"], 1, "Error: "),
    (["render", "map", "world", "-o", f"{EVIL}.pdf"], 0, "Wrote "),
    (["render", "map", f"{EVIL}.toml", "-o", "m.pdf"], 0, ""),
    (["render", "map", "world", "-o", f"{EVIL}/m.pdf"], 2, "Error: "),
    (["render", "map", "world", "--names", EVIL], 2, "Error: "),
    (["render", "map", "world", "--paper", EVIL], 2, "Error: "),
    (["render", "map", "world", EVIL], 2, "Error: "),
    (["render", EVIL, "world"], 2, "Error: "),
    ([EVIL], 2, "Error: "),
    (["score", f"{EVIL}-game.toml"], 0, ""),  # the game's text: its file name is not echoed
    (["score", f"{EVIL}-missing.toml"], 2, "Error: "),
    (["turns", "start", "--players", "Ann,Bo", "--state", f"{EVIL}.json"], 0, "Saved in "),
    (["turns", "start", "--players", f"Ann,{EVIL}", "--state", "t.json"], 2, "Error: "),
    (["turns", "status", "--state", f"{EVIL}-missing.json"], 1, "Error: "),
    (["abby", "start", "--bucket-cards", "3", "--state", f"{EVIL}.json"], 0, "Saved in "),
    (["wereldsteden", "setup", "--state", f"{EVIL}.json"], 0, "Saved in "),
    (["wereldsteden", "refill", EVIL, "--state", "w.json"], 2, "Error: "),
    (["host", "--map", "world", "--players", "Ann", "-o", f"{EVIL}.html"], 0, "Wrote "),
    (["host", "--map", EVIL, "-o", "h.html"], 2, "Error: "),
    (["roll", "--seed", EVIL], 2, "Error: "),
]


@pytest.mark.parametrize(("args", "status", "says"), ECHOING, ids=lambda v: " ".join(v)[:40] if isinstance(v, list)
                         else None)
def test_every_echo_escapes_a_hostile_name(evil: Path, args: list[str], status: int, says: str) -> None:
    if args[0] == "turns" and args[1] == "status" or args[:2] == ["wereldsteden", "refill"]:
        run(["turns", "start", "--state", str(evil / "t0.json")], evil)
        run(["wereldsteden", "setup", "--state", str(evil / "w.json")], evil)
    code, out, err = run(args, evil)
    assert code == status, (out, err)
    no_raw(out, err)
    assert says in out + err
    if says:
        assert "\\x1b" in out + err  # shown, escaped, not dropped


def test_scan_echoes_a_hostile_file_name_escaped(evil: Path) -> None:
    pytest.importorskip("cv2")
    (evil / f"{EVIL}.png").write_bytes(b"not a picture")
    code, out, err = run(["scan", f"{EVIL}.png"], evil)
    assert code == 1
    no_raw(out, err)
    assert "\\x1b" in err


def test_the_console_script_writes_no_raw_escape_to_the_terminal(evil: Path) -> None:
    done = shell(["maps", "validate", f"{EVIL}.toml", f"{EVIL}-missing.toml"], evil)
    assert done.returncode == 1
    for raw in (b"\x1b", b"\x07", "\u202e".encode()):
        assert raw not in done.stdout and raw not in done.stderr
    assert done.stdout.startswith(b"OK x\\x1b]0;pwned\\x07\\u202e.toml: Around the World")
    assert done.stderr.startswith(b"Error: x\\x1b]0;pwned\\x07\\u202e-missing.toml: ")


# ---------------------------------------------------------------- signals


def _interrupt(tmp_path: Path, number: int) -> subprocess.CompletedProcess[bytes]:
    """Start a 300-page PNG pack, send ``number`` once its first temp file is there; wait for the end."""
    (tmp_path / "out").mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "printkit", "render", "map", "world", "--players", "300",
                             "--format", "png", "-o", "out/p.png"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    try:
        while not list((tmp_path / "out").glob(".*.tmp")):
            assert proc.poll() is None, "the render ended before writing any temp file"
            assert time.monotonic() < deadline, "no temp file within 90 s"
            time.sleep(0.01)
        proc.send_signal(number)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize(("number", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["term", "int"])
def test_a_signal_mid_pack_is_one_line_and_leaves_no_file(tmp_path: Path, number: int, status: int) -> None:
    done = _interrupt(tmp_path, number)
    assert done.returncode == status
    assert done.stderr == b"Error: interrupted\n"
    assert done.stdout == b""
    assert sorted(os.listdir(tmp_path / "out")) == []  # no temp file, no page of a partial pack


def test_ctrl_c_at_a_question_is_an_interruption(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "printkit", "score", "world", "--prompt"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    seen = b""
    os.set_blocking(proc.stdout.fileno(), False)
    while b"Mode" not in seen:
        assert time.monotonic() < deadline and proc.poll() is None
        seen += proc.stdout.read() or b""
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, b"Error: interrupted\n")


# ---------------------------------------------------------------- one-line errors, not tracebacks


def test_a_5000_character_output_name(tmp_path: Path) -> None:
    code, out, err = run(["render", "map", "world", "-o", "a" * 5000 + ".pdf"], tmp_path)
    assert code == 2
    assert err.endswith("Error: Invalid value for '-o' / '--output': cannot use '" + "a" * 236 + "...: "
                        "File name too long\n")


def test_output_is_a_file_where_the_default_folder_goes(tmp_path: Path) -> None:
    (tmp_path / "output").write_text("mine")
    code, out, err = run(["render", "map", "world"], tmp_path)
    assert code == 2
    assert err.endswith("Error: Invalid value for '-o' / '--output': 'output' is a file, not a folder: "
                        "give -o PATH\n")
    assert (tmp_path / "output").read_text() == "mine"


@pytest.mark.parametrize("pdf_exists", [False, True])
def test_fields_that_is_the_sheet_itself_is_refused(tmp_path: Path, pdf_exists: bool) -> None:
    if pdf_exists:
        (tmp_path / "x.pdf").write_bytes(b"%PDF-old")
    code, out, err = run(["render", "map", "world", "-o", "x.pdf", "--fields", "x.pdf"], tmp_path)
    assert code == 2
    assert err.endswith("Error: Invalid value for '-o' / '--output': 'x.pdf' is also the '--fields' file; one "
                        "would replace the other: give them different names\n")
    assert sorted(os.listdir(tmp_path)) == (["x.pdf"] if pdf_exists else [])
    if pdf_exists:
        assert (tmp_path / "x.pdf").read_bytes() == b"%PDF-old"


def test_a_pack_page_that_is_the_fields_file_is_refused(tmp_path: Path) -> None:
    code, _, err = run(["render", "map", "world", "--players", "2", "--format", "svg", "-o", "p.svg",
                        "--fields", "p-02.svg"], tmp_path)
    assert code == 2 and "'p-02.svg' is also the '--fields' file" in err
    assert os.listdir(tmp_path) == []


def test_prompt_with_stdin_closed(tmp_path: Path) -> None:
    done = shell(["score", "world", "--prompt"], tmp_path, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
    assert done.returncode == 2
    assert done.stderr.endswith(b"Error: standard input is closed; typing in the marks of 'world' reads them there: "
                                b"run this in a terminal, or give a game file\n")


def test_prompt_at_end_of_input(tmp_path: Path) -> None:
    done = shell(["score", "world", "--prompt"], tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr == (b"Error: input ended while asking for 'Mode' (expected multiplayer, solo or party); "
                           b"nothing was saved\n")


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A folder every user can reach (pytest's own are the owner's only)."""
    folder = Path(tempfile.mkdtemp(prefix="printkit-nobody-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _as_nobody(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run printkit in-process in a child that cannot read 0o000 files (root drops to nobody after the imports)."""
    if os.geteuid() != 0:
        return run(args, cwd)
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 99
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            code, out, err = run(args, cwd)
            os.write(writer, json.dumps([code, out, err]).encode())
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            os.write(writer, json.dumps([code, "", repr(exc)]).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    code, out, err = json.loads(data)
    return code, out, err


@pytest.mark.parametrize("args", [
    ["render", "map", "world", "-o", "locked/x.pdf"],
    ["turns", "start", "--state", "locked/s.json"],
    ["abby", "start", "--bucket-cards", "3", "--state", "locked/s.json"],
    ["wereldsteden", "setup", "--state", "locked/s.json"],
    ["host", "--players", "Ann", "-o", "locked/x.html"],
    ["maps", "validate", "locked/world.toml"],
    ["render", "map", "locked/world.toml", "-o", "x.pdf"],
], ids=lambda a: " ".join(a[:2]))
def test_an_unreadable_folder_is_one_line(open_tmp: Path, args: list[str]) -> None:
    tmp_path = open_tmp
    warm = tmp_path / "warm"
    warm.mkdir()
    shutil.copy(WORLD, warm / "world.toml")
    run([a.replace("locked/", "warm/") for a in args], tmp_path)  # every module the command needs is loaded
    locked = tmp_path / "locked"
    locked.mkdir()
    shutil.copy(WORLD, locked / "world.toml")
    locked.chmod(0)
    try:
        code, out, err = _as_nobody(args, tmp_path)
    finally:
        locked.chmod(0o755)
    assert code in (1, 2), err
    assert err.splitlines()[-1].startswith("Error: "), err
    assert "Permission denied" in err and "Traceback" not in err
    assert sorted(os.listdir(locked)) == ["world.toml"]


# ---------------------------------------------------------------- tampered state files


def _state(tmp_path: Path, *args: str) -> Path:
    state = tmp_path / "s.json"
    code, _, err = run([*args, "--state", str(state)], tmp_path)
    assert code == 0, err
    return state


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("seed", -1, "a whole number from 0 to 9223372036854775807"),
    ("seed", 2**64, "invalid JSON: the number 18446744073709551616 is beyond ±9223372036854775807 (numbers in "
                    "printkit files are far smaller)"),
    ("seed", True, "a whole number from 0 to 9223372036854775807"),
    ("map.id", "../../etc/passwd", "a map id (lowercase words joined by hyphens)"),
    ("map.ratings", [{"min_points": -5, "title": "x"}], None),
])
def test_a_tampered_turns_state_names_file_and_field(tmp_path: Path, field: str, value: object,
                                                     expected: str | None) -> None:
    state = _state(tmp_path, "turns", "start", "--players", "Ann")
    doc = json.loads(state.read_text())
    if field.startswith("map."):
        doc["map"][field[4:]] = value
    else:
        doc[field] = value
    state.write_text(json.dumps(doc))
    before = state.read_bytes()
    code, out, err = run(["turns", "next", "--state", str(state)], tmp_path)
    where = "map.ratings[0]: expected " if expected is None else "" if expected.startswith("invalid") else f"{field}: expected "
    expected = expected or "min_points 0-9999 and title"
    assert (code, out) == (1, "")
    assert err == f"Error: {state}: state file is corrupt ({where}{expected}); it was left untouched\n"
    assert state.read_bytes() == before


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_tampered_dealer_seed(tmp_path: Path, seed: int) -> None:
    state = _state(tmp_path, "wereldsteden", "setup")
    doc = json.loads(state.read_text())
    doc["seed"] = seed
    state.write_text(json.dumps(doc))
    code, _, err = run(["wereldsteden", "status", "--state", str(state)], tmp_path)
    assert code == 1
    said = ("seed: expected a whole number from 0 to 9223372036854775807" if seed < 0 else  # past 2**63-1: the reader
            f"invalid JSON: the number {seed} is beyond ±9223372036854775807 (numbers in printkit files are far smaller)")
    assert err == f"Error: {state}: state file is corrupt ({said}); it was left untouched\n"


# ---------------------------------------------------------------- a non-UTF-8 locale

def test_zoe_in_a_c_locale(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LANG", "LC_CTYPE")}
    env.update(LC_ALL="C", PYTHONUTF8="0", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "printkit", "turns", "start", "--players", "Zoë,Bo",
                           "--state", "Zoë.json", "--seed", "1"], cwd=tmp_path, env=env, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"Players (2): Zo\xc3\xab, Bo\n" in done.stdout
    assert b"Saved in Zo\xc3\xab.json." in done.stdout
    assert json.loads((tmp_path / "Zoë.json").read_text(encoding="utf-8"))["players"] == ["Zoë", "Bo"]
    done = subprocess.run([sys.executable, "-m", "printkit", "render", "map", "world", "--names", "Zoë",
                           "-o", "Zoë.pdf"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == b"Wrote Zo\xc3\xab.pdf (1 page, PDF, A4)\n"
    assert (tmp_path / "Zoë.pdf").read_bytes().startswith(b"%PDF")
