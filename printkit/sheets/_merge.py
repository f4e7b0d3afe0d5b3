"""TEMPORARY bridge to helper H1's model (drop at merge): facts the map model is gaining.

H1 adds ``GameMap.dice`` (faces, actions, ``action_of``), ``GameMap.title``
(``"<name> in 15 Minutes"``) and the multiplayer player limit to the model.
Until that lands, each function here reads the model's attribute when it has
one and falls back to today's value. At merge, replace ``dice(m)`` with
``m.dice``, ``title(m)`` with ``m.title`` and ``max_multiplayer(m)`` with the
model's field, and delete this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, cast

from printkit.model.maps import GameMap


class Dice(Protocol):
    """The solo/party dice as the model holds them: faces, actions, face -> action."""

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face of a die, in order."""
        ...

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions, in the order of their faces."""
        ...

    def action_of(self, face: int) -> str:
        """The action a face calls for."""
        ...


@dataclass(frozen=True)
class _RulesDice:
    """Today's dice table from :mod:`printkit.rules.dice`, shaped like the model's."""

    faces: tuple[int, ...]
    actions: tuple[str, ...]

    def action_of(self, face: int) -> str:
        """The action a face calls for."""
        from printkit.rules import dice  # TODO(merge): m.dice

        return dice.action_of(face)


def dice(m: GameMap) -> Dice:
    """The map's dice table."""
    found = getattr(m, "dice", None)  # TODO(merge): m.dice
    if found is not None:
        return cast(Dice, found)
    from printkit.rules import dice as table  # TODO(merge): m.dice

    return _RulesDice(table.FACES, table.ACTIONS)


def title(m: GameMap) -> str:
    """The game's printed title, ``Around the World in 15 Minutes``."""
    found = getattr(m, "title", None)  # TODO(merge): m.title
    return found if isinstance(found, str) else f"{m.name} in 15 Minutes"


def max_multiplayer(m: GameMap) -> int:
    """The most players of a multiplayer game (more play the party mode)."""
    found = getattr(m, "max_multiplayer", None)  # TODO(merge): H1's field for the 6-player limit
    return found if isinstance(found, int) else 6
