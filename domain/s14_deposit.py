"""s.14 with s.19: an owner who disputes the seizure gets the cattle on deposit of the
fines and charges incurred, while a complaint of illegal seizure may still be made (ten
days from the day of seizure, s.19; as many as the case's Act says, ``complaint_days``);
the deposit is then refunded or kept as the complaint's outcome says."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.accounts import (
    FINES,
    KEEPER_FEEDING,
    NO_POSTINGS,
    OWNER_REFUND,
    PROTEST_DEPOSIT,
    Posting,
    Postings,
    legs,
)
from domain.calendar import period_end
from domain.deadline import Deadline, DeadlineKind, Role
from domain.dues_items import DuesItem
from domain.errors import InvalidCaseError, TransitionRefusedError
from domain.events import DeliveredOnDeposit, DepositOutcome, DepositRefunded
from domain.money import Money
from domain.provisions import cites
from domain.s04_s11_dues import Dues, dues_on
from domain.s12_claim import BEFORE_SETTLEMENT, check_owner_may_take_back, may_take_back
from domain.s12_release import require_whole_dues
from domain.s16_s17_proceeds import fines_to_fund
from domain.stages import Stage
from domain.step import AnyCase, Case, Step
from domain.tariff import Tariff

__all__ = [
    "DEPOSIT",
    "OUTCOME",
    "REFUND",
    "Deposit",
    "complaint_last_day",
    "deposit_for",
    "release_on_deposit",
]


@cites("s.19", "GCA s.8")
def complaint_last_day(seized_on: date, days: int) -> date:
    """Last day to complain of an illegal seizure: ``days`` from the date of seizure (the
    case's Act's ``complaint_days``).

    s.19: a complaint "within ten days from the date of seizure"; the day of seizure
    is excluded (seized 5 March -> complaint by 15 March). The 1871 Act's time limit
    (its s.20) was not found: the Kerala Act's ten days, or the days configured.
    """
    return period_end(seized_on, days)


@dataclass(frozen=True, slots=True)
class Deposit:
    """What a deposit under s.14 takes on a day, and the s.19 last day to complain."""

    dues: Dues
    complaint_by: date

    @property
    def amount(self) -> Money:
        return self.dues.total


@cites("s.14", "s.19")
def deposit_for(case: Case, tariff: Tariff, day: date) -> Deposit:
    """s.14: "upon deposit of the fines and charges incurred in respect of the cattle,
    the cattle shall be delivered"; the owner then has until the s.19 day to complain."""
    return Deposit(
        dues=dues_on(case, tariff, day),
        complaint_by=case.complaint_by,
    )


@cites("s.14")
def release_on_deposit(
    case: AnyCase, tariff: Tariff, day: date, today: date, tendered: Money | None = None
) -> AnyCase:
    """The owner disputes the seizure and deposits the fines and charges; cattle delivered.
    An amount given that is not the dues of the day is refused, nothing recorded."""
    deposit = deposit_for(case, tariff, day)
    event = DeliveredOnDeposit(on=day, deposited=deposit.amount)
    if case.stage is Stage.VOIDED:
        case.apply(event, today)  # refused: a case entered by mistake takes no step (s.7)
    if deposit.complaint_by < day:
        # The deposit is the way to dispute a seizure while a complaint is possible.
        raise TransitionRefusedError(
            f"the time to complain ended on {deposit.complaint_by.isoformat()}",
            "s.19",
            reason="complaint_time_over",
            facts={"date": deposit.complaint_by},
        )
    after = case.apply(event, today)
    require_whole_dues(deposit.dues, tendered, "s.14")
    return after


# --- the steps of s.14 and s.19, each declared once --------------------------------


@cites("s.14", "s.19")
def _guard_deposit(case: Case, event: DeliveredOnDeposit) -> None:
    check_owner_may_take_back(case, DeliveredOnDeposit, event.on)


@cites("s.14", "s.19")
def _deposit_lawful(case: Case, today: date) -> bool:
    """Deposit while no head is sold, the ten days of s.19 run and the account was not
    refused (s.14, s.19)."""
    return may_take_back(case, DeliveredOnDeposit, today)


@cites("s.19")
def _deposit_deadlines(case: Case) -> tuple[Deadline, ...]:
    """s.19: ten days (the Act's ``complaint_days``) from the seizure to complain (and so
    to take the cattle on deposit, s.14); shown to the owner while impounded, to the
    officer while on deposit."""
    if case.stage not in (Stage.IMPOUNDED, Stage.ON_DEPOSIT):
        return ()
    seized = case.seizure.seizure_day
    who = Role.OFFICER if case.stage is Stage.ON_DEPOSIT else Role.OWNER
    last = case.complaint_by
    return (Deadline(DeadlineKind.COMPLAINT_WINDOW_ENDS, last, "s.19", who, seized),)


@cites("s.14")
def _deposit_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """s.14: the fines and charges deposited, held until the complaint is decided."""
    made = after.events[-1]
    assert isinstance(made, DeliveredOnDeposit)
    return Postings(made.deposited, legs(Posting(PROTEST_DEPOSIT, made.deposited, "s.14")))


DEPOSIT: Step[DeliveredOnDeposit] = Step(
    event=DeliveredOnDeposit,
    provision="s.14",
    # While the ten days of s.19 run, also after a refusal (s.15(1) sells only when the
    # owner refuses "to deposit" too); the guard looks at the days and the sales.
    follows=BEFORE_SETTLEMENT,
    guard=_guard_deposit,
    lawful=_deposit_lawful,
    deadlines=_deposit_deadlines,
    leads_to=Stage.ON_DEPOSIT,
    moves_money=lambda event: True,
    postings=_deposit_postings,
)


@cites("s.19")
def _guard_outcome(case: Case, event: DepositOutcome) -> None:
    if not event.reference.strip():
        raise InvalidCaseError("the outcome needs the reference of the order", "s.19")


@cites("s.14", "s.19", "s.16(2)", "s.17(1)")
def _outcome_postings(
    before: Case, after: Case, tariff: Tariff, order: tuple[DuesItem, ...]
) -> Postings:
    """The s.14 deposit after the s.19 proceedings: refunded to the owner when the seizure
    was found illegal; upheld, applied (a stated policy, the Act being silent) as the
    fines, to the fund (s.17(1)), and the feeding charges, to the keeper (s.16(2))."""
    outcome = after.events[-1]
    made = before.last(DeliveredOnDeposit)
    if not isinstance(outcome, DepositOutcome) or not isinstance(made, DeliveredOnDeposit):
        return NO_POSTINGS
    deposited = made.deposited
    out = legs(Posting(PROTEST_DEPOSIT, Money.zero() - deposited, "s.14"))
    if outcome.returned:
        return Postings(Money.zero(), out + legs(Posting(OWNER_REFUND, deposited, "s.19")))
    fines = min(dues_on(before, tariff, made.on).fines, deposited)
    applied = (
        out
        + legs(Posting(FINES, fines, "s.14"))
        + fines_to_fund(fines)
        + legs(Posting(KEEPER_FEEDING, deposited - fines, "s.16(2)"))
    )
    return Postings(Money.zero(), applied)


OUTCOME: Step[DepositOutcome] = Step(
    event=DepositOutcome,
    provision="s.19",
    follows=frozenset({Stage.ON_DEPOSIT}),
    guard=_guard_outcome,
    leads_to=Stage.CLOSED,
    postings=_outcome_postings,
)


@cites("s.19", "s.14")
def _guard_refund(case: Case, event: DepositRefunded) -> None:
    """A refund is recorded once, and only of a deposit ordered refunded (the seizure
    found illegal, s.19)."""
    outcome = case.last(DepositOutcome)
    if not isinstance(outcome, DepositOutcome) or not outcome.returned:
        raise TransitionRefusedError(
            "no refund of a deposit was ordered in this case", "s.19", reason="no_refund"
        )
    done = case.last(DepositRefunded)
    if done is not None:
        raise TransitionRefusedError(
            f"the deposit was refunded on {done.on.isoformat()}",
            "s.19",
            reason="already_refunded",
            facts={"date": done.on},
        )


REFUND: Step[DepositRefunded] = Step(
    event=DepositRefunded,
    provision="s.19",
    follows=frozenset({Stage.CLOSED}),
    guard=_guard_refund,
    leads_to=Stage.CLOSED,
)
