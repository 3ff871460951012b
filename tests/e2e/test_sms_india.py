"""SMS that Indian networks carry, end to end: poundbot with Exotel or Mobile Seva, their
APIs faked on loopback, requests made as those providers make them; every answer goes out
as a push SMS through the outbox, carrying the DLT entity and template ids."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from twilio.request_validator import RequestValidator

from bot.channels.sms import inbound as sms_inbound
from bot.channels.sms.sweep import SmsSweep
from bot.store import engine as store_engine
from bot.store.messages import Inbound, store_inbound
from bot.store.models import CaseRow, Contact, InboxRow, OutboxRow
from tests.conftest import ENGINES
from tests.e2e.india_harness import (
    EXOPHONE,
    KEEPER_PHONE,
    MSEVA_SENDER,
    SECRET,
    STAMP,
    IndiaRig,
    database,
    india_rig,
)

OWNER = "+919847099999"
SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"
PROVIDERS = ["exotel", "mseva"]


async def count(rig: IndiaRig, model: type) -> int:
    async with rig.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


def carries_the_stamp(rig: IndiaRig, sent: dict[str, str]) -> None:
    if rig.provider == "exotel":
        assert sent["DltEntityId"] == STAMP.entity_id
        assert sent["DltTemplateId"] == STAMP.template_id
        assert sent["From"] == EXOPHONE
    else:
        assert sent["templateid"] == STAMP.template_id
        assert sent["senderid"] == MSEVA_SENDER


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database on each engine."""
    with database(request.param, tmp_path) as found:
        yield found


@pytest.fixture(params=PROVIDERS)
async def rig(request: pytest.FixtureRequest, tmp_path: Path, url: str):  # type: ignore[no-untyped-def]
    async with india_rig(tmp_path, request.param, url) as rig:
        yield rig


async def test_a_seizure_by_sms_tells_the_keeper_and_the_owner_by_push_sms(rig: IndiaRig) -> None:
    response = await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
    assert response.status_code == 200
    assert response.text == ""  # the answer goes out by push SMS, not in the HTTP answer
    assert await count(rig, CaseRow) == 1
    await rig.deliver(2)
    sent = {rig.to(m): m for m in rig.sent()}
    assert set(sent) == {KEEPER_PHONE, OWNER}
    assert "KNM-1" in rig.text_of(sent[KEEPER_PHONE])
    assert "KNM-1" in rig.text_of(sent[OWNER])
    for message in sent.values():
        carries_the_stamp(rig, message)


async def test_an_owner_asks_dues_and_is_answered_once(rig: IndiaRig) -> None:
    await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
    await rig.deliver(2)
    if rig.provider == "mseva":  # the keyword in any case, with extra spaces
        first = await rig.mseva_pull("9847099999", "kl   Pound  DUES KNM-1", stamp="t1")
        again = await rig.mseva_pull(
            "9847099999", "kl   Pound  DUES KNM-1", stamp="t1", method="POST"
        )
    else:
        first = await rig.exotel_sms("09847099999", "DUES KNM-1", "exo-dues-1")
        again = await rig.exotel_sms("09847099999", "DUES KNM-1", "exo-dues-1")
    assert first.status_code == again.status_code == 200
    await rig.deliver(3)
    answers = [m for m in rig.sent() if rig.to(m) == OWNER][1:]
    assert len(answers) == 1
    (answer,) = answers
    assert "KNM-1" in rig.text_of(answer)
    assert re.search(r"\d", rig.text_of(answer))  # the amount due
    carries_the_stamp(rig, answer)


async def test_malayalam_goes_as_unicode(rig: IndiaRig) -> None:
    await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
    await rig.deliver(2)  # the notice first, so that the answer is the owner's second SMS
    await rig.say(OWNER, "കുടിശ്ശിക KNM-1", "2026-03-01 10:00:02")
    await rig.deliver(3)
    (answer,) = [m for m in rig.sent() if rig.to(m) == OWNER][1:]
    assert re.search("[\u0d00-\u0d7f]", rig.text_of(answer))
    if rig.provider == "exotel":
        assert answer["EncodingType"] == "unicode"
    else:
        assert answer["smsservicetype"] == "unicodemsg"
        assert answer["content"].startswith("&#")


async def test_wrong_secrets_are_404_and_store_nothing(rig: IndiaRig) -> None:
    wrong = SECRET[:-1] + "x"
    responses = [
        await rig.exotel_sms("09847000010", SEIZE, "exo-x", secret=wrong),
        await rig.exotel_call("09847099999", "call-x", secret=wrong),
        await rig.http.post(f"/exotel/status/{wrong}", data={"SmsSid": "1", "Status": "sent"}),
        await rig.mseva_pull("9847000010", f"KL POUND {SEIZE}", secret=wrong),
        await rig.mseva_pull("9847000010", f"KL POUND {SEIZE}", secret=""),
    ]
    assert {r.status_code for r in responses} == {404}
    assert await count(rig, InboxRow) == 0
    assert await count(rig, CaseRow) == 0
    assert await count(rig, OutboxRow) == 0


async def test_stop_by_sms_stops_the_owner_notice(rig: IndiaRig) -> None:
    await rig.say(OWNER, "STOP", "2026-03-01 10:00:01")
    await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:02")
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, OWNER)
        notices = await tx.session.scalar(
            select(func.count())
            .select_from(OutboxRow)
            .where(OutboxRow.recipient == OWNER, OutboxRow.idempotency_key.not_like("sms-reply:%"))
        )
    assert contact is not None
    assert contact.opted_out_at is not None
    assert notices == 0


async def test_a_message_stored_and_never_answered_is_answered_by_the_sweep(
    rig: IndiaRig,
) -> None:
    sweep = rig.server.state.sms_sweep
    assert isinstance(sweep, SmsSweep)
    await rig.advance_clock(minutes=-5)
    sender = "09847099999" if rig.provider == "exotel" else "9847099999"
    await store_inbound(rig.app.store, Inbound("sms", f"{rig.provider}:lost-1", sender, "HELP", {}))
    await rig.advance_clock(minutes=5)
    await sweep.once()  # or the server's own first pass, if it comes later: once either way
    await rig.deliver(1)
    (answer,) = rig.sent()
    assert rig.to(answer) == OWNER
    carries_the_stamp(rig, answer)


@pytest.fixture
async def exotel(tmp_path: Path, url: str):  # type: ignore[no-untyped-def]
    async with india_rig(tmp_path, "exotel", url) as rig:
        yield rig


async def test_a_missed_call_sends_the_status_of_the_callers_cases_once(exotel: IndiaRig) -> None:
    await exotel.say(KEEPER_PHONE, SEIZE, "exo-seize")
    await exotel.deliver(2)
    for _ in range(3):  # Exotel retries a callback; one call is one SMS
        response = await exotel.exotel_call("09847099999", "call-1")
        assert response.status_code == 200
    await exotel.deliver(3)
    answers = [m for m in exotel.sent() if m["To"] == OWNER][1:]
    assert len(answers) == 1
    assert "KNM-1" in answers[0]["Body"]
    carries_the_stamp(exotel, answers[0])


async def test_a_missed_call_from_a_number_no_case_names_says_how_to_ask(
    exotel: IndiaRig,
) -> None:
    assert (await exotel.exotel_call("+919847055555", "call-2")).status_code == 200
    await exotel.deliver(1)
    (answer,) = exotel.sent()
    assert answer["To"] == "+919847055555"
    assert "STATUS KNM-1" in answer["Body"]


async def test_missed_calls_count_against_the_callers_limit(exotel: IndiaRig) -> None:
    allowance = exotel.app.config.limits.public
    for n in range(allowance + 3):
        await exotel.exotel_call("09847055555", f"call-many-{n}")
    await exotel.deliver(allowance + 1)
    assert len(exotel.sent()) == allowance + 1  # the answers, then "try again after"
    assert "many messages" in exotel.sent()[-1]["Body"]


async def test_exotel_delivery_reports_only_move_a_status_forward(exotel: IndiaRig) -> None:
    await exotel.say(OWNER, "HELP", "exo-help")
    await exotel.deliver(1)
    async with exotel.app.store.transaction() as tx:
        row = (await tx.session.execute(select(OutboxRow))).scalar_one()
    assert row.provider_id
    for status in ("sent", "submitted", "queued"):
        response = await exotel.http.post(
            f"/exotel/status/{SECRET}",
            data={
                "SmsSid": row.provider_id,
                "To": OWNER,
                "Status": status,
                "SmsUnits": "1",
                "DetailedStatus": "DELIVERED_TO_OPERATOR",
                "DetailedStatusCode": "20001",
                "DateSent": "2026-03-01 10:00:05",
            },
        )
        assert response.status_code == 200
    async with exotel.app.store.transaction() as tx:
        row = (await tx.session.execute(select(OutboxRow))).scalar_one()
    assert row.status == "sent"


async def test_a_source_address_outside_the_allow_list_is_404(tmp_path: Path) -> None:
    async with india_rig(tmp_path, "mseva", mseva_allow=("10.1.2.0/24",)) as rig:
        response = await rig.mseva_pull("9847000010", f"KL POUND {SEIZE}")
        assert response.status_code == 404
        assert await count(rig, InboxRow) == 0


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_database_held_too_long_is_503_records_nothing_and_the_retry_is_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    async with india_rig(tmp_path, provider) as rig:
        monkeypatch.setattr(store_engine, "BUSY_DEADLINE", 0.3)
        other = sqlite3.connect(
            tmp_path / "india.sqlite3", isolation_level=None, check_same_thread=False
        )
        # As the admin CLI or a backup might, for too long: taken off the event loop, as
        # another process would (a transaction of poundbot's may be ending on it).
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
        try:
            held = await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert held.status_code == 503  # the provider sends it again
        assert await count(rig, InboxRow) == 0
        again = await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
        assert again.status_code == 200
        assert await count(rig, CaseRow) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_message_stored_but_not_acted_on_in_time_is_answered_once_by_the_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    real = sms_inbound.act_on_inbound
    calls = 0

    async def locked_once(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(sms_inbound, "act_on_inbound", locked_once)
    async with india_rig(tmp_path, provider) as rig:
        response = await rig.say(KEEPER_PHONE, "SEIZE 1 cow AT Mavoor", "2026-03-01 10:00:01")
        assert response.status_code == 200  # stored: the sweep answers it
        await rig.deliver(1)
        (sent,) = rig.sent()
        assert rig.to(sent) == KEEPER_PHONE
        assert re.findall(r"KNM-\d+", rig.text_of(sent)) == ["KNM-1"]
        carries_the_stamp(rig, sent)
        assert await count(rig, CaseRow) == 1


async def test_a_missed_call_stored_and_never_answered_is_answered_by_the_sweep(
    exotel: IndiaRig,
) -> None:
    rig = exotel
    await rig.advance_clock(minutes=-5)
    call = Inbound("call", "exotel-call:lost", "+919847055555", "", {"CallSid": "lost"})
    await store_inbound(rig.app.store, call)
    await rig.advance_clock(minutes=5)
    # This pass, or the server's own first one if it comes later, answers it: once.
    await rig.server.state.sms_sweep.once()
    assert (await rig.exotel_call("09847055555", "lost")).status_code == 200  # a retry: no more
    await rig.deliver(1)
    (answer,) = rig.sent()
    assert answer["To"] == "+919847055555"
    assert "STATUS KNM-1" in answer["Body"]


async def test_exotel_checks_the_answer_with_head_before_its_get(exotel: IndiaRig) -> None:
    response = await exotel.http.head(f"/exotel/sms/{SECRET}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert (await exotel.http.head(f"/exotel/sms/{SECRET}x")).status_code == 404
    assert await count(exotel, InboxRow) == 0


async def test_with_exotel_for_sms_twilio_takes_whatsapp_only(tmp_path: Path) -> None:
    twilio = {
        "twilio_sid": "AC" + "0" * 32,
        "twilio_token": "twilio-test-auth-token",
        "twilio_from": "+14155550100",
        "twilio_whatsapp_from": "whatsapp:+14155550100",
    }
    async with india_rig(tmp_path, "exotel", **twilio) as rig:
        for sender, sid in ((OWNER, "SM-sms"), (f"whatsapp:{OWNER}", "SM-wa")):
            params = {"MessageSid": sid, "From": sender, "To": "+14155550100", "Body": "HELP"}
            url = "https://pound.example.org/twilio/sms"
            signature = RequestValidator(twilio["twilio_token"]).compute_signature(url, params)
            response = await rig.http.post(
                "/twilio/sms", data=params, headers={"X-Twilio-Signature": signature}
            )
            assert response.status_code == 200
        async with rig.app.store.transaction() as tx:
            stored = (await tx.session.execute(select(InboxRow.channel))).scalars().all()
        assert stored == ["whatsapp"]  # an SMS to Twilio is not taken: SMS is Exotel's
