"""Telegram: a python-telegram-bot ``Application`` (no Updater) inside poundbot's app.

``POST /telegram`` takes updates when ``X-Telegram-Bot-Api-Secret-Token`` equals
``TELEGRAM_WEBHOOK_SECRET`` (constant-time compare; 403 otherwise, and nothing is
stored). A body over ``MAX_UPDATE_BYTES`` (1 MB) gets 413 and is not read further. What
cannot be read as an update (not JSON, nested too deep, a wrong type inside) is stored
as rejected and answered 200: any other answer and Telegram sends it again, for ever.
Control characters are taken out of every string of an update (``bot.support.clean``).
Nothing lost, nothing twice:

1. The raw update is committed to the inbox under ``<bot id>:<update_id>`` (unique:
   update ids are each bot's own sequence, so another bot once used with the same
   database cannot have its updates taken for repeats) before anything else; only then
   is it handled, by ``Application.process_update`` awaited inside the request, in the
   transaction that marks it processed and queues its replies.
2. A redelivered update finds its row processed and changes nothing.
3. If the process stops between 1 and 2, the update waits in the inbox: ``running``
   handles it on the next start, before taking new updates.
4. A handler that fails rolls its update back; the update is then marked processed
   with the failure, the sender is told to try again, and Telegram gets 200. If even
   that cannot be written, Telegram gets 500 and sends the update again.

Replies leave through the outbox (``TelegramSender``), kicked as soon as the
transaction commits. An account past its limit of answers (``bot.channels.limits``; a wrong
invite code counts double) is told once when to try again, then not answered; its
updates are stored all the same. ``poundbot serve --polling`` takes updates by long polling
instead, through the same steps (``bot.channels.telegram.connect``).

Why it is long: an update received, stored once, processed once and recovered after a
failure: one path, kept together.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import AIORateLimiter, Application, ContextTypes

from bot.channels.limits import admit, charge
from bot.channels.telegram import photos
from bot.channels.telegram.handlers import add_handlers, wanted_photo
from bot.channels.telegram.menus import set_default_menus
from bot.channels.telegram.sender import CHANNEL, ChatPacer, TelegramDelivery, TelegramSender
from bot.channels.telegram.turn import PoundContext, open_turn, using
from bot.config.settings import Settings
from bot.conversation.photos import Incoming
from bot.i18n import render, reply_language, translator
from bot.services.runtime import App
from bot.store import inbox
from bot.store.messages import Inbound, enqueue, process_inbound, store_inbound
from bot.store.tx import Tx
from bot.support.clean import clean_data, clean_text

__all__ = [
    "ALLOWED_UPDATES",
    "CALL_TIMEOUT",
    "MAX_UPDATE_BYTES",
    "SECRET_HEADER",
    "TelegramChannel",
    "TelegramOptions",
    "build_application",
    "file_url",
    "parse_update",
    "read_capped",
    "running",
    "update_key",
    "webhook_route",
]

log = logging.getLogger("poundbot.telegram")

SECRET_HEADER: Final = "X-Telegram-Bot-Api-Secret-Token"
#: The update types poundbot handles (what the webhook and long polling ask for).
ALLOWED_UPDATES: Final = ("message", "callback_query")

#: The largest update taken (Telegram's are a few kilobytes): larger ones get 413, unread.
MAX_UPDATE_BYTES: Final = 1024 * 1024
#: How deep an update may nest (Telegram's nest about ten deep).
MAX_UPDATE_DEPTH: Final = 64
#: How much of a rejected body is kept in the inbox, to see what it was.
_REJECTED_EXCERPT = 2000

PTBApp = Application[Any, PoundContext, Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class TelegramOptions:
    """How the channel runs: webhook or polling, the per-chat pace, delivery on or off."""

    polling: bool = False
    chat_interval: float = 1.0  # seconds between two new messages to one chat
    deliver: bool = True  # run the delivery loop (the benchmark measures without it)
    poll_timeout: int = 25  # seconds a long poll waits for updates
    rate_limit: bool = True  # PTB's AIORateLimiter: 30 calls a second overall


def file_url(api_url: str) -> str:
    """The file URL that goes with a Bot API URL: ``.../bot`` -> ``.../file/bot``."""
    head, found, tail = api_url.rpartition("/bot")
    return f"{head}/file/bot{tail}" if found else api_url.rstrip("/") + "/file/bot"


#: How long a call to the Bot API may take to be sent and answered, in seconds. A call
#: that times out may still have been carried out by Telegram (there is no idempotency
#: key for sendMessage), and the outbox tries it again: so the wait is long enough that a
#: slow Telegram (seconds, not minutes) is waited for, not sent to twice. PTB's default
#: (5 s) was exceeded by a Bot API answering in 3.5 s on a busy machine (make chaos).
CALL_TIMEOUT = 30.0


def build_application(settings: Settings, options: TelegramOptions) -> PTBApp:
    """The PTB application: no Updater, the configured Bot API URL, poundbot's handlers."""
    builder = (
        Application.builder()
        .token(settings.telegram_token)
        .updater(None)
        .base_url(settings.telegram_api_url)
        .base_file_url(file_url(settings.telegram_api_url))
        .read_timeout(CALL_TIMEOUT)
        .write_timeout(CALL_TIMEOUT)
        .context_types(ContextTypes(context=PoundContext))
    )
    if options.rate_limit:
        limiter: AIORateLimiter = AIORateLimiter()  # max_retries=0: RetryAfter reaches the outbox
        builder = builder.rate_limiter(limiter)  # type: ignore[arg-type]
    application: PTBApp = builder.build()
    add_handlers(application)
    return application


def _sender_of(update: Update) -> str:
    user, chat = update.effective_user, update.effective_chat
    return str(user.id if user else chat.id if chat else 0)


def _body_of(update: Update) -> str:
    if update.callback_query is not None:
        return update.callback_query.data or ""
    message = update.effective_message
    if message is None:
        return ""
    if message.location is not None:
        return f"[location {message.location.latitude},{message.location.longitude}]"
    if message.photo:
        return "[photo]" + (f" {message.caption}" if message.caption else "")
    return message.text or message.caption or ""


class TelegramChannel:
    """The running channel: handles updates, and delivers the replies they queue."""

    def __init__(self, app: App, application: PTBApp, options: TelegramOptions) -> None:
        self.app, self.application, self.options = app, application, options
        self.sender = TelegramSender(
            application.bot, ChatPacer(options.chat_interval), app.deps.photo_store()
        )
        self.delivery = TelegramDelivery(app.store, self.sender, gate=app.gate)

    async def receive(self, data: dict[str, Any]) -> bool:
        """Store the raw update, then handle it once; False if Telegram should resend it."""
        if not isinstance(data.get("update_id"), int):
            return await self.reject(json.dumps(data, default=str).encode(), "no update_id")
        data = clean_data(data)  # no NUL or lone surrogate reaches the database
        key = update_key(self.application.bot.id, data["update_id"])
        try:
            update = Update.de_json(data, self.application.bot)
            message = Inbound(CHANNEL, key, _sender_of(update), _body_of(update), data)
        except Exception as exc:  # not an update PTB can read: kept as rejected, not resent
            log.warning("Telegram update %s could not be read: %s", key, type(exc).__name__)
            return await self._store_rejected(key, data, f"unreadable: {type(exc).__name__}")

        prefetched: dict[str, Incoming] = {}

        async def handle(tx: Tx) -> str:
            turn = await open_turn(tx, self.app.deps, update, key)
            turn.prefetched = dict(prefetched)
            sender = message.sender
            allowed = await admit(tx, self.app.config.limits, CHANNEL, sender, turn.caller.role)
            if not allowed.answer:  # past the sender's limit: stored, told once, then silent
                if allowed.tell:
                    await turn.send(render.too_many_messages(allowed.until, turn.tr))
                return turn.summary() or "[not answered: over the limit]"
            with using(turn):
                await self.application.process_update(update)
            if turn.error is not None:
                raise turn.error
            if turn.penalty:
                await charge(tx, CHANNEL, sender, turn.penalty)
            return turn.summary()

        try:
            sent = photos.Sent.of(update.effective_message) if update.effective_message else None
            if sent is not None:  # its picture is downloaded before, never inside, its turn
                async with self.app.store.turn():
                    await store_inbound(self.app.store, message)
                wanted = await self._wanted(message, update, key)
                if wanted is not None:
                    bot = self.application.bot
                    prefetched[wanted.key] = await photos.download(bot, self.app.deps, wanted)
            await process_inbound(self.app.store, message, handle)
        except Exception:
            log.exception("Telegram update %s could not be handled", key)
            return await self._failed(update, key)
        finally:
            self.delivery.kick()
        return True

    async def _wanted(self, message: Inbound, update: Update, key: str) -> photos.Sent | None:
        """The picture the handlers will want downloaded for a stored, unhandled update:
        read (``wanted_photo``: who sent it, within their limit, to what) in a transaction
        that is rolled back, without handling the update (it is handled once, after)."""
        wanted: photos.Sent | None = None
        try:
            async with self.app.store.transaction() as tx:
                done = await inbox.processed_at(tx, CHANNEL, message.provider_id)
                if done is None:
                    try:
                        turn = await open_turn(tx, self.app.deps, update, key)
                        limits = self.app.config.limits
                        role = turn.caller.role
                        if (await admit(tx, limits, CHANNEL, message.sender, role)).answer:
                            wanted = await wanted_photo(turn, update)
                    except Exception as exc:  # the handling proper meets it and answers it
                        log.debug("Telegram update %s: not read: %r", message.provider_id, exc)
                raise _Read
        except _Read:
            pass
        return wanted

    async def reject(self, body: bytes, fault: str) -> bool:
        """Keep a body that is not a readable update as processed-and-rejected (keyed by
        its hash, so a repeat is stored once); False if even that cannot be written."""
        key = "rejected:" + hashlib.sha256(body).hexdigest()[:40]
        log.warning("Telegram update %s rejected: %s (%d bytes)", key, fault, len(body))
        excerpt = clean_text(body[:_REJECTED_EXCERPT].decode("utf-8", "replace"))
        raw = {"rejected": fault, "bytes": len(body), "excerpt": excerpt}
        return await self._store_rejected(key, raw, fault)

    async def _store_rejected(self, key: str, raw: dict[str, Any], fault: str) -> bool:
        async def rejected(tx: Tx) -> str:
            return f"[rejected] {fault}"

        try:
            await process_inbound(self.app.store, Inbound(CHANNEL, key, "", "", raw), rejected)
        except Exception:
            log.exception("Telegram update %s: the rejection could not be recorded", key)
            return False
        return True

    async def _failed(self, update: Update, key: str) -> bool:
        """Mark a stored update handled-with-failure and tell its sender; False if the
        update is not stored (or this cannot be written): Telegram must resend it."""
        user = update.effective_user
        client = (user.language_code or "")[:2] if user else ""
        lang = reply_language(client, text=_body_of(update))
        reply = render.try_again_later(translator(lang))
        try:
            async with self.app.store.transaction() as tx:
                if not await inbox.mark_failed(tx, CHANNEL, key, f"[failed] {reply}"):
                    return False
                chat = update.effective_chat
                if chat is not None:
                    await enqueue(
                        tx,
                        key=f"tg-reply:{key}",
                        channel=CHANNEL,
                        recipient=str(chat.id),
                        body=reply,
                        purpose="answer",
                    )
        except Exception:
            log.exception("Telegram update %s: the failure could not be recorded", key)
            return False
        return True

    async def sweep(self) -> int:
        """Handle the updates stored but never handled (the process stopped in between)."""
        async with self.app.store.transaction() as tx:
            waiting = await inbox.unprocessed(tx, CHANNEL)
            bot_id = self.application.bot.id
            raws = []
            for row_id, key, raw in waiting:
                if ":" in key:  # another bot's updates are not this bot's to answer
                    if key.startswith(f"{bot_id}:"):
                        raws.append(raw)
                    continue
                # Stored by a version that keyed updates by id alone: this bot's, rekeyed
                # so that Telegram sending it again finds it.
                if isinstance(raw, dict) and isinstance(raw.get("update_id"), int):
                    await inbox.rekey(tx, row_id, update_key(bot_id, raw["update_id"]))
                raws.append(raw)
        for raw in raws:
            await self.receive(raw)
        if raws:
            log.info("Telegram: handled %d update(s) stored before a stop", len(raws))
        return len(raws)


class _Read(Exception):
    """What the update wants is read: the transaction it was read in is rolled back."""


def update_key(bot_id: int, update_id: int) -> str:
    """The inbox key of an update: ``<bot id>:<update_id>``."""
    return f"{bot_id}:{update_id}"


def webhook_route(secret: str) -> Route:
    """``POST /telegram``: the channel comes from ``app.state.telegram`` (the lifespan)."""

    async def webhook(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not secret or not hmac.compare_digest(given, secret.encode()):
            log.warning("refused a Telegram update without the right secret token")
            return Response("forbidden", status_code=403)
        channel: TelegramChannel | None = getattr(request.app.state, "telegram", None)
        if channel is None:
            return Response("starting", status_code=503)
        body = await read_capped(request, MAX_UPDATE_BYTES)
        if body is None:
            log.warning("refused a Telegram update over %d bytes", MAX_UPDATE_BYTES)
            return Response("too large", status_code=413)
        data, fault = parse_update(body)
        if data is None:
            handled = await channel.reject(body, fault)
        else:
            handled = await channel.receive(data)
        return Response(status_code=200 if handled else 500)

    return Route("/telegram", webhook, methods=["POST"])


async def read_capped(request: Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it is known to be over ``limit`` bytes
    (by its Content-Length, or while it streams in): never more than that is read."""
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def parse_update(body: bytes) -> tuple[dict[str, Any] | None, str]:
    """The update in ``body``; or None and why it is not one."""
    try:
        data = json.loads(body)
    except RecursionError:
        return None, "nested too deep"
    except ValueError as exc:  # not UTF-8 or not JSON
        return None, f"not JSON: {type(exc).__name__}"
    if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
        return None, "not an update (no integer update_id)"
    if _depth_over(data, MAX_UPDATE_DEPTH):
        return None, "nested too deep"
    return data, ""


def _depth_over(value: Any, limit: int) -> bool:
    """True when ``value`` nests more than ``limit`` containers deep (no recursion)."""
    level: list[Any] = [value]
    for _ in range(limit + 1):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return False
    return True


@asynccontextmanager
async def running(
    app: App, settings: Settings, options: TelegramOptions | None = None
) -> AsyncIterator[TelegramChannel]:
    """The channel, for the life of the server: PTB started (``getMe``), default menus
    set, updates left unhandled by a stop handled, then new updates taken."""
    options = options or TelegramOptions()
    application = build_application(settings, options)
    try:
        await application.initialize()
    except Exception:
        # PTB's shutdown skips an application whose initialize failed, leaving the HTTP
        # connection of its getMe open: close it, or every failed start leaks one.
        await application.bot.request.shutdown()
        raise
    try:
        await application.start()
        try:
            channel = TelegramChannel(app, application, options)
            await set_default_menus(application.bot)
            await channel.sweep()
            yield channel
        finally:
            await application.stop()
    finally:
        await application.shutdown()
