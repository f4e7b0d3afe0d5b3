"""printkit's command line: a thin shell that loads each command on demand.

Only the invoked command's module is imported, so ``printkit roll`` pays for
Click and the dice, nothing else. Heavy libraries are imported inside the
commands that use them. The group reports every :class:`PrintkitError` of
every command the same way: ``Error: <line>`` per line on stderr, exit status
``exc.exit_code``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

from printkit import __version__
from printkit.errors import PrintkitError

# command name -> (module, attribute, one-line help shown by `printkit --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "maps": ("printkit.cli.maps_cmd", "maps", "List, show and validate map files."),
    "render": ("printkit.cli.render_cmd", "render", "Render map sheets, trackers and score pads."),
    "score": ("printkit.cli.score_cmd", "score", "Score a finished game and name the winner."),
    "scan": ("printkit.cli.scan_cmd", "scan", "Score photos or scans of filled-in map sheets."),
    "roll": ("printkit.cli.roll_cmd", "roll", "Roll the two solo/party dice."),
    "turns": ("printkit.cli.turns_cmd", "turns", "Track a solo/party game turn by turn."),
    "host": ("printkit.cli.host_cmd", "host", "Write an offline host screen (HTML)."),
    "abby": ("printkit.cli.abby_cmd", "abby", "Play Globetrotting solo against Abby."),
    "wereldsteden": ("printkit.cli.wereldsteden_cmd", "wereldsteden", "Deal Wereldsteden winning tiles."),
}


def report(exc: PrintkitError) -> NoReturn:
    """Print ``Error: <line>`` per line of the error on stderr and exit with its status."""
    for line in str(exc).splitlines() or [type(exc).__name__]:
        click.echo(f"Error: {line}", err=True)
    raise SystemExit(exc.exit_code) from None


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when used, and whose errors are reported in one place."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command; a PrintkitError from anywhere in it becomes ``Error: ...`` and its exit status."""
        try:
            return super().invoke(ctx)
        except PrintkitError as exc:
            report(exc)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, in help order, without importing any."""
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import and return one command (None for an unknown name)."""
        spec = COMMANDS.get(cmd_name)
        if spec is None:
            return None
        module = importlib.import_module(spec[0])
        command: click.Command = getattr(module, spec[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with their one-line help, importing none of them."""
        rows = [(name, spec[2]) for name, spec in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printkit")
def cli() -> None:
    """Print-and-play sheets and a table companion for travel games.

    \b
    Example:
      printkit render map world --names "Ann,Bo,Cy"
    """


def main(argv: list[str] | None = None) -> Any:
    """Entry point of the ``printkit`` console script."""
    return cli.main(args=argv if argv is not None else sys.argv[1:], prog_name="printkit")
