"""Send a failed message again (``bot.services.messages.resend``): once, by an admin or by
an officer of the case's authority, a new row copying the failed one, which the send gate
checks as any message when it is sent; refused for a keeper, another authority's
message, a message unknown, not failed or purged. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.adapters.outbox import deliver_once
from bot.bootstrap import send_gate
from bot.config import Config
from bot.services.admin import add_user
from bot.services.base import Deps
from bot.services.messages import MessageFilter, log, resend
from bot.store.messages import set_contact
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.errors import (
    NotAllowedError,
    NotFailedError,
    PurgedMessageError,
    UnknownMessageError,
)
from tests.contract.test_case_store import opened, seizure

OWNER = "+919847012345"


class FakeSender:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []

    async def send(self, recipient: str, body: str, key: str) -> str:
        await asyncio.sleep(0)
        self.sent.append((recipient, body, key))
        return f"SM{len(self.sent):04d}"


async def _row(store: Store, key: str, status: str, case: str | None, **values: Any) -> int:
    """An outbox row (a notice to the owner), as the delivery left it."""
    async with store.transaction() as tx:
        now = tx.now
        fields: dict[str, Any] = {
            "idempotency_key": key,
            "channel": "sms",
            "recipient": OWNER,
            "body": f"BODY-{key}",
            "status": status,
            "attempts": 1,
            "next_attempt_at": now,
            "created_at": now - timedelta(hours=1),
            "purpose": "notice",
            "case_number": case,
        }
        row = OutboxRow(**(fields | values))
        tx.session.add(row)
        await tx.session.flush()
        return row.id


async def _given(store: Store, config: Config) -> dict[str, int]:
    await opened(store, config)  # KNM-1 (KNM-GP)
    await opened(store, config, seizure(pound="ENM"))  # ENM-1 (ENM-GP)
    return {
        "failed": await _row(store, "a", "failed", "KNM-1", last_error="timeout"),
        "dlt": await _row(store, "b", "failed", "KNM-1", last_error="dlt: no template"),
        "sent": await _row(store, "c", "sent", "KNM-1"),
        "queued": await _row(store, "d", "queued", "KNM-1", attempts=0),
        "stopped": await _row(store, "e", "dropped", "KNM-1", last_error="stop: said STOP"),
        "other": await _row(store, "f", "failed", "ENM-1", last_error="timeout"),
        "no_case": await _row(store, "g", "undelivered", None),
    }


async def _named(store: Store, deps: Deps, role: str, name: str, **place: str) -> Caller:
    async with store.transaction() as tx:
        user = await add_user(tx, deps, Caller.system(), role=role, name=name, phone=None, **place)
    return Caller(role=role, channel="web", user_id=user.id, name=name, **place)


async def _outbox(store: Store) -> list[OutboxRow]:
    async with store.transaction() as tx:
        return list((await tx.session.scalars(select(OutboxRow).order_by(OutboxRow.id))).all())


async def test_an_admin_sends_a_failed_message_again_once(
    store: Store, config: Config, deps: Deps
) -> None:
    ids = await _given(store, config)
    anil = await _named(store, deps, "admin", "Anil")
    async with store.transaction() as tx:
        done = await resend(tx, deps, anil, ids["failed"])
    assert not done.already
    assert done.by == "Anil"
    rows = {r.id: r for r in await _outbox(store)}
    new = rows[done.again or 0]
    old = rows[ids["failed"]]
    assert new.idempotency_key == f"resend:{ids['failed']}"
    assert (new.channel, new.recipient, new.body, new.purpose, new.case_number) == (
        "sms",
        OWNER,
        "BODY-a",
        "notice",
        "KNM-1",
    )
    assert (new.status, new.attempts, new.resend_of) == ("queued", 0, old.id)
    assert old.resent_by == anil.user_id
    assert old.resent_at is not None
    assert old.status == "failed"  # the failed row stays as it was

    # A second POST (a double click, another tab, another instance) changes nothing.
    latha = await _named(store, deps, "officer", "Latha", authority="KNM-GP")
    async with store.transaction() as tx:
        again = await resend(tx, deps, latha, ids["failed"])
    assert again.already
    assert (again.by, again.again) == ("Anil", done.again)
    assert len(await _outbox(store)) == len(rows)


async def test_a_message_refused_by_dlt_is_sent_again_by_the_officer_of_its_authority(
    store: Store, config: Config, deps: Deps
) -> None:
    ids = await _given(store, config)
    latha = await _named(store, deps, "officer", "Latha", authority="KNM-GP")
    async with store.transaction() as tx:
        done = await resend(tx, deps, latha, ids["dlt"])
    assert done.again is not None
    assert not done.already


@pytest.mark.parametrize(
    ("which", "error"),
    [
        ("sent", NotFailedError),
        ("queued", NotFailedError),
        ("stopped", NotFailedError),  # held back on purpose: not a failure
        ("other", NotAllowedError),  # ENM-GP's
        ("no_case", NotAllowedError),  # an officer sees no message about no case
    ],
)
async def test_an_officer_is_refused_what_did_not_fail_or_is_not_theirs(
    store: Store, config: Config, deps: Deps, which: str, error: type[Exception]
) -> None:
    ids = await _given(store, config)
    before = [(r.id, r.status, r.resent_at) for r in await _outbox(store)]
    latha = await _named(store, deps, "officer", "Latha", authority="KNM-GP")
    with pytest.raises(error):
        async with store.transaction() as tx:
            await resend(tx, deps, latha, ids[which])
    assert [(r.id, r.status, r.resent_at) for r in await _outbox(store)] == before


async def test_a_keeper_an_unknown_message_and_a_purged_one_are_refused(
    store: Store, config: Config, deps: Deps
) -> None:
    ids = await _given(store, config)
    keeper = await _named(store, deps, "keeper", "Devi", pound="KNM")
    anil = await _named(store, deps, "admin", "Anil")
    with pytest.raises(NotAllowedError):
        async with store.transaction() as tx:
            await resend(tx, deps, keeper, ids["failed"])
    with pytest.raises(UnknownMessageError):
        async with store.transaction() as tx:
            await resend(tx, deps, anil, 999_999)
    purged = await _row(store, "h", "failed", "KNM-1", purged_at=store.clock.now())
    with pytest.raises(PurgedMessageError):
        async with store.transaction() as tx:
            await resend(tx, deps, anil, purged)
    # An admin may send again a failed message about no case.
    async with store.transaction() as tx:
        assert (await resend(tx, deps, anil, ids["no_case"])).again is not None
    async with store.transaction() as tx:
        total = await tx.session.scalar(select(func.count()).select_from(OutboxRow))
    assert total == len(ids) + 2


async def test_the_copy_passes_the_send_gate_a_stop_since_drops_it(
    store: Store, config: Config, deps: Deps
) -> None:
    ids = await _given(store, config)
    anil = await _named(store, deps, "admin", "Anil")
    async with store.transaction() as tx:
        first = await resend(tx, deps, anil, ids["failed"])
        await set_contact(tx, OWNER, opted_out=True)  # the owner said STOP since
        second = await resend(tx, deps, anil, ids["no_case"])
    sender = FakeSender()
    await deliver_once(store, {"sms": sender}, "w", gate=send_gate(lambda: deps))
    assert sender.sent == []
    rows = {r.id: r for r in await _outbox(store)}
    for done in (first, second):
        row = rows[done.again or 0]
        assert row.status == "dropped"
        assert (row.last_error or "").startswith("stop:")


async def test_the_copy_is_sent_once_and_the_log_links_the_two_rows(
    store: Store, config: Config, deps: Deps
) -> None:
    ids = await _given(store, config)
    anil = await _named(store, deps, "admin", "Anil")
    async with store.transaction() as tx:
        done = await resend(tx, deps, anil, ids["no_case"])
    sender = FakeSender()
    gate = send_gate(lambda: deps)
    await deliver_once(store, {"sms": sender}, "w", gate=gate)
    await deliver_once(store, {"sms": sender}, "w", gate=gate)
    again = [sent for sent in sender.sent if sent[2].startswith("resend:")]
    assert again == [(OWNER, "BODY-g", f"resend:{ids['no_case']}")]
    async with store.reading() as tx:
        found = await log(tx, deps, anil, MessageFilter())
    by_id = {m.id: m for m in found.items if m.direction == "out"}
    old, new = by_id[ids["no_case"]], by_id[done.again or 0]
    assert (old.resent_by, old.resent_as, old.may_resend) == ("Anil", new.id, False)
    assert old.resent_at is not None
    assert (new.resend_of, new.status, new.may_resend) == (old.id, "sent", False)
    assert by_id[ids["failed"]].may_resend
    assert by_id[ids["dlt"]].may_resend
    assert not by_id[ids["sent"]].may_resend


async def test_a_part_of_an_sms_in_parts_is_sent_again_as_that_part(
    store: Store, config: Config, deps: Deps
) -> None:
    await opened(store, config)
    part = await _row(store, "owner:KNM-1:x#2", "failed", "KNM-1", last_error="timeout")
    anil = await _named(store, deps, "admin", "Anil")
    async with store.transaction() as tx:
        done = await resend(tx, deps, replace(anil, name="Anil"), part)
    rows = {r.id: r for r in await _outbox(store)}
    assert rows[done.again or 0].idempotency_key == f"resend:{part}#2"


async def test_two_sendings_again_at_once_queue_one_copy(
    store: Store, config: Config, deps: Deps
) -> None:
    ids = await _given(store, config)
    anil = await _named(store, deps, "admin", "Anil")
    latha = await _named(store, deps, "officer", "Latha", authority="KNM-GP")

    async def press(caller: Caller) -> Any:
        async with store.transaction() as tx:
            return await resend(tx, deps, caller, ids["failed"])

    outcomes = await asyncio.gather(press(anil), press(latha))
    assert sorted(o.already for o in outcomes) == [False, True]
    assert len({o.again for o in outcomes}) == 1  # the one copy, named by both
    copies = [r for r in await _outbox(store) if r.resend_of == ids["failed"]]
    assert len(copies) == 1
