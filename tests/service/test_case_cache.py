"""A case read from the folds kept in memory (``bot.store.case_cache``) is the case its
events make: after every step of random histories (corrections, VOID, payments, sales,
refusals), and after a transaction that wrote an event and rolled back. The answers
made from a kept fold (its statement, the DUES reply) are the ones made from scratch."""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.services.base import Deps
from bot.store.codec import load_event
from bot.store.models import CaseEvent, CaseRow
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.case import Case

SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed"
PLACES = ("Pathimangalam", "Chathamangalam school", "Kunnamangalam market", "Mukkam road")
OWNERS = ("Kunhammed P", "Ravi K", "Ayesha M")


async def _replayed(store: Store, number: str) -> Case:
    """The case folded from its events as stored, without the cache."""
    async with store.transaction() as tx:
        row = (
            await tx.session.execute(select(CaseRow).where(CaseRow.number == number))
        ).scalar_one()
        events = (
            await tx.session.execute(
                select(CaseEvent.type, CaseEvent.payload)
                .where(CaseEvent.case_id == row.id)
                .order_by(CaseEvent.seq)
            )
        ).all()
    return Case.replay(number, [load_event(t, p) for t, p in events])


async def _loaded(store: Store, number: str, *, for_update: bool = False) -> Case:
    async with store.transaction() as tx:
        return (await tx.load_case(number, for_update=for_update)).case


def _forget(store: Store) -> None:
    """Every fold and everything made from one, forgotten."""
    store.cases.clear()  # what was made from a fold is kept with it (``Case.kept``)


#: Words a keeper may say of a case, and those most likely lawful at each stage (a
#: history is made of accepted steps and refused ones).
WORDS = {
    "correct": "CORRECT {n} PLACE {place} BECAUSE written wrongly",
    "owner": "CORRECT {n} OWNER {owner} BECAUSE full name",
    "paid": "PAID {n}",
    "report": "REPORT {n}",
    "notice": "NOTICE {n} ON {today}",
    "auction": "AUCTION {n} ON {later} AT Kunnamangalam market",
    "refused": "REFUSED {n}",
    "deposited": "DEPOSITED {n}",
    "sold": "SOLD {n} 1 1 9000 TO Mammu, Kunnamangalam DECLARED",
    "settle": "SETTLE {n} 300",
    "noreceipt": "NORECEIPT {n}",
    "void": "VOID {n} BECAUSE entered twice",
}
LIKELY = {
    "impounded": ["report", "report", "report", "correct", "owner", "refused"],
    "reported": ["notice", "notice", "correct"],
    "notice_posted": ["auction", "auction", "correct", "owner"],
    "owner_refused": ["auction", "sold", "correct"],
    "selling": ["sold", "sold", "settle"],
    "account_due": ["settle", "noreceipt"],
    "deemed_unclaimed": ["report", "notice", "auction"],
}


#: The words the officer says (the others are the keeper's).
OFFICERS = frozenset({"notice", "auction", "sold", "settle", "noreceipt"})


def _step(rng: random.Random, number: str, stage: str, today: datetime) -> tuple[str, str]:
    """A word said of a case, and the text saying it."""
    likely = LIKELY.get(stage, [])
    word = rng.choice(likely) if likely and rng.random() < 0.85 else rng.choice(list(WORDS))
    return word, WORDS[word].format(
        n=number,
        place=rng.choice(PLACES),
        owner=rng.choice(OWNERS),
        today=today.strftime("%d-%m-%Y"),
        later=(today + timedelta(days=8)).strftime("%d-%m-%Y"),
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_kept_fold_is_the_replay_of_the_events_after_every_step(
    store: Store, deps: Deps, clock: FixedClock, keeper: Caller, officer: Caller, seed: int
) -> None:
    rng = random.Random(seed)
    keeper = dataclasses.replace(keeper, lang="en")
    officer = dataclasses.replace(officer, lang="en")
    owner = Caller.public("test", phone="+919847000111", lang="en")
    today = datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ)
    clock.set(today)
    numbers = []
    for _ in range(4):
        async with store.transaction() as tx:
            reply = await handle_text(tx, deps, keeper, SEIZE, sms=False)
        assert reply.loaded is not None
        numbers.append(reply.loaded.row.number)
    for _ in range(50):
        today += timedelta(days=rng.choice((0, 1, 3, 8)))
        clock.set(today)
        number = rng.choice(numbers)
        stage = (await _loaded(store, number)).stage.value
        word, text = _step(rng, number, stage, today)
        async with store.transaction() as tx:
            await handle_text(tx, deps, officer if word in OFFICERS else keeper, text, sms=False)
        for each in numbers:
            first = await _loaded(store, each)
            again = await _loaded(store, each)
            assert first == await _replayed(store, each)
            assert again is first  # read from the fold kept, not folded again
            assert await _loaded(store, each, for_update=True) == first  # a step's reading
        # The reply made from the kept fold is the one made from scratch.
        async with store.transaction() as tx:
            kept = (await handle_text(tx, deps, owner, f"DUES {number}", sms=True)).text
        _forget(store)
        async with store.transaction() as tx:
            fresh = (await handle_text(tx, deps, owner, f"DUES {number}", sms=True)).text
        assert kept == fresh
    # Histories of steps taken and refused, corrections among them (not only seizures).
    assert sum([len((await _loaded(store, each)).events) for each in numbers]) > 20


async def test_an_event_rolled_back_never_reaches_the_kept_folds(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    keeper = dataclasses.replace(keeper, lang="en")
    async with store.transaction() as tx:
        await handle_text(tx, deps, keeper, SEIZE, sms=False)
    await _loaded(store, "KNM-1")  # kept as of its first event

    class Undone(Exception):
        pass

    async def undone() -> None:
        async with store.transaction() as tx:
            await handle_text(
                tx, deps, keeper, "CORRECT KNM-1 PLACE Mukkam road BECAUSE wrong", sms=False
            )
            assert (await tx.load_case("KNM-1")).case.seizure.place_seized == "Mukkam road"
            raise Undone

    # A correction written and read back in a transaction that then rolls back: on
    # SQLite the id of its event is given again to the next event written.
    with pytest.raises(Undone):
        await undone()
    assert (await _loaded(store, "KNM-1")) == await _replayed(store, "KNM-1")
    async with store.transaction() as tx:
        await handle_text(
            tx, deps, keeper, "CORRECT KNM-1 PLACE Pathimangalam BECAUSE wrong", sms=False
        )
    case = await _loaded(store, "KNM-1")
    assert case.seizure.place_seized == "Pathimangalam"
    assert case == await _replayed(store, "KNM-1")


async def test_a_step_makes_the_kept_fold_stale(store: Store, deps: Deps, keeper: Caller) -> None:
    keeper = dataclasses.replace(keeper, lang="en")
    async with store.transaction() as tx:
        await handle_text(tx, deps, keeper, SEIZE, sms=False)
    before = await _loaded(store, "KNM-1")
    assert await _loaded(store, "KNM-1") is before
    async with store.transaction() as tx:
        await handle_text(tx, deps, keeper, "VOID KNM-1 BECAUSE entered twice", sms=False)
    after = await _loaded(store, "KNM-1")
    assert after.stage.value == "voided"
    assert after == await _replayed(store, "KNM-1")
