"""Every SMS the dispatcher answers a keeper or an officer with, on cases that go every
way, is one registered DLT template a part (``sms_fit.in_parts``), each within the slot
limit and the staff segment budget: SETTLE with the payees a sale has (expenses or none,
the balance to the owner or into deposit, dues not met), the sale's progress after SOLD,
UNSOLD and DISPOSE (heads remaining or none, the dues met or not), REJECT of a claim
named or the only one, others pending or none, REGISTER, NOTICE by SMS (its link is the
portals' URL variable), and what the step queued by SMS (the s.13(1) report to the
officer). In four languages, on both engines. A reply in parts is queued as one SMS a
part, in order."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.public.sms_fit import STAFF_SMS_SEGMENTS, fits_sms, in_parts, sms_parts
from bot.services.base import Deps
from bot.store.messages import enqueue
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.dlt import DEFAULT_SLOT_LIMIT, URL_VAR, registry
from tests.service.test_disposal_and_deposits import at

LANGS = ("en", "ml", "ta", "kn")
NOTICE_URL = "https://poundbot.kunnamangalam.lsgkerala.gov.in/notice/KNM-1/2026-03-10/" + "x" * 22
SEIZE_ONE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed"
SEIZE_TWO = "SEIZE 2 cow AT Kunnamangalam market OWNER Kunhammed"
NOTICE = "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"
AUCTION = "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market"
BUYER = "TO Mammu, Kunnamangalam DECLARED"


class Officer:
    """A keeper and an officer writing by SMS in ``lang``; every answer and every SMS
    queued is checked against the registry."""

    def __init__(
        self,
        store: Store,
        deps: Deps,
        clock: FixedClock,
        keeper: Caller,
        officer: Caller,
        lang: str,
    ) -> None:
        self.store, self.deps, self.clock, self.lang = store, deps, clock, lang
        self.keeper = dataclasses.replace(keeper, lang=lang)
        self.officer = dataclasses.replace(officer, lang=lang)
        self.checked = 0
        self.templates: set[str] = set()

    async def say(self, who: Caller, text: str, day: int | None, month: int) -> str:
        if day is not None:
            self.clock.set(at(day, month))
        async with self.store.transaction() as tx:
            reply = await handle_text(tx, self.deps, who, text, sms=True)
        assert not reply.refused, (text, reply.text)
        self.check(text, reply.text)
        return reply.text

    async def keeper_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.keeper, text, day, month)

    async def officer_says(self, text: str, day: int | None = None, month: int = 3) -> str:
        return await self.say(self.officer, text, day, month)

    def check(self, said: str, reply: str) -> None:
        parts = sms_parts(reply)
        assert parts, said
        for part in parts:
            template = registry().find(part, self.lang) or registry().find(part)
            assert template is not None, (said, part)
            assert template.problem(part, DEFAULT_SLOT_LIMIT) is None, (said, part)
            assert fits_sms(part, self.lang, STAFF_SMS_SEGMENTS), (said, part)
            self.templates.add(template.name)
            self.checked += 1

    async def check_queued(self) -> None:
        """Every SMS the steps queued (the report to the officers, the owner's notices)."""
        async with self.store.transaction() as tx:
            rows = (await tx.session.execute(select(OutboxRow))).scalars().all()
        for row in rows:
            if row.channel == "sms":
                assert registry().find(row.body) is not None, (row.idempotency_key, row.body)


@pytest.fixture(params=LANGS)
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def sms(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller, lang: str
) -> Officer:
    deps = dataclasses.replace(deps, notice_url=lambda number, on: NOTICE_URL)
    return Officer(store, deps, clock, keeper, officer, lang)


async def test_unclaimed_sold_settled_into_deposit_claims_rejected_and_the_register(
    sms: Officer,
) -> None:
    await sms.keeper_says(SEIZE_ONE, 1)
    await sms.keeper_says("REPORT KNM-1", 9)
    printed = await sms.officer_says("NOTICE KNM-1", 10)  # the notice to print: a link
    assert NOTICE_URL in printed
    link = registry().find(sms_parts(printed)[-1], sms.lang)
    assert link is not None
    assert URL_VAR in link.text
    await sms.officer_says(NOTICE)
    await sms.officer_says(AUCTION)
    await sms.officer_says(f"SOLD KNM-1 1 1 20000 {BUYER}", 18)  # all sold: settle
    settled = await sms.officer_says("SETTLE KNM-1 0")  # no expenses; surplus to deposit
    assert len(sms_parts(settled)) > 3
    await sms.officer_says("REGISTER", 19)
    await sms.officer_says("CLAIMED KNM-1 BY Kunhammed P.", 1, 4)
    await sms.officer_says("CLAIMED KNM-1 BY Ayesha", 2, 4)
    await sms.officer_says("REGISTER")
    await sms.officer_says("REJECT KNM-1 BY Ayesha REF 14/2026", 3, 4)  # one still pending
    await sms.officer_says("REJECT KNM-1 REF 15/2026")  # the only one: none pending
    await sms.officer_says("CLAIMED KNM-1 BY Suresh ON 02-06-2026", 20, 6)
    await sms.officer_says("REJECT KNM-1 REF 16/2026", 25, 6)  # after the three months
    await sms.officer_says("REGISTER")
    await sms.check_queued()


async def test_two_heads_one_sold_one_unsold_then_disposed_of_and_settled_with_expenses(
    sms: Officer,
) -> None:
    await sms.keeper_says(SEIZE_TWO, 1)
    await sms.keeper_says("REPORT KNM-1", 9)
    await sms.officer_says(NOTICE, 10)
    await sms.officer_says(AUCTION)
    await sms.officer_says(f"SOLD KNM-1 1 1 15000 {BUYER}", 18)  # one head remaining
    await sms.officer_says("UNSOLD KNM-1 1 1")
    await sms.officer_says(
        "DISPOSE KNM-1 1 1 BY Director of Animal Husbandry REF DO-4/2026 HOW to the goshala"
    )
    await sms.officer_says("SETTLE KNM-1 500")
    await sms.check_queued()


async def test_the_owner_refused_the_dues_met_the_balance_to_the_owner(sms: Officer) -> None:
    await sms.keeper_says(SEIZE_TWO, 1)
    await sms.keeper_says("REFUSED KNM-1", 2)
    await sms.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    await sms.officer_says(f"SOLD KNM-1 1 1 20000 {BUYER}", 5)  # the dues met: stop
    await sms.officer_says("SETTLE KNM-1 500")  # the balance and the cow to the owner
    await sms.officer_says("NORECEIPT KNM-1", 6)  # refused: deemed unclaimed (s.15(5))
    await sms.check_queued()


async def test_the_owner_refused_a_low_price_the_sale_is_not_settled_and_the_rest_is_paid(
    sms: Officer,
) -> None:
    await sms.keeper_says(SEIZE_TWO, 1)
    await sms.keeper_says("REFUSED KNM-1", 2)
    await sms.officer_says("AUCTION KNM-1 ON 05-03-2026 AT Kunnamangalam market")
    await sms.officer_says(f"SOLD KNM-1 1 1 100 {BUYER}", 5)  # go on: more are needed
    async with sms.store.transaction() as tx:  # the dues not met, a cow left: not settled
        refused = await handle_text(tx, sms.deps, sms.officer, "SETTLE KNM-1 5000", sms=True)
    assert refused.refused
    sms.check("SETTLE KNM-1 5000", refused.text)
    paid = await sms.keeper_says("PAID KNM-1")  # the owner pays the rest, takes the cow
    # What the sale met and what was paid, the receipts, the account's summary: each an
    # SMS of its own template; the owner's account SMS too.
    assert len(sms_parts(paid)) == 3
    await sms.check_queued()


async def test_a_reply_in_parts_is_queued_one_sms_a_part_and_one_message_elsewhere(
    store: Store,
) -> None:
    body = in_parts_sms(["Case KNM-1: sale settled.", "Fines: Rs 100.", "Account: Rs 0."])
    async with store.transaction() as tx:
        assert await enqueue(tx, key="k", channel="sms", recipient="+919847000001", body=body)
        assert await enqueue(tx, key="w", channel="whatsapp", recipient="+919847000001", body=body)
    async with store.transaction() as tx:  # again: queued once
        assert not await enqueue(tx, key="k", channel="sms", recipient="+919847000001", body=body)
        rows = (await tx.session.execute(select(OutboxRow).order_by(OutboxRow.id))).scalars()
        queued = [(r.idempotency_key, r.channel, r.body) for r in rows]
    assert queued == [
        ("k", "sms", "Case KNM-1: sale settled."),
        ("k#2", "sms", "Fines: Rs 100."),
        ("k#3", "sms", "Account: Rs 0."),
        ("w", "whatsapp", "Case KNM-1: sale settled.\nFines: Rs 100.\nAccount: Rs 0."),
    ]


def in_parts_sms(sentences: list[str]) -> str:
    with rendering_sms():
        return in_parts(sentences)
