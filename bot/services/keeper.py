"""Use cases of the pound-keeper: intake (s.7), release (s.12, s.14), report (s.13(1))."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from bot.services.base import (
    CaseRef,
    Deps,
    figures_for,
    load_for_step,
    require_keeper,
    require_officer,
    statement_of,
    under_its_act,
)
from bot.services.owners import phone_of_lot
from bot.services.postings import write_postings
from bot.store.port import CaseStore
from bot.store.tx import LoadedCase
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.errors import NotAllowedError
from domain.case import Case
from domain.events import ClaimedAndPaid, OwnerRefusedToPay, ReportedUnclaimed, SeizureCorrected
from domain.figures import Figures, lots_remaining
from domain.money import Money
from domain.s04_s11_dues import Dues
from domain.s07_owners import lots_of_owner_step
from domain.s07_seizure import Lot, Seizure, require_brought_by
from domain.s12_release import release_on_payment
from domain.s14_deposit import release_on_deposit
from domain.s15_sale import dues_unmet

__all__ = [
    "OpenCase",
    "Recorded",
    "correct_seizure",
    "daily_charge",
    "list_open_cases",
    "record_deposit",
    "record_owner_refusal",
    "record_payment",
    "record_seizure",
    "report_unclaimed",
    "void_case",
]


@dataclass(frozen=True, slots=True)
class Recorded:
    """A case after a step, with its dues on the day of the step; ``separated``: the
    step was an owner's on their own lots, separated for it from a case of more than
    one owner (``separate_owners_lots``)."""

    loaded: LoadedCase
    dues: Dues
    separated: Separation | None = None

    @property
    def case(self) -> Case:
        return self.loaded.case


@dataclass(frozen=True, slots=True)
class Separation:
    """One owner's lots, separated from the case ``from_number`` (its lots at ``lots``,
    by their place in its record before) into the case their owner's step is on."""

    from_number: str
    lots: tuple[Lot, ...]


@dataclass(frozen=True, slots=True)
class OpenCase:
    """A case with cattle in the pound, for the keeper's list: its figures of the day
    (the cattle remaining, what is still owed, the days impounded)."""

    loaded: LoadedCase
    figures: Figures

    @property
    def lots(self) -> tuple[Lot, ...]:
        """The lots of the seizure cut to the heads still in the pound."""
        return lots_remaining(self.loaded.case.seizure.lots, self.figures)


async def record_seizure(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    seizure: Seizure,
    owner_phone: str | None = None,
    lot_phones: Sequence[str | None] = (),
) -> Recorded:
    """Record cattle brought in (s.7): numbered ``<POUND>-<n>``, with the dues of the day,
    under the Act in force for the pound on the day the cattle were impounded. Recorded by
    the pound's keeper, or by an officer of its authority (a pound without a keeper has
    its seizures recorded so); the case's first event names who."""
    _require_intake(deps, caller, seizure.pound)
    seizure = under_its_act(deps, seizure)
    today = deps.today()
    # Validate (facts and tariff) before taking a number: a refused report leaves no gap.
    statement_of(deps, Case.open("pending", seizure, deps.config.kinds, today), today)
    require_brought_by(seizure, _wall_clock(deps))
    seq = await tx.next_case_seq(seizure.pound)
    case = Case.open(f"{seizure.pound}-{seq}", seizure, deps.config.kinds, today)
    row = await tx.add_case(case, seq, caller, owner_phone)
    loaded = LoadedCase(row, case)
    if any(lot_phones):  # the numbers of the owners of lots of their own
        await tx.set_lot_phones(loaded, lot_phones)
    return Recorded(loaded, statement_of(deps, case, today).dues)


def _wall_clock(deps: Deps) -> datetime:
    """Now, as the hour a report gives is read: local, without a time zone (s.7)."""
    return deps.local_now().replace(tzinfo=None)


def daily_charge(deps: Deps, case: Case, day: date) -> Money:
    """What one more day in the pound costs for all the heads of a case (s.4)."""
    return statement_of(deps, case, day).daily_rate


def _require_intake(deps: Deps, caller: Caller, pound: str) -> None:
    """Only the keeper of ``pound`` or an officer of its authority records a seizure (s.7)."""
    if caller.role == OFFICER:
        require_officer(deps, caller, pound)
        return
    require_keeper(caller, pound)


async def _require_recorder_or_officer(
    tx: CaseStore, deps: Deps, caller: Caller, loaded: LoadedCase
) -> None:
    """Only an officer of the case's authority, or a keeper of its pound: the keeper who
    recorded the case (s.7), or any when an officer recorded it (the keeper keeps the
    pound's record of cattle the officer brought in); another keeper's case is theirs."""
    if caller.role == OFFICER:
        require_officer(deps, caller, loaded)
        return
    require_keeper(caller, loaded.pound)
    recorder = await tx.recorded_by(loaded)
    if (
        recorder.role == KEEPER
        and recorder.user_id is not None
        and recorder.user_id != caller.user_id
    ):
        raise NotAllowedError("only the keeper who recorded the case", number=loaded.row.number)


async def correct_seizure(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    seizure: Seizure,
    reason: str,
    *,
    owner_phone: str | None = None,
    lot: int | None = None,
) -> Recorded:
    """Correct the intake facts (s.7) in one transaction: the correction and its reason
    in the audit log, the deadlines moved; refused if a recorded step would become
    unlawful. ``owner_phone``, when given, replaces the owner's number: of the lot at
    index ``lot`` when it is that lot's owner that is corrected."""
    loaded = await load_for_step(tx, number)
    await _require_recorder_or_officer(tx, deps, caller, loaded)
    if seizure.pound != loaded.pound:
        raise NotAllowedError("a case cannot move to another pound")
    today = deps.today()
    seizure.validate(deps.config.kinds, today)
    require_brought_by(seizure, _wall_clock(deps))
    after = loaded.case.apply(SeizureCorrected(on=today, seizure=seizure, reason=reason), today)
    phones = await tx.lot_phones(loaded)
    if owner_phone is not None and lot is None:
        loaded.row.owner_phone = owner_phone
    await tx.append_events(loaded, after, caller)
    if lot is not None and owner_phone is not None:
        kept = list(phones) + [None] * (len(after.seizure.lots) - len(phones))
        kept[lot] = owner_phone
        await tx.set_lot_phones(LoadedCase(loaded.row, after), kept[: len(after.seizure.lots)])
    return Recorded(LoadedCase(loaded.row, after), statement_of(deps, after, today).dues)


async def void_case(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, reason: str
) -> LoadedCase:
    """Withdraw a case entered by mistake from every list, while no money has moved; the
    voiding and its reason stay in the audit log and the number is not reused."""
    loaded = await load_for_step(tx, number)
    await _require_recorder_or_officer(tx, deps, caller, loaded)
    today = deps.today()
    after = loaded.case.void(reason, today, today)
    await tx.append_events(loaded, after, caller)
    return LoadedCase(loaded.row, after)


async def separate_owners_lots(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    lot: int,
    on: date | None = None,
) -> tuple[LoadedCase, Separation | None]:
    """The case an owner's step on lot number ``lot`` (from 1) of case ``number`` is to
    be taken on (s.7, ss.12, 14, 15(1)): the case itself when that lot's owner's lots are
    all its lots; else a case of their own, numbered next in the pound, separated from it
    on ``on`` (today by default) with the steps so far, the first case going on for the
    rest. Each keeps the numbers of its owners. A lot the case has not, or cattle already
    dealt with together (a head offered, money moved), is refused, nothing written."""
    loaded = await load_for_step(tx, number)
    if caller.role == OFFICER:
        require_officer(deps, caller, loaded)
    else:
        require_keeper(caller, loaded.pound)
    case = loaded.case
    lots = lots_of_owner_step(case, lot)
    if len(lots) == len(case.seizure.lots):
        return loaded, None
    today = deps.today()
    seq = await tx.next_case_seq(loaded.pound)
    rest, part = case.separate(lots, f"{loaded.pound}-{seq}", on or today, today)
    phones = await tx.lot_phones(loaded)

    def phone(i: int) -> str | None:
        return phone_of_lot(case.seizure, phones, loaded.row.owner_phone, i)

    kept = [i for i in range(len(case.seizure.lots)) if i not in lots]
    await tx.append_events(loaded, rest, caller)
    left = LoadedCase(loaded.row, rest)
    if rest.seizure.owned_apart:
        await tx.set_lot_phones(left, [phones[i] for i in kept])
    else:  # the rest are one owner's: theirs is the case's number
        loaded.row.owner_phone = phone(kept[0])
        await tx.set_lot_phones(left, [])
    row = await tx.add_case(part, seq, caller, phone(lots[0]))
    separated = Separation(case.number, tuple(case.seizure.lots[i] for i in lots))
    return LoadedCase(row, part), separated


async def record_payment(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    on: date | None = None,
    amount: Money | None = None,
) -> Recorded:
    """The owner paid the fines and charges and took the cattle (s.12); an ``amount``
    given that is not the dues of the day is refused and nothing is recorded. During a
    part sale on the owner's route, the sale is settled from its proceeds and the owner
    pays what they left owed, in one step (s.15(1), s.15(2)).

    The fines are received (s.12) and credited to the local authority's fund
    (s.17(1)); the feeding charges the pound-keeper retains (s.16(2)).
    """
    loaded = await load_for_step(tx, number)
    require_keeper(caller, loaded.pound)
    today = deps.today()
    day = on or today
    tariff = deps.tariff_of(loaded.case)
    order = deps.config.deduction_order
    after = release_on_payment(loaded.case, tariff, day, today, tendered=amount, order=order)
    dues = dues_unmet(after, tariff, day, order)  # less what settled sales met (s.15(2))
    rows = await tx.append_events(loaded, after, caller)
    before = loaded
    if len(rows) == 2:  # a part sale settled from its proceeds, the rest paid (s.15(1))
        settled = loaded.case.apply(after.events[-2], today)
        await write_postings(tx, deps, loaded, settled, day, rows[0])
        settlement = statement_of(deps, settled, day).rounds[-1].settlement
        assert settlement is not None
        await tx.record_settlement(loaded, rows[0], settlement, day)
        before = LoadedCase(loaded.row, settled)
    await write_postings(tx, deps, before, after, day, rows[-1])
    paid = after.events[-1]
    assert isinstance(paid, ClaimedAndPaid)
    await tx.record_payment(loaded, rows[-1], "payment", paid.paid, day)
    return Recorded(LoadedCase(loaded.row, after), dues)


async def record_deposit(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    on: date | None = None,
    amount: Money | None = None,
) -> Recorded:
    """The owner disputes the seizure, deposits fines and charges, takes the cattle (s.14);
    an ``amount`` given that is not the dues of the day is refused, nothing recorded."""
    loaded = await load_for_step(tx, number)
    require_keeper(caller, loaded.pound)
    today = deps.today()
    day = on or today
    tariff = deps.tariff_of(loaded.case)
    after = release_on_deposit(loaded.case, tariff, day, today, tendered=amount)
    dues = statement_of(deps, after, day).dues
    (event_row,) = await tx.append_events(loaded, after, caller)
    await write_postings(tx, deps, loaded, after, day, event_row)
    await tx.record_payment(loaded, event_row, "deposit", dues.total, day)
    return Recorded(LoadedCase(loaded.row, after), dues)


async def report_unclaimed(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, on: date | None = None
) -> Recorded:
    """Report to the local authority that the cattle are unclaimed (s.13(1))."""
    loaded = await load_for_step(tx, number)
    require_keeper(caller, loaded.pound)
    today = deps.today()
    after = loaded.case.apply(ReportedUnclaimed(on=on or today), today)
    await tx.append_events(loaded, after, caller)
    return Recorded(LoadedCase(loaded.row, after), statement_of(deps, after, today).dues)


async def record_owner_refusal(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, on: date | None = None
) -> Recorded:
    """The owner appeared and refused or omitted to pay or deposit (s.15(1))."""
    loaded = await load_for_step(tx, number)
    if caller.role == OFFICER:
        require_officer(deps, caller, loaded)
    else:
        require_keeper(caller, loaded.pound)
    today = deps.today()
    after = loaded.case.apply(OwnerRefusedToPay(on=on or today), today)
    await tx.append_events(loaded, after, caller)
    return Recorded(LoadedCase(loaded.row, after), statement_of(deps, after, today).dues)


async def list_open_cases(tx: CaseStore, deps: Deps, caller: Caller) -> list[OpenCase]:
    """The cases of the keeper's pound with cattle still in the pound, oldest first, with
    their figures today: the cattle remaining, what is still owed, the days impounded.
    A case whose cattle have all left (released, delivered on deposit, sold or disposed
    of, handed back with the account) is not listed, whatever remains to be settled."""
    if caller.role != KEEPER or caller.pound is None:
        raise NotAllowedError("only a pound-keeper lists the cases of a pound")
    today = deps.today()
    out = []
    for loaded in await tx.open_cases(caller.pound):
        figures = figures_for(deps, loaded.case, today)
        if figures.remaining:
            out.append(OpenCase(loaded, figures))
    return out
