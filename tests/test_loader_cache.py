"""A map is validated once per content: edited files are read anew, settled ones are not re-read."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from printkit.loading import maps, text
from printkit.resources import data_dir


def _copy_world(tmp_path: Path) -> Path:
    path = tmp_path / "mine.toml"
    shutil.copyfile(data_dir("maps") / "world.toml", path)
    return path


def test_the_same_map_is_built_once_and_an_edit_of_the_same_size_is_seen(tmp_path: Path) -> None:
    path = _copy_world(tmp_path)
    first = maps.load_map(str(path))
    assert maps.load_map(str(path)) is first
    original = path.read_text()
    edited = original.replace('name = "Around the World"', 'name = "Around the Wxrld"', 1)
    assert edited != original and len(edited) == len(original)
    path.write_text(edited)  # at once: within one tick of the file system's clock, the same size
    again = maps.load_map(str(path))
    assert again.name == "Around the Wxrld"


def test_a_settled_file_is_not_read_again_until_its_stat_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _copy_world(tmp_path)
    old = time.time() - 60
    os.utime(path, (old, old))
    time.sleep(0.01)
    reads: list[str] = []
    real = text.read_bytes
    monkeypatch.setattr(text, "read_bytes", lambda p: reads.append(str(p)) or real(p))
    os.chmod(path, 0o644)  # the change time is now: not settled yet, read every time
    maps.load_map(str(path))
    maps.load_map(str(path))
    assert reads.count(str(path)) == 2
    monkeypatch.setattr(text, "SETTLED_NS", -10**18)  # as if that change were long ago
    maps.load_map(str(path))
    maps.load_map(str(path))
    assert reads.count(str(path)) == 3
    path.write_text(path.read_text().replace('name = "Around the World"', 'name = "Around the Wxrld"', 1))
    assert maps.load_map(str(path)).name == "Around the Wxrld"
    assert reads.count(str(path)) == 4


def test_a_remembered_map_that_becomes_a_folder_or_disappears_is_an_error(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text, "SETTLED_NS", -10**18)
    path = _copy_world(tmp_path)
    maps.load_map(str(path))
    path.unlink()
    with pytest.raises(Exception, match="no such file"):
        maps.load_map(str(path))
    path.mkdir()
    with pytest.raises(Exception, match="is a folder, not a file"):
        maps.load_map(str(path))


def test_a_map_changed_with_replace_leaves_the_remembered_map_as_it_was() -> None:
    world = maps.load_map("world")
    regions = {r.id: world.region_cities(r.id) for r in world.regions}
    first_three = world.cities[:3]
    small = world._replace(cities=first_three)
    assert {r.id: world.region_cities(r.id) for r in world.regions} == regions  # its indexes are its own
    assert maps.load_map("world").region_cities(first_three[0].region or "") == regions[first_three[0].region or ""]
    assert small.region_cities(first_three[0].region or "") == tuple(c for c in first_three if c.region == first_three[0].region)
    assert small.find_city(world.cities[-1].id) is None and world.find_city(world.cities[-1].id) == world.cities[-1]


def test_a_built_map_is_kept_on_disk_by_content_and_an_edit_misses(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRINTKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(maps, "_parsed", {})  # the shared file not yet parsed in this process either
    path = _copy_world(tmp_path)
    first = maps.load_map(str(path))
    assert sorted(p.name.split("-")[3] for p in (tmp_path / "cache").glob("*.json")) == ["loaded", "shared"]

    def fail(*_: object) -> None:
        raise AssertionError("parsed again")

    with monkeypatch.context() as mp:  # a new process: nothing remembered in memory, both files' tables on disk
        mp.setattr(maps, "_built", {})
        mp.setattr(maps, "_parsed", {})
        mp.setattr(maps, "parse", fail)
        kept = maps.load_map(str(path))
        assert kept == first and kept is not first and kept.source == str(path)
        assert maps.map_content(kept) == (str(path), path.read_bytes(), maps._shared_raw()[0])
    path.write_text(path.read_text().replace('name = "Around the World"', 'name = "Around the Wxrld"', 1))
    assert maps.load_map(str(path)).name == "Around the Wxrld"
    assert len(list((tmp_path / "cache").glob("around-the-world-loaded-*.json"))) == 2
