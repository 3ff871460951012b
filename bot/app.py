"""The ASGI application: one Starlette app for health, the Telegram and the Twilio webhooks."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

__all__ = ["build_app"]


async def healthz(request: Request) -> JSONResponse:
    """Liveness: answers while the process serves."""
    return JSONResponse({"status": "ok"})


def build_app() -> Starlette:
    """The ASGI app with its routes (channels are added as they are switched on)."""
    return Starlette(routes=[Route("/healthz", healthz)])
