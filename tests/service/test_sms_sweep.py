"""The SMS sweep across instances: two instances sweeping one inbox at once act on each
stored message once and queue one answer for it (on SQLite, and on PostgreSQL where
they skip each other's locked rows)."""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.bootstrap import App
from bot.caller import Caller
from bot.channels.sms_sweep import SmsSweep
from bot.clock import FixedClock
from bot.config import Config
from bot.services.admin import add_user
from bot.services.base import Deps
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.messages import Inbound, store_inbound
from bot.store.models import CaseRow, InboxRow, OutboxRow
from bot.store.tx import Store

KEEPER = "+919847000010"
MESSAGES = 24


async def test_two_instances_sweeping_at_once_act_on_each_stored_sms_once(
    engine: AsyncEngine, store: Store, config: Config, clock: FixedClock
) -> None:
    async with store.transaction() as tx:
        await add_user(
            tx, Deps(config, clock), Caller.system(), role="keeper", pound="KNM", phone=KEEPER
        )
    clock.advance(minutes=-5)  # stored five minutes ago, by an instance killed since
    for i in range(MESSAGES):
        body = f"SEIZE 1 cow AT Kallai {i}"
        await store_inbound(store, Inbound("sms", f"SM-{i}", KEEPER, body, {"Body": body}))
    clock.advance(minutes=5)

    url = engine.url.render_as_string(hide_password=False)
    engines = [make_engine(url) for _ in range(2)]
    sqlite = engine.dialect.name == "sqlite"
    try:
        sweeps = [
            SmsSweep(
                App(
                    config,
                    other,
                    Store(make_sessionmaker(other), clock, serialize=sqlite),
                    Deps(config, clock),
                )
            )
            for other in engines
        ]
        counts = await asyncio.gather(*(sweep.once() for sweep in sweeps))
    finally:
        for other in engines:
            await other.dispose()

    assert sum(counts) == MESSAGES
    async with store.transaction() as tx:
        places = Counter((await tx.session.execute(select(CaseRow.place_seized))).scalars())
        keys = Counter((await tx.session.execute(select(OutboxRow.idempotency_key))).scalars())
        left = await tx.session.scalar(
            select(func.count()).select_from(InboxRow).where(InboxRow.processed_at.is_(None))
        )
    assert places == Counter(f"Kallai {i}" for i in range(MESSAGES))  # each acted on once
    assert keys == Counter(f"sms-reply:SM-{i}" for i in range(MESSAGES))  # one answer each
    assert left == 0
