"""The statement of a case on a day (domain.statement): the one place the answers read
their figures from. Named after the provisions they check."""

from __future__ import annotations

from datetime import date

from domain.case import Case
from domain.events import AccountRefused, CreditedToFund, DepositOutcome
from domain.money import total
from domain.s15_sale import Payee, close_sale
from domain.s16_s17_proceeds import deposit_window_end
from domain.stages import Stage
from domain.statement import statement
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    case_in,
    disposal,
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
REFUSED_ON = date(2026, 3, 9)


def _rest_sold() -> Case:
    """The deemed-unclaimed cow of ``case_in(DEEMED_UNCLAIMED)`` reported on 9 March,
    noticed on 10, sold on 18 March for Rs 15,000 and settled with Rs 300 expenses."""
    deemed = case_in(Stage.DEEMED_UNCLAIMED)
    selling = step(
        deemed, report(date(2026, 3, 9)), notice(), sale(0, 1, rs(15000), date(2026, 3, 18))
    )
    on = date(2026, 3, 18)
    return close_sale(selling, TARIFF, on=on, expenses=rs(300), today=on)[0]


def test_s12_before_any_sale_the_owner_owes_the_whole_dues_and_may_pay() -> None:
    case = open_case()
    s = statement(case, TARIFF, date(2026, 3, 3))
    assert s.payable
    assert s.owed == s.dues.total == rs(1000) + rs(60) * 6
    assert s.met_by_sale == rs(0)
    assert s.heads_in_pound == 2
    assert s.heads_sold == 0
    assert s.account is None


def test_s12_once_paid_nothing_is_owed_and_the_heads_were_returned() -> None:
    s = statement(case_in(Stage.RELEASED), TARIFF, date(2026, 3, 5))
    assert not s.payable
    assert s.owed == rs(0)
    assert s.paid == rs(1180)
    assert s.heads_returned == 2
    assert s.heads_in_pound == 0


def test_s15_5_deemed_unclaimed_owes_what_the_sale_did_not_meet_payable_until_a_head_is_sold() -> (
    None
):
    case = case_in(Stage.DEEMED_UNCLAIMED)
    s = statement(case, TARIFF, date(2026, 3, 12))
    # Fines 2 x 500; the cow sold fed 1-6 March (5 x 60 + 80); the other, refused, still
    # fed to 12 March (5 x 60 + 7 x 80); the first sale's expenses Rs 200.
    assert s.dues.total == rs(1000) + rs(380) + rs(860) + rs(200)
    assert s.met_by_sale == rs(1000) + rs(380) * 2 + rs(200)
    assert s.unmet == rs(480)
    # s.13(3) sells cattle "not claimed": until a head of this round is sold the owner
    # may pay what the first sale left unmet and take the cow (s.12).
    assert s.payable
    assert s.owed == rs(480)
    # The first round's balance is held in deposit from the refusal; the three months
    # wait for the settlement of the rest (s.15(5), s.16(3)).
    assert s.held_in_deposit == rs(20000) - rs(1960)
    assert s.held_since == REFUSED_ON
    assert s.deposited_on is None
    assert s.window_end is None


def test_s15_3_the_account_after_the_second_round_counts_every_round() -> None:
    case = _rest_sold()
    s = statement(case, TARIFF, date(2026, 3, 20))
    account = s.account
    assert account is not None
    assert account.cattle_sold == 2  # (d) both rounds
    assert account.proceeds == rs(35000)  # (e) both rounds
    assert total([d.amount for d in account.disposal]) == account.proceeds  # (f)
    assert account.balance == s.held_in_deposit == case.deposit_total
    assert [d.payee for d in account.disposal][-1] is Payee.DEPOSIT
    assert account.fines_and_charges == account.proceeds - account.balance
    assert s.deposited_on == date(2026, 3, 18)
    assert s.window_end == deposit_window_end(date(2026, 3, 18), 3)
    assert [r.heads_sold for r in s.rounds] == [1, 1]


def test_s15_3_b_the_time_impounded_ends_when_the_last_head_was_sold() -> None:
    selling = step(open_case(), report(), notice(), sale(0, 2, rs(30000), date(2026, 3, 18)))
    closed = close_sale(
        selling, TARIFF, on=date(2026, 3, 20), expenses=rs(0), today=date(2026, 3, 20)
    )[0]
    account = statement(closed, TARIFF, date(2026, 3, 20)).account
    assert account is not None
    assert account.impounded_until == date(2026, 3, 18)
    assert account.days_impounded == 18


def test_s15_3_b_heads_handed_back_with_the_account_leave_on_the_settlement() -> None:
    selling = step(
        open_case(), owner_refused(date(2026, 3, 4)), sale(0, 1, rs(20000), date(2026, 3, 5))
    )
    on = date(2026, 3, 6)
    closed = close_sale(selling, TARIFF, on=on, expenses=rs(0), today=on)[0]
    account = statement(closed, TARIFF, on).account
    assert account is not None
    assert account.impounded_until == on
    assert account.cattle_remaining == 1


def test_s15_3_d_heads_disposed_of_otherwise_are_counted_apart_from_those_sold() -> None:
    """One cow sold on 18 March, the other given free to a goshala on the Director's
    order on 19 March (s.13(3) proviso), the sale settled on 20 March."""
    both = step(
        open_case(),
        report(),
        notice(),
        sale(0, 1, rs(9000), AUCTION_FROM),
        disposal(0, 1, date(2026, 3, 19)),
    )
    on = date(2026, 3, 20)
    closed = close_sale(both, TARIFF, on=on, expenses=rs(0), today=on)[0]
    s = statement(closed, TARIFF, on)
    assert (s.heads_sold, s.heads_disposed) == (1, 1)
    assert [(r.heads_sold, r.heads_disposed) for r in s.rounds] == [(1, 1)]
    account = s.account
    assert account is not None
    assert (account.cattle_sold, account.cattle_disposed, account.cattle_remaining) == (1, 1, 0)
    assert (account.impounded_until, account.days_impounded) == (date(2026, 3, 19), 19)


def test_s17_1_once_credited_to_the_fund_nothing_is_held() -> None:
    case = _rest_sold()
    held = statement(case, TARIFF, date(2026, 3, 20)).held_in_deposit
    credited = step(case, CreditedToFund(on=date(2026, 6, 19)))
    s = statement(credited, TARIFF, date(2026, 6, 19))
    assert s.held_in_deposit == rs(0)
    assert s.credited_to_fund == held


def test_s19_a_deposit_found_illegal_is_refunded() -> None:
    on_deposit = case_in(Stage.ON_DEPOSIT)
    closed = step(on_deposit, DepositOutcome(on=date(2026, 3, 20), returned=True, reference="C-2"))
    s = statement(closed, TARIFF, date(2026, 3, 20))
    assert s.deposited == s.refunded == rs(1180)
    assert s.owed == rs(0)


def test_s15_5_the_refusal_is_dated_in_the_rounds() -> None:
    case = case_in(Stage.DEEMED_UNCLAIMED)
    assert case.last(AccountRefused) is not None
    s = statement(case, TARIFF, REFUSED_ON)
    assert len(s.rounds) == 1
    assert s.rounds[0].refused
    assert s.stage is Stage.DEEMED_UNCLAIMED
    assert s.stage_since == REFUSED_ON
    assert s.stage_since > IMPOUNDED_ON


def test_s4_a_day_more_in_the_pound_costs_the_feeding_of_the_heads_still_fed() -> None:
    s = statement(open_case(), TARIFF, date(2026, 3, 7))
    assert s.per_day == s.daily_rate == rs(80) * 2  # the rate in force from 6 March
    gone = statement(case_in(Stage.RELEASED), TARIFF, date(2026, 3, 7))
    assert gone.per_day == rs(0)


def test_s14_s19_the_deposit_quoted_is_the_dues_of_the_day_until_the_ten_days_end() -> None:
    s = statement(open_case(), TARIFF, date(2026, 3, 4))
    assert s.deposit.amount == s.dues.total
    assert s.complaint_by == date(2026, 3, 11)


def test_s15_1_while_selling_the_statement_says_what_is_still_owed() -> None:
    selling = case_in(Stage.SELLING)
    s = statement(selling, TARIFF, AUCTION_FROM)
    assert s.sale is not None
    assert s.sale.proceeds == rs(15000)
    assert s.rounds[-1].settlement is None
    assert s.heads_in_pound == 1
    assert statement(open_case(), TARIFF, IMPOUNDED_ON).sale is None
