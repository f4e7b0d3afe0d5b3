"""The one JSON reader (printkit/loading/text.py): every limit of docs/input.md, just inside and just past it.

``parse_json`` reads a text held whole (game files, state files, a party request's
body); ``json_members`` reads a file a chunk at a time (a history export) by the
same rules, whatever the chunks' boundaries cut.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest

from printkit.errors import DataError
from printkit.loading import jsonstream, text
from printkit.loading.jsonstream import json_members
from printkit.loading.text import MAX_DEPTH, MAX_NUMBER, parse_json

BEYOND = f"is beyond ±{MAX_NUMBER} (numbers in printkit files are far smaller)"
DEEP = f"lists or tables nested more than {MAX_DEPTH} deep (printkit files nest a few levels)"


def nested(levels: int) -> str:
    """An object holding lists ``levels`` deep in all (the object counts as one)."""
    return '{"a": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"


def refused(doc: str) -> str:
    with pytest.raises(DataError) as caught:
        parse_json(doc, "f.json")
    assert len(caught.value.problems) == 1
    return caught.value.problems[0]


def test_nesting_32_deep_is_read_and_33_is_refused() -> None:
    assert parse_json(nested(MAX_DEPTH), "f.json") == {"a": json.loads("[" * 31 + "]" * 31)}
    assert refused(nested(MAX_DEPTH + 1)) == f"f.json: {DEEP}"
    assert parse_json('{"a": "' + "[" * 100 + '"}', "f.json") == {"a": "[" * 100}  # brackets in text nest nothing


def test_a_hundred_thousand_brackets_are_one_line_at_once() -> None:
    start = time.perf_counter()
    assert refused("[" * 100_000 + "]" * 100_000) == f"f.json: {DEEP}"
    assert refused('{"a": ' * 100_000 + "1" + "}" * 100_000) == f"f.json: {DEEP}"
    assert time.perf_counter() - start < 5  # generous: it takes milliseconds


@pytest.mark.parametrize("inside,past", [
    (str(MAX_NUMBER), str(MAX_NUMBER + 1)),
    (str(-MAX_NUMBER), str(-MAX_NUMBER - 1)),
    ("9.2e18", "9.3e18"),
    ("-9.2e18", "-9.3e18"),
])  # fmt: skip
def test_numbers_up_to_2_63_minus_1_are_read_and_past_it_refused(inside: str, past: str) -> None:
    assert parse_json(f'{{"n": {inside}}}', "f.json") == {"n": json.loads(inside)}
    assert refused(f'{{"n": {past}}}') == f"f.json: invalid JSON: the number {past} {BEYOND}"


@pytest.mark.parametrize("number", ["1e999", "-1e999", "9" * 5000, "1" + "0" * 30])
def test_huge_numbers_are_refused_without_a_traceback(number: str) -> None:
    assert refused(f'{{"n": {number}}}').startswith("f.json: invalid JSON: the number ")
    assert refused(f'{{"n": {number}}}').endswith(BEYOND)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(constant: str) -> None:
    assert refused(f'{{"n": [1, {constant}]}}') == (
        f"f.json: invalid JSON: {constant} is not a number printkit reads (use a plain number)")


def test_a_key_given_twice_is_refused_at_any_depth() -> None:
    assert refused('{"a": {"b": 1, "b": 2}}') == (
        "f.json: invalid JSON: the key 'b' is given twice in one object (keep one)")


def test_a_bom_starts_a_file_and_nowhere_else() -> None:
    assert parse_json(text.utf8_text(b'\xef\xbb\xbf{"a": 1}'), "f.json") == {"a": 1}
    assert refused('{"a": \ufeff1}') == "f.json: line 1, column 7: invalid JSON (Expecting value)"


def members(data: bytes, item_limit: int = 1 << 20) -> list[tuple[str, Any]]:
    """Every member of the streamed object, the list under "games" read whole."""
    return [(k, list(v) if k == "games" and not isinstance(v, list) else v)
            for k, v in json_members(io.BytesIO(data), "h.json", "games", item_limit)]


def stream_refused(data: bytes, item_limit: int = 1 << 20) -> str:
    with pytest.raises(DataError) as caught:
        members(data, item_limit)
    assert len(caught.value.problems) == 1
    return caught.value.problems[0]


DOC = {"format": "printkit-history", "version": 1, "note": {"b": [1, 2.5, None, True]},
       "games": [{"n": 123456789, "name": "Zoë 東京 🎲", "text": "a\n\"b\"\\[{"} for _ in range(3)] + [[], {}, 7]}


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64, 1 << 20])
def test_a_stream_reads_the_same_whatever_its_chunks_cut(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK", chunk)  # cuts numbers, escapes and four-byte characters in two
    for indent in (None, 1):
        data = b"\xef\xbb\xbf" + json.dumps(DOC, indent=indent, ensure_ascii=False).encode() + b"\n"
        assert members(data) == list(DOC.items())


def test_a_stream_keeps_every_rule_of_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK", 7)
    assert stream_refused(b'{"games": [1], "games": []}') == (
        "h.json: line 1, column 16: invalid JSON: the key 'games' is given twice in one object (keep one)")
    assert stream_refused(b'{"games": [{"a": 1, "a": 2}]}') == (
        "h.json: line 1, column 12: invalid JSON: the key 'a' is given twice in one object (keep one)")
    assert stream_refused(b'{"games": [NaN]}') == (
        "h.json: line 1, column 12: invalid JSON: NaN is not a number printkit reads (use a plain number)")
    assert stream_refused(f'{{"games": [{MAX_NUMBER + 1}]}}'.encode()) == (
        f"h.json: line 1, column 12: invalid JSON: the number {MAX_NUMBER + 1} {BEYOND}")
    assert members(f'{{"games": [{MAX_NUMBER}]}}'.encode()) == [("games", [MAX_NUMBER])]
    # an item sits 2 deep (the object, the list): 30 more levels are the most it may hold
    assert members(b'{"games": [' + b"[" * 30 + b"]" * 30 + b"]}")[0][1][0] == json.loads("[" * 30 + "]" * 30)
    assert stream_refused(b'{"games": [' + b"[" * 31 + b"]" * 31 + b"]}") == f"h.json: line 1, column 12: {DEEP}"
    assert stream_refused(b'{"games": [' + b"[" * 50_000 + b"]" * 50_000 + b"]}") == f"h.json: line 1, column 12: {DEEP}"
    assert stream_refused(b'{"games": [1, 2,]}') == "h.json: line 1, column 17: invalid JSON (Expecting value)"
    assert stream_refused(b'{"games": [1 2]}') == "h.json: line 1, column 14: invalid JSON (Expecting ',' delimiter)"
    assert stream_refused(b'{"games": [1]} []') == "h.json: line 1, column 16: invalid JSON (Extra data)"
    assert stream_refused(b'{"games": [1]') == "h.json: line 1, column 14: invalid JSON (Expecting ',' delimiter)"
    assert stream_refused(b"") == "h.json: the file is empty (expected a JSON object {...})"
    assert stream_refused(b"[1]") == "h.json: expected a JSON object {...} at the top, got a list [...]"
    assert stream_refused(b'{"games": ["\n\n\xff"]}') == "h.json: line 3: not UTF-8 text (save the file as UTF-8)"


def test_an_error_deep_in_a_stream_names_its_line_and_column(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK", 1000)
    games = [{"n": i, "text": "x" * 50} for i in range(500)]
    data = json.dumps({"games": games}, indent=1).encode().replace(b'"n": 400', b'"n": 400,,')
    line = data[: data.index(b",,")].count(b"\n") + 1  # as json.loads counts: the second comma
    assert stream_refused(data) == (
        f"h.json: line {line}, column 13: invalid JSON (Expecting property name enclosed in double quotes)")


def test_an_item_may_be_as_long_as_its_limit_and_no_longer() -> None:
    item = '"' + "a" * 98 + '"'  # 100 characters
    assert members(f'{{"games": [{item}]}}'.encode(), item_limit=100) == [("games", ["a" * 98])]
    assert stream_refused(f'{{"games": [{item}]}}'.encode(), item_limit=99) == (
        "h.json: line 1, column 12: a value is longer than 99 characters (printkit writes none that long)")
    endless = b'{"games": ["' + b"a" * 5000  # never closed: refused once past the limit, not read to the end
    assert stream_refused(endless, item_limit=99) == (
        "h.json: line 1, column 12: a value is longer than 99 characters (printkit writes none that long)")
