"""Helpers shared by the command modules: errors to messages and exit codes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click

from printkit.errors import PrintkitError


@contextlib.contextmanager
def reported() -> Iterator[None]:
    """Turn a PrintkitError into ``Error: ...`` on stderr and its exit status."""
    try:
        yield
    except PrintkitError as exc:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            click.echo(f"Error: {line}", err=True)
        raise SystemExit(exc.exit_code) from None


def names_option(value: str | None) -> list[str]:
    """Split a comma-separated ``--names`` value, trimming blanks."""
    if not value:
        return []
    return [n.strip() for n in value.split(",") if n.strip()]
