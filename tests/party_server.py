"""A real `printkit party` server on 127.0.0.1 in a thread, and a bounded event-stream reader (tests, benchmark)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Server:
    """The address of a running server and its table."""

    def __init__(self, port: int, table: Any) -> None:
        self.port, self.table = port, table

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def post(self, path: str, token: str = "", body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request("POST", path, json.dumps(body or {}), headers)
        r = conn.getresponse()
        doc = json.loads(r.read() or b"{}")
        conn.close()
        return r.status, doc

    def host_key(self) -> str:
        return str(self.table.side.host_key)


@contextmanager
def serving(game_path: str) -> Iterator[Server]:
    """Serve the game at ``game_path`` on a free loopback port until the block ends."""
    import uvicorn

    from printkit.party.game import Table
    from printkit.party.routes import create_app
    from printkit.party.serve import LOOPBACK, bind

    table = Table(game_path)
    sock = bind(LOOPBACK, 0)
    port = sock.getsockname()[1]
    app = create_app(table, f"http://{LOOPBACK}:{port}/join", [LOOPBACK, "localhost"])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Server(port, table)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


class Stream:
    """One event-stream client on a raw socket: each ``data:`` event as (arrival time, state), read with a deadline."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n"
                          .encode())
        self.buffer = b""
        self.head = b""
        self.comments: list[str] = []

    def _fill(self, deadline: float) -> bool:
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = self.sock.recv(65536)
        except (TimeoutError, socket.timeout):
            return False
        if not chunk:
            raise ConnectionError("the server closed the stream")
        self.buffer += chunk
        if not self.head and b"\r\n\r\n" in self.buffer:
            self.head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return True

    def events(self, count: int, seconds: float) -> list[tuple[float, dict[str, Any]]]:
        """The next ``count`` states (fewer if ``seconds`` run out first)."""
        deadline = time.monotonic() + seconds
        found: list[tuple[float, dict[str, Any]]] = []
        while len(found) < count and time.monotonic() < deadline:
            found += self._parse()
            if len(found) < count and not self._fill(deadline):
                break
        found += self._parse() if len(found) < count else []
        return found

    def _parse(self) -> list[tuple[float, dict[str, Any]]]:
        out = []
        text = self._dechunk()
        while "\n\n" in text:
            block, text = text.split("\n\n", 1)
            for line in block.splitlines():
                if line.startswith("data: "):
                    out.append((time.monotonic(), json.loads(line[6:])))
                elif line.startswith(":"):
                    self.comments.append(line)
        self.pending = text
        return out

    def _dechunk(self) -> str:
        """The body so far without HTTP/1.1 chunk framing (kept whole until a chunk is complete)."""
        text = getattr(self, "pending", "")
        while self.head and b"\r\n" in self.buffer:
            size_line, rest = self.buffer.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0] or b"0", 16)
            if len(rest) < size + 2:
                break
            text += rest[:size].decode()
            self.buffer = rest[size + 2:]
        self.pending = ""
        return text

    def close(self) -> None:
        self.sock.close()
