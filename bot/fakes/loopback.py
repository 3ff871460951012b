"""Serve an ASGI app on a free loopback port for as long as a context lasts (a test, the demo).

uvicorn's own server looks for its order to stop every tenth of a second and pauses a
tenth more, twice, while it closes its connections: for a server that lives a test's
length, that is most of its life. ``_Server`` stops as soon as it is told, and waits for
its connections and tasks to finish by turns of the event loop; what it does on the way
out is uvicorn's (its connections closed, their requests finished, the app's lifespan
shut down)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn

__all__ = ["bind", "serve"]

#: How often a stopping server looks whether its connections and tasks are done.
_POLL = 0.002
#: How long it lets them finish before it cancels the tasks (uvicorn's default: forever).
_GRACE = 30.0


def bind() -> socket.socket:
    """A socket bound to 127.0.0.1 at a free port: its URL is known before serving."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server, woken at once by ``should_exit`` (a signal's handler sets it too)."""

    def __init__(self, config: uvicorn.Config) -> None:
        self._stop = asyncio.Event()
        super().__init__(config)

    @property
    def should_exit(self) -> bool:
        return self._stop.is_set()

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        if value:
            self._stop.set()
        else:
            self._stop.clear()

    async def main_loop(self) -> None:
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.1):  # the Date header, once a second
                    await self._stop.wait()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        try:
            async with asyncio.timeout(_GRACE):
                # uvicorn keeps its connections and tasks in sets, with no event to await.
                while (  # noqa: ASYNC110
                    self.server_state.connections or self.server_state.tasks
                ) and not self.force_exit:
                    await asyncio.sleep(_POLL)
        except TimeoutError:
            for task in self.server_state.tasks:
                task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        for server in self.servers:
            await server.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()


@asynccontextmanager
async def serve(app: Any, sock: socket.socket | None = None) -> AsyncIterator[str]:
    """Run ``app`` under uvicorn on ``sock`` (else 127.0.0.1:<free port>); yields its
    base URL. The server is stopped, and the socket closed, when the context ends."""
    sock = sock or bind()
    port = sock.getsockname()[1]
    # As ``poundbot serve`` runs it: the app reads X-Forwarded-For itself (bot.entry.app).
    config = uvicorn.Config(app, log_level="warning", lifespan="on", proxy_headers=False)
    server = _Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(5000):
            if server.started:
                break
            if task.done():
                task.result()
            await asyncio.sleep(0.001)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()
