"""Serve an ASGI app on a free loopback port for as long as a context lasts (a test, the demo)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn

__all__ = ["bind", "serve"]


def bind() -> socket.socket:
    """A socket bound to 127.0.0.1 at a free port: its URL is known before serving."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@asynccontextmanager
async def serve(app: Any, sock: socket.socket | None = None) -> AsyncIterator[str]:
    """Run ``app`` under uvicorn on ``sock`` (else 127.0.0.1:<free port>); yields its
    base URL. The server is stopped, and the socket closed, when the context ends."""
    sock = sock or bind()
    port = sock.getsockname()[1]
    # As ``poundbot serve`` runs it: the app reads X-Forwarded-For itself (bot.entry.app).
    config = uvicorn.Config(app, log_level="warning", lifespan="on", proxy_headers=False)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(500):
            if server.started:
                break
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()
