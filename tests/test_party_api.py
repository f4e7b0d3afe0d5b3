"""`printkit party`'s JSON API through Starlette's test client: every endpoint, keys and tokens, uploads."""

from __future__ import annotations

import io
import struct
import time
import warnings
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # Starlette 1.x would rather drive its test client with httpx2; httpx works
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from printkit.cli import cli  # noqa: E402
from printkit.loading.dice import load_dice  # noqa: E402
from printkit.loading.maps import load_map  # noqa: E402
from printkit.party import routes  # noqa: E402
from printkit.party.game import Table, start_game  # noqa: E402
from printkit.party.pages import render_page  # noqa: E402
from printkit.party.sheets import MAX_UPLOAD_BYTES  # noqa: E402
from printkit.rules.dice import turn_roll  # noqa: E402
from printkit.scan.images import MAX_PIXELS  # noqa: E402

NAMES = ("Ann", "Bo", "Cy")
SEED = 42
JOIN = "http://127.0.0.1:8765/join"
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    start_game(str(path), load_map("world"), NAMES, "party", SEED)
    return path


@pytest.fixture
def table(game: Path) -> Table:
    return Table(str(game))


@pytest.fixture
def client(table: Table) -> Iterator[TestClient]:
    with TestClient(routes.create_app(table, JOIN, ["testserver"])) as c:
        yield c


def host(table: Table) -> dict[str, str]:
    return {"Authorization": f"Bearer {table.side.host_key}"}


def join(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/join", json={"name": name})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_state_has_the_documented_keys(client: TestClient) -> None:
    state = client.get("/api/state").json()
    assert {"turn", "turns", "dice", "actions", "navigator", "players", "over"} <= set(state)
    assert (state["turn"], state["turns"], state["dice"], state["actions"], state["over"]) == (0, 20, None, [], False)
    assert state["players"] == [{"name": n, "finished_turn": None, "total": None, "bonus": None, "joined": False}
                                for n in NAMES]


def test_host_actions_need_the_host_key(client: TestClient, table: Table) -> None:
    for path in ("/api/next", "/api/undo", "/api/end", "/api/leave"):
        assert client.post(path).status_code == 401
        assert client.post(path, headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert client.post(path, headers={"Authorization": table.side.host_key}).status_code == 401  # no "Bearer"
    assert client.get("/api/state").json()["turn"] == 0
    assert len(table.side.host_key) >= 22  # at least 128 bits, url-safe base64


def test_next_undo_end_drive_the_game_file(client: TestClient, table: Table, game: Path) -> None:
    dice = load_dice()
    for turn in (1, 2, 3):
        state = client.post("/api/next", headers=host(table)).json()
        roll = turn_roll(dice, SEED, turn)
        assert (state["turn"], state["dice"], state["actions"]) == (turn, list(roll.dice), list(roll.actions))
        assert state["text"] == roll.text
    assert client.post("/api/undo", headers=host(table)).json()["turn"] == 2
    status = CliRunner().invoke(cli, ["turns", "status", "--state", str(game)])
    assert f"Turn 2 of 20: {turn_roll(dice, SEED, 2).text}" in status.stdout
    state = client.post("/api/end", headers=host(table)).json()
    assert state["over"] and state["over_reason"] == "the host ended it after turn 2 of 20"
    r = client.post("/api/next", headers=host(table))
    assert r.status_code == 409 and r.json()["error"].startswith("the game is over")
    assert not client.post("/api/undo", headers=host(table)).json()["over"]


def test_a_change_by_another_command_reaches_the_server(client: TestClient, table: Table, game: Path) -> None:
    assert CliRunner().invoke(cli, ["turns", "next", "--state", str(game)]).exit_code == 0
    assert table.refresh() and not table.refresh()
    assert table.state()["turn"] == 1


def test_join_gives_one_token_per_player(client: TestClient, table: Table) -> None:
    assert client.post("/api/join", json={"name": "Zed"}).status_code == 404
    assert client.post("/api/join", json={"nom": "Ann"}).status_code == 422
    assert client.post("/api/join", content=b"not json", headers=JSON).status_code == 400
    ann = join(client, "ann")  # names match ignoring case
    assert client.get("/api/me", headers=ann).json() == {"name": "Ann"}
    again = client.post("/api/join", json={"name": "ANN"})
    assert again.status_code == 409 and "already joined" in again.json()["error"]
    assert [p["joined"] for p in client.get("/api/state").json()["players"]] == [True, False, False]
    assert client.post("/api/leave", json={"name": "Ann"}, headers=ann).status_code == 401  # a player is no host
    assert client.post("/api/leave", json={"name": "Ann"}, headers=host(table)).status_code == 200
    assert client.get("/api/me", headers=ann).status_code == 401  # the freed name's old token is void
    fresh = join(client, "Ann")
    assert client.get("/api/me", headers=fresh).json() == {"name": "Ann"}
    saved = Path(table.side_path).read_text()
    assert fresh["Authorization"].split()[1] not in saved and len(table.side.tokens["Ann"]) == 64  # a digest
    assert Path(table.side_path).stat().st_mode & 0o777 == 0o600


def test_a_player_acts_only_as_themself(client: TestClient, table: Table) -> None:
    bo = join(client, "Bo")
    for path in ("/api/finish", "/api/sheet", "/api/confirm"):
        assert client.post(path).status_code == 401
        assert client.post(path, headers={"Authorization": "Bearer " + table.side.host_key}).status_code == 401
    client.post("/api/next", headers=host(table))
    state = client.post("/api/finish", json={"name": "Ann"}, headers=bo).json()  # the body cannot name another
    assert [p["finished_turn"] for p in state["players"]] == [None, 1, None]
    assert client.post("/api/finish", headers=bo).status_code == 409  # already home
    assert client.post("/api/confirm", json={"name": "Ann", "total": 99}, headers=bo).status_code == 409  # no sheet


def test_a_restart_resumes_the_game_and_the_phones(client: TestClient, table: Table, game: Path) -> None:
    ann = join(client, "Ann")
    for _ in range(4):
        client.post("/api/next", headers=host(table))
    client.post("/api/finish", headers=ann)
    before = client.get("/api/state").json()
    again = Table(str(game))
    assert again.state() == before and again.side.host_key == table.side.host_key
    with TestClient(routes.create_app(again, JOIN, ["testserver"])) as second:
        assert second.get("/api/me", headers=ann).json() == {"name": "Ann"}
        assert second.post("/api/next", headers=host(table)).json()["turn"] == 5


def test_only_the_pages_and_the_api_are_served(client: TestClient) -> None:
    for path in ("/static/../../etc/passwd", "/templates/party_host.html.j2", "/party_base.html.j2", "/..%2f..%2fetc"):
        assert client.get(path).status_code == 404
    assert client.get("/", follow_redirects=False).headers["location"] == "/join"
    page = client.get("/host")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
    assert client.get("/api/state", headers={"Host": "attacker.example"}).status_code == 400  # DNS rebinding


def test_names_and_map_text_are_escaped_in_every_page(table: Table) -> None:
    state = table.state()
    state["map"]["name"] = "<script>alert(1)</script>"
    state["players"][0]["name"] = '<img src=x onerror="alert(2)">'
    for page in ("host", "join", "play"):
        html = render_page(page, "n0nce", state, JOIN)
        assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<img src=x" not in html
        assert "<\\/script>" in html or "\\u003c/script\\u003e" in html  # the JSON block cannot close its script


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR claiming ``width`` x ``height`` (and no pixel data)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def jpeg_header(width: int, height: int) -> bytes:
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + bytes(9) + sof


def upload(client: TestClient, headers: dict[str, str], data: bytes, kind: str = "image/jpeg") -> tuple[int, str, float]:
    start = time.monotonic()
    r = client.post("/api/sheet", headers=headers, files={"photo": ("sheet.jpg", io.BytesIO(data), kind)})
    return r.status_code, r.json().get("error", ""), time.monotonic() - start


def test_bad_uploads_are_refused_at_once_and_the_server_carries_on(client: TestClient) -> None:
    pytest.importorskip("cv2")  # the pixel budget is the scan's
    ann = join(client, "Ann")
    cases = [
        (b"\xff\xd8\xff" + bytes(MAX_UPLOAD_BYTES + 1), 413, "over 15 MB"),
        (png_header(100_000, 100_000), 413, f"more than the {MAX_PIXELS // 10**6} megapixels scan decodes"),
        (jpeg_header(65_000, 65_000), 413, "(4225 megapixels)"),  # too big even at 1/8
        (b"%PDF-1.7 not a photo", 415, "JPEG or PNG"),
        (b"\xff\xd8\xff\xe0garbage", 422, "not a readable"),
        (png_header(10, 10), 422, "not a readable"),
        (b"", 422, "empty"),
    ]
    for data, status, words in cases:
        code, message, seconds = upload(client, ann, data)
        assert (code, seconds < 1.0) == (status, True), (code, message, seconds)
        assert words in message
    code, message, _ = upload(client, ann, png_header(10, 10), kind="text/html")
    assert (code, message) == (415, "the photo must be an image (JPEG or PNG), not text/html")
    r = client.post("/api/sheet", headers=ann, content=b"raw bytes")
    assert r.status_code == 415
    r = client.post("/api/sheet", headers={**ann, "Content-Type": "multipart/form-data; boundary=x"},
                    content=b"--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nhi\r\n--x--\r\n")
    assert (r.status_code, r.json()["error"]) == (422, "the form has no file in the field 'photo'")
    assert client.get("/api/state").status_code == 200


def test_an_oversized_stream_without_length_is_cut_off(client: TestClient) -> None:
    ann = join(client, "Ann")

    def body() -> Iterator[bytes]:
        yield b"--x\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\n\xff\xd8\xff"
        for _ in range(20):
            yield bytes(2**20)

    start = time.monotonic()
    r = client.post("/api/sheet", headers={**ann, "Content-Type": "multipart/form-data; boundary=x"}, content=body())
    assert r.status_code == 413 and time.monotonic() - start < 2.0


def test_without_the_scan_extra_a_sheet_is_501(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(routes, "scan_available", lambda: False)
    code, message, _ = upload(client, join(client, "Ann"), png_header(10, 10))
    assert (code, message) == (501, 'reading sheets needs the scan extra: pip install "printkit-travel[scan]"')


def test_a_photographed_sheet_is_scored_confirmed_and_corrected(client: TestClient, table: Table) -> None:
    pytest.importorskip("cv2")
    import scan_simulate as sim
    from scan_helpers import photo

    from printkit import registry

    sheets = [sim.Filled(("souvenirs.mugs.1", "souvenirs.mugs.2", "sights.food.1", "regions.north-america"),
                         ("new-york-vancouver", "mexico-city-vancouver", "mexico-city-new-york"), "new-york"),
              sim.Filled(("sights.nature.1",), ("cape-town-perth",), "cape-town")]
    ann, bo = join(client, "Ann"), join(client, "Bo")
    r = client.post("/api/sheet", headers=bo, files={"photo": ("a.jpg", photo("world", "a4", NAMES, 0, sheets[0]))})
    assert (r.status_code, r.json()["error"]) == (422, "this is Ann's sheet, not Bo's")
    r = client.post("/api/sheet", headers=ann, files={"photo": ("a.jpg", photo("world", "a4", NAMES, 0, sheets[0]))})
    truth = {"map": "world", "mode": "solo", "players": [
        {"name": "Ann", "souvenirs": {"mugs": 2}, "sights": {"food": 1},
         "route": ["new-york", "mexico-city", "vancouver", "new-york"]}]}
    expected = registry.score_document(truth, "x", Path("."))[0].to_json()["players"][0]
    assert r.json() == {"name": "Ann", "total": expected["total"], "sections": expected["sections"], "reads": []}
    assert client.get("/api/state").json()["players"][0]["total"] is None  # read, not yet counted
    assert client.post("/api/confirm", headers=ann).json()["players"][0]["total"] == expected["total"]
    assert client.post("/api/confirm", headers=ann, json={"total": -3}).status_code == 422
    assert client.post("/api/confirm", headers=ann, json={"total": 41}).json()["players"][0]["total"] == 41
    assert Table(table.path).state()["players"][0]["total"] == 41  # saved


OWN = "http://testserver"  # the origin of the party's own pages, as the test client is addressed


def test_a_change_from_another_site_is_refused_and_changes_nothing(client: TestClient, table: Table) -> None:
    """Any web page the host has open could post to the party: its Origin (or Sec-Fetch-Site) gives it away."""
    evil = "http://evil.example"
    forged = [
        ({"Origin": evil, "Content-Type": "text/plain"}, b'{"name": "Ann"}'),  # a simple request: no preflight
        ({"Origin": evil, "Content-Type": "application/x-www-form-urlencoded"}, b"name=Ann"),
        ({"Origin": evil, "Content-Type": "multipart/form-data; boundary=x"}, b"--x--"),
        ({"Origin": evil, **JSON}, b'{"name": "Ann"}'),
        ({"Origin": "null", **JSON}, b'{"name": "Ann"}'),  # a sandboxed frame or a file:// page
        ({"Origin": "http://testserver:9999", **JSON}, b'{"name": "Ann"}'),  # another port is another origin
        ({"Sec-Fetch-Site": "cross-site", **JSON}, b'{"name": "Ann"}'),
        ({"Sec-Fetch-Site": "same-site", **JSON}, b'{"name": "Ann"}'),  # 127.0.0.1:other-port is same-site
    ]
    for headers, body in forged:
        r = client.post("/api/join", content=body, headers=headers)
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["error"].startswith("refused: this request comes from another site (")
    for path in ("/api/next", "/api/leave", "/api/finish", "/api/confirm"):
        assert client.post(path, headers={**host(table), "Origin": evil}).status_code == 403
    photo = {"photo": ("a.jpg", io.BytesIO(b"\xff\xd8\xff"), "image/jpeg")}
    assert client.post("/api/sheet", files=photo, headers={"Origin": evil}).status_code == 403
    state = client.get("/api/state").json()
    assert state["turn"] == 0 and not any(p["joined"] for p in state["players"])


def test_only_json_changes_the_game_even_without_an_origin(client: TestClient, table: Table) -> None:
    for kind, body in (("text/plain", b'{"name": "Ann"}'), ("application/x-www-form-urlencoded", b"name=Ann"),
                       ("text/plain;charset=UTF-8", b'{"name": "Ann"}')):
        r = client.post("/api/join", content=body, headers={"Content-Type": kind})
        assert (r.status_code, r.json()) == (415, {"error": f"send the request as application/json, not {kind!r}"})
    r = client.post("/api/join", content=b'{"name": "Ann"}')  # a body with no type at all
    assert (r.status_code, r.json()) == (415, {"error": "send the request as application/json, not untyped"})
    assert client.post("/api/next", headers={**host(table), "Content-Type": "text/plain"}).status_code == 415
    assert not any(p["joined"] for p in client.get("/api/state").json()["players"])
    # the party's own pages: the same origin (as browsers send it), JSON, or no body at all
    own = {"Origin": OWN, "Sec-Fetch-Site": "same-origin"}
    r = client.post("/api/join", json={"name": "Ann"}, headers={**own, "Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    assert client.post("/api/next", headers={**host(table), **own}).json()["turn"] == 1  # no body: {}
    assert client.post("/api/next", headers={**host(table), "Origin": "HTTP://TESTSERVER"}).json()["turn"] == 2


def test_a_bad_json_body_is_a_400_or_422_line_never_a_500(client: TestClient, table: Table) -> None:
    bodies = [
        (b"[" * 2000 + b"]" * 2000, 400, "the request: lists or tables nested more than 32 deep (printkit files nest "
                                         "a few levels)"),
        (b'{"name": ' + b'{"a": ' * 500 + b"1" + b"}" * 501, 400, "the request: lists or tables nested more than 32 "
                                                                     "deep (printkit files nest a few levels)"),
        (b'{"name": "Ann", "name": "Bo"}', 400, "the request: invalid JSON: the key 'name' is given twice in one "
                                                "object (keep one)"),
        (b'{"name": NaN}', 400, "the request: invalid JSON: NaN is not a number printkit reads (use a plain number)"),
        (b'{"name": 1' + b"0" * 3999 + b"}", 400, "the request: invalid JSON: the number 100000000000000000000000000... "
                                                  "is beyond ±9223372036854775807 (numbers in printkit files are far "
                                                  "smaller)"),
        (b'{"name": "Ann"', 400, "the request: line 1, column 15: invalid JSON (Expecting ',' delimiter)"),
        (b'{"name": "\xff"}', 400, "the request: not UTF-8 text"),
        (b'["Ann"]', 422, "the request is not a JSON object {...}"),
        (b'{"name": 7}', 422, 'give your name as {"name": ...}'),
    ]
    for body, status, said in bodies:
        for path, who in (("/api/join", {}), ("/api/leave", host(table))):
            r = client.post(path, content=body, headers={**JSON, **who})
            want = said.replace("your name", "the player") if path == "/api/leave" else said
            assert (r.status_code, r.json()) == (status, {"error": want}), (path, body[:40])
    assert client.post("/api/join", content=b"{" + b" " * 5000 + b"}", headers=JSON).status_code == 413
    assert client.get("/api/state").json()["turn"] == 0
    deepest = b'{"name": "Ann", "x": ' + b"[" * 31 + b"]" * 31 + b"}"  # 32 deep: read
    assert client.post("/api/join", content=deepest, headers=JSON).json()["name"] == "Ann"
    too_deep = b'{"name": "Bo", "x": ' + b"[" * 32 + b"]" * 32 + b"}"
    assert client.post("/api/join", content=too_deep, headers=JSON).status_code == 400
