"""s.7: the record names "the owner where known"; ss.12, 14 and 15 speak of "the owner"
who claims, pays, deposits or refuses. Cattle brought in together are not always one
owner's: the record then names the owner of each lot (``Lot.owner``), and each owner's
cattle follow the Act on their own. An owner's step of their own (paying for their
cattle, depositing for them, refusing to pay for them) first separates their lots into a
case of their own (``LotsSeparated``): the new case carries the impounding and the steps
so far (the s.13(1) report, the s.13(2) notice that stands, an auction fixed), and takes
the owner's step under the Act as a case of one owner; the first case goes on for the
rest, under the same dates (the s.13 days still run from the impounding and the notice).
A separation is taken before any head is offered for sale and before money moves: once
one is, the cattle were dealt with together."""

from __future__ import annotations

from domain.errors import InvalidCaseError, TransitionRefusedError
from domain.events import (
    Event,
    Impounded,
    LotsSeparated,
    OwnerRefusedToPay,
    ReportedUnclaimed,
)
from domain.provisions import cites
from domain.s12_claim import BEFORE_SETTLEMENT
from domain.stages import Stage
from domain.step import Case, Step

__all__ = ["SEPARATION", "carried_events", "lots_of_owner_step"]

#: The steps a separated case carries from the case it came from, besides the notice
#: and the auction that stand: those taken for all its cattle before the separation.
_CARRIED = (ReportedUnclaimed, OwnerRefusedToPay)


@cites("s.7")
def lots_of_owner_step(case: Case, lot: int) -> tuple[int, ...]:
    """The indexes of the lots an owner's step on lot number ``lot`` (from 1, as the
    keeper writes ``LOT 2``) is for: the lots of that lot's owner; refused, naming the
    lots there are, for a number the case has not."""
    return case.seizure.lots_of_owner(case.seizure.index_of_lot(lot))


@cites("s.7", "s.12", "s.14", "s.15(1)")
def _guard_separation(case: Case, event: LotsSeparated) -> None:
    """Lots of the case, not all of them, while no money has moved for them together (a
    head sold in an earlier round, s.15(5)). The stages it follows are before any head is
    offered."""
    count = len(case.seizure.lots)
    if not event.lots or any(not 0 <= i < count for i in event.lots):
        raise InvalidCaseError(
            "no such lot", "s.7", reason="no_lot", facts={"lot": 0, "lots": count}
        )
    if len(set(event.lots)) >= count:
        raise InvalidCaseError(
            "the lots are all the case's: the step is the whole case's",
            "s.7",
            reason="all_lots",
        )
    moved = case.money_step
    if moved is not None:
        raise TransitionRefusedError(
            f"the cattle were dealt with together on {moved.on.isoformat()}",
            "s.7",
            reason="head_sold",
            facts={"date": moved.on},
        )


def _same_stage(case: Case, event: LotsSeparated) -> Stage:
    """The case goes on for the rest of its cattle, where it was."""
    return case.stage


SEPARATION: Step[LotsSeparated] = Step(
    event=LotsSeparated,
    provision="s.7",
    # Before a head is offered: the sale offers the cattle together.
    follows=BEFORE_SETTLEMENT - {Stage.SELLING},
    guard=_guard_separation,
    leads_to=_same_stage,
)


@cites("s.7", "s.13(1)", "s.13(2)", "s.15(1)")
def carried_events(case: Case, lots: tuple[int, ...]) -> tuple[Event, ...]:
    """The events that open the case of the lots at ``lots`` separated from ``case``:
    the impounding of those cattle alone (their owner the case's), and the steps taken
    for all the cattle so far: the report, the notice that stands, an owner's refusal,
    an auction fixed."""
    standing = (case.notice, case.scheduled_auction)
    first = Impounded(
        on=case.seizure.impounded_on,
        seizure=case.seizure.part(lots),
        separated_from=case.number,
    )
    carried = tuple(
        e
        for e in case.events[1:]
        if isinstance(e, _CARRIED) or any(e is kept for kept in standing if kept is not None)
    )
    return (first, *carried)
