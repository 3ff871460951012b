"""The intake record through the dispatcher: what SEIZE records and says (s.7, s.4,
s.13(2)(a), s.19), and its corrections (CORRECT) and voiding (VOID)."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

import pytest
from sqlalchemy import select

from bot.conversation.reply import handle_text
from bot.conversation.seizure import report_seizure
from bot.notifications.handlers import tell_owner_of_intake
from bot.services.base import Deps
from bot.services.outcomes import Seized
from bot.services.subscribers import Told
from bot.store.models import CaseEvent, CaseLot, CaseRow, DeadlineRow, OutboxRow, User
from bot.store.tx import Store
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.s07_seizure import Lot, Seizure
from domain.stages import Stage


async def _user(store: Store, role: str, *, pound: str | None, authority: str | None) -> int:
    async with store.transaction() as tx:
        user = User(
            role=role,
            pound_code=pound,
            authority_code=authority,
            name=f"{role} {pound or authority}",
            created_at=datetime(2026, 1, 1, tzinfo=LOCAL_TZ),
        )
        tx.session.add(user)
        await tx.session.flush()
        return int(user.id)


@pytest.fixture
async def recorder(store: Store) -> Caller:
    uid = await _user(store, KEEPER, pound="KNM", authority=None)
    return Caller(role=KEEPER, channel="test", user_id=uid, pound="KNM", lang="en")


@pytest.fixture
async def ml_recorder(recorder: Caller) -> Caller:
    return dataclasses.replace(recorder, lang=None)


@pytest.fixture
async def knm_officer(store: Store) -> Caller:
    uid = await _user(store, OFFICER, pound=None, authority="KNM-GP")
    return Caller(role=OFFICER, channel="test", user_id=uid, authority="KNM-GP", lang="en")


async def say(store: Store, deps: Deps, caller: Caller, text: str, sms: bool = False) -> str:
    async with store.transaction() as tx:
        return (await handle_text(tx, deps, caller, text, sms=sms)).text


async def deadline(store: Store, number: str, kind: str) -> DeadlineRow | None:
    async with store.transaction() as tx:
        return (
            await tx.session.execute(
                select(DeadlineRow).where(
                    DeadlineRow.case_number == number, DeadlineRow.kind == kind
                )
            )
        ).scalar_one_or_none()


# --- 12.9: s.19 counts from the day of seizure ----------------------------------------


async def test_s19_counts_from_the_day_of_seizure_given_with_seized(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    reply = await say(
        store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 28-02-2026 SEIZED 25-02-2026"
    )
    assert "KNM-1" in reply
    window = await deadline(store, "KNM-1", "complaint_window_ends")
    assert window is not None
    assert window.counts_from == date(2026, 2, 25)
    assert window.due_on == date(2026, 3, 7)  # ten days from 25 Feb, not from 28 Feb
    async with store.transaction() as tx:
        seizure = (await tx.load_case("KNM-1")).case.seizure
    assert seizure.seized_on == date(2026, 2, 25)
    assert seizure.impounded_on == date(2026, 2, 28)


async def test_without_seized_the_day_brought_is_the_day_of_seizure(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 28-02-2026")
    window = await deadline(store, "KNM-1", "complaint_window_ends")
    assert window is not None
    assert window.due_on == date(2026, 3, 10)


async def test_a_seizure_after_the_day_brought_is_refused_citing_s7(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    reply = await say(
        store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 27-02-2026 SEIZED 28-02-2026"
    )
    assert reply == (
        "The day of seizure, 28 Feb 2026, is after the day the cattle were brought in, "
        "27 Feb 2026. (s.7)"
    )
    async with store.transaction() as tx:
        assert (await tx.session.execute(select(CaseRow))).first() is None


async def test_the_day_of_seizure_in_malayalam(
    store: Store, deps: Deps, ml_recorder: Caller
) -> None:
    reply = await say(
        store,
        deps,
        ml_recorder,
        "പിടിച്ചു 1 പശു സ്ഥലം കുന്ദമംഗലം തീയതി 28-02-2026 പിടിച്ചദിവസം 26-02-2026",
    )
    assert "KNM-1" in reply
    window = await deadline(store, "KNM-1", "complaint_window_ends")
    assert window is not None
    assert window.due_on == date(2026, 3, 8)


# --- 12.16: the rate of the day brought; the hour only when given --------------------


async def test_the_intake_reply_quotes_the_rate_of_the_day_brought_and_no_invented_hour(
    store: Store, deps: Deps, recorder: Caller, clock: FixedClock
) -> None:
    # Sample tariff: a cow's feeding was Rs 100 a day until 31 Mar 2025, Rs 120.50 after.
    clock.set(datetime(2025, 4, 2, 10, 0, tzinfo=LOCAL_TZ))
    reply = await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 30-03-2025")
    assert "Feeding and watering (s.4): ₹100 a day." in reply
    assert "120.50" not in reply
    assert "on 30 Mar 2025;" in reply
    assert "12:00" not in reply
    timed = await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 30-03-2025 14:30")
    assert "30 Mar 2025, 2:30 PM" in timed


# --- 12.17: each lot keeps its own description --------------------------------------


async def _notice(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> str:
    """The s.13(2) notice of KNM-1, after the s.13(1) report (the 8th day)."""
    clock.set(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    assert "reported" in await say(store, deps, keeper, "REPORT KNM-1")
    return await say(store, deps, officer, "NOTICE KNM-1")


async def test_each_lot_keeps_its_own_description_in_the_record_and_the_notice(
    store: Store, deps: Deps, recorder: Caller, knm_officer: Caller, clock: FixedClock
) -> None:
    reply = await say(
        store,
        deps,
        recorder,
        "SEIZE 1 buffalo (black, cut left ear) 1 goat (brown) AT Kunnamangalam",
    )
    assert "KNM-1" in reply
    async with store.transaction() as tx:
        lots = (await tx.session.execute(select(CaseLot).order_by(CaseLot.idx))).scalars().all()
    assert [(lot.kind, lot.count, lot.description) for lot in lots] == [
        ("buffalo", 1, "black, cut left ear"),
        ("goat", 1, "brown"),
    ]
    notice = await _notice(store, deps, recorder, knm_officer, clock)
    assert "1 buffalo (black, cut left ear); 1 goat (brown)" in notice


async def test_one_description_after_a_semicolon_still_describes_the_cattle_once(
    store: Store, deps: Deps, recorder: Caller, knm_officer: Caller, clock: FixedClock
) -> None:
    await say(store, deps, recorder, "SEIZE 2 cow 1 goat AT Kunnamangalam; brown cows")
    notice = await _notice(store, deps, recorder, knm_officer, clock)
    assert "1 goat (brown cows)" not in notice
    assert "2 cows; 1 goat: brown cows" in notice


# --- 13.10: OWNER and BY anywhere; the reply says whether the owner is told ----------


async def test_owner_after_the_description_is_the_owner_with_a_phone_told_by_sms(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    reply = await say(
        store, deps, recorder, "SEIZE 1 buffalo AT x; black buffalo OWNER Kunhammed 9847012345"
    )
    assert "The owner will be told by SMS." in reply
    async with store.transaction() as tx:
        row = (await tx.session.execute(select(CaseRow))).scalar_one()
        lot = (await tx.session.execute(select(CaseLot))).scalar_one()
        case = (await tx.load_case("KNM-1")).case
        sms = (await tx.session.execute(select(OutboxRow))).scalars().all()
    assert row.owner_phone == "+919847012345"
    assert lot.description == "black buffalo"
    assert case.seizure.owner is not None
    assert case.seizure.owner.name == "Kunhammed"
    assert [m.recipient for m in sms] == ["+919847012345"]
    assert "9847012345" not in lot.description
    # By SMS the keeper is told the same, in one short line.
    by_sms = await say(
        store, deps, recorder, "SEIZE 1 cow AT x; white cow OWNER Ravi 9847012346", sms=True
    )
    assert by_sms.startswith("Case KNM-2:")
    assert by_sms.endswith("The owner will be told by SMS.")


async def test_by_after_the_description_is_the_seizer_and_no_phone_means_no_sms(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    reply = await say(store, deps, recorder, "SEIZE 1 cow AT x; white cow BY Rajan, Pathimangalam")
    assert "No owner's number: the owner is not told by SMS." in reply
    async with store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
        lot = (await tx.session.execute(select(CaseLot))).scalar_one()
    assert case.seizure.seizer is not None
    assert case.seizure.seizer.name == "Rajan"
    assert lot.description == "white cow"


# --- 12.8: corrections --------------------------------------------------------------


async def test_a_corrected_day_brought_moves_the_deadlines_and_is_logged_with_its_reason(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    await say(store, deps, recorder, "SEIZE 2 cow AT Kunnamangalam ON 01-03-2026")
    before = await deadline(store, "KNM-1", "report_due")
    assert before is not None
    assert before.due_on == date(2026, 3, 9)
    reply = await say(
        store, deps, recorder, "CORRECT KNM-1 BROUGHT 27-02-2026 09:00 BECAUSE written wrong"
    )
    assert "Case KNM-1 corrected" in reply
    assert "27 Feb 2026, 9:00 AM" in reply
    assert "Reason recorded: written wrong" in reply
    after = await deadline(store, "KNM-1", "report_due")
    assert after is not None
    assert after.due_on == date(2026, 3, 7)
    async with store.transaction() as tx:
        log = (
            await tx.session.execute(select(CaseEvent).where(CaseEvent.type == "SeizureCorrected"))
        ).scalar_one()
        row = (await tx.session.execute(select(CaseRow))).scalar_one()
    assert log.payload["reason"] == "written wrong"
    assert log.actor_user_id == recorder.user_id
    assert row.impounded_on == date(2026, 2, 27)


async def test_each_field_can_be_corrected(store: Store, deps: Deps, recorder: Caller) -> None:
    await say(store, deps, recorder, "SEIZE 2 cow AT Kunnamangalam")
    for line in (
        "CORRECT KNM-1 CATTLE 1 cow (brown) 1 goat (white) BECAUSE miscounted",
        "CORRECT KNM-1 PLACE Pathimangalam junction BECAUSE wrong place",
        "CORRECT KNM-1 SEIZED 27-02-2026 BECAUSE seized two days before",
        "CORRECT KNM-1 SEIZER Rajan K, Pathimangalam BECAUSE name left out",
        "CORRECT KNM-1 OWNER Ravi, Chathamangalam 9847012399 BECAUSE owner came",
    ):
        reply = await say(store, deps, recorder, line)
        assert "Case KNM-1 corrected" in reply, (line, reply)
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        sms = (await tx.session.execute(select(OutboxRow))).scalars().all()
    seizure = loaded.case.seizure
    assert [(lot.kind, lot.count, lot.description) for lot in seizure.lots] == [
        ("cow", 1, "brown"),
        ("goat", 1, "white"),
    ]
    assert seizure.place_seized == "Pathimangalam junction"
    assert seizure.seized_on == date(2026, 2, 27)
    assert seizure.seizer is not None
    assert seizure.seizer.name == "Rajan K"
    assert seizure.owner is not None
    assert seizure.owner.residence == "Chathamangalam"
    assert loaded.row.owner_phone == "+919847012399"
    assert [m.recipient for m in sms] == ["+919847012399"]
    window = await deadline(store, "KNM-1", "complaint_window_ends")
    assert window is not None
    assert window.due_on == date(2026, 3, 9)


async def test_a_recount_keeps_the_descriptions_of_the_lots_it_does_not_describe(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    await say(store, deps, recorder, "SEIZE 2 cow (brown) 1 goat (white) AT Kunnamangalam")
    reply = await say(store, deps, recorder, "CORRECT KNM-1 CATTLE 3 cow 1 goat BECAUSE recount")
    assert "3 cows (brown); 1 goat (white)" in reply
    async with store.transaction() as tx:
        lots = (await tx.load_case("KNM-1")).case.seizure.lots
    assert [(lot.count, lot.description) for lot in lots] == [(3, "brown"), (1, "white")]


async def test_an_officer_of_the_authority_may_correct_others_may_not(
    store: Store, deps: Deps, recorder: Caller, knm_officer: Caller
) -> None:
    await say(store, deps, recorder, "SEIZE 2 cow AT Kunnamangalam")
    assert "Case KNM-1 corrected" in await say(
        store, deps, knm_officer, "CORRECT KNM-1 PLACE Chathamangalam BECAUSE wrong"
    )
    other_uid = await _user(store, KEEPER, pound="ENM", authority=None)
    other = Caller(role=KEEPER, channel="test", user_id=other_uid, pound="ENM", lang="en")
    second_uid = await _user(store, KEEPER, pound="KNM", authority=None)
    second = Caller(role=KEEPER, channel="test", user_id=second_uid, pound="KNM", lang="en")
    for caller in (other, second):
        reply = await say(store, deps, caller, "CORRECT KNM-1 PLACE Elsewhere BECAUSE x")
        assert "Case KNM-1 corrected" not in reply
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.seizure.place_seized == "Chathamangalam"


async def test_a_correction_that_makes_a_recorded_report_unlawful_is_refused(
    store: Store, deps: Deps, recorder: Caller, clock: FixedClock
) -> None:
    await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 01-03-2026")
    clock.set(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    assert "reported" in await say(store, deps, recorder, "REPORT KNM-1")
    reply = await say(store, deps, recorder, "CORRECT KNM-1 BROUGHT 03-03-2026 BECAUSE typo")
    assert reply == (
        "Not corrected: with that change a step already recorded in this case would "
        "become unlawful. Check the date or count. (s.13(1))"
    )
    async with store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.seizure.impounded_on == date(2026, 3, 1)
    # An earlier day keeps the report lawful: allowed, after the report too.
    ok = await say(store, deps, recorder, "CORRECT KNM-1 BROUGHT 28-02-2026 BECAUSE typo")
    assert "Case KNM-1 corrected" in ok


async def test_a_correction_without_a_reason_is_refused(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    await say(store, deps, recorder, "SEIZE 2 cow AT Kunnamangalam")
    reply = await say(store, deps, recorder, "CORRECT KNM-1 PLACE Chathamangalam")
    assert "BECAUSE" in reply
    bad_field = await say(store, deps, recorder, "CORRECT KNM-1 COLOUR red BECAUSE x")
    assert "CATTLE" in bad_field
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.seizure.place_seized == "Kunnamangalam"


async def test_a_correction_in_malayalam(store: Store, deps: Deps, ml_recorder: Caller) -> None:
    await say(store, deps, ml_recorder, "പിടിച്ചു 1 പശു സ്ഥലം കുന്ദമംഗലം")
    reply = await say(store, deps, ml_recorder, "തിരുത്തുക KNM-1 സ്ഥലം ചാത്തമംഗലം കാരണം തെറ്റി എഴുതി")
    assert "KNM-1" in reply
    assert "ചാത്തമംഗലം" in reply
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.seizure.place_seized == "ചാത്തമംഗലം"


# --- 12.8: voiding a case entered by mistake ------------------------------------------


async def test_a_voided_case_leaves_every_list(
    store: Store, deps: Deps, recorder: Caller, knm_officer: Caller, clock: FixedClock
) -> None:
    await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 20-02-2026")
    await say(store, deps, recorder, "SEIZE 1 goat AT Kunnamangalam ON 20-02-2026")
    reply = await say(store, deps, recorder, "VOID KNM-1 BECAUSE entered twice")
    assert "KNM-1" in reply
    assert "entered twice" in reply
    cases = await say(store, deps, recorder, "CASES")
    assert "KNM-1:" not in cases
    assert "KNM-2" in cases
    found = await say(store, deps, Caller.public("test", lang="en"), "FIND cow Kunnamangalam")
    assert "KNM-1" not in found
    due = await say(store, deps, knm_officer, "DEADLINES")
    assert "KNM-1" not in due
    assert "KNM-2" in due
    async with store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        rows = (
            await tx.session.execute(select(DeadlineRow).where(DeadlineRow.case_number == "KNM-1"))
        ).scalars()
        statuses = {r.status for r in rows}
    assert loaded.case.stage is Stage.VOIDED
    assert statuses == {"closed"}
    # An owner asking about it is told it is void, not what it would cost.
    public = Caller.public("test", lang="en")
    dues = await say(store, deps, public, "DUES KNM-1")
    assert dues == "Case KNM-1 was entered by mistake and voided: nothing is due on it (s.7)."
    assert "voided" in await say(store, deps, public, "DEPOSIT KNM-1")
    assert "voided" in await say(store, deps, public, "STATUS KNM-1")
    # A voided case takes no further step.
    clock.set(datetime(2026, 3, 1, 12, 0, tzinfo=LOCAL_TZ))
    assert "reported" not in await say(store, deps, recorder, "REPORT KNM-1")
    assert "released" not in await say(store, deps, recorder, "PAID KNM-1")
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage is Stage.VOIDED


async def test_a_case_cannot_be_voided_once_money_has_moved(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam")
    await say(store, deps, recorder, "PAID KNM-1")
    reply = await say(store, deps, recorder, "VOID KNM-1 BECAUSE mistake")
    assert "(s.12)" in reply
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage is Stage.RELEASED
    no_reason = await say(store, deps, recorder, "VOID KNM-1")
    assert "BECAUSE" in no_reason


async def test_void_in_malayalam(store: Store, deps: Deps, ml_recorder: Caller) -> None:
    await say(store, deps, ml_recorder, "പിടിച്ചു 1 പശു സ്ഥലം കുന്ദമംഗലം")
    reply = await say(store, deps, ml_recorder, "റദ്ദാക്കുക KNM-1 കാരണം രണ്ടു തവണ ചേർത്തു")
    assert "KNM-1" in reply
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage is Stage.VOIDED


# --- the same in Malayalam ----------------------------------------------------------


async def test_in_malayalam_the_rate_of_the_day_brought_and_the_owner_told_by_sms(
    store: Store, deps: Deps, ml_recorder: Caller, clock: FixedClock
) -> None:
    clock.set(datetime(2025, 4, 2, 10, 0, tzinfo=LOCAL_TZ))
    reply = await say(
        store,
        deps,
        ml_recorder,
        "പിടിച്ചു 1 പശു (തവിട്ടുനിറം) സ്ഥലം കുന്ദമംഗലം തീയതി 30-03-2025; ഉടമ കുഞ്ഞമ്മദ് 9847012345",
    )
    assert "₹100" in reply
    assert "120.50" not in reply
    assert "12:00" not in reply
    assert "ഉടമയെ SMS വഴി അറിയിക്കും." in reply
    async with store.transaction() as tx:
        row = (await tx.session.execute(select(CaseRow))).scalar_one()
        lot = (await tx.session.execute(select(CaseLot))).scalar_one()
    assert row.owner_phone == "+919847012345"
    assert lot.description == "തവിട്ടുനിറം"


async def test_the_seizure_use_case_returns_what_it_did_and_renders_nothing(
    store: Store, deps: Deps, clock: FixedClock, recorder: Caller
) -> None:
    """``report_seizure`` says what it recorded (the case, its fines, the day's charge,
    the pound, the owner's number); the owner's SMS is a handler of that, which says what
    became of it; the dispatcher words the reply from both."""
    clock.set(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))
    lots = (Lot("cow", 2, "brown"),)
    seizure = Seizure("KNM", lots, "Kunnamangalam market", datetime(2026, 3, 1, 9, 0))
    async with store.transaction() as tx:
        told = await report_seizure(tx, deps, recorder, seizure, "+919847000111")
        silent = await report_seizure(tx, deps, recorder, seizure, None)
        assert tx.queued == []  # the use case queues nothing itself
        sms = (
            await tell_owner_of_intake(tx, deps, told),
            await tell_owner_of_intake(tx, deps, silent),
        )
        assert tx.queued == ["intake:KNM-1"]
    assert isinstance(told, Seized)
    assert told.case.number == told.loaded.row.number == "KNM-1"
    assert (told.owner_phone, silent.owner_phone) == ("+919847000111", None)
    assert sms == (Told("intake", "queued"), Told("intake", "no_number"))
    assert told.pound_name == deps.config.pounds["KNM"].name
    assert told.dues.total.paise > 0
    assert told.daily.paise > 0
    assert silent.case.number == "KNM-2"
