"""The log of messages' read (``message_rows``): the messages about an officer's cases
only, the filters, the statuses of the log; one contract, kept alike by the fake in
memory, SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.config import Config
from bot.store.memory import MemoryCases
from bot.store.message_reads import log_key, status_of_row
from bot.store.models import InboxRow, OutboxRow
from bot.store.rows import add
from domain.calendar import LOCAL_TZ
from tests.contract.test_case_store import opened, seizure

NOW = datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ)
OWNER = "+919847012345"


def _out(key: str, status: str, case: str | None, **values: Any) -> OutboxRow:
    fields: dict[str, Any] = {
        "idempotency_key": key,
        "channel": "sms",
        "recipient": OWNER,
        "body": key,
        "status": status,
        "attempts": 1,
        "next_attempt_at": NOW,
        "created_at": NOW,
        "case_number": case,
    }
    return OutboxRow(**(fields | values))


async def _given(cases: Any, config: Config) -> None:
    await opened(cases, config)  # KNM-1
    await opened(cases, config, seizure(pound="ENM"))  # ENM-1
    rows: list[Any] = [
        _out("knm-failed", "failed", "KNM-1", last_error="timeout"),
        _out("knm-dlt", "failed", "KNM-1", last_error="dlt: no template"),
        _out("knm-held", "queued", "KNM-1", attempts=0, next_attempt_at=NOW + timedelta(hours=9)),
        _out("knm-stop", "dropped", "KNM-1", last_error="stop: said STOP"),
        _out("knm-wa", "read", "KNM-1", channel="whatsapp"),
        _out("enm-sent", "sent", "ENM-1"),
        _out("no-case", "sent", None, created_at=NOW - timedelta(days=1)),
        InboxRow(
            channel="sms",
            provider_id="p1",
            sender="+919847000077",
            body="inbound",
            raw={},
            received_at=NOW,
            processed_at=None,
        ),
    ]
    async with cases.transaction() as tx:
        for row in rows:
            if isinstance(tx, MemoryCases):
                tx.add_row(row)
            else:
                await add(tx, row)


async def _bodies(cases: Any, pounds: list[str] | None, **narrowed: Any) -> set[str]:
    wanted: dict[str, Any] = {
        "case": "",
        "phone": "",
        "channel": "",
        "status": "",
        "since": None,
        "until": None,
    } | narrowed
    async with cases.reading() as tx:
        rows = await tx.message_rows(pounds, **wanted, now=NOW, upto=100)
    return {r[10] for r in rows}


async def test_an_officer_reads_only_the_messages_about_their_pounds(
    cases: Any, config: Config
) -> None:
    await _given(cases, config)
    assert await _bodies(cases, ["KNM"]) == {
        "knm-failed",
        "knm-dlt",
        "knm-held",
        "knm-stop",
        "knm-wa",
    }
    everything = await _bodies(cases, None)
    assert {"enm-sent", "no-case", "inbound"} <= everything


async def test_the_filters_and_statuses_narrow_the_rows(cases: Any, config: Config) -> None:
    await _given(cases, config)
    assert await _bodies(cases, None, status="failed") == {"knm-failed"}
    assert await _bodies(cases, None, status="dlt") == {"knm-dlt"}
    assert await _bodies(cases, None, status="held") == {"knm-held"}
    assert await _bodies(cases, None, status="stop") == {"knm-stop"}
    assert await _bodies(cases, None, status="delivered") == {"knm-wa"}
    assert await _bodies(cases, None, status="received") == {"inbound"}
    assert await _bodies(cases, None, case="ENM-1") == {"enm-sent"}
    assert await _bodies(cases, None, channel="whatsapp") == {"knm-wa"}
    assert await _bodies(cases, None, phone="+919847000077") == {"inbound"}
    day = NOW.replace(hour=0, minute=0)
    assert await _bodies(cases, None, since=day - timedelta(days=1), until=day) == {"no-case"}


async def test_the_rows_are_newest_first_and_their_statuses_named(
    cases: Any, config: Config
) -> None:
    await _given(cases, config)
    async with cases.reading() as tx:
        rows = await tx.message_rows(
            ["KNM"],
            case="",
            phone="",
            channel="",
            status="",
            since=None,
            until=None,
            now=NOW,
            upto=3,
        )
    assert len(rows) == 3
    named = {r[10]: status_of_row(r[0], r[4], r[5], r[6], r[7], NOW) for r in rows}
    assert set(named.values()) <= {"failed", "dlt", "held", "stop", "delivered"}


async def test_the_day_is_counted_by_status_as_its_rows_are_named(
    cases: Any, config: Config
) -> None:
    await _given(cases, config)
    day = NOW.replace(hour=0, minute=0)
    async with cases.reading() as tx:
        mine = await tx.message_counts(["KNM"], since=day, until=day + timedelta(days=1), now=NOW)
        every = await tx.message_counts(None, since=day, until=day + timedelta(days=1), now=NOW)
        rows = await tx.message_rows(
            None,
            case="",
            phone="",
            channel="",
            status="",
            since=day,
            until=day + timedelta(days=1),
            now=NOW,
            upto=100,
        )
    assert mine == {"failed": 1, "dlt": 1, "held": 1, "stop": 1, "delivered": 1}
    named: dict[str, int] = {}
    for r in rows:
        status = status_of_row(r[0], r[4], r[5], r[6], r[7], NOW)
        named[status] = named.get(status, 0) + 1
    assert every == named == {**mine, "sent": 1, "received": 1}  # yesterday's left out


async def _page(cases: Any, upto: int, **key: Any) -> list[tuple[Any, ...]]:
    async with cases.reading() as tx:
        return list(
            await tx.message_rows(
                None,
                case="",
                phone="",
                channel="",
                status="",
                since=None,
                until=None,
                now=NOW,
                upto=upto,
                **key,
            )
        )


async def test_the_pages_walked_down_by_key_and_back_up_hold_every_message_once(
    cases: Any, config: Config
) -> None:
    """A keyset through messages in and out at one same time (their order: time, "out"
    above "in", id): down three at a time, then up from the last, nothing skipped or
    read twice."""
    await _given(cases, config)
    async with cases.transaction() as tx:
        for n in range(2, 6):
            row = InboxRow(
                channel="sms",
                provider_id=f"p{n}",
                sender="+919847000077",
                body=f"inbound-{n}",
                raw={},
                received_at=NOW,
                processed_at=NOW,
            )
            if isinstance(tx, MemoryCases):
                tx.add_row(row)
            else:
                await add(tx, row)
    every = await _page(cases, 100)
    assert len(every) == 12
    keys = [log_key(r) for r in every]
    assert keys == sorted(keys, reverse=True)
    down: list[tuple[Any, ...]] = []
    page = await _page(cases, 3)
    while page:
        down += page
        page = await _page(cases, 3, before=log_key(page[-1]))
    assert [log_key(r) for r in down] == keys
    up: list[tuple[Any, ...]] = []
    page = await _page(cases, 3, after=log_key(every[-1]))
    while page:
        up = page + up
        page = await _page(cases, 3, after=log_key(page[0]))
    assert [log_key(r) for r in up] == keys[:-1]
