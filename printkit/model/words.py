"""Words for messages and reasons: counted nouns and lists of names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 city``, ``2 cities``: ``many`` is the plural (default ``word`` + ``s``)."""
    return f"{n} {word}" if n == 1 else f"{n} {many if many is not None else word + 's'}"


def join_names(names: Sequence[str]) -> str:
    """Names as prose: ``Ann``, ``Ann and Bo``, ``Ann, Bo and Cy``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def match_id(value: object, known: Sequence[str]) -> str | None:
    """The id in ``known`` that ``value`` names, in any case (``London`` is ``london``), or None."""
    return match_in(value, id_index(known))


def id_index(known: Sequence[str]) -> dict[str, str]:
    """Each id of ``known`` by its case-folded form (the first of ids that fold alike): what :func:`match_in` looks in."""
    index: dict[str, str] = {}
    for k in known:
        index.setdefault(k.casefold(), k)
    return index


def match_in(value: object, index: Mapping[str, str]) -> str | None:
    """The id ``value`` names in an :func:`id_index`, in any case and with spaces round it, or None."""
    return index.get(value.strip().casefold()) if isinstance(value, str) else None

