"""The party server: a Starlette app over one :class:`~printkit.party.game.Table` (docs/party.md).

Pages: ``/host`` (the host key in ``?key=``), ``/join``, ``/play``. The JSON
API: ``GET /api/state``, ``GET /api/events`` (server-sent events), the host's
``POST /api/next|undo|end|leave`` (``Authorization: Bearer <host key>``), and
``POST /api/join``, then the player's ``GET /api/me``, ``POST
/api/finish|sheet|confirm`` (``Authorization: Bearer <player token>``). Game
changes run in worker threads (they lock and fsync the game file); each one
is then published to every event stream.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from printkit.errors import PrintkitError, StateError
from printkit.party.events import Hub
from printkit.party.game import JoinedError, Table
from printkit.party.sheets import MAX_UPLOAD_BYTES, Refused
from printkit.rules.turns import UnknownPlayerError

WATCH_SECONDS = 1.0
"""How often the game file is looked at for changes made by another command (``printkit turns next``)."""
SCANS_AT_ONCE = 1
"""Photos read at the same time (each is CPU-bound and holds a decoded image); more wait their turn."""
FORM_SLACK = 64 * 1024
"""Bytes of multipart framing allowed beyond the photo itself."""
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                    "X-Frame-Options": "DENY", "Cache-Control": "no-store"}


class Party:
    """The app's state: the table, the event hub, the join link, and the limit on photos read at once."""

    def __init__(self, table: Table, join_url: str) -> None:
        self.table = table
        self.join_url = join_url
        self.hub = Hub(self.state_text())
        self.scans = anyio.CapacityLimiter(SCANS_AT_ONCE)

    def state_text(self) -> str:
        """The current state as the JSON the API and the streams send."""
        return json.dumps(self.table.state(), ensure_ascii=False, separators=(",", ":"))

    def publish(self) -> Response:
        """Send the new state to every stream and answer it."""
        text = self.state_text()
        self.hub.publish(text)
        return Response(text, media_type="application/json", headers=SECURITY_HEADERS)

    async def watch(self) -> None:
        """Publish changes another command makes to the game file (checked every :data:`WATCH_SECONDS`)."""
        while True:
            await anyio.sleep(WATCH_SECONDS)
            try:
                changed = await run_in_threadpool(self.table.refresh)
            except PrintkitError:
                continue  # a file half-way through another command's change, or one it broke: keep the last game
            if changed:
                self.publish()


def error(status: int, message: str) -> JSONResponse:
    """An error answer: ``{"error": message}``."""
    return JSONResponse({"error": message}, status, headers=SECURITY_HEADERS)


def bearer(request: Request) -> str:
    """The token of an ``Authorization: Bearer`` header, or empty."""
    kind, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if kind.lower() == "bearer" else ""


def answer(party: Party) -> Callable[[Callable[[Request], Awaitable[Response]]], Callable[[Request], Awaitable[Response]]]:
    """An endpoint whose game errors become JSON answers: a rule refused is 409, an unknown name 404."""
    def wrap(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except Refused as exc:
                return error(exc.status, str(exc))
            except UnknownPlayerError as exc:
                return error(404, str(exc))
            except (JoinedError, StateError) as exc:
                return error(409, str(exc))
            except PrintkitError as exc:
                return error(409, str(exc))
        return endpoint
    return wrap


async def json_body(request: Request, limit: int = 4096) -> dict[str, Any]:
    """A small JSON object body (422 if it is not one)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"the request is over {limit} bytes")
    try:
        doc = json.loads(body or b"{}")
    except ValueError:
        raise Refused(422, "the request is not JSON") from None
    if not isinstance(doc, dict):
        raise Refused(422, "the request is not a JSON object")
    return doc


async def photo_bytes(request: Request) -> bytes:
    """The multipart field ``photo``, read while counting: over :data:`MAX_UPLOAD_BYTES` is refused at once (413)."""
    from starlette.datastructures import UploadFile

    if "multipart/form-data" not in request.headers.get("content-type", ""):
        raise Refused(415, "send the photo as multipart/form-data, field 'photo'")
    limit = MAX_UPLOAD_BYTES + FORM_SLACK
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise Refused(413, f"the photo is over {MAX_UPLOAD_BYTES // 2**20} MB")
    spool = tempfile.SpooledTemporaryFile(max_size=2**20)
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"the photo is over {MAX_UPLOAD_BYTES // 2**20} MB")
        spool.write(chunk)
    spool.seek(0)

    async def replay() -> dict[str, Any]:
        chunk = spool.read(2**16)
        return {"type": "http.request", "body": chunk, "more_body": spool.tell() < size}

    try:
        form = await Request(request.scope, replay).form(max_files=1, max_fields=4)
    except Exception as exc:  # python-multipart's parse errors and Starlette's limits
        raise Refused(422, f"the upload is not a readable form ({type(exc).__name__})") from None
    photo = form.get("photo")
    if not isinstance(photo, UploadFile):
        raise Refused(422, "the form has no file in the field 'photo'")
    kind = (photo.content_type or "").split(";")[0].strip().lower()
    if kind and not kind.startswith("image/") and kind != "application/octet-stream":
        raise Refused(415, f"the photo must be an image (JPEG or PNG), not {kind}")
    data = await photo.read(MAX_UPLOAD_BYTES + 1)
    await form.close()
    if len(data) > MAX_UPLOAD_BYTES:
        raise Refused(413, f"the photo is over {MAX_UPLOAD_BYTES // 2**20} MB")
    return data
