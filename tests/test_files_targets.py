"""Outputs never replace a device, a pipe or a link; a lock never follows a link."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit import files
from printkit.cli import cli
from printkit.errors import StateError
from printkit.files import atomic_write, atomic_write_all, locked

ROOT = Path(__file__).resolve().parents[1]
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="making a device node or replacing /dev/null needs root")


def _reader(fifo: Path, got: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_a_render_onto_a_fifo_goes_down_the_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = _reader(fifo, got)
    result = CliRunner().invoke(cli, ["render", "tracker", "world", "-o", str(fifo), "--format", "pdf"])
    thread.join(timeout=60)
    assert result.exit_code == 0, result.output
    assert got and got[0].startswith(b"%PDF-") and got[0].rstrip().endswith(b"%%EOF")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["pipe.pdf"]


@ROOT_ONLY
def test_a_render_onto_dev_null_leaves_it_a_device() -> None:
    before = os.stat("/dev/null")
    assert stat.S_ISCHR(before.st_mode)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "printkit", "render", "tracker", "world", "-o", "/dev/null",
                           "--format", "pdf"], env=env, capture_output=True, text=True, timeout=120, check=False)
    after = os.stat("/dev/null")
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]  # no temp file left beside it


@ROOT_ONLY
def test_a_character_device_is_written_in_place_and_a_block_device_refused(tmp_path: Path) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    atomic_write(null, b"gone")
    atomic_write_all([(null, b"a"), (tmp_path / "page.txt", b"b")])
    assert stat.S_ISCHR(os.lstat(null).st_mode) and (tmp_path / "page.txt").read_bytes() == b"b"
    block = tmp_path / "disk"
    os.mknod(block, stat.S_IFBLK | 0o600, os.makedev(250, 250))  # no such disk: nothing could be written anyway
    with pytest.raises(files.NotAFile, match="a block device: printkit writes only files"):
        atomic_write_all([(tmp_path / "first.txt", b"1"), (block, b"x")])
    assert stat.S_ISBLK(os.lstat(block).st_mode) and not (tmp_path / "first.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["disk", "null", "page.txt"]  # no temp file left


def test_a_folder_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(files.NotAFile) as err:
        atomic_write(tmp_path, b"x")
    assert err.value.strerror == "a folder: printkit writes only files, character devices and pipes"
    assert err.value.filename == str(tmp_path)


def test_a_link_keeps_pointing_at_the_file_it_names(tmp_path: Path) -> None:
    real = tmp_path / "real" / "out.txt"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "real" / "new.txt")
    atomic_write(link, b"new")
    atomic_write(dangling, b"made")
    assert link.is_symlink() and os.readlink(link) == str(real) and real.read_bytes() == b"new"
    assert dangling.is_symlink() and (tmp_path / "real" / "new.txt").read_bytes() == b"made"
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["new.txt", "out.txt"]


def test_a_symlinked_state_file_keeps_its_link(tmp_path: Path) -> None:
    real = tmp_path / "games" / "game.json"
    real.parent.mkdir()
    link = tmp_path / "game.json"
    link.symlink_to(real)
    runner = CliRunner()
    start = runner.invoke(cli, ["turns", "start", "--players", "Ann,Bo", "--mode", "party", "--seed", "1", "--state", str(link)])
    assert start.exit_code == 0, start.output
    step = runner.invoke(cli, ["turns", "next", "--state", str(link)])
    assert step.exit_code == 0, step.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    doc = json.loads(real.read_text())
    assert doc["printkit"] == "turns" and [e["event"] for e in doc["events"]] == ["roll"]


def test_a_lock_path_that_is_a_link_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    elsewhere = tmp_path / "elsewhere"
    (tmp_path / "game.json.lock").symlink_to(elsewhere)
    with pytest.raises(StateError) as err:
        with locked(state):
            pass  # pragma: no cover - must not get here
    assert str(err.value) == f"{state}: lock file {state}.lock is a symbolic link; remove it and try again"
    assert not elsewhere.exists()
    assert CliRunner().invoke(cli, ["turns", "start", "--players", "Ann,Bo", "--state", str(state)]).exit_code == 1
    assert not elsewhere.exists() and not state.exists()


def test_a_lock_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    (tmp_path / "game.json.lock").mkdir()
    with pytest.raises(StateError, match="lock file .* is not a file; remove it and try again"):
        with locked(state):
            pass  # pragma: no cover - must not get here


def test_the_library_lock_is_exclusive_too(tmp_path: Path) -> None:
    """The lock on platforms without fcntl (Windows) is filelock's: here its flock one, the same promise."""
    state = tmp_path / "game.json"
    with files._library_lock(state, f"{state}.lock"):
        with pytest.raises(StateError) as err:
            with files._library_lock(state, f"{state}.lock"):
                pass  # pragma: no cover - must not get here
        with pytest.raises(StateError):
            with locked(state):  # and the two kinds exclude each other on one system
                pass  # pragma: no cover - must not get here
    assert str(err.value) == f"{state}: another printkit command is using this game; try again"
    with files._library_lock(state, f"{state}.lock"):
        pass


def test_a_killed_holder_leaves_no_lock(tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    code = ("import sys, time\nfrom printkit.files import locked\nwith locked(sys.argv[1]):\n"
            "    print('held', flush=True)\n    time.sleep(60)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    holder = subprocess.Popen([sys.executable, "-c", code, str(state)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(StateError, match="another printkit command"):
            with locked(state):
                pass  # pragma: no cover - must not get here
    finally:
        holder.kill()
        holder.wait(timeout=30)
    with locked(state):
        pass
