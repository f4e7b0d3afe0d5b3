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
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from printkit.errors import DataError, PrintkitError, StateError
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
    """A small JSON object body, read by printkit's one JSON reader (400 if it does not read it, 422 if it is not an
    object); no body is ``{}``."""
    from printkit.loading.text import parse_json, utf8_text

    body = b""
    async for chunk in _body(request):
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"the request is over {limit} bytes")
    if not body.strip():
        return {}
    try:
        doc = parse_json(utf8_text(body), "the request")
    except UnicodeDecodeError:
        raise Refused(400, "the request: not UTF-8 text") from None
    except DataError as exc:
        raise Refused(400, exc.problems[0]) from None
    if not isinstance(doc, dict):
        raise Refused(422, "the request is not a JSON object {...}")
    return doc


async def _body(request: Request) -> AsyncIterator[bytes]:
    """The request's body as it comes; a client gone before its end is refused (400), not a traceback in the log."""
    try:
        async for chunk in request.stream():
            yield chunk
    except ClientDisconnect:
        raise Refused(400, "the request ended before its body did") from None


UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something: only these are checked by :class:`SameOrigin`."""
UPLOADS = frozenset({"/api/sheet"})
"""The paths whose body is a multipart form (a photo), not JSON."""
OWN_SITE = ("same-origin", "none")
"""``Sec-Fetch-Site`` values of a request from the party's own pages (or typed by the user)."""


def cross_site(scope: Scope) -> tuple[int, str] | None:
    """Why a state-changing request is refused (status, reason), or None: sent by a page of another origin (403:
    its ``Origin`` is not this server, or ``Sec-Fetch-Site`` says another site), or with a body that is not
    ``application/json`` (415: a form or plain text, what any page may send without asking)."""
    from printkit.model.names import shown

    headers = Headers(scope=scope)
    origin, site = headers.get("origin"), headers.get("sec-fetch-site")
    own = f"{scope.get('scheme', 'http')}://{headers.get('host', '')}".lower()
    if origin is not None and origin.lower() != own:
        return 403, (f"refused: this request comes from another site ({shown(origin)}); the party takes changes only "
                     "from its own pages")
    if site is not None and site.lower() not in OWN_SITE:
        return 403, (f"refused: this request comes from another site (Sec-Fetch-Site: {shown(site)}); the party "
                     "takes changes only from its own pages")
    if scope.get("path") in UPLOADS:
        return None  # a photo is a multipart form: photo_bytes checks it
    kind = headers.get("content-type")
    sent = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
    if (kind is None and sent) or (kind is not None and kind.split(";")[0].strip().lower() != "application/json"):
        return 415, f"send the request as application/json, not {shown(kind) if kind else 'untyped'}"
    return None


class SameOrigin:
    """ASGI middleware: every state-changing request passes :func:`cross_site`, or is answered with its refusal."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a cross-site or non-JSON change; pass anything else on."""
        if scope["type"] == "http" and scope["method"] in UNSAFE:
            refused = cross_site(scope)
            if refused is not None:
                await error(*refused)(scope, receive, send)
                return
        await self.app(scope, receive, send)


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
    async for chunk in _body(request):
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
