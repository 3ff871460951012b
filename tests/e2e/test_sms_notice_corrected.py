"""What a posted notice stated (s.13(2)), corrected by SMS into the running app.

Before any head was offered on it, a correction of the cattle, their description or the
place of seizure supersedes the notice: the keeper is told the notice of that day no
longer stands and the auction fixed on it is cancelled; the owner is told by SMS (under
its own DLT template); the public board and the printable notice stop showing it; the
auction's deadline closes and the notice is due again. Once a lot was offered on the
notice (sold or not, or disposed of otherwise) those facts are refused at every later
stage (selling, account due, in deposit, closed), while a fact the notice does not state
(the owner's name) is still corrected.
"""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator, Iterator
from datetime import date, datetime
from pathlib import Path
from urllib.parse import urlparse

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.i18n import fmt, render, translator
from bot.store.models import CaseEvent, DeadlineRow, OutboxRow
from bot.support.dlt import DltPolicy, registry
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.stages import Stage
from tests.conftest import ENGINES
from tests.e2e.india_harness import KEEPER_PHONE as INDIA_KEEPER
from tests.e2e.india_harness import OFFICER_PHONE as INDIA_OFFICER
from tests.e2e.india_harness import IndiaRig, database, india_rig
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig

OWNER = "+919847099998"
SEIZE = "SEIZE 2 buffalo (black, cut left ear) AT Kunnamangalam market OWNER Kunhammed 9847099998"
ENTITY = "1201160000000000000"
#: A different id for every template, so that an SMS matching none is not sent.
IDS = {t.name: f"1207{n:015d}" for n, t in enumerate(sorted(registry(), key=lambda t: t.name))}
REFUSED = (
    "Not corrected: the cattle were offered for sale on the notice of 10 Mar 2026, so the "
    "number and description of the cattle and the places of seizure and impounding stay "
    "as it states them. (s.13(2))"
)


async def on(rig: SmsRig | IndiaRig, day: int, month: int = 3) -> None:
    await rig.set_clock(datetime(2026, month, day, 10, 0, tzinfo=LOCAL_TZ))


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL database."""
    with database(request.param, tmp_path) as found:
        yield found


# --- before any offer: the notice superseded, everywhere ---------------------------------


@pytest.fixture
async def india(tmp_path: Path, url: str) -> AsyncIterator[IndiaRig]:
    async with india_rig(tmp_path, "exotel", url, dlt=DltPolicy(ENTITY, IDS)) as rig:
        yield rig


async def _rows_after(rig: IndiaRig, seen: int) -> list[OutboxRow]:
    async with rig.app.store.transaction() as tx:
        found = await tx.session.execute(
            select(OutboxRow).where(OutboxRow.id > seen).order_by(OutboxRow.id)
        )
        return list(found.scalars())


async def _said(rig: IndiaRig, sender: str, body: str, sid: str) -> list[OutboxRow]:
    """What poundbot queued after ``body`` from ``sender``, all of it delivered."""
    seen = max([0, *(r.id for r in await _rows_after(rig, 0))])
    response = await rig.say(sender, body, sid)
    assert response.status_code == 200
    rows = await _rows_after(rig, seen)
    await rig.deliver(len(rig.sent()) + len(rows))
    return rows


def _text(rows: list[OutboxRow], to: str) -> str:
    return "\n".join(r.body for r in rows if r.recipient == to)


async def _board(rig: IndiaRig) -> str:
    page = await rig.http.get("/notices/KNM-GP", params={"lang": "en"})
    assert page.status_code == 200
    return html.unescape(page.text)


async def _deadlines(rig: IndiaRig) -> dict[str, tuple[date, str]]:
    async with rig.app.store.transaction() as tx:
        rows = (await tx.session.execute(select(DeadlineRow))).scalars().all()
        return {r.kind: (r.due_on, r.status) for r in rows}


async def test_a_correction_before_any_offer_supersedes_the_notice_for_everyone(
    india: IndiaRig,
) -> None:
    rig = india
    await _said(rig, INDIA_KEEPER, SEIZE, "2026-03-01 10:00:01")
    await on(rig, 9)
    await _said(rig, INDIA_KEEPER, "REPORT KNM-1", "2026-03-09 10:00:01")
    await on(rig, 10)
    places = "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"
    await _said(rig, INDIA_OFFICER, places, "2026-03-10 10:00:01")
    printed = _text(
        await _said(rig, INDIA_OFFICER, "NOTICE KNM-1", "2026-03-10 10:00:02"), INDIA_OFFICER
    )
    link = urlparse(next(w for w in printed.split() if "/notice/KNM-1/" in w)).path
    assert (await rig.http.get(link)).status_code == 200
    fixed = "AUCTION KNM-1 ON 20-03-2026 AT Kunnamangalam market"
    told = await _said(rig, INDIA_OFFICER, fixed, "2026-03-10 10:00:03")
    assert "20 Mar 2026" in _text(told, INDIA_OFFICER)
    assert any(r.recipient == OWNER for r in told)  # the auction's SMS
    board = await _board(rig)
    assert "KNM-1" in board
    assert "20 Mar 2026" in board

    await on(rig, 12)
    rows = await _said(
        rig,
        INDIA_KEEPER,
        "CORRECT KNM-1 PLACE Pathimangalam junction BECAUSE written wrongly",
        "2026-03-12 10:00:01",
    )
    reply = _text(rows, INDIA_KEEPER)
    assert (
        "The notice of 10 Mar 2026 no longer stands: post a new notice (NOTICE KNM-1); the "
        "auction fixed for 20 Mar 2026 is cancelled (s.13(2), s.13(3))."
    ) in reply, reply
    assert "The owner will be told by SMS." in reply
    # The owner is told, in the pound's language, under the SMS's own DLT template.
    (owner,) = [r for r in rows if r.recipient == OWNER]
    lang = rig.app.config.pounds["KNM"].languages[0]
    assert owner.body == render.auction_cancelled_sms("KNM-1", date(2026, 3, 20), translator(lang))
    assert fmt.date(date(2026, 3, 20), lang) in owner.body
    delivered = await _rows_after(rig, 0)
    assert [(r.body[:40], r.last_error) for r in delivered if r.status != "sent"] == []
    assert all(r.template for r in delivered if r.id in {row.id for row in rows})
    # The board no longer shows the notice as standing; the printed link is refused.
    assert "KNM-1" not in await _board(rig)
    stale = await rig.http.get(link)
    assert stale.status_code == 409
    assert fmt.date(date(2026, 3, 10), "ml") in stale.text
    # The auction's deadline is closed; the notice is due again from the correction.
    due = await _deadlines(rig)
    assert due["auction_day"][1] == "closed"
    assert due["notice_due"] == (date(2026, 3, 12), "open")
    # The new notice: on the board again, no auction fixed yet.
    await on(rig, 13)
    await _said(rig, INDIA_OFFICER, places, "2026-03-13 10:00:01")
    board = await _board(rig)
    assert "KNM-1" in board
    assert "13 Mar 2026" in board
    assert "20 Mar 2026" not in board
    due = await _deadlines(rig)
    assert due["notice_due"][1] == "closed"
    assert due["auction_lawful"] == (date(2026, 3, 21), "open")


async def test_a_correction_with_no_auction_fixed_says_only_that_the_notice_no_longer_stands(
    india: IndiaRig,
) -> None:
    rig = india
    await _said(rig, INDIA_KEEPER, SEIZE, "2026-03-01 10:00:01")
    await on(rig, 9)
    await _said(rig, INDIA_KEEPER, "REPORT KNM-1", "2026-03-09 10:00:01")
    await on(rig, 10)
    places = "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"
    await _said(rig, INDIA_OFFICER, places, "2026-03-10 10:00:01")
    await on(rig, 11)
    rows = await _said(
        rig,
        INDIA_OFFICER,
        "CORRECT KNM-1 CATTLE 2 buffalo (brown, cut left ear) BECAUSE colour written wrongly",
        "2026-03-11 10:00:01",
    )
    reply = _text(rows, INDIA_OFFICER)
    assert (
        "The notice of 10 Mar 2026 no longer stands: post a new notice (NOTICE KNM-1); the "
        "auction is lawful seven days after it (s.13(2), s.13(3))."
    ) in reply, reply
    assert "cancelled" not in reply
    assert [r for r in rows if r.recipient == OWNER] == []  # no auction to call off
    assert "KNM-1" not in await _board(rig)
    due = await _deadlines(rig)
    assert due["auction_lawful"][1] == "closed"
    assert due["notice_due"] == (date(2026, 3, 11), "open")


# --- once cattle were offered on the notice: refused at every later stage ------------------


@pytest.fixture
async def twilio(tmp_path: Path, url: str) -> AsyncIterator[SmsRig]:
    if not url.startswith("sqlite"):
        async with open_app(url=url, migrate=True):
            pass
    async with sms_rig(tmp_path, url) as rig:
        yield rig


def _message(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return html.unescape(match.group(1))


class Typed:
    """Lines typed by the keeper and the officer into the running app, by signed SMS."""

    def __init__(self, rig: SmsRig) -> None:
        self.rig, self.n = rig, 0

    async def say(self, sender: str, body: str) -> str:
        self.n += 1
        response = await self.rig.sms(sender, body, f"SM-notice-{self.n}")
        assert response.status_code == 200
        return _message(response.text)

    async def case(self) -> Case:
        async with self.rig.app.store.transaction() as tx:
            return (await tx.load_case("KNM-1")).case

    async def events(self) -> int:
        async with self.rig.app.store.transaction() as tx:
            return len((await tx.session.execute(select(CaseEvent))).scalars().all())

    async def refused_then_owner_corrected(self, stage: Stage) -> None:
        """At ``stage``: the place and the description refused, nothing recorded; the
        owner's name corrected (unless the case is closed)."""
        case = await self.case()
        assert case.stage is stage
        before = await self.events()
        for line in (
            "CORRECT KNM-1 PLACE Pathimangalam junction BECAUSE written wrongly",
            "CORRECT KNM-1 CATTLE 2 buffalo (brown) BECAUSE colour written wrongly",
        ):
            for who in (KEEPER_PHONE, OFFICER_PHONE):
                assert await self.say(who, line) == REFUSED
        assert await self.events() == before
        assert (await self.case()).seizure == case.seizure
        owner = await self.say(KEEPER_PHONE, "CORRECT KNM-1 OWNER Kunhammed P BECAUSE full name")
        if stage is Stage.CLOSED:  # a closed case takes no correction at all
            assert "This step is not possible now." in owner, owner
            assert await self.events() == before
            return
        assert "Case KNM-1 corrected" in owner, owner
        after = await self.case()
        assert after.stage is stage
        assert after.seizure.owner is not None
        assert after.seizure.owner.name == "Kunhammed P"


async def test_the_notice_facts_are_refused_after_an_unclaimed_offer_to_the_fund(
    twilio: SmsRig,
) -> None:
    s = Typed(twilio)
    await s.say(KEEPER_PHONE, SEIZE)
    await on(twilio, 9)
    await s.say(KEEPER_PHONE, "REPORT KNM-1")
    await on(twilio, 10)
    await s.say(OFFICER_PHONE, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await s.say(OFFICER_PHONE, "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market")
    await on(twilio, 18)
    assert "KNM-1" in await s.say(OFFICER_PHONE, "UNSOLD KNM-1 1 1")  # offered, no buyer
    await s.refused_then_owner_corrected(Stage.SELLING)
    await s.say(OFFICER_PHONE, "SOLD KNM-1 1 2 30000 TO Joseph Mathew, Chowwannur DECLARED")
    await s.refused_then_owner_corrected(Stage.SELLING)
    await s.say(OFFICER_PHONE, "SETTLE KNM-1 500")
    await s.refused_then_owner_corrected(Stage.IN_DEPOSIT)
    await on(twilio, 19, 6)  # three months from 18 March have run (s.16(3))
    assert "KNM-1" in await s.say(OFFICER_PHONE, "FUND KNM-1")
    await s.refused_then_owner_corrected(Stage.CLOSED)


async def test_the_notice_facts_are_refused_when_the_account_is_due_after_a_sale_s15(
    twilio: SmsRig,
) -> None:
    s = Typed(twilio)
    await s.say(KEEPER_PHONE, SEIZE)
    await on(twilio, 9)
    await s.say(KEEPER_PHONE, "REPORT KNM-1")
    await on(twilio, 10)
    await s.say(OFFICER_PHONE, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await on(twilio, 11)
    await s.say(KEEPER_PHONE, "REFUSED KNM-1")  # the owner appeared and refused (s.15(1))
    await s.say(OFFICER_PHONE, "AUCTION KNM-1 ON 13-03-2026 AT Kunnamangalam market")
    await on(twilio, 13)
    await s.say(OFFICER_PHONE, "SOLD KNM-1 1 1 30000 TO Joseph Mathew, Chowwannur DECLARED")
    await s.say(OFFICER_PHONE, "SETTLE KNM-1 500")
    await s.refused_then_owner_corrected(Stage.ACCOUNT_DUE)


async def test_with_no_notice_the_owners_route_still_corrects_the_place(twilio: SmsRig) -> None:
    s = Typed(twilio)
    await s.say(KEEPER_PHONE, SEIZE)
    await on(twilio, 2)
    await s.say(KEEPER_PHONE, "REFUSED KNM-1")
    await s.say(OFFICER_PHONE, "AUCTION KNM-1 ON 04-03-2026 AT Kunnamangalam market")
    await on(twilio, 4)
    await s.say(OFFICER_PHONE, "SOLD KNM-1 1 1 30000 TO Joseph Mathew, Chowwannur DECLARED")
    reply = await s.say(KEEPER_PHONE, "CORRECT KNM-1 PLACE Pathimangalam junction BECAUSE typo")
    assert "Case KNM-1 corrected" in reply, reply
    assert (await s.case()).seizure.place_seized == "Pathimangalam junction"
