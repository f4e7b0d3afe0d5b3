"""The one rule for player names, everywhere a name comes in (options, game files, state files).

A name is data printed on sheets and terminals: no control characters (escape
sequences, NUL, newlines), no lone surrogates, not blank, at most
:data:`MAX_NAME` characters. Names in one game differ ignoring case.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from printkit.errors import SHOWN, shorten, shown

__all__ = ["SHOWN", "duplicate_problem", "name_problem", "plain", "printable", "shorten", "shown"]

MAX_NAME = 40


def _unprintable(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") and ch != "\u200d"


def plain(text: object) -> bool:
    """Whether ``text`` is a string without control, format or lone surrogate characters."""
    return isinstance(text, str) and not any(map(_unprintable, text))


def printable(text: str, limit: int = 200) -> str:
    """``text`` safe for a terminal: unprintable characters as ``\\uXXXX``, shortened to ``limit``."""
    if any(map(_unprintable, text)):
        text = "".join(f"\\u{ord(ch):04x}" if _unprintable(ch) else ch for ch in text)
    return shorten(text, limit)


def name_problem(name: str) -> str | None:
    """What is wrong with a player name, or None: the one wording every input uses."""
    if not name.strip():
        return "a player name cannot be blank"
    bad = next(filter(_unprintable, name), None)
    if bad is not None:
        return (f"player name {shown(name)} contains the unprintable character U+{ord(bad):04X}; "
                "names are plain text")
    if len(name) > MAX_NAME:
        return f"player name {shown(name)} is longer than {MAX_NAME} characters"
    return None


def duplicate_problem(names: Sequence[str]) -> str | None:
    """The first name given twice (ignoring case), as a message, or None."""
    seen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in seen:
            return f"player name {shown(name)} is given twice (names are compared ignoring case)"
        seen.add(key)
    return None
