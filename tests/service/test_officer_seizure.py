"""A seizure recorded by an officer of the local authority (s.7): into any pound of their
authority, a pound without a keeper too, the officer named as its recorder; an officer of
another authority, an admin and the public refused with nothing stored; the pound's
keeper then takes the keeper's steps on it and corrects or voids it as the officer may.
The use cases on the fake in memory and on each database (``case_store``); the
dispatcher's order (a SEIZE naming its pound, as the desk's form makes it) on each
database."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

import pytest

from bot.conversation.orders import Seize, SeizeLot
from bot.conversation.reply import handle_text, run_command
from bot.services import keeper as k
from bot.services.admin import add_user
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.tx import Recorder, Store
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from bot.support.errors import NotAllowedError, UnknownPoundError
from domain.calendar import LOCAL_TZ
from domain.stages import Stage
from tests.service.helpers import seizure

Stores = Store | MemoryStore


async def _registered(
    store: Stores, deps: Deps, role: str, *, pound: str | None = None, authority: str | None = None
) -> Caller:
    """A registered user in ``role``, as the channels identify them."""
    async with store.transaction() as tx:
        user = await add_user(
            tx, deps, Caller.system(), role=role, pound=pound, authority=authority, name=role
        )
    return Caller(
        role=role, channel="web", user_id=user.id, pound=pound, authority=authority, name=role
    )


async def test_an_officer_records_a_seizure_into_a_pound_of_their_authority_without_a_keeper(
    case_store: Stores, deps: Deps
) -> None:
    officer = await _registered(case_store, deps, OFFICER, authority="KNM-GP")
    async with case_store.transaction() as tx:
        # No keeper of PTM is registered: its seizures are recorded by an officer.
        recorded = await k.record_seizure(tx, deps, officer, seizure(pound="PTM"))
    assert recorded.case.number == "PTM-1"
    assert recorded.case.stage is Stage.IMPOUNDED
    async with case_store.transaction() as tx:
        loaded = await tx.load_case("PTM-1")
        # The audit log names the officer as the recorder.
        assert await tx.recorded_by(loaded) == Recorder(officer.user_id, OFFICER)
        assert loaded.case.seizure.pound == "PTM"


@pytest.mark.parametrize(
    "who",
    [
        pytest.param(Caller(role=OFFICER, channel="web", authority="ENM-GP"), id="other officer"),
        pytest.param(Caller(role=ADMIN, channel="web"), id="state admin"),
        pytest.param(Caller(role=ADMIN, channel="web", authority="KNM-GP"), id="authority admin"),
        pytest.param(
            Caller(role=KEEPER, channel="web", pound="KNM"), id="keeper of a sister pound"
        ),
        pytest.param(Caller.public("web", phone="+919847000001"), id="public"),
    ],
)
async def test_only_the_keeper_or_an_officer_of_the_authority_records_one(
    case_store: Stores, deps: Deps, officer: Caller, who: Caller
) -> None:
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await k.record_seizure(tx, deps, who, seizure(pound="PTM"))
    # Nothing stored, no number taken: the pound's first case is still PTM-1.
    async with case_store.transaction() as tx:
        recorded = await k.record_seizure(tx, deps, officer, seizure(pound="PTM"))
    assert recorded.case.number == "PTM-1"


async def test_an_officer_naming_a_pound_not_configured_is_refused(
    case_store: Stores, deps: Deps, officer: Caller
) -> None:
    with pytest.raises(UnknownPoundError):
        async with case_store.transaction() as tx:
            await k.record_seizure(tx, deps, officer, seizure(pound="XYZ"))


async def test_the_pounds_keeper_takes_the_keepers_steps_on_a_case_an_officer_recorded(
    case_store: Stores, deps: Deps, clock: FixedClock
) -> None:
    officer = await _registered(case_store, deps, OFFICER, authority="KNM-GP")
    keeper = await _registered(case_store, deps, KEEPER, pound="KNM")
    report = seizure()
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, officer, report)
        await k.record_seizure(tx, deps, officer, report)
    # Correction of the seizure facts (s.7): the keeper of the pound may.
    moved = replace(report, place_seized="Kunnamangalam bus stand")
    async with case_store.transaction() as tx:
        corrected = await k.correct_seizure(tx, deps, keeper, "KNM-1", moved, "misread")
    assert corrected.case.seizure.place_seized == "Kunnamangalam bus stand"
    # The s.13(1) report, then a payment on the other (s.12).
    clock.set(datetime(2026, 3, 9, 9, 0, tzinfo=LOCAL_TZ))
    async with case_store.transaction() as tx:
        reported = await k.report_unclaimed(tx, deps, keeper, "KNM-1")
        paid = await k.record_payment(tx, deps, keeper, "KNM-2", on=date(2026, 3, 9))
    assert reported.case.stage is Stage.REPORTED
    assert paid.case.stage is Stage.RELEASED
    # The officer who recorded it, and any officer of the authority, may correct it too.
    other_officer = await _registered(case_store, deps, OFFICER, authority="KNM-GP")
    for who in (officer, other_officer):
        async with case_store.transaction() as tx:
            again = await k.correct_seizure(tx, deps, who, "KNM-1", report, "as first written")
        assert again.case.seizure.place_seized == report.place_seized
    async with case_store.transaction() as tx:
        # The recorder stays the officer, whoever corrected.
        assert (await tx.recorded_by(await tx.load_case("KNM-1"))).role == OFFICER


async def test_the_pounds_keeper_voids_a_case_an_officer_recorded(
    case_store: Stores, deps: Deps
) -> None:
    officer = await _registered(case_store, deps, OFFICER, authority="KNM-GP")
    keeper = await _registered(case_store, deps, KEEPER, pound="KNM")
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, officer, seizure())
    async with case_store.transaction() as tx:
        voided = await k.void_case(tx, deps, keeper, "KNM-1", "entered twice")
    assert voided.case.stage is Stage.VOIDED


@pytest.mark.parametrize(
    "who",
    [
        pytest.param({"role": KEEPER, "pound": "ENM"}, id="keeper of another pound"),
        pytest.param({"role": KEEPER, "pound": "PTM"}, id="keeper of a sister pound"),
        pytest.param({"role": OFFICER, "authority": "ENM-GP"}, id="officer of another authority"),
        pytest.param({"role": ADMIN, "authority": "KNM-GP"}, id="authority admin"),
    ],
)
async def test_others_do_not_correct_a_case_an_officer_recorded(
    case_store: Stores, deps: Deps, who: dict[str, str]
) -> None:
    officer = await _registered(case_store, deps, OFFICER, authority="KNM-GP")
    stranger = await _registered(case_store, deps, **who)
    report = seizure()
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, officer, report)
    moved = replace(report, place_seized="Elsewhere")
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await k.correct_seizure(tx, deps, stranger, "KNM-1", moved, "x")
    async with case_store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.seizure.place_seized == report.place_seized


async def test_a_keepers_case_stays_closed_to_another_keeper_of_the_pound(
    case_store: Stores, deps: Deps
) -> None:
    recorder = await _registered(case_store, deps, KEEPER, pound="KNM")
    second = await _registered(case_store, deps, KEEPER, pound="KNM")
    report = seizure()
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, recorder, report)
    moved = replace(report, place_seized="Elsewhere")
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await k.correct_seizure(tx, deps, second, "KNM-1", moved, "x")
    async with case_store.transaction() as tx:
        done = await k.correct_seizure(tx, deps, recorder, "KNM-1", moved, "misread")
    assert done.case.seizure.place_seized == "Elsewhere"


# --- the order a SEIZE makes, through the dispatcher -----------------------------------


def _order(pound: str | None) -> Seize:
    return Seize(
        lang="en",
        lots=(SeizeLot(2, "cow", "brown"),),
        place="Pathimangalam junction",
        seizer="Rajan K., Pathimangalam",
        pound=pound,
    )


async def test_an_officers_order_naming_the_pound_records_and_answers_as_a_keepers(
    store: Store, deps: Deps
) -> None:
    officer = await _registered(store, deps, OFFICER, authority="KNM-GP")
    async with store.transaction() as tx:
        reply = await run_command(tx, deps, officer, _order("PTM"), "en", sms=False)
    assert not reply.refused, reply.text
    assert "Case PTM-1 recorded: 2 cows." in reply.text
    async with store.transaction() as tx:
        loaded = await tx.load_case("PTM-1")
        assert loaded.case.seizure.place_seized == "Pathimangalam junction"
        assert await tx.recorded_by(loaded) == Recorder(officer.user_id, OFFICER)


@pytest.mark.parametrize(
    ("who", "pound"),
    [
        pytest.param({"role": OFFICER, "authority": "ENM-GP"}, "PTM", id="officer, not theirs"),
        pytest.param({"role": KEEPER, "pound": "KNM"}, "PTM", id="keeper, a sister pound"),
        pytest.param({"role": ADMIN}, "PTM", id="state admin"),
    ],
)
async def test_an_order_into_a_pound_not_the_callers_is_refused_in_words(
    store: Store, deps: Deps, who: dict[str, str], pound: str
) -> None:
    caller = await _registered(store, deps, **who)
    async with store.transaction() as tx:
        reply = await run_command(tx, deps, caller, _order(pound), "ml", sms=False)
    assert reply.refused
    assert reply.text.strip()
    assert "PTM-1" not in reply.text
    async with store.transaction() as tx:
        assert await tx.next_case_seq("PTM") == 1  # no number taken


async def test_an_officers_seize_by_chat_names_no_pound_and_is_refused_as_before(
    store: Store, deps: Deps
) -> None:
    officer = await _registered(store, deps, OFFICER, authority="KNM-GP")
    async with store.transaction() as tx:
        reply = await handle_text(
            tx, deps, replace(officer, lang="en"), "SEIZE 2 cow AT Pathimangalam", sms=True
        )
    assert "Your role does not allow this" in reply.text
    async with store.transaction() as tx:
        assert await tx.next_case_seq("KNM") == 1
        assert await tx.next_case_seq("PTM") == 1
