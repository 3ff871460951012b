"""A statutory deadline: a day by (or from) which someone must act, who, and under which
provision. Each step declares the deadlines it sets (``domain.step.Step.deadlines``);
``domain.deadlines`` gathers those of a case."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date

__all__ = ["PERIOD_ENDS", "Deadline", "DeadlineKind", "Role"]


class Role(enum.Enum):
    """Who must act on a deadline."""

    KEEPER = "keeper"
    OFFICER = "officer"
    OWNER = "owner"


class DeadlineKind(enum.Enum):
    """The deadlines the Act sets."""

    REPORT_DUE = "report_due"  # s.13(1)
    NOTICE_DUE = "notice_due"  # s.13(2), "thereupon"
    AUCTION_LAWFUL = "auction_lawful"  # s.13(3)
    AUCTION_DAY = "auction_day"  # s.13(3) / s.15(1), as scheduled
    COMPLAINT_WINDOW_ENDS = "complaint_window_ends"  # s.19
    DEPOSIT_WINDOW_ENDS = "deposit_window_ends"  # s.16(3)
    CREDIT_TO_FUND = "credit_to_fund"  # s.17(1)
    CLAIM_PENDING = "claim_pending"  # s.16(3): a claim preferred, to be decided


#: The deadlines that are the last day of a period the Act gives someone other than the
#: one reminded: the owner's ten days to complain of the seizure (s.19), claimants' three
#: months to claim the deposit (s.16(3)). Once the day has passed, the period has ended:
#: no duty was missed (what is to be done next has a deadline of its own, or a step).
PERIOD_ENDS: frozenset[DeadlineKind] = frozenset(
    {DeadlineKind.COMPLAINT_WINDOW_ENDS, DeadlineKind.DEPOSIT_WINDOW_ENDS}
)


@dataclass(frozen=True, slots=True)
class Deadline:
    """A day by (or from) which someone must act, and the provision behind it.

    ``counts_from`` is the day of the event the period runs from.
    """

    kind: DeadlineKind
    due_on: date
    provision: str
    who: Role
    counts_from: date
