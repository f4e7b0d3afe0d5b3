"""The tracker never loses a game: kill -9 during a save, and two commands at once."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.loading.dice import load_dice
from printkit.rules.dice import turn_roll

DICE = load_dice()

ROOT = Path(__file__).resolve().parents[1]

# Runs `printkit turns next` in a child that SIGKILLs itself at one point of the save.
KILLER = textwrap.dedent(
    """
    import os, signal, sys

    state, where = sys.argv[1], sys.argv[2]

    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    if where == "half-written":
        real_fdopen = os.fdopen

        class Half:
            def __init__(self, fh):
                self.fh = fh
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                return False
            def write(self, data):
                self.fh.write(data[: len(data) // 2])
                self.fh.flush()
                die()
            def __getattr__(self, name):
                return getattr(self.fh, name)

        os.fdopen = lambda fd, *a, **k: Half(real_fdopen(fd, *a, **k))
    elif where == "before-rename":
        os.replace = die
    elif where == "after-rename":
        real_replace = os.replace
        def replace_then_die(src, dst):
            real_replace(src, dst)
            die()
        os.replace = replace_then_die

    from printkit.cli import main
    main(["turns", "next", "--state", state])
    """
)


def _child(state: Path, where: str) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", KILLER, str(state), where], env=env, capture_output=True)
    return proc.returncode


@pytest.mark.parametrize("where", ["half-written", "before-rename"])
def test_kill_during_save_keeps_the_old_state(runner: CliRunner, tmp_path: Path, where: str) -> None:
    state = tmp_path / "game.json"
    assert runner.invoke(cli, ["turns", "start", "--seed", "11", "--state", str(state)]).exit_code == 0
    runner.invoke(cli, ["turns", "next", "--state", str(state)])
    before = state.read_bytes()
    assert _child(state, where) == -signal.SIGKILL
    assert state.read_bytes() == before  # the old game, intact
    assert len(json.loads(before)["events"]) == 1
    # the game goes on from turn 1; a stray temp file changes nothing
    result = runner.invoke(cli, ["turns", "next", "--state", str(state)])
    assert result.exit_code == 0
    assert result.output.startswith(f"Turn 2 of 20: {turn_roll(DICE, 11, 2).text}\n")


def test_kill_right_after_rename_keeps_the_new_state(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    assert runner.invoke(cli, ["turns", "start", "--seed", "11", "--state", str(state)]).exit_code == 0
    assert _child(state, "after-rename") == -signal.SIGKILL
    result = runner.invoke(cli, ["turns", "status", "--state", str(state)])
    assert result.output.splitlines()[3] == f"Turn 1 of 20: {turn_roll(DICE, 11, 1).text}"
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_locked_game_refuses_a_second_command(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    assert runner.invoke(cli, ["turns", "start", "--seed", "2", "--state", str(state)]).exit_code == 0
    before = state.read_bytes()
    fd = os.open(f"{state}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another `printkit turns next` is mid-save
        result = runner.invoke(cli, ["turns", "next", "--state", str(state)])
        assert result.exit_code == 1
        assert result.stderr == f"Error: {state}: another printkit command is using this game; try again\n"
        assert state.read_bytes() == before
    finally:
        os.close(fd)
    assert runner.invoke(cli, ["turns", "next", "--state", str(state)]).exit_code == 0


def test_two_processes_at_once_apply_at_most_once_each(tmp_path: Path) -> None:
    # eight concurrent `next`: each either applies fully or is refused; turns never skip
    state = tmp_path / "game.json"
    runner = CliRunner()
    assert runner.invoke(cli, ["turns", "start", "--seed", "6", "--state", str(state)]).exit_code == 0
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "printkit", "turns", "next", "--state", str(state)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        for _ in range(8)
    ]
    outcomes = [p.communicate() + (p.returncode,) for p in procs]
    applied = [o for o in outcomes if o[2] == 0]
    refused = [o for o in outcomes if o[2] != 0]
    for _, err, _ in refused:
        assert err.decode() == f"Error: {state}: another printkit command is using this game; try again\n"
    events = json.loads(state.read_text())["events"]
    assert [e["turn"] for e in events] == list(range(1, len(applied) + 1))
    assert sorted(o[0].decode().splitlines()[0] for o in applied) == sorted(
        f"Turn {t} of 20: {turn_roll(DICE, 6, t).text}" for t in range(1, len(applied) + 1)
    )
