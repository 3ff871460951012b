"""When the s.13(2) notice may be drawn up and printed.

s.13(1): cattle "not claimed within seven days from the date of their being impounded"
are reported to the local authority; s.13(2): the local authority then affixes the
notice and has it proclaimed. A notice says the cattle "have not been claimed within
seven days": before the eighth day that is false, and once the cattle have left the
pound (released, delivered on deposit, sold, settled) there is nothing to give notice
of. A notice already posted may be printed again while its sale is under way.
"""

from __future__ import annotations

from datetime import date

from domain.case import Case, Stage, report_due_on
from domain.errors import TooEarlyError, TransitionRefusedError
from domain.provisions import cites

__all__ = ["check_notice_printable"]

#: Unclaimed cattle in the pound, before or after the report and the notice.
_NOTICE_STAGES = frozenset({Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED})


@cites("s.13(1)", "s.13(2)")
def check_notice_printable(case: Case, today: date) -> None:
    """Refuse the s.13(2) notice of cattle not yet unclaimed seven days (giving the
    first day it may be given), or of a case whose cattle left the pound or are
    being sold on the owner's refusal (giving where the case stands, since when)."""
    notice_reprint = case.stage is Stage.SELLING and case.notice is not None
    if case.stage not in _NOTICE_STAGES and not notice_reprint:
        raise TransitionRefusedError(
            f"no notice for a case that is {case.stage.value}",
            "s.13(2)",
            reason="stage",
            facts={"stage": case.stage.value, "date": case.stage_since},
        )
    due = report_due_on(case.seizure.impounded_on)
    if today < due:
        raise TooEarlyError(
            f"cattle are unclaimed only after seven days; notice from {due.isoformat()}",
            "s.13(1)",
            lawful_from=due,
        )
