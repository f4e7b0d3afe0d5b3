"""Rooms a person reads in one sitting: module and function sizes, one-line docstrings on public functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "printkit"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function and method in a module."""
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_is_at_most_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_functions_are_at_most_60_lines(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [f"{f.name} (line {f.lineno}): {f.end_lineno - f.lineno + 1} lines" for f in functions(tree)
            if f.end_lineno is not None and f.end_lineno - f.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path.relative_to(PACKAGE)}: {long}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_public_functions_have_a_docstring(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    top += [m for c in tree.body if isinstance(c, ast.ClassDef) and not c.name.startswith("_")
            for m in c.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
    missing = [f"{f.name} (line {f.lineno})" for f in top
               if not f.name.startswith("_") and not ast.get_docstring(f)
               and not any(isinstance(d, ast.Name) and d.id == "overload" for d in f.decorator_list)]
    assert not missing, f"{path.relative_to(PACKAGE)}: public functions without a docstring: {missing}"


def test_print_and_exit_only_in_the_cli() -> None:
    offenders = []
    for path in MODULES:
        if path.relative_to(PACKAGE).parts[0] == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name in ("print", "sys.exit", "exit", "quit"):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}")
    assert not offenders
