"""How `printkit party` holds up: many phones on the event stream, and photos uploaded at once.

Run from the repository root (needs the party and scan extras):

    python benchmarks/bench_party.py [--clients 100] [--turns 20] [--uploads 20]

Starts `printkit party` in a child process on 127.0.0.1 (loopback only, a
free port), opens ``--clients`` event streams, plays ``--turns`` turns with
the host's ``next`` and records, for every turn and every stream, the time
from sending ``next`` to the stream's event for that turn; checks that every
stream saw every turn in order. Then ``--uploads`` players each upload a
2 MB photo of a filled-in sheet (the scan test pen) at the same time, and one
more alone. Prints the p95 next->phone latency, the time to score one 2 MB
photo, and the server's peak memory (VmHWM) during the uploads, beside their
targets; exits 1 if one is missed. Every request loop is bounded in count and
in time, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the simulated pen and camera, the stream reader

from party_server import Stream  # noqa: E402

TARGET_P95_MS = 250.0
TARGET_PHOTO_S = 2.0
TARGET_MEMORY_MB = 500.0
DEADLINE_S = 300.0


def start_server(game: str, players: int) -> tuple[subprocess.Popen[str], int, str]:
    """`printkit party` on a free loopback port: the child, its port and the host key."""
    names = ",".join(f"P{k:03d}" for k in range(1, players + 1))
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "printkit", "party", "--game", game, "--players", names,
                              "--seed", "1", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    assert child.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if m := re.match(r"Host screen: http://127\.0\.0\.1:(\d+)/host\?key=(\S+)", line):
            port, key = int(m[1]), m[2]
        if line.startswith("Press Ctrl-C") or not line:
            break
    threading.Thread(target=child.stdout.read, daemon=True).start()  # keep its pipe drained
    return child, port, key


def post(port: int, path: str, token: str = "", body: bytes = b"{}", kind: str = "application/json") -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", path, body, {"Authorization": f"Bearer {token}", "Content-Type": kind})
    r = conn.getresponse()
    doc = json.loads(r.read() or b"{}")
    conn.close()
    return r.status, doc


def streams_over_turns(port: int, key: str, clients: int, turns: int) -> list[float]:
    """Every stream's latency (ms) for every turn; raises if a stream missed or reordered one."""
    streams = [Stream(port) for _ in range(clients)]
    for s in streams:
        assert [st["turn"] for _, st in s.events(1, 10)] == [0]
    seen: list[list[tuple[float, dict]]] = [[] for _ in streams]

    def read(k: int) -> None:
        seen[k] = streams[k].events(turns, 120)

    readers = [threading.Thread(target=read, args=(k,)) for k in range(clients)]
    for t in readers:
        t.start()
    sent: list[float] = []
    for _ in range(turns):
        sent.append(time.monotonic())
        assert post(port, "/api/next", key)[0] == 200
        time.sleep(0.05)  # a host presses next no faster than this; each turn's events are timed on their own
    for t in readers:
        t.join(130)
    latencies = []
    for k, events in enumerate(seen):
        assert [st["turn"] for _, st in events] == list(range(1, turns + 1)), f"stream {k} saw {len(events)} turns"
        latencies += [(at - sent[st["turn"] - 1]) * 1000 for at, st in events]
    for s in streams:
        s.close()
    return latencies


def photo_bytes() -> bytes:
    """About 2 MB: a filled-in sheet without a name (any player's) photographed at 300 dpi, JPEG 92."""
    import scan_simulate as sim
    from scan_degrade import Capture
    from scan_helpers import photo

    filled = sim.Filled(("souvenirs.mugs.1", "sights.food.1"), ("london-new-york",), "new-york")
    return photo("world", "a4", (), 0, filled, shot=Capture(dpi=300, rotation=2.0, tilt=4.0, blur=0.4, light=0.2,
                                                           noise=3, jpeg=92))


def multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"sheet.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def peak_memory_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), MB."""
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", text)[1]) / 1024  # type: ignore[index]


def uploads(port: int, count: int, data: bytes, pid: int) -> tuple[float, float, float]:
    """One photo alone (seconds, after a first one warmed the scan up), then ``count`` at once (seconds for
    all); the server's peak memory (MB)."""
    tokens = [post(port, "/api/join", body=json.dumps({"name": f"P{k:03d}"}).encode())[1]["token"]
              for k in range(1, count + 2)]
    body, kind = multipart(data)
    for _ in range(2):  # the first photo also loads OpenCV and draws the blank sheet once
        start = time.monotonic()
        status, doc = post(port, "/api/sheet", tokens[-1], body, kind)
        alone = time.monotonic() - start
        assert status == 200, doc
    results: list[int] = []

    def one(token: str) -> None:
        results.append(post(port, "/api/sheet", token, body, kind)[0])

    threads = [threading.Thread(target=one, args=(t,)) for t in tokens[:count]]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(DEADLINE_S)
    together = time.monotonic() - start
    assert results == [200] * count, results
    return alone, together, peak_memory_mb(pid)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--uploads", type=int, default=20)
    args = parser.parse_args()
    data = photo_bytes()
    with tempfile.TemporaryDirectory() as folder:
        child, port, key = start_server(str(Path(folder) / "game.json"), max(args.clients, args.uploads + 1, 7))
        try:
            latencies = sorted(streams_over_turns(port, key, args.clients, args.turns))
            p95 = latencies[int(0.95 * (len(latencies) - 1))]
            alone, together, memory = uploads(port, args.uploads, data, child.pid)
        finally:
            child.terminate()
            child.wait(20)
    rows = [(f"next -> phone p95 ({args.clients} streams x {args.turns} turns, ms)", p95, TARGET_P95_MS),
            (f"a {len(data) / 2**20:.1f} MB photo scored (s)", alone, TARGET_PHOTO_S),
            (f"server peak memory, {args.uploads} uploads at once (MB)", memory, TARGET_MEMORY_MB)]
    for label, value, target in rows:
        print(f"{label:<58} {value:8.1f}   target <= {target:g}  {'ok' if value <= target else 'MISSED'}")
    print(f"{'next -> phone max (ms)':<58} {latencies[-1]:8.1f}")
    print(f"{f'{args.uploads} photos at once, all scored (s)':<58} {together:8.1f}")
    return 0 if all(value <= target for _, value, target in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
