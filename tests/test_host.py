"""`printkit host`: the offline host page's content, safety and errors (no browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jinja2
import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.loading.dice import load_dice
from printkit.present.host import render_host
from printkit.resources import data_dir
from printkit.rules.dice import game_rolls
from printkit.rules.turns import MapInfo

DICE = load_dice()

DATA = re.compile(r'<script id="game-data" type="application/json">(.*?)</script>', re.S)


def write_page(runner: CliRunner, tmp_path: Path, *args: str) -> str:
    out = tmp_path / "host.html"
    result = runner.invoke(cli, ["host", *args, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    return out.read_text(encoding="utf-8")


def page_data(html: str) -> dict[str, Any]:
    match = DATA.search(html)
    assert match is not None
    doc: dict[str, Any] = json.loads(match.group(1))
    return doc


def test_page_rolls_the_same_dice_as_the_tracker(runner: CliRunner, tmp_path: Path) -> None:
    html = write_page(runner, tmp_path, "--map", "world", "--seed", "42")
    data = page_data(html)
    assert data["turns"] == 20
    state = tmp_path / "game.json"
    runner.invoke(cli, ["turns", "start", "--seed", "42", "--state", str(state)])
    tracker = [runner.invoke(cli, ["turns", "next", "--state", str(state)]).output.splitlines()[0] for _ in range(20)]
    assert [f"Turn {r['turn']} of 20: {r['text']}" for r in data["rolls"]] == tracker
    assert [r["dice"] for r in data["rolls"]] == [list(r.dice) for r in game_rolls(DICE, 42, 20)]
    assert data["rolls"][0] == {
        "turn": 1, "dice": [2, 5], "actions": ["Travel", "Explore"], "choice": False,
        "headline": "Travel and Explore", "text": "2 + 5 -> Travel and Explore, in either order",
    }
    # speed bonus for finishing on turn t is 20 - t
    assert data["bonus"] == [20 - t for t in range(21)]


def test_page_shows_the_map_track_and_rating_chart(runner: CliRunner, tmp_path: Path) -> None:
    html = write_page(runner, tmp_path, "--map", "europe", "--seed", "5", "--players", "Ann,Bo")
    assert "<title>Around Europe: solo/party host</title>" in html
    assert "seed 5" in html
    assert re.findall(r'<li data-turn="(\d+)">', html) == [str(t) for t in range(1, 21)]
    assert "visited at least 2 cities in every region" in html
    assert "<tr><td>70 or more</td><td>The Perfect Vacation</td></tr>" in html
    assert "<tr><td>19 or less</td><td>Did You Lose Your Passport?</td></tr>" in html
    assert re.findall(r'class="player" data-index="\d+">([^<]*)<', html) == ["Ann", "Bo"]


def test_page_is_self_contained(runner: CliRunner, tmp_path: Path) -> None:
    html = write_page(runner, tmp_path, "--seed", "1")
    assert not re.search(r"\b(src|href)\s*=", html)
    assert "@import" not in html and "url(" not in html
    assert "https://" not in html
    assert re.findall(r"http://[^\"']*", html) == ["http://www.w3.org/2000/svg"]  # a namespace name, not a fetch


def test_names_are_escaped(runner: CliRunner, tmp_path: Path) -> None:
    html = write_page(runner, tmp_path, "--seed", "1", "--players", "<b>Bo</b>,Ann & Cy,</script>")
    assert "<b>Bo" not in html
    assert "&lt;b&gt;Bo&lt;/b&gt;" in html
    assert "Ann &amp; Cy" in html
    assert html.count("</script>") == 2  # the data block and the program, nothing injected
    assert page_data(html)["players"] == ["<b>Bo</b>", "Ann & Cy", "</script>"]


def test_same_seed_gives_byte_identical_pages(runner: CliRunner, tmp_path: Path) -> None:
    first = write_page(runner, tmp_path, "--seed", "8", "--players", "Ann")
    assert write_page(runner, tmp_path, "--seed", "8", "--players", "Ann") == first
    assert write_page(runner, tmp_path, "--seed", "9", "--players", "Ann") != first


def test_without_seed_the_drawn_seed_is_shown(runner: CliRunner, tmp_path: Path) -> None:
    html = write_page(runner, tmp_path)
    data = page_data(html)
    assert isinstance(data["seed"], int)
    assert f"seed {data['seed']}" in html
    assert [r["dice"] for r in data["rolls"]] == [list(r.dice) for r in game_rolls(DICE, data["seed"], 20)]


def test_template_refuses_undefined_names() -> None:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))), autoescape=True, undefined=jinja2.StrictUndefined
    )
    with pytest.raises(jinja2.UndefinedError, match="'title' is undefined"):
        env.get_template("host.html.j2").render()


def test_render_host_directly() -> None:
    info = MapInfo("tiny", "Tiny Trip", 3, 1, ((10, "Good"), (0, "Bad")), DICE)
    html = render_host(info, 4, ())
    assert 'id="players"' not in html  # no players given: no finish buttons
    assert re.findall(r'<li data-turn="(\d+)">', html) == ["1", "2", "3"]
    assert "<tr><td>10 or more</td><td>Good</td></tr>" in html
    assert "<tr><td>9 or less</td><td>Bad</td></tr>" in html


def test_missing_output_folder_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "missing" / "host.html"
    result = runner.invoke(cli, ["host", "--seed", "1", "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for '-o' / '--output': folder '{out.parent}' does not exist"
    )


def test_unwritable_output(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import printkit.files

    def full(path: object, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(printkit.files, "atomic_write", full)
    out = tmp_path / "host.html"
    result = runner.invoke(cli, ["host", "--seed", "1", "-o", str(out)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {out}: cannot write the host page (No space left on device)\n"
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--map", "mars"], "Error: Invalid value for '--map': unknown map 'mars'; choose one of world, us, "
         "europe, south-america, or give the path of a .toml map file\n"),
        (["--seed", "x"], "Error: Invalid value for '--seed': expected a whole number from 0 to 9223372036854775807, got 'x'"),
        (["--players", "Ann,ANN"], "Error: Invalid value for '--players': player name 'ANN' is given twice"),
    ],
)
def test_bad_input(runner: CliRunner, tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "host.html"
    result = runner.invoke(cli, ["host", *args, "-o", str(out)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert not out.exists()


def test_output_is_required(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["host", "--seed", "1"])
    assert result.exit_code == 2
    assert "Error: Missing option '-o' / '--output'." in result.stderr
