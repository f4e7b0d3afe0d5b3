"""A sweep of the party server's HTTP surface with hostile and careless requests: never a 500, a traceback or a hang;
a refusal is one JSON line and changes nothing; nothing from another site, and no form or plain text, changes the game.

Every endpoint gets every body (the one JSON reader's limits, wrong types, what a
form sends), every header a browser or a forger might send (Origin,
Sec-Fetch-Site, Content-Type, Authorization, Host) and every method, through
Starlette's test client; then the same hostile bodies, raw and malformed HTTP go to
a real uvicorn server on 127.0.0.1 whose log is watched for a traceback. Checks:
no answer is a 5xx (but 501, the scan extra missing); an error is ``{"error":
<one line>}``; a refused change leaves the game file and the party's file byte for
byte as they were; a change from another origin or in a form or plain text is
refused. ``SWEEP_REPORT=1 pytest -s tests/test_sweep_party.py`` prints the totals.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import socket
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from sweep_tally import Hang, Tally, timed

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from printkit.loading.maps import load_map  # noqa: E402
from printkit.party import routes  # noqa: E402
from printkit.party.game import Table, start_game  # noqa: E402

SECONDS = 30
KINDS = ("500s", "tracebacks", "hangs", "unclear errors", "changes on refusal", "cross-site changes")
NAMES = ("Ann", "Bo", "Cy")
OWN = "http://testserver"
EVIL = "x\x1b]0;pwned\x07\u202e"
JSON = {"Content-Type": "application/json"}
POSTS = ("/api/join", "/api/leave", "/api/next", "/api/undo", "/api/end", "/api/finish", "/api/confirm", "/api/sheet")
GETS = ("/", "/host", "/join", "/play", "/api/state", "/api/me")


def bodies() -> Iterator[tuple[str, bytes]]:
    """JSON bodies: good, past each limit of the one reader, of every wrong type."""
    for depth in (31, 32, 33, 2000):
        yield f"nested {depth}", b'{"name": "Ann", "x": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
    yield "objects 500 deep", b'{"name": ' + b'{"a": ' * 500 + b"1" + b"}" * 501
    for number in ("NaN", "Infinity", "-Infinity", "1e400", "9" * 3000, str(2**63), str(2**63 - 1), "-0", "1.0", "3"):
        yield f"total {number[:20]}", f'{{"name": "Ann", "total": {number}}}'.encode()
    for value in (None, True, 1, 1.5, "", " ", "a" * 3000, EVIL, "ann", "ANN", "Zed", [], {}, ["Ann"], "Ann\u0000",
                  "Chr\ud800is", -1, 1000, 1001, 0):
        text = json.dumps(value)
        yield f"name {text[:20]}", f'{{"name": {text}, "total": {text}}}'.encode()
    yield "key twice", b'{"name": "Ann", "name": "Bo"}'
    yield "bom", b'\xef\xbb\xbf{"name": "Ann"}'
    yield "not utf-8", b'{"name": "\xff"}'
    yield "utf-16", '{"name": "Ann"}'.encode("utf-16")
    yield "cut", b'{"name": "Ann"'
    yield "trailing", b'{"name": "Ann"} []'
    for name, body in (("empty", b""), ("spaces", b"   "), ("null", b"null"), ("list", b'["Ann"]'), ("number", b"7"),
                       ("string", b'"Ann"'), ("form", b"name=Ann"), ("5 KB", b'{"name": "' + b"a" * 5000 + b'"}'),
                       ("junk", bytes(range(256)))):
        yield name, body


BODIES = list(bodies())
HEADERS: list[tuple[str, dict[str, str]]] = [
    ("own origin", {"Origin": OWN, "Sec-Fetch-Site": "same-origin"}),
    ("own origin, other case", {"Origin": "HTTP://TestServer"}),
    ("another site", {"Origin": "http://evil.example"}),
    ("another port", {"Origin": "http://testserver:8080"}),
    ("null origin", {"Origin": "null"}),
    ("a path in the origin", {"Origin": "http://testserver/../evil"}),
    ("same-site", {"Sec-Fetch-Site": "same-site"}),
    ("cross-site", {"Sec-Fetch-Site": "cross-site"}),
    ("odd sec-fetch-site", {"Sec-Fetch-Site": "x" * 500}),
    ("text/plain", {"Content-Type": "text/plain"}),
    ("a form", {"Content-Type": "application/x-www-form-urlencoded"}),
    ("multipart", {"Content-Type": "multipart/form-data; boundary=x"}),
    ("json with a charset", {"Content-Type": "application/json; charset=utf-8"}),
    ("json5", {"Content-Type": "application/json5"}),
    ("no key", {"Authorization": ""}),
    ("a wrong key", {"Authorization": "Bearer wrong"}),
    ("basic", {"Authorization": "Basic QW5uOkJv"}),
    ("bearer alone", {"Authorization": "Bearer"}),
    ("a long key", {"Authorization": "Bearer " + "k" * 8000}),
]
"""Each header a browser or a forger might send, put over the good ones (the right key, JSON, no origin)."""
CROSS = {"another site", "another port", "null origin", "a path in the origin", "same-site", "cross-site",
         "odd sec-fetch-site", "text/plain", "a form", "multipart", "json5"}
"""The header sets that must be refused on every JSON endpoint whatever the body."""
UPLOADS: list[tuple[str, dict[str, Any]]] = [
    ("raw bytes", {"content": b"\xff\xd8\xff" + b"\x00" * 100}),
    ("a form without the photo", {"files": {"other": ("a.jpg", io.BytesIO(b"\xff\xd8\xff"), "image/jpeg")}}),
    ("text as a photo", {"files": {"photo": ("a.txt", io.BytesIO(b"hello"), "text/plain")}}),
    ("a cut jpeg", {"files": {"photo": ("a.jpg", io.BytesIO(b"\xff\xd8\xff\xe0" + b"\x00" * 50), "image/jpeg")}}),
    ("a png header only", {"files": {"photo": ("a.png", io.BytesIO(b"\x89PNG\r\n\x1a\n"), "image/png")}}),
    ("an empty photo", {"files": {"photo": ("a.jpg", io.BytesIO(b""), "image/jpeg")}}),
    ("a bad boundary", {"content": b"--y\r\n\r\n--y--", "headers": {"Content-Type": "multipart/form-data; boundary=x"}}),
    ("a huge length", {"content": b"--x--", "headers": {"Content-Type": "multipart/form-data; boundary=x",
                                                       "Content-Length": str(10**12)}}),
    ("an evil file name", {"files": {"photo": (f"../../{EVIL}.jpg", io.BytesIO(b"\xff\xd8\xff"), "image/jpeg")}}),
]


class Party:
    """A party game served through Starlette's test client, and what a case may not change."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "game.json"
        start_game(str(self.path), load_map("world"), NAMES, "party", 42)
        self.table = Table(str(self.path))
        self.client = TestClient(routes.create_app(self.table, "http://127.0.0.1:8765/join", ["testserver"]),
                                 raise_server_exceptions=False)
        self.client.__enter__()
        self.player = self.join()

    def join(self) -> str:
        for name in NAMES:
            r = self.client.post("/api/join", json={"name": name})
            if r.status_code == 200:
                return str(r.json()["token"])
        self.client.post("/api/leave", json={"name": "Cy"}, headers=self.auth("/api/leave"))
        return str(self.client.post("/api/join", json={"name": "Cy"}).json()["token"])

    def auth(self, path: str) -> dict[str, str]:
        """The right key for ``path``: the host's, or the player's."""
        key = self.table.side.host_key if path in ("/api/leave", "/api/next", "/api/undo", "/api/end") else self.player
        return {"Authorization": f"Bearer {key}"}

    def files(self) -> str:
        """The game file and the party's own file, by content."""
        return "".join(hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in (self.path, self.table.side_path))

    def close(self) -> None:
        self.client.__exit__(None, None, None)


@pytest.fixture
def party(tmp_path: Path) -> Iterator[Party]:
    made = Party(tmp_path)
    yield made
    made.close()


class Traces(logging.Handler):
    """Every log record that carries an exception (a traceback in the host's terminal)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.seen.append(f"{record.name}: {record.getMessage()[:100]}")


@pytest.fixture
def traces() -> Iterator[Traces]:
    handler = Traces()
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


def check(tally: Tally, party: Party, traces: Traces, name: str, method: str, path: str,
          changes: bool = True, cross: bool = False, host: bool = False, **request: Any) -> None:
    """Send one request and count what it got wrong (``host``: a Host the server does not answer to, refused by
    Starlette's host check with its one plain line)."""
    tally.case()
    before, seen = party.files(), len(traces.seen)
    answer = timed(SECONDS, lambda: party.client.request(method, path, **request))
    if isinstance(answer, Hang):
        tally.failed("hangs", name)
        return
    status = answer.status_code
    if status >= 500 and status != 501:
        tally.failed("500s", f"{name}: {status} {answer.text[:100]}")
    if len(traces.seen) > seen:
        tally.failed("tracebacks", f"{name}: {traces.seen[seen]}")
    if host and (status, answer.text) != (400, "Invalid host header"):
        tally.failed("unclear errors", f"{name}: {status} {answer.text[:100]!r}")
    elif status >= 400 and path.startswith("/api/") and method != "HEAD" and not host:
        try:
            said = answer.json()["error"]
            clear = isinstance(said, str) and "\n" not in said and not any(c in said for c in "\x1b\x07\u202e")
        except (ValueError, KeyError, TypeError):
            clear = False
        if not clear:
            tally.failed("unclear errors", f"{name}: {status} {answer.text[:100]!r}")
    if status >= 400 and changes and party.files() != before:
        tally.failed("changes on refusal", f"{name}: {status}")
    if cross and status < 400:
        tally.failed("cross-site changes", f"{name}: {status}")


def test_every_body_on_every_json_endpoint(party: Party, traces: Traces) -> None:
    tally = Tally("party: bodies x endpoints", KINDS)
    for path in POSTS:
        for name, body in BODIES:
            headers = {**JSON, **party.auth(path)}
            check(tally, party, traces, f"{path} {name}", "POST", path, content=body, headers=headers)
    tally.report()
    assert tally.problems() == []
    assert tally.cases == len(POSTS) * len(BODIES) >= 400


def test_every_header_on_every_endpoint(party: Party, traces: Traces) -> None:
    tally = Tally("party: headers x endpoints", KINDS)
    for path in POSTS:
        for name, extra in HEADERS:
            for body in (b'{"name": "Bo"}', b""):
                headers = {**JSON, **party.auth(path), **extra}
                if "Authorization" in extra and not extra["Authorization"]:
                    headers.pop("Authorization")
                refused = name in CROSS and not (path == "/api/sheet" and name in ("text/plain", "a form", "json5"))
                check(tally, party, traces, f"{path} {name}", "POST", path, content=body, headers=headers,
                      cross=refused and (bool(body) or "Origin" in extra or "Sec-Fetch-Site" in extra))
    for name, upload in UPLOADS:
        request = {**upload, "headers": {**party.auth("/api/sheet"), **upload.get("headers", {})}}
        check(tally, party, traces, f"/api/sheet {name}", "POST", "/api/sheet", **request)
        request["headers"] = {**request["headers"], "Origin": "http://evil.example"}
        check(tally, party, traces, f"/api/sheet {name} from another site", "POST", "/api/sheet", cross=True,
              **request)
    tally.report()
    assert tally.problems() == []
    assert tally.cases == len(POSTS) * len(HEADERS) * 2 + 2 * len(UPLOADS)


def test_every_method_path_and_host(party: Party, traces: Traces) -> None:
    tally = Tally("party: methods, paths and hosts", KINDS)
    for path in POSTS + GETS:
        for method in ("GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "POST"):
            check(tally, party, traces, f"{method} {path}", method, path, content=b'{"name": "Bo"}',
                  headers={**JSON, **party.auth(path), "Origin": "http://evil.example"},
                  cross=method in ("PUT", "PATCH", "DELETE", "POST"))
    odd = ["/api/../api/state", "/%2e%2e/%2e%2e/etc/passwd", "/api/state?" + "x" * 5000, "/host?key=" + quote(EVIL),
           "/" + "a" * 5000, "/api/state/", "/API/STATE", "/api/sheet/../join", "/static/app.js", "/join%00",
           "/play?token=" + "t" * 3000, "/api/%FF", "/api/" + quote("東京" * 100)]
    for path in odd:
        for method in ("GET", "POST"):
            check(tally, party, traces, f"{method} {path[:40]}", method, path, content=b"{}", headers=JSON)
    for host in ("evil.example", "", "127.0.0.1", "a" * 3000, "testserver.evil.example"):  # DNS rebinding
        check(tally, party, traces, f"Host {host[:20]}", "POST", "/api/join", content=b'{"name": "Bo"}',
              headers={**JSON, "Host": host}, cross=True, host=True)
    tally.report()
    assert tally.problems() == []


def raw(port: int, request: bytes) -> bytes:
    """Send raw bytes to the server and read its answer: the head and the body its length gives (or the head alone),
    until it closes or 10 s pass."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                head, blank, body = answer.partition(b"\r\n\r\n")
                lengths = [int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                           if line.startswith(b"content-length:")]
                if blank and (not lengths or len(body) >= lengths[0]):
                    break
        except (TimeoutError, ConnectionResetError):
            pass
    return answer


def test_a_real_server_prints_no_traceback_for_anything(tmp_path: Path, traces: Traces,
                                                       capfd: pytest.CaptureFixture[str]) -> None:
    """The issue's crash: 2,000 brackets to /api/join answered 500 and printed a RecursionError in the host's terminal."""
    from party_server import serving

    tally = Tally("party: a real server, raw requests", KINDS)
    path = tmp_path / "game.json"
    start_game(str(path), load_map("world"), NAMES, "party", 42)
    with serving(str(path)) as server:
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):  # uvicorn's own loggers do not reach the root's
            logging.getLogger(name).addHandler(traces)
        host = f"Host: 127.0.0.1:{server.port}\r\n".encode()
        key = server.host_key().encode()

        def post(target: str, body: bytes, headers: bytes = b"Content-Type: application/json\r\n") -> bytes:
            return (b"POST " + target.encode() + b" HTTP/1.1\r\n" + host + headers + b"Authorization: Bearer " + key +
                    b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)

        requests = [(f"{target} {name}", post(target, body)) for target in ("/api/join", "/api/leave")
                    for name, body in BODIES]
        requests += [
            ("text/plain join from a page", post("/api/join", b'{"name": "Ann"}',
                                                 b"Content-Type: text/plain\r\nOrigin: http://evil.example\r\n")),
            ("a body longer than its length", post("/api/join", b'{"name": "Ann"}')[:-3] + b"\r\n\r\nGET / HTTP/1.1"),
            ("a length that lies", post("/api/join", b'{"name"').replace(b"Content-Length: 7", b"Content-Length: 99")),
            ("a negative length", post("/api/join", b"{}").replace(b"Content-Length: 2", b"Content-Length: -2")),
            ("a chunked body of nonsense", b"POST /api/join HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
             b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
            ("a chunked deep body", b"POST /api/join HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
             b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + b"%x\r\n" % 4000 + b"[" * 2000 + b"]" * 2000 +
             b"\r\n0\r\n\r\n"),
            ("not http", b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(64))),
            ("a header line of 100 KB", b"GET /api/state HTTP/1.1\r\n" + host + b"X: " + b"a" * 100_000 + b"\r\n\r\n"),
            ("no host", b"POST /api/join HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"),
            ("an escape in the origin from a page", post("/api/join", b'{"name": "Ann"}', b"Content-Type: application/"
                                                          b"json\r\nOrigin: http://x\x1b]0;pwned\x07\r\n")),
            ("latin-1 in the origin from a page", post("/api/join", b'{"name": "Ann"}', b"Content-Type: application/"
                                                        b"json\r\nOrigin: http://\xe9vil.example\r\n")),
            ("events, then gone", b"GET /api/events HTTP/1.1\r\n" + host + b"\r\n"),
        ]
        for name, request in requests:
            tally.case()
            before = len(traces.seen)
            answer = timed(SECONDS, lambda: raw(server.port, request))
            if isinstance(answer, Hang):
                tally.failed("hangs", name)
                continue
            status = answer[9:12]
            if status.startswith(b"5") and status != b"501":
                tally.failed("500s", f"{name}: {answer[:80]!r}")
            printed = capfd.readouterr().err
            if len(traces.seen) > before or "Traceback" in printed:
                tally.failed("tracebacks", f"{name}: {(traces.seen[before:] or [printed])[0][:100]}")
            if "page" in name and status == b"200":
                tally.failed("cross-site changes", name)
        state = json.loads(raw(server.port, b"GET /api/state HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
                           .partition(b"\r\n\r\n")[2])
        assert state["turn"] == 0
        printed = capfd.readouterr().err  # what the last cases left the server to log
        if len(traces.seen) > before or "Traceback" in printed:
            tally.failed("tracebacks", f"after the last case: {(traces.seen[before:] or [printed])[0][:100]}")
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
            logging.getLogger(name).removeHandler(traces)
    tally.report()
    assert tally.problems() == []
    assert tally.cases == len(requests) >= 100
