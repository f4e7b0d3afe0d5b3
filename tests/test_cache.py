"""The layout cache on disk: a hit draws the same bytes, any change of input or code misses, a bad entry is remade."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit import cache, registry
from printkit.cli import cli
from printkit.resources import data_dir
from printkit.sheets import mapsheet


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder of this test's own, and no layout remembered in this process."""
    where = tmp_path / "cache"
    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(where))
    monkeypatch.delenv("PRINTKIT_NO_CACHE", raising=False)
    registry.forget_layouts()
    yield where
    registry.forget_layouts()


def _forget_in_process() -> None:
    registry.forget_layouts()


def _no_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, laying a map sheet out fails: what is drawn must come from the cache on disk."""
    _forget_in_process()

    def fail(*_: object) -> None:
        raise AssertionError("laid out again")

    monkeypatch.setattr(mapsheet, "compose", fail)


def _render(out: Path, *args: str) -> bytes:
    result = CliRunner().invoke(cli, ["render", "map", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_bytes()


LOADED = ("around-the-world-loaded-", "around-the-world-shared-")
"""The names of the entries ``loading.maps`` keeps: a built map, the shared file's table."""


def _entries(where: Path, name: str = "") -> list[Path]:
    """The entries in ``where`` (only ``name``'s if given; by default, the layouts: not loaded maps)."""
    found = sorted(where.glob(f"{name}*{cache.SUFFIX}")) if where.is_dir() else []
    return [p for p in found if name or not p.name.startswith(LOADED)]


def test_a_hit_draws_the_same_bytes_and_other_names_share_the_entry(folder: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cold = _render(tmp_path / "cold.pdf", "world", "--names", "Ann")
    [entry] = _entries(folder)
    assert entry.name.startswith("around-the-world-map-") and entry.read_bytes().startswith(cache.FORMAT)
    with monkeypatch.context() as mp:
        _no_layout(mp)
        assert _render(tmp_path / "warm.pdf", "world", "--names", "Ann") == cold
        registry.forget_layouts()
        _render(tmp_path / "two.pdf", "world", "--names", "Bo,Cy")
        assert _entries(folder) == [entry]
    monkeypatch.setenv("PRINTKIT_NO_CACHE", "1")
    _forget_in_process()
    assert _render(tmp_path / "fresh.pdf", "world", "--names", "Ann") == cold


def test_an_edit_of_the_map_file_misses(folder: Path, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    shutil.copyfile(data_dir("maps") / "world.toml", path)
    first = _render(tmp_path / "a.pdf", str(path))
    assert len(_entries(folder)) == 1
    path.write_text(path.read_text().replace('name = "Around the World"', 'name = "Around the Wxrld"', 1))
    second = _render(tmp_path / "b.pdf", str(path))
    assert len(_entries(folder)) == 2 and first != second


def test_another_code_fingerprint_misses(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _render(tmp_path / "a.pdf", "world")
    [before] = _entries(folder)
    monkeypatch.setattr(cache, "_fingerprint", ["printkit 9.9 as if upgraded"])
    _forget_in_process()
    _render(tmp_path / "b.pdf", "world")
    assert len(_entries(folder)) == 2 and before in _entries(folder)


def test_the_fingerprint_follows_every_file_of_the_package() -> None:
    text = cache.code_fingerprint()
    assert text.startswith(f"{cache.__version__}\n")
    sizes = {line.rsplit(" ", 2)[0]: int(line.rsplit(" ", 2)[1]) for line in text.splitlines()[2:]}
    here = Path(cache.__file__)
    assert sizes["cache.py"] == here.stat().st_size
    assert os.path.join("sheets", "mapsheet.py") in sizes
    assert os.path.join("assets", "fonts", "OpenSans-Regular.ttf") in sizes
    assert not any("__pycache__" in p for p in sizes)


def sealed(body: bytes) -> bytes:
    """An entry holding ``body`` with its right digest: only its content can make it a miss."""
    return cache.FORMAT + hashlib.blake2b(body, digest_size=cache.DIGEST_SIZE).hexdigest().encode() + b"\n" + body


def _spoilt(kept: bytes, spoil: str) -> bytes:
    return {
        "garbage": sealed(b"\x80\x05not JSON at all"),
        "truncated": kept[: len(kept) // 2],
        "other format": b"printkit-cache 1\n" + kept[len(cache.FORMAT):],
        "wrong type": sealed(b'"a string, not the pages"'),
        "wrong digest": kept.replace(b"[1,2]", b"[1,3]"),
        "empty": b"",
    }[spoil]


@pytest.mark.parametrize("spoil", ["garbage", "truncated", "other format", "wrong type", "wrong digest", "empty"])
def test_a_bad_entry_is_ignored_and_made_again(folder: Path, spoil: str) -> None:
    made: list[tuple[int, ...]] = []
    make = lambda: made.append((1, 2)) or (1, 2)  # noqa: E731
    assert cache.remembered("t", ["k"], tuple, make) == (1, 2)
    [entry] = _entries(folder)
    kept = entry.read_bytes()
    entry.write_bytes(_spoilt(kept, spoil))
    assert cache.remembered("t", ["k"], tuple, make) == (1, 2)
    assert len(made) == 2 and entry.read_bytes() == kept
    assert cache.remembered("t", ["k"], tuple, make) == (1, 2) and len(made) == 2


def test_a_truncated_layout_is_made_again(folder: Path, tmp_path: Path) -> None:
    good = _render(tmp_path / "a.pdf", "world")
    [entry] = _entries(folder)
    kept = entry.read_bytes()
    entry.write_bytes(_spoilt(kept, "truncated"))
    _forget_in_process()
    assert _render(tmp_path / "b.pdf", "world") == good
    assert entry.read_bytes() == kept


def test_a_folder_that_cannot_be_written_goes_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(blocker / "cache"))
    _forget_in_process()
    assert _render(tmp_path / "a.pdf", "world").startswith(b"%PDF")
    assert blocker.read_text() == "not a folder"


def test_no_cache_writes_nothing(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTKIT_NO_CACHE", "1")
    assert not cache.enabled()
    _forget_in_process()
    _render(tmp_path / "a.pdf", "world")
    assert not folder.exists()


def test_where_the_cache_lives(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_dir() == str(tmp_path / "mine")
    monkeypatch.delenv("PRINTKIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == str(tmp_path / "xdg" / "printkit")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == str(tmp_path / "home" / ".cache" / "printkit")
    for off, expected in (("1", False), ("0", True), ("", True)):
        monkeypatch.setenv("PRINTKIT_NO_CACHE", off)
        assert cache.enabled() is expected


def test_remembered_makes_once_per_key(folder: Path) -> None:
    made: list[int] = []

    def make() -> tuple[int, ...]:
        made.append(1)
        return (1, 2, 3)

    assert cache.remembered("t", ["a", b"\x00"], tuple, make) == (1, 2, 3)
    assert cache.remembered("t", ["a", b"\x00"], tuple, make) == (1, 2, 3)
    assert cache.remembered("t", ["a\x00"], tuple, make) == (1, 2, 3)  # the parts are kept apart in the key
    assert len(made) == 2


def test_only_the_newest_entries_are_kept(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for k in range(5):
        cache.remembered("t", [str(k)], int, lambda: k)
        os.utime(cache.entry_path("t", [str(k)]), ns=(k * 10**9, k * 10**9))
    cache.remembered("t", ["5"], int, lambda: 5)
    kept = {p.name for p in _entries(folder, "t-")}
    assert kept == {Path(cache.entry_path("t", [k])).name for k in ("3", "4", "5")}


LAYOUT_ONLY = ["printkit.sheets.mapsheet", "printkit.sheets.mapplan", "printkit.sheets.citytags",
               "printkit.sheets.layoutcheck", "printkit.layout.labels"]
"""What makes a layout: a render from the cache never imports it."""


def _modules_after_render(folder: Path, out: Path) -> list[str]:
    probe = ("import sys\nfrom printkit.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print(' '.join(sorted(sys.modules)))")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "PRINTKIT_CACHE_DIR": str(folder)}
    proc = subprocess.run([sys.executable, "-c", probe, "render", "map", "world", "-o", str(out)], env=env,
                          capture_output=True, text=True, check=True)
    return proc.stdout.split()


def test_a_render_from_the_cache_loads_no_layout_code(folder: Path, tmp_path: Path) -> None:
    cold = _modules_after_render(folder, tmp_path / "cold.pdf")
    assert [m for m in LAYOUT_ONLY if m in cold] == LAYOUT_ONLY  # the probe does see them when it lays out
    warm = _modules_after_render(folder, tmp_path / "warm.pdf")
    assert [m for m in LAYOUT_ONLY if m in warm] == []
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()
