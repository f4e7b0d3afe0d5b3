"""The one-way shape of the package, enforced over every import (function-level ones too).

data files -> loading -> model <- rules | layout -> sheets -> backends; present
(score text, host page) beside the backends; the registry wires games; scan
reads filled sheets back; the CLI is the thin shell on top. A module may import
its own layer and the layers this table allows, nothing else of printkit; every
module must be in a layer of the table (docs/architecture.md has the same one).
Relative imports are resolved and checked like absolute ones. Only the registry
imports by name (``importlib.import_module``), and the names it imports are
checked too. Each heavy third-party library belongs to one module.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "printkit"

TOP = "printkit"  # the root package: its own layer, this exact module only (not everything under it)
BASE = {"printkit.__version__", "printkit.errors"}  # every module may import these
# layer -> the other layers it may import; a key covers its module and, but for TOP, the modules under it
ALLOWED: dict[str, set[str]] = {
    TOP: set(),
    "printkit.errors": set(),
    "printkit.resources": set(),
    "printkit.files": set(),
    "printkit.cache": {"printkit.files", "printkit.plaindata"},
    "printkit.plaindata": {"printkit.files", "printkit.cache"},
    "printkit.model": set(),
    "printkit.loading": {"printkit.model", "printkit.resources", "printkit.files", "printkit.cache"},
    "printkit.rules": {"printkit.model"},
    "printkit.layout": {"printkit.model", "printkit.resources"},
    "printkit.sheets": {"printkit.model", "printkit.layout"},
    "printkit.backends": {"printkit.layout.primitives", "printkit.layout.fonts", "printkit.files", "printkit.cache"},
    "printkit.present": {"printkit.model", "printkit.rules", "printkit.resources", "printkit.files"},
    "printkit.registry": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.layout",
                          "printkit.sheets", "printkit.backends", "printkit.present", "printkit.files",
                          "printkit.resources", "printkit.cache", "printkit.plaindata"},
    "printkit.render": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.layout",
                        "printkit.sheets", "printkit.backends", "printkit.present", "printkit.files",
                        "printkit.resources", "printkit.cache", "printkit.plaindata",
                        "printkit.registry"},  # the registry's row
    "printkit.scan": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.layout",
                      "printkit.sheets", "printkit.backends", "printkit.present", "printkit.files",
                      "printkit.resources", "printkit.cache", "printkit.registry"},
    "printkit.history": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.files", "printkit.cache",
                         "printkit.registry"},
    "printkit.party": {"printkit.model", "printkit.loading", "printkit.rules", "printkit.files",
                       "printkit.resources", "printkit.present", "printkit.registry", "printkit.scan",
                       "printkit.history"},
}
SHELL = {"printkit.cli", "printkit.__main__"}  # the command line and ``python -m printkit``: may import everything
for _shell in SHELL:
    ALLOWED[_shell] = (set(ALLOWED) | SHELL) - {_shell}
# third-party library -> the only modules that may import it
OWNERS = {
    "reportlab": {"printkit.backends.pdf"},
    "svgwrite": {"printkit.backends.svg"},
    "fontTools": {"printkit.backends.svg", "printkit.backends.glyphs"},
    "pypdfium2": {"printkit.backends.png"},
    "jinja2": {"printkit.present.host", "printkit.party.pages"},
    "starlette": {"printkit.party"},
    "uvicorn": {"printkit.party.serve"},
    "cv2": {"printkit.scan"},
    "numpy": {"printkit.scan"},
    "zxingcpp": {"printkit.scan"},
    "pypdf": {"printkit.scan.form"},
    "sqlite3": {"printkit.history"},
}
REGISTRY = "printkit.registry"  # the one module that imports by name
NAMED_ONLY: dict[str, re.Pattern[str]] = {REGISTRY: re.compile(r"printkit\.cli\.\w+_cmd")}
"""Modules a module may reach by a "module:attribute" name only, never by an import statement: the registry
names the command modules of the companions each game brings (the CLI lists them from it); it imports no CLI."""
BY_NAME = {"importlib.import_module", "importlib.__import__", "__import__", "builtins.__import__"}
LOOKS_UP = {"importlib.util.find_spec", "importlib.metadata.version"}  # ask whether a module is installed, or which
# version of a distribution is: import nothing
ENTRY = re.compile(r"(printkit(?:\.\w+)+):\w+")  # a registry entry's "module:attribute"


class Found(NamedTuple):
    """One module a file imports (or, for a name, a module and an attribute of it)."""

    line: int
    target: str


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """``printkit/rules/atw.py`` -> ``printkit.rules.atw``."""
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def covers(key: str, module: str) -> bool:
    """Whether table entry ``key`` is ``module`` or, for a package other than the root, holds it."""
    return module == key or (key != TOP and module.startswith(key + "."))


def layer_of(module: str) -> str | None:
    """The longest layer that is ``module`` or holds it; None for a module of no layer."""
    matches = [layer for layer in ALLOWED if covers(layer, module)]
    return max(matches, key=len) if matches else None


def absolute(source: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module that ``from <level dots><name> import ...`` names inside ``source``."""
    package = source.split(".") if is_package else source.split(".")[:-1]
    if level > len(package):
        raise ValueError(f"{source}: a relative import {'.' * level}{name or ''} beyond the top-level package")
    base = package[: len(package) - level + 1]
    return ".".join(base + ([name] if name else []))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(path: Path, package: Path = PACKAGE) -> list[Found]:
    """Every module ``path`` imports with an import statement, anywhere in it, relative ones made absolute."""
    source = module_name(path, package)
    is_package = path.name == "__init__.py"
    found: list[Found] = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [Found(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = absolute(source, is_package, node.level, node.module) if node.level else node.module
            assert module is not None
            if module.split(".")[0] == "printkit":  # each name: a submodule or an attribute of one
                found += [Found(node.lineno, module if a.name == "*" else f"{module}.{a.name}") for a in node.names]
            else:
                found.append(Found(node.lineno, module))
    return found


def _bindings(tree: ast.Module) -> dict[str, str]:
    """Local name -> the dotted name it stands for, for the import machinery (importlib, builtins)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in ("importlib", "builtins"):
                    bound[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in ("importlib", "builtins"):
                bound.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    return bound


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (inner := _dotted(node.value)) is not None:
        return f"{inner}.{node.attr}"
    return None


def machinery(path: Path) -> list[tuple[int, str, ast.Call | None]]:
    """Each use of the import machinery in ``path``: line, the qualified name, and the call if it is called."""
    tree = _tree(path)
    bound = _bindings(tree)
    calls = {id(n.func): n for n in ast.walk(tree) if isinstance(n, ast.Call)}
    inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}  # not a chain's outer end
    uses = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Name, ast.Attribute)) or id(node) in inner:
            continue
        dotted = _dotted(node)
        if dotted is None:
            continue
        head, _, rest = dotted.partition(".")
        qualified = ".".join(filter(None, [bound[head], rest])) if head in bound else dotted
        if qualified.split(".")[0] != "importlib" and qualified not in BY_NAME:
            continue  # builtins.open, or a name of the module's own
        uses.append((node.lineno, qualified, calls.get(id(node))))
    return uses


def string_imports(path: Path, package: Path = PACKAGE) -> tuple[list[Found], list[str]]:
    """Modules ``path`` imports by a constant name, and every use of the import machinery this layout forbids.

    ``importlib.util.find_spec`` and ``importlib.metadata.version`` only look; the registry alone imports by name,
    any name; elsewhere every other use of importlib (``import_module``, ``LazyLoader``, ``module_from_spec``...)
    or ``__import__`` is a problem. In the registry a "printkit.module:attribute" entry string counts as importing its module.
    """
    source = module_name(path, package)
    found: list[Found] = []
    problems: list[str] = []
    for line, qualified, call in machinery(path):
        if qualified in LOOKS_UP:
            continue
        name = call.args[0] if call is not None and qualified in BY_NAME and call.args else None
        constant = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
        if constant is not None:
            found.append(Found(line, constant))
        if source != REGISTRY or qualified not in BY_NAME or constant is not None and constant.startswith("."):
            shown = f"{qualified}({constant!r})" if constant is not None else qualified
            problems.append(f"line {line}: {shown}")
    if source == REGISTRY:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (m := ENTRY.fullmatch(node.value)):
                found.append(Found(node.lineno, m.group(1)))
    return found, problems


def allowed(source: str, target: str) -> bool:
    """Whether module ``source`` may import printkit module ``target``."""
    if any(covers(b, target) for b in BASE):
        return True
    mine = layer_of(source)
    if mine is None:
        return False
    return covers(mine, target) or any(covers(other, target) for other in ALLOWED[mine])


def layer_problems(path: Path, package: Path = PACKAGE) -> list[str]:
    """Each import of printkit (statement, relative or by name) that goes against the layers."""
    source = module_name(path, package)
    if layer_of(source) is None:
        return [f"{source} is in no layer: add it to ALLOWED here and to the table in docs/architecture.md"]
    only = NAMED_ONLY.get(source)
    named = [(n, t) for n, t in string_imports(path, package)[0] if only is None or not only.fullmatch(t)]
    return [f"line {n}: {target}" for n, target in imports(path, package) + named
            if target.split(".")[0] == "printkit" and not allowed(source, target)]


def owner_problems(path: Path, package: Path = PACKAGE) -> list[str]:
    """Each import (statement or by name) of a heavy library outside the module it belongs to."""
    source = module_name(path, package)
    targets = imports(path, package) + string_imports(path, package)[0]
    return [f"line {n}: {target}" for n, target in targets
            if (owners := OWNERS.get(target.split(".")[0])) is not None
            and not any(covers(o, source) for o in owners)]


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    assert len(MODULES) > 50
    lost = [module_name(p) for p in MODULES if layer_of(module_name(p)) is None]
    assert not lost, f"modules in no layer (add them to ALLOWED and docs/architecture.md): {lost}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_follow_the_layers(path: Path) -> None:
    source = module_name(path)
    wrong = layer_problems(path)
    assert not wrong, f"{source} ({layer_of(source)}) imports against the layers: {wrong}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_heavy_libraries_stay_in_their_module(path: Path) -> None:
    wrong = owner_problems(path)
    assert not wrong, f"{module_name(path)} imports a library that belongs elsewhere: {wrong}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_only_the_registry_imports_by_name(path: Path) -> None:
    wrong = string_imports(path)[1]
    assert not wrong, (f"{module_name(path)} uses the import machinery (only {REGISTRY} imports by name; "
                       f"elsewhere write an import statement, in a function for a lazy one): {wrong}")


def _module(tmp_path: Path, relative: str, text: str) -> tuple[Path, Path]:
    """A module written at ``printkit/<relative>`` under tmp_path, and that fake package's folder."""
    package = tmp_path / "printkit"
    path = package / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path, package


def test_the_checker_catches_a_wrong_import(tmp_path: Path) -> None:
    assert not allowed("printkit.rules.atw", "printkit.loading.maps")
    assert not allowed("printkit.sheets.mapsheet", "printkit.rules.dice")
    assert not allowed("printkit.backends.pdf", "printkit.layout.common")
    assert not allowed("printkit.model.maps", "printkit.rules.report")
    assert not allowed("printkit.scan.read", "printkit.cli.common")
    assert allowed("printkit.sheets.mapsheet", "printkit.layout.geo")
    assert allowed("printkit.cli.score_cmd", "printkit.registry")
    assert allowed("printkit.__main__", "printkit.cli.main")
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from printkit.loading import maps\n    import reportlab.pdfgen\n")
    assert imports(bad, tmp_path) == [(2, "printkit.loading.maps"), (3, "reportlab.pdfgen")]
    assert not allowed("printkit.backends.pdf", "printkit.layout.common.Box")
    assert allowed("printkit.backends.pdf", "printkit.layout.fonts")


def test_a_relative_import_is_made_absolute_and_checked(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "rules/bad.py",
                            "from ..loading import maps\nfrom . import dice\nfrom .atw import score_record\n")
    assert imports(path, package) == [(1, "printkit.loading.maps"), (2, "printkit.rules.dice"),
                                      (3, "printkit.rules.atw.score_record")]
    assert layer_problems(path, package) == ["line 1: printkit.loading.maps"]
    init, _ = _module(tmp_path, "rules/__init__.py", "from . import atw\nfrom .. import registry\n")
    assert imports(init, package) == [(1, "printkit.rules.atw"), (2, "printkit.registry")]
    assert layer_problems(init, package) == ["line 2: printkit.registry"]
    beyond, _ = _module(tmp_path, "rules/far.py", "from ... import elsewhere\n")
    with pytest.raises(ValueError, match="beyond the top-level package"):
        imports(beyond, package)


def test_a_module_of_no_layer_fails_and_the_root_is_no_catch_all(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "newthing.py", "import printkit.cli\n")
    assert layer_of("printkit.newthing") is None
    assert layer_problems(path, package) == [
        "printkit.newthing is in no layer: add it to ALLOWED here and to the table in docs/architecture.md"]
    root, _ = _module(tmp_path, "__init__.py", ("from printkit import __version__\n"
                                                "from printkit.errors import DataError\nfrom printkit.cli import main\n"))
    assert layer_problems(root, package) == ["line 3: printkit.cli.main"]


def test_a_string_import_outside_the_registry_fails(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "rules/bad.py", (
        "import importlib\nimport importlib.util\nfrom importlib import import_module as load\n\n"
        "def f(name):\n"
        "    importlib.import_module('printkit.loading.maps')\n"
        "    load(name)\n"
        "    importlib.util.module_from_spec(importlib.util.find_spec(name))\n"
        "    return getattr(importlib, name)\n"))
    found, problems = string_imports(path, package)
    assert found == [(6, "printkit.loading.maps")]
    assert sorted(problems) == ["line 6: importlib.import_module('printkit.loading.maps')",
                                "line 7: importlib.import_module", "line 8: importlib.util.module_from_spec",
                                "line 9: importlib"]
    assert layer_problems(path, package) == ["line 6: printkit.loading.maps"]
    looks, _ = _module(tmp_path, "cli/scan_cmd.py", "import importlib.util\nimportlib.util.find_spec('cv2')\n")
    assert string_imports(looks, package) == ([], [])


def test_dunder_import_of_a_heavy_library_fails_twice(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "sheets/bad.py", "def f():\n    return __import__('reportlab')\n")
    assert string_imports(path, package) == ([(2, "reportlab")], ["line 2: __import__('reportlab')"])
    assert owner_problems(path, package) == ["line 2: reportlab"]


def test_the_registry_names_commands_but_does_not_import_the_cli(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "registry.py", (
        "from printkit.cli import turns_cmd\n"
        "COMMAND = 'printkit.cli.turns_cmd:turns'\n"
        "OTHER = 'printkit.cli.group:cli'\n"
    ))
    assert layer_problems(path, package) == ["line 1: printkit.cli.turns_cmd", "line 3: printkit.cli.group"]


def test_the_registry_imports_by_name_within_the_layers(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "registry.py", (
        "import importlib\n"
        "importlib.import_module('reportlab.pdfgen')\n"
        "importlib.import_module(NAME)\n"
        "ENTRY = ('printkit.cli.group:cli', 'printkit.rules.atw:score_record', 'not:an entry')\n"
        "importlib.import_module('.cli', 'printkit')\n"))
    found, problems = string_imports(path, package)
    assert problems == ["line 5: importlib.import_module('.cli')"]  # by name, but only an absolute one
    assert owner_problems(path, package) == ["line 2: reportlab.pdfgen"]
    assert layer_problems(path, package) == ["line 4: printkit.cli.group"]


def test_a_relative_import_is_not_the_library_of_the_same_name(tmp_path: Path) -> None:
    path, package = _module(tmp_path, "sheets/grid.py", "from .numpy import grid\nfrom . import cv2\n")
    assert imports(path, package) == [(1, "printkit.sheets.numpy.grid"), (2, "printkit.sheets.cv2")]
    assert owner_problems(path, package) == []
    scan, _ = _module(tmp_path, "sheets/scan.py", "from ..scan import read\n")
    assert layer_problems(scan, package) == ["line 1: printkit.scan.read"]


def _doc_rows() -> list[tuple[set[str], str]]:
    """The layer table of docs/architecture.md: each row's modules and its "may import" cell."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    lines = text.split("\n| layer | package | may import", 1)[1].splitlines()[2:]
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        _, package, may = (cell.strip() for cell in line.strip("|").split(" | "))
        names = re.findall(r"`([\w/.]+)`", package.split(" — ")[0])
        modules = {TOP if n == "__init__.py" else f"{TOP}.{n.removesuffix('/').removesuffix('.py')}" for n in names}
        rows.append((modules, may))
    return rows


def test_the_doc_has_the_same_layers() -> None:
    rows = _doc_rows()
    everything = set().union(*(modules for modules, _ in rows))
    assert everything == set(ALLOWED)
    besides = BASE | {TOP}  # what every module may import anyway, and the root, which only carries __version__
    above: set[str] = set()
    for modules, may in rows:
        if may == "nothing":
            said: set[str] = set()
        elif may == "everything":
            said = everything
        elif may == "all of the above":
            said = above
        else:
            said = {f"{TOP}.{word.strip('`')}" for word in may.split(", ")}
        for module in modules:
            assert ALLOWED[module] - besides - modules == said - besides - modules, module
        above |= modules
