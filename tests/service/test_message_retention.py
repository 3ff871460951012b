"""The retention of messages (``bot.services.retention``): past ``[retention]
messages_days`` the text and number of a message in or out are purged, the rows and the
log's counts by day, status and channel kept; a message queued or being sent is left;
a dry run changes nothing; a second run purges nothing more; many rows go in batches.
On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert, select

from bot.services.base import Deps
from bot.services.messages import MessageFilter, log
from bot.services.retention import purge_messages
from bot.store.message_care import PURGED
from bot.store.models import InboxRow, OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller

OWNER = "+919847012345"
DAYS = 180


def _out(key: str, status: str, at: datetime, **values: Any) -> OutboxRow:
    fields: dict[str, Any] = {
        "idempotency_key": key,
        "channel": "sms",
        "recipient": OWNER,
        "body": f"BODY-{key}",
        "status": status,
        "attempts": 1,
        "next_attempt_at": at,
        "created_at": at,
        "content_variables": '{"1": "Kunhammed"}',
    }
    return OutboxRow(**(fields | values))


def _in(provider_id: str, at: datetime) -> InboxRow:
    return InboxRow(
        channel="sms",
        provider_id=provider_id,
        sender=OWNER,
        body=f"BODY-{provider_id}",
        raw={"From": OWNER, "Body": "DUES KNM-1"},
        received_at=at,
        processed_at=at,
        reply="Dues of KNM-1: ...",
    )


async def _given(store: Store) -> tuple[datetime, datetime]:
    """Old messages (200 days) of each status and channel, and recent ones (10 days)."""
    now = store.clock.now()
    old, recent = now - timedelta(days=DAYS + 20), now - timedelta(days=10)
    async with store.transaction() as tx:
        tx.session.add_all(
            [
                _out("old-sent", "sent", old),
                _out("old-failed", "failed", old, last_error="dlt: no template"),
                _out("old-stop", "dropped", old, last_error="stop: said STOP"),
                _out(
                    "old-refused",
                    "failed",
                    old,
                    last_error="provider 400: The 'To' number +919847012345 is not valid",
                ),
                _out("old-wa", "delivered", old, channel="whatsapp"),
                _out("old-queued", "queued", old, attempts=0),
                _out("old-sending", "sending", old),
                _out("recent", "sent", recent),
                _in("old-in", old),
                _in("recent-in", recent),
            ]
        )
    return old, recent


async def _counts(store: Store, deps: Deps, day: datetime) -> dict[str, int]:
    async with store.reading() as tx:
        start = day.replace(hour=0, minute=0)
        return await tx.message_counts(
            None, since=start - timedelta(days=1), until=start + timedelta(days=2), now=day
        )


async def _rows(store: Store) -> tuple[dict[str, OutboxRow], dict[str, InboxRow]]:
    async with store.transaction() as tx:
        outs = (await tx.session.scalars(select(OutboxRow))).all()
        ins = (await tx.session.scalars(select(InboxRow))).all()
    return {r.idempotency_key: r for r in outs}, {r.provider_id: r for r in ins}


async def test_old_messages_lose_their_text_and_number_and_keep_their_counts(
    store: Store, deps: Deps
) -> None:
    old, recent = await _given(store)
    counts_before = await _counts(store, deps, old), await _counts(store, deps, recent)
    purged = await purge_messages(store, DAYS, store.clock.now())
    assert (purged.inbox, purged.outbox) == (1, 5)
    outs, ins = await _rows(store)
    for key in ("old-sent", "old-failed", "old-stop", "old-wa", "old-refused"):
        row = outs[key]
        assert (row.body, row.recipient, row.content_variables) == ("", PURGED, None)
        assert row.purged_at is not None
    assert outs["old-failed"].last_error == "dlt: no template"  # its status stays
    # a provider's answer quoting the number keeps its reason, not the number
    assert outs["old-refused"].last_error == "provider 400: The 'To' number is not valid"
    for key in ("old-queued", "old-sending", "recent"):  # never a message still to go
        assert outs[key].body == f"BODY-{key}"
        assert outs[key].recipient == OWNER
        assert outs[key].purged_at is None
    assert (ins["old-in"].body, ins["old-in"].sender, ins["old-in"].raw) == ("", PURGED, {})
    assert ins["old-in"].reply is None
    assert ins["recent-in"].body == "BODY-recent-in"
    assert (await _counts(store, deps, old), await _counts(store, deps, recent)) == counts_before

    # The log says so, in place of the text and the number.
    async with store.reading() as tx:
        shown = await log(tx, deps, Caller(role="admin", channel="web"), MessageFilter())
    lines = {(m.direction, m.id): m for m in shown.items}
    gone = [m for m in lines.values() if m.purged_after is not None]
    assert len(gone) == 6
    assert {m.purged_after for m in gone} == {DAYS + 20}
    assert all(m.body == "" and m.number == "" and not m.may_resend for m in gone)

    # Run again, nothing more.
    again = await purge_messages(store, DAYS, store.clock.now())
    assert again.total == 0


async def test_a_dry_run_counts_and_changes_nothing(store: Store) -> None:
    await _given(store)
    before = await _rows(store)
    bodies = {k: (r.body, r.recipient) for k, r in before[0].items()}
    dry = await purge_messages(store, DAYS, store.clock.now(), dry_run=True)
    assert (dry.inbox, dry.outbox, dry.dry_run) == (1, 5, True)
    after = await _rows(store)
    assert {k: (r.body, r.recipient) for k, r in after[0].items()} == bodies
    assert all(r.purged_at is None for r in after[1].values())


async def test_many_rows_are_purged_in_batches(store: Store) -> None:
    now = store.clock.now()
    old = now - timedelta(days=DAYS + 1)
    rows = [
        {
            "idempotency_key": f"k{n}",
            "channel": "sms",
            "recipient": OWNER,
            "body": "x",
            "status": "sent",
            "attempts": 1,
            "next_attempt_at": old,
            "created_at": old,
        }
        for n in range(2_500)
    ]
    async with store.transaction() as tx:
        await tx.session.execute(insert(OutboxRow), rows)
        tx.session.add(_out("left", "queued", old, attempts=0))
    purged = await purge_messages(store, DAYS, now, batch=400)
    assert purged.outbox == 2_500
    outs, _ = await _rows(store)
    assert sum(r.purged_at is not None for r in outs.values()) == 2_500
    assert outs["left"].purged_at is None


async def test_the_retention_is_read_from_the_configuration(store: Store, deps: Deps) -> None:
    assert deps.config.retention.messages_days == DAYS  # the sample's, as the default
    await _given(store)
    shorter = await purge_messages(store, 5, store.clock.now(), dry_run=True)
    assert (shorter.inbox, shorter.outbox) == (2, 6)  # the recent ones are past 5 days
