"""Messages about a case are rendered from the case when they are sent, and dropped when
the case has moved past them (``bot.notifications.case_messages``, a check and the composer of
the send gate): the owner's intake SMS held for the morning after the cattle went back on
deposit that night, the auction's SMS after the owner paid, the keeper's report ("the
notice is due now") after the notice was recorded; an intake SMS sent the next morning
says the dues of that morning. Through the dispatcher every channel uses, with poundbot's
own composition root (``open_app``), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.adapters.outbox import deliver_once
from bot.bootstrap import load, open_app
from bot.channels.identity import sender_of
from bot.conversation.reply import handle_text
from bot.i18n import render, translator
from bot.i18n.dlt_probe import PART
from bot.observe.metrics import REGISTRY
from bot.services.admin import add_user
from bot.services.base import statement_of
from bot.services.runtime import App
from bot.store.models import OutboxRow
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES
from tests.e2e.india_harness import database

KEEPER, OFFICER, OWNER = "+919847000010", "+919847000020", "+919847099999"
SEIZE = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed 9847099999; brown cows"


class Sender:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []

    async def send(self, recipient: str, body: str, key: str) -> str:
        await asyncio.sleep(0)
        self.sent.append((recipient, body, key))
        return f"SM{len(self.sent)}"

    def to(self, phone: str) -> list[str]:
        return [body for recipient, body, _ in self.sent if recipient == phone]


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as found:
        yield found


@pytest.fixture
async def app(url: str) -> AsyncIterator[App]:
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    async with open_app(url=url, clock=clock, config=load(), migrate=True) as app:
        async with app.store.transaction() as tx:
            system = Caller.system()
            await add_user(
                tx, app.deps, system, role="keeper", pound="KNM", phone=KEEPER, name="K", lang="en"
            )
            await add_user(
                tx,
                app.deps,
                system,
                role="officer",
                authority="KNM-GP",
                phone=OFFICER,
                name="O",
                lang="en",
            )
        yield app


def at(app: App, day: int, hour: int, minute: int = 0) -> None:
    clock = app.deps.clock
    assert isinstance(clock, FixedClock)
    clock.set(datetime(2026, 3, day, hour, minute, tzinfo=LOCAL_TZ))


async def say(app: App, phone: str, text: str) -> str:
    async with app.store.transaction() as tx:
        caller = (await sender_of(tx, phone, "sms")).caller
        return (await handle_text(tx, app.deps, caller, text, sms=True)).text


async def deliver(app: App, sender: Sender) -> None:
    while await deliver_once(app.store, {"sms": sender}, "test", gate=app.gate):
        pass


async def rows(app: App, recipient: str) -> list[OutboxRow]:
    async with app.store.transaction() as tx:
        found = await tx.session.scalars(
            select(OutboxRow).where(OutboxRow.recipient == recipient).order_by(OutboxRow.id)
        )
        return list(found)


def overtaken(kind: str) -> float:
    found = REGISTRY.get_sample_value("poundbot_case_messages_overtaken_total", {"kind": kind})
    return found or 0.0


async def test_an_intake_sms_held_for_the_morning_is_dropped_once_the_cattle_went_on_deposit(
    app: App,
) -> None:
    at(app, 1, 22, 10)  # the night hours: the owner's SMS waits for 08:00
    assert "KNM-1" in await say(app, KEEPER, SEIZE)
    (intake,) = await rows(app, OWNER)
    assert (intake.kind, intake.case_number, intake.status) == (
        "owner_impounded",
        "KNM-1",
        "queued",
    )
    # The owner came at night and deposited under protest (s.14): the cattle went back.
    assert "KNM-1" in await say(app, KEEPER, "DEPOSITED KNM-1")
    before = overtaken("owner_impounded")
    at(app, 2, 8, 30)
    sender = Sender()
    await deliver(app, sender)
    assert sender.to(OWNER) == []
    (intake,) = await rows(app, OWNER)
    assert intake.status == "dropped"
    assert (intake.last_error or "").startswith("overtaken: owner_impounded no longer applies")
    assert overtaken("owner_impounded") == before + 1


async def test_an_intake_sms_sent_the_next_morning_says_the_dues_of_that_morning(
    app: App,
) -> None:
    at(app, 1, 22, 10)
    await say(app, KEEPER, SEIZE)
    queued = "".join(r.body for r in await rows(app, OWNER))
    at(app, 2, 8, 30)
    sender = Sender()
    await deliver(app, sender)
    sent = sender.to(OWNER)
    async with app.store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    st = statement_of(app.deps, case)
    lang = (await rows(app, OWNER))[0].lang
    assert lang
    pound = app.deps.config.pounds["KNM"].name
    expected = render.intake_sms(case, st.dues, st.daily_rate, pound, translator(lang))
    parts = [p for p in expected.split(PART) if p.strip()] if PART in expected else [expected]
    assert sent == parts
    assert "".join(sent) != queued  # a day's more charges than when it was queued


async def test_the_report_to_the_officer_is_dropped_once_the_notice_is_recorded(
    app: App,
) -> None:
    await say(app, KEEPER, SEIZE)
    sender = Sender()
    await deliver(app, sender)
    at(app, 9, 10)
    await say(app, KEEPER, "REPORT KNM-1")
    report = [r for r in await rows(app, OFFICER) if r.kind == "officer_report"]
    assert report
    assert {r.status for r in report} == {"queued"}
    # The officer posted the notice before the outbox sent the report.
    assert "KNM-1" in await say(app, OFFICER, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    before = overtaken("officer_report")
    await deliver(app, sender)
    assert not any(key.startswith("report:") for _, _, key in sender.sent)
    report = [r for r in await rows(app, OFFICER) if r.kind == "officer_report"]
    assert {r.status for r in report} == {"dropped"}
    assert overtaken("officer_report") == before + len(report)


async def test_the_auction_sms_is_dropped_once_the_owner_paid_and_took_the_cattle(
    app: App,
) -> None:
    await say(app, KEEPER, SEIZE)
    sender = Sender()
    await deliver(app, sender)
    at(app, 9, 10)
    await say(app, KEEPER, "REPORT KNM-1")
    at(app, 10, 10)
    await say(app, OFFICER, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await deliver(app, sender)
    at(app, 10, 22, 0)  # the night: the owner's SMS of the auction waits for the morning
    assert "KNM-1" in await say(app, OFFICER, "AUCTION KNM-1 ON 20-03-2026 AT Panchayat office")
    auction = [r for r in await rows(app, OWNER) if r.kind == "owner_auction"]
    assert [(r.ref, r.status) for r in auction][:1] == [("2026-03-20", "queued")]
    at(app, 10, 23, 0)
    assert "KNM-1" in await say(app, KEEPER, "PAID KNM-1")  # claimed before the sale (s.12)
    at(app, 11, 8, 30)
    sent_before = len(sender.to(OWNER))
    await deliver(app, sender)
    assert len(sender.to(OWNER)) == sent_before
    auction = [r for r in await rows(app, OWNER) if r.kind == "owner_auction"]
    assert {r.status for r in auction} == {"dropped"}
