"""The database figures of GET /metrics, on SQLite and PostgreSQL: the outbox backlog by
channel, what of it is due, the age of its oldest message, reminders due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from prometheus_client.core import Metric

from bot.channels.metrics_page import database_figures
from bot.store.messages import enqueue
from bot.store.tx import Store
from bot.support.clock import FixedClock

pytestmark = pytest.mark.pg


def figures(metrics: list[Metric]) -> dict[tuple[str, str], float]:
    return {
        (sample.name, sample.labels.get("channel", "")): sample.value
        for metric in metrics
        for sample in metric.samples
    }


async def test_the_backlog_its_due_part_and_its_oldest_age_by_channel(
    store: Store, clock: FixedClock
) -> None:
    empty = figures(await database_figures(store))
    assert empty[("poundbot_outbox_backlog", "sms")] == 0
    assert empty[("poundbot_outbox_oldest_age_seconds", "telegram")] == 0
    assert empty[("poundbot_reminders_due", "")] == 0
    async with store.transaction() as tx:
        await enqueue(tx, key="a", channel="sms", recipient="+919847000001", body="x")
    clock.advance(minutes=10)
    async with store.transaction() as tx:
        await enqueue(tx, key="b", channel="sms", recipient="+919847000002", body="y")
        night = tx.now + timedelta(hours=9)  # an owner's SMS held for the morning
        await enqueue(
            tx, key="c", channel="sms", recipient="+919847000003", body="z", not_before=night
        )
        await enqueue(tx, key="d", channel="whatsapp", recipient="+919847000004", body="w")
    clock.advance(minutes=5)
    seen = figures(await database_figures(store))
    assert seen[("poundbot_outbox_backlog", "sms")] == 3
    assert seen[("poundbot_outbox_due", "sms")] == 2
    assert seen[("poundbot_outbox_oldest_age_seconds", "sms")] == 15 * 60
    assert seen[("poundbot_outbox_backlog", "whatsapp")] == 1
    assert seen[("poundbot_outbox_oldest_age_seconds", "whatsapp")] == 5 * 60
    assert seen[("poundbot_outbox_backlog", "telegram")] == 0
