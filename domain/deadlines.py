"""The statutory deadlines of a case in any stage, with their dates and provisions: those
its steps declare, gathered."""

from __future__ import annotations

from domain.case import Case
from domain.deadline import PERIOD_ENDS, Deadline, DeadlineKind, Role
from domain.provisions import cites
from domain.steps import DECLARED

__all__ = ["PERIOD_ENDS", "Deadline", "DeadlineKind", "Role", "deadlines"]


@cites("s.13(1)", "s.13(2)", "s.13(3)", "s.15(1)", "s.15(5)", "s.16(3)", "s.17(1)", "s.19")
def deadlines(case: Case) -> list[Deadline]:
    """The deadlines that apply to ``case`` in its present stage, earliest first: those
    each step declares (``domain.step.Step.deadlines``).

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
    out = [deadline for step, _ in DECLARED for deadline in step.deadlines(case)]
    return sorted(out, key=lambda d: (d.due_on, d.kind.value))
