"""Connecting the bot to Telegram: registering the webhook, or long polling.

``poundbot telegram set-webhook`` tells Telegram to post updates to
``POUNDBOT_PUBLIC_URL/telegram`` with the secret token and only the update types
poundbot handles. ``poundbot serve --polling`` removes any webhook and asks Telegram
for updates itself (development: no public URL); each update then goes through
``TelegramChannel.receive``, the same steps as the webhook's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram import Bot
from telegram.error import TelegramError, TimedOut

from bot.channels.telegram import ALLOWED_UPDATES, TelegramChannel, file_url
from bot.settings import Settings

__all__ = ["poll", "set_webhook"]

log = logging.getLogger("poundbot.telegram")

#: Seconds to wait before asking again after getUpdates failed.
RETRY_AFTER_FAILURE = 5.0


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
