"""Words for messages and reasons: counted nouns and lists of names."""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 city``, ``2 cities``: ``many`` is the plural (default ``word`` + ``s``)."""
    return f"{n} {word}" if n == 1 else f"{n} {many if many is not None else word + 's'}"


def join_names(names: Sequence[str]) -> str:
    """Names as prose: ``Ann``, ``Ann and Bo``, ``Ann, Bo and Cy``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def match_id(value: object, known: Sequence[str]) -> str | None:
    """The id in ``known`` that ``value`` names, in any case (``London`` is ``london``), or None."""
    if not isinstance(value, str):
        return None
    key = value.strip().casefold()
    return next((k for k in known if k.casefold() == key), None)

