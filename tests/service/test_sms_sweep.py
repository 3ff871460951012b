"""The SMS sweep across instances: two instances sweeping one inbox at once act on each
stored message once and queue one answer for it (on SQLite, and on PostgreSQL where
they skip each other's locked rows)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.channels.sms import answer as sms
from bot.channels.sms.sweep import SmsSweep
from bot.config import Config
from bot.services.admin import add_user
from bot.services.base import Deps
from bot.services.runtime import App
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.messages import Inbound, store_inbound
from bot.store.models import CaseRow, InboxRow, OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock

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


async def _one_stored(store: Store, config: Config, clock: FixedClock) -> App:
    async with store.transaction() as tx:
        await add_user(
            tx, Deps(config, clock), Caller.system(), role="keeper", pound="KNM", phone=KEEPER
        )
    clock.advance(minutes=-5)
    body = "SEIZE 1 cow AT Feroke"
    await store_inbound(store, Inbound("sms", "SM-1", KEEPER, body, {"Body": body}))
    clock.advance(minutes=5)
    return App(config, store.engine, store, Deps(config, clock))


async def test_a_message_the_sweep_cannot_act_on_is_marked_failed_and_its_sender_told(
    store: Store, config: Config, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = await _one_stored(store, config, clock)

    async def bug(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a fault in a handler")

    monkeypatch.setattr("bot.channels.sms.answer.handle_text", bug)
    assert await SmsSweep(app).once() == 1
    assert await SmsSweep(app).once() == 0  # never taken again
    async with store.transaction() as tx:
        row = (await tx.session.execute(select(InboxRow))).scalar_one()
        (answer,) = (await tx.session.execute(select(OutboxRow))).scalars()
        cases = await tx.session.scalar(select(func.count()).select_from(CaseRow))
    assert (row.reply or "").startswith("[failed] ")
    assert (answer.idempotency_key, answer.recipient) == ("sms-reply:SM-1", KEEPER)
    assert "send it again" in answer.body
    assert cases == 0


async def test_a_database_fault_leaves_the_message_for_the_next_pass(
    store: Store, config: Config, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = await _one_stored(store, config, clock)
    body = "SEIZE 1 buffalo AT Kallai"  # a second message, behind the first
    await store_inbound(store, Inbound("sms", "SM-2", KEEPER, body, {"Body": body}))
    clock.advance(minutes=2)
    real = sms.handle_text

    async def gone(tx: Any, deps: Any, caller: Any, body: str, **kwargs: Any) -> Any:
        if "Feroke" in body:  # the first message meets a fault of the database
            raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))
        return await real(tx, deps, caller, body, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(sms, "handle_text", gone)
        assert await SmsSweep(app).once() == 1  # the second is not held up by the first
    async with store.transaction() as tx:
        first = (
            await tx.session.execute(select(InboxRow).where(InboxRow.provider_id == "SM-1"))
        ).scalar_one()
        keys = (await tx.session.execute(select(OutboxRow.idempotency_key))).scalars().all()
    assert first.processed_at is None  # not marked failed: the database failed, not the message
    assert keys == ["sms-reply:SM-2"]
    assert await SmsSweep(app).once() == 1  # the next pass answers it
    async with store.transaction() as tx:
        answer = (
            await tx.session.execute(
                select(OutboxRow).where(OutboxRow.idempotency_key == "sms-reply:SM-1")
            )
        ).scalar_one()
    assert "KNM-2" in answer.body


async def test_a_message_the_sweep_answers_keeps_the_case_it_was_about(
    store: Store, config: Config, clock: FixedClock
) -> None:
    """Stored and left by an instance killed since, then answered by the sweep: the
    message and its answer are about the case the step made, as a live request's are
    (the authority of the case sees both in its log)."""
    app = await _one_stored(store, config, clock)
    assert await SmsSweep(app).once() == 1
    async with store.transaction() as tx:
        number = await tx.session.scalar(select(CaseRow.number))
        row = (await tx.session.execute(select(InboxRow))).scalar_one()
        answer = (await tx.session.execute(select(OutboxRow))).scalar_one()
    assert number == "KNM-1"
    assert (row.case_number, answer.case_number) == ("KNM-1", "KNM-1")
