"""Where bundled data lives, in a source checkout and after ``pip install .``.

os.path inside (pathlib, with urllib and ipaddress, costs a command 2.5 ms): the
companions read one bundled file and never need a ``Path``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from printkit.errors import DataError

if TYPE_CHECKING:
    from pathlib import Path

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def data_folder(name: str) -> str:
    """The bundled ``maps`` or ``templates`` folder as a string (installed copy first; DataError if neither exists)."""
    for candidate in (os.path.join(_PACKAGE, name), os.path.join(os.path.dirname(_PACKAGE), name)):
        if os.path.isdir(candidate):
            return candidate
    raise DataError([f"printkit data folder {name!r} is missing from the installation"])


def data_dir(name: str) -> Path:
    """:func:`data_folder` as a ``Path``."""
    from pathlib import Path

    return Path(data_folder(name))


def asset(*parts: str) -> Path:
    """A file shipped inside the package under ``printkit/assets``."""
    from pathlib import Path

    return Path(_PACKAGE, "assets", *parts)
