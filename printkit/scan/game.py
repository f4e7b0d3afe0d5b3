"""All sheets of one ``printkit scan`` call as one game: the game file, its score, and every unsure read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printkit.loading.records import UNSURE_HEADER
from printkit.scan.images import ScanError
from printkit.scan.sheet import SheetRead, Uncertain, player_table

if TYPE_CHECKING:
    from printkit.model.maps import GameMap
    from printkit.rules.gamefile import Marks, Unsure
    from printkit.rules.report import GameScore
    from printkit.rules.turns import Game


@dataclass(frozen=True)
class ScannedGame:
    """The game file read off the sheets, its score, and the unsure reads as (player, read)."""

    doc: dict[str, Any]
    score: GameScore
    title: str
    uncertain: tuple[tuple[str, Uncertain], ...]
    trails: tuple[str, ...] = ()
    """Per player whose trail is in doubt: the routes read as drawn, those in doubt marked, as a comment line."""

    def reads(self) -> list[dict[str, Any]]:
        """The unsure reads as ``--json`` lists them under ``reads``."""
        return [{"player": who, "field": u.field, "confidence": u.confidence, "message": u.message}
                for who, u in self.uncertain]

    def to_json(self) -> dict[str, Any]:
        """The scores as ``printkit score --json`` gives them, plus the ``reads`` list."""
        return {**self.score.to_json(), "reads": self.reads()}

    def game_file(self, fmt: str) -> str:
        """The game file (``toml`` or ``json``) for a person to check: a TOML file lists the unsure reads on top."""
        from printkit.loading.records import dump_record

        text = dump_record(self.doc, fmt)
        if fmt != "toml" or not self.uncertain:
            return text
        notes = [f"# {who}: {u.message} (confidence {u.confidence:.2f})" for who, u in self.uncertain]
        notes += [f"# {line}" for line in self.trails]
        return (f"{UNSURE_HEADER}, correct below, then: printkit score FILE\n"
                + "\n".join(notes) + "\n\n" + text)


def names_of(sheets: list[SheetRead]) -> list[str]:
    """Each sheet's player: the name in its QR code, else ``Sheet 1``, ``Sheet 2``... (duplicates numbered)."""
    names: list[str] = []
    for k, s in enumerate(sheets, start=1):
        name = s.ident.name.strip() or f"Sheet {k}"
        while name.lower() in (n.lower() for n in names):
            name = f"{name} ({k})"
        names.append(name)
    return names


def _cross_check(s: SheetRead, m: GameMap, mode: str = "multiplayer") -> None:
    """Region ticks and the speed tick must agree with the trail (solo/party: the ticked turn box is the finish)."""
    if s.route is None:
        return
    seen = set(s.route)
    for r in m.regions:
        box = s.boxes.get(f"regions.{r.id}")
        cities = m.region_cities(r.id)
        done = bool(cities) and all(c.id in seen for c in cities)
        if box is not None and box.on != done:
            s.doubt(box.id, 0.3, f"{box.id}: {'ticked' if box.on else 'not ticked'}, but the drawn routes "
                    f"{'visit' if done else 'do not visit'} every city of {r.name}")
    _tally(s, m, seen)
    speed = s.boxes.get("speed")
    finished = _finished(s.route, m)
    if speed is not None and not speed.on and finished and mode != "multiplayer" and _turns(s, m):
        return  # solo/party: the sheet asks for the turn box, not the speed box
    if speed is not None and speed.on != finished:
        s.doubt("speed", 0.3, f"speed: {'ticked' if speed.on else 'not ticked'}, but the drawn routes "
                f"{'finish' if finished else 'do not finish'} the trip")


def _tally(s: SheetRead, m: GameMap, seen: set[str]) -> None:
    """Europe's cities-per-region tally and the US iconic-city boxes must count what the trail visits."""
    from printkit.scan.sheet import row_count

    rows = [(f"visited.{r.id}", len(m.region_cities(r.id)), sum(1 for c in m.region_cities(r.id) if c.id in seen))
            for r in m.regions]
    rows.append(("iconic", len(m.iconic_cities), sum(1 for c in m.iconic_cities if c.id in seen)))
    for prefix, top, want in rows:
        if f"{prefix}.1" not in s.boxes:
            continue
        got = row_count(s, prefix, top)
        if got != want:
            s.doubt(prefix, 0.3, f"{prefix}: {got} marked, but the drawn routes visit {want}")


def _finished(route: list[str], m: GameMap) -> bool:
    """Whether a trail finishes the trip: every region visited enough, and back at its start."""
    seen = set(route)
    every = m.every_region_visited({r.id: sum(1 for c in m.region_cities(r.id) if c.id in seen) for r in m.regions})
    return every and len(route) > 1 and route[0] == route[-1]


def _turns(s: SheetRead, m: GameMap) -> list[int]:
    """The finished_turn boxes marked on the sheet."""
    return [n for n in range(1, m.solo.turns + 1) if (b := s.boxes.get(f"finished_turn.{n}")) is not None and b.on]


def _firsts(s: SheetRead, m: GameMap) -> list[str]:
    """The first_rare boxes marked on kinds the sheet has marked; one on a kind it has not is an unsure read."""
    marked = {bid.split(".")[1] for bid, r in s.boxes.items() if r.on and bid.startswith(f"{m.explore_key}.")}
    firsts = []
    for kind in (k.id for t in m.explore if t.first_bonus for k in t.kinds):
        box = s.boxes.get(f"first_rare.{kind}")
        if box is None or not box.on:
            continue
        if kind in marked:
            firsts.append(kind)
        else:
            s.doubt(box.id, 0.2, f"{box.id}: ticked, but no {kind} box is read as marked (a first needs a mark): "
                    "left out; check both on the sheet")
    return firsts


def _mode(m: GameMap, count: int, mode: str | None) -> str:
    """The mode asked for, else the one ``printkit score`` would pick for this many players."""
    if mode:
        return mode
    return "solo" if count == 1 else "party" if count > m.max_multiplayer else "multiplayer"


def _extras(s: SheetRead, m: GameMap, mode: str) -> dict[str, Any]:
    """first_rare (multiplayer) and finished_turn (solo/party) where the sheet has boxes for them."""
    table: dict[str, Any] = {}
    firsts = _firsts(s, m) if mode == "multiplayer" else []
    if firsts:
        table["first_rare"] = firsts
    if mode != "multiplayer" and _finished(s.route or [], m):
        turns = _turns(s, m)
        table["finished_turn"] = turns[0] if len(turns) == 1 else m.solo.turns
        if len(turns) != 1:
            s.doubt("finished_turn", 0.0, "finished_turn: the turn the trip ended on is not marked once on the "
                    f"sheet (scored as turn {m.solo.turns}, no speed bonus): give it in the game file")
    return table


def scan_game(sheets: list[SheetRead], mode: str | None = None) -> ScannedGame:
    """One game from the sheets (all of one map); a ScanError if they are of different maps."""
    from printkit import registry
    from printkit.scan.ident import subject

    maps = sorted({s.m.id for s in sheets})
    if len(maps) > 1:
        raise ScanError(f"the sheets are of different maps ({', '.join(maps)}): scan each game on its own")
    m = sheets[0].m
    chosen = _mode(m, len(sheets), mode)
    players = []
    for s, name in zip(sheets, names_of(sheets)):
        _cross_check(s, m, chosen)
        players.append(player_table(s, name, **_extras(s, m, chosen)))
    doc: dict[str, Any] = {"map": subject(m.id), "players": players}  # a --map file by its path
    if mode:
        doc["mode"] = mode
    score, title = registry.score_document(doc, "scanned sheets", Path("."))
    if any(s.typed for s in sheets):  # a fillable PDF's typed points must agree with the score
        from printkit.scan.typed import check_typed

        check_typed(sheets, score)
    unsure = tuple((p["name"], u) for s, p in zip(sheets, players) for u in s.uncertain)
    trails = tuple(line for s, p in zip(sheets, players) if (line := trail_note(s, p["name"])))
    return ScannedGame(doc, score, title, unsure, trails)


def trail_note(s: SheetRead, who: str) -> str:
    """The routes read as drawn on a sheet whose trail is in doubt, those in doubt marked "?" ("" if none is)."""
    doubt = {u.field[6:] for u in s.uncertain if u.field.startswith("route.")}
    if s.route is not None and not doubt:
        return ""
    drawn = sorted(rid for rid, r in s.routes.items() if r.on or rid in doubt)
    if not drawn:
        return ""
    shown = ", ".join(f"{rid}?" if rid in doubt else rid for rid in drawn)
    kept = "the route below is the trail through them" if s.route is not None else "no route line is written"
    return f"{who}: routes read as drawn (? = in doubt): {shown}; {kept}: check the doubtful ones"


def _game_sheet(s: SheetRead, game: Game) -> str:
    """The player of this game whose sheet ``s`` is; a ScanError for a sheet of another game, map or player."""
    from printkit.rules.turns import UnknownPlayerError

    where = s.source
    if s.ident.game != game.id:
        what = f"of another game ({s.ident.game})" if s.ident.game else "not printed for a game"
        raise ScanError(f"{where}: the sheet is {what}, not of game {game.id}: print this game's sheets with "
                        "`printkit render map --game FILE`; nothing was attached")
    if s.m.id != game.map.id:
        raise ScanError(f"{where}: the sheet is of map {s.m.id}, the game is on {game.map.id}; nothing was attached")
    try:
        return game.player(s.ident.name)
    except UnknownPlayerError as exc:
        raise ScanError(f"{where}: {exc}; nothing was attached") from None


def game_reads(sheets: list[SheetRead], game: Game) -> list[tuple[str, Marks, list[Unsure]]]:
    """Each sheet as its player's marks in ``game``, with the unsure reads (the tracker's finish turns checked).

    Every sheet is checked before any is returned: one of another game, map
    or player is a ScanError and nothing is attached.
    """
    from printkit.rules.gamefile import Marks, Unsure, finish_check

    owners = [_game_sheet(s, game) for s in sheets]
    twice = next((who for who in owners if owners.count(who) > 1), None)
    if twice is not None:
        raise ScanError(f"two sheets of {twice} are given: scan each player's sheet once; nothing was attached")
    m = sheets[0].m
    out: list[tuple[str, Marks, list[Unsure]]] = []
    for s, who in zip(sheets, owners):
        _cross_check(s, m, game.mode)
        table = player_table(s, who, **_extras(s, m, game.mode))
        turn_unsure = any(u.field == "finished_turn" for u in s.uncertain)
        table, disagree = finish_check(game, who, table, turn_unsure)
        kept = [u for u in s.uncertain if not (u.field == "finished_turn" and who in game.finished)]
        unsure = [Unsure(who, u.field, u.confidence, u.message) for u in kept] + disagree
        out.append((who, Marks("scan", table), unsure))
    return out
