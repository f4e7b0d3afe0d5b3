"""A plain `pip install .` carries the data files, not only the source tree."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (built,) = out.glob("printkit_travel-*.whl")
    return zipfile.ZipFile(built)


def test_wheel_carries_maps_templates_and_assets(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for bundled in sorted(p.name for p in (ROOT / "maps").glob("*.toml")):
        assert f"printkit/maps/{bundled}" in names
    for template in sorted(p.name for p in (ROOT / "templates").iterdir() if p.is_file()):
        assert f"printkit/templates/{template}" in names
    assert any(n.startswith("printkit/assets/fonts/") and n.endswith(".ttf") for n in names)
    assert "printkit/cli/__init__.py" in names
    assert not any(n.startswith(("tests/", "output/")) for n in names)


def test_wheel_leaves_the_test_corpus_generator_out(wheel: zipfile.ZipFile) -> None:
    """The simulated pen and camera serve the tests, benchmarks and tools only (they live in tests/)."""
    modules = [n for n in wheel.namelist() if n.endswith(".py")]
    assert "printkit/scan/read.py" in modules  # the scan itself ships
    assert not [n for n in modules if "simulate" in n or "degrade" in n]


def test_installed_layout_finds_data(wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    """Unpack the wheel elsewhere and ask it for its data from another folder."""
    wheel.extractall(tmp_path / "site")
    code = (
        "from printkit.resources import data_dir; "
        "print(data_dir('maps')); print(data_dir('templates'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, check=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "site")},
    ).stdout.split()
    assert out == [str(tmp_path / "site" / "printkit" / "maps"), str(tmp_path / "site" / "printkit" / "templates")]
