"""The ASGI application: one Starlette app for health, the Telegram webhook and the SMS
provider's webhooks (Twilio, Exotel or Mobile Seva: ``bot.channels.sms.providers``)."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import replace

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from telegram.error import TelegramError
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from bot.adapters.backups import backups_dir, run_backups
from bot.adapters.outbox import Sender
from bot.adapters.serverlock import serving
from bot.bootstrap import open_app
from bot.channels.metrics_page import metrics_route
from bot.channels.notice_page import notice_route, photo_routes
from bot.channels.sms.providers import (
    allow_warning,
    sms_line,
    sms_routes,
    sms_sender,
    twilio_media,
    twilio_sender,
)
from bot.channels.sms.sweep import SmsSweep
from bot.channels.telegram.connect import channel_tasks, start_later, worth_retrying
from bot.channels.telegram.webhook import TelegramChannel, TelegramOptions, running, webhook_route
from bot.channels.twilio.media import MediaFetcher
from bot.channels.twilio.pictures import PICTURES
from bot.channels.twilio.sender import TwilioSender
from bot.channels.twilio.whatsapp_sender import WhatsAppSender
from bot.config import Config
from bot.config.production import dlt_fault, sample_warning
from bot.config.settings import Settings
from bot.entry.workers import (
    WATCH_EVERY,
    run_config_watch,
    run_delivery,
    run_purge,
    run_reminders,
)
from bot.i18n import LANGUAGES, translator
from bot.i18n.sms_keyword import use_keyword
from bot.observe import logsafe
from bot.observe.metrics import WebhookTimer
from bot.services.runtime import App
from bot.store.engine import DatabaseUrl, database_file
from bot.store.instances import heartbeat, worker_id
from bot.store.space import space_fault
from bot.store.writable import shown, write_fault
from bot.support.counted import counted
from bot.support.links import notice_path, photo_path
from bot.web.app import web_routes
from bot.web.headers import SecurityHeaders
from bot.web.source import source_route

__all__ = ["build_app", "report_lines", "startup_report"]

log = logging.getLogger("poundbot")

AppFactory = Callable[[], AbstractAsyncContextManager[App]]


async def healthz(request: Request) -> JSONResponse:
    """Liveness, a database that can be written (``bot.store.writable``), and room on the
    disk to write it (``bot.store.space``)."""
    app: App | None = getattr(request.app.state, "poundbot", None)
    if app is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    try:
        fault = await write_fault(app.store)
    except Exception as exc:  # reported, not swallowed: the balancer takes us out
        log.error("health check: database unreachable: %s", exc)
        return JSONResponse({"status": "database unreachable"}, status_code=503)
    if fault:
        log.error("health check: the database cannot be written: %s", fault)
        return JSONResponse({"status": "database cannot be written"}, status_code=503)
    full = space_fault(app.engine.url)
    if full:
        log.error("health check: the disk is almost full: %s", full)
        return JSONResponse({"status": "disk almost full"}, status_code=503)
    return JSONResponse({"status": "ok"})


def startup_report(
    app: App,
    env: dict[str, str] | None = None,
    *,
    polling: bool = False,
    settings: Settings | None = None,
    terminal: bool | None = None,
) -> list[str]:
    """What is on and what is off, and why: the first lines ``poundbot serve`` logs."""
    return report_lines(
        app.config, app.engine.url, env, polling=polling, settings=settings, terminal=terminal
    )


def report_lines(
    config: Config,
    url: DatabaseUrl,
    env: dict[str, str] | None = None,
    *,
    polling: bool = False,
    settings: Settings | None = None,
    terminal: bool | None = None,
) -> list[str]:
    """``startup_report`` before the app is opened (``poundbot serve`` logs it first).
    The way to try poundbot without accounts is shown at a ``terminal`` only (by default:
    when standard error is one), not in a service's journal."""
    env = dict(os.environ if env is None else env)
    settings = settings or Settings.from_env(env)
    terminal = sys.stderr.isatty() if terminal is None else terminal
    lines = []
    if terminal and settings.telegram_off_reason() and settings.sms_off_reason():
        lines += [
            "No Telegram or SMS credentials: try poundbot without accounts —",
            "  poundbot console --as keeper   (a terminal chat with this database)",
            "  poundbot demo                  (the whole Act, step by step, in a minute)",
        ]
    lines += [
        f"Configuration: {counted(len(config.authorities), 'authority', 'authorities')}, "
        f"{counted(len(config.pounds), 'pound', 'pounds')} ({', '.join(config.pounds)})"
        + (
            ""
            if env.get("POUNDBOT_CONFIG")
            else " — the SAMPLE configuration (set POUNDBOT_CONFIG)"
        ),
        f"Database: {url.get_backend_name()} {shown(url.render_as_string(hide_password=False))}",
    ]
    sample = sample_warning(config)
    lines += [f"WARNING {sample}"] if sample else []
    telegram_off = settings.telegram_off_reason()
    if telegram_off:
        lines.append(f"Telegram: off ({telegram_off})")
    elif polling:
        lines.append("Telegram: on, long polling (no webhook)")
    elif not settings.telegram_secret:
        lines.append(
            "Telegram: on, but the webhook refuses every update until "
            "TELEGRAM_WEBHOOK_SECRET is set"
        )
    else:
        where = f"{settings.public_url}/telegram" if settings.public_url else "/telegram"
        lines.append(f"Telegram: on, webhook {where}")
    lines.append(sms_line(settings))
    warning = allow_warning(settings)
    lines += [warning] if warning else []
    fault = dlt_fault(config, settings)  # serve goes on: Telegram and the desk still work
    lines += [f"ERROR {fault}"] if fault else []
    whatsapp_off = settings.whatsapp_off_reason()
    lines.append(
        f"WhatsApp: off ({whatsapp_off})"
        if whatsapp_off
        else f"WhatsApp: on, through Twilio, from {settings.twilio_whatsapp_from}, webhook "
        f"{settings.public_url}/twilio/sms; "
        f"{sum(map(len, config.whatsapp_templates.values()))} templates configured"
    )
    reminders = config.reminders
    lines.append(
        f"Reminders: on, each morning at {reminders.reminder_time:%H:%M} {reminders.timezone.key};"
        f" no SMS to owners {reminders.night_start:%H:%M}-{reminders.night_end:%H:%M}"
    )
    backups, database = config.backups, database_file(str(url))
    lines.append(
        f"Backups: on, daily at {backups.at:%H:%M} {reminders.timezone.key} into "
        f"{backups_dir(database)}, keeping {backups.keep}"
        if database
        else "Backups: not taken by poundbot (PostgreSQL: pg_dump, see docs/operator/backup.md)"
    )
    lines.append(settings.metrics_access())
    lines.append(links_line(settings))
    lines.append(clients_line(settings))
    return lines


def clients_line(settings: Settings) -> str:
    """Whom poundbot takes for the sender of a request (the allow-lists, /metrics, logs)."""
    if not settings.trusted_proxies:
        return "Clients: the connecting address (POUNDBOT_TRUSTED_PROXIES=none: no proxy)"
    networks = [ipaddress.ip_network(p) for p in settings.trusted_proxies]
    proxies = ", ".join(
        str(n.network_address) if n.prefixlen == n.max_prefixlen else str(n) for n in networks
    )
    return (
        f"Clients: the connecting address, or the one in X-Forwarded-For when it is a "
        f"trusted proxy: {proxies} (POUNDBOT_TRUSTED_PROXIES)"
    )


def log_report(lines: list[str]) -> None:
    """Log the start-up report: a line marked ``WARNING`` as a warning, one marked
    ``ERROR`` as an error (something that cannot work as configured), the rest as info."""
    for line in lines:
        if line.startswith("ERROR "):
            log.error("%s", line.removeprefix("ERROR "))
        elif line.startswith("WARNING "):  # said loudly: the journal shows it as a warning
            log.warning("%s", line.removeprefix("WARNING "))
        else:
            log.info("%s", line)


def links_line(settings: Settings) -> str:
    """How the links poundbot sends are signed: with ``POUNDBOT_SECRET``, or with a key
    made at start, which breaks every notice, photo and sign-in link sent before a
    restart (said loudly when the server has a public URL)."""
    if settings.link_secret:
        return "Links: signed with POUNDBOT_SECRET (notices, photos, web sign-in)"
    line = (
        "Links: POUNDBOT_SECRET is not set: the notice, photo and web sign-in links are "
        "signed with a key made at start, and every restart breaks those already sent"
    )
    return f"WARNING {line}; set POUNDBOT_SECRET" if settings.public_url else line


def build_app(
    factory: AppFactory | None = None,
    settings: Settings | None = None,
    telegram: TelegramOptions | None = None,
    *,
    report: bool = True,
    config_watch: float = WATCH_EVERY,
) -> Starlette:
    """The ASGI app; ``factory`` opens the poundbot App for the server's lifetime.
    ``report``: log the start-up report when the app opens (``poundbot serve`` has
    logged it already, before anything else). ``config_watch``: how often a new version
    of the configuration in the database is looked for (an App given its configuration,
    not the database's, looks for none)."""
    factory = factory or (lambda: open_app())
    settings = settings or Settings.from_env()
    telegram = telegram or TelegramOptions()
    telegram_on = settings.telegram_off_reason() is None
    # Signs the links of printable notices; without POUNDBOT_SECRET they last until restart.
    link_secret = settings.link_secret or secrets.token_urlsafe(32)
    routes: list[BaseRoute] = [
        Route("/healthz", healthz),
        notice_route(link_secret),
        *photo_routes(link_secret),
    ]
    routes.append(metrics_route(settings.metrics_token))
    # The source of this server, offered to its users (AGPL-3.0 section 13).
    routes.append(source_route(settings.source_url))
    # The web desk and the public notice boards (bot.web.app).
    routes += web_routes(link_secret, settings.public_url, settings.telegram_username)
    # The webhooks of the SMS provider in use (bot.channels.sms.providers).
    routes += sms_routes(settings)
    if telegram_on:
        routes.append(webhook_route(settings.telegram_secret))

    @asynccontextmanager
    async def lifespan(starlette: Starlette) -> AsyncIterator[None]:
        # Whatever logging the host set up, no line carries a credential or a number.
        logsafe.install((*settings.secrets(), link_secret))
        # On Mobile Seva every SMS that says what to send says the keyword first.
        use_keyword(settings.instruction_keyword())
        async with factory() as app, AsyncExitStack() as stack:
            stack.callback(use_keyword, "")
            # The catalogs compiled now, not by the first message of each language.
            for lang in LANGUAGES:
                translator(lang)
            if settings.photo_max_bytes is not None:
                app.deps = replace(app.deps, photo_max_bytes=settings.photo_max_bytes)
            if report:
                log_report(startup_report(app, polling=telegram.polling, settings=settings))
            # Held while serving: ``poundbot restore`` refuses while a server runs.
            stack.enter_context(serving(database_file(str(app.engine.url))))
            if settings.public_url:
                base = settings.public_url
                app.deps = replace(
                    app.deps,
                    notice_url=lambda number, on: base + notice_path(link_secret, number, on),
                    public_url=base,
                    photo_url=lambda photo_id: base + photo_path(link_secret, photo_id),
                )
            senders: dict[str, Sender] = {}
            if settings.sms_off_reason() is None:
                senders["sms"] = await stack.enter_async_context(sms_sender(settings))
            if settings.whatsapp_off_reason() is None:
                # WhatsApp goes through Twilio whichever provider SMS goes through.
                twilio = senders.get("sms")
                if not isinstance(twilio, TwilioSender):
                    twilio = await stack.enter_async_context(twilio_sender(settings))
                senders["whatsapp"] = WhatsAppSender(
                    twilio, app.store, settings.twilio_whatsapp_from
                )
            channel, unreachable = None, False
            if telegram_on:
                # PTB's lifecycle (initialize, start; stop, shutdown) is in ``running``;
                # entered before any task starts, so a failed start leaves none behind.
                try:
                    channel = await stack.enter_async_context(running(app, settings, telegram))
                except TelegramError as exc:
                    # SMS, reminders and the rest must not go down with Telegram: updates
                    # get 503 (Telegram sends them again) and replies wait in the outbox.
                    unreachable = worth_retrying(exc)
                    if unreachable:
                        log.error(
                            "Telegram: could not start (%s); everything else runs, Telegram "
                            "updates are answered 503 until it is reached (trying again)",
                            exc,
                        )
            stop = asyncio.Event()
            # One lease name for this process's claims, and its heartbeat: when it dies,
            # another instance takes its claims within seconds (bot.store.instances).
            me = worker_id()
            starlette.state.instance = me
            tasks = [
                asyncio.create_task(heartbeat(app.store, me, stop)),
                asyncio.create_task(run_reminders(app, stop, name=me)),
                asyncio.create_task(run_purge(app, stop)),
                asyncio.create_task(run_config_watch(app, stop, every=config_watch)),
                asyncio.create_task(
                    run_backups(
                        app.engine.url.render_as_string(hide_password=False),
                        lambda: app.config.backups,
                        lambda: app.config.reminders.timezone,
                        app.store.clock,
                        stop,
                    )
                ),
            ]
            if senders:
                delivery = run_delivery(
                    app.store,
                    senders,
                    pause=lambda: {"sms": 1 / app.config.reminders.sms_per_second},
                    stop=stop,
                    name=me,
                    dlt=lambda: app.config.dlt,
                    gate=app.gate,
                )
                tasks.append(asyncio.create_task(delivery))
            if "sms" in senders:  # SMS stored before a stop, or not acted on in time
                sweep = SmsSweep(app, pictures=PICTURES)
                starlette.state.sms_sweep = sweep
                tasks.append(asyncio.create_task(sweep.run(stop)))
            media = twilio_media(settings)
            if media is not None:  # MMS / WhatsApp pictures, fetched after the answer
                fetcher = MediaFetcher(app, media, me)
                starlette.state.media_fetcher = fetcher
                tasks.append(asyncio.create_task(fetcher.run(stop)))
            poll: asyncio.Task[None] | None = None
            if channel is not None:
                loops, poll = channel_tasks(channel, stop)
                tasks += loops
            elif unreachable:

                def publish(up: TelegramChannel | None) -> None:
                    starlette.state.telegram = up

                later = start_later(app, settings, telegram, publish, stop)
                tasks.append(asyncio.create_task(later))
            starlette.state.poundbot = app
            starlette.state.telegram = channel
            try:
                yield
            finally:
                starlette.state.poundbot = None
                starlette.state.telegram = None
                starlette.state.sms_sweep = None
                starlette.state.media_fetcher = None
                stop.set()
                if poll is not None:
                    poll.cancel()  # a long poll would hold the stop for its timeout
                await asyncio.gather(*tasks, return_exceptions=True)

    # Who sent a request (the allow-lists of Exotel and Mobile Seva, /metrics, the logs):
    # the peer, or the client a trusted proxy names in X-Forwarded-For, the right-most
    # address there that is not itself a trusted proxy (uvicorn's middleware, here in the
    # app so that any server runs it, with poundbot's setting alone).
    proxies = Middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
    # The security headers go on every response, whichever route made it (bot.web.headers).
    middleware = [proxies, Middleware(SecurityHeaders), Middleware(WebhookTimer)]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
