"""s.14 with s.19: an owner who disputes the seizure gets the cattle on deposit of the
fines and charges incurred, while a complaint of illegal seizure may still be made (ten
days from the day of seizure, s.19); the deposit is then refunded or kept as the
complaint's outcome says."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.calendar import period_end
from domain.case import Case
from domain.errors import TransitionRefusedError
from domain.events import DeliveredOnDeposit
from domain.money import Money
from domain.provisions import cites
from domain.s04_s11_dues import Dues, dues_on
from domain.s12_release import require_whole_dues
from domain.stages import Stage
from domain.tariff import Tariff

__all__ = [
    "Deposit",
    "complaint_last_day",
    "deposit_for",
    "release_on_deposit",
]


@cites("s.19", "GCA s.8")
def complaint_last_day(seized_on: date) -> date:
    """Last day to complain of an illegal seizure: ten days from the date of seizure.

    s.19: a complaint "within ten days from the date of seizure"; the day of seizure
    is excluded (seized 5 March -> complaint by 15 March).
    """
    return period_end(seized_on, 10)


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
        complaint_by=complaint_last_day(case.seizure.seizure_day),
    )


@cites("s.14")
def release_on_deposit(
    case: Case, tariff: Tariff, day: date, today: date, tendered: Money | None = None
) -> Case:
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
