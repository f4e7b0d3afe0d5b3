"""The ``printkit`` group: a thin shell that loads each command on demand.

The group's own commands are listed here (:data:`CORE`); the companions that
play a game at the table come from the registry
(:func:`printkit.registry.companion_commands`). Only the invoked command's
module is imported, so ``printkit roll`` pays for Click, the registry and the
dice, nothing else. Heavy libraries are imported inside the commands that use
them. The group reports every :class:`PrintkitError` of
every command the same way: ``Error: <line>`` per line on stderr, exit status
``exc.exit_code``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click

from printkit import __version__, registry
from printkit.cli import COLLECTED, resume_collector
from printkit.errors import PrintkitError, PrintkitWarning


def _maps() -> click.Command:
    from printkit.cli.maps_cmd import maps

    return maps


def _render() -> click.Command:
    from printkit.cli.render_cmd import render

    return render


def _score() -> click.Command:
    from printkit.cli.score_cmd import score

    return score


def _scan() -> click.Command:
    from printkit.cli.scan_cmd import scan

    return scan


def _history() -> click.Command:
    from printkit.cli.history_cmd import history

    return history


# the command line's own commands: name -> (its loader, one-line help shown by `printkit --help`)
CORE: dict[str, tuple[Callable[[], click.Command], str]] = {
    "maps": (_maps, "List, show and validate map files."),
    "render": (_render, "Render map sheets, trackers and score pads."),
    "score": (_score, "Score a finished game and name the winner."),
    "scan": (_scan, "Score photos or scans of filled-in map sheets."),
    "history": (_history, "List, compare and export the games recorded when scored."),
}
COMPANIONS: dict[str, registry.Command] = {command.name: command for command in registry.companion_commands()}
"""The commands the games bring, from the registry, in its order."""
COMMANDS: dict[str, str] = {
    **{name: help_line for name, (_, help_line) in CORE.items()},
    **{name: command.help for name, command in COMPANIONS.items()},
}
"""Every command name, in help order, with its one-line help: the core ones, then those the games bring."""

LONGEST_WORD = 300  # a run of this many characters without a blank, in a message, is a user's value: cut


def clip(message: str) -> str:
    """``message`` with every run of more than :data:`LONGEST_WORD` non-blank characters cut (``...``).

    The net under every error printed: a 10,000-character name or path typed
    as an argument is echoed shortened, whichever message quotes it.
    """
    return re.sub(rf"\S{{{LONGEST_WORD + 1},}}", lambda m: m[0][: LONGEST_WORD - 3] + "...", message)


def clipped(exc: click.ClickException) -> click.ClickException:
    """A Click error whose message quotes a very long value, again with the value cut (see :func:`clip`)."""
    text = exc.format_message()
    short = clip(text)
    if short == text:
        return exc
    # a usage error stays one (exit 2, with its "Try --help" hint); any other Click error exits 1
    return click.UsageError(short, exc.ctx) if isinstance(exc, click.UsageError) else click.ClickException(short)


def report(exc: PrintkitError) -> NoReturn:
    """Print ``Error: <line>`` per line of the error on stderr and exit with its status."""
    for line in str(exc).splitlines() or [type(exc).__name__]:
        click.echo(f"Error: {clip(line)}", err=True)
    raise SystemExit(exc.exit_code) from None


# errors of a write to stdout: a full disk, a closed pipe, a device gone
STDOUT_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF})
BROKEN_PIPE_STATUS = 141  # 128 + SIGPIPE, what a shell reports for `yes | head -1`


def stdout_failed(exc: OSError) -> NoReturn:
    """Stdout cannot take our output: say so once on stderr (exit 1); a closed pipe exits quietly with 141.

    Printkit reports every failed file write as a PrintkitError naming the
    file, so an OSError with no file name that reaches the group is stdout's.
    Stdout is pointed at /dev/null so Python's final flush cannot fail again.
    """
    with contextlib.suppress(OSError, AttributeError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    if exc.errno == errno.EPIPE:
        raise SystemExit(BROKEN_PIPE_STATUS) from None
    click.echo(f"Error: cannot write to standard output: {exc.strerror or exc}", err=True)
    raise SystemExit(1) from None


def is_stdout_error(exc: OSError) -> bool:
    """An OSError from writing to stdout (see :func:`stdout_failed`)."""
    return exc.filename is None and exc.errno in STDOUT_ERRNOS


def file_failed(exc: OSError) -> NoReturn:
    """A file the system refused that no command foresaw (``Error: <file>: <reason>``, exit 1): never a traceback."""
    from printkit.cli.common import shown_path

    name = exc.filename
    where = shown_path(os.fsdecode(name)) if isinstance(name, (str, bytes)) else repr(name)
    click.echo(f"Error: {where}: {exc.strerror or exc}", err=True)
    raise SystemExit(1) from None


INTERRUPTED = {"SIGINT": 130, "SIGTERM": 143}  # 128 + the signal's number, as a shell reports a killed command


def interrupted(exc: KeyboardInterrupt) -> NoReturn:
    """Ctrl-C or ``kill`` (see :func:`printkit.cli.main`): ``Error: interrupted``, exit 130 or 143.

    The command's files are already cleaned up: every write removes its temp
    files as the interruption passes through it.
    """
    click.echo("Error: interrupted", err=True)
    raise SystemExit(INTERRUPTED[getattr(exc, "signal_name", "SIGINT")]) from None


def show_notices() -> None:
    """Print printkit's own warnings (a cache folder not used, ...) as one ``Warning: ...`` line each on stderr.

    Replacing ``warnings.showwarning`` is the documented way to show warnings
    otherwise; any other package's warning is shown as Python would.
    """
    import warnings

    plain = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if issubclass(category, PrintkitWarning):
            click.echo(f"Warning: {message}", err=True)
        else:
            plain(message, category, filename, lineno, file, line)

    warnings.showwarning = show


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when used, and whose errors are reported in one place."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command; a PrintkitError from anywhere in it becomes ``Error: ...`` and its exit status."""
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except PrintkitError as exc:
            report(exc)
        except click.ClickException as exc:
            raise clipped(exc) from None
        except OSError as exc:
            if is_stdout_error(exc):
                stdout_failed(exc)
            if exc.filename is None:
                raise
            file_failed(exc)
        except KeyboardInterrupt as exc:
            interrupted(exc)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """Parse the group's own options; a usage error echoes what was typed shortened."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:
            raise clipped(exc) from None

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the group; a closed stdout is refused before anything runs, a failing one reported once."""
        if sys.stdout is None:
            click.echo("Error: standard output is closed; printkit prints its results there "
                       "(redirect it to a file or to /dev/null instead)", err=True)
            raise SystemExit(1)
        from printkit.cli.streams import escaping

        show_notices()
        try:
            with escaping():
                return super().main(*args, **kwargs)
        except OSError as exc:
            if not is_stdout_error(exc):
                raise
            stdout_failed(exc)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, in help order, without importing any."""
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import and return one command (None for an unknown name)."""
        core = CORE.get(cmd_name)
        if core is not None:
            command = core[0]()
        else:
            companion = COMPANIONS.get(cmd_name)
            if companion is None:
                return None
            command = companion.load(click.Command)
        if cmd_name in COLLECTED:
            resume_collector()
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with their one-line help, importing none of them."""
        rows = list(COMMANDS.items())
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

