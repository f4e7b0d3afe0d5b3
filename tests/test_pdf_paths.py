"""The PDF backend's own path writer and colour table give exactly what reportlab's slower calls give."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.lib.colors import toColor
from reportlab.pdfgen.pathobject import PDFPathObject

from printkit.backends import pdf
from printkit.layout.primitives import PathCommand


def _reportlab(commands: list[PathCommand], height: float | None) -> str:
    fy = (lambda v: height - v) if height is not None else (lambda v: v)
    p = PDFPathObject()
    for cmd in commands:
        n = [float(v) for v in cmd[1:]]
        if cmd[0] == "M":
            p.moveTo(n[0], fy(n[1]))
        elif cmd[0] == "L":
            p.lineTo(n[0], fy(n[1]))
        elif cmd[0] == "C":
            p.curveTo(n[0], fy(n[1]), n[2], fy(n[3]), n[4], fy(n[5]))
        else:
            p.close()
    return p.getCode()


@pytest.mark.parametrize("height", [None, 595.27, 1.0])
def test_paths_are_written_as_reportlab_writes_them(height: float | None) -> None:
    rng = random.Random(7)
    for _ in range(50):
        commands: list[PathCommand] = [("M", rng.uniform(-5, 900), rng.randint(0, 600))]
        for _ in range(rng.randint(0, 30)):
            op = rng.choice("LLCZM")
            count = {"M": 2, "L": 2, "C": 6, "Z": 0}[op]
            commands.append((op, *(round(rng.uniform(-1, 1000), rng.choice((0, 2, 5, 9))) for _ in range(count))))
        assert pdf._path_code(commands, height) == _reportlab(commands, height)
    assert pdf._path_code([], height) == ""


@pytest.mark.parametrize(("commands", "message"), [
    ([("L", 1.0, 2.0)], "a path must start with a move (M)"),
    ([("M", 1.0, 2.0), ("Q", 1.0, 2.0)], "unsupported path command 'Q'"),
    ([("M", 1.0, 2.0), ("L", 1.0)], "a path command with the wrong count of numbers"),
])  # fmt: skip
def test_a_bad_path_is_refused(commands: list[PathCommand], message: str) -> None:
    with pytest.raises(ValueError) as exc:
        pdf._path_code(commands, None)
    assert str(exc.value) == message


@pytest.mark.parametrize("value", ["#7a7a7a", "#000000", "#FFFFFF", "#1a2B3c", "red", "(0.1, 0.2, 0.3)"])
def test_each_colour_is_converted_once_and_as_reportlab_converts_it(value: str) -> None:
    first = pdf._color(value)
    assert pdf._color(value) is first
    theirs = toColor(value)
    assert (type(first), first.red, first.green, first.blue, first.alpha) == (
        type(theirs), theirs.red, theirs.green, theirs.blue, theirs.alpha)


def _probe(code: str) -> str:
    """What ``code`` prints in a fresh interpreter that imported the PDF backend first."""
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-c", "import sys\nimport printkit.backends.pdf\n" + code],
                          env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def test_reportlabs_modules_are_its_own_after_the_pdf_backend_is_imported() -> None:
    # no stand-ins: every module of reportlab (and the PIL it imports) is the real one, loaded in full
    assert _probe("import importlib.util, types\n"
                  "mods = {n: m for n, m in sys.modules.items() if n.split('.')[0] in ('reportlab', 'PIL')}\n"
                  "print(sorted(n for n, m in mods.items() if type(m) is not types.ModuleType or m.__spec__ is None\n"
                  "             or isinstance(m.__spec__.loader, importlib.util.LazyLoader)))\n"
                  "print(all(n in mods for n in ('reportlab.lib.rltempfile', 'reportlab.lib.rl_safe_eval')))"
                  ) == "[]\nTrue"


def test_reportlabs_temp_file_helpers_work() -> None:
    assert _probe("from reportlab.lib.utils import get_rl_tempdir, get_rl_tempfile\n"
                  "import tempfile, os\nprint(get_rl_tempdir() == os.path.join(tempfile.gettempdir(), "
                  "'ReportLab_tmp%s' % os.getuid()), get_rl_tempfile('x.pdf').endswith('x.pdf'))") == "True True"


def test_reportlabs_safe_eval_works() -> None:
    assert _probe("from reportlab.lib.utils import rl_safe_eval, rl_extended_literal_eval\n"
                  "print(rl_safe_eval('1 + 2', g={}, l={}), rl_extended_literal_eval('[1, (2, 3)]'))"
                  ) == "3 [1, (2, 3)]"
