"""Typed field readers for TOML tables that collect every problem at once.

A :class:`Reader` is bound to one source file; each ``get_*`` call returns the
value if it has the expected type, else records ``<file>: <path>: <message>``
in the shared :class:`Problems` list and returns ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from printkit.model.limits import LARGEST
from printkit.model.names import ID_PATTERN, duplicate_problem, name_problem, plain, printable, shorten, shown


class Problems:
    """Every problem found so far, as ``<file>: <path>: <message>`` lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, source: str, path: str, message: str) -> None:
        """Record one problem."""
        path = printable(path)
        self.lines.append(f"{source}: {path}: {message}" if path else f"{source}: {message}")

    def __len__(self) -> int:
        return len(self.lines)


def describe(value: object) -> str:
    """A short description of a TOML value for error messages."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"integer {shorten(str(value))}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {shown(value)}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


def player_name_problem(name: object, earlier: Sequence[str]) -> str | None:
    """What is wrong with a player's name read from a file, after the ``earlier`` names, or None."""
    if not isinstance(name, str):
        return f"expected the player's name, got {describe(name)}"
    return name_problem(name) or duplicate_problem([*earlier, name.strip()])


def slug(text: str) -> str:
    """A suggested id for a name: lowercase ASCII words joined by hyphens."""
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(re.findall(r"[a-z0-9]+", ascii_text.lower())) or "city"


class Reader:
    """Reads typed fields of one source file, recording problems."""

    def __init__(self, problems: Problems, source: str) -> None:
        self.problems = problems
        self.source = source

    def problem(self, path: str, message: str) -> None:
        """Record a problem at ``path`` in this reader's file."""
        self.problems.add(self.source, path, message)

    def keys(self, table: dict[str, Any], path: str, allowed: Iterable[str]) -> None:
        """Report every key of ``table`` not in ``allowed`` (typos are errors)."""
        allowed = list(allowed)
        for key in table:
            if key in allowed:
                continue
            import difflib  # here: only a misspelt key needs it

            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.75)
            hint = f"did you mean {close[0]!r}?" if close else f"expected one of: {', '.join(allowed)}"
            self.problem(join(path, key), f"unknown key ({hint})")

    def _get(self, table: dict[str, Any], key: str, path: str, what: str, required: bool) -> Any:
        if key not in table:
            if required:
                self.problem(join(path, key), f"missing (expected {what})")
            return None
        return table[key]

    def string(self, table: dict[str, Any], key: str, path: str, required: bool = True) -> str | None:
        """A non-blank string."""
        value = self._get(table, key, path, "a string", required)
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(join(path, key), f"expected a string, got {describe(value)}")
            return None
        if not value.strip():
            self.problem(join(path, key), "must not be empty")
            return None
        if not plain(value):
            bad = next(ch for ch in value if not plain(ch))
            self.problem(join(path, key), f"{shown(value)} contains the unprintable character U+{ord(bad):04X}; "
                         "text in printkit files is plain")
            return None
        return value

    def ident(self, table: dict[str, Any], key: str, path: str, required: bool = True) -> str | None:
        """An id: lowercase letters, digits and hyphens."""
        value = self.string(table, key, path, required)
        if value is not None and not ID_PATTERN.match(value):
            self.problem(
                join(path, key),
                f"{value!r} is not a valid id (use lowercase letters, digits and hyphens, e.g. {slug(value)!r})",
            )
            return None
        return value

    def integer(
        self, table: dict[str, Any], key: str, path: str, required: bool = True, minimum: int | None = None
    ) -> int | None:
        """A whole number, at least ``minimum`` if given."""
        value = self._get(table, key, path, "a whole number", required)
        if value is None:
            return None
        return self.check_int(value, join(path, key), minimum)

    def check_int(self, value: object, path: str, minimum: int | None = None, maximum: int = LARGEST) -> int | None:
        """``value`` if it is a whole number of at least ``minimum`` and at most ``maximum``."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"expected a whole number, got {describe(value)}")
            return None
        if minimum is not None and value < minimum:
            self.problem(path, f"must be at least {minimum}, got {shorten(str(value))}")
            return None
        if value > maximum:
            why = " (no count, mark or score in these games comes near it)" if maximum == LARGEST else ""
            self.problem(path, f"must be at most {maximum}{why}, got {shorten(str(value))}")
            return None
        return value

    def number(self, table: dict[str, Any], key: str, path: str, required: bool = True) -> float | None:
        """An integer or float."""
        value = self._get(table, key, path, "a number", required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.problem(join(path, key), f"expected a number, got {describe(value)}")
            return None
        return float(value)

    def boolean(self, table: dict[str, Any], key: str, path: str) -> bool | None:
        """An optional true/false."""
        value = self._get(table, key, path, "true or false", False)
        if value is None:
            return None
        if not isinstance(value, bool):
            self.problem(join(path, key), f"expected true or false, got {describe(value)}")
            return None
        return value

    def listing(self, table: dict[str, Any], key: str, path: str, what: str, required: bool = True) -> list[Any] | None:
        """A list (items unchecked)."""
        value = self._get(table, key, path, what, required)
        if value is None:
            return None
        if not isinstance(value, list):
            self.problem(join(path, key), f"expected {what}, got {describe(value)}")
            return None
        return value

    def ints(
        self, table: dict[str, Any], key: str, path: str, required: bool = True, minimum: int | None = None
    ) -> tuple[int, ...] | None:
        """A list of whole numbers."""
        items = self.listing(table, key, path, "a list of whole numbers", required)
        if items is None:
            return None
        out = [self.check_int(v, f"{join(path, key)}[{i}]", minimum) for i, v in enumerate(items)]
        return None if any(v is None for v in out) else tuple(v for v in out if v is not None)

    def numbers(self, table: dict[str, Any], key: str, path: str, count: int) -> tuple[float, ...] | None:
        """An optional list of exactly ``count`` numbers."""
        items = self.listing(table, key, path, f"a list of {count} numbers", False)
        if items is None:
            return None
        if len(items) != count or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in items):
            self.problem(join(path, key), f"expected a list of {count} numbers, got {items!r}")
            return None
        return tuple(float(v) for v in items)

    def idents(self, table: dict[str, Any], key: str, path: str, required: bool = True) -> tuple[str, ...] | None:
        """A list of ids, without repeats."""
        items = self.listing(table, key, path, "a list of ids", required)
        if items is None:
            return None
        out: list[str] = []
        ok = True
        for i, v in enumerate(items):
            if not isinstance(v, str):
                self.problem(f"{join(path, key)}[{i}]", f"expected an id string, got {describe(v)}")
                ok = False
            elif v in out:
                self.problem(f"{join(path, key)}[{i}]", f"{v!r} is listed twice")
                ok = False
            else:
                out.append(v)
        return tuple(out) if ok else None

    def player_name(self, row: dict[str, Any], path: str, earlier: list[str]) -> str | None:
        """A player's ``name`` by the one name rule, not given before (ignoring case); appended to ``earlier``."""
        value = self._get(row, "name", path, "the player's name", True)
        if value is None:
            return None
        problem = player_name_problem(value, earlier)
        if problem is not None:
            self.problem(join(path, "name"), problem)
        if problem is not None and duplicate_problem([*earlier, str(value).strip()]) is None:
            return None
        earlier.append(str(value).strip())
        return str(value).strip()

    def table(self, table: dict[str, Any], key: str, path: str, required: bool = True) -> dict[str, Any] | None:
        """A sub-table."""
        value = self._get(table, key, path, "a table", required)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.problem(join(path, key), f"expected a table, got {describe(value)}")
            return None
        return value

    def tables(
        self, table: dict[str, Any], key: str, path: str, required: bool = True
    ) -> list[tuple[str, dict[str, Any]]]:
        """A list of tables (``[[key]]``) as (path, table); non-tables are reported and skipped."""
        items = self.listing(table, key, path, f"a list of tables ([[{key}]])", required)
        if items is None:
            return []
        out: list[tuple[str, dict[str, Any]]] = []
        for i, v in enumerate(items):
            item_path = f"{join(path, key)}[{i}]"
            if isinstance(v, dict):
                out.append((item_path, v))
            else:
                self.problem(item_path, f"expected a table, got {describe(v)}")
        return out


def join(path: str, key: str) -> str:
    """``path.key``, or ``key`` at the top level."""
    return f"{path}.{key}" if path else key
