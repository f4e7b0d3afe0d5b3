"""Words for messages and reasons: counted nouns and lists of names."""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 city``, ``2 cities``: ``many`` is the plural (default ``word`` + ``s``)."""
    return f"{n} {word}" if n == 1 else f"{n} {many if many is not None else word + 's'}"


def join_names(names: Sequence[str]) -> str:
    """Names as prose: ``Ann``, ``Ann and Bo``, ``Ann, Bo and Cy``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
