"""The cache runs no code and trusts no one: a pickle, a tampered entry, a pipe or a link is a miss; a folder that
is not the user's own is not used, said once."""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit import cache, plaindata, registry
from printkit.cli import cli
from printkit.loading import maps

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    where = tmp_path / "cache"
    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(where))
    monkeypatch.delenv("PRINTKIT_NO_CACHE", raising=False)
    _forget()
    yield where
    _forget()


def _forget() -> None:
    """Nothing remembered in this process: what is used comes from the disk (or is made again)."""
    registry.forget_layouts()
    maps._built.clear()
    maps._parsed.clear()


def sealed(body: bytes) -> bytes:
    """An entry of the current format holding ``body`` with its right digest."""
    return cache.FORMAT + hashlib.blake2b(body, digest_size=cache.DIGEST_SIZE).hexdigest().encode() + b"\n" + body


class Plant:
    """Unpickling this creates the file ``path``: what a planted pickle would do."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return open, (str(self.path), "w")


def _run(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PRINTKIT_CACHE_DIR": str(folder)}
    env.pop("PRINTKIT_NO_CACHE", None)
    return subprocess.run([sys.executable, "-m", "printkit", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def _layout_entry(folder: Path) -> Path:
    [entry] = folder.glob(f"around-the-world-map-*{cache.SUFFIX}")
    return entry


def test_a_pickle_that_would_run_code_is_a_miss(folder: Path, tmp_path: Path) -> None:
    planted = tmp_path / "planted"
    payload = pickle.dumps(Plant(planted))
    made: list[int] = []

    def make() -> tuple[int, ...]:
        made.append(1)
        return (1, 2)

    path = Path(cache.entry_path("t", ["k"]))
    folder.mkdir(mode=0o700)
    for entry in (b"printkit-cache 1\n" + payload, sealed(payload), cache.FORMAT + payload):
        path.write_bytes(entry)
        assert cache.remembered("t", ["k"], tuple, make) == (1, 2)
        assert not planted.exists()
    assert len(made) == 3 and plaindata.loads(path.read_bytes().split(b"\n", 2)[2], tuple) == (1, 2)
    pickle.loads(payload)  # the payload does plant the file: the test would see it
    assert planted.exists()


def test_a_planted_pickle_in_place_of_the_layout_runs_nothing(folder: Path, tmp_path: Path) -> None:
    cold = _run(folder, "render", "map", "world", "-o", str(tmp_path / "cold.pdf"))
    assert cold.returncode == 0, cold.stderr
    entry = _layout_entry(folder)
    good = entry.read_bytes()
    planted = tmp_path / "planted"
    entry.write_bytes(sealed(pickle.dumps(Plant(planted))))
    warm = _run(folder, "render", "map", "world", "-o", str(tmp_path / "warm.pdf"))
    assert warm.returncode == 0 and warm.stderr == ""
    assert not planted.exists() and entry.read_bytes() == good
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()


def _tamper(entry: Path, old: bytes, new: bytes) -> None:
    body = entry.read_bytes().split(b"\n", 2)[2]
    assert old in body
    entry.write_bytes(sealed(body.replace(old, new, 1)))


@pytest.mark.parametrize("what", ["layout", "map"])
def test_a_sealed_entry_of_the_right_shape_but_wrong_content_is_a_miss(folder: Path, tmp_path: Path,
                                                                       what: str) -> None:
    out = tmp_path / "cold.pdf"
    assert CliRunner().invoke(cli, ["render", "map", "world", "-o", str(out)]).exit_code == 0
    cold = out.read_bytes()
    if what == "layout":
        entry = _layout_entry(folder)
        good = entry.read_bytes()
        _tamper(entry, b'"#000000"', b"0.5")  # a number where a colour is: the arrays keep their lengths
    else:
        [entry] = folder.glob(f"around-the-world-loaded-*{cache.SUFFIX}")
        good = entry.read_bytes()
        _tamper(entry, b'"Around the World"', b'["Around", "the World"]')
    _forget()
    result = CliRunner().invoke(cli, ["render", "map", "world", "-o", str(tmp_path / "warm.pdf")])
    assert result.exit_code == 0 and result.output.startswith("Wrote ")
    assert (tmp_path / "warm.pdf").read_bytes() == cold and entry.read_bytes() == good


def test_an_edit_without_its_digest_is_a_miss(folder: Path) -> None:
    assert cache.remembered("t", ["k"], tuple, lambda: (1, 2)) == (1, 2)
    path = Path(cache.entry_path("t", ["k"]))
    path.write_bytes(path.read_bytes().replace(b"[1,2]", b"[1,3]"))
    assert cache.remembered("t", ["k"], tuple, lambda: (1, 2)) == (1, 2)


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link to a good entry", "folder"])
def test_an_entry_that_is_not_a_regular_file_is_never_opened(folder: Path, tmp_path: Path, kind: str) -> None:
    cold = _run(folder, "render", "map", "world", "-o", str(tmp_path / "cold.pdf"))
    assert cold.returncode == 0, cold.stderr
    entry = _layout_entry(folder)
    good = tmp_path / "good-entry"
    entry.rename(good)
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "folder":
        entry.mkdir()
    else:
        entry.symlink_to("/dev/zero" if kind == "link to /dev/zero" else good)
    warm = _run(folder, "render", "map", "world", "-o", str(tmp_path / "warm.pdf"), timeout=60)  # a hang fails here
    assert warm.returncode == 0 and warm.stderr == ""
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()
    if kind != "folder":  # the new layout took the entry's place
        assert stat.S_ISREG(os.lstat(entry).st_mode) and entry.read_bytes() == good.read_bytes()


def test_an_entry_too_big_is_not_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cache.remembered("t", ["k"], tuple, lambda: (1, 2)) == (1, 2)
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 10)
    made: list[int] = []
    assert cache.remembered("t", ["k"], tuple, lambda: made.append(1) or (1, 2)) == (1, 2) and made == [1]


@pytest.mark.parametrize("spoil", ["group-writable", "world-writable", "another user's"])
def test_a_folder_that_is_not_the_users_own_is_not_used_and_said_once(folder: Path, tmp_path: Path,
                                                                      spoil: str) -> None:
    folder.mkdir()
    if spoil == "another user's":
        if os.geteuid() != 0:
            pytest.skip("giving a folder to another user needs root")
        os.chown(folder, 65534, 65534)
        folder.chmod(0o755)
    else:
        folder.chmod(0o770 if spoil == "group-writable" else 0o777)
    (folder / "planted").write_text("x")
    result = _run(folder, "render", "map", "world", "--players", "2", "-o", str(tmp_path / "a.pdf"))
    assert result.returncode == 0 and (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Warning: the cache folder {folder} is not used ("), result.stderr
    assert ("owned by another user" if spoil == "another user's" else "writable by others") in lines[0]
    assert sorted(p.name for p in folder.iterdir()) == ["planted"]  # nothing read, nothing kept


def test_a_link_of_another_users_to_the_users_own_folder_is_not_used(folder: Path, tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("a link of another user's needs root")
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    folder.symlink_to(mine)
    os.lchown(folder, 65534, 65534)
    assert "owned by another user" in (cache.folder_problem(str(folder)) or "")


def test_a_folder_printkit_makes_is_the_users_alone(folder: Path) -> None:
    assert cache.remembered("t", ["k"], tuple, lambda: (1, 2)) == (1, 2)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.geteuid()
    assert stat.S_IMODE(Path(cache.entry_path("t", ["k"])).stat().st_mode) == 0o600


def test_only_files_named_as_entries_are_pruned(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 1)
    folder.mkdir(mode=0o700)
    (folder / "notes.json").write_text("{}")
    old = folder / f"t-{'0' * 40}.pickle"
    old.write_bytes(b"an older printkit's")
    cache.remembered("t", ["a"], int, lambda: 1)
    cache.remembered("t", ["b"], int, lambda: 2)
    assert sorted(p.name for p in folder.iterdir()) == sorted(["notes.json", Path(cache.entry_path("t", ["b"])).name])
