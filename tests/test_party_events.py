"""The event stream against a real uvicorn server on 127.0.0.1, and `printkit party` killed and restarted."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from party_server import Stream, serving  # noqa: E402

from printkit.loading.dice import load_dice  # noqa: E402
from printkit.loading.maps import load_map  # noqa: E402
from printkit.party.events import Hub  # noqa: E402
from printkit.party.game import start_game  # noqa: E402
from printkit.rules.dice import turn_roll  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ann", "Bo", "Cy")


@pytest.fixture
def game(tmp_path: Path) -> str:
    path = str(tmp_path / "game.json")
    start_game(path, load_map("world"), NAMES, "party", 7)
    return path


def test_every_change_reaches_the_stream_in_order(game: str) -> None:
    with serving(game) as server:
        stream = Stream(server.port)
        first = stream.events(1, 5)
        assert b"content-type: text/event-stream" in stream.head.lower()
        assert [s["turn"] for _, s in first] == [0]
        key = server.host_key()
        for _ in range(3):
            assert server.post("/api/next", key)[0] == 200
        assert server.post("/api/undo", key)[0] == 200
        got = [s["turn"] for _, s in stream.events(4, 5)]
        assert got == [1, 2, 3, 2]
        status, doc = server.post("/api/join", body={"name": "Bo"})
        assert status == 200
        server.post("/api/finish", doc["token"])
        (_, joined), (_, home) = stream.events(2, 5)
        assert joined["players"][1]["joined"] and home["players"][1]["finished_turn"] == 2
        assert stream.events(1, 0.3) == []  # nothing else was sent
        stream.close()


def test_a_quiet_stream_is_pinged() -> None:
    async def read() -> list[str]:
        hub = Hub('{"turn": 0}')
        stream = hub.stream(ping=0.05)
        out = [await stream.__anext__() for _ in range(3)]
        hub.publish('{"turn": 1}')
        out.append(await stream.__anext__())
        await stream.aclose()
        assert not hub.clients
        return out

    assert asyncio.run(read()) == ['retry: 1000\ndata: {"turn": 0}\n\n', ": ping\n\n", ": ping\n\n",
                                   'data: {"turn": 1}\n\n']


def test_twenty_clients_see_every_one_of_five_turns(game: str) -> None:
    dice = load_dice()
    with serving(game) as server:
        streams = [Stream(server.port) for _ in range(20)]
        for s in streams:
            assert [st["turn"] for _, st in s.events(1, 5)] == [0]
        for _ in range(5):
            assert server.post("/api/next", server.host_key())[0] == 200
        for s in streams:
            seen = [st for _, st in s.events(5, 10)]
            assert [st["turn"] for st in seen] == [1, 2, 3, 4, 5]
            assert [st["dice"] for st in seen] == [list(turn_roll(dice, 7, t).dice) for t in range(1, 6)]
            s.close()


def _start(*args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """`printkit party ARGS --port 0` in a child; its printed links once it listens."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "printkit", "party", *args, "--port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    found: dict[str, str] = {}
    deadline = time.monotonic() + 30
    assert child.stdout is not None
    while "ctrl" not in found and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        if m := re.match(r"(Host screen|Players join): (\S+)$", line.strip()):
            found[m[1]] = m[2]
        if line.startswith("Press Ctrl-C"):
            found["ctrl"] = line
    assert "ctrl" in found, (child.poll(), child.stderr.read() if child.poll() is not None else "")
    return child, found


def test_kill_9_and_a_restart_resume_the_game_exactly(tmp_path: Path) -> None:
    from party_server import Server

    from printkit.party.game import Table

    game = str(tmp_path / "game.json")
    child, links = _start("--game", game, "--map", "world", "--players", "Ann,Bo,Cy", "--mode", "party", "--seed", "11")
    try:
        host = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/host\?key=([\w-]{32})", links["Host screen"])
        assert host and re.fullmatch(rf"http://127\.0\.0\.1:{host[1]}/join", links["Players join"])
        server = Server(int(host[1]), None)
        for _ in range(3):
            assert server.post("/api/next", host[2])[0] == 200
        status, joined = server.post("/api/join", body={"name": "Cy"})
        assert server.post("/api/finish", joined["token"])[0] == 200
        before = Table(game).state()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    status_out = subprocess.run([sys.executable, "-m", "printkit", "turns", "status", "--state", game],
                                capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Turn 3 of 20" in status_out.stdout and "Finished: Cy on turn 3, speed bonus 17" in status_out.stdout
    again, links2 = _start("--game", game)
    try:
        port, key = re.findall(r":(\d+)/host\?key=(\S+)", links2["Host screen"])[0]
        assert key == host[2]  # the same host link works again
        server = Server(int(port), None)
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
        conn.request("GET", "/api/state")
        assert json.loads(conn.getresponse().read()) == before
        assert server.post("/api/next", key)[1]["turn"] == 4
    finally:
        again.send_signal(signal.SIGINT)
        again.wait(10)
    assert again.returncode == 0 and "Stopped. The game is saved in" in again.stdout.read()
