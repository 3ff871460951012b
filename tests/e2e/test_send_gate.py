"""The send gate: every message passes its checks when it is sent, not only when it was
queued. A STOP said after a message was queued stops it (an owner's notice held for the
morning, a report or a reminder to an officer); answers to the number's own messages
still go. The ceiling of answers to numbers that are not staff holds however many
numbers write or ring, with one alert to the admins a window; notices the Act requires
and staff's messages are never held back. Through Exotel and Mobile Seva (their APIs
faked on loopback, requests as they make them), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.adapters.outbox import deliver_once
from bot.channels.sms.providers import sms_sender
from bot.config import SenderLimits
from bot.observe.metrics import REGISTRY
from bot.reminders.dispatch import remind_once
from bot.services.admin import add_user
from bot.store.models import OutboxRow
from bot.support.caller import Caller
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES
from tests.e2e.india_harness import KEEPER_PHONE, OFFICER_PHONE, IndiaRig, database, india_rig

OWNER = "+919847099999"
ADMIN_PHONE = "+919847000030"
SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as found:
        yield found


def dropped(check: str) -> float:
    value = REGISTRY.get_sample_value(
        "poundbot_outbox_dropped_total", {"channel": "sms", "check": check}
    )
    return value or 0.0


def reached(window: str) -> float:
    value = REGISTRY.get_sample_value("poundbot_answer_ceiling_reached_total", {"window": window})
    return value or 0.0


async def drain(rig: IndiaRig) -> None:
    """Send every due message through the gate, as the server's delivery loop (which runs
    too) does, until none is left being sent by either (bounded)."""
    async with sms_sender(rig.settings) as sender:
        for _ in range(400):
            if await deliver_once(
                rig.app.store, {"sms": sender}, "test", dlt=rig.app.config.dlt, gate=rig.app.gate
            ):
                continue
            async with rig.app.store.transaction() as tx:
                sending = await tx.session.scalar(
                    select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "sending")
                )
            if not sending:
                return
            await asyncio.sleep(0.05)


async def rows_to(rig: IndiaRig, recipient: str) -> list[OutboxRow]:
    async with rig.app.store.transaction() as tx:
        found = await tx.session.scalars(
            select(OutboxRow).where(OutboxRow.recipient == recipient).order_by(OutboxRow.id)
        )
        return list(found)


def texts_to(rig: IndiaRig, phone: str) -> list[str]:
    return [rig.text_of(m) for m in rig.sent() if rig.to(m) == phone]


# -- STOP when the message is sent -------------------------------------------------------


@pytest.mark.parametrize("provider", ["exotel", "mseva"])
async def test_an_owners_notice_held_for_the_morning_is_not_sent_after_a_stop_at_night(
    tmp_path: Path, url: str, provider: str
) -> None:
    async with india_rig(tmp_path, provider, url) as rig:
        await rig.set_clock(datetime(2026, 3, 1, 22, 10, tzinfo=LOCAL_TZ))  # the night hours
        await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 22:10:01")
        await drain(rig)
        assert texts_to(rig, OWNER) == []  # the owner's notice waits for the morning
        (notice,) = await rows_to(rig, OWNER)
        assert notice.status == "queued"
        assert notice.purpose == "notice"
        await rig.set_clock(datetime(2026, 3, 1, 23, 30, tzinfo=LOCAL_TZ))
        await rig.say(OWNER, "STOP", "2026-03-01 23:30:00")
        before = dropped("stop")
        await drain(rig)
        (told,) = texts_to(rig, OWNER)  # the answer to STOP goes: it answers the owner
        assert "KNM-1" not in told
        await rig.set_clock(datetime(2026, 3, 2, 8, 30, tzinfo=LOCAL_TZ))  # the morning
        await drain(rig)
        assert len(texts_to(rig, OWNER)) == 1  # no notice after the STOP
        notice = (await rows_to(rig, OWNER))[0]
        assert notice.status == "dropped"
        assert (notice.last_error or "").startswith("stop: the number said STOP by sms")
        assert dropped("stop") == before + 1
        # The owner's own question is still answered.
        await rig.say(OWNER, "DUES KNM-1", "2026-03-02 08:31:00")
        await drain(rig)
        assert "KNM-1" in texts_to(rig, OWNER)[-1]


async def test_a_report_and_a_reminder_queued_before_an_officers_stop_are_not_sent_after_it(
    tmp_path: Path, url: str
) -> None:
    async with india_rig(tmp_path, "exotel", url) as rig:
        await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
        await drain(rig)
        await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
        await rig.say(KEEPER_PHONE, "REPORT KNM-1", "2026-03-09 10:00:01")
        # The keeper's report to the officer is queued; so is the reminder of the notice.
        await rig.set_clock(datetime(2026, 3, 10, 9, 0, tzinfo=LOCAL_TZ))
        await remind_once(rig.app.store, rig.app.config, "test")
        queued = [r for r in await rows_to(rig, OFFICER_PHONE) if r.status == "queued"]
        assert {r.purpose for r in queued} == {"staff"}
        assert any(r.idempotency_key.startswith("rem:") for r in queued)
        assert any(not r.idempotency_key.startswith("rem:") for r in queued)
        sent_before = len(texts_to(rig, OFFICER_PHONE))
        # The officer says STOP before the outbox sends them.
        async with rig.app.store.transaction() as tx:
            from bot.store.messages import set_contact

            await set_contact(tx, OFFICER_PHONE, opted_out=True, channel="sms")
        await drain(rig)
        assert len(texts_to(rig, OFFICER_PHONE)) == sent_before
        for row in await rows_to(rig, OFFICER_PHONE):
            if row.id in {r.id for r in queued}:
                assert row.status == "dropped", row.idempotency_key


# -- the ceiling of answers ---------------------------------------------------------------


async def _admin(rig: IndiaRig) -> None:
    async with rig.app.store.transaction() as tx:
        await add_user(
            tx,
            rig.app.deps,
            Caller.system(),
            role="admin",
            phone=ADMIN_PHONE,
            name="IT cell",
            lang="en",
        )


@pytest.mark.parametrize("provider", ["exotel", "mseva"])
async def test_a_flood_of_missed_calls_from_many_numbers_meets_the_ceiling(
    tmp_path: Path, url: str, provider: str
) -> None:
    limits = SenderLimits(answers_per_hour=10, answers_per_day=25)
    async with india_rig(tmp_path, provider, url, limits=limits) as rig:
        await _admin(rig)
        before = reached("hour"), dropped("ceiling")
        for n in range(18):
            number = f"9846{n:06d}"
            if provider == "exotel":
                response = await rig.exotel_call("0" + number, f"call-{n}")
            else:
                response = await rig.mseva_pull(number, "KL POUND STATUS KNM-1", stamp=f"s{n}")
            assert response.status_code == 200
        await drain(rig)
        public = [m for m in rig.sent() if rig.to(m) not in (ADMIN_PHONE, KEEPER_PHONE)]
        assert len(public) == 10  # the hour's ceiling
        assert reached("hour") == before[0] + 1
        assert dropped("ceiling") == before[1] + 8
        alert = texts_to(rig, ADMIN_PHONE)
        assert len(alert) == 2  # one alert, in two SMS, each its template
        assert "10 answers to the public this hour" in alert[0]
        # The next hour: answered again, and a second alert only when reached again.
        await rig.set_clock(datetime(2026, 3, 1, 11, 5, tzinfo=LOCAL_TZ))
        for n in range(18, 30):
            number = f"9846{n:06d}"
            if provider == "exotel":
                await rig.exotel_call("0" + number, f"call-{n}")
            else:
                await rig.mseva_pull(number, "KL POUND STATUS KNM-1", stamp=f"s{n}")
        await drain(rig)
        public = [m for m in rig.sent() if rig.to(m) not in (ADMIN_PHONE, KEEPER_PHONE)]
        assert len(public) == 20
        assert reached("hour") == before[0] + 2
        assert len(texts_to(rig, ADMIN_PHONE)) == 4


async def test_the_days_ceiling_and_a_numbers_daily_cap(tmp_path: Path, url: str) -> None:
    limits = SenderLimits(answers_per_hour=100, answers_per_day=4, answers_per_number_per_day=2)
    async with india_rig(tmp_path, "exotel", url, limits=limits) as rig:
        await _admin(rig)
        for n in range(3):  # one number: its third answer of the day is held back
            await rig.exotel_sms("09847012345", "STATUS KNM-1", f"one-{n}")
        await drain(rig)
        assert len(texts_to(rig, "+919847012345")) == 2
        for n in range(4):  # others: the day's ceiling is 4 in all
            await rig.exotel_sms(f"0984701000{n}", "STATUS KNM-1", f"other-{n}")
        await drain(rig)
        assert sum(len(texts_to(rig, f"+91984701000{n}")) for n in range(4)) == 2
        alert = texts_to(rig, ADMIN_PHONE)
        assert "4 answers to the public today" in alert[0]
        # The next local day: answered again.
        await rig.set_clock(datetime(2026, 3, 2, 9, 0, tzinfo=LOCAL_TZ))
        await rig.exotel_sms("09847012345", "STATUS KNM-1", "one-next-day")
        await drain(rig)
        assert len(texts_to(rig, "+919847012345")) == 3


async def test_notices_and_answers_to_staff_are_never_held_back(tmp_path: Path, url: str) -> None:
    limits = SenderLimits(answers_per_hour=1, answers_per_day=1, answers_per_number_per_day=1)
    async with india_rig(tmp_path, "exotel", url, limits=limits) as rig:
        for n in range(3):  # the public spend the ceiling
            await rig.exotel_call(f"0984701100{n}", f"flood-{n}")
        await drain(rig)
        # The keeper is answered, and the owner gets the notice of the impounding.
        await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:05")
        await rig.say(KEEPER_PHONE, "CASES", "2026-03-01 10:00:06")
        await drain(rig)
        assert len(texts_to(rig, KEEPER_PHONE)) >= 2
        assert any("KNM-1" in text for text in texts_to(rig, OWNER))
        # The owner's own question is an answer to the public: held back past the ceiling.
        await rig.say(OWNER, "DUES KNM-1", "2026-03-01 10:00:07")
        await drain(rig)
        assert len(texts_to(rig, OWNER)) == 1
