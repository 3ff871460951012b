"""Heartbeats of the running instances: who may still be sending what it claimed.

A claim (an outbox message, a reminder job) is held under a lease long enough for a slow
provider, two minutes. An instance killed with ``kill -9`` cannot give its claims back,
and waiting out the lease held the replies it had claimed for two minutes. So each
``poundbot serve`` writes its name and the time every ``BEAT`` (``heartbeat``), and a
claim whose instance has not beaten for ``DEAD_AFTER`` may be taken by another at once
(``stopped``), lease or not. A claim by a name that never beat (a ``remind --once``
run, a test) is held by its lease alone. An instance that stops cleanly removes its row.

Taking over the claims of a dead instance sends again only what it had handed to the
provider without recording it: the one message in flight when it died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Select, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import InstrumentedAttribute

from bot.store.models import Instance
from bot.store.tx import Store


def worker_id() -> str:
    """A name for this process's leases, unique across instances and restarts."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


__all__ = ["BEAT", "DEAD_AFTER", "beat", "forget", "heartbeat", "stopped", "taken_over"]

log = logging.getLogger("poundbot.instances")

#: How often a running instance says it is alive.
BEAT = timedelta(seconds=3)
#: Silence after which an instance is taken as dead: four beats missed (a busy event
#: loop or database may delay one or two), and with the delivery loop's 2-second poll
#: a dead instance's messages go out again within 15 seconds.
DEAD_AFTER = timedelta(seconds=12)


def stopped(now: datetime) -> Select[str]:
    """The names of the instances whose heartbeat stopped ``DEAD_AFTER`` before ``now``."""
    return select(Instance.name).where(Instance.beat_at < now - DEAD_AFTER)


def taken_over(
    claimed_by: ColumnElement[str | None] | InstrumentedAttribute[str | None], now: datetime
) -> ColumnElement[bool]:
    """Whether a claim by ``claimed_by`` belongs to a dead instance."""
    return claimed_by.in_(stopped(now).scalar_subquery())


async def beat(store: Store, name: str) -> None:
    """Say that ``name`` is alive now."""
    async with store.transaction() as tx:
        dialect = tx.session.bind.dialect.name if tx.session.bind else "sqlite"
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        statement = insert(Instance).values(name=name, beat_at=tx.now)
        await tx.session.execute(
            statement.on_conflict_do_update(
                index_elements=[Instance.name], set_={"beat_at": statement.excluded.beat_at}
            )
        )


async def forget(store: Store, name: str) -> None:
    """Remove ``name`` (it stops cleanly; its claims are given back or finished)."""
    async with store.transaction() as tx:
        await tx.session.execute(delete(Instance).where(Instance.name == name))


async def heartbeat(store: Store, name: str, stop: asyncio.Event) -> None:
    """Beat every ``BEAT`` until ``stop`` is set or cancelled, then forget ``name``. A beat
    that fails is logged and tried again at the next."""
    try:
        while not stop.is_set():
            try:
                await beat(store, name)
            except Exception as exc:  # the database is away: the next beat tries again
                log.warning("heartbeat of %s failed: %s", name, type(exc).__name__)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=BEAT.total_seconds())
    finally:
        with contextlib.suppress(Exception):
            await forget(store, name)
