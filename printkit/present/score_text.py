"""A scored game as text: the table printed by ``printkit score`` and ``printkit abby score``, or JSON.

Pure: a :class:`~printkit.rules.report.GameScore` in, text out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from printkit.rules.report import GameScore


def score_json(result: GameScore) -> str:
    """The scores as indented JSON (keys documented in the README)."""
    import json

    return json.dumps(result.to_json(), indent=2, ensure_ascii=False)


def score_text(result: GameScore, title: str | None = None) -> str:
    """The score table under ``title`` (default: the game's title), one line per row."""
    return "\n".join(format_table(result, title))


def format_table(result: GameScore, title: str | None = None) -> list[str]:
    """Lines of the score table: a column per player, a row per section, then winners."""
    rows: dict[str, str] = {}
    for p in result.players:
        for s in p.sections:
            rows.setdefault(s.key, s.name)
    names = [p.name for p in result.players]
    cells: list[list[str]] = []
    for key, label in rows.items():
        points = {p.name: next((str(s.points) for s in p.sections if s.key == key), "-") for p in result.players}
        cells.append([label, *(points[n] for n in names)])
    cells.append(["Total", *(str(p.total) for p in result.players)])
    header = ["", *names]
    widths = [max(len(r[i]) for r in [header, *cells]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:]))]).rstrip()

    if title is None:
        title = result.game
    out = [f"{title}: {result.mode}", ""]
    out += [line(header), line(["-" * widths[0], *("-" * w for w in widths[1:])])]
    out += [line(r) for r in cells[:-1]]
    out += [line(["-" * widths[0], *("-" * w for w in widths[1:])]), line(cells[-1]), ""]
    if len(result.winners) == 1:
        out.append(f"Winner: {result.winners[0]}")
    elif result.winners:
        out.append(f"Winners (shared): {', '.join(result.winners)}")
    if result.tiebreak:
        # with no winner yet (Wereldsteden: nobody has all 6 tiles) the note is the result itself
        out.append(f"{'Tie-break' if result.winners else 'Result'}: {result.tiebreak}")
    for p in result.players:
        if p.rating:
            out.append(f"Rating for {p.name}: {p.rating} ({p.total} points)")
    out += [f"Warning: {w}" for w in result.warnings]
    out.append("")
    for p in result.players:
        out.append(f"{p.name}:")
        out += [f"  {s.name} {s.points}: {s.reason}" for s in p.sections]
    return out
