"""The one-way shape of the package, enforced over every ``import`` (function-level ones too).

data files -> loading -> model <- rules | layout -> sheets -> backends; present
(score text, host page) beside the backends; the registry wires games; the
CLI is the thin shell on top. A module may import its own layer and the
layers this table allows, nothing else of printkit. Each heavy third-party
library belongs to one module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "printkit"

BASE = {"printkit.__version__", "printkit.errors"}  # the root package only carries __version__
# layer -> the other layers it may import
ALLOWED: dict[str, set[str]] = {
    "printkit": set(),
    "printkit.errors": set(),
    "printkit.resources": set(),
    "printkit.files": set(),
    "printkit.cache": {"printkit.files"},
    "printkit.model": set(),
    "printkit.loading": {"printkit.model", "printkit.resources", "printkit.files", "printkit.cache"},
    "printkit.rules": {"printkit.model"},
    "printkit.layout": {"printkit.model", "printkit.resources"},
    "printkit.sheets": {"printkit.model", "printkit.layout"},
    "printkit.backends": {"printkit.layout.primitives", "printkit.layout.fonts", "printkit.files", "printkit.cache"},
    "printkit.present": {"printkit.model", "printkit.rules", "printkit.resources", "printkit.files"},
    "printkit.registry": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.layout",
                          "printkit.sheets", "printkit.backends", "printkit.present", "printkit.files",
                          "printkit.resources", "printkit.cache"},
    "printkit.scan": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.layout",
                      "printkit.sheets", "printkit.backends", "printkit.present", "printkit.files",
                      "printkit.resources", "printkit.registry"},
}
ALLOWED["printkit.cli"] = set(ALLOWED) - {"printkit.cli"}
# third-party library -> the only modules that may import it
OWNERS = {
    "reportlab": {"printkit.backends.pdf"},
    "svgwrite": {"printkit.backends.svg"},
    "fontTools": {"printkit.backends.svg"},
    "pypdfium2": {"printkit.backends.png"},
    "jinja2": {"printkit.present.host"},
    "cv2": {"printkit.scan"},
    "numpy": {"printkit.scan"},
    "zxingcpp": {"printkit.scan"},
    "pypdf": {"printkit.scan.form"},
}


def module_name(path: Path) -> str:
    """``printkit/rules/atw.py`` -> ``printkit.rules.atw``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    """The longest layer name that ``module`` is, or lies under."""
    matches = [layer for layer in ALLOWED if module == layer or module.startswith(layer + ".")]
    return max(matches, key=len)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in it, with the line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "printkit":  # each name: a submodule or an attribute of one
                found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def allowed(source: str, target: str) -> bool:
    """Whether module ``source`` may import printkit module ``target``."""
    if any(target == b or target.startswith(b + ".") for b in BASE):
        return True
    mine = layer_of(source)
    if target == mine or target.startswith(mine + "."):
        return True
    return any(target == other or target.startswith(other + ".") for other in ALLOWED[mine])


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    assert MODULES
    assert all(layer_of(module_name(p)) for p in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_follow_the_layers(path: Path) -> None:
    source = module_name(path)
    wrong = [f"line {n}: {target}" for n, target in imports(path)
             if target.split(".")[0] == "printkit" and not allowed(source, target)]
    assert not wrong, f"{source} ({layer_of(source)}) imports against the layers: {wrong}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_heavy_libraries_stay_in_their_module(path: Path) -> None:
    source = module_name(path)
    wrong = [f"line {n}: {target}" for n, target in imports(path)
             if (owners := OWNERS.get(target.split(".")[0])) is not None
             and not any(source == o or source.startswith(o + ".") for o in owners)]
    assert not wrong, f"{source} imports a library that belongs elsewhere: {wrong}"


def test_the_checker_catches_a_wrong_import(tmp_path: Path) -> None:
    assert not allowed("printkit.rules.atw", "printkit.loading.maps")
    assert not allowed("printkit.sheets.mapsheet", "printkit.rules.dice")
    assert not allowed("printkit.backends.pdf", "printkit.layout.common")
    assert not allowed("printkit.model.maps", "printkit.rules.report")
    assert allowed("printkit.sheets.mapsheet", "printkit.layout.geo")
    assert allowed("printkit.cli.score_cmd", "printkit.registry")
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from printkit.loading import maps\n    import reportlab.pdfgen\n")
    assert imports(bad) == [(2, "printkit.loading.maps"), (3, "reportlab.pdfgen")]
    assert not allowed("printkit.backends.pdf", "printkit.layout.common.Box")
    assert allowed("printkit.backends.pdf", "printkit.layout.fonts")
