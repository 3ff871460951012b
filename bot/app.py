"""The ASGI application: one Starlette app for health, the Telegram and the Twilio webhooks."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

from sqlalchemy import text
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bot.bootstrap import App, open_app
from bot.channels.sms import SmsWebhook
from bot.channels.twilio_sender import TwilioSender
from bot.outbox import Sender
from bot.settings import Settings
from bot.workers import run_delivery

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
    settings = Settings.from_env(env)
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
    telegram_off = settings.telegram_off_reason()
    lines.append(f"Telegram: off ({telegram_off})" if telegram_off else "Telegram: on")
    sms_off = settings.sms_off_reason()
    lines.append(
        f"SMS: off ({sms_off})"
        if sms_off
        else f"SMS: on, webhook {settings.public_url}/twilio/sms, from {settings.twilio_from}"
    )
    return lines


def build_app(factory: AppFactory | None = None, settings: Settings | None = None) -> Starlette:
    """The ASGI app; ``factory`` opens the poundbot App for the server's lifetime."""
    factory = factory or (lambda: open_app())
    settings = settings or Settings.from_env()
    routes = [Route("/healthz", healthz)]
    if settings.sms_off_reason() is None:
        routes += SmsWebhook(settings.twilio_token, settings.public_url).routes()

    @asynccontextmanager
    async def lifespan(starlette: Starlette) -> AsyncIterator[None]:
        async with factory() as app, AsyncExitStack() as stack:
            for line in startup_report(app):
                log.info("%s", line)
            senders: dict[str, Sender] = {}
            if settings.sms_off_reason() is None:
                senders["sms"] = await stack.enter_async_context(
                    TwilioSender(
                        settings.twilio_sid,
                        settings.twilio_token,
                        settings.twilio_from,
                        api_url=settings.twilio_api_url,
                        status_callback=f"{settings.public_url}/twilio/status",
                    )
                )
            stop = asyncio.Event()
            tasks = []
            if senders:
                pause = {"sms": 1 / app.config.reminders.sms_per_second}
                tasks.append(
                    asyncio.create_task(run_delivery(app.store, senders, pause=pause, stop=stop))
                )
            starlette.state.poundbot = app
            try:
                yield
            finally:
                starlette.state.poundbot = None
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)

    return Starlette(routes=routes, lifespan=lifespan)
