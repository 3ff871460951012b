"""The figures of a case (``domain.figures``): read from its statement, the one set every
view of the case is built from."""

from __future__ import annotations

from datetime import date

from domain.figures import figures_of, lots_remaining
from domain.statement import statement
from tests.unit.domain_fixtures import (
    IMPOUNDED_ON,
    SALE_DAY,
    open_case,
    rs,
    sample_tariff,
    sell,
    three_cows_owner_refused,
)


def test_cattle_in_the_pound_may_be_paid_for_and_deposited_for_within_the_ten_days() -> None:
    case = open_case(lots=(("cow", 2), ("goat", 1)))
    on = date(2026, 3, 5)
    stated = statement(case, sample_tariff(), on)
    figures = figures_of(stated)
    assert (figures.seized, figures.remaining, figures.remaining_by_lot) == (3, 3, (2, 1))
    assert figures.owed == stated.owed == stated.dues.total
    assert figures.unmet == figures.owed
    assert figures.days_impounded == 5  # 1 to 5 March, both counted (s.15(3)(b))
    assert (figures.sold, figures.disposed) == (0, 0)
    assert figures.may_pay
    assert figures.may_deposit  # s.19: to 11 March
    late = figures_of(statement(case, sample_tariff(), date(2026, 3, 12)))
    assert late.may_pay
    assert not late.may_deposit
    assert case.seizure.impounded_on == IMPOUNDED_ON


def test_a_head_sold_leaves_the_others_in_the_pound_and_no_deposit() -> None:
    case = sell(three_cows_owner_refused(), rs(3000))
    stated = statement(case, sample_tariff(), SALE_DAY)
    figures = figures_of(stated)
    assert (figures.remaining, figures.remaining_by_lot, figures.sold) == (2, (2,), 1)
    assert figures.days_impounded == 6  # the head sold on 6 March; the rest to that day
    assert not figures.may_deposit  # s.14: a head has been sold
    assert (figures.may_pay, figures.owed) == (stated.payable, stated.owed)
    (lot,) = lots_remaining(case.seizure.lots, figures)
    assert (lot.kind, lot.count) == ("cow", 2)
