"""The two solo/party dice: faces to actions, outcome texts and exact odds.

Solo/party mode (1 player, or more than 6): each turn two six-sided dice pick
the actions for everyone. 1-2 Travel, 3-4 Collect, 5-6 Explore. Two dice
showing the same action mean that action plus one action of your choice.

Pure: randomness only from a ``random.Random`` passed in. The dice of a
tracked game are derived from ``(seed, turn)`` (see :func:`turn_roll`), so
the same seed always gives the same turns, also after an undo.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # fractions imports decimal: only load it when odds are asked for
    from fractions import Fraction

ACTIONS: tuple[str, ...] = ("Travel", "Collect", "Explore")
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def action_of(face: int) -> str:
    """The action a die face calls for: 1-2 Travel, 3-4 Collect, 5-6 Explore."""
    if face not in FACES:
        raise ValueError(f"a six-sided die has no face {face!r}")
    return ACTIONS[(face - 1) // 2]


def outcome_text(a: int, b: int) -> str:
    """What everyone does, e.g. ``3 + 6 -> Collect and Explore, in either order``."""
    first, second = action_of(a), action_of(b)
    if first == second:
        return f"{a} + {b} -> {first}, plus one action of your choice"
    return f"{a} + {b} -> {first} and {second}, in either order"


class Roll(NamedTuple):
    """Two dice as rolled, in order."""

    a: int
    b: int

    @property
    def dice(self) -> tuple[int, int]:
        """Both faces, in rolled order."""
        return (self.a, self.b)

    @property
    def choice(self) -> bool:
        """Whether both dice show the same action (the second action is free)."""
        return action_of(self.a) == action_of(self.b)

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions everyone must take: two, or one plus a free choice."""
        first, second = action_of(self.a), action_of(self.b)
        return (first,) if first == second else (first, second)

    @property
    def headline(self) -> str:
        """The actions in a few words for large type, e.g. ``Collect and Explore``."""
        first, second = action_of(self.a), action_of(self.b)
        if first == second:
            return f"{first} + one of your choice"
        return f"{first} and {second}"

    @property
    def text(self) -> str:
        """The outcome sentence shown to players."""
        return outcome_text(self.a, self.b)

    def to_json(self) -> dict[str, object]:
        """``{"dice": [a, b], "actions": [...], "choice": bool}``."""
        return {"dice": [self.a, self.b], "actions": list(self.actions), "choice": self.choice}


def roll(rng: random.Random) -> Roll:
    """Roll two six-sided dice with ``rng``."""
    return Roll(rng.randint(1, 6), rng.randint(1, 6))


def turn_roll(seed: int, turn: int) -> Roll:
    """The dice of turn ``turn`` of a game seeded with ``seed``.

    Each turn has its own generator, ``random.Random(f"{seed}:{turn}")``, so a
    turn's dice depend only on the seed and the turn number: replaying a game,
    or rolling a turn again after undo, gives the same dice.
    """
    return roll(random.Random(f"{seed}:{turn}"))


def game_rolls(seed: int, turns: int) -> list[Roll]:
    """The dice of turns 1..``turns`` of a game seeded with ``seed``."""
    return [turn_roll(seed, t) for t in range(1, turns + 1)]


def outcome_key(r: Roll) -> str:
    """The unordered outcome of a roll: ``"Collect+Explore"`` or ``"Travel+choice"``."""
    if r.choice:
        return f"{r.actions[0]}+choice"
    first, second = sorted(r.actions, key=ACTIONS.index)
    return f"{first}+{second}"


def outcome_probabilities() -> dict[str, Fraction]:
    """Exact probability of each unordered outcome (six outcomes, sum 1)."""
    from fractions import Fraction

    odds: dict[str, Fraction] = {}
    for a in FACES:
        for b in FACES:
            key = outcome_key(Roll(a, b))
            odds[key] = odds.get(key, Fraction(0)) + Fraction(1, 36)
    return odds


def action_probability(action: str) -> Fraction:
    """Chance that one die calls for ``action`` (1/3 each)."""
    from fractions import Fraction

    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    return Fraction(sum(1 for f in FACES if action_of(f) == action), len(FACES))


def same_action_probability() -> Fraction:
    """Chance that both dice call for the same action in a turn (1/3)."""
    from fractions import Fraction

    odds = outcome_probabilities()
    return sum((p for k, p in odds.items() if k.endswith("+choice")), Fraction(0))


def chi_square(observed: dict[str, int], expected: dict[str, float]) -> float:
    """Pearson's chi-square statistic of observed counts against expected counts."""
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())
