"""Hostile PDF objects in a fillable sheet: a looping /Parent chain ends, a malformed pen annotation is that
page's error line, and the other pages of the call are still read and scored."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject, TextStringObject

from printkit import registry
from printkit.backends.pdf import render_pdf
from printkit.sheets.fillable import fillable

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus")


def _ink(inklist: object, bs: object = None) -> DictionaryObject:
    annot = DictionaryObject({NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Ink"),
                              NameObject("/Rect"): ArrayObject(NumberObject(v) for v in (100, 100, 200, 200)),
                              NameObject("/InkList"): inklist})
    if bs is not None:
        annot[NameObject("/BS")] = bs
    return annot


def _nums(*values: float) -> ArrayObject:
    return ArrayObject(FloatObject(v) for v in values)


def _loop_parents(writer: pypdf.PdfWriter, page: int) -> None:
    """Page ``page``'s sheet field gets a /Parent chain that loops through two nameless nodes."""
    annots = writer.pages[page]["/Annots"]
    sheet = next(a.get_object() for a in annots if str(a.get_object().get("/T")).endswith(".sheet"))
    for _ in range(2):  # two nameless objects (annotations of a kind the reader skips)
        writer.add_annotation(page, DictionaryObject({NameObject("/Subtype"): NameObject("/Text"),
                                                     NameObject("/Rect"): _nums(0, 0, 1, 1)}))
    first, second = writer.pages[page]["/Annots"][-2], writer.pages[page]["/Annots"][-1]
    sheet[NameObject("/Parent")] = first
    first.get_object()[NameObject("/Parent")] = second
    second.get_object()[NameObject("/Parent")] = first


@pytest.fixture(scope="module")
def hostile_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sheet = registry.build_sheet("map", "world", list(NAMES), "a4")
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(render_pdf(fillable(sheet).document))))
    bad = {
        1: _ink(ArrayObject([ArrayObject([TextStringObject("left"), TextStringObject("up")])])),  # strings
        # far off any page (pypdf reads at most 64 digits, so no inf or NaN comes from a file)
        2: _ink(ArrayObject([ArrayObject([FloatObject(100), NumberObject(10**39)])])),
        3: _ink(ArrayObject([ArrayObject([_nums(100, 100), _nums(120, 120)])])),  # nested arrays
        4: _ink(ArrayObject([_nums(100, 100, 120, 120)]), bs=NumberObject(3)),  # /BS not a dictionary
        5: _ink(TextStringObject("not a list")),
    }
    for page, annot in bad.items():
        writer.add_annotation(page, annot)
    _loop_parents(writer, 6)
    out = io.BytesIO()
    writer.write(out)
    path = tmp_path_factory.mktemp("objects") / "pack.pdf"
    path.write_bytes(out.getvalue())
    return path


def test_a_looping_parent_chain_ends_and_each_bad_annotation_is_its_pages_error(hostile_pack: Path) -> None:
    # a real process with a timeout: a walk that loops would never return
    done = subprocess.run([sys.executable, "-m", "printkit", "scan", str(hostile_pack), "--json"],
                          capture_output=True, text=True, timeout=120)
    errors = done.stderr.splitlines()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert [e.split(": ")[:3] for e in errors] == [["Error", str(hostile_pack), f"page {k}"] for k in (2, 3, 4, 5, 6)]
    annots = len(pypdf.PdfReader(hostile_pack).pages[1]["/Annots"])  # ours is the page's last annotation
    assert f"annotation {annots} (/Ink): 'left' is not a number (a damaged pen stroke)" in errors[0]
    assert "the coordinate 1e+39 lies off any page" in errors[1]
    assert "is not a number" in errors[2]
    assert "/BS" in errors[3]
    assert "expected an array of numbers" in errors[4]
    data = json.loads(done.stdout)
    assert [p["name"] for p in data["players"]] == ["Ann", "Gus"]  # page 7's looping chain ended and was read
