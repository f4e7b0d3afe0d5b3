"""The solo/party dice table, the ``[dice]`` table of ``maps/around-the-world.toml``.

``printkit roll`` and ``printkit turns next`` must start fast, without a TOML
parser or the map loader, so :func:`load_dice` reads just that table: one
``face = "Action"`` line per face (comments and blank lines allowed). The map
loader checks the same table with :func:`dice_from_table`, so both agree.
"""

from __future__ import annotations

import os

from printkit.errors import DataError
from printkit.model.dice import Dice

SHARED_FILE = "around-the-world.toml"
SHARED_SOURCE = f"maps/{SHARED_FILE}"


def dice_from_table(table: object, source: str) -> Dice:
    """Check a ``[dice]`` table (face -> action, faces 1, 2, 3, ... in order) into Dice."""
    if not isinstance(table, dict) or not table:
        raise DataError([f"{source}: dice: expected a table of die faces and actions, like 1 = \"Travel\""])
    problems: list[str] = []
    for i, (key, action) in enumerate(table.items(), start=1):
        if key != str(i):
            problems.append(f"{source}: dice.{key}: expected face {i} (faces are 1, 2, 3, ... in order)")
        elif not isinstance(action, str) or not action.strip():
            problems.append(f"{source}: dice.{key}: expected the name of an action, like \"Travel\"")
    if problems:
        raise DataError(problems)
    return Dice(tuple(range(1, len(table) + 1)), tuple(table.values()))


def table_lines(text: str, source: str) -> dict[str, str]:
    """The ``face = "Action"`` lines of the ``[dice]`` table in ``text``."""
    table: dict[str, str] = {}
    inside = found = False
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("["):
            inside = line == "[dice]"
            found = found or inside
            continue
        if not inside or not line or line.startswith("#"):
            continue
        key, eq, value = (part.strip() for part in line.partition("="))
        if not eq or len(value) < 2 or value[0] != '"' or value[-1] != '"' or any(c in value[1:-1] for c in '"\\'):
            raise DataError([f"{source}: line {n}: expected a die face and its action, like 1 = \"Travel\""])
        table[key] = value[1:-1]
    if not found:
        raise DataError([f"{source}: dice: missing (expected a [dice] table of die faces and actions)"])
    return table


def load_dice() -> Dice:
    """The bundled dice table, read without parsing the rest of the file."""
    from printkit.resources import data_folder

    try:
        with open(os.path.join(data_folder("maps"), SHARED_FILE), encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError([f"{SHARED_SOURCE}: cannot read file ({exc})"]) from None
    return dice_from_table(table_lines(text, SHARED_SOURCE), SHARED_SOURCE)
