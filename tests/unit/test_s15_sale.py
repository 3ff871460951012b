"""The sale (s.13(3), s.15(1)), its buyers (s.18), and where every paisa goes (s.15(2),
s.16), with the s.15(3) account and the s.15(4) receipt.

Three cows impounded 1 March 2026, the owner refusing to pay on 4 March: on 6 March the
dues are Rs 1500 of fines (3 x 500) and Rs 1140 of feeding (3 x (5 days x 60 + 1 x 80)),
Rs 2640 in all.
"""

from __future__ import annotations

from datetime import date

import pytest

from domain.errors import BackwardsDateError, CorrectionRefusedError
from domain.events import AuctionScheduled, SaleClosed, SaleExpensesStated
from domain.money import Money
from domain.s04_s11_dues import DuesItem
from domain.s15_sale import (
    DEFAULT_DEDUCTION_ORDER,
    Disbursement,
    Payee,
    close_sale,
    sale_progress,
    settle,
)
from domain.stages import Stage
from tests.unit.case_helpers import (
    REFUSED_ON,
    SOLD_ON,
    Allowed,
    Refused,
    _all_sold_after_notice,
    _in,
    _selling_on_s15_route,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    SALE_DAY,
    S,
    case_in,
    closed_sale_event,
    correct_impounding_day,
    dues_of,
    owner_refused,
    rs,
    sale,
    sample_tariff,
    sell,
    step,
    three_cows_owner_refused,
)

DUES_ON_SALE_DAY = rs(2640)


# --- s.15(1): as many as may be necessary -------------------------------------------------


def test_s15_1_before_any_sale_the_whole_dues_are_owed_and_selling_goes_on() -> None:
    progress = sale_progress(three_cows_owner_refused(), sample_tariff(), SALE_DAY)
    assert progress.dues.total == DUES_ON_SALE_DAY
    assert progress.still_owed == DUES_ON_SALE_DAY
    assert (progress.stop, progress.heads_remaining, progress.provision) == (False, 3, "s.15(1)")


def test_s15_1_selling_goes_on_while_the_proceeds_fall_short_of_the_dues() -> None:
    case = sell(three_cows_owner_refused(), rs(2000))
    progress = sale_progress(case, sample_tariff(), SALE_DAY)
    assert progress.proceeds == rs(2000)
    assert progress.still_owed == rs(640)
    assert (progress.stop, progress.heads_remaining) == (False, 2)


def test_s15_1_selling_stops_once_the_proceeds_cover_the_dues() -> None:
    case = sell(sell(three_cows_owner_refused(), rs(2000)), rs(1000))
    progress = sale_progress(case, sample_tariff(), SALE_DAY)
    assert progress.still_owed == Money(0)
    assert (progress.stop, progress.heads_remaining, progress.provision) == (True, 1, "s.15(1)")


@pytest.mark.parametrize(
    ("price", "stop", "still_owed"),
    [(rs("2639.99"), False, Money(1)), (rs(2640), True, Money(0)), (rs("2640.01"), True, Money(0))],
    ids=[
        "s.15(1): a paisa short of the dues, selling goes on",
        "s.15(1): proceeds exactly the dues, selling stops",
        "s.15(1): a paisa over the dues, selling stops",
    ],
)
def test_s15_1_the_stop_boundary_is_the_paisa(price: Money, stop: bool, still_owed: Money) -> None:
    progress = sale_progress(sell(three_cows_owner_refused(), price), sample_tariff(), SALE_DAY)
    assert (progress.stop, progress.still_owed) == (stop, still_owed)


def test_s15_1_the_expected_expenses_of_sale_must_be_covered_too() -> None:
    case = sell(sell(three_cows_owner_refused(), rs(2000)), rs(1000))
    progress = sale_progress(case, sample_tariff(), SALE_DAY, expected_expenses=rs(500))
    assert progress.still_owed == rs(140)
    assert progress.stop is False


def test_s15_1_when_every_head_is_sold_and_still_short_selling_stops() -> None:
    case = sell(three_cows_owner_refused(), rs(1500), count=3)
    progress = sale_progress(case, sample_tariff(), SALE_DAY)
    assert progress.still_owed == rs(1140)
    assert (progress.stop, progress.heads_remaining) == (True, 0)


# --- s.13(3): unclaimed cattle are all sold -------------------------------------------------


def test_s13_3_selling_goes_on_while_heads_remain_even_when_the_dues_are_covered() -> None:
    case = sell(case_in(Stage.NOTICE_POSTED), rs(50000), on=AUCTION_FROM)
    progress = sale_progress(case, sample_tariff(), AUCTION_FROM)
    assert progress.still_owed == Money(0)
    assert (progress.stop, progress.heads_remaining, progress.provision) == (False, 1, "s.13(3)")


def test_s13_3_selling_stops_only_when_no_head_remains() -> None:
    case = sell(
        sell(case_in(Stage.NOTICE_POSTED), rs(50000), on=AUCTION_FROM), rs(10), on=AUCTION_FROM
    )
    progress = sale_progress(case, sample_tariff(), AUCTION_FROM)
    assert (progress.stop, progress.heads_remaining, progress.provision) == (True, 0, "s.13(3)")


# --- s.18: barred buyers ------------------------------------------------------------------


# --- s.13(3) proviso -----------------------------------------------------------------------


# --- settle: s.15(2) deduction, s.16 disposal --------------------------------------------

DUES = dues_of(fines=rs(1000), feeding=rs(1400), expenses=rs(300))  # Rs 2700 in all


def test_the_default_order_meets_the_expenses_then_feeding_then_fines() -> None:
    assert DEFAULT_DEDUCTION_ORDER == (DuesItem.SALE_EXPENSES, DuesItem.FEEDING, DuesItem.FINE)


def test_s15_2_short_proceeds_meet_the_dues_in_the_default_order() -> None:
    settlement = settle(rs(1500), DUES, owner_appeared=True)
    assert settlement.disbursements == (
        Disbursement(Payee.SALE_EXPENSES, rs(300), "s.15(2)"),
        Disbursement(Payee.POUND_KEEPER, rs(1200), "s.16(2)"),
    )
    assert settlement.to(Payee.LOCAL_AUTHORITY) == Money(0)
    assert settlement.unmet == rs(1200)
    assert settlement.balance == Money(0)


def test_s15_2_short_proceeds_meet_the_dues_in_a_configured_order() -> None:
    order = (DuesItem.FINE, DuesItem.FEEDING, DuesItem.SALE_EXPENSES)
    settlement = settle(rs(1500), DUES, owner_appeared=True, order=order)
    assert settlement.disbursements == (
        Disbursement(Payee.LOCAL_AUTHORITY, rs(1000), "s.16(1)"),
        Disbursement(Payee.POUND_KEEPER, rs(500), "s.16(2)"),
    )
    assert settlement.unmet == rs(1200)


def test_s15_2_feeding_first_then_fines_then_expenses() -> None:
    order = (DuesItem.FEEDING, DuesItem.FINE, DuesItem.SALE_EXPENSES)
    settlement = settle(rs(1500), DUES, owner_appeared=False, order=order)
    assert settlement.to(Payee.POUND_KEEPER) == rs(1400)
    assert settlement.to(Payee.LOCAL_AUTHORITY) == rs(100)
    assert settlement.to(Payee.SALE_EXPENSES) == Money(0)
    assert settlement.to(Payee.DEPOSIT) == Money(0)


def test_s15_3_the_balance_goes_to_the_owner_who_appeared() -> None:
    settlement = settle(rs(5000), DUES, owner_appeared=True)
    assert settlement.disbursements == (
        Disbursement(Payee.SALE_EXPENSES, rs(300), "s.15(2)"),
        Disbursement(Payee.POUND_KEEPER, rs(1400), "s.16(2)"),
        Disbursement(Payee.LOCAL_AUTHORITY, rs(1000), "s.16(1)"),
        Disbursement(Payee.OWNER, rs(2300), "s.15(3)"),
    )
    assert settlement.unmet == Money(0)
    assert settlement.balance == rs(2300)


def test_s16_3_the_unclaimed_balance_goes_into_deposit() -> None:
    settlement = settle(rs(5000), DUES, owner_appeared=False)
    assert settlement.disbursements[-1] == Disbursement(Payee.DEPOSIT, rs(2300), "s.16(3)")
    assert settlement.to(Payee.OWNER) == Money(0)
    assert settlement.balance == rs(2300)


def test_proceeds_exactly_the_dues_leave_no_balance_and_nothing_unmet() -> None:
    settlement = settle(rs(2700), DUES, owner_appeared=True)
    assert [d.payee for d in settlement.disbursements] == [
        Payee.SALE_EXPENSES,
        Payee.POUND_KEEPER,
        Payee.LOCAL_AUTHORITY,
    ]
    assert (settlement.balance, settlement.unmet) == (Money(0), Money(0))


def test_no_proceeds_pay_nobody_and_leave_every_due_unmet() -> None:
    settlement = settle(Money(0), DUES, owner_appeared=False)
    assert settlement.disbursements == ()
    assert settlement.unmet == rs(2700)


def test_a_single_paisa_goes_to_the_first_head_in_the_order() -> None:
    settlement = settle(Money(1), DUES, owner_appeared=False)
    assert settlement.disbursements == (Disbursement(Payee.SALE_EXPENSES, Money(1), "s.15(2)"),)


@pytest.mark.parametrize(
    "order",
    [
        (DuesItem.FINE, DuesItem.FEEDING),
        (DuesItem.FINE, DuesItem.FINE, DuesItem.FEEDING),
        (DuesItem.FINE, DuesItem.FEEDING, DuesItem.SALE_EXPENSES, DuesItem.FINE),
    ],
    ids=["an order missing a head", "an order naming a head twice", "an order of four"],
)
def test_an_order_that_does_not_name_each_head_of_dues_once_is_refused(
    order: tuple[DuesItem, ...],
) -> None:
    with pytest.raises(ValueError, match="once"):
        settle(rs(1000), DUES, owner_appeared=True, order=order)


def test_negative_proceeds_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        settle(Money(-1), DUES, owner_appeared=True)


# --- close_sale, the account and the receipt ----------------------------------------------


def test_s15_2_closing_the_owners_sale_deducts_the_dues_and_the_expenses() -> None:
    selling = sell(three_cows_owner_refused(), rs(3000), count=2)
    closed, settlement = close_sale(
        selling, sample_tariff(), on=SALE_DAY, expenses=rs(200), today=SALE_DAY
    )
    assert settlement.dues.total == DUES_ON_SALE_DAY + rs(200)
    assert settlement.disbursements == (
        Disbursement(Payee.SALE_EXPENSES, rs(200), "s.15(2)"),
        Disbursement(Payee.POUND_KEEPER, rs(1140), "s.16(2)"),
        Disbursement(Payee.LOCAL_AUTHORITY, rs(1500), "s.16(1)"),
        Disbursement(Payee.OWNER, rs(160), "s.15(3)"),
    )
    assert closed.stage is Stage.ACCOUNT_DUE
    event = closed_sale_event(closed)
    assert event == SaleClosed(
        on=SALE_DAY, expenses=rs(200), to_owner_or_deposit=rs(160), owner_appeared=True
    )


def test_s15_2_closing_the_sale_in_another_order_records_what_is_left_for_the_owner() -> None:
    selling = sell(three_cows_owner_refused(), rs(2000))
    order = (DuesItem.FINE, DuesItem.FEEDING, DuesItem.SALE_EXPENSES)
    closed, settlement = close_sale(
        selling, sample_tariff(), on=SALE_DAY, expenses=rs(200), today=SALE_DAY, order=order
    )
    assert settlement.to(Payee.LOCAL_AUTHORITY) == rs(1500)
    assert settlement.to(Payee.POUND_KEEPER) == rs(500)
    assert settlement.unmet == rs(840)
    assert closed_sale_event(closed).to_owner_or_deposit == Money(0)
    assert closed.stage is Stage.ACCOUNT_DUE


def test_s16_3_closing_the_unclaimed_sale_puts_the_surplus_in_deposit() -> None:
    selling = step(case_in(Stage.NOTICE_POSTED))
    selling = sell(selling, rs(30000), on=AUCTION_FROM, count=2)
    closed, settlement = close_sale(
        selling, sample_tariff(), on=AUCTION_FROM, expenses=rs(500), today=AUCTION_FROM
    )
    assert settlement.disbursements == (
        Disbursement(Payee.SALE_EXPENSES, rs(500), "s.15(2)"),
        Disbursement(Payee.POUND_KEEPER, rs(2680), "s.16(2)"),  # 2 x (5 x 60 + 13 x 80)
        Disbursement(Payee.LOCAL_AUTHORITY, rs(1000), "s.16(1)"),
        Disbursement(Payee.DEPOSIT, rs(25820), "s.16(3)"),
    )
    assert closed.stage is Stage.IN_DEPOSIT
    assert closed.deposited_on == AUCTION_FROM
    assert closed.events[-1] == case_in(Stage.IN_DEPOSIT).events[-1]


def test_negative_expenses_of_sale_are_refused() -> None:
    selling = sell(three_cows_owner_refused(), rs(3000))
    with pytest.raises(ValueError, match="negative"):
        close_sale(selling, sample_tariff(), on=SALE_DAY, expenses=Money(-1), today=SALE_DAY)


# --- s.15(1) and (2): the owner's route and the sale closed, as steps of the case ---------

#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
ALLOWED = [
    Allowed(
        "s.15(1): the owner appears and refuses to pay while impounded",
        _in(S.IMPOUNDED),
        owner_refused(REFUSED_ON),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): the owner appears and refuses to pay after the report",
        _in(S.REPORTED),
        owner_refused(date(2026, 3, 12)),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): the owner appears and refuses to pay after the notice",
        _in(S.NOTICE_POSTED),
        owner_refused(date(2026, 3, 12)),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): an auction fixed after the owner refused",
        _in(S.OWNER_REFUSED),
        AuctionScheduled(on=REFUSED_ON, auction_on=SOLD_ON, place="market"),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): a lot sold after the owner refused, with no seven-day wait",
        _in(S.OWNER_REFUSED),
        sale(0, 1, rs(20000), REFUSED_ON),
        S.SELLING,
    ),
    Allowed(
        "s.15(2): actual expenses of sale stated during the sale keep it going",
        _in(S.SELLING),
        SaleExpensesStated(on=date(2026, 3, 19), expenses=rs(1500)),
        S.SELLING,
    ),
    Allowed(
        "s.15(2): closing a sale the owner appeared in leaves the account due",
        _selling_on_s15_route,
        SaleClosed(
            on=SOLD_ON, expenses=rs(200), to_owner_or_deposit=rs(18000), owner_appeared=True
        ),
        S.ACCOUNT_DUE,
    ),
    Allowed(
        "s.15(2): closing an unclaimed sale with no surplus closes the case",
        lambda: _all_sold_after_notice(rs(1000)),
        SaleClosed(
            on=AUCTION_FROM, expenses=rs(0), to_owner_or_deposit=rs(0), owner_appeared=False
        ),
        S.CLOSED,
    ),
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.15(1): an impounding day after the owner's recorded refusal is refused",
        _in(S.OWNER_REFUSED),
        correct_impounding_day(date(2026, 3, 5), date(2026, 3, 6)),
        CorrectionRefusedError,
        "s.15(1)",
    ),
    Refused(
        "s.15(1): an auction cannot be fixed for a day before the day it is fixed",
        _in(S.OWNER_REFUSED),
        AuctionScheduled(on=date(2026, 3, 5), auction_on=REFUSED_ON, place="market"),
        BackwardsDateError,
        "s.15(1)",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)


def test_s15_1_the_owners_route_may_close_the_sale_with_heads_left() -> None:
    closed, _ = close_sale(
        _selling_on_s15_route(), sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON
    )
    assert closed.stage is S.ACCOUNT_DUE
    assert closed.heads_remaining == 1


def test_the_owner_appeared_only_on_the_s15_route() -> None:
    assert case_in(S.OWNER_REFUSED).owner_appeared
    assert not case_in(S.NOTICE_POSTED).owner_appeared
