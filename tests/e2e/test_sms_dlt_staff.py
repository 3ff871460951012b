"""With DLT on (``[dlt] entity_id``), the SMS to pound-keepers and officers go under their
DLT templates like the owners' SMS: a keeper's and an officer's answers by Exotel or
Mobile Seva, the s.13(1) report sent to the officer, each matched to its own registered
template and sent with that template's id. Through Twilio, an SMS's answer does not go
in the TwiML answer, which no check sees: it goes through the outbox, checked like
every other SMS, and without a template id it is failed with the reason."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.adapters.outbox import deliver_once
from bot.channels.twilio.sender import TwilioSender
from bot.store.models import OutboxRow
from bot.support.dlt import DltPolicy, registry
from tests.conftest import ENGINES
from tests.e2e.india_harness import KEEPER_PHONE as INDIA_KEEPER
from tests.e2e.india_harness import (
    OFFICER_PHONE,
    IndiaRig,
    database,
    india_rig,
)
from tests.e2e.sms_harness import FROM, KEEPER_PHONE, SID, TOKEN, SmsRig, sms_rig
from tests.photo_samples import png

ENTITY = "1201160000000000000"
SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"
#: A different id for every template, so that the id sent names the template matched.
IDS = {t.name: f"1207{n:015d}" for n, t in enumerate(sorted(registry(), key=lambda t: t.name))}
BY_ID = {v: k for k, v in IDS.items()}


async def _rows(app: object) -> list[OutboxRow]:
    async with app.store.transaction() as tx:  # type: ignore[attr-defined]
        found = await tx.session.execute(select(OutboxRow).order_by(OutboxRow.id))
        return list(found.scalars())


async def _delivered(rig: IndiaRig) -> list[OutboxRow]:
    """Every row, once none is left to send: the server's own reminder loop runs beside
    the test (the clock is past the morning's hour), and under load it may queue a
    keeper's reminder of the report before the REPORT arrives; that one is sent too."""
    rows = await _rows(rig.app)
    for _ in range(100):
        if all(r.status not in ("queued", "sending") for r in rows):
            break
        await rig.deliver(len(rig.sent()) + 1, seconds=0.1)
        rows = await _rows(rig.app)
    return rows


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as found:
        yield found


@pytest.fixture(params=["exotel", "mseva"])
async def rig(request: pytest.FixtureRequest, tmp_path: Path, url: str):  # type: ignore[no-untyped-def]
    async with india_rig(tmp_path, request.param, url, dlt=DltPolicy(ENTITY, IDS)) as rig:
        yield rig


async def test_keepers_and_officers_answers_and_the_report_go_under_their_own_templates(
    rig: IndiaRig,
) -> None:
    await rig.say(INDIA_KEEPER, SEIZE, "2026-03-01 10:00:01")
    await rig.say(INDIA_KEEPER, "CASES", "2026-03-01 10:00:02")
    await rig.advance_clock(days=8)
    await rig.say(INDIA_KEEPER, "REPORT KNM-1", "2026-03-09 10:00:03")  # the officer is told
    await rig.say(OFFICER_PHONE, "HELP", "2026-03-09 10:00:04")
    await rig.say(OFFICER_PHONE, "AUCTION KNM-1", "2026-03-09 10:00:05")  # refused: no notice
    await rig.deliver(9)
    rows = [r for r in await _delivered(rig) if not r.idempotency_key.startswith("rem:")]
    failed = [(r.status, r.last_error, r.body) for r in rows if r.status != "sent"]
    assert failed == []
    assert len(rows) == 9  # the report to the officer is three SMS, a template each
    report = [r for r in rows if r.idempotency_key.startswith("report:")]
    assert [r.idempotency_key.rsplit(":", 1)[-1][-2:] for r in report][1:] == ["#2", "#3"]
    assert {r.recipient for r in rows} == {INDIA_KEEPER, OFFICER_PHONE, "+919847099999"}
    by_text = {rig.text_of(m): m for m in rig.sent()}
    for row in rows:
        sent = by_text[row.body]
        template_id = sent["DltTemplateId"] if rig.provider == "exotel" else sent["templateid"]
        assert BY_ID[template_id] == row.template
        template = registry().get(row.template or "")
        assert template is not None
        assert template.problem(row.body, 30) is None
    if rig.provider == "exotel":
        assert {m["DltEntityId"] for m in rig.sent()} == {ENTITY}


async def _twilio_delivers(rig: SmsRig, count: int, *, failed: int = 0) -> None:
    """Deliver the outbox through Twilio until ``count`` SMS reached the fake and
    ``failed`` rows were failed (a failed row is never tried again)."""
    async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
        for _ in range(200):
            await deliver_once(rig.app.store, {"sms": sender}, "test", dlt=rig.app.config.dlt)
            rows = await _rows(rig.app)
            if (
                len(rig.twilio.messages) >= count
                and sum(r.status == "failed" for r in rows) >= failed
            ):
                return
            await asyncio.sleep(0.05)


async def test_through_twilio_with_dlt_the_answer_goes_through_the_outbox_as_its_template(
    tmp_path: Path,
) -> None:
    async with sms_rig(tmp_path, dlt=DltPolicy(ENTITY, IDS)) as rig:
        response = await rig.sms(KEEPER_PHONE, "CASES", "SM-cases-dlt-1")
        assert response.status_code == 200
        assert "<Message" not in response.text  # nothing unchecked in the TwiML answer
        again = await rig.sms(KEEPER_PHONE, "CASES", "SM-cases-dlt-1")
        assert "<Message" not in again.text
        await _twilio_delivers(rig, 1)
        (sent,) = rig.twilio.messages
        assert sent["To"] == KEEPER_PHONE
        (row,) = await _rows(rig.app)
        assert (row.status, row.body) == ("sent", sent["Body"])
        template = registry().get(row.template or "")
        assert template is not None
        assert template.problem(sent["Body"], 30) is None


async def test_through_twilio_an_answer_without_a_template_id_is_failed_not_sent(
    tmp_path: Path,
) -> None:
    async with sms_rig(tmp_path, dlt=DltPolicy(ENTITY, {})) as rig:
        response = await rig.sms(KEEPER_PHONE, "CASES", "SM-cases-dlt-2")
        assert "<Message" not in response.text
        await _twilio_delivers(rig, 0, failed=1)
        assert rig.twilio.messages == []
        (row,) = await _rows(rig.app)
        assert row.status == "failed"
        assert (row.last_error or "").startswith("dlt: no DLT template id configured for ")


async def test_through_twilio_without_dlt_the_answer_is_in_the_twiml(tmp_path: Path) -> None:
    async with sms_rig(tmp_path) as rig:
        response = await rig.sms(KEEPER_PHONE, "CASES", "SM-cases-nodlt")
        assert "<Message>" in response.text
        assert await _rows(rig.app) == []


async def test_through_twilio_with_dlt_a_keeper_s_pictures_are_announced_in_an_sms_of_its_own(
    tmp_path: Path,
) -> None:
    """The answer to a SEIZE with pictures, and the word that the pictures follow, are
    two SMS under DLT: each its own registered template, never one joined text."""
    async with sms_rig(tmp_path, dlt=DltPolicy(ENTITY, IDS)) as rig:
        response = await rig.mms(KEEPER_PHONE, SEIZE, "MM-dlt-1", [(png(), "image/png")])
        assert "<Message" not in response.text
        await _twilio_delivers(rig, 3)  # the answer, the photo line, the owner's notice
        rows = await _rows(rig.app)
        keeper = [r for r in rows if r.recipient == KEEPER_PHONE and ":coming" in r.idempotency_key]
        assert len(keeper) == 1
        assert "being fetched" in keeper[0].body
        for row in rows:
            if (
                row.idempotency_key.startswith("mms-photos:")
                and ":coming" not in row.idempotency_key
            ):
                continue  # the follow-up, once the fetcher has run
            assert row.status == "sent", (row.idempotency_key, row.last_error, row.body)
            template = registry().get(row.template or "")
            assert template is not None
            assert template.problem(row.body, 30) is None


async def test_a_missed_call_is_answered_under_its_own_template(tmp_path: Path, url: str) -> None:
    """Under DLT the status SMS a missed call brings is a registered template too: sent
    with its own id, not failed."""
    async with india_rig(tmp_path, "exotel", url, dlt=DltPolicy(ENTITY, IDS)) as rig:
        await rig.say(INDIA_KEEPER, SEIZE, "2026-03-01 10:00:01")
        await rig.deliver(2)
        assert (await rig.exotel_call("09847099999", "call-dlt-1")).status_code == 200
        assert (await rig.exotel_call("+919847055555", "call-dlt-2")).status_code == 200
        await rig.deliver(4)
        rows = await _rows(rig.app)
        assert [(r.status, r.last_error) for r in rows if r.status != "sent"] == []
        answers = [r for r in rows if r.recipient in {"+919847099999", "+919847055555"}]
        assert len(answers) == 3  # the owner's notice, then one answer to each call
        by_text = {rig.text_of(m): m for m in rig.sent()}
        for row in answers:
            assert BY_ID[by_text[row.body]["DltTemplateId"]] == row.template
