"""Digest every user-visible output: sheets (PDF/SVG/PNG bytes), score text and JSON, state files.

Run it before and after a refactor and compare: an empty diff shows that the
change kept every output byte-identical.

    python tools/output_digest.py > before.json
    ... change the code ...
    python tools/output_digest.py > after.json
    python tools/output_digest.py --compare before.json after.json

It drives the real command line in-process (Click's CliRunner) in a temporary
folder, so it depends on nothing but the ``printkit`` command's behaviour.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from click.testing import CliRunner

from printkit.cli import cli

ROOT = Path(__file__).resolve().parent.parent
MAPS = ("world", "us", "europe", "south-america")
SHEETS = [(k, m) for m in MAPS for k in ("map", "tracker", "scorepad")] + [
    ("scorepad", "trekking-the-world"), ("passport", "globetrotting"),
    ("tracker", "wereldsteden"), ("aid", "wereldsteden"),
]
COMPANIONS = [
    ["roll", "--seed", "7"], ["roll", "--seed", "2", "--json"],
    ["turns", "start", "--map", "world", "--players", "Ann,Bo,Cy,Di,Ed,Flo,Gus", "--seed", "42"],
    ["turns", "next"], ["turns", "next"], ["turns", "finish", "ann"], ["turns", "status"],
    ["turns", "undo"], ["turns", "next"], ["turns", "history"], ["turns", "end"],
    ["turns", "start", "--map", "south-america", "--players", "Kit", "--seed", "3", "--force"],
    ["turns", "next"], ["turns", "status"],
    ["host", "--map", "world", "--players", "Ann,Bo,Cy,Di,Ed,Flo,Gus", "--seed", "7", "-o", "host.html"],
    ["host", "--map", "us", "--players", "Solo", "--seed", "1", "-o", "host-us.html"],
    ["abby", "start", "--bucket-cards", "3"],
    ["abby", "turn", "--cards", "7,12,3", "--chose", "3", "--airfare", "4"],
    ["abby", "turn", "--cards", "5,9,2", "--chose", "middle", "--airfare", "3"],
    ["abby", "status"], ["abby", "undo"], ["abby", "status"],
    ["abby", "score", "--objective", "5", "--objective", "8", "--bucket-list", "4,6", "--festivals", "1,1,0"],
    ["wereldsteden", "setup", "--seed", "42"], ["wereldsteden", "refill", "tokyo"],
    ["wereldsteden", "status"],
    ["maps"], ["maps", "show", "world"], ["maps", "show", "us", "--json"],
    ["maps", "validate", "maps/world.toml", "maps/europe.toml"],
    ["render", "nope", "world"], ["score", "tests/data/maps/typo.toml"],
]


def sha(data: bytes) -> str:
    """A short digest of some bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


def game_files(work: Path) -> Iterator[Path]:
    """The test game files and every game file the README shows (written into ``work``)."""
    yield from sorted((ROOT / "tests" / "data" / "games").glob("*.toml"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for lang, b in re.findall(r"```(\w+)\n(.*?)```", readme, flags=re.S) if lang == "toml"]
    for i, body in enumerate(b for b in blocks if "[[players]]" in b):
        path = work / f"readme-{i:02d}.toml"
        path.write_text(body, encoding="utf-8")
        yield path


def run(runner: CliRunner, args: list[str]) -> dict[str, object]:
    """Invoke the command line; its exit code and output digests."""
    result = runner.invoke(cli, args, catch_exceptions=True)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    return {"exit": result.exit_code, "stdout": result.stdout, "stderr": result.stderr, "crash": crashed}


def digest() -> dict[str, object]:
    """Every output, keyed by the command that made it."""
    out: dict[str, object] = {}
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for kind, subject in SHEETS:
            for paper in ("a4", "letter"):
                for fmt in ("pdf", "svg", "png"):
                    for names in ("", "Ann,Bo,Cy"):
                        target = work / f"{kind}-{subject}-{paper}-{len(names)}.{fmt}"
                        args = ["render", kind, subject, "--paper", paper, "-o", str(target)]
                        args += ["--names", names] if names else []
                        res = run(runner, args)
                        files = sorted(work.glob(f"{target.stem}*.{fmt}"))
                        res["files"] = [sha(p.read_bytes()) for p in files]
                        out[f"render {kind} {subject} {paper} {fmt} names={names}"] = res
                        for p in files:
                            p.unlink()
        for path in game_files(work):
            for extra in ([], ["--json"]):
                res = run(runner, ["score", str(path), *extra])
                out[f"score {path.name} {' '.join(extra)}"] = res
        here = work / "companions"
        here.mkdir()
        (here / "maps").symlink_to(ROOT / "maps")
        (here / "tests").symlink_to(ROOT / "tests")
        old = os.getcwd()
        os.chdir(here)
        try:
            for i, args in enumerate(COMPANIONS):
                res = run(runner, args)
                states = sorted(p for p in here.iterdir() if p.suffix in (".json", ".html"))
                res["files"] = {p.name: sha(p.read_bytes()) for p in states}
                out[f"{i:02d} {' '.join(args)}"] = res
        finally:
            os.chdir(old)
        text = json.dumps(out).replace(str(work), "<tmp>")
    result: dict[str, object] = json.loads(text)
    return result


def compare(before: Path, after: Path) -> int:
    """Print every key whose output differs; 0 when none does."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differ = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    for key in differ:
        print(f"DIFFERS: {key}\n  before: {a.get(key)}\n  after:  {b.get(key)}")
    print(f"{len(a)} outputs compared, {len(differ)} differ")
    return 1 if differ else 0


def main() -> int:
    """Digest the outputs (JSON on stdout) or compare two digests."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    json.dump(digest(), sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
