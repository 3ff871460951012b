"""The daily purge inside ``poundbot serve`` (``bot.entry.workers.purge_daily``): once a
local day, the messages older than the retention period lose their text and number; a
second check the same day does nothing, the next day's purges again."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.entry.workers import purge_daily
from bot.store.models import OutboxRow
from tests.web.rig import Rig, rig


async def _old(r: Rig, key: str) -> None:
    at = r.clock.now() - timedelta(days=r.app.config.retention.messages_days + 1)
    async with r.app.store.transaction() as tx:
        tx.session.add(
            OutboxRow(
                idempotency_key=key,
                channel="sms",
                recipient="+919847012345",
                body=key,
                status="sent",
                attempts=1,
                next_attempt_at=at,
                created_at=at,
            )
        )


async def _purged(r: Rig) -> dict[str, bool]:
    async with r.app.store.transaction() as tx:
        rows = (await tx.session.scalars(select(OutboxRow))).all()
    return {row.idempotency_key: row.purged_at is not None for row in rows}


async def test_the_server_purges_old_messages_once_a_day(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _old(r, "first")
        done = await purge_daily(r.app, None)
        assert done == r.app.deps.today()
        assert await _purged(r) == {"first": True}
        await _old(r, "second")
        assert await purge_daily(r.app, done) == done  # the same day: not again
        assert await _purged(r) == {"first": True, "second": False}
        r.clock.advance(days=1)
        assert await purge_daily(r.app, done) == r.app.deps.today()
        assert await _purged(r) == {"first": True, "second": True}
