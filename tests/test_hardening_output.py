"""Issue 11, the writing half: stdout that fails, outputs over inputs, whole packs, exit status, names, prompts.

Every case asserts the exact message, the exit status, and that the inputs
are byte-identical afterwards.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner

import printkit.files
from printkit import backends
from printkit.cli import cli
from printkit.layout.primitives import Document, Page, Rect

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
OUT = "Invalid value for '-o' / '--output'"


def run_printkit(*args: str, stdout: int | IO[bytes]) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m printkit`` in a real process with this stdout."""
    return subprocess.run([sys.executable, "-m", "printkit", *args], env=ENV, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=60)


def last_error(result: object) -> str:
    """The last line of stderr of a CliRunner result."""
    return str(getattr(result, "stderr")).splitlines()[-1]


@pytest.fixture
def my_map(tmp_path: Path) -> Path:
    """A user's map file (a copy of Europe)."""
    path = tmp_path / "my.toml"
    shutil.copy(MAPS / "europe.toml", path)
    return path


# ---------------------------------------------------------------- stdout full or closed


@pytest.mark.parametrize("args", [
    ["roll", "--seed", "1"],
    ["score", str(ROOT / "tests" / "data" / "games" / "world-chris.toml")],
    ["render", "tracker", "world", "-o", "-"],
    ["--help"],
])  # fmt: skip
def test_stdout_full_is_one_line_on_stderr(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        result = run_printkit(*args, stdout=full)
    assert result.returncode == 1
    assert result.stderr == b"Error: cannot write to standard output: No space left on device\n"


def test_stdout_closed_is_one_line_on_stderr() -> None:
    # fd 1 closed in the child (as `>&-` does): Python starts with sys.stdout None
    result = subprocess.run([sys.executable, "-c", "import os; os.close(1); import runpy; "
                             "import sys; sys.argv = ['printkit', 'render', 'tracker', 'world', '-o', '-']; "
                             "sys.stdout = None; runpy.run_module('printkit', run_name='__main__')"],
                            env=ENV, stderr=subprocess.PIPE, timeout=60)  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == (b"Error: standard output is closed; printkit prints its results there "
                             b"(redirect it to a file or to /dev/null instead)\n")


def test_stdout_closed_by_the_shell() -> None:
    result = subprocess.run(["sh", "-c", f"'{sys.executable}' -m printkit roll --seed 1 >&-"], env=ENV,
                            stderr=subprocess.PIPE, timeout=60)  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.startswith(b"Error: standard output is closed;")


def test_closed_pipe_exits_quietly_with_141() -> None:
    read, write = os.pipe()
    os.close(read)  # nobody will ever read: every write is EPIPE
    try:
        result = run_printkit("render", "tracker", "world", "-o", "-", stdout=write)
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (141, b"")


# ---------------------------------------------------------------- no command writes over its input


def test_render_over_its_map_is_refused(runner: CliRunner, my_map: Path) -> None:
    before = my_map.read_bytes()
    result = runner.invoke(cli, ["render", "map", str(my_map), "--format", "pdf", "-o", str(my_map)])
    assert result.exit_code == 2
    assert last_error(result) == (f"Error: {OUT}: '{my_map}' is an input of this command; "
                                  "writing there would replace it: choose another file")
    assert my_map.read_bytes() == before


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_render_over_a_link_to_its_map_is_refused(runner: CliRunner, my_map: Path, link: str) -> None:
    before = my_map.read_bytes()
    other = my_map.with_name("other.pdf")
    (other.symlink_to if link == "symlink" else other.hardlink_to)(my_map)
    result = runner.invoke(cli, ["render", "map", str(my_map), "-o", str(other)])
    assert result.exit_code == 2
    assert last_error(result) == (f"Error: {OUT}: '{other}' is the same file as the input '{my_map}'; "
                                  "writing there would replace it: choose another file")
    assert my_map.read_bytes() == before


def test_host_over_its_map_is_refused(runner: CliRunner, my_map: Path) -> None:
    before = my_map.read_bytes()
    result = runner.invoke(cli, ["host", "--map", str(my_map), "--seed", "1", "-o", str(my_map)])
    assert result.exit_code == 2
    assert last_error(result) == (f"Error: {OUT}: '{my_map}' is an input of this command; "
                                  "writing there would replace it: choose another file")
    assert my_map.read_bytes() == before


def test_score_save_over_its_map_is_refused(runner: CliRunner, my_map: Path) -> None:
    before = my_map.read_bytes()
    result = runner.invoke(cli, ["score", str(my_map), "--prompt", "--save", str(my_map)], input="solo\n")
    assert result.exit_code == 2
    assert last_error(result) == ("Error: Invalid value for '--save': "
                                  f"'{my_map}' is an input of this command; "
                                  "writing there would replace it: choose another file")
    assert result.stdout == ""  # refused before asking anything
    assert my_map.read_bytes() == before


def test_turns_state_over_its_map_is_refused(runner: CliRunner, my_map: Path) -> None:
    before = my_map.read_bytes()
    result = runner.invoke(cli, ["turns", "start", "--map", str(my_map), "--state", str(my_map)])
    assert result.exit_code == 2
    assert last_error(result) == ("Error: Invalid value for '--state': "
                                  f"'{my_map}' is an input of this command; "
                                  "writing there would replace it: choose another file")
    assert my_map.read_bytes() == before


# ---------------------------------------------------------------- packs whole or not at all


def _doc(pages: int) -> Document:
    return Document(100, 100, tuple(Page((Rect(10, 10, 20 + i, 20),), f"p{i}") for i in range(pages)))


def test_pack_that_cannot_be_written_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "pack-01.svg"
    old.write_bytes(b"earlier page")
    real = printkit.files.write_temp
    calls = []

    def full_on_third(target: Path, data: bytes) -> Path:
        calls.append(target)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(target, data)

    monkeypatch.setattr(printkit.files, "write_temp", full_on_third)
    with pytest.raises(backends.OutputError) as err:
        backends.write(_doc(5), "svg", tmp_path / "pack.svg")
    assert str(err.value) == (f"{tmp_path / 'pack-01.svg'} ... pack-05.svg: cannot write (No space left on device); "
                              "none of its 5 pages were kept")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack-01.svg"]  # no temp, no new page
    assert old.read_bytes() == b"earlier page"


def test_pack_whose_rename_fails_leaves_no_new_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace
    calls = []

    def fail_on_second(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(errno.EIO, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", fail_on_second)
    with pytest.raises(backends.OutputError) as err:
        backends.write(_doc(3), "svg", tmp_path / "pack.svg")
    assert str(err.value).endswith("cannot write (Input/output error); none of its 3 pages were kept")
    assert list(tmp_path.iterdir()) == []


def test_smaller_pack_removes_the_earlier_packs_extra_pages(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "map.svg"
    assert runner.invoke(cli, ["render", "map", "world", "--players", "5", "-o", str(target)]).exit_code == 0
    keep = [tmp_path / "map-7.svg", tmp_path / "mapx-09.svg", tmp_path / "map-09.png", tmp_path / "notes.txt"]
    for path in keep:
        path.write_bytes(b"not a page of ours")
    result = runner.invoke(cli, ["render", "map", "world", "--players", "2", "-o", str(target)])
    assert result.exit_code == 0
    assert result.stdout == (f"Wrote {tmp_path / 'map-01.svg'} ... map-02.svg (2 pages, SVG, A4); "
                             "removed 3 pages of an earlier pack\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["map-01.svg", "map-02.svg"] + [p.name for p in keep])
    assert all(p.read_bytes() == b"not a page of ours" for p in keep)


def test_stale_temp_files_of_ours_are_removed(tmp_path: Path) -> None:
    stale = tmp_path / ".pack-03.svg.ab12cd_9.tmp"
    fresh = tmp_path / ".pack-01.svg.zzzzzzzz.tmp"
    others = [tmp_path / ".pack-03.svg.ab12cd_9.tmpx", tmp_path / ".other.svg.abcdefgh.tmp",
              tmp_path / "pack-03.svg.abcdefgh.tmp"]
    for path in [stale, fresh, *others]:
        path.write_bytes(b"x")
    hour_ago = time.time() - 3600
    for path in [stale, *others]:
        os.utime(path, (hour_ago, hour_ago))
    backends.write(_doc(2), "svg", tmp_path / "pack.svg")
    assert not stale.exists()
    assert fresh.exists() and all(p.exists() for p in others)


def test_state_write_removes_its_stale_temps(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    stale = tmp_path / ".game.json.k3j4h5g6.tmp"
    stale.write_bytes(b"{")
    os.utime(stale, (time.time() - 3600,) * 2)
    printkit.files.atomic_write(target, b"{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# ---------------------------------------------------------------- exit status and -o


def test_glyph_the_font_lacks_in_names_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["render", "map", "world", "--names", "Ann,Bo😀", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2
    assert last_error(result) == ("Error: Invalid value for '--names': cannot print 'Bo😀': "
                                  "the sheet font has no glyph for '😀' (U+1F600)")
    assert list(tmp_path.iterdir()) == []


def test_swapping_a_space_with_itself_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "w.json"
    assert runner.invoke(cli, ["wereldsteden", "setup", "--seed", "1", "--state", str(state)]).exit_code == 0
    before = state.read_bytes()
    result = runner.invoke(cli, ["wereldsteden", "swap", "tokyo", "Tokyo", "--state", str(state)])
    assert result.exit_code == 2
    assert last_error(result) == "Error: Invalid value for 'SPACE': give two different spaces to swap (both are 'tokyo')"
    assert state.read_bytes() == before


@pytest.mark.parametrize(("args", "hint"), [
    (["host", "--seed", "1", "-o"], OUT),
    (["turns", "start", "--state"], "Invalid value for '--state'"),
    (["abby", "start", "--bucket-cards", "3", "--state"], "Invalid value for '--state'"),
])  # fmt: skip
def test_missing_output_folder_is_a_usage_error(runner: CliRunner, tmp_path: Path, args: list[str], hint: str) -> None:
    where = tmp_path / "nope" / "out.x"
    result = runner.invoke(cli, [*args, str(where)])
    assert result.exit_code == 2
    assert last_error(result) == f"Error: {hint}: folder '{where.parent}' does not exist"
    assert list(tmp_path.iterdir()) == []


def test_host_dash_writes_the_page_to_stdout(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["host", "--seed", "3", "-o", "-"])
    assert result.exit_code == 0
    assert result.stdout.startswith("<!DOCTYPE html>") and result.stdout.rstrip().endswith("</html>")
    assert list(tmp_path.iterdir()) == []  # no file named '-'


def test_format_and_extension_that_disagree_are_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "x.pdf"
    result = runner.invoke(cli, ["render", "map", "world", "--format", "svg", "-o", str(target)])
    assert result.exit_code == 2
    assert last_error(result) == (f"Error: {OUT}: {target}: the extension .pdf does not match the format svg; "
                                  "name the file .svg or leave out --format")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- names on the command line


@pytest.mark.parametrize(("names", "message"), [
    ("Ann,Ann,ann", "player name 'Ann' is given twice (names are compared ignoring case)"),
    ("Ann,Bo,ann", "player name 'ann' is given twice (names are compared ignoring case)"),
    ("An\x1b]0;pwn\x07n,Bo", "player name 'An\\x1b]0;pwn\\x07n' contains the unprintable character U+001B; "
                             "names are plain text"),
    ("Chr\ud800is", "player name 'Chr\\ud800is' contains the unprintable character U+D800; names are plain text"),
    ("x" * 10_000, "player name '" + "x" * 56 + "... is longer than 40 characters"),
])  # fmt: skip
@pytest.mark.parametrize("command", [
    ["render", "map", "world", "--names"], ["host", "--seed", "1", "-o", "h.html", "--players"],
    ["turns", "start", "--state", "t.json", "--players"],
])  # fmt: skip
def test_names_follow_the_one_rule(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   names: str, message: str, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, [*command, names])
    assert result.exit_code == 2
    option = command[-1]
    assert last_error(result) == f"Error: Invalid value for '{option}': {message}"
    assert list(tmp_path.iterdir()) == []


def test_long_map_name_is_shortened_in_what_validate_prints(runner: CliRunner, tmp_path: Path) -> None:
    """A 5000-character name cannot fit the sheet's title: the layout check says so, echoing it shortened."""
    text = (MAPS / "europe.toml").read_text(encoding="utf-8")
    long_map = tmp_path / "long.toml"
    name_line = next(line for line in text.splitlines() if line.startswith("name ="))
    long_map.write_text(text.replace(name_line, f'name = "{"E" * 5000}"', 1), encoding="utf-8")
    before = long_map.read_bytes()
    result = runner.invoke(cli, ["maps", "validate", str(long_map)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"Error: {long_map}: map sheet (A4): text '{'E' * 56}... is 5.0 pt "
                                             "(need 7.5); shorten it")
    assert len(result.stderr) < 800
    assert long_map.read_bytes() == before


def test_long_map_name_is_shortened_on_the_ok_line(runner: CliRunner, tmp_path: Path) -> None:
    text = (MAPS / "europe.toml").read_text(encoding="utf-8")
    long_map = tmp_path / ("m" * 200 + ".toml")
    long_map.write_text(text, encoding="utf-8")
    result = runner.invoke(cli, ["maps", "validate", str(long_map)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"OK {str(long_map)[:237]}...: Around Europe (")
    assert len(result.stdout) < 400


# ---------------------------------------------------------------- score --prompt


def test_prompt_input_that_ends_says_what_was_expected(runner: CliRunner, tmp_path: Path) -> None:
    save = tmp_path / "g.toml"
    result = runner.invoke(cli, ["score", "world", "--prompt", "--save", str(save)], input="solo\nAnn\n2\nmany\n")
    assert result.exit_code == 1
    assert "Error: expected a whole number from 0 to 3, got 'many'" in result.stdout  # click asks again on stdout
    assert last_error(result) == ("Error: input ended while asking for 'Clothes (0-3)' "
                                  "(expected a whole number from 0 to 3); nothing was saved")
    assert "Aborted!" not in result.stderr + result.stdout
    assert list(tmp_path.iterdir()) == []


def test_prompt_refuses_names_the_rule_refuses(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", "world", "--prompt"], input="multiplayer\nAnn,ann\n")
    assert result.exit_code == 1
    assert "Error: player name 'ann' is given twice (names are compared ignoring case)" in result.stderr
    assert last_error(result) == ("Error: input ended while asking for 'Player names, comma-separated' "
                                  "(expected player names); nothing was saved")


# ---------------------------------------------------------------- integer options


@pytest.mark.parametrize(("args", "message"), [
    (["roll", "--seed", "9" * 5000], "Invalid value for '--seed': expected a whole number from 0 to "
                                     f"9223372036854775807, got '{'9' * 56}..."),
    (["roll", "--seed", str(2**63)], f"Invalid value for '--seed': {2**63} is not in the range "
                                     "from 0 to 9223372036854775807."),
    (["roll", "--seed", "-1"], "Invalid value for '--seed': -1 is not in the range from 0 to 9223372036854775807."),
    (["render", "map", "world", "--seed", "1" * 30], "Invalid value for '--seed': expected a whole number from 0 to "
                                                     f"9223372036854775807, got '{'1' * 30}'"),
    (["abby", "start", "--bucket-cards", "1" * 25], "Invalid value for '--bucket-cards': expected a whole number "
                                                    f"from 0 to 1000000, got '{'1' * 25}'"),
])  # fmt: skip
def test_integer_options_have_ranges(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert last_error(result) == f"Error: {message}"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "message"), [
    (["--cards", "99999999999999999999,12,3", "--chose", "1", "--airfare", "1"],
     "Invalid value for '--cards': 99999999999999999999 is too large; each number is at most 9999"),
    (["--cards", "7,12,3", "--chose", "1", "--airfare", str(10**22)],
     f"Invalid value for '--airfare': expected a whole number from 0 to 9999, got '{10**22}'"),
])  # fmt: skip
def test_abby_numbers_have_ranges(runner: CliRunner, tmp_path: Path, args: list[str], message: str) -> None:
    state = tmp_path / "a.json"
    assert runner.invoke(cli, ["abby", "start", "--bucket-cards", "3", "--state", str(state)]).exit_code == 0
    before = state.read_bytes()
    result = runner.invoke(cli, ["abby", "turn", *args, "--state", str(state)])
    assert result.exit_code == 2
    assert last_error(result) == f"Error: {message}"
    assert state.read_bytes() == before


LONG = "z" * 10_000


@pytest.mark.parametrize(("args", "message"), [
    (["render", "map", LONG], "Invalid value for 'MAP': unknown map '" + "z" * 56 + "...; choose one of "
                              "world, us, europe, south-america, or give the path of a .toml map file"),
    (["host", "--map", LONG, "-o", "h.html"], "Invalid value for '--map': unknown map '" + "z" * 56 + "...; choose "
                                              "one of world, us, europe, south-america, or give the path of a "
                                              ".toml map file"),
    (["render", "map", "world", "--paper", LONG], "Invalid value for '--paper': '" + "z" * 296 + "... is not one "
                                                  "of 'a4', 'letter'."),
    ([LONG], "No such command '" + "z" * 296 + "..."),
    (["score", LONG], "Invalid value for 'GAMEFILE|MAP': no game file '" + "z" * 236 + "...; give a game file "
                      "(.toml or .json) or a map to type in the marks (world, us, europe, south-america, or a "
                      "map .toml file)"),
])  # fmt: skip
def test_long_values_are_echoed_shortened(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert last_error(result) == f"Error: {message}"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (needs root; skipped elsewhere): a disk that really fills up."""
    where = tmp_path / "tiny"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                             capture_output=True, timeout=10).returncode == 0 if shutil.which("mount") else False
    if not mounted:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False, timeout=10)


def test_pack_on_a_full_disk_leaves_nothing_new(runner: CliRunner, tiny_disk: Path) -> None:
    earlier = tiny_disk / "map-01.svg"
    earlier.write_bytes(b"earlier page")
    result = runner.invoke(cli, ["render", "map", "world", "--players", "5", "-o", str(tiny_disk / "map.svg")])
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {tiny_disk / 'map-01.svg'} ... map-05.svg: cannot write "
                             "(No space left on device); none of its 5 pages were kept\n")
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["map-01.svg"]
    assert earlier.read_bytes() == b"earlier page"


def test_output_that_is_a_folder_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "sheets.pdf"
    folder.mkdir()
    result = runner.invoke(cli, ["render", "map", "world", "-o", str(folder)])
    assert result.exit_code == 2
    assert last_error(result) == f"Error: {OUT}: '{folder}' is a folder; give a file name"
    assert list(folder.iterdir()) == []


def test_prompt_echoes_a_long_reply_shortened(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", "world", "--prompt"], input="z" * 5000 + "\n")
    assert result.exit_code == 1
    # the runner echoes the reply itself; our answer to it is shortened
    assert ("\nError: expected multiplayer, solo or party, got '" + "z" * 56 + "...\n") in result.stdout
    assert last_error(result) == ("Error: input ended while asking for 'Mode' (expected multiplayer, solo or party); "
                                  "nothing was saved")
