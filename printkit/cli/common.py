"""Helpers shared by the command modules: errors to messages and exit codes, state files.

Kept light (Click and the standard library's ``os``): ``printkit roll`` and
``printkit turns next`` import this module, so anything heavier is imported
inside the function that needs it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any, Generic, NoReturn, TypeVar

import click

from printkit.errors import PrintkitError, StateError, UnknownMapError

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


@contextlib.contextmanager
def reported(map_param: str | None = None) -> Iterator[None]:
    """Turn a PrintkitError into ``Error: ...`` on stderr and its exit status.

    With ``map_param`` (the hint of the option or argument that named a map,
    e.g. ``"'--map'"``), an unknown map name is a usage error instead:
    ``Error: Invalid value for '--map': unknown map ...``, exit status 2.
    """
    try:
        yield
    except UnknownMapError as exc:
        if map_param is not None:
            raise click.BadParameter(exc.message, param_hint=map_param) from None
        _report(exc)
    except PrintkitError as exc:
        _report(exc)


def _report(exc: PrintkitError) -> NoReturn:
    for line in str(exc).splitlines() or [type(exc).__name__]:
        click.echo(f"Error: {line}", err=True)
    raise SystemExit(exc.exit_code) from None


def names_option(value: str | None) -> list[str]:
    """Split a comma-separated ``--names`` value, trimming blanks."""
    if not value:
        return []
    return [n.strip() for n in value.split(",") if n.strip()]


def seed_or_random(seed: int | None) -> int:
    """``seed``, or a fresh random one when none was given (shown and saved, so a game can be replayed)."""
    if seed is not None:
        return seed
    import random

    return random.SystemRandom().randrange(1_000_000)


def state_option(default: str, help_text: str, envvar: str | None = None) -> Callable[[F], F]:
    """The ``--state PATH`` option (passed as ``state_path``) of every subcommand of a companion."""
    option: Callable[[F], F] = click.option(
        "--state", "state_path", type=click.Path(dir_okay=False), default=default, envvar=envvar,
        show_default=True, help=help_text,
    )  # fmt: skip
    return option


def state_flag(path: str, default: str) -> str:
    """`` --state PATH`` to repeat in a suggested command, or nothing for the default file."""
    return "" if path == default else f" --state {path}"


def load_state(path: str, kind: str, missing: str) -> dict[str, Any]:
    """The JSON state of ``kind`` saved at ``path``; StateError ``<path>: <missing>`` when there is none."""
    from printkit import __version__
    from printkit.files import read_state

    if not os.path.exists(path):
        raise StateError(f"{path}: {missing}")
    return read_state(path, kind, __version__)


def save_state(path: str, kind: str, doc: dict[str, Any]) -> None:
    """Write the JSON state of ``kind`` to ``path`` atomically, stamped with printkit's version."""
    from printkit import __version__
    from printkit.files import write_state

    write_state(path, kind, {"printkit_version": __version__, **doc})


class Box(Generic[T]):
    """The value inside a ``changing`` block: change it in place or replace ``.value``."""

    def __init__(self, value: T) -> None:
        self.value = value


@contextlib.contextmanager
def changing(path: str, kind: str, load: Callable[[str], T], dump: Callable[[T], dict[str, Any]]) -> Iterator[Box[T]]:
    """Lock the state file, load it, let the caller change it, save it if it changed and no error came.

    ``load(path)`` reads the value (raising StateError for a missing or
    corrupt file, which is then left untouched, without a lock file);
    ``dump(value)`` is the JSON document saved. Errors are ``reported()``.
    """
    from printkit.files import locked

    with reported():
        load(path)  # a missing or corrupt file stops here, before any lock file is made
        with locked(path):
            box = Box(load(path))
            before = dump(box.value)
            yield box
            after = dump(box.value)
            if after != before:
                save_state(path, kind, after)


@contextlib.contextmanager
def replacing(path: str, load: Callable[[str], T]) -> Iterator[T | None]:
    """Lock the state file and yield the value saved there (None if none) before a new game replaces it.

    A corrupt or foreign file stops here (reported), untouched; the caller
    decides whether the old value may be replaced and saves the new one.
    """
    from printkit.files import locked

    with reported(), locked(path):
        yield load(path) if os.path.exists(path) else None
