"""Atomic writes and companion state files: nothing is ever half-written or lost."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from printkit.errors import StateError
from printkit.files import atomic_write, locked
from printkit.loading.state import STATE_FORMAT, read_state, write_state


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")
    atomic_write(target, b"new contents")
    assert target.read_bytes() == b"new contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.pdf"]


def test_failed_write_leaves_old_file_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.json"
    target.write_bytes(b"old")

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_state_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    write_state(path, "turns", {"turn": 3, "players": ["Ann", "Łukasz"]})
    state = read_state(path, "turns", "0.1.0")
    assert state == {"printkit": "turns", "format": STATE_FORMAT, "turn": 3, "players": ["Ann", "Łukasz"]}


@pytest.mark.parametrize(
    "content,message",
    [
        (b'{"printkit": "turns", "format": 1, "tu', "state file is corrupt (line 1, column 36: invalid JSON (Unterminated string starting at)); it was left untouched"),
        (b"\xff\xfe garbage", "state file is corrupt ("),
        (b'{"printkit": "abby", "format": 1}', "not a printkit turns state file; it was left untouched"),
        (b"[1, 2, 3]", "not a printkit turns state file; it was left untouched"),
        (b'{"printkit": "turns"}', "state file is corrupt (no format number); it was left untouched"),
    ],
)
def test_bad_state_is_reported_and_untouched(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(content)
    with pytest.raises(StateError) as err:
        read_state(path, "turns", "0.1.0")
    assert str(err.value).startswith(f"{path}: {message}")
    assert path.read_bytes() == content


def test_newer_state_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"printkit": "turns", "format": STATE_FORMAT + 1}))
    with pytest.raises(StateError) as err:
        read_state(path, "turns", "0.1.0")
    assert str(err.value) == (
        f"{path}: written by a newer printkit (state format {STATE_FORMAT + 1}, this is printkit 0.1.0 "
        f"reading format {STATE_FORMAT}); upgrade printkit to continue this game"
    )


def test_missing_state(tmp_path: Path) -> None:
    with pytest.raises(StateError, match="no saved game here"):
        read_state(tmp_path / "none.json", "turns", "0.1.0")


def test_read_only_state_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    write_state(path, "turns", {"turn": 1})
    path.chmod(0o444)
    before = path.read_bytes()
    with pytest.raises(StateError) as err:
        write_state(path, "turns", {"turn": 2})
    assert str(err.value) == f"{path}: state file is read-only; the game was not changed"
    assert path.read_bytes() == before


def test_lock_is_exclusive(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    with locked(path):
        with pytest.raises(StateError) as err:
            with locked(path):
                pass  # pragma: no cover - must not get here
    assert str(err.value) == f"{path}: another printkit command is using this game; try again"
    with locked(path):  # released again
        pass
