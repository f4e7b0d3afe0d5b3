"""Server-sent events: every phone and the host screen get each new state, in order, as it happens."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

PING_SECONDS = 15.0
"""A comment line this often keeps phones and proxies from dropping a quiet stream."""
QUEUE = 256
"""States a slow client may fall behind by before it is cut off (it reconnects and gets the current one)."""
MAX_CLIENTS = 1000


class Hub:
    """The clients listening, each with its own queue, and the current state (sent first on connecting)."""

    def __init__(self, current: str) -> None:
        self.current = current
        self.clients: set[asyncio.Queue[str | None]] = set()

    def publish(self, state: str) -> None:
        """Send ``state`` (JSON text) to every client, unless it is the state they have."""
        if state == self.current:
            return
        self.current = state
        for queue in list(self.clients):
            try:
                queue.put_nowait(state)
            except asyncio.QueueFull:  # too far behind: end its stream, its EventSource reconnects
                self.clients.discard(queue)
                queue.get_nowait()
                queue.put_nowait(None)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        for queue in list(self.clients):
            self.clients.discard(queue)
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()
            queue.put_nowait(None)

    def full(self) -> bool:
        """Whether no more clients are taken."""
        return len(self.clients) >= MAX_CLIENTS

    async def stream(self, ping: float = PING_SECONDS) -> AsyncIterator[str]:
        """One client's event stream: the current state, then each new one, with a ping comment when quiet."""
        queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.clients.add(queue)
        try:
            yield f"retry: 1000\ndata: {self.current}\n\n"
            while True:
                try:
                    state = await asyncio.wait_for(queue.get(), ping)
                except asyncio.TimeoutError:
                    yield ": ping\n\n"
                    continue
                if state is None:
                    return
                yield f"data: {state}\n\n"
        finally:
            self.clients.discard(queue)
