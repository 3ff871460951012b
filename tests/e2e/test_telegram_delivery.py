"""Delivering Telegram replies under load: two instances and a slow Bot API send each
reply once (issue 13, item 2); a chat with many replies queued does not hold up the
others (item 4)."""

from __future__ import annotations

import asyncio
from collections import Counter
from contextlib import AsyncExitStack
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from telegram import Bot

from bot.channels.telegram.outbox import split_text
from bot.channels.telegram.sender import ChatPacer, TelegramDelivery, TelegramSender
from bot.channels.telegram.webhook import TelegramOptions
from bot.fakes.telegram_api import TOKEN, Updates
from bot.i18n import render, translator
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.messages import enqueue
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.clock import SystemClock
from tests.e2e.telegram_rig import (
    KEEPER,
    OTHER_KEEPER,
    PUBLIC_URL,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    start_clock,
)

CHATS = 15


async def _statuses(store: Store) -> Counter[str]:
    async with store.transaction() as tx:
        return Counter((await tx.session.execute(select(OutboxRow.status))).scalars())


async def test_two_instances_with_a_slow_bot_api_send_each_reply_once(
    engine: AsyncEngine,
) -> None:
    # The run at small scale: a Bot API answering in 0.2 s, a lease of 1 s, so a
    # batch of 15 takes three leases to send one by one.
    url = engine.url.render_as_string(hide_password=False)
    first = Store(make_sessionmaker(engine), SystemClock())
    async with first.transaction() as tx:
        for chat in range(CHATS):
            await enqueue(
                tx, key=f"r{chat}", channel="telegram", recipient=str(9000 + chat), body="hi"
            )
    stop = asyncio.Event()
    async with AsyncExitStack() as stack:
        fake, fake_url = await stack.enter_async_context(fake_bot_api())
        fake.delay = 0.2
        loops, deliveries = [], []
        for _ in range(2):
            other = make_engine(url)
            stack.push_async_callback(other.dispose)
            store = Store(make_sessionmaker(other), SystemClock())
            bot = await stack.enter_async_context(Bot(TOKEN, base_url=f"{fake_url}/bot"))
            delivery = TelegramDelivery(
                store, TelegramSender(bot, ChatPacer(0)), interval=0.05, lease=timedelta(seconds=1)
            )
            deliveries.append(delivery)
            loops.append(asyncio.create_task(delivery.run(stop)))
        async with asyncio.timeout(30):
            await fake.wait_for("sendMessage", CHATS)
            for delivery in deliveries:  # each has finished what it took, found nothing more
                delivery.kick()
                await delivery.drained()
        stop.set()
        await asyncio.gather(*loops)
    chats = Counter(call.params["chat_id"] for call in fake.sent())
    assert chats == Counter({9000 + chat: 1 for chat in range(CHATS)})
    assert await _statuses(first) == Counter({"sent": CHATS})


async def test_a_chat_with_many_replies_queued_does_not_hold_up_another(tmp_path: Path) -> None:
    # Issue 13: 300 messages from one account queued 300 replies; another user's HELP was
    # answered 297 s later. Here: 20 from one keeper, paced one a second in their chat.
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    options = TelegramOptions(chat_interval=1.0, rate_limit=False)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates(), options) as rig,
    ):
        for _ in range(20):
            response = await rig.post(rig.updates.text(KEEPER, "/cases"))
            assert response.status_code == 200
        await rig.post(rig.updates.text(OTHER_KEEPER, "/help"))
        async with asyncio.timeout(10):
            while not fake.sent(OTHER_KEEPER.id):
                await fake.wait_for("sendMessage", len(fake.sent()) + 1)
        messages = fake.sent()
        answer = fake.sent(OTHER_KEEPER.id)[0]
        before = messages[: messages.index(answer)]
        assert len(before) <= 3, len(before)  # the flood's, one a second, not all 20
        help_text = render.help_text(
            "keeper",
            translator("en"),
            False,
            source_url=f"{PUBLIC_URL}/source",
            example="ENM-17",  # HELP's example on the keeper's own pound
        )
        assert answer.text == split_text(help_text)[0]
    assert await _pending(url) > 0  # the flood is still being paced out: it was not dropped


async def _pending(url: str) -> int:
    engine = make_engine(url)
    try:
        store = Store(make_sessionmaker(engine), SystemClock())
        statuses = await _statuses(store)
        return statuses["queued"] + statuses["sending"]
    finally:
        await engine.dispose()
