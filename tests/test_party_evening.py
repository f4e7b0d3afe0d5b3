"""A whole evening through `printkit party`'s API on one game file: the game's own pack photographed on the
phones, the marks in the game file for `score --game`, the history kept once; multiplayer with a Navigator."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
pytest.importorskip("httpx")
cv2 = pytest.importorskip("cv2")

import scan_simulate as sim  # noqa: E402
from scan_helpers import sheets  # noqa: E402
from test_game_evening import ANN_MARKS, TRIP  # noqa: E402

with warnings.catch_warnings():  # Starlette 1.x would rather drive its test client with httpx2; httpx works
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from printkit.cli import cli  # noqa: E402
from printkit.loading.maps import load_map  # noqa: E402
from printkit.party import routes  # noqa: E402
from printkit.party.game import Table, start_game  # noqa: E402

NAMES = ("Ann", "Bo")


def served(path: Path, mode: str) -> tuple[Table, TestClient]:
    start_game(str(path), load_map("world"), NAMES, mode, 42)
    table = Table(str(path))
    return table, TestClient(routes.create_app(table, "http://127.0.0.1:8765/join", ["testserver"]))


def photo(pack: Path, k: int, filled: sim.Filled) -> bytes:
    """Page ``k`` of the game's printed pack, filled in by the test pen, as a JPEG."""
    image = sim.render_page(pack.with_name(f"{pack.stem}-{k:02d}.png").read_bytes())
    sim.fill(image, 150 / 72, sheets("world", "a4", NAMES)[1], filled, sim.Pen("blue", 0.6, 0.8), random.Random(k))
    return bytes(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1])


@pytest.fixture
def pack(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "pack.png"


def test_a_party_evening_ends_in_the_game_file_and_the_history(tmp_path: Path, pack: Path) -> None:
    game = tmp_path / "game.json"
    table, client = served(game, "party")
    with client:
        assert CliRunner().invoke(cli, ["render", "map", "--game", str(game), "--format", "png",
                                        "-o", str(pack)]).exit_code == 0
        host = {"Authorization": f"Bearer {table.side.host_key}"}
        ann, bo = ({"Authorization": f"Bearer {client.post('/api/join', json={'name': n}).json()['token']}"}
                   for n in NAMES)
        for _ in range(5):
            client.post("/api/next", headers=host)
        client.post("/api/finish", headers=ann)
        assert client.post("/api/end", headers=host).json()["over"]
        ann_photo = photo(pack, 1, sim.Filled((*ANN_MARKS, "finished_turn.5"), TRIP, "new-york"))
        bo_photo = photo(pack, 2, sim.Filled(("sights.culture.1",), ("london-new-york",), "new-york"))
        wrong = client.post("/api/sheet", headers=bo, files={"photo": ("a.jpg", ann_photo)})
        assert (wrong.status_code, wrong.json()["error"]) == (422, "this is Ann's sheet, not Bo's")
        read = client.post("/api/sheet", headers=ann, files={"photo": ("a.jpg", ann_photo)}).json()
        assert (read["total"], read["reads"], read["sections"]["speed"]) == (18, [], 15)
        client.post("/api/confirm", headers=ann)
        assert client.post("/api/sheet", headers=bo, files={"photo": ("b.jpg", bo_photo)}).json()["total"] == 1
        state = client.post("/api/confirm", headers=bo).json()
    assert [(p["name"], p["total"]) for p in state["players"]] == [("Ann", 18), ("Bo", 1)]
    saved = json.loads(game.read_text())
    assert saved["marks"]["Ann"]["from"] == "scan" and saved["marks"]["Ann"]["table"]["finished_turn"] == 5
    scored = CliRunner().invoke(cli, ["score", "--game", str(game), "--json"])
    assert [p["total"] for p in json.loads(scored.stdout)["players"]] == [18, 1]
    assert scored.stderr == f"Already in the history as {saved['id']}; not recorded again.\n"  # the party kept it
    kept = json.loads(CliRunner().invoke(cli, ["history", "--json"]).stdout)["games"]
    assert [g["id"] for g in kept].count(saved["id"]) == 1


def test_a_multiplayer_game_shows_the_navigator(tmp_path: Path) -> None:
    table, client = served(tmp_path / "game.json", "multiplayer")
    with client:
        host = {"Authorization": f"Bearer {table.side.host_key}"}
        first = client.get("/api/state").json()
        assert (first["turns"], first["dice"], first["navigator"]) == (None, None, "Ann")
        navigators = [client.post("/api/next", headers=host).json()["navigator"] for _ in range(3)]
        assert navigators == ["Ann", "Bo", "Ann"]
        bo = {"Authorization": f"Bearer {client.post('/api/join', json={'name': 'Bo'}).json()['token']}"}
        state = client.post("/api/finish", headers=bo).json()
        assert state["over"] and state["players"][1] == {"name": "Bo", "finished_turn": 3, "total": None,
                                                         "bonus": None, "joined": True}
        assert "Bo finished on turn 3" in state["over_reason"]
        html = client.get("/host").text
        assert "Turn 3<" in html and "1-2 Travel" not in html
