"""The sale (s.13(3), s.15(1)), its buyers (s.18), and where every paisa goes (s.15(2),
s.16), with the s.15(3) account and the s.15(4) receipt.

Three cows impounded 1 March 2026, the owner refusing to pay on 4 March: on 6 March the
dues are Rs 1500 of fines (3 x 500) and Rs 1140 of feeding (3 x (5 days x 60 + 1 x 80)),
Rs 2640 in all.
"""

from __future__ import annotations

from datetime import date

import pytest

from domain.case import Case
from domain.errors import BarredBuyerError, InvalidCaseError, TransitionRefusedError
from domain.events import AuctionScheduled, DisposedOtherwise, SaleClosed
from domain.money import Money
from domain.s04_s11_dues import DuesItem, dues_on
from domain.s13_3_proviso import dispose_otherwise
from domain.s15_3_account import Receipt, account_for, deliver_account, receipt_for, refuse_account
from domain.s15_sale import (
    DEFAULT_DEDUCTION_ORDER,
    Disbursement,
    Payee,
    close_sale,
    offer_lot,
    sale_progress,
    settle,
)
from domain.s16_s17_proceeds import credit_to_fund
from domain.s18_buyers import BARRED_ROLES, check_buyer
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    CASE_NUMBER,
    IMPOUNDED_ON,
    buyer,
    case_in,
    closed_sale_event,
    dues_of,
    open_case,
    owner_refused,
    rs,
    sample_tariff,
    step,
)

REFUSED_ON = date(2026, 3, 4)
SALE_DAY = date(2026, 3, 6)
DUES_ON_SALE_DAY = rs(2640)


def three_cows_owner_refused() -> Case:
    """The owner refused on 4 March; the auction is fixed that day for 6 March."""
    fixed = AuctionScheduled(on=REFUSED_ON, auction_on=SALE_DAY, place="Attingal market")
    return step(open_case(lots=(("cow", 3),)), owner_refused(REFUSED_ON), fixed)


def sell(case: Case, price: Money, on: date = SALE_DAY, count: int = 1, lot: int = 0) -> Case:
    """Heads sold at the auction on ``on`` (fixed for that day first, if it was not)."""
    fixed = case.scheduled_auction
    if fixed is None or fixed.auction_on != on:
        case = step(case, AuctionScheduled(on=on, auction_on=on, place="Attingal market"))
    return offer_lot(
        case,
        lot=lot,
        count=count,
        price=price,
        buyer=buyer(),
        buyer_role=None,
        declared_not_barred=True,
        on=on,
        today=on,
    )


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


def test_s18_the_barred_roles_are_officers_pound_keepers_and_members() -> None:
    assert {"officer", "pound_keeper", "member"} <= BARRED_ROLES


@pytest.mark.parametrize(
    "role",
    sorted(BARRED_ROLES),
    ids=[f"s.18: a {r.replace('_', ' ')} may not buy" for r in sorted(BARRED_ROLES)],
)
def test_s18_a_barred_buyer_is_refused_even_with_a_declaration(role: str) -> None:
    case = three_cows_owner_refused()
    with pytest.raises(BarredBuyerError) as caught:
        offer_lot(
            case,
            lot=0,
            count=1,
            price=rs(2000),
            buyer=buyer(),
            buyer_role=role,
            declared_not_barred=True,
            on=SALE_DAY,
            today=SALE_DAY,
        )
    assert caught.value.provision == "s.18"
    assert caught.value.code == "barred_buyer"


def test_s18_a_buyer_who_has_not_declared_they_are_not_barred_is_refused() -> None:
    with pytest.raises(BarredBuyerError) as caught:
        offer_lot(
            three_cows_owner_refused(),
            lot=0,
            count=1,
            price=rs(2000),
            buyer=buyer(),
            buyer_role=None,
            declared_not_barred=False,
            on=SALE_DAY,
            today=SALE_DAY,
        )
    assert caught.value.provision == "s.18"


def test_s18_check_buyer_itself_requires_the_declaration() -> None:
    with pytest.raises(BarredBuyerError) as caught:
        check_buyer(None, declared_not_barred=False)
    assert caught.value.provision == "s.18"


def test_s18_a_buyer_of_no_barred_role_who_declared_may_buy() -> None:
    check_buyer(None, declared_not_barred=True)
    check_buyer("farmer", declared_not_barred=True)
    case = offer_lot(
        three_cows_owner_refused(),
        lot=0,
        count=1,
        price=rs(2000),
        buyer=buyer(),
        buyer_role="farmer",
        declared_not_barred=True,
        on=SALE_DAY,
        today=SALE_DAY,
    )
    assert case.proceeds == rs(2000)


def test_s18_an_unsold_lot_needs_no_buyer() -> None:
    case = offer_lot(
        three_cows_owner_refused(),
        lot=0,
        count=3,
        price=None,
        buyer=None,
        buyer_role=None,
        declared_not_barred=False,
        on=SALE_DAY,
        today=SALE_DAY,
    )
    assert case.stage is Stage.SELLING
    assert case.heads_remaining == 3


# --- s.13(3) proviso -----------------------------------------------------------------------


def test_s13_3_proviso_other_disposal_records_the_directors_order() -> None:
    case = dispose_otherwise(
        case_in(Stage.NOTICE_POSTED),
        lot=0,
        count=2,
        manner="to a goshala",
        ordered_by="Director of Animal Husbandry",
        order_reference="DAH/1",
        proceeds=rs(100),
        on=AUCTION_FROM,
        today=AUCTION_FROM,
    )
    event = case.last(DisposedOtherwise)
    assert isinstance(event, DisposedOtherwise)
    assert (event.ordered_by, event.order_reference) == ("Director of Animal Husbandry", "DAH/1")
    assert case.sale_outcome == "disposed_otherwise"


def test_s13_3_proviso_other_disposal_without_the_order_is_refused() -> None:
    with pytest.raises(InvalidCaseError) as caught:
        dispose_otherwise(
            case_in(Stage.NOTICE_POSTED),
            lot=0,
            count=2,
            manner="to a goshala",
            ordered_by="",
            order_reference="",
            proceeds=rs(0),
            on=AUCTION_FROM,
            today=AUCTION_FROM,
        )
    assert caught.value.provision == "s.13(3) proviso"


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


def test_s15_3_the_account_gives_items_a_to_f() -> None:
    selling = sell(three_cows_owner_refused(), rs(3000), count=2)
    closed, settlement = close_sale(
        selling, sample_tariff(), on=SALE_DAY, expenses=rs(200), today=SALE_DAY
    )
    account = account_for(closed, settlement, SALE_DAY)
    assert account.case_number == CASE_NUMBER
    assert account.cattle_seized == 3  # (a)
    assert (account.impounded_from, account.impounded_until) == (IMPOUNDED_ON, SALE_DAY)  # (b)
    assert account.days_impounded == 6  # (b): 1 to 6 March, both days counted
    assert account.fines_and_charges == rs(2840)  # (c)
    assert account.dues == dues_on(closed, sample_tariff(), SALE_DAY)  # (c), line by line
    assert account.cattle_sold == 2  # (d)
    assert account.proceeds == rs(3000)  # (e)
    assert account.disposal == settlement.disbursements  # (f)
    assert sum(d.amount.paise for d in account.disposal) == account.proceeds.paise  # (f)
    assert account.cattle_remaining == 1
    assert account.balance == rs(160)


def test_s15_4_the_receipt_is_for_the_remaining_cattle_and_the_balance() -> None:
    selling = sell(three_cows_owner_refused(), rs(3000), count=2)
    closed, settlement = close_sale(
        selling, sample_tariff(), on=SALE_DAY, expenses=rs(200), today=SALE_DAY
    )
    receipt = receipt_for(account_for(closed, settlement, SALE_DAY), "Ramesh", date(2026, 3, 7))
    assert receipt == Receipt(CASE_NUMBER, "Ramesh", date(2026, 3, 7), 1, rs(160))


def test_s15_4_delivering_the_account_closes_the_case() -> None:
    delivered = deliver_account(
        case_in(Stage.ACCOUNT_DUE),
        received_by="Ramesh (owner)",
        on=date(2026, 3, 7),
        today=date(2026, 3, 7),
    )
    assert delivered.stage is Stage.CLOSED


def test_s15_4_a_receipt_needs_the_name_of_who_received() -> None:
    with pytest.raises(TransitionRefusedError) as caught:
        deliver_account(
            case_in(Stage.ACCOUNT_DUE),
            received_by="  ",
            on=date(2026, 3, 7),
            today=date(2026, 3, 7),
        )
    assert caught.value.provision == "s.15(4)"


def test_s15_5_refusing_the_account_leaves_the_rest_unclaimed_and_the_balance_held() -> None:
    account_due = case_in(Stage.ACCOUNT_DUE)
    refused = refuse_account(account_due, on=date(2026, 3, 7), today=date(2026, 3, 7))
    assert refused.stage is Stage.DEEMED_UNCLAIMED
    assert refused.heads_remaining == 1
    assert refused.deposit_total.paise > 0
    assert refused.deposited_on is None  # runs from the settlement of the rest


def test_s16_3_nothing_is_credited_to_the_fund_from_a_case_not_in_deposit() -> None:
    with pytest.raises(TransitionRefusedError) as caught:
        credit_to_fund(case_in(Stage.ACCOUNT_DUE), on=date(2026, 12, 1), today=date(2026, 12, 1))
    assert caught.value.provision == "s.16(3)"
