"""The two solo/party dice of Around the World: each face and the action it calls for.

A module of its own (not :mod:`printkit.model.maps`) so that ``printkit roll``
and ``printkit turns next`` can use it without loading the map model.
"""

from typing import NamedTuple


class Dice(NamedTuple):
    """Die faces and, for each face at the same index, the action it calls for."""

    faces: tuple[int, ...]
    actions: tuple[str, ...]

    def action_of(self, face: int) -> str:
        """The action a die face calls for (ValueError for a face the die does not have)."""
        if face not in self.faces:
            sides = {6: "six"}.get(len(self.faces), str(len(self.faces)))
            raise ValueError(f"a {sides}-sided die has no face {face!r}")
        return self.actions[self.faces.index(face)]

    @property
    def names(self) -> tuple[str, ...]:
        """The different actions, in table order: ``Travel, Collect, Explore``."""
        return tuple(dict.fromkeys(self.actions))

    def faces_of(self, action: str) -> tuple[int, ...]:
        """The faces that call for ``action``, lowest first."""
        return tuple(f for f, a in zip(self.faces, self.actions) if a == action)

    def legend(self) -> str:
        """Which faces call for which action: ``1-2 Travel, 3-4 Collect, 5-6 Explore``."""
        return ", ".join(f"{'-'.join(str(f) for f in self.faces_of(a))} {a}" for a in self.names)
