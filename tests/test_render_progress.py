"""A long pack shows a progress bar on stderr only when stderr is a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path


def _render(tmp_path: Path, stderr_is_tty: bool) -> tuple[bytes, Path]:
    out = tmp_path / "pack.pdf"
    args = [sys.executable, "-m", "printkit", "render", "scorepad", "world", "--players", "40", "-o", str(out)]
    if not stderr_is_tty:
        done = subprocess.run(args, capture_output=True, check=True)
        return done.stderr, out
    leader, follower = pty.openpty()
    try:
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=follower, check=True)
    finally:
        os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other end is closed and drained
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks), out


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    stderr, out = _render(tmp_path, stderr_is_tty=True)
    assert b"Rendering" in stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_silent_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    stderr, out = _render(tmp_path, stderr_is_tty=False)
    assert stderr == b""
    assert out.read_bytes().startswith(b"%PDF")
