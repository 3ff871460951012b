"""SMS end to end: signed requests into the running app, replies in TwiML, SMS out via Twilio."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.adapters.outbox import deliver_once
from bot.channels.sms import inbound as sms
from bot.channels.twilio.sender import TwilioSender
from bot.store import engine as store_engine
from bot.store.messages import Inbound, store_inbound
from bot.store.models import CaseRow, Contact, InboxRow, OutboxRow
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import (
    FROM,
    KEEPER_PHONE,
    OFFICER_PHONE,
    PUBLIC_URL,
    SID,
    TOKEN,
    SmsRig,
    deliver_sms,
    sms_rig,
)

OWNER = "+919847099999"
SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


async def count(rig: SmsRig, model: type) -> int:
    async with rig.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def test_a_keeper_reports_a_seizure_by_sms_and_the_owner_is_told(rig: SmsRig) -> None:
    response = await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-1")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    reply = message_of(response.text)
    assert "KNM-1" in reply
    assert await count(rig, CaseRow) == 1
    # The intake SMS to the owner goes out through the real twilio SDK to the fake API.
    async with TwilioSender(
        SID, TOKEN, FROM, api_url=rig.twilio_url, status_callback=PUBLIC_URL + "/twilio/status"
    ) as sender:
        await deliver_sms(rig, sender, 1)
    (sent,) = rig.twilio.messages
    assert sent["To"] == OWNER
    assert sent["From"] == FROM
    assert "KNM-1" in sent["Body"]
    assert sent["StatusCallback"] == PUBLIC_URL + "/twilio/status"
    assert rig.twilio.auth[0].startswith("Basic ")


async def test_an_owner_asks_dues_in_malayalam_and_gets_malayalam(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-2")
    reply = message_of((await rig.sms(OWNER, "കുടിശ്ശിക KNM-1", "SM-ml-1")).text)
    assert "KNM-1" in reply
    assert re.search("[\u0d00-\u0d7f]", reply)
    english = message_of((await rig.sms("+919847011111", "dues knm 1", "SM-en-1")).text)
    assert "KNM-1" in english
    assert not re.search("[\u0d00-\u0d7f]", english)


@pytest.mark.parametrize(
    "how", ["forged", "missing header", "signed for another URL", "blank parameter dropped"]
)
async def test_an_unsigned_or_forged_request_is_refused_and_changes_nothing(
    rig: SmsRig, how: str
) -> None:
    params = {"MessageSid": "SM-x", "From": KEEPER_PHONE, "Body": SEIZE, "FromCity": ""}
    signature = {
        "forged": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "missing header": "",
        "signed for another URL": rig.sign(
            "/twilio/sms", params, url="http://127.0.0.1/twilio/sms"
        ),
        "blank parameter dropped": rig.sign("/twilio/sms", {k: v for k, v in params.items() if v}),
    }[how]
    response = await rig.post("/twilio/sms", params, signature=signature)
    assert response.status_code == 403
    assert await count(rig, InboxRow) == 0
    assert await count(rig, CaseRow) == 0


async def test_a_webhook_url_with_a_query_is_checked_as_twilio_signed_it(rig: SmsRig) -> None:
    """Twilio signs the whole URL it was given, query and all (an operator may add one
    to tell numbers apart): the query counts, as it came, percent-escapes and all."""
    params = {"MessageSid": "SM-q", "From": OWNER, "Body": "HELP", "FromCity": ""}
    path = "/twilio/sms?n=1&to=%2B91%20x"
    signed = rig.sign(path, params)
    response = await rig.post(path, params, signature=signed)
    assert response.status_code == 200
    assert message_of(response.text)
    unsigned_query = rig.sign("/twilio/sms", {**params, "MessageSid": "SM-q2"})
    response = await rig.post(path, {**params, "MessageSid": "SM-q2"}, signature=unsigned_query)
    assert response.status_code == 403
    assert await count(rig, InboxRow) == 1


async def test_a_signature_of_the_url_with_its_default_port_is_taken_too(rig: SmsRig) -> None:
    """Twilio's signatures name the URL with or without its default port (``:443``);
    both are taken, and one with another port is not."""
    params = {"MessageSid": "SM-port", "From": OWNER, "Body": "HELP", "FromCity": ""}
    host = PUBLIC_URL.removeprefix("https://")
    with_port = rig.sign("/twilio/sms", params, url=f"https://{host}:443/twilio/sms")
    response = await rig.post("/twilio/sms", params, signature=with_port)
    assert response.status_code == 200
    assert message_of(response.text)
    other = {**params, "MessageSid": "SM-port2"}
    wrong_port = rig.sign("/twilio/sms", other, url=f"https://{host}:8443/twilio/sms")
    response = await rig.post("/twilio/sms", other, signature=wrong_port)
    assert response.status_code == 403
    assert await count(rig, InboxRow) == 1


async def test_a_signature_header_not_in_ascii_is_refused(rig: SmsRig) -> None:
    params = {"MessageSid": "SM-latin", "From": OWNER, "Body": "HELP", "FromCity": ""}
    response = await rig.http.post(
        "/twilio/sms", data=params, headers={b"X-Twilio-Signature": "caf\xe9".encode("latin-1")}
    )
    assert response.status_code == 403
    assert await count(rig, InboxRow) == 0


async def test_the_same_message_sid_five_times_at_once_has_one_effect(rig: SmsRig) -> None:
    responses = await asyncio.gather(*(rig.sms(KEEPER_PHONE, SEIZE, "SM-same") for _ in range(5)))
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    assert await count(rig, CaseRow) == 1
    assert await count(rig, InboxRow) == 1


async def test_stop_is_honoured_for_notifications_and_start_resumes(rig: SmsRig) -> None:
    reply = message_of((await rig.sms(OWNER, "STOP", "SM-stop")).text)
    assert reply
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-3")
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
        queued = await tx.session.scalar(select(func.count()).select_from(OutboxRow))
    assert contact is not None
    assert contact.opted_out_at is not None
    assert queued == 0
    await rig.sms(OWNER, "START", "SM-start")
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
    assert contact is not None
    assert contact.opted_out_at is None


async def test_delivery_reports_only_move_a_status_forward_and_21610_stops_a_number(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-4")
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        await deliver_once(rig.app.store, {"sms": sender}, "test")
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(OutboxRow))).scalar_one()
    sid = row.provider_id
    assert sid is not None
    for status in ("delivered", "sent", "sending"):
        response = await rig.post("/twilio/status", {"MessageSid": sid, "MessageStatus": status})
        assert response.status_code == 204
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(OutboxRow))).scalar_one()
    assert row.status == "delivered"
    forged = await rig.post(
        "/twilio/status", {"MessageSid": sid, "MessageStatus": "failed"}, signature="bad"
    )
    assert forged.status_code == 403
    await rig.post(
        "/twilio/status", {"MessageSid": sid, "MessageStatus": "failed", "ErrorCode": "21610"}
    )
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
    assert contact is not None
    assert contact.opted_out_at is not None


async def test_twilio_429_is_retried_and_an_accepted_message_is_never_resent(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-5")
    rig.twilio.fail = [(429, 20429), (503, 20503)]
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
        await rig.advance_clock(minutes=1)
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
        await rig.advance_clock(minutes=2)
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 1
        await rig.advance_clock(hours=2)
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
    assert len(rig.twilio.messages) == 1


async def test_an_owner_notification_waits_for_the_morning(rig: SmsRig) -> None:
    await rig.set_clock(datetime(2026, 3, 1, 22, 30, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-night")
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 0
        await rig.set_clock(datetime(2026, 3, 2, 8, 0, tzinfo=LOCAL_TZ))
        assert await deliver_once(rig.app.store, {"sms": sender}, "t") == 1


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(
        st.text(max_size=400),
        st.text(min_size=1500, max_size=5000),
        st.sampled_from(["", " ", "\x00\x01", "DUES", "SEIZE", "SEIZE 9999999 cow"]),
    )
)
async def test_any_body_gets_a_reply_never_a_5xx_and_stores_only_the_inbox_row(
    rig: SmsRig, body: str
) -> None:
    before = await count(rig, InboxRow)
    sid = f"SM-fuzz-{before}"
    sender = f"+9198470{before:05d}"  # one each: a number past its limit gets no reply
    response = await rig.sms(sender, body, sid)
    assert response.status_code == 200
    assert message_of(response.text)
    assert await count(rig, InboxRow) == before + 1
    assert await count(rig, CaseRow) == 0


async def test_a_crash_while_acting_answers_try_again_and_keeps_the_message(
    rig: SmsRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def crash(*args: object, **kwargs: object) -> object:
        raise RuntimeError("database went away")

    monkeypatch.setattr("bot.channels.sms.answer.handle_text", crash)
    response = await rig.sms(OWNER, "DUES KNM-1", "SM-crash")
    assert response.status_code == 200
    assert "send it again" in message_of(response.text)
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(InboxRow))).scalar_one()
    assert row.provider_id == "SM-crash"  # kept, as received
    assert row.body == "DUES KNM-1"
    # ... and marked failed: the sender was asked to send it again, so no sweep may
    # act on it later (that would answer twice, or open a case twice).
    assert row.processed_at is not None
    assert (row.reply or "").startswith("[failed] ")
    await rig.advance_clock(minutes=5)
    assert await rig.sweep.once() == 0
    assert await count(rig, OutboxRow) == 0


async def test_a_database_held_by_another_process_gets_try_again_and_records_nothing(
    rig: SmsRig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_engine, "BUSY_DEADLINE", 0.3)
    other = sqlite3.connect(tmp_path / "sms.sqlite3", isolation_level=None, check_same_thread=False)
    # As the admin CLI or a backup might, for too long: taken off the event loop, as
    # another process would (a transaction of poundbot's may be ending on it).
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    try:
        response = await rig.sms(KEEPER_PHONE, SEIZE, "SM-locked")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 200
    assert "send it again in a few minutes" in message_of(response.text)
    assert await count(rig, InboxRow) == 0
    assert await count(rig, CaseRow) == 0
    again = await rig.sms(KEEPER_PHONE, SEIZE, "SM-locked")  # the keeper sends it again
    assert "KNM-1" in message_of(again.text)
    assert await count(rig, CaseRow) == 1


# -- issue 13: nothing lost after a crash, nothing stalled past Twilio's timeout --------------


async def wait_for_sms(rig: SmsRig, n: int, seconds: float = 10.0) -> list[dict[str, str]]:
    """The messages the fake Twilio API got, once there are ``n`` (bounded wait)."""
    for _ in range(int(seconds / 0.05)):
        if len(rig.twilio.messages) >= n:
            break
        await asyncio.sleep(0.05)
    return rig.twilio.messages


async def settled(rig: SmsRig, seconds: float = 10.0) -> None:
    """Until every stored message is acted on and no SMS waits in the outbox (bounded)."""
    for _ in range(int(seconds / 0.05)):
        async with rig.app.store.transaction() as tx:
            waiting = await tx.session.scalar(
                select(func.count())
                .select_from(OutboxRow)
                .where(OutboxRow.status.in_(("queued", "sending")))
            )
            unread = await tx.session.scalar(
                select(func.count()).select_from(InboxRow).where(InboxRow.processed_at.is_(None))
            )
        if not waiting and not unread:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"messages still waiting after {seconds} s")


def stored_seize(sid: str, place: str) -> Inbound:
    params = {
        "MessageSid": sid,
        "From": KEEPER_PHONE,
        "To": FROM,
        "Body": f"SEIZE 1 cow AT {place}",
    }
    return Inbound("sms", sid, KEEPER_PHONE, params["Body"], params)


async def test_sms_stored_before_a_kill_are_acted_on_at_start_and_answered_by_sms(
    tmp_path: Path,
) -> None:
    # What kill -9 leaves behind: messages committed to the inbox, never acted on, and
    # their requests' answers never sent (Twilio does not send a message again).
    stored = [stored_seize(f"SM-killed-{i}", f"Chevayur {i}") for i in range(3)]
    async with sms_rig(tmp_path, stored=stored) as rig:
        sent = await wait_for_sms(rig, 3)
        assert sorted(m["To"] for m in sent) == [KEEPER_PHONE] * 3
        assert sorted(re.findall(r"KNM-\d+", " ".join(m["Body"] for m in sent))) == [
            "KNM-1",
            "KNM-2",
            "KNM-3",
        ]
        async with rig.app.store.transaction() as tx:
            places = (await tx.session.execute(select(CaseRow.place_seized))).scalars().all()
            inbox = (await tx.session.execute(select(InboxRow))).scalars().all()
            keys = (await tx.session.execute(select(OutboxRow.idempotency_key))).scalars().all()
        assert sorted(places) == ["Chevayur 0", "Chevayur 1", "Chevayur 2"]
        assert all(row.processed_at is not None and "KNM-" in (row.reply or "") for row in inbox)
        assert sorted(keys) == [f"sms-reply:SM-killed-{i}" for i in range(3)]
        # Twilio sending one of them again (it should not, but may) changes nothing and
        # gets no second answer: the answer went by SMS.
        again = await rig.sms(KEEPER_PHONE, "SEIZE 1 cow AT Chevayur 0", "SM-killed-0")
        assert "<Message>" not in again.text
        assert await count(rig, CaseRow) == 3
        assert await rig.sweep.once() == 0
        assert len(rig.twilio.messages) == 3


async def test_a_stored_sms_is_swept_once_it_is_a_minute_old_never_while_fresh(
    rig: SmsRig,
) -> None:
    await store_inbound(rig.app.store, stored_seize("SM-fresh", "Feroke"))
    assert await rig.sweep.once() == 0  # a live request may still be acting on it
    assert await count(rig, CaseRow) == 0
    await rig.advance_clock(seconds=61)
    assert await rig.sweep.once() == 1
    assert await rig.sweep.once() == 0
    (sent,) = await wait_for_sms(rig, 1)
    assert (sent["To"], re.findall(r"KNM-\d+", sent["Body"])) == (KEEPER_PHONE, ["KNM-1"])
    assert await count(rig, CaseRow) == 1


async def test_a_message_stored_but_not_acted_on_in_time_is_answered_once_by_sms(
    rig: SmsRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process takes the database between storing the message and acting on it,
    # for longer than the wait budget: the request cannot answer; the sweep does.
    real = sms.act_on_inbound
    calls = 0

    async def locked_once(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(sms, "act_on_inbound", locked_once)
    response = await rig.sms(KEEPER_PHONE, "SEIZE 1 cow AT Mavoor", "SM-late")
    assert response.status_code == 200
    assert "<Message>" not in response.text  # no "send again": it is stored, it will be done
    (sent,) = await wait_for_sms(rig, 1)
    assert (sent["To"], re.findall(r"KNM-\d+", sent["Body"])) == (KEEPER_PHONE, ["KNM-1"])
    assert await count(rig, CaseRow) == 1


async def test_two_sweeps_at_once_take_each_message_once(tmp_path: Path) -> None:
    stored = [stored_seize(f"SM-two-{i}", f"Kallai {i}") for i in range(6)]
    async with sms_rig(tmp_path, stored=stored) as rig:
        # The start-up sweep and two more passes race for the same messages.
        await asyncio.gather(rig.sweep.once(), rig.sweep.once())
        await wait_for_sms(rig, 6)
        await settled(rig)  # nothing left that could still send a seventh
        assert await count(rig, CaseRow) == 6
        assert sorted(m["Body"] for m in rig.twilio.messages) == sorted(
            {m["Body"] for m in rig.twilio.messages}
        )
        assert len(rig.twilio.messages) == 6


async def test_a_database_locked_past_the_wait_budget_answers_within_it_and_records_nothing(
    tmp_path: Path,
) -> None:
    budget = 0.6
    async with sms_rig(tmp_path, wait_budget=budget) as rig:
        other = sqlite3.connect(
            tmp_path / "sms.sqlite3", isolation_level=None, check_same_thread=False
        )
        # Another process holds the database for 4 s: taken off the event loop, as
        # another process would (a transaction of poundbot's may be ending on it).
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")

        def unlock() -> None:
            if other.in_transaction:
                other.execute("ROLLBACK")

        # Held 4 s at most, or until every request is answered if that comes first: a
        # request that waited for the lock instead of its budget is answered after 4 s.
        release = asyncio.get_running_loop().call_later(4.0, unlock)

        async def timed(i: int) -> tuple[float, str]:
            start = time.monotonic()
            response = await rig.sms(KEEPER_PHONE, f"SEIZE 1 cow AT Beypore {i}", f"SM-b-{i}")
            return time.monotonic() - start, response.text

        try:
            results = await asyncio.gather(*(timed(i) for i in range(12)))
        finally:
            release.cancel()
            unlock()
            other.close()
        # Each one is answered when its budget runs out, queue included: none waits for
        # the lock (4 s), let alone 12 x 5 s in turn. The margin is for a loaded machine.
        assert max(took for took, _ in results) < 4.0 - 1.0
        assert all("send it again" in message_of(text) for _, text in results)
        assert await count(rig, InboxRow) == 0  # nothing half-made
        assert await count(rig, CaseRow) == 0
        # The keeper sends them again (Twilio gives each a new MessageSid): one case each.
        for i in range(12):
            again = await rig.sms(KEEPER_PHONE, f"SEIZE 1 cow AT Beypore {i}", f"SM-b2-{i}")
            assert "KNM-" in message_of(again.text)
        assert await count(rig, CaseRow) == 12


async def test_an_officer_by_sms_records_a_deposit_outcome_and_a_vague_one_is_refused(
    rig: SmsRig,
) -> None:
    """Issue 12 (s.14, s.19): OUTCOME by signed SMS; the deposit's ledger moves with it."""
    from bot.store.models import LedgerEntry

    await rig.sms(KEEPER_PHONE, "SEIZE 1 cow AT Kunnamangalam market", "SM-h2-1")
    await rig.set_clock(datetime(2026, 3, 2, 10, 0, tzinfo=LOCAL_TZ))
    await rig.sms(KEEPER_PHONE, "DEPOSITED KNM-1", "SM-h2-2")
    await rig.set_clock(datetime(2026, 3, 20, 10, 0, tzinfo=LOCAL_TZ))
    vague = message_of((await rig.sms(OFFICER_PHONE, "OUTCOME KNM-1 REF CC-1", "SM-h2-3")).text)
    assert "s.14, s.19" in vague
    upheld = await rig.sms(OFFICER_PHONE, "OUTCOME KNM-1 UPHELD REF CC-12/2026", "SM-h2-4")
    assert "CC-12/2026" in message_of(upheld.text)
    async with rig.app.store.transaction() as tx:
        stage = await tx.session.scalar(select(CaseRow.stage).where(CaseRow.number == "KNM-1"))
        fund = await tx.session.scalar(
            select(func.sum(LedgerEntry.amount_paise)).where(LedgerEntry.account == "fund")
        )
    assert stage == "closed"
    assert fund == 75000  # the fine of one cow, applied from the deposit (s.17(1))
