"""Connecting the bot to Telegram: registering the webhook, long polling, starting late.

``poundbot telegram set-webhook`` tells Telegram to post updates to
``POUNDBOT_PUBLIC_URL/telegram`` with the secret token and only the update types
poundbot handles. ``poundbot serve --polling`` removes any webhook and asks Telegram
for updates itself (development: no public URL); each update then goes through
``TelegramChannel.receive``, the same steps as the webhook's.

If Telegram cannot be reached when the server starts (the link is down, as happens),
``start_later`` tries again, less and less often, and brings the channel up when it
can: no one has to restart poundbot. Until then updates get 503 (Telegram sends them
again) and replies wait in the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from telegram import Bot
from telegram.error import InvalidToken, TelegramError, TimedOut

from bot.channels.telegram.webhook import (
    ALLOWED_UPDATES,
    TelegramChannel,
    TelegramOptions,
    file_url,
    running,
)
from bot.config.settings import Settings
from bot.services.runtime import App

__all__ = ["channel_tasks", "poll", "set_webhook", "start_later", "worth_retrying"]

log = logging.getLogger("poundbot.telegram")

#: Seconds to wait before asking again after getUpdates failed.
RETRY_AFTER_FAILURE = 5.0
#: After a failed start, seconds before the next try: doubling from the first to the last.
START_RETRY_FIRST = 5.0
START_RETRY_LAST = 300.0

Publish = Callable[[TelegramChannel | None], None]


def channel_tasks(
    channel: TelegramChannel, stop: asyncio.Event
) -> tuple[list[asyncio.Task[None]], asyncio.Task[None] | None]:
    """Start the channel's loops: its outbox delivery and, when polling, getUpdates
    (returned apart too: a long poll is cancelled rather than waited for at shutdown)."""
    tasks, polling = [], None
    if channel.options.deliver:
        tasks.append(asyncio.create_task(channel.delivery.run(stop)))
        # Photos an older poundbot knew by their file id alone: downloaded once, now.
        tasks.append(asyncio.create_task(_fetch_pending(channel)))
    if channel.options.polling:
        polling = asyncio.create_task(poll(channel, stop))
        tasks.append(polling)
    return tasks, polling


async def _fetch_pending(channel: TelegramChannel) -> None:
    from bot.channels.telegram.photos import fetch_pending

    try:
        kept = await fetch_pending(channel.app, channel.application.bot)
    except Exception:  # a photo left pending is tried again at the next start
        log.exception("Telegram: pending photos not fetched")
        return
    if kept:
        log.info("Telegram: %d photo(s) kept from file ids of an older poundbot", kept)


async def start_later(
    app: App, settings: Settings, options: TelegramOptions, publish: Publish, stop: asyncio.Event
) -> None:
    """After a failed start: try again until Telegram answers, then run the channel (its
    loops, and ``publish``-ed for the webhook) until ``stop``."""
    pause = START_RETRY_FIRST
    while not await _stopped(stop, pause):
        try:
            async with running(app, settings, options) as channel:
                log.info("Telegram: reached after all; the channel is up")
                tasks, polling = channel_tasks(channel, stop)
                publish(channel)
                try:
                    await stop.wait()
                finally:
                    publish(None)
                    if polling is not None:
                        polling.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
            return
        except TelegramError as exc:
            if not worth_retrying(exc):
                return
            pause = min(pause * 2, START_RETRY_LAST)
            log.error("Telegram: still unreachable (%s); next try in %.0f s", exc, pause)


def worth_retrying(exc: TelegramError) -> bool:
    """Whether starting again may help after ``exc``: not when Telegram refused the
    token (that is said here, once), which no retry mends."""
    if isinstance(exc, InvalidToken):
        log.error("Telegram: %s; set the right TELEGRAM_BOT_TOKEN and restart", exc)
        return False
    return True


async def _stopped(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds`` or until ``stop``; whether it was the stop."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    return stop.is_set()


async def poll(channel: TelegramChannel, stop: asyncio.Event) -> None:
    """Long polling until ``stop`` is set (or the task is cancelled)."""
    bot = channel.application.bot
    await bot.delete_webhook()
    offset: int | None = None
    while not stop.is_set():
        try:
            updates = await bot.get_updates(
                offset=offset,
                timeout=channel.options.poll_timeout,
                allowed_updates=list(ALLOWED_UPDATES),
            )
        except TimedOut:
            continue
        except TelegramError as exc:
            log.warning("Telegram: getUpdates failed (%s); trying again", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=RETRY_AFTER_FAILURE)
            continue
        for incoming in updates:
            if not await channel.receive(incoming.to_dict()):
                break  # asked for again, from this update on, by the next poll
            offset = incoming.update_id + 1


async def set_webhook(settings: Settings, *, drop_pending: bool = False) -> str:
    """Register ``POUNDBOT_PUBLIC_URL/telegram`` with its secret and the update types used."""
    missing = [
        name
        for name, value in (
            ("TELEGRAM_BOT_TOKEN", settings.telegram_token),
            ("TELEGRAM_WEBHOOK_SECRET", settings.telegram_secret),
            ("POUNDBOT_PUBLIC_URL", settings.public_url),
        )
        if not value
    ]
    if missing:
        raise ValueError(f"set {', '.join(missing)} first")
    bot = Bot(
        settings.telegram_token,
        base_url=settings.telegram_api_url,
        base_file_url=file_url(settings.telegram_api_url),
    )
    url = f"{settings.public_url}/telegram"
    async with bot:
        await bot.set_webhook(
            url,
            secret_token=settings.telegram_secret,
            allowed_updates=list(ALLOWED_UPDATES),
            drop_pending_updates=drop_pending,
        )
        info = await bot.get_webhook_info()
    kinds = ", ".join(ALLOWED_UPDATES)
    return f"webhook set: {info.url} (updates: {kinds}; {info.pending_update_count} pending)"
