"""The ledger: for each event of a case, the postings it makes.

A posting is an amount of integer paise to an account, under a provision
(``domain.accounts``). The postings of one event add up to the money it brought in (a
payment, a deposit, the proceeds of a sale) or to nothing (a transfer between accounts:
fines credited to the fund, a balance moved into deposit); ``Postings`` refuses any
other set. Each step that moves money declares its postings in its section's module
(``domain.step.Step.postings``): the s.12 payment in ``s12_release``, the s.14 deposit
and its s.19 outcome in ``s14_deposit``, the s.15(2) settlement in ``s15_sale``, the
s.15(5) refused balance in ``s15_3_account``, the s.16(3) claim and the s.17(1) credit to
the fund in ``s16_s17_proceeds``. The store writes what these return; no use case writes
a leg by hand.
"""

from __future__ import annotations

from domain.accounts import NO_POSTINGS, Postings
from domain.case import Case
from domain.dues_items import DuesItem
from domain.provisions import cites
from domain.s15_sale import DEFAULT_DEDUCTION_ORDER
from domain.steps import STEPS
from domain.tariff import Tariff

__all__ = ["postings_for"]


@cites("s.12", "s.14", "s.15(2)", "s.15(5)", "s.16(3)", "s.17(1)", "s.19")
def postings_for(
    before: Case,
    after: Case,
    tariff: Tariff,
    order: tuple[DuesItem, ...] = DEFAULT_DEDUCTION_ORDER,
) -> Postings:
    """The postings of the newest event of ``after`` (``before`` is the case without it),
    as its step declares them; a step that moves no money posts nothing."""
    rule = STEPS[type(after.events[-1])].postings
    return NO_POSTINGS if rule is None else rule(before, after, tariff, order)
