"""`printkit scan`'s outputs never destroy its inputs: --save and --review are checked before anything is read,
and an overlay never replaces a file it did not write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import scan_simulate as sim
from click.testing import CliRunner
from scan_helpers import photo

from printkit.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def photos(tmp_path: Path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "ann.jpg").write_bytes(photo("world", "a4", ("Ann",), 0, sim.Filled((), ("london-new-york",), "london")))
    return folder


def test_save_over_an_input_is_refused_and_nothing_written(photos: Path) -> None:
    ann = photos / "ann.jpg"
    before = ann.read_bytes()
    for given, save in ((str(ann), str(ann)), (str(photos), str(ann)), (str(ann), str(photos / ".." / "photos" / "ann.jpg"))):
        code, out, err = run(given, "--save", save)
        assert (code, out) == (2, "")
        last = err.splitlines()[-1]
        assert last.startswith("Error: Invalid value for '--save': '") and last.endswith(
            "; writing there would replace it: choose another file")
    assert ann.read_bytes() == before and sorted(os.listdir(photos)) == ["ann.jpg"]


def test_save_into_a_missing_folder_is_one_line(photos: Path, tmp_path: Path) -> None:
    code, out, err = run(str(photos), "--save", str(tmp_path / "missing" / "game.toml"))
    assert (code, out) == (2, "") and "Traceback" not in err
    assert err.splitlines()[-1] == f"Error: Invalid value for '--save': folder '{tmp_path / 'missing'}' does not exist"


@pytest.mark.parametrize("inside", ["", "review"])
def test_a_review_folder_in_an_input_folder_is_refused(photos: Path, inside: str) -> None:
    review = photos / inside if inside else photos
    code, out, err = run(str(photos), "--review", str(review))
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (f"Error: Invalid value for '--review': '{review}' is the input folder "
                                    f"'{photos}' or inside it; the overlays would land among the photos: choose "
                                    "another folder")
    assert sorted(os.listdir(photos)) == ["ann.jpg"]


def test_review_never_replaces_a_file_and_names_the_one_it_writes(photos: Path, tmp_path: Path) -> None:
    review = tmp_path / "review"
    review.mkdir()
    (review / "01-ann.png").write_bytes(b"my own picture")
    code, _, err = run(str(photos / "ann.jpg"), "--review", str(review), "--accept")
    assert code == 0
    assert (review / "01-ann.png").read_bytes() == b"my own picture"
    assert (review / "01-ann-2.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Wrote {review / '01-ann-2.png'}" in err.splitlines()


def test_a_review_folder_that_is_a_file_is_one_line(photos: Path, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("mine")
    for review in (note, note / "sub"):
        code, out, err = run(str(photos), "--review", str(review))
        assert (code, out) == (2, "") and "Traceback" not in err
        assert err.splitlines()[-1] == f"Error: Invalid value for '--review': '{note}' is not a folder"
    assert note.read_text() == "mine"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_review_folder_is_one_line(photos: Path, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    code, out, err = run(str(photos), "--review", str(locked / "review"))
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == f"Error: Invalid value for '--review': cannot write in '{locked}' (permission denied)"
