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


if __name__ == "__main__":  # python tests/history_helpers.py: write docs/examples/exports/club-march.json again
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        CLUB.write_bytes(club_history(Path(folder)))
    sys.stdout.write(f"wrote {CLUB.relative_to(ROOT)}\n")
