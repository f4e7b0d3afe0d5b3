"""The command line as a whole: the commands it offers, each documented with an example; one error handler."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import printkit.resources
from printkit.cli import cli

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_COMMANDS = ["maps", "render", "score", "scan", "history", "roll", "turns", "host", "abby", "wereldsteden"]


def _all_commands() -> list[tuple[str, click.Command]]:
    """Every command and subcommand, by its full name."""
    ctx = click.Context(cli)
    found: list[tuple[str, click.Command]] = []

    def walk(prefix: str, group: click.Group) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None, name
            full = f"{prefix} {name}".strip()
            found.append((full, command))
            if isinstance(command, click.Group):
                walk(full, command)

    walk("", cli)
    return found


def _listed(help_text: str) -> list[str]:
    """The command names in the ``Commands:`` section of a help text."""
    section = help_text.split("Commands:")[1]
    return [line.split()[0] for line in section.splitlines() if line.startswith("  ") and line.strip()]


def test_top_level_help_lists_the_commands(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert _listed(result.output) == EXPECTED_COMMANDS


@pytest.mark.parametrize("name", EXPECTED_COMMANDS)
def test_every_listed_command_runs_help_with_an_example(runner: CliRunner, name: str) -> None:
    result = runner.invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert f" {name} " in result.output.splitlines()[0], result.output  # the usage line of this command
    example = result.output.split("Example")[1]
    assert f"printkit {name}" in example, f"`printkit {name} --help` shows no example of itself"


@pytest.mark.parametrize("name,command", _all_commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_has_help_with_an_example(runner: CliRunner, name: str, command: click.Command) -> None:
    result = runner.invoke(cli, [*name.split(), "--help"])
    assert result.exit_code == 0, result.output
    assert command.help and command.help.strip(), f"{name} has no help text"
    assert "{" not in result.output.split("Options:")[0], f"`printkit {name} --help` shows an unfilled field"
    assert "Example" in result.output, f"`printkit {name} --help` shows no example"
    assert f"printkit {name}" in result.output.split("Example")[1], f"{name}'s example does not run {name}"


def test_version() -> None:
    out = subprocess.run([sys.executable, "-m", "printkit", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("printkit, version ")


def test_unknown_command_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["paint"])
    assert result.exit_code == 2
    assert "No such command 'paint'" in result.output


# ----------------------------------------------------------------- one error handler

# every leaf command reads bundled data (and must report a broken file), or reads only its state file
READS_DATA = {
    "maps": [], "maps show": ["world"], "maps validate": ["{maps}/world.toml"],
    "render": ["passport", "globetrotting", "-o", "p.pdf"],
    "score": [str(ROOT / "tests" / "data" / "games" / "world-chris.toml")],
    "scan": [str(ROOT / "tests" / "data" / "scan" / "world-ann.jpg")],
    "turns start": [], "host": ["-o", "host.html"],
    "abby start": ["--bucket-cards", "3"], "abby turn": ["--cards", "1,2,3", "--chose", "1", "--airfare", "2"],
    "abby undo": [], "abby status": [], "abby score": [],
    "wereldsteden setup": [], "wereldsteden refill": ["tokyo"], "wereldsteden swap": ["tokyo", "wellington"],
    "wereldsteden status": [],
}  # fmt: skip
READS_NO_DATA = {"roll", "turns next", "turns finish", "turns undo", "turns status", "turns history", "turns end",
                 "history", "history show", "history forget", "history bests", "history export", "history import"}


@pytest.fixture
def broken_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Bundled data whose every .toml file is invalid TOML; the bundled fonts, icons and templates as they are."""
    package = tmp_path / "package" / "printkit"
    package.mkdir(parents=True)
    (package / "assets").symlink_to(ROOT / "printkit" / "assets")
    (package / "templates").symlink_to(ROOT / "templates")
    maps = package / "maps"
    shutil.copytree(ROOT / "maps", maps)
    for path in maps.glob("*.toml"):
        path.write_text("id = [\n", encoding="utf-8")
    monkeypatch.setattr(printkit.resources, "_PACKAGE", package)
    monkeypatch.chdir(tmp_path)
    return maps


def test_every_leaf_command_is_classified() -> None:
    leaves = {name for name, command in _all_commands() if not isinstance(command, click.Group) or name in ("maps", "history")}
    assert leaves == set(READS_DATA) | READS_NO_DATA


@pytest.mark.parametrize("name", sorted(READS_DATA))
def test_a_broken_data_file_is_one_error_line_for_every_command(
    runner: CliRunner, broken_data: Path, name: str
) -> None:
    args = [a.replace("{maps}", str(broken_data)) for a in READS_DATA[name]]
    result = runner.invoke(cli, [*name.split(), *args])
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("Error: ") and ".toml: " in lines[0] and "invalid TOML" in lines[0], lines[0]


def test_broken_globetrotting_data_names_its_file_for_abby_start(
    runner: CliRunner, broken_data: Path
) -> None:
    result = runner.invoke(cli, ["abby", "start", "--bucket-cards", "3"])
    assert result.exit_code == 1
    assert result.stderr == "Error: maps/globetrotting.toml: at end of file: invalid TOML (Invalid value)\n"
    assert not Path("printkit-abby.json").exists()


def test_roll_and_the_tracker_need_only_the_dice_table(runner: CliRunner, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The state-only commands read the state file and the dice table, no map: without data, a clean error."""
    state = tmp_path / "game.json"
    assert runner.invoke(cli, ["turns", "start", "--players", "Ann", "--seed", "1", "--state", str(state)]).exit_code == 0
    install = tmp_path / "nowhere" / "printkit"
    monkeypatch.setattr(printkit.resources, "_PACKAGE", install)  # no data at all
    commands = (["roll"], ["turns", "next"], ["turns", "status"], ["turns", "history"], ["turns", "undo"])
    for args in commands:
        result = runner.invoke(cli, [*args, *(["--state", str(state)] if args[0] == "turns" else [])])
        assert (result.exit_code, result.stderr) == (
            1, "Error: printkit data folder 'maps' is missing from the installation\n"), args
    (install / "maps").mkdir(parents=True)
    shutil.copy(ROOT / "maps" / "around-the-world.toml", install / "maps")  # the dice table, no map file
    for args in (["roll"], ["turns", "next"], ["turns", "status"], ["turns", "history"], ["turns", "finish"],
                 ["turns", "undo"], ["turns", "end"]):  # fmt: skip
        result = runner.invoke(cli, [*args, *(["--state", str(state)] if args[0] == "turns" else [])])
        assert result.exit_code == 0, (args, result.output)


# ----------------------------------------------------------------- help texts quote the data


@pytest.fixture
def edited_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the bundled data to edit; the fonts, icons and templates as they are."""
    package = tmp_path / "package" / "printkit"
    package.mkdir(parents=True)
    (package / "assets").symlink_to(ROOT / "printkit" / "assets")
    shutil.copytree(ROOT / "maps", package / "maps")
    monkeypatch.setattr(printkit.resources, "_PACKAGE", package)
    return package / "maps"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _help(runner: CliRunner, *command: str) -> str:
    """``printkit COMMAND --help``, its words separated by single spaces."""
    result = runner.invoke(cli, [*command, "--help"])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_abby_help_quotes_the_globetrotting_data(runner: CliRunner, edited_data: Path) -> None:
    shown = _help(runner, "abby", "score")
    assert "Score you and Abby after 9 flights and say who won." in shown
    assert "Abby: 2 per Bucket List card you started with, 3 for festivals" in shown
    assert "both objectives on turn 6 (4 instead of 6 for one you achieved earlier), and 2 if she spent less." in shown
    _edit(edited_data / "globetrotting.toml", "per_bucket_card = 2 ", "per_bucket_card = 5 ")
    assert "Abby: 5 per Bucket List card" in _help(runner, "abby", "score")
    assert "keeping 3-7 Bucket List cards" in _help(runner, "abby", "start")
    listing = _help(runner, "abby")
    assert "score Score you and Abby after 9 flights" in listing  # the short help in the list


def test_wereldsteden_help_quotes_the_spaces_of_the_data(runner: CliRunner, edited_data: Path) -> None:
    refill = _help(runner, "wereldsteden", "refill")
    assert "SPACE is a display space: helsinki-yellow, tokyo, wellington, helsinki-purple, vancouver or buenos-aires." in refill
    group = _help(runner, "wereldsteden")
    assert "`setup` deals the yellow tiles to Helsinki, Tokyo and Wellington and the purple tiles to Helsinki, Vancouver and Buenos Aires;" in group
    _edit(edited_data / "wereldsteden.toml", 'city = "Tokyo"', 'city = "Kyoto"')
    assert "Helsinki, Kyoto and Wellington" in _help(runner, "wereldsteden")


@pytest.mark.parametrize("command", [["render"], ["score"], ["maps", "show"]])
def test_map_ids_in_help_come_from_the_data(runner: CliRunner, edited_data: Path, command: list[str]) -> None:
    assert "(world, us, europe, south-america" in _help(runner, *command)
    _edit(edited_data / "around-the-world.toml", '"south-america"', '"south-america", "world"')
    shown = _help(runner, *command)
    assert "(world, us, europe, south-america, world" in shown
