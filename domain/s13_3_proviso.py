"""The proviso to s.13(3): cattle that in the opinion of the Director are not likely to
fetch a fair price may be disposed of in such other manner as he thinks fit. The order
is the Director's: the office that holds the power is configured (its name in each
language and a code an officer types), and a BY that names it exactly is the office's
order; anything else ("Deputy Director of Panchayats", "Secretary for the Director") is
refused. It is recorded with its reference, the manner and any proceeds, instead of a
sale."""

from __future__ import annotations

from datetime import date

from domain.events import DisposedOtherwise
from domain.money import Money
from domain.offices import Offices, office_named, require_director
from domain.provisions import cites
from domain.s13_unclaimed import auction_allowed_from, check_sale, on_unclaimed_route
from domain.stages import Stage
from domain.step import AnyCase, Case, Step

__all__ = [
    "DISPOSAL",
    "dispose_otherwise",
]


@cites("s.13(3) proviso")
def dispose_otherwise(
    case: AnyCase,
    *,
    lot: int,
    count: int,
    manner: str,
    ordered_by: str,
    order_reference: str,
    proceeds: Money,
    on: date,
    today: date,
    offices: Offices,
) -> AnyCase:
    """The Director, of the opinion that the cattle will not fetch a fair price, ordered
    another disposal. The opinion is the Director's, recorded with the order and the
    office as it is named (``offices``); poundbot never judges a fair price itself. An
    order said to be anyone else's is refused."""
    office = office_named(ordered_by, offices)
    event = DisposedOtherwise(
        on=on,
        lot=lot,
        count=count,
        manner=manner,
        ordered_by=office or ordered_by,
        order_reference=order_reference,
        proceeds=proceeds,
    )
    after = case.apply(event, today)  # the stage and the lot first
    require_director(ordered_by, offices)
    return after


@cites("s.13(3) proviso", "s.13(3)")
def _disposal_lawful(case: Case, today: date) -> bool:
    """Other disposal by order after the seven days from the notice, of unclaimed
    cattle only, while a head is left to dispose of (s.13(3) proviso)."""
    notice = case.notice
    return (
        on_unclaimed_route(case)
        and notice is not None
        and today >= auction_allowed_from(notice.on)
        and case.heads_remaining > 0
    )


DISPOSAL: Step[DisposedOtherwise] = Step(
    event=DisposedOtherwise,
    provision="s.13(3) proviso",
    follows=frozenset({Stage.NOTICE_POSTED, Stage.SELLING}),
    guard=check_sale,
    lawful=_disposal_lawful,
    leads_to=Stage.SELLING,
    after_report=True,
    after_notice=True,
    moves_money=lambda event: True,
)
