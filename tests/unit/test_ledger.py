"""The ledger rules (domain.ledger): each event's postings, summing to what it moved."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.accounts import NO_POSTINGS, Posting, Postings
from domain.events import (
    AccountRefused,
    ClaimedAndPaid,
    CreditedToFund,
    DepositOutcome,
    ReportedUnclaimed,
)
from domain.ledger import postings_for
from domain.money import Money, total
from domain.s04_s11_dues import dues_on
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    case_in,
    notice,
    open_case,
    owner_refused,
    report,
    rs,
    sale,
    sample_tariff,
    step,
)

TARIFF = sample_tariff()


def _legs(postings: Postings) -> list[tuple[str, int, str]]:
    return [(leg.account, leg.amount.paise, leg.provision) for leg in postings.legs]


def test_postings_that_do_not_add_up_to_the_whole_are_refused() -> None:
    with pytest.raises(ValueError, match="add up"):
        Postings(rs(100), (Posting("fines", rs(99), "s.12"),))


def test_s12_a_payment_posts_the_fines_the_feeding_and_the_fines_to_the_fund_s17_1() -> None:
    case = open_case()
    day = date(2026, 3, 3)
    paid = dues_on(case, TARIFF, day).total
    after = step(case, ClaimedAndPaid(on=day, paid=paid))
    postings = postings_for(case, after, TARIFF)
    assert postings.whole == paid
    assert _legs(postings) == [
        ("fines", 100000, "s.12"),
        ("keeper_feeding", 36000, "s.16(2)"),
        ("fines", -100000, "s.17(1)"),
        ("fund", 100000, "s.17(1)"),
    ]


def test_s15_2_s16_a_settlement_posts_every_paisa_of_the_proceeds() -> None:
    selling = step(open_case(), report(), notice(), sale(0, 2, rs(30000), AUCTION_FROM))
    after, settlement = close_sale(
        selling, TARIFF, on=AUCTION_FROM, expenses=rs(500), today=AUCTION_FROM
    )
    postings = postings_for(selling, after, TARIFF)
    assert postings.whole == settlement.proceeds == rs(30000)
    accounts = [leg.account for leg in postings.legs]
    assert accounts == [
        "sale_expenses",
        "keeper_feeding",
        "fines",
        "surplus_deposit",
        "fines",
        "fund",
    ]


def test_s15_5_a_refused_balance_moves_from_the_owner_into_deposit() -> None:
    due = case_in(Stage.ACCOUNT_DUE)
    after = step(due, AccountRefused(on=date(2026, 3, 9)))
    postings = postings_for(due, after, TARIFF)
    assert postings.whole == Money.zero()
    assert [(a, p) for a, _, p in _legs(postings)] == [
        ("owner_balance", "s.15(5)"),
        ("surplus_deposit", "s.15(5)"),
    ]
    assert postings.legs[1].amount == after.deposit_total


def test_s17_1_the_deposit_goes_to_the_fund_whole() -> None:
    held = case_in(Stage.IN_DEPOSIT)
    after = step(held, CreditedToFund(on=date(2026, 6, 19)))
    postings = postings_for(held, after, TARIFF)
    assert _legs(postings)[-1] == ("fund", held.deposit_total.paise, "s.17(1)")
    assert postings.whole == Money.zero()


@pytest.mark.parametrize("returned", [True, False], ids=["s.19 refunded", "s.14 applied"])
def test_s14_s19_the_outcome_of_a_deposit_empties_the_protest_deposit(returned: bool) -> None:
    on_deposit = case_in(Stage.ON_DEPOSIT)
    after = step(on_deposit, DepositOutcome(on=date(2026, 3, 20), returned=returned, reference="C"))
    postings = postings_for(on_deposit, after, TARIFF)
    assert postings.legs[0] == Posting("protest_deposit", rs(-1180), "s.14")
    assert postings.whole == Money.zero()
    assert ("owner_refund" in [leg.account for leg in postings.legs]) is returned


def test_a_step_that_moves_no_money_posts_nothing() -> None:
    case = open_case()
    after = step(case, ReportedUnclaimed(on=date(2026, 3, 9)))
    assert postings_for(case, after, TARIFF) == NO_POSTINGS


@settings(max_examples=150, deadline=None)
@given(
    price=st.integers(min_value=1, max_value=10**8),
    expenses=st.integers(min_value=0, max_value=10**6),
    owner=st.booleans(),
)
def test_a_settlement_posts_exactly_its_proceeds_whatever_the_figures(
    price: int, expenses: int, owner: bool
) -> None:
    start = open_case()
    if owner:
        selling = step(
            start, owner_refused(date(2026, 3, 4)), sale(0, 1, Money(price), date(2026, 3, 6))
        )
        day = date(2026, 3, 6)
    else:
        selling = step(start, report(), notice(), sale(0, 2, Money(price), AUCTION_FROM))
        day = AUCTION_FROM
    after, settlement = close_sale(selling, TARIFF, on=day, expenses=Money(expenses), today=day)
    postings = postings_for(selling, after, TARIFF)
    assert total([leg.amount for leg in postings.legs]) == Money(price) == settlement.proceeds
