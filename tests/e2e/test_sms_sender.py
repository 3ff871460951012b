"""Who an SMS is from, read once per message: the registered user of the number (only
while active), else the public with the language the number chose; and the statements
an owner's DUES costs, counted (not timed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select

from bot.channels.identity import sender_of
from bot.services.admin import find_user, remove_user
from bot.store.messages import set_contact
from bot.store.models import Contact
from bot.support.caller import Caller
from tests.e2e.sms_harness import KEEPER_PHONE, SmsRig, sms_rig

OWNER = "+919847099999"
SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def test_the_sender_and_what_the_number_chose_are_read_together(rig: SmsRig) -> None:
    async with rig.app.store.transaction() as tx:
        stranger = await sender_of(tx, "09847012399")  # as the network may write it
        await set_contact(tx, OWNER, lang="ta")
        owner = await sender_of(tx, OWNER)
        keeper = await sender_of(tx, KEEPER_PHONE)
        contact = await tx.session.get(Contact, OWNER)
        assert contact is not None
        contact.last_channel = "whatsapp"
        await tx.session.flush()
        on_whatsapp = await sender_of(tx, OWNER)
    assert stranger.caller == Caller.public("sms", phone="+919847012399", number_lang="")
    assert stranger.last_channel is None
    assert owner.caller.number_lang == "ta"
    assert owner.caller.role == "public"
    assert keeper.caller.role == "keeper"
    assert keeper.caller.pound == "KNM"
    assert on_whatsapp.last_channel == "whatsapp"


async def test_a_removed_keepers_number_writes_as_the_public(rig: SmsRig) -> None:
    async with rig.app.store.transaction() as tx:
        user = await find_user(tx, phone=KEEPER_PHONE)
        assert user is not None
        await remove_user(tx, rig.app.deps, Caller.system(), user.id)
        gone = await sender_of(tx, KEEPER_PHONE)
    assert gone.caller.role == "public"
    reply = (await rig.sms(KEEPER_PHONE, SEIZE, "SM-removed-1")).text
    assert "KNM-1" not in reply


async def test_an_owners_dues_by_sms_costs_five_statements(rig: SmsRig) -> None:
    """Store the message; claim it, reading its sender and the case it names (one
    statement); count it against the sender's limit; count its answer against the ceiling
    of answers to the public (one statement, which also asks whether the number is
    staff's: ``bot.notifications.spending``); mark it answered: no more, once the
    case is kept folded (a statement more per SMS is a measurable share of the webhook's
    time: bench/sms_webhook.py). Counted as SQLAlchemy hands each to the driver."""
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    await rig.sms(OWNER, "LANG ml", "SM-lang-1")
    await rig.sms(OWNER, "DUES KNM-1", "SM-dues-0")  # the case read, and kept folded
    statements: list[str] = []

    def count(statement: str) -> None:
        if statement.startswith(("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")):
            return
        if "instances" in statement:  # the server's heartbeat, every few seconds
            return
        statements.append(statement)

    def handed(_conn: Any, _cursor: Any, statement: str, *_: object) -> None:
        count(statement)

    engine = rig.app.engine.sync_engine
    event.listen(engine, "before_cursor_execute", handed)
    try:
        reply = (await rig.sms(OWNER, "DUES KNM-1", "SM-dues-1")).text
    finally:
        event.remove(engine, "before_cursor_execute", handed)
    assert "KNM-1" in reply
    assert re.search("[\u0d00-\u0d7f]", reply)  # the language the number chose
    assert any("sender_counts" in s for s in statements), statements
    assert any("send_counts" in s for s in statements), statements
    assert len(statements) <= 5, "\n".join(statements)
    async with rig.app.store.transaction() as tx:
        assert await tx.session.scalar(select(Contact.lang).where(Contact.phone == OWNER)) == "ml"


async def test_the_case_read_with_the_claim_is_the_case_as_stored(rig: SmsRig) -> None:
    """After each step, an owner's DUES (its case read with the message's claim, from
    the fold and the row kept) is the DUES made with nothing kept."""
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    asked = iter(range(100))

    async def dues(text: str = "DUES KNM-1") -> str:
        n = next(asked)  # a number of its own each time: never past the public's limit
        return (await rig.sms(f"+9198470{n:05d}", text, f"SM-dues-{n}")).text

    steps = (
        "CORRECT KNM-1 AT Pathimangalam BECAUSE wrong",
        "CORRECT KNM-1 CATTLE 2 cow (brown) BECAUSE miscounted",
        "PAID KNM-1",
        "",
    )
    for n, step in enumerate(steps):
        kept = await dues()
        assert kept == await dues("dues knm 1")
        rig.app.store.cases.clear()
        assert kept == await dues()
        assert "KNM-1" in kept
        if step:
            assert "KNM-1" in (await rig.sms(KEEPER_PHONE, step, f"SM-step-{n}")).text
    assert "released" in kept
