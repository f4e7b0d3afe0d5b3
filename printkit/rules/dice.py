"""The two solo/party dice: faces to actions, outcome texts and exact odds.

Solo/party mode (1 player, or more than multiplayer allows): each turn two
dice pick the actions for everyone, by the map's dice table
(:class:`~printkit.model.dice.Dice`: 1-2 Travel, 3-4 Collect, 5-6 Explore).
Two dice showing the same action mean that action plus one action of your choice.

Pure: randomness only from a ``random.Random`` passed in. The dice of a
tracked game are derived from ``(seed, turn)`` (see :func:`turn_roll`), so
the same seed always gives the same turns, also after an undo.
"""

import random
from typing import TYPE_CHECKING, NamedTuple

from printkit.model.dice import Dice

if TYPE_CHECKING:  # fractions imports decimal: only load it when odds are asked for
    from fractions import Fraction


def outcome_text(table: Dice, a: int, b: int) -> str:
    """What everyone does, e.g. ``3 + 6 -> Collect and Explore, in either order``."""
    first, second = table.action_of(a), table.action_of(b)
    if first == second:
        return f"{a} + {b} -> {first}, plus one action of your choice"
    return f"{a} + {b} -> {first} and {second}, in either order"


class Roll(NamedTuple):
    """Two dice as rolled, in order, and the dice table that reads them."""

    a: int
    b: int
    table: Dice

    @property
    def dice(self) -> tuple[int, int]:
        """Both faces, in rolled order."""
        return (self.a, self.b)

    @property
    def choice(self) -> bool:
        """Whether both dice show the same action (the second action is free)."""
        return self.table.action_of(self.a) == self.table.action_of(self.b)

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions everyone must take: two, or one plus a free choice."""
        first, second = self.table.action_of(self.a), self.table.action_of(self.b)
        return (first,) if first == second else (first, second)

    @property
    def headline(self) -> str:
        """The actions in a few words for large type, e.g. ``Collect and Explore``."""
        first, second = self.table.action_of(self.a), self.table.action_of(self.b)
        if first == second:
            return f"{first} + one of your choice"
        return f"{first} and {second}"

    @property
    def text(self) -> str:
        """The outcome sentence shown to players."""
        return outcome_text(self.table, self.a, self.b)

    def to_json(self) -> dict[str, object]:
        """``{"dice": [a, b], "actions": [...], "choice": bool}``."""
        return {"dice": [self.a, self.b], "actions": list(self.actions), "choice": self.choice}


def roll(table: Dice, rng: random.Random) -> Roll:
    """Roll two dice of ``table`` with ``rng``."""
    return Roll(rng.choice(table.faces), rng.choice(table.faces), table)


def turn_roll(table: Dice, seed: int, turn: int) -> Roll:
    """The dice of turn ``turn`` of a game seeded with ``seed``.

    Each turn has its own generator, ``random.Random(f"{seed}:{turn}")``, so a
    turn's dice depend only on the seed and the turn number: replaying a game,
    or rolling a turn again after undo, gives the same dice.
    """
    return roll(table, random.Random(f"{seed}:{turn}"))


def game_rolls(table: Dice, seed: int, turns: int) -> list[Roll]:
    """The dice of turns 1..``turns`` of a game seeded with ``seed``."""
    return [turn_roll(table, seed, t) for t in range(1, turns + 1)]


def outcome_key(r: Roll) -> str:
    """The unordered outcome of a roll: ``"Collect+Explore"`` or ``"Travel+choice"``."""
    if r.choice:
        return f"{r.actions[0]}+choice"
    first, second = sorted(r.actions, key=r.table.names.index)
    return f"{first}+{second}"


def outcome_probabilities(table: Dice) -> "dict[str, Fraction]":
    """Exact probability of each unordered outcome (sum 1)."""
    from fractions import Fraction

    odds: dict[str, Fraction] = {}
    share = Fraction(1, len(table.faces) ** 2)
    for a in table.faces:
        for b in table.faces:
            key = outcome_key(Roll(a, b, table))
            odds[key] = odds.get(key, Fraction(0)) + share
    return odds


def action_probability(table: Dice, action: str) -> "Fraction":
    """Chance that one die calls for ``action`` (1/3 each on the bundled dice)."""
    from fractions import Fraction

    if action not in table.names:
        raise ValueError(f"unknown action {action!r}")
    return Fraction(len(table.faces_of(action)), len(table.faces))


def same_action_probability(table: Dice) -> "Fraction":
    """Chance that both dice call for the same action in a turn (1/3 on the bundled dice)."""
    from fractions import Fraction

    odds = outcome_probabilities(table)
    return sum((p for k, p in odds.items() if k.endswith("+choice")), Fraction(0))
