"""The companions' state file on the command line: ``--state``, ``--force`` and the "no game here" hint.

One :class:`Companion` per table companion (``turns``, ``abby``,
``wereldsteden``) holds its default file and how to start a game; bound to a
schema (``to_state`` / ``from_state`` of its rules module) it loads, changes
and replaces the saved game through :class:`printkit.loading.state.StateFile`
(locked, atomic, a corrupt file left untouched). Kept light: ``printkit turns
next`` imports this module.
"""

import contextlib
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, Generic, NamedTuple, TypeVar

import click

from printkit.loading.state import STATE_FORMAT, Migration, StateFile

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class Box(Generic[T]):
    """The value inside a ``changing`` block: change it in place or replace ``.value``."""

    def __init__(self, value: T) -> None:
        self.value = value


class Companion(NamedTuple):
    """A companion's state file as the command line knows it.

    ``missing`` starts the message for a file that is not there (``no solo
    game here; start one with``) and ``start`` is the command it suggests,
    repeated with ``--state PATH`` unless the file is the ``default`` one.
    """

    kind: str
    default: str
    help: str
    missing: str
    start: str
    envvar: str | None = None

    def option(self, func: F) -> F:
        """The ``--state PATH`` option (passed as ``state_path``) of every subcommand of the companion."""
        option: Callable[[F], F] = click.option(
            "--state", "state_path", type=_state_type(), default=self.default, envvar=self.envvar,
            show_default=True, help=self.help, callback=_state_folder,
        )  # fmt: skip
        return option(func)

    def flag(self, path: str) -> str:
        """`` --state PATH`` to repeat in a suggested command, or nothing for the default file."""
        return "" if path == self.default else f" --state {path}"

    def at(self, path: str, dump: Callable[[T], dict[str, Any]], load: Callable[[dict[str, Any], str], T],
           fmt: int = STATE_FORMAT, migrate: Migration | None = None) -> "Saved[T]":
        """The game saved at ``path``, read and written with this schema (state format ``fmt``, older ones migrated)."""
        file = StateFile(self.kind, dump, load, fmt, migrate)
        return Saved(file, path, f"{self.missing} `{self.start}{self.flag(path)}`")


class Saved(NamedTuple, Generic[T]):
    """One companion's game at one path: load it, change it under the lock, or replace it."""

    file: StateFile[T]
    path: str
    missing: str

    def load(self) -> T:
        """The saved game; StateError with the start hint when there is none."""
        return self.file.read(self.path, self.missing)

    @contextlib.contextmanager
    def changing(self) -> Iterator[Box[T]]:
        """Lock and load the game; the caller changes ``box.value`` (or replaces it); saved if it changed.

        A missing or corrupt file stops before any lock file is made and is
        left untouched; nothing is saved when the block raises.
        """
        from printkit.files import locked

        self.load()
        with locked(self.path):
            box = Box(self.load())
            before = self.file.dump(box.value)
            yield box
            after = self.file.dump(box.value)
            if after != before:
                self.file.write_doc(self.path, after)

    def replace(self, value: T, force: bool, busy: Callable[[T], str | None]) -> None:
        """Save a new game over the old one, unless ``busy(old)`` says why not and ``--force`` was not given.

        A corrupt or foreign file stops here, untouched, even with ``--force``.
        """
        from printkit.errors import StateError
        from printkit.files import locked

        with locked(self.path):
            old = self.load() if self.file.exists(self.path) else None
            reason = None if old is None or force else busy(old)
            if reason is not None:
                raise StateError(f"{self.path}: {reason}")
            self.file.write(self.path, value)


@lru_cache(maxsize=None)
def _state_type() -> click.Path:
    """The ``--state`` option's type, one for every subcommand (each ``click.Path`` looks up its words with gettext)."""
    return click.Path(dir_okay=False)


def _state_folder(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A ``--state`` path whose folder does not exist is a usage error, as for every output."""
    from printkit.cli.common import output_file

    output_file(value, "'--state'")
    return value


def force_option(help_text: str) -> Callable[[F], F]:
    """The ``--force`` flag of a companion's start command."""
    option: Callable[[F], F] = click.option("--force", is_flag=True, help=help_text)
    return option
