"""Typed errors. The CLI turns them into one clear message and an exit status."""

from __future__ import annotations


class PrintkitError(Exception):
    """Base class: a problem a user can fix, reported without a traceback."""

    exit_code = 1


class DataError(PrintkitError):
    """A data file (map, game record, state) is invalid; lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class StateError(PrintkitError):
    """A saved game state is missing, corrupt, locked or from a newer printkit."""


class RuleError(PrintkitError):
    """An action the rules do not allow (finish twice, undo at turn 0, ...)."""
