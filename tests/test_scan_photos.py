"""Phone photos and copies that once read silently wrong: a cut corner, a fold, pencil on a 1-bit copy; game-level reads."""

from __future__ import annotations

from pathlib import Path

import scan_simulate as sim
from scan_degrade import Capture
from scan_helpers import photo, read, sheets, wrong_but_sure

from printkit.loading.maps import load_map
from printkit.model import graph
from printkit.scan.game import scan_game
from printkit.scan.sheet import marks_of

BOTTOM_RIGHT = ("finished_turn.10", "finished_turn.19", "finished_turn.20", "speed")


def test_boxes_cut_off_the_picture_are_unsure_never_empty() -> None:
    filled = sim.Filled(("souvenirs.mugs.1", *BOTTOM_RIGHT), ("london-new-york",), "new-york")
    s = read(photo("world", "a4", ("Ann",), 0, filled, shot=Capture(dpi=150, rotation=-16.0, blur=0.3, noise=2,
                                                                    jpeg=85, cut=0.12)))
    outside = {b for b, r in s.boxes.items() if r.why == "outside the picture"}
    assert {"finished_turn.20", "finished_turn.19"} <= outside
    assert wrong_but_sure(s, filled) == []
    messages = {u.field: u.message for u in s.uncertain}
    assert messages["finished_turn.20"] == "box finished_turn.20: cannot be read: outside the picture"
    assert s.boxes["souvenirs.mugs.1"].on and s.boxes["souvenirs.mugs.1"].certain  # the rest reads as before


def test_a_fold_through_a_box_column_is_unsure_or_corrected_never_marked() -> None:
    filled = sim.Filled(("souvenirs.mugs.1", "souvenirs.clothes.1", "sights.culture.1", "sights.history.1"),
                        ("london-new-york",), "new-york")
    fields = sheets("world", "a4", ("Ann",))[1]
    crease = fields.box("souvenirs.postcards.2").rect if hasattr(fields, "box") else \
        next(b.rect for b in fields.boxes if b.id == "souvenirs.postcards.2")
    at = (crease[1] + crease[3]) / 2 / fields.height
    s = read(photo("world", "a4", ("Ann",), 0, filled, shot=Capture(dpi=150, rotation=2.0, blur=0.3, noise=2,
                                                                    jpeg=85, fold=12.0, fold_at=at)))
    # the Collect and Explore columns the crease runs through (the right column, 5 pt off there, still misreads:
    # docs/scan.md, known limits)
    near = {b.id for b in fields.boxes if abs((b.rect[1] + b.rect[3]) / 2 - (crease[1] + crease[3]) / 2) < 40
            and b.id.startswith(("souvenirs.", "sights."))}
    assert {"souvenirs.postcards.2", "sights.food.3", "souvenirs.textiles.1"} <= near
    assert [b for b in wrong_but_sure(s, filled) if b in near] == []  # every box by the crease: unsure or right
    assert s.boxes["souvenirs.postcards.2"].why  # and said why


def test_a_pencil_row_on_a_1_bit_copy_is_unsure_not_zero() -> None:
    rows = ("sights.food.1", "sights.food.2", "sights.food.3", "souvenirs.clothes.1", "souvenirs.clothes.2")
    filled = sim.Filled(rows, ("london-new-york",), "new-york")
    s = read(photo("world", "a4", ("Ann",), 0, filled, pen=sim.Pen("light pencil", 0.5, 0.6), seed=3,
                   shot=Capture(dpi=150, rotation=1.0, blur=0.3, noise=2, onebit=True)))
    marks = marks_of(s)
    flagged = {".".join(u.field.split(".")[:2]) for u in s.uncertain}
    for row, want in (("sights.food", 3), ("souvenirs.clothes", 2)):
        kind, key = row.split(".")[1], row.split(".")[0]
        assert marks[key][kind] == want or row in flagged, (row, marks[key][kind])
    assert not all(marks[k.split(".")[0]][k.split(".")[1]] == w for k, w in (("sights.food", 3),)) or flagged


def test_a_first_rare_box_against_the_rules_is_an_unsure_read_and_the_others_are_scored() -> None:
    names = ("Ann", "Bo")
    ann = sim.Filled(("animals.llama.1", "first_rare.condor"), ("lima-quito",), "quito")
    bo = sim.Filled(("animals.condor.1",), ("bogota-quito",), "bogota")
    reads = [read(photo("south-america", "a4", names, k, f, seed=k)) for k, f in enumerate((ann, bo))]
    game = scan_game(reads)
    assert [(who, u.field) for who, u in game.uncertain] == [("Ann", "first_rare.condor")]
    assert "first_rare" not in game.doc["players"][0]
    assert [p.name for p in game.score.players] == ["Ann", "Bo"]
    assert game.doc["players"][1]["animals"]["condor"] == 1


def closed_trail(map_id: str) -> list[str]:
    """A round trip visiting a city of every region (depth-first over the map's graph)."""
    m = load_map(map_id)

    def walk(route: list[str], used: list[object]) -> list[str] | None:
        seen = set(route)
        every = m.every_region_visited({r.id: sum(1 for c in m.region_cities(r.id) if c.id in seen) for r in m.regions})
        if len(route) > 1 and route[-1] == route[0] and every:
            return route
        if len(route) > 12:
            return None
        for step in graph.open_routes(m, route[-1], used):  # type: ignore[arg-type]
            nxt = step.b if step.a == route[-1] else step.a
            if nxt in seen and nxt != route[0]:
                continue
            found = walk(route + [nxt], used + [step])
            if found:
                return found
        return None

    start = next(c.id for c in m.cities if c.can_start)
    found = walk([start], [])
    assert found is not None
    return found


def test_solo_the_ticked_turn_box_is_the_finish_and_nothing_is_flagged() -> None:
    m = load_map("world")
    route = closed_trail("world")
    ids = {frozenset((r.a, r.b)): f"{r.a}-{r.b}" for r in m.routes}
    routes = tuple(ids[frozenset(p)] for p in zip(route, route[1:]))
    regions = tuple(f"regions.{r.id}" for r in m.regions if all(c.id in route for c in m.region_cities(r.id)))
    filled = sim.Filled(("souvenirs.mugs.1", *regions, "finished_turn.14"), routes, route[0])
    game = scan_game([read(photo("world", "a4", ("Ann",), 0, filled))])
    assert game.uncertain == ()
    assert game.doc["players"][0]["finished_turn"] == 14
    assert game.score.players[0].total > 0


def test_save_keeps_the_routes_of_a_trail_in_doubt_and_score_warns(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from printkit.cli import cli

    branching = sim.Filled((), ("mexico-city-new-york", "new-york-vancouver", "london-new-york"), "vancouver")
    sheet = tmp_path / "ann.jpg"
    sheet.write_bytes(photo("world", "a4", ("Ann",), 0, branching))
    saved = tmp_path / "game.toml"
    result = CliRunner().invoke(cli, ["scan", str(sheet), "--save", str(saved), "--review", str(tmp_path / "r")])
    assert result.exit_code == 3
    text = saved.read_text()
    assert "# Ann: routes read as drawn (? = in doubt): london-new-york, mexico-city-new-york, new-york-vancouver; " \
           "no route line is written: check the doubtful ones" in text
    scored = CliRunner().invoke(cli, ["score", str(saved)])
    assert scored.stderr.splitlines()[0] == (f"Warning: '{saved}' still lists the unsure reads printkit scan left in "
                                             "it: check each one, correct the file, then delete those comments")
    clean = tmp_path / "clean.toml"
    clean.write_text(text.split("\n\n", 1)[1])
    assert "Warning" not in CliRunner().invoke(cli, ["score", str(clean)]).stderr


def test_the_overlay_reds_only_the_routes_in_doubt() -> None:
    import cv2
    import numpy as np

    from printkit.scan.ink import blank_sheet
    from printkit.scan.review import MARKED, UNCERTAIN, overlay
    from printkit.scan.sheet import Uncertain

    s = read(photo("world", "a4", ("Ann",), 0, sim.Filled((), ("london-new-york",), "new-york")))
    s.uncertain.append(Uncertain("route.london-moscow", 0.3, "route london-moscow: drawn? (40% of it inked)"))
    s.uncertain.append(Uncertain("route", 0.2, "route: the drawn routes do not join into one trail"))
    image = cv2.imdecode(np.frombuffer(overlay(s, blank_sheet("world", "a4").fields), np.uint8), cv2.IMREAD_COLOR)
    fields = blank_sheet("world", "a4").fields

    def colour(rid: str) -> tuple[int, ...]:
        (ax, ay), (bx, by) = next(r.points for r in fields.routes if r.id == rid)[::len(next(
            r.points for r in fields.routes if r.id == rid)) - 1]
        t = 0.4  # off the middle, clear of the label
        return tuple(int(v) for v in image[round((ay + (by - ay) * t) * 2.5), round((ax + (bx - ax) * t) * 2.5)])

    assert colour("london-new-york") == MARKED and colour("london-moscow") == UNCERTAIN
