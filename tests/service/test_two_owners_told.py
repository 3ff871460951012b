"""Cattle of two owners in one case: each owner is answered and told of their own lots
only, in their own language, and never of the other owner's name or number (s.7), through
the dispatcher every channel shares and the outbox."""

from __future__ import annotations

import asyncio
from datetime import date, datetime

from sqlalchemy import select

from bot.adapters.outbox import deliver_once
from bot.bootstrap import send_gate
from bot.services.base import Deps
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.stages import Stage
from tests.service.test_owner_answers import at, en, say, stage_of
from tests.service.test_two_owners import AYISHA, KUNHAMMED, seize_two

KUNHAMMED_ASKS = Caller.public("test", phone=KUNHAMMED, lang="en")
AYISHA_ASKS = Caller.public("test", phone=AYISHA, lang="ml")
FATHIMA = "+919847012347"
SOMEONE = Caller.public("test", phone="+919847000999", lang="en")

#: What the other owner must never see: their name and number, as written and as kept.
OF_KUNHAMMED = ("Kunhammed", "9847012345")
OF_AYISHA = ("Ayisha", "9847012346")


async def bodies(store: Store, phone: str) -> list[tuple[str, str]]:
    """The messages queued for ``phone``: (idempotency key, body), in order."""
    async with store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxRow.idempotency_key, OutboxRow.body)
            .where(OutboxRow.recipient == phone)
            .order_by(OutboxRow.id)
        )
        return [(str(key), str(body)) for key, body in rows.all()]


def names_none_of(texts: list[str], of_other: tuple[str, ...]) -> None:
    for text in texts:
        assert text  # something was said
        for word in of_other:
            assert word not in text, (word, text)


class Sender:
    """An SMS provider that keeps what it was given to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []

    async def send(self, recipient: str, body: str, key: str) -> str:
        await asyncio.sleep(0)
        self.sent.append((recipient, body, key))
        return f"SM{len(self.sent)}"

    def to(self, phone: str) -> str:
        return "".join(body for recipient, body, _ in self.sent if recipient == phone)


async def deliver(store: Store, deps: Deps) -> Sender:
    """Send what the outbox holds, through the send gate (which renders a message about a
    case again from the case, when it goes)."""
    sender, gate = Sender(), send_gate(lambda: deps)
    while await deliver_once(store, {"sms": sender}, "test", gate=gate):
        pass
    return sender


async def each_in_their_language(store: Store, deps: Deps) -> None:
    """Kunhammed's number chose English, Ayisha's Malayalam."""
    await say(store, deps, KUNHAMMED_ASKS, "LANG en")
    await say(store, deps, AYISHA_ASKS, "LANG ml")


async def sell_and_settle(
    store: Store, deps: Deps, officer: Caller, clock: FixedClock, number: str
) -> None:
    """An auction of case ``number`` fixed for 5 Mar 2026, its one head sold there, the
    sale settled."""
    await say(store, deps, en(officer), f"AUCTION {number} ON 05-03-2026 AT Panchayat office")
    at(clock, date(2026, 3, 5))
    await say(store, deps, en(officer), f"SOLD {number} 1 1 9000 TO Mammu, Kunnamangalam DECLARED")
    await say(store, deps, en(officer), f"SETTLE {number} 500")
    assert await stage_of(store, number) is Stage.ACCOUNT_DUE


# --- the intake SMS ----------------------------------------------------------------------


async def test_each_owner_gets_the_intake_sms_of_their_own_lot_in_their_language(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    await each_in_their_language(store, deps)
    reply = await seize_two(store, deps, keeper)
    # The keeper is told which owners were told: of lot 1, of lot 2.
    assert reply.endswith(
        "The owner of lot 1 will be told by SMS of their cattle. "
        "The owner of lot 2 will be told by SMS of their cattle."
    )
    [(key_k, kunhammed)] = await bodies(store, KUNHAMMED)
    [(key_a, ayisha)] = await bodies(store, AYISHA)
    assert (key_k, key_a) == (f"intake:KNM-1:{KUNHAMMED}", f"intake:KNM-1:{AYISHA}")
    # The cow's fine and charge (Rs 750 and Rs 120.50 a day), in English...
    assert kunhammed.startswith("Case KNM-1: 1 cow impounded at ")
    assert "Due today Rs 870.50." in kunhammed
    assert "goat" not in kunhammed
    # ... the goat's (Rs 200 and Rs 40 a day), in Malayalam.
    assert ayisha.startswith("കേസ് KNM-1: ")
    assert "1 ആട്" in ayisha
    assert "₹240." in ayisha
    assert "പശു" not in ayisha  # no cow
    names_none_of([kunhammed], OF_AYISHA)
    names_none_of([ayisha], OF_KUNHAMMED)


async def test_an_intake_sms_held_for_the_morning_is_still_of_the_owners_own_lot(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await each_in_their_language(store, deps)
    clock.set(datetime(2026, 3, 1, 22, 10, tzinfo=LOCAL_TZ))  # no SMS to owners at night
    await seize_two(store, deps, keeper)
    clock.set(datetime(2026, 3, 2, 8, 30, tzinfo=LOCAL_TZ))
    sent = await deliver(store, deps)
    # Rendered again in the morning, with the day's charges: the cow's alone.
    kunhammed = sent.to(KUNHAMMED)
    assert kunhammed.startswith("Case KNM-1: 1 cow impounded at ")
    assert "Due today Rs 991." in kunhammed  # Rs 750 and two days at Rs 120.50
    assert "goat" not in kunhammed
    ayisha = sent.to(AYISHA)
    assert "1 ആട്" in ayisha
    assert "₹280." in ayisha  # Rs 200 and two days at Rs 40
    assert "പശു" not in ayisha


async def test_an_intake_sms_held_for_the_morning_is_dropped_once_its_owners_lots_left(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    clock.set(datetime(2026, 3, 1, 22, 10, tzinfo=LOCAL_TZ))
    await seize_two(store, deps, keeper)
    clock.set(datetime(2026, 3, 2, 7, 0, tzinfo=LOCAL_TZ))
    await say(store, deps, en(keeper), "PAID KNM-1 LOT 2")  # Ayisha's goat, now KNM-2
    clock.set(datetime(2026, 3, 2, 8, 30, tzinfo=LOCAL_TZ))
    sent = await deliver(store, deps)
    # KNM-1 is now the cow's alone: Ayisha is told nothing of it.
    assert sent.to(AYISHA) == ""
    assert "KNM-1" in sent.to(KUNHAMMED)
    [(_, body)] = await bodies(store, AYISHA)
    assert "പശു" not in body


async def test_an_owner_without_a_number_is_said_to_be_untold_and_the_other_is_told(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    reply = await say(
        store,
        deps,
        en(keeper),
        "SEIZE 1 cow (brown) OWNER Kunhammed 9847012345 1 goat (white) OWNER Ayisha "
        "AT Kunnamangalam market",
    )
    assert reply.endswith(
        "The owner of lot 1 will be told by SMS of their cattle. "
        "No number for the owner of lot 2: that owner is not told by SMS."
    )
    [(_, kunhammed)] = await bodies(store, KUNHAMMED)
    assert "1 cow" in kunhammed or "1 പശു" in kunhammed
    names_none_of([kunhammed], ("Ayisha",))
    async with store.transaction() as tx:
        sent = (await tx.session.execute(select(OutboxRow.recipient))).scalars().all()
    assert list(sent) == [KUNHAMMED]


async def test_the_new_owner_of_a_corrected_lot_is_told_of_that_lot_alone(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    reply = await say(
        store,
        deps,
        en(keeper),
        "CORRECT KNM-1 OWNER LOT 2 Fathima 9847012347 BECAUSE the goat is hers",
    )
    assert reply.endswith("The owner of lot 2 will be told by SMS of their cattle.")
    [(key, fathima)] = await bodies(store, FATHIMA)
    assert key == f"intake:KNM-1:{FATHIMA}"
    assert "1 ആട്" in fathima  # the goat (the pound's language: her number chose none)
    assert "₹320." in fathima  # its dues on the 3rd: fine Rs 200, 3 days at Rs 40
    assert "പശു" not in fathima
    names_none_of([fathima], OF_KUNHAMMED + OF_AYISHA)
    # The owner of the cow is not told again.
    assert len(await bodies(store, KUNHAMMED)) == 1
    # Ayisha is no longer an owner of the case: she is answered as anyone is.
    assert "(1 cow, 1 goat)" in await say(store, deps, en(AYISHA_ASKS), "STATUS KNM-1")
    assert "(1 goat)" in await say(store, deps, Caller.public("test", phone=FATHIMA), "STATUS")


# --- the owners' questions ------------------------------------------------------------


async def test_each_owner_asks_of_their_own_lot_and_anyone_else_of_the_whole_case(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    kunhammed = en(KUNHAMMED_ASKS)
    ayisha = en(AYISHA_ASKS)
    cow_dues = (
        "Case KNM-1: Rs 1,111.50 due on 3 Mar 2026 (fines Rs 750, feeding 3 days Rs 361.50). "
        "Rs 120.50 more each day."
    )
    goat_dues = (
        "Case KNM-1: Rs 320 due on 3 Mar 2026 (fines Rs 200, feeding 3 days Rs 120). "
        "Rs 40 more each day."
    )
    whole_dues = (
        "Case KNM-1: Rs 1,431.50 due on 3 Mar 2026 (fines Rs 950, feeding 3 days Rs 481.50). "
        "Rs 160.50 more each day."
    )
    # With the case number or without it (the newest open case naming the number).
    for text in ("DUES", "DUES KNM-1"):
        assert (await say(store, deps, kunhammed, text)).startswith(cow_dues)
        assert (await say(store, deps, ayisha, text)).startswith(goat_dues)
    for text in ("DEPOSIT", "DEPOSIT KNM-1"):
        assert (await say(store, deps, kunhammed, text)).startswith(
            "Case KNM-1: to dispute the seizure, deposit Rs 1,111.50 (dues on 3 Mar 2026)"
        )
        assert (await say(store, deps, ayisha, text)).startswith(
            "Case KNM-1: to dispute the seizure, deposit Rs 320 (dues on 3 Mar 2026)"
        )
    for text in ("STATUS", "STATUS KNM-1"):
        assert (await say(store, deps, kunhammed, text)).startswith(
            "Case KNM-1 (1 cow): In the pound since 1 Mar 2026"
        )
        assert (await say(store, deps, ayisha, text)).startswith(
            "Case KNM-1 (1 goat): In the pound since 1 Mar 2026"
        )
    # In her own language.
    assert (await say(store, deps, AYISHA_ASKS, "DUES")).startswith(
        "കേസ് KNM-1: 3 മാർച്ച് 2026-ന് ആകെ ₹320 (പിഴ ₹200, "
    )
    # Anyone else, and the keeper, of the whole case.
    assert (await say(store, deps, SOMEONE, "DUES KNM-1")).startswith(whole_dues)
    assert (await say(store, deps, en(keeper), "DUES KNM-1")).startswith(whole_dues)
    whole = [await say(store, deps, SOMEONE, text) for text in ("STATUS KNM-1", "DEPOSIT KNM-1")]
    assert whole[0].startswith("Case KNM-1 (1 cow, 1 goat): ")
    assert whole[1].startswith("Case KNM-1: to dispute the seizure, deposit Rs 1,431.50 ")
    names_none_of(whole, OF_KUNHAMMED + OF_AYISHA)  # the whole case names no owner
    # Nothing was written by the owners' questions.
    assert await stage_of(store, "KNM-1") is Stage.IMPOUNDED
    async with store.transaction() as tx:
        assert await tx.open_cases_naming(AYISHA, 5) == (["KNM-1"], 1)
        assert await tx.open_cases_naming(KUNHAMMED, 5) == (["KNM-1"], 1)


async def test_once_the_cattle_were_dealt_with_together_an_owner_is_answered_of_the_case(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "PAID KNM-1")  # the whole case's dues, together
    status = await say(store, deps, en(AYISHA_ASKS), "STATUS KNM-1")
    assert status.startswith("Case KNM-1 (1 cow, 1 goat): ")
    names_none_of([status], OF_KUNHAMMED)


# --- a separated case's messages ---------------------------------------------------------


async def test_a_separated_cases_auction_and_account_go_to_its_own_owner_alone(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await each_in_their_language(store, deps)
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 3))
    await say(store, deps, en(keeper), "REFUSED KNM-1 LOT 2")  # Ayisha's goat: KNM-2
    await sell_and_settle(store, deps, officer, clock, "KNM-2")
    ayisha = await bodies(store, AYISHA)
    assert [key for key, _ in ayisha] == [
        f"intake:KNM-1:{AYISHA}",
        "auction:KNM-2:2026-03-05",
        "account:KNM-2",
    ]
    assert all(body.startswith("കേസ് KNM-2") for _, body in ayisha[1:])
    # The owner of the cow gets nothing of the goat's sale.
    kunhammed = await bodies(store, KUNHAMMED)
    assert [key for key, _ in kunhammed] == [f"intake:KNM-1:{KUNHAMMED}"]
    assert all("KNM-2" not in body for _, body in kunhammed)


# --- privacy: nothing an owner receives names the other ---------------------------------


async def test_nothing_an_owner_receives_names_the_other_owner(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await each_in_their_language(store, deps)
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 2))
    answers = {
        who: [
            await say(store, deps, caller, text)
            for text in ("DUES", "DEPOSIT", "STATUS", "DUES KNM-1", "STATUS KNM-1")
        ]
        for who, caller in ((KUNHAMMED, KUNHAMMED_ASKS), (AYISHA, AYISHA_ASKS))
    }
    # Kunhammed refuses for his cow: its case, KNM-2, is sold and settled; Ayisha's goat
    # goes on in KNM-1.
    await say(store, deps, en(keeper), "REFUSED KNM-1 LOT 1")
    await sell_and_settle(store, deps, officer, clock, "KNM-2")
    for who, caller in ((KUNHAMMED, KUNHAMMED_ASKS), (AYISHA, AYISHA_ASKS)):
        answers[who] += [
            await say(store, deps, caller, "STATUS"),
            await say(store, deps, caller, "DUES"),
        ]
    answers[KUNHAMMED] += [await say(store, deps, KUNHAMMED_ASKS, "STATUS KNM-2")]
    kunhammed = await bodies(store, KUNHAMMED)
    ayisha = await bodies(store, AYISHA)
    assert [key for key, _ in kunhammed] == [
        f"intake:KNM-1:{KUNHAMMED}",
        "auction:KNM-2:2026-03-05",
        "account:KNM-2",
    ]
    assert [key for key, _ in ayisha] == [f"intake:KNM-1:{AYISHA}"]
    names_none_of(answers[KUNHAMMED] + [body for _, body in kunhammed], OF_AYISHA)
    names_none_of(answers[AYISHA] + [body for _, body in ayisha], OF_KUNHAMMED)


async def test_an_auction_of_the_cattle_of_both_owners_fixed_or_called_off_is_told_to_each(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await each_in_their_language(store, deps)
    await seize_two(store, deps, keeper)
    at(clock, date(2026, 3, 9))  # unclaimed: the cattle of both go to the s.13(3) sale
    await say(store, deps, en(keeper), "REPORT KNM-1")
    at(clock, date(2026, 3, 10))
    await say(store, deps, en(officer), "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market")
    await say(store, deps, en(officer), "AUCTION KNM-1 ON 18-03-2026 AT Panchayat office")
    kunhammed = await bodies(store, KUNHAMMED)
    ayisha = await bodies(store, AYISHA)
    assert [key for key, _ in kunhammed][1:] == [f"auction:KNM-1:2026-03-18:{KUNHAMMED}"]
    assert [key for key, _ in ayisha][1:] == [f"auction:KNM-1:2026-03-18:{AYISHA}"]
    assert kunhammed[1][1].startswith("Case KNM-1: ")  # in English
    assert ayisha[1][1].startswith("കേസ് KNM-1: ")  # in Malayalam
    # A correction of what the notice stated calls the auction off: each owner is told.
    at(clock, date(2026, 3, 11))
    reply = await say(
        store, deps, en(officer), "CORRECT KNM-1 PLACE Chathamangalam BECAUSE wrong place"
    )
    assert reply.endswith(
        "The owner of lot 1 will be told by SMS of their cattle. "
        "The owner of lot 2 will be told by SMS of their cattle."
    )
    kunhammed = await bodies(store, KUNHAMMED)
    ayisha = await bodies(store, AYISHA)
    assert [key for key, _ in kunhammed][2:] == [f"auction-cancelled:KNM-1:2026-03-18:{KUNHAMMED}"]
    assert [key for key, _ in ayisha][2:] == [f"auction-cancelled:KNM-1:2026-03-18:{AYISHA}"]
    names_none_of([body for _, body in kunhammed], OF_AYISHA)
    names_none_of([body for _, body in ayisha], OF_KUNHAMMED)


async def test_cattle_of_no_owner_known_are_told_of_as_one_case(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    """Lots naming no owner are not owners' lots: the reply says, once, that no owner's
    number was given, not a line for each lot."""
    reply = await say(store, deps, en(keeper), "SEIZE 2 cow 1 buffalo AT Kunnamangalam market")
    assert "No owner's number: the owner is not told by SMS." in reply
    assert "lot" not in reply.lower()
