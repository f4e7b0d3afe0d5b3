"""The command line as a whole: every command listed, documented with an example."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from printkit.cli import COMMANDS, cli


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


def test_top_level_help_lists_every_command(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS)


@pytest.mark.parametrize("name,command", _all_commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_has_help_with_an_example(runner: CliRunner, name: str, command: click.Command) -> None:
    result = runner.invoke(cli, [*name.split(), "--help"])
    assert result.exit_code == 0, result.output
    assert command.help and command.help.strip(), f"{name} has no help text"
    assert "Example" in result.output, f"`printkit {name} --help` shows no example"
    assert "printkit " in result.output.split("Example")[1], f"{name}'s example is not a printkit command"


def test_version() -> None:
    out = subprocess.run([sys.executable, "-m", "printkit", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("printkit, version ")


def test_unknown_command_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["paint"])
    assert result.exit_code == 2
    assert "No such command 'paint'" in result.output
