"""Delivering the Telegram outbox: the Sender, the per-chat pace, and a delivery loop
that runs as soon as a reply is queued.

Rate limits. Telegram allows about 30 messages a second overall and asks for no more
than one message a second in a chat. The overall limit is PTB's ``AIORateLimiter``
on the bot (every call, per process); the per-chat one is ``ChatPacer`` here, which
spaces new messages to a chat one second apart. Edits, answers to button presses and
command menus are not new messages and are not paced. A ``RetryAfter`` from Telegram
is not slept through here: the message goes back to the outbox as a transient failure.

A chat that must wait does not hold up the others: the delivery loop names the chats
whose slot has not come (``ChatPacer.busy``) and the outbox claims nothing for them,
and one message at most per chat in each claim; the loop looks again when the first
of them is free. The pace is kept per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
)
from telegram.error import (
    BadRequest,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from bot.adapters.outbox import (
    LEASE,
    BatchSize,
    PermanentSendError,
    TransientSendError,
    deliver_once,
)
from bot.adapters.send_gate import Gate
from bot.channels.telegram.outbox import Action, decode
from bot.store.instances import worker_id
from bot.store.tx import Store

if TYPE_CHECKING:
    from bot.adapters.photo_store import PhotoStore

__all__ = ["CHANNEL", "ChatPacer", "TelegramDelivery", "TelegramSender"]

log = logging.getLogger("poundbot.telegram")

CHANNEL = "telegram"

Markup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove


class ChatPacer:
    """At most one new message per ``interval`` seconds to each chat.

    ``clock`` and ``sleep`` are injected so a test can check the waits without waiting.
    """

    def __init__(
        self,
        interval: float = 1.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.interval = interval
        self._clock, self._sleep = clock, sleep
        self._next: dict[str, float] = {}

    async def wait(self, chat: str) -> None:
        """Return when a new message may go to ``chat``, and book the next slot."""
        if self.interval <= 0:
            return
        now = self._clock()
        ready = self._next.get(chat, now)
        if ready > now:
            await self._sleep(ready - now)
            now = ready
        self._next[chat] = now + self.interval
        if len(self._next) > 10_000:  # forget chats whose slot is long past
            self._next = {c: t for c, t in self._next.items() if t > now}

    def busy(self) -> list[str]:
        """The chats that may not have a new message yet."""
        now = self._clock()
        return [chat for chat, ready in self._next.items() if ready > now]

    def free_in(self) -> float | None:
        """Seconds until the first busy chat may have a new message (None: none busy)."""
        now = self._clock()
        waits = [ready - now for ready in self._next.values() if ready > now]
        return min(waits) if waits else None


def _inline(action: Action) -> InlineKeyboardMarkup | None:
    if not action.inline:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(b.text, callback_data=b.data) for b in row] for row in action.inline]
    )


def _markup(action: Action) -> Markup | None:
    if action.inline:
        return _inline(action)
    if action.reply:
        return ReplyKeyboardMarkup(
            [
                [KeyboardButton(b.text, request_location=b.location) for b in row]
                for row in action.reply
            ],
            resize_keyboard=True,
            one_time_keyboard=True,
        )
    if action.remove_keyboard:
        return ReplyKeyboardRemove()
    return None


class TelegramSender:
    """The outbox's Sender for channel ``telegram``: one Bot API call per queued row."""

    def __init__(
        self, bot: Bot, pacer: ChatPacer | None = None, photos: PhotoStore | None = None
    ) -> None:
        self.bot = bot
        self.pacer = pacer or ChatPacer()
        self.photos = photos

    async def send(self, recipient: str, body: str, key: str) -> str:
        """Make the call ``body`` stands for; returns the message id (or what was done)."""
        action = decode(body)
        try:
            return await self._call(int(recipient), recipient, action)
        except RetryAfter as exc:
            # str(exc), not exc.retry_after: reading that warns since PTB 22.2.
            raise TransientSendError(f"telegram: {exc}") from exc
        except BadRequest as exc:
            if "message is not modified" in exc.message.lower():
                return str(action.message_id)
            raise PermanentSendError(f"telegram: bad request: {exc.message}") from exc
        except Forbidden as exc:
            raise PermanentSendError(f"telegram: forbidden: {exc.message}") from exc
        except (NetworkError, InvalidToken) as exc:
            # InvalidToken too: a token fixed in the configuration sends what waited.
            raise TransientSendError(f"telegram: {type(exc).__name__}: {exc.message}") from exc
        except TelegramError as exc:
            raise PermanentSendError(f"telegram: {type(exc).__name__}: {exc.message}") from exc

    async def _call(self, chat: int, recipient: str, action: Action) -> str:
        if action.op == "answer":
            await self.bot.answer_callback_query(action.callback_id, text=action.text or None)
            return "answered"
        if action.op == "menu":
            await self.bot.set_my_commands(
                [BotCommand(c, d) for c, d in action.commands], scope=BotCommandScopeChat(chat)
            )
            return "menu"
        if action.op == "edit":
            assert action.message_id is not None, "an edit names its message"
            inline = _inline(action)
            if action.text:
                await self.bot.edit_message_text(
                    action.text, chat_id=chat, message_id=action.message_id, reply_markup=inline
                )
            else:
                await self.bot.edit_message_reply_markup(
                    chat_id=chat, message_id=action.message_id, reply_markup=inline
                )
            return str(action.message_id)
        if action.op == "photo":
            image = await self.photos.get(action.photo) if self.photos is not None else None
            if image is None:
                raise PermanentSendError(f"telegram: no kept photo {action.photo}")
            await self.pacer.wait(recipient)
            sent = await self.bot.send_photo(chat, image, caption=action.text[:1024] or None)
            return str(sent.message_id)
        await self.pacer.wait(recipient)
        message = await self.bot.send_message(chat, action.text, reply_markup=_markup(action))
        return str(message.message_id)


class TelegramDelivery:
    """Delivers the Telegram outbox: at once when ``kick``-ed, else every ``interval``.

    A reply is queued in the transaction that handles its update; the webhook kicks
    this loop after the commit, so the reply leaves in milliseconds while the outbox
    keeps it safe (leases, retries, one send per row). The periodic pass picks up what
    other instances and channels queued (a keeper's SMS report to an officer).
    """

    def __init__(
        self,
        store: Store,
        sender: TelegramSender,
        *,
        interval: float = 2.0,
        lease: timedelta = LEASE,
        gate: Gate | None = None,
    ) -> None:
        self.store, self.sender, self.interval, self.lease = store, sender, interval, lease
        self.gate = gate
        self._batch = BatchSize(lease)
        self._wake = asyncio.Event()
        self._kicks = 0
        self._done = -1
        self._changed = asyncio.Condition()
        self._me = worker_id()

    def kick(self) -> None:
        """Something was queued: deliver now."""
        self._kicks += 1
        self._wake.set()

    async def drained(self) -> None:
        """Return once a pass begun after the latest kick found nothing more to send."""
        target = self._kicks
        async with self._changed:
            await self._changed.wait_for(lambda: self._done >= target)

    async def run(self, stop: asyncio.Event) -> None:
        """Deliver until ``stop`` is set; a failed pass is logged and tried again."""
        while not stop.is_set():
            self._wake.clear()
            started = self._kicks
            try:
                sent = await deliver_once(
                    self.store,
                    {CHANNEL: self.sender},
                    self._me,
                    lease=self.lease,
                    busy={CHANNEL: self.sender.pacer.busy()},
                    batch=self._batch,
                    gate=self.gate,
                )
            except Exception:
                log.exception("Telegram delivery pass failed")
                sent = 0
            if sent:
                continue
            async with self._changed:
                self._done = started
                self._changed.notify_all()
            if self._kicks != started:
                continue
            free_in = self.sender.pacer.free_in()  # a waiting chat's next slot
            timeout = self.interval if free_in is None else min(self.interval, free_in)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_first(self._wake, stop), timeout=timeout)


async def _first(*events: asyncio.Event) -> None:
    """Wait until any of ``events`` is set."""
    waits = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
