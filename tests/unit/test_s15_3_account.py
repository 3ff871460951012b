"""s.15(3) to (5): the account, the receipt, and an account refused."""

from __future__ import annotations

from datetime import date

import pytest

from domain.case import Case
from domain.errors import TooEarlyError, TransitionRefusedError
from domain.events import (
    AccountDelivered,
    AccountRefused,
    ClaimedAndPaid,
    DeliveredOnDeposit,
    ReportedUnclaimed,
)
from domain.s04_s11_dues import dues_on
from domain.s15_3_account import (
    Left,
    Receipt,
    account_for,
    deliver_account,
    receipt_for,
    refuse_account,
    time_impounded,
)
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit.case_helpers import (
    REFUSED_ON,
    SOLD_ON,
    Allowed,
    Refused,
    _in,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    CASE_NUMBER,
    IMPOUNDED_ON,
    SALE_DAY,
    S,
    case_in,
    closed_sale_event,
    disposal,
    notice,
    open_case,
    owner_refused,
    report,
    rs,
    sale,
    sample_tariff,
    sell,
    step,
    three_cows_owner_refused,
    unsold,
)


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


# --- s.15(3)(b): the time impounded, to the day each head left the pound ----------------


def test_s15_3_b_each_lot_is_impounded_to_the_day_it_left_the_pound() -> None:
    """One cow sold on 6 March, one at an auction fixed again for 9 March, the third
    handed back with the account on 11 March: 6, 9 and 11 days (1 March counted)."""
    twice = sell(sell(three_cows_owner_refused(), rs(300)), rs(3000), on=date(2026, 3, 9))
    on = date(2026, 3, 11)
    closed, settlement = close_sale(twice, sample_tariff(), on=on, expenses=rs(0), today=on)
    stays = time_impounded(closed, on)
    assert [(s.heads, s.left, s.until, s.days) for s in stays] == [
        (1, Left.SOLD, SALE_DAY, 6),
        (1, Left.SOLD, date(2026, 3, 9), 9),
        (1, Left.DELIVERED, on, 11),
    ]
    account = account_for(closed, settlement, on)
    assert account.stays == stays  # (b) each lot's
    assert (account.impounded_until, account.days_impounded) == (on, 11)
    assert not account.left_together
    assert (account.cattle_sold, account.cattle_remaining) == (2, 1)


def test_s15_3_b_cattle_all_sold_leave_on_the_day_sold_not_the_settlement() -> None:
    """Sold on 6 March, the sale settled on 10 March: the account counts 6 days."""
    selling = sell(three_cows_owner_refused(), rs(30000), count=3)
    on = date(2026, 3, 10)
    closed, settlement = close_sale(selling, sample_tariff(), on=on, expenses=rs(0), today=on)
    account = account_for(closed, settlement, on)
    assert [(s.heads, s.left, s.until) for s in account.stays] == [(3, Left.SOLD, SALE_DAY)]
    assert account.days_impounded == 6
    assert account.left_together


@pytest.mark.parametrize(
    ("event", "days"),
    [
        pytest.param(ClaimedAndPaid(on=date(2026, 3, 3), paid=rs(1)), 3, id="s.12 released"),
        pytest.param(
            DeliveredOnDeposit(on=date(2026, 3, 4), deposited=rs(1)), 4, id="s.14 on deposit"
        ),
    ],
)
def test_s15_3_b_cattle_delivered_on_payment_or_deposit_leave_that_day(
    event: ClaimedAndPaid | DeliveredOnDeposit, days: int
) -> None:
    left = step(open_case(), event)
    stays = time_impounded(left, date(2026, 12, 31))
    assert [(s.heads, s.left, s.days) for s in stays] == [(2, Left.DELIVERED, days)]


def test_s15_3_b_cattle_still_in_the_pound_count_to_the_day_asked_and_no_later_step() -> None:
    case = open_case()
    assert [(s.left, s.days) for s in time_impounded(case, date(2026, 3, 1))] == [
        (Left.IN_POUND, 1)
    ]
    paid = step(case, ClaimedAndPaid(on=date(2026, 3, 5), paid=rs(1)))
    # Asked of 4 March, the release of 5 March is not read: both still there, 4 days.
    assert [(s.left, s.days) for s in time_impounded(paid, date(2026, 3, 4))] == [
        (Left.IN_POUND, 4)
    ]


def test_s15_5_cattle_of_a_refused_account_stay_impounded_until_sold() -> None:
    """The owner refused the account (s.15(5)): the cow handed back with it never left;
    it is impounded until sold as unclaimed."""
    refused = refuse_account(
        case_in(Stage.ACCOUNT_DUE), on=date(2026, 3, 9), today=date(2026, 3, 9)
    )
    stays = time_impounded(refused, date(2026, 3, 20))
    assert [(s.heads, s.left, s.until) for s in stays] == [
        (1, Left.SOLD, SALE_DAY),
        (1, Left.IN_POUND, date(2026, 3, 20)),
    ]


# --- s.15(3)(d): heads sold, and heads disposed of otherwise counted apart ---------------


def test_s15_3_d_a_head_disposed_of_otherwise_is_not_counted_as_sold() -> None:
    """One cow sold on 18 March, the other given to a goshala on the Director's order on
    19 March (s.13(3) proviso): 1 sold, 1 disposed of, none remaining, 18 and 19 days."""
    noticed = step(open_case(), report(), notice())
    both = step(noticed, sale(0, 1, rs(9000), AUCTION_FROM), disposal(0, 1, date(2026, 3, 19)))
    on = date(2026, 3, 21)
    closed, settlement = close_sale(both, sample_tariff(), on=on, expenses=rs(0), today=on)
    account = account_for(closed, settlement, on)
    assert (account.cattle_sold, account.cattle_disposed, account.cattle_remaining) == (1, 1, 0)
    assert [(s.left, s.days) for s in account.stays] == [(Left.SOLD, 18), (Left.DISPOSED, 19)]
    assert account.days_impounded == 19


# --- s.15(3) to (5): the account and its outcome, as steps of the case --------------------


def _account_due_all_sold() -> Case:
    """The owner's route: both cows needed and sold, a balance for the owner (s.15(3))."""
    selling = step(
        open_case(),
        owner_refused(REFUSED_ON),
        sale(0, 1, rs(1000), SOLD_ON),
        sale(0, 1, rs(20000), SOLD_ON),
    )
    return close_sale(selling, sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON)[0]


def _account_due_with_no_balance() -> Case:
    selling = step(open_case(), owner_refused(REFUSED_ON), sale(0, 2, rs(1), SOLD_ON))
    return close_sale(selling, sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON)[0]


#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
ALLOWED = [
    Allowed(
        "s.15(4): the owner takes the account and gives a receipt",
        _in(S.ACCOUNT_DUE),
        AccountDelivered(on=date(2026, 3, 7), receipt_by="Ramesh"),
        S.CLOSED,
    ),
    Allowed(
        "s.15(5): the owner refuses the account and the balance goes into deposit",
        _account_due_all_sold,
        AccountRefused(on=date(2026, 3, 7)),
        S.IN_DEPOSIT,
    ),
    Allowed(
        "s.15(5): the owner refuses the account and the cattle left are deemed unclaimed",
        _in(S.ACCOUNT_DUE),
        AccountRefused(on=date(2026, 3, 7)),
        S.DEEMED_UNCLAIMED,
    ),
    Allowed(
        "s.15(5), s.13(1): cattle deemed unclaimed are reported",
        _in(S.DEEMED_UNCLAIMED),
        ReportedUnclaimed(on=date(2026, 3, 9)),
        S.REPORTED,
    ),
    Allowed(
        "s.15(5): the owner refuses an account with no balance and the case closes",
        _account_due_with_no_balance,
        AccountRefused(on=date(2026, 3, 7)),
        S.CLOSED,
    ),
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.15(4): no account can be delivered before a sale is closed",
        _in(S.SELLING),
        AccountDelivered(on=date(2026, 3, 19), receipt_by="Ramesh"),
        TransitionRefusedError,
        "s.15(4)",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)


def test_before_any_head_goes_there_is_no_sale_outcome() -> None:
    assert case_in(S.NOTICE_POSTED).sale_outcome is None
    assert step(case_in(S.NOTICE_POSTED), unsold(0, 2, AUCTION_FROM)).sale_outcome is None


def test_the_outcome_is_sold_when_every_head_is_sold() -> None:
    assert case_in(S.IN_DEPOSIT).sale_outcome == "sold"


def test_the_outcome_is_partly_sold_while_heads_remain() -> None:
    assert case_in(S.SELLING).sale_outcome == "partly_sold"
    assert case_in(S.ACCOUNT_DUE).sale_outcome == "partly_sold"


def test_s15_3_e_the_proceeds_add_up_sales_and_other_disposal() -> None:
    case = step(
        case_in(S.NOTICE_POSTED),
        sale(0, 1, rs(15000), AUCTION_FROM),
        unsold(0, 1, AUCTION_FROM),
        disposal(0, 1, date(2026, 3, 19), rs(750)),
    )
    assert case.proceeds == rs(15750)
    assert case.disposed_heads(0) == 2
    assert case.remaining_heads(0) == 0
    # s.13(3) and its proviso: some sold, the rest disposed of by the Director's order.
    assert case.sale_outcome == "sold_and_disposed"


def test_s15_5_the_owner_refusing_the_account_puts_the_balance_in_deposit_that_day() -> None:
    account_due = _account_due_all_sold()
    balance = closed_sale_event(account_due).to_owner_or_deposit
    assert balance.paise > 0
    refused = refuse_account(account_due, on=date(2026, 3, 9), today=date(2026, 3, 9))
    assert refused.stage is S.IN_DEPOSIT
    assert refused.deposited_on == date(2026, 3, 9)
    assert refused.deposit_total == balance


def test_s15_5_cattle_left_go_the_s13_way_and_the_deposit_waits_for_their_sale() -> None:
    account_due = case_in(S.ACCOUNT_DUE)
    balance = closed_sale_event(account_due).to_owner_or_deposit
    refused = refuse_account(account_due, on=date(2026, 3, 9), today=date(2026, 3, 9))
    assert refused.stage is S.DEEMED_UNCLAIMED
    assert refused.deemed_unclaimed
    assert not refused.owner_appeared
    assert refused.deposit_total == balance
    assert refused.deposited_on is None  # the three months run from the second settlement
    far = date(2026, 12, 31)
    reported = refused.apply(ReportedUnclaimed(on=date(2026, 3, 9)), far)
    noticed = reported.apply(notice(date(2026, 3, 10)), far)
    assert noticed.notice is not None
    assert noticed.notice.on == date(2026, 3, 10)
    with pytest.raises(TooEarlyError):
        noticed.apply(sale(0, 1, rs(9000), date(2026, 3, 17)), far)
    sold = noticed.apply(sale(0, 1, rs(9000), date(2026, 3, 18)), far)
    closed, settlement = close_sale(
        sold, sample_tariff(), on=date(2026, 3, 18), expenses=rs(100), today=far
    )
    assert closed.stage is S.IN_DEPOSIT
    assert closed.deposited_on == date(2026, 3, 18)
    assert closed.deposit_total == balance + settlement.balance
    assert settlement.proceeds == rs(9000)


def test_s15_3_while_the_account_is_due_nothing_is_in_deposit() -> None:
    assert case_in(S.ACCOUNT_DUE).deposited_on is None
