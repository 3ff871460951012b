"""s.15(3) to (5): the account, the receipt, and an account refused."""

from __future__ import annotations

from datetime import date

import pytest

from domain.errors import TransitionRefusedError
from domain.s04_s11_dues import dues_on
from domain.s15_3_account import Receipt, account_for, deliver_account, receipt_for, refuse_account
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    CASE_NUMBER,
    IMPOUNDED_ON,
    SALE_DAY,
    case_in,
    rs,
    sample_tariff,
    sell,
    three_cows_owner_refused,
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
