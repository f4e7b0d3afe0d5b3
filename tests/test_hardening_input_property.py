"""Issue 11: random bytes and random nested TOML/JSON fed to every command that reads a file.

Each run must end with exit status 1 or 2 and a one-line ``Error:`` message: no
traceback, no hang (a per-example deadline), the input file untouched.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printkit.cli import cli
from printkit.loading.records import dump_toml

FAST = settings(max_examples=25, deadline=2000, suppress_health_check=[HealthCheck.too_slow], database=None)
KEYS = st.sampled_from(["game", "map", "mode", "players", "name", "visited", "returned", "start_city", "final_city",
                        "souvenirs", "sights", "animals", "route", "tiles", "tours", "airfare", "id", "cities",
                        "regions", "routes", "collect", "turns", "events", "seed", "draws", "display", "stacks",
                        "bucket_cards", "format", "printkit", "x"])  # fmt: skip
SCALARS = (st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
           | st.sampled_from(["world", "World", "london", "solo", "wereldsteden", "globetrotting", "\ud800", "\x1b[31m"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                      max_leaves=25)  # fmt: skip
TABLES = st.dictionaries(KEYS, VALUES, max_size=6)


def check(args: list[str], path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, run printkit with it and check the clean failure."""
    path.write_bytes(data)
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == data


def as_text(doc: dict[str, Any], fmt: str) -> bytes:
    """A random table as TOML (when it can be written as TOML) or JSON."""
    if fmt == "toml":
        try:
            return dump_toml(doc).encode("utf-8", "surrogatepass")
        except TypeError:
            pass
    return json.dumps(doc).encode("utf-8", "surrogatepass")


def commands(folder: Path, suffix: str) -> list[tuple[list[str], Path]]:
    """Every command that reads a file, with the file it reads."""
    f = folder / f"input.{suffix}"
    m = folder / "input.toml"
    out = str(folder / "out")
    return [
        (["maps", "validate", str(m)], m),
        (["score", str(f)], f),
        (["render", "map", str(m), "-o", out + ".pdf"], m),
        (["host", "--map", str(m), "-o", out + ".html"], m),
        (["turns", "status", "--state", str(f)], f),
        (["abby", "status", "--state", str(f)], f),
        (["wereldsteden", "status", "--state", str(f)], f),
    ]


@FAST
@given(data=st.binary(max_size=300), which=st.integers(min_value=0, max_value=6))
def test_random_bytes(data: bytes, which: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        args, path = commands(Path(tmp), "json")[which]
        check(args, path, data)


@FAST
@given(doc=TABLES, fmt=st.sampled_from(["toml", "json"]), which=st.integers(min_value=0, max_value=3))
def test_random_tables_as_data(doc: dict[str, Any], fmt: str, which: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        args, path = commands(Path(tmp), fmt)[which]
        if path.suffix == ".toml" and fmt == "json":
            fmt = "toml"
        check(args, path, as_text(doc, fmt))


@FAST
@given(doc=TABLES, kind=st.sampled_from(["turns", "abby", "wereldsteden"]))
def test_random_state_files(doc: dict[str, Any], kind: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "state.json"
        check([kind, "status", "--state", str(path)], path, as_text({**doc, "printkit": kind, "format": 1}, "json"))


@FAST
@given(depth=st.integers(min_value=30, max_value=3000), opener=st.sampled_from(["[", "{\"a\": ", "{a = "]))
def test_random_depth(depth: int, opener: str) -> None:
    closer = {"[": "]", "{\"a\": ": "}", "{a = ": "}"}[opener]
    with tempfile.TemporaryDirectory() as tmp:
        if opener == "{a = ":
            path, text = Path(tmp) / "g.toml", "x = " + opener * depth + "1" + closer * depth
        else:
            path, text = Path(tmp) / "g.json", '{"x": ' + opener * depth + (("1" if opener != "[" else "")) + closer * depth + "}"
        check(["score", str(path)], path, text.encode())


GAMES = Path(__file__).parent / "data" / "games"
MAPS = Path(__file__).parent.parent / "maps"


def leaves(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``doc``."""
    out = [path]
    if isinstance(doc, dict):
        out += [p for k, v in doc.items() for p in leaves(v, (*path, k))]
    elif isinstance(doc, list):
        out += [p for i, v in enumerate(doc) for p in leaves(v, (*path, i))]
    return out


def mutated(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``doc`` with the value at ``path`` replaced by ``value``."""
    if not path:
        return value
    copy = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[path[0]] = mutated(doc[path[0]], path[1:], value)
    return copy


def documents() -> list[tuple[str, dict[str, Any]]]:
    """The example game files and a small custom map, parsed: the starting points of mutation."""
    import tomllib

    docs = [("score", tomllib.loads(p.read_text())) for p in sorted(GAMES.glob("*.toml"))]
    docs.append(("maps", tomllib.loads((MAPS / "south-america.toml").read_text())))
    return docs


DOCS = documents()


@FAST
@given(which=st.integers(min_value=0, max_value=len(DOCS) - 1), pick=st.integers(min_value=0), value=VALUES,
       fmt=st.sampled_from(["toml", "json"]))  # fmt: skip
def test_mutated_examples(which: int, pick: int, value: Any, fmt: str) -> None:
    command, doc = DOCS[which]
    paths = leaves(doc)
    changed = mutated(doc, paths[pick % len(paths)], value)
    if not isinstance(changed, dict):
        changed = {"x": changed}
    with tempfile.TemporaryDirectory() as tmp:
        if command == "maps":
            path = Path(tmp) / "mine.toml"
            text = as_text({**changed, "id": "mine"}, "toml")
            args = ["maps", "validate", str(path)]
        else:
            path = Path(tmp) / f"game.{fmt}"
            text, args = as_text(changed, fmt), ["score", str(path)]
        path.write_bytes(text)
        result = CliRunner().invoke(cli, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
        assert path.read_bytes() == text


def saved_states() -> list[tuple[str, dict[str, Any]]]:
    """A fresh state file of each companion (a turns game two rolls in), parsed."""
    runs = {"turns": [["start", "--players", "Ann,Bo", "--seed", "1"], ["next"], ["next"]],
            "abby": [["start", "--bucket-cards", "3"], ["turn", "--cards", "4,9,2", "--chose", "1", "--airfare", "3"]],
            "wereldsteden": [["setup", "--seed", "7"], ["refill", "tokyo"]]}  # fmt: skip
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, steps in runs.items():
            path = Path(tmp) / f"{kind}.json"
            for step in steps:
                assert CliRunner().invoke(cli, [kind, *step, "--state", str(path)]).exit_code == 0
            out.append((kind, json.loads(path.read_text())))
    return out


STATES = saved_states()


@FAST
@given(which=st.integers(min_value=0, max_value=len(STATES) - 1), pick=st.integers(min_value=0), value=VALUES)
def test_mutated_state_files(which: int, pick: int, value: Any) -> None:
    kind, doc = STATES[which]
    paths = [p for p in leaves(doc) if p]
    changed = mutated(doc, paths[pick % len(paths)], value)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "state.json"
        text = json.dumps(changed).encode("utf-8", "surrogatepass")
        path.write_bytes(text)
        for command in (["status"], ["undo"] if kind != "wereldsteden" else ["refill", "tokyo"]):
            result = CliRunner().invoke(cli, [kind, *command, "--state", str(path)])
            assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
            assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
            if result.exit_code:
                assert path.read_bytes() == text
