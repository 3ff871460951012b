"""The statutory deadlines of a case in any stage, with their dates and provisions."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date

from domain.case import Case
from domain.events import AccountRefused
from domain.provisions import cites
from domain.s13_unclaimed import auction_allowed_from, report_due
from domain.s14_deposit import complaint_last_day
from domain.s16_s17_proceeds import deposit_window_end, fund_credit_from
from domain.stages import Stage

__all__ = ["PERIOD_ENDS", "Deadline", "DeadlineKind", "Role", "deadlines"]


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


@cites("s.13(1)", "s.13(2)", "s.13(3)", "s.15(1)", "s.15(5)", "s.16(3)", "s.17(1)", "s.19")
def deadlines(case: Case) -> list[Deadline]:
    """The deadlines that apply to ``case`` in its present stage, earliest first.

    - s.13(1): while impounded and unclaimed, the report is due on the 8th day.
    - s.13(2): once reported, the notice is due "thereupon", the same day; after a
      correction superseded the notice (what it stated was corrected before any head
      was offered on it), the new notice is due the day of the correction, and the
      s.13(3) deadlines of the old one are gone with it.
    - s.13(3): once the notice is posted, the auction is lawful from the 8th day after
      it; once an auction is fixed, its day replaces that (also under s.15(1)).
    - s.19: ten days from the seizure to complain; shown while impounded or on deposit.
    - s.15(5): cattle of a refused account are unclaimed: the s.13(1) report is due
      at once (and never before the eighth day after impounding); then as above.
    - s.16(3) / s.17(1): three months in deposit, then the credit to the fund; while a
      claim preferred in time is pending, the claim is to be decided instead.
    """
    seizure = case.seizure
    out: list[Deadline] = []
    stage = case.stage
    if stage is Stage.IMPOUNDED:
        out.append(
            Deadline(
                DeadlineKind.REPORT_DUE,
                report_due(case),
                "s.13(1)",
                Role.KEEPER,
                seizure.impounded_on,
            )
        )
    refused = case.last(AccountRefused)
    if stage is Stage.DEEMED_UNCLAIMED and refused is not None:
        out.append(
            Deadline(
                DeadlineKind.REPORT_DUE,
                report_due(case),
                "s.15(5)",
                Role.KEEPER,
                refused.on,
            )
        )
    if stage in (Stage.IMPOUNDED, Stage.ON_DEPOSIT):
        out.append(
            Deadline(
                DeadlineKind.COMPLAINT_WINDOW_ENDS,
                complaint_last_day(seizure.seizure_day),
                "s.19",
                Role.OFFICER if stage is Stage.ON_DEPOSIT else Role.OWNER,
                seizure.seizure_day,
            )
        )
    reported = case.reported_on
    if stage is Stage.REPORTED and reported is not None:
        # A correction of what the notice stated superseded it: the new one is due
        # "thereupon", from the day of the correction.
        superseding = case.superseding
        since = superseding.on if superseding is not None else reported
        out.append(Deadline(DeadlineKind.NOTICE_DUE, since, "s.13(2)", Role.OFFICER, since))
    notice = case.notice
    # Once the auction is fixed, its day is the deadline; "lawful from" has done its work.
    if stage is Stage.NOTICE_POSTED and notice is not None and case.scheduled_auction is None:
        out.append(
            Deadline(
                DeadlineKind.AUCTION_LAWFUL,
                auction_allowed_from(notice.on),
                "s.13(3)",
                Role.OFFICER,
                notice.on,
            )
        )
    scheduled = case.scheduled_auction
    if stage in (Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING) and scheduled:
        provision = "s.15(1)" if case.owner_appeared else "s.13(3)"
        out.append(
            Deadline(
                DeadlineKind.AUCTION_DAY,
                scheduled.auction_on,
                provision,
                Role.OFFICER,
                scheduled.on,
            )
        )
    deposited = case.deposited_on
    if stage is Stage.IN_DEPOSIT and deposited is not None:
        window_end = deposit_window_end(deposited)
        out.append(
            Deadline(
                DeadlineKind.DEPOSIT_WINDOW_ENDS, window_end, "s.16(3)", Role.OFFICER, deposited
            )
        )
        pending = case.pending_claim
        out.append(
            Deadline(
                DeadlineKind.CREDIT_TO_FUND,
                fund_credit_from(deposited),
                "s.17(1)",
                Role.OFFICER,
                deposited,
            )
            if pending is None
            else Deadline(
                DeadlineKind.CLAIM_PENDING,
                fund_credit_from(deposited),
                "s.16(3)",
                Role.OFFICER,
                pending.preferred,
            )
        )
    return sorted(out, key=lambda d: (d.due_on, d.kind.value))
