"""Scored example games to record in the history tests, and the club history docs/history.md imports."""

from __future__ import annotations

import sys
from pathlib import Path

from printkit import registry
from printkit.history import Scored, export, file_id, record, scored
from printkit.loading.records import load_record
from printkit.present.score_text import score_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
CLUB = EXAMPLES / "exports" / "club-march.json"


def scored_file(path: Path, played_at: str) -> tuple[str, Scored]:
    """A game file's id (the digest of its bytes) and the game as `printkit score` scores and explains it."""
    result, title = registry.score_document(load_record(path), str(path), path.parent)
    return file_id(path.read_bytes()), scored(result, score_text(result, title), played_at=played_at)


def variant(tmp: Path, example: str, renames: dict[str, str], name: str) -> Path:
    """An example game file with its players renamed (``{"Chris": "Ana", "Ana": "Chris"}`` swaps two)."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    for i, old in enumerate(renames):
        text = text.replace(f'name = "{old}"', f'name = "@{i}@"')
    for i, new in enumerate(renames.values()):
        text = text.replace(f'name = "@{i}@"', f'name = "{new}"')
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


CLUB_GAMES = [  # (example file, renames, played at): the club of docs/history.md, four Thursdays and a Sunday
    ("world-chris.toml", {}, "2024-03-07T19:30:00Z"),
    ("world-chris.toml", {"Chris": "Ana", "Ana": "Chris"}, "2024-03-14T19:45:00Z"),
    ("europe-majority.toml", {"Femke": "Chris", "Gus": "Ana"}, "2024-03-21T20:00:00Z"),
    ("world-chris.toml", {"Ana": "Femke"}, "2024-03-28T19:30:00Z"),
    ("world-solo.toml", {"Kit": "Ana"}, "2024-03-31T10:15:00Z"),
]


def club_history(tmp: Path) -> bytes:
    """The JSON export of the club's five games, recorded into a fresh history under ``tmp``."""
    db = tmp / "club" / "history.sqlite3"
    for i, (example, renames, played_at) in enumerate(CLUB_GAMES):
        path = variant(tmp, example, renames, f"game{i}.toml") if renames else EXAMPLES / example
        record(*scored_file(path, played_at), db=db)
    return export("json", db=db)


NAMES = ("Ana", "Chris", "Femke", "Gus", "Kit", "Dana", "Eli", "Zoë", "Bram", "Noor", "Sem", "Lotte", "Mila",
         "Ruben", "Yara", "Tess", "Olle", "Pim", "東京", "Ivo", "=1+2", "-Ann", "@home", "+Bo")
"""A club's players, four of them named as a spreadsheet would read a formula."""


def club_games(count: int) -> bytes:
    """A JSON export of ``count`` games: the club's five again and again, players and times changed, ids all new."""
    import hashlib
    import json

    games = [json.dumps(g, ensure_ascii=False) for g in json.loads(CLUB.read_bytes())["games"]]
    lines = []
    for i in range(count):
        text = games[i % len(games)]
        doc = json.loads(text)
        old = [p["name"] for p in doc["players"]]
        for k, name in enumerate(old):
            text = text.replace(json.dumps(name), json.dumps(f"@{k}@"))
        for k in range(len(old)):
            text = text.replace(json.dumps(f"@{k}@"), json.dumps(NAMES[(i + 7 * k) % len(NAMES)], ensure_ascii=False))
        doc = json.loads(text)
        day, minute = divmod(i, 24 * 60)
        doc["id"] = hashlib.sha256(str(i).encode()).hexdigest()[:16]
        doc["played_at"] = f"{2000 + day // 336:04d}-{1 + day % 336 // 28:02d}-{1 + day % 28:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z"
        lines.append(json.dumps(doc, ensure_ascii=False))
    body = ",\n    ".join(lines)
    return f'{{\n  "format": "printkit-history",\n  "version": 1,\n  "games": [\n    {body}\n  ]\n}}\n'.encode()


if __name__ == "__main__":  # python tests/history_helpers.py: write docs/examples/exports/club-march.json again
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        CLUB.write_bytes(club_history(Path(folder)))
    sys.stdout.write(f"wrote {CLUB.relative_to(ROOT)}\n")
