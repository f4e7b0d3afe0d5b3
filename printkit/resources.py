"""Where bundled data lives, in a source checkout and after ``pip install .``."""

from __future__ import annotations

from pathlib import Path

from printkit.errors import DataError

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The bundled ``maps`` or ``templates`` folder (installed copy first; DataError if neither exists)."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise DataError([f"printkit data folder {name!r} is missing from the installation"])


def asset(*parts: str) -> Path:
    """A file shipped inside the package under ``printkit/assets``."""
    return _PACKAGE.joinpath("assets", *parts)
