"""Typed errors. The CLI turns them into one clear message and an exit status."""

from __future__ import annotations

from collections.abc import Sequence

SHOWN = 60  # characters of a user's value echoed in a message


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to ``limit`` characters with ``...`` (for echoing user input in messages)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: object, limit: int = SHOWN) -> str:
    """A user's value as messages quote it: ``repr``, shortened, control characters escaped."""
    return shorten(repr(value), limit)


def did_you_mean(value: object, known: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` naming the id in ``known`` nearest to ``value``, or nothing."""
    import difflib

    if not isinstance(value, str) or len(value) > 100:
        return ""
    lowered = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(value.strip().casefold(), list(lowered), n=1, cutoff=0.6)
    return f" (did you mean {lowered[close[0]]!r}?)" if close else ""


class PrintkitError(Exception):
    """Base class: a problem a user can fix, reported without a traceback."""

    exit_code = 1


class DataError(PrintkitError):
    """A data file (map, game record, state) is invalid; lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class UnknownMapError(DataError):
    """A map name that is neither a bundled map id nor the path of a .toml file.

    The message is worded here once; the command line turns it into a usage
    error for the option or argument that named the map (exit status 2), a
    game file reports it as ``<file>: map: <message>`` (exit status 1).
    """

    def __init__(self, name: object, bundled: Sequence[str]) -> None:
        self.name = name
        self.bundled = tuple(bundled)
        self.message = self.describe(name, bundled)
        super().__init__([self.message])

    @staticmethod
    def describe(name: object, bundled: Sequence[str]) -> str:
        """``unknown map 'mars'; choose one of world, ..., or give the path of a .toml map file``."""
        what = "no map given" if name is None else f"unknown map {shown(name)}{did_you_mean(name, bundled)}"
        return f"{what}; choose one of {', '.join(bundled)}, or give the path of a .toml map file"


class UsageError(PrintkitError):
    """The command was asked for something it cannot do as asked (exit status 2)."""

    exit_code = 2


class StateError(PrintkitError):
    """A saved game state is missing, corrupt, locked or from a newer printkit."""


class RuleError(PrintkitError):
    """An action the rules do not allow (finish twice, undo at turn 0, ...)."""


class InputError(RuleError):
    """A value handed to the rules is not allowed.

    ``field`` names the value in the rules' terms (``bucket_cards``, ``players``);
    ``problem`` says what is wrong, with ``{got}`` where the value goes, so the
    command line can show the value as it was typed and name its own option.
    """

    def __init__(self, field: str, problem: str, got: object = None) -> None:
        self.field = field
        self.problem = problem
        self.got = got
        super().__init__(f"{field.replace('_', ' ')}: {self.detail}")

    def says(self, got: str) -> str:
        """The problem, showing the value as ``got``."""
        return self.problem.replace("{got}", got)

    @property
    def detail(self) -> str:
        """The problem with the value as the rules saw it (text quoted), without the field's name."""
        return self.says(repr(self.got) if isinstance(self.got, str) else str(self.got))


def corrupt_state(source: str, where: str, expected: str) -> StateError:
    """``<file>: state file is corrupt (<field>: expected <what>); it was left untouched``."""
    return StateError(f"{source}: state file is corrupt ({where}: expected {expected}); it was left untouched")


class PrintkitWarning(UserWarning):
    """Something the user should know that does not stop the command (the CLI prints ``Warning: ...``)."""
