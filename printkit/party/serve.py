"""Running the party server: sockets on loopback (and the LAN address with ``--lan``), uvicorn on them."""

from __future__ import annotations

import contextlib
import errno
import socket
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING

from printkit.errors import PrintkitError

if TYPE_CHECKING:
    from starlette.applications import Starlette

LOOPBACK = "127.0.0.1"


class ServeError(PrintkitError):
    """The server cannot start (the port is taken, no LAN address)."""


def bind(address: str, port: int) -> socket.socket:
    """A listening TCP socket on ``address:port`` (port 0: any free one)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {address} is in use: choose another with --port") from None
        raise ServeError(f"cannot listen on {address}:{port} ({exc.strerror})") from None
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


def lan_address() -> str:
    """This machine's address on its local network (the one its default route leaves from).

    A UDP socket is "connected" to a documentation address (TEST-NET-1): that
    only asks the system which local address it would use, no packet is sent.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    finally:
        probe.close()
    if not address or address.startswith("127."):
        raise ServeError("this machine has no local network address (is it on a network?); "
                         "play on this machine without --lan")
    return address


def run(app: Starlette, sockets: list[socket.socket], on_exit: Callable[[], None] = lambda: None) -> None:
    """Serve ``app`` on ``sockets`` until interrupted (Ctrl-C): uvicorn, quiet but for errors.

    ``on_exit`` runs in the server's loop as it starts stopping (the event streams end there, so the
    server need not wait for the phones to hang up).
    """
    import asyncio

    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_soon(on_exit)
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
                            timeout_keep_alive=30, server_header=False)
    Server(config).run(sockets=sockets)
