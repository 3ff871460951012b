"""The figures of a case on a day, typed: what every view of a case (DUES, STATUS, the
keeper's CASES, FIND, the s.13(2) notice, the public board, the s.15(3) account, the
register and the charts) says of its cattle and its money, read once from the case's
statement (``domain.statement``).

A view takes these figures and renders them; none counts heads, days or money of its
own. Two views of the same case on the same day carry equal figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from domain.events import DeliveredOnDeposit
from domain.money import Money
from domain.provisions import cites
from domain.record import days_in_pound
from domain.s07_seizure import Lot
from domain.stages import IN_POUND_STAGES
from domain.statement import Statement

__all__ = ["Figures", "figures_of", "lots_remaining"]


@dataclass(frozen=True, slots=True)
class Figures:
    """What a case comes to on a day: its cattle, its money, and what the owner may do."""

    number: str
    on: date
    #: The heads seized (s.15(3)(a)).
    seized: int
    #: The heads still in the pound on the day (none once the case has left it).
    remaining: int
    #: The same, lot by lot, in the order of the seizure's lots.
    remaining_by_lot: tuple[int, ...]
    #: What the owner pays on the day to take the cattle (s.12); zero when no payment
    #: is possible.
    owed: Money
    #: What the proceeds of the settled sales met of the dues (s.15(2)).
    met_from_proceeds: Money
    #: The dues to the day less what the proceeds met (s.15(2)): what is still to be
    #: paid or met from a sale; the same as ``owed`` whenever the owner may pay.
    unmet: Money
    #: Calendar days in the pound, both ends counted (s.15(3)(b)): to the day the last
    #: head left, or to the day for cattle still there; None for a voided case.
    days_impounded: int | None
    #: Heads sold at the public auction, every round (s.15(3)(d)).
    sold: int
    #: Heads disposed of otherwise by the Director's order (s.13(3) proviso): not sold.
    disposed: int
    #: Whether the owner may pay and take the cattle on the day (s.12).
    may_pay: bool
    #: Whether the owner may deposit under protest and take the cattle on the day (s.14):
    #: within the ten days of s.19 and while the case allows it.
    may_deposit: bool


@cites("s.12", "s.14", "s.15(2)", "s.15(3)(b)", "s.15(3)(d)", "s.19")
def figures_of(stated: Statement) -> Figures:
    """The figures of ``stated``: the heads in the pound, sold and disposed of otherwise;
    what is owed and what the proceeds met; the days impounded (``days_in_pound``, the
    count of the s.15(3)(b) account); whether the owner may pay (s.12) or deposit (s.14),
    as the case itself answers."""
    case = stated.case
    in_pound = case.stage in IN_POUND_STAGES
    return Figures(
        number=case.number,
        on=stated.on,
        seized=stated.heads_seized,
        remaining=stated.heads_in_pound,
        remaining_by_lot=tuple(
            case.remaining_heads(i) if in_pound else 0 for i in range(len(case.seizure.lots))
        ),
        owed=stated.owed,
        met_from_proceeds=stated.met_by_sale,
        unmet=_unmet(stated) if in_pound else Money.zero(),
        days_impounded=days_in_pound(case, stated.on),
        sold=stated.heads_sold,
        disposed=stated.heads_disposed,
        may_pay=stated.payable,
        may_deposit=in_pound
        and stated.on <= stated.complaint_by
        and case.lawful_today(DeliveredOnDeposit, max(stated.on, case.last_event_on)),
    )


def _unmet(stated: Statement) -> Money:
    """What of the dues nothing has met yet: during a part sale on the owner's route,
    what its proceeds leave of the dues and the expenses of sale (s.15(1), s.15(2)); else
    the dues less what the settled sales met."""
    sale = stated.sale
    if sale is not None and sale.provision == "s.15(1)" and sale.proceeds:
        return sale.still_owed if sale.still_owed.paise > 0 else Money.zero()
    return stated.unmet


@cites("s.15(3)(d)", "s.13(3) proviso")
def lots_remaining(lots: Sequence[Lot], figures: Figures) -> tuple[Lot, ...]:
    """``lots`` (the seizure's, or their public form) cut to the heads still in the pound
    by ``figures``; lots with none left are left out."""
    return tuple(
        replace(lot, count=left)
        for lot, left in zip(lots, figures.remaining_by_lot, strict=True)
        if left
    )
