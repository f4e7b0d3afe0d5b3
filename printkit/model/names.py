"""The one rule for player names, everywhere a name comes in (options, game files, state files).

A name is data printed on sheets and terminals: no control characters (escape
sequences, NUL, newlines), no lone surrogates, not blank, at most
:data:`MAX_NAME` characters. Names in one game differ ignoring case.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence

from printkit.errors import SHOWN, shorten, shown

__all__ = ["SHOWN", "duplicate_problem", "escaped", "name_problem", "plain", "printable", "shorten", "shown", "typed", "ID_PATTERN", "is_id"]

MAX_NAME = 40
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""An id (a map's, a city's, a card's): lowercase ASCII words joined by hyphens, never a path."""


def is_id(text: object) -> bool:
    """Whether ``text`` is an id (see :data:`ID_PATTERN`)."""
    return isinstance(text, str) and len(text) <= MAX_ID and ID_PATTERN.match(text) is not None


MAX_ID = 100  # characters of an id


def _unprintable(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") and ch != "\u200d"


def _escape(ch: str) -> str:
    """One character as a Python literal escapes it: ``\\x1b``, ``\\u202e``, ``\\U000e0001``."""
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


_SUSPECT = re.compile(r"[^\n\t\x20-\x7e]")  # all but newline, tab and printable ASCII: looked at one by one
_NOT_ASCII = re.compile(r"[^\x20-\x7e]")  # all but printable ASCII: looked at one by one
_UNDECODED = re.compile("[\udc80-\udcff]")  # the lone surrogates Python reads undecodable bytes as


def escaped(text: str) -> str:
    """``text`` safe for a terminal: control, format and lone surrogate characters as ``\\x1b``, ``\\u202e``.

    Newlines and tabs stay, as does every printable character (``Zoë``, ``東京``);
    a carriage return, an escape sequence's ESC or a bidi override does not. A
    file name the locale could not decode is shown as UTF-8 where it is (:func:`typed`).
    """
    if not isinstance(text, str):
        raise TypeError(f"expected text, got {type(text).__name__}")
    return _SUSPECT.sub(lambda m: _escape(m[0]) if _unprintable(m[0]) else m[0], typed(text))


def typed(text: str) -> str:
    """``text`` as typed on a terminal: bytes its locale could not decode (``LC_ALL=C``) read as UTF-8, if they are.

    Python hands such bytes over as lone surrogates (``'Zo\\udcc3\\udcab'``);
    anything else, or bytes that are not UTF-8 either, is returned as it is.
    """
    if not _UNDECODED.search(text):
        return text
    try:
        return os.fsencode(text).decode("utf-8")
    except (UnicodeError, ValueError):
        return text


def plain(text: object) -> bool:
    """Whether ``text`` is a string without control, format or lone surrogate characters."""
    return isinstance(text, str) and not any(_unprintable(m[0]) for m in _NOT_ASCII.finditer(text))


def printable(text: str, limit: int = 200) -> str:
    """``text`` on one line, safe for a terminal: every unprintable character escaped (``\\x1b``, ``\\n``
    as ``\\x0a``) as :func:`escaped` writes it, shortened to ``limit``."""
    text = typed(text)
    if any(map(_unprintable, text)):
        text = "".join(_escape(ch) if _unprintable(ch) else ch for ch in text)
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
