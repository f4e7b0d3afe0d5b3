"""The party server's routes: pages, the host's and the players' API, the event stream (docs/party.md)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from printkit.party.app import SECURITY_HEADERS, Party, SameOrigin, answer, bearer, error, json_body, photo_bytes
from printkit.party.game import Table
from printkit.party.sheets import INSTALL_HINT, Refused, read_photo, scan_available


def _csp(nonce: str) -> str:
    return (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src 'self' data: blob:; "
            "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


def _page(party: Party, name: str) -> Response:
    from printkit.party.pages import render_page

    nonce = secrets.token_urlsafe(16)
    html = render_page(name, nonce, party.table.state(), party.join_url)
    return HTMLResponse(html, headers={**SECURITY_HEADERS, "Content-Security-Policy": _csp(nonce)})


def _pages(party: Party) -> list[Route]:
    async def host(request: Request) -> Response:
        return _page(party, "host")  # the page holds no secret: its buttons send the key, which the API checks

    async def join(request: Request) -> Response:
        return _page(party, "join")

    async def play(request: Request) -> Response:
        return _page(party, "play")

    async def root(request: Request) -> Response:
        return RedirectResponse("/join", 303)

    return [Route("/", root), Route("/host", host), Route("/join", join), Route("/play", play)]


def _host_api(party: Party) -> list[Route]:
    table = party.table

    def host_action(act: Callable[[dict[str, Any]], object], body: bool = False) -> Any:
        @answer(party)
        async def endpoint(request: Request) -> Response:
            if not table.host_key_is(bearer(request)):
                return error(401, "the host key is missing or wrong: use the host link printed by printkit party")
            doc = await json_body(request) if body else {}
            await run_in_threadpool(act, doc)
            return party.publish()
        return endpoint

    def leave(doc: dict[str, Any]) -> None:
        if not isinstance(doc.get("name"), str):
            raise Refused(422, 'give the player as {"name": ...}')
        table.leave(doc["name"])

    return [Route("/api/next", host_action(lambda doc: table.next_turn()), methods=["POST"]),
            Route("/api/undo", host_action(lambda doc: table.undo()), methods=["POST"]),
            Route("/api/end", host_action(lambda doc: table.end()), methods=["POST"]),
            Route("/api/leave", host_action(leave, body=True), methods=["POST"])]


def _player_api(party: Party) -> list[Route]:
    table = party.table

    def player(request: Request) -> str:
        who = table.player_of(bearer(request)) if bearer(request) else None
        if who is None:
            raise _Unauthorised()
        return who

    @answer(party)
    async def join(request: Request) -> Response:
        doc = await json_body(request)
        if not isinstance(doc.get("name"), str):
            raise Refused(422, 'give your name as {"name": ...}')
        who, token = await run_in_threadpool(table.join, doc["name"])
        party.publish()
        return _json({"name": who, "token": token})

    async def me(request: Request) -> Response:
        return _json({"name": player(request)})

    @answer(party)
    async def finish(request: Request) -> Response:
        await run_in_threadpool(table.finish, player(request))
        return party.publish()

    @answer(party)
    async def sheet(request: Request) -> Response:
        who = player(request)
        if not scan_available():
            return error(501, INSTALL_HINT)
        data = await photo_bytes(request)
        read, marks, unsure = await anyio.to_thread.run_sync(read_photo, data, who, table.game, limiter=party.scans)
        await run_in_threadpool(table.keep_read, who, read, marks, unsure)
        party.publish()
        return _json(read)

    @answer(party)
    async def confirm(request: Request) -> Response:
        who = player(request)
        total = (await json_body(request)).get("total")
        if total is not None and (type(total) is not int or not 0 <= total <= 1000):
            raise Refused(422, "a corrected total is a whole number from 0 to 1000")
        await run_in_threadpool(table.confirm, who, total)
        return party.publish()

    return [Route("/api/join", join, methods=["POST"]), Route("/api/me", me),
            Route("/api/finish", finish, methods=["POST"]), Route("/api/sheet", sheet, methods=["POST"]),
            Route("/api/confirm", confirm, methods=["POST"])]


class _Unauthorised(Exception):
    """No player token, or one of no player: answered 401."""


def _json(doc: dict[str, Any]) -> Response:
    from starlette.responses import JSONResponse

    return JSONResponse(doc, headers=SECURITY_HEADERS)


def _stream_api(party: Party) -> list[Route]:
    async def state(request: Request) -> Response:
        return Response(party.hub.current, media_type="application/json", headers=SECURITY_HEADERS)

    async def events(request: Request) -> Response:
        if party.hub.full():
            return error(503, "too many screens are listening; try again")
        headers = {**SECURITY_HEADERS, "X-Accel-Buffering": "no"}
        return StreamingResponse(party.hub.stream(), media_type="text/event-stream", headers=headers)

    return [Route("/api/state", state), Route("/api/events", events)]


def create_app(table: Table, join_url: str, hosts: list[str]) -> Starlette:
    """The party app for ``table``; ``hosts`` are the Host names it answers to (others get 400)."""
    party = Party(table, join_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(party.watch)
            yield
            tasks.cancel_scope.cancel()

    async def unauthorised(request: Request, exc: Exception) -> Response:
        return error(401, "join the game first: your player token is missing or no longer valid")

    async def refused(request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (no such path, a method a path does not take) as JSON, like every error."""
        assert isinstance(exc, HTTPException)
        said = {404: "no such page or request", 405: f"{request.method} is not a request this takes"}
        answer = error(exc.status_code, said.get(exc.status_code, str(exc.detail)))
        answer.headers.update(exc.headers or {})  # a 405's Allow
        return answer

    app = Starlette(
        routes=_pages(party) + _stream_api(party) + _host_api(party) + _player_api(party),
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts), Middleware(SameOrigin)],
        exception_handlers={_Unauthorised: unauthorised, HTTPException: refused},
        lifespan=lifespan,
    )
    app.state.party = party
    return app
