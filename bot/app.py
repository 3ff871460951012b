"""The ASGI application: one Starlette app for health, the Telegram and the Twilio webhooks."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from sqlalchemy import text
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bot.bootstrap import App, open_app

__all__ = ["build_app", "startup_report"]

log = logging.getLogger("poundbot")

AppFactory = Callable[[], AbstractAsyncContextManager[App]]


async def healthz(request: Request) -> JSONResponse:
    """Liveness and database reachability."""
    app: App | None = getattr(request.app.state, "poundbot", None)
    if app is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    try:
        async with app.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as exc:  # reported, not swallowed: the balancer takes us out
        log.error("health check: database unreachable: %s", exc)
        return JSONResponse({"status": "database unreachable"}, status_code=503)
    return JSONResponse({"status": "ok"})


def startup_report(app: App, env: dict[str, str] | None = None) -> list[str]:
    """What is on and what is off, and why: the first lines ``poundbot serve`` logs."""
    env = dict(os.environ if env is None else env)
    url = app.engine.url
    lines = [
        f"Configuration: {len(app.config.authorities)} authorities, "
        f"{len(app.config.pounds)} pounds ({', '.join(app.config.pounds)})"
        + (
            ""
            if env.get("POUNDBOT_CONFIG")
            else " — the SAMPLE configuration (set POUNDBOT_CONFIG)"
        ),
        f"Database: {url.get_backend_name()} {url.render_as_string(hide_password=True)}",
    ]
    if env.get("TELEGRAM_BOT_TOKEN"):
        lines.append("Telegram: token set")
    else:
        lines.append("Telegram: off (no TELEGRAM_BOT_TOKEN)")
    twilio = [
        k
        for k in ("TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM_NUMBER")
        if not env.get(k)
    ]
    if twilio:
        lines.append(f"SMS: off (no {', '.join(twilio)})")
    else:
        lines.append("SMS: Twilio credentials set")
    return lines


def build_app(factory: AppFactory | None = None) -> Starlette:
    """The ASGI app; ``factory`` opens the poundbot App for the server's lifetime."""
    factory = factory or (lambda: open_app())

    @asynccontextmanager
    async def lifespan(starlette: Starlette) -> AsyncIterator[None]:
        async with factory() as app:
            for line in startup_report(app):
                log.info("%s", line)
            starlette.state.poundbot = app
            try:
                yield
            finally:
                starlette.state.poundbot = None

    return Starlette(routes=[Route("/healthz", healthz)], lifespan=lifespan)
