"""A JSON file too big to hold (a history export) read a piece at a time, by the rules of the one reader.

:func:`json_members` hands over the members of the file's top object as they
come, the list under one key item by item, each value parsed by
:func:`printkit.loading.text.decoder` (no key twice, no ``NaN``, no number past
2^63-1) and nested at most :data:`~printkit.loading.text.MAX_DEPTH` deep; its
errors are worded as :func:`~printkit.loading.text.parse_json` words them, with
the line and column in the whole file, wherever the pieces were cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, BinaryIO

from printkit.errors import DataError
from printkit.loading.text import (
    MAX_BYTES,
    MAX_DEPTH,
    JSONRefused,
    decoder,
    json_kind,
    nesting,
    os_reason,
    shown_key,
    too_deep,
)

CHUNK = 1 << 20
"""Bytes read at a time by :func:`json_members`."""
_SPACE = re.compile(r"[ \t\n\r]*")


class _Cursor:
    """A UTF-8 JSON text read from a binary stream a chunk at a time: what is read and not yet used, and where it is."""

    def __init__(self, stream: BinaryIO, source: str) -> None:
        import codecs

        self.stream, self.source = stream, source
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.text, self.pos, self.ended, self.started = "", 0, False, False
        self.line, self.column = 1, 1  # where self.text begins in the file

    def fill(self) -> bool:
        """Read the next chunk, dropping what is used; False at the end of the file."""
        if self.ended:
            return False
        try:
            raw = self.stream.read(CHUNK)
        except OSError as exc:
            raise DataError([f"{self.source}: {os_reason(exc)}"]) from None
        used = self.text[: self.pos]
        try:
            more = self.decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            line = self.line + self.text.count("\n") + raw[: max(exc.start, 0)].count(b"\n")
            raise DataError([f"{self.source}: line {line}: not UTF-8 text (save the file as UTF-8)"]) from None
        if not self.started and (more or not raw):
            self.started = True
            more = more.removeprefix("\ufeff")
        newlines = used.count("\n")
        self.line += newlines
        self.column = len(used) - used.rfind("\n") if newlines else self.column + len(used)
        self.text, self.pos, self.ended = self.text[self.pos:] + more, 0, not raw
        return True

    def peek(self) -> str:
        """The next character that is not white space ("" at the end of the file), not used up."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # matches anything
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.fill():
                return ""

    def where(self, pos: int) -> str:
        """``line L, column C`` of ``pos`` in :attr:`text`."""
        newline = self.text.rfind("\n", 0, pos)
        line = self.line + self.text.count("\n", 0, pos)
        return f"line {line}, column {pos - newline if newline >= 0 else self.column + pos}"

    def syntax(self, pos: int, reason: str) -> DataError:
        """A JSON syntax error at ``pos``, in the words of :func:`parse_json`."""
        return DataError([f"{self.source}: {self.where(pos)}: invalid JSON ({reason})"])

    def expect(self, token: str, reason: str) -> None:
        """Use up ``token`` (``:``, ``,``), else a syntax error saying ``reason``."""
        if self.peek() != token:
            raise self.syntax(self.pos, reason)
        self.pos += 1

    def value(self, limit: int, depth: int) -> Any:
        """The JSON value at the cursor, at most ``limit`` characters, nesting at most :data:`MAX_DEPTH` counted from
        ``depth``; each problem worded as :func:`parse_json` words it."""
        import json

        if self.peek() == "":
            raise self.syntax(self.pos, "Expecting value")
        while True:
            try:
                value, end = decoder().raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                if len(self.text) - self.pos <= limit and self.fill():
                    continue  # perhaps cut off at the end of the chunk read so far: read on and try again
                if len(self.text) - self.pos > limit and (exc.pos - self.pos > limit or
                                                          exc.msg.startswith("Unterminated string")):
                    raise self.too_long(limit) from None  # what is wrong lies past the limit
                raise self.syntax(exc.pos, exc.msg) from None
            except JSONRefused as exc:
                raise DataError([f"{self.source}: {self.where(self.pos)}: invalid JSON: {exc}"]) from None
            except RecursionError:
                raise DataError([f"{self.source}: {self.where(self.pos)}: {too_deep()}"]) from None
            if end == len(self.text) and self.fill():
                continue  # a number may go on in the next chunk: read it again whole
            break
        if end - self.pos > limit:
            raise self.too_long(limit)
        opened = self.text.count("[", self.pos, end) + self.text.count("{", self.pos, end)
        if depth + opened > MAX_DEPTH and depth + nesting(self.text, self.pos, end) > MAX_DEPTH:
            raise DataError([f"{self.source}: {self.where(self.pos)}: {too_deep()}"])
        self.pos = end
        return value

    def too_long(self, limit: int) -> DataError:
        """A value longer than ``limit`` characters."""
        return DataError([f"{self.source}: {self.where(self.pos)}: a value is longer than {limit:,} characters "
                          "(printkit writes none that long)"])

    def items(self, limit: int) -> Iterator[Any]:
        """The items of the list at the cursor (inside the top object), read one at a time."""
        self.pos += 1  # "["
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield self.value(limit, 2)
            if self.peek() == "]":
                self.pos += 1
                return
            self.expect(",", "Expecting ',' delimiter")


def json_members(stream: BinaryIO, source: str, streamed: str, item_limit: int,
                 limit: int = MAX_BYTES) -> Iterator[tuple[str, Any]]:
    """The members of the JSON object in ``stream``, in the file's order, read a chunk at a time by the rules of
    :func:`parse_json`; the list under the key ``streamed`` comes as an iterator of its items (each at most
    ``item_limit`` characters, read as they are used: use them before the next member), every other value whole
    (at most ``limit``)."""
    cursor = _Cursor(stream, source)
    first = cursor.peek()
    if first == "":
        raise DataError([f"{source}: the file is empty (expected a JSON object {{...}})"])
    if first != "{":
        got = cursor.value(limit, 0)
        raise DataError([f"{source}: expected a JSON object {{...}} at the top, got {json_kind(got)}"])
    cursor.pos += 1
    seen: set[str] = set()
    while cursor.peek() != "}":
        if seen:
            cursor.expect(",", "Expecting ',' delimiter")
        if cursor.peek() != '"':
            raise cursor.syntax(cursor.pos, "Expecting property name enclosed in double quotes")
        at = cursor.where(cursor.pos)
        key = cursor.value(limit, 1)
        if key in seen:
            raise DataError([f"{source}: {at}: invalid JSON: the key {shown_key(key)} is given twice in one object "
                             "(keep one)"])
        seen.add(key)
        cursor.expect(":", "Expecting ':' delimiter")
        if key == streamed and cursor.peek() == "[":
            items = cursor.items(item_limit)
            yield key, items
            for _ in items:  # what the caller left unread, still checked
                pass
        else:
            yield key, cursor.value(limit, 1)
    cursor.pos += 1
    if cursor.peek() != "":
        raise cursor.syntax(cursor.pos, "Extra data")
