"""s.12: the owner's claim. Until when an owner may still take the cattle back (pay under
s.12, deposit under s.14, or refuse under s.15(1) and pay after all), by route and round:
the rule the steps of s.12, s.14 and s.15(1) share. The payment, and its step, are in
``domain.s12_release``.

The Act is silent on an owner who refused and then pays: until a head is sold (or
disposed of) the payment is taken and the auction fixed is cancelled (a declared policy,
docs/the-act.md); once one is, the sale goes on. After a refused account (s.15(5)) the
cattle go the s.13 way, and s.13(3) sells only cattle "not claimed": the owner may pay
until a head of that round is sold."""

from __future__ import annotations

from datetime import date

from domain.errors import TransitionRefusedError
from domain.events import (
    AccountRefused,
    ClaimedAndPaid,
    DeliveredOnDeposit,
    Event,
)
from domain.provisions import cites
from domain.s13_unclaimed import head_gone
from domain.stages import Stage
from domain.step import Case

__all__ = ["BEFORE_SETTLEMENT", "check_owner_may_take_back", "may_take_back"]

#: The stages in which the owner may still take the cattle back, on payment (s.12) or on
#: deposit (s.14), also after refusing to pay (s.15(1)): until the sale is settled (the
#: guard looks at the heads sold).
BEFORE_SETTLEMENT = frozenset(
    {Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING}
)


@cites("s.12", "s.14", "s.15(1)", "s.15(5)", "s.19")
def check_owner_may_take_back(case: Case, step: type[Event], day: date) -> None:
    """Whether the owner may still pay (s.12), deposit (s.14) or refuse (s.15(1)) on
    ``day``: after a refused account only pay, until a head of that round is sold
    (s.15(5)); else until a head is sold, and a deposit while the ten days of s.19 run
    (s.14 delivers the cattle to an owner who "is about to make a complaint under
    section 19"), also after a refusal to pay."""
    if case.deemed_unclaimed:
        if step is ClaimedAndPaid:
            _check_payment_after_refused_account(case)
            return
        raise TransitionRefusedError(
            "the owner refused the account: the cattle are deemed unclaimed", "s.15(5)"
        )
    if step is DeliveredOnDeposit and day > case.complaint_by:
        last = case.complaint_by
        raise TransitionRefusedError(
            f"the time to complain ended on {last.isoformat()}",
            "s.19",
            reason="complaint_time_over",
            facts={"date": last},
        )
    _check_payment_before_sale(case)


@cites("s.12", "s.14", "s.15(1)", "s.15(5)", "s.19")
def may_take_back(case: Case, step: type[Event], day: date) -> bool:
    """Whether the owner may still take a step of kind ``step`` on ``day``, as
    ``check_owner_may_take_back`` rules."""
    try:
        check_owner_may_take_back(case, step, day)
    except TransitionRefusedError:
        return False
    return True


@cites("s.15(5)", "s.13(3)", "s.12")
def _check_payment_after_refused_account(case: Case) -> None:
    """s.15(5): the cattle of a refused account are "deemed to be unclaimed and disposed of
    according to the provisions of this Act", the s.13 way; s.13(3) sells cattle "not
    claimed", so until a head of that round is sold (or disposed of) the owner may still
    claim them and pay (s.12). Once one is, the sale goes on."""
    for event in reversed(case.events):
        if isinstance(event, AccountRefused):
            return
        if head_gone(event):
            raise TransitionRefusedError(
                f"a head was sold on {event.on.isoformat()}: the sale goes on and is settled",
                "s.13(3)",
                reason="unclaimed_head_sold",
                facts={"date": event.on},
            )


@cites("s.12", "s.15(1)")
def _check_payment_before_sale(case: Case) -> None:
    """s.12 releases the cattle on payment; s.15(1) sells them when the owner refuses or
    omits to pay: until a head is sold (or disposed of) the payment is taken; once one
    is, the sale goes on."""
    sold = next((e for e in case.events if head_gone(e)), None)
    if sold is not None:
        raise TransitionRefusedError(
            f"a head was sold on {sold.on.isoformat()}: the sale goes on and is settled",
            "s.15(1)" if case.owner_appeared else "s.13(3)",
            reason="head_sold" if case.owner_appeared else "unclaimed_head_sold",
            facts={"date": sold.on},
        )
