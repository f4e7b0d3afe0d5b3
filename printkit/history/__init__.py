"""The history of every game played: recorded once when scored, listed, shown, compared, exported.

Kept in SQLite (the standard library's ``sqlite3``) under ``$PRINTKIT_DATA_DIR``
(default ``$XDG_DATA_HOME/printkit``, else ``~/.local/share/printkit``); see
:mod:`printkit.history.store` for the file and docs/history.md for the command.

    >>> from printkit.history import record, scored
    >>> record(game_id, scored(game_score, explanation))   # True once; False when that game is there  # doctest: +SKIP

Every function takes ``db=`` (a database file) for tests and tools; without
it the user's history is used.
"""

from printkit.history.model import Best, PlayerResult, Recorded, Scored, Summary, file_id, scored, utc_time
from printkit.history.queries import bests, forget, games, record, show
from printkit.history.store import data_dir, db_path
from printkit.history.transfer import export, exported, import_, import_file

__all__ = ["Best", "PlayerResult", "Recorded", "Scored", "Summary", "bests", "data_dir", "db_path", "export",
           "exported", "file_id", "forget", "games", "import_", "import_file", "record", "scored", "show", "utc_time"]
