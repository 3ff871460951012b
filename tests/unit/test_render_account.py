"""The s.15(3) account, items (a) to (f), where the proceeds went (s.15(2), s.16), and
the s.15(4) receipt; in English, Malayalam, Tamil and Kannada."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

import pytest

from bot.i18n import fmt
from bot.i18n import render as r
from bot.i18n.common import head_count
from bot.i18n.documents.account import account_time
from domain.case import Case
from domain.events import AuctionScheduled, DisposedOtherwise, OwnerRefusedToPay
from domain.money import Money
from domain.s15_3_account import Account, account_for, receipt_for
from domain.s15_sale import Settlement, close_sale, offer_lot
from tests.unit.test_render_scenario import (
    ALL,
    AUCTION_ON,
    BUYER,
    CASE_NUMBER,
    FAR,
    IMPOUNDED,
    OWNER,
    OWNER_AUCTION_ON,
    TARIFF,
    citation,
    fixed,
    money,
    open_case,
    owner_account,
    owner_auction_fixed,
    receipt,
    tr,
    unclaimed_account,
)

ITEMS = ("(a)", "(b)", "(c)", "(d)", "(e)", "(f)")


def account_lines(lang: str, account: Account | None = None) -> list[str]:
    return r.account_text(account or owner_account()[1], tr(lang)).splitlines()


def item(lines: list[str], label: str) -> str:
    return next(line for line in lines if line.startswith(label))


def after(lines: list[str], label: str) -> list[str]:
    """The indented lines that follow the item ``label``."""
    start = lines.index(item(lines, label)) + 1
    out = []
    for line in lines[start:]:
        if not line.startswith("  - "):
            break
        out.append(line)
    return out


def _owner_sale(sales: list[tuple[int, int, str]], on: date = OWNER_AUCTION_ON) -> Account:
    """The owner refused (s.15(1)); ``sales`` are (lot, heads, rupees) sold on ``on``."""
    case = owner_auction_fixed() if on == OWNER_AUCTION_ON else _refused_on(on)
    for lot, count, rupees in sales:
        case = offer_lot(
            case,
            lot=lot,
            count=count,
            price=Money.rupees(rupees),
            buyer=BUYER,
            buyer_role=None,
            declared_not_barred=True,
            on=on,
            today=FAR,
        )
    closed, settlement = close_sale(case, TARIFF, on=on, expenses=Money.rupees("450"), today=FAR)
    return account_for(closed, settlement, on)


def _refused_on(on: date) -> Case:
    """The owner refused on ``on`` and the auction was fixed that day for that day."""
    refused = open_case().apply(OwnerRefusedToPay(on=on), FAR)
    return refused.apply(AuctionScheduled(on=on, auction_on=on, place="market"), FAR)


def _nothing_sold() -> tuple[Settlement, Account]:
    """Every lot disposed of otherwise for nothing by the Director's order (s.13(3) proviso)."""
    case = fixed()
    for lot, count in ((0, 2), (1, 1), (2, 3)):
        event = DisposedOtherwise(
            on=AUCTION_ON,
            lot=lot,
            count=count,
            manner="handed to the Kozhikode goshala",
            ordered_by="Director of Animal Husbandry",
            order_reference="DAH/124/2026",
        )
        case = case.apply(event, FAR)
    closed, settlement = close_sale(case, TARIFF, on=AUCTION_ON, expenses=Money.zero(), today=FAR)
    return settlement, account_for(closed, settlement, AUCTION_ON)


# --- the account, s.15(3) --------------------------------------------------------------------


def test_the_english_account_gives_items_a_to_f_with_every_line_of_the_dues() -> None:
    assert account_lines("en") == [
        "Account of case KNM-17 (s.15(3))",
        "(a) Number of cattle seized: 6",
        "(b) Time impounded: 2 Mar 2026 to 12 Mar 2026, 11 days",
        "(c) Fines and charges incurred: ₹8,231",
        "  - Fine (s.11): 2 cows × ₹750 = ₹1,500",
        "  - Feeding and watering (s.4): 2 cows × 11 days × ₹120.50 = ₹2,651",
        "  - Fine (s.11): 1 buffalo × ₹500 = ₹500",
        "  - Feeding and watering (s.4): 1 buffalo × 11 days × ₹110 = ₹1,210",
        "  - Fine (s.11): 3 goats × ₹200 = ₹600",
        "  - Feeding and watering (s.4): 3 goats × 11 days × ₹40 = ₹1,320",
        "  - Expenses of sale (s.15(2)): ₹450",
        "(d) Number of cattle sold: 1",
        "(e) Proceeds of sale: ₹32,000.50",
        "(f) How the proceeds were disposed of:",
        "  - Expenses of sale met (s.15(2)): ₹450",
        "  - Feeding and watering, paid to the pound-keeper (s.16(2)): ₹5,181",
        "  - Fines, sent to the local authority (s.16(1)): ₹2,600",
        "  - Balance, delivered to the owner (s.15(3)): ₹23,769.50",
        "Delivered with this account: 5 head of cattle and ₹23,769.50.",
    ]


@pytest.mark.parametrize("lang", ALL)
def test_the_account_is_headed_with_its_case_and_s15_3(lang: str) -> None:
    heading = account_lines(lang)[0]
    assert CASE_NUMBER in heading
    assert citation("s.15(3)", lang) in heading


@pytest.mark.parametrize("lang", ALL)
def test_items_a_to_f_are_labelled_as_the_act_labels_them_in_that_order(lang: str) -> None:
    labels = [line[:3] for line in account_lines(lang) if re.match(r"\([a-f]\)", line)]
    assert labels == list(ITEMS)


@pytest.mark.parametrize("lang", ALL)
def test_each_item_of_the_account_states_its_figure(lang: str) -> None:
    lines = account_lines(lang)
    assert re.search(r"\b6\b", item(lines, "(a)"))  # seized
    b = item(lines, "(b)")
    assert fmt.date(IMPOUNDED, lang) in b
    assert fmt.date(OWNER_AUCTION_ON, lang) in b
    assert re.search(r"\b11\b", b)  # 2 to 12 March, both days counted
    assert money("8231", lang) in item(lines, "(c)")
    assert re.search(r"\b1\b", item(lines, "(d)"))  # sold
    assert money("32000.50", lang) in item(lines, "(e)")


@pytest.mark.parametrize("lang", ALL)
def test_item_c_lists_each_fine_and_charge_with_its_provision(lang: str) -> None:
    lines = after(account_lines(lang), "(c)")
    assert len(lines) == 7
    fines, feeding, expenses = lines[0:6:2], lines[1:6:2], lines[6]
    assert all(citation("s.11", lang) in line for line in fines)
    assert all(citation("s.4", lang) in line for line in feeding)
    assert citation("s.15(2)", lang) in expenses
    assert money("450", lang) in expenses
    assert money("2651", lang) in feeding[0]  # 2 cows x 11 days x 120.50


@pytest.mark.parametrize("lang", ALL)
def test_item_f_says_where_every_part_of_the_proceeds_went_under_which_provision(
    lang: str,
) -> None:
    lines = after(account_lines(lang), "(f)")
    expected = [
        ("s.15(2)", "450"),  # expenses of sale met
        ("s.16(2)", "5181"),  # feeding and watering to the pound-keeper
        ("s.16(1)", "2600"),  # fines to the local authority
        ("s.15(3)", "23769.50"),  # the balance to the owner
    ]
    assert len(lines) == len(expected)
    for line, (provision, rupees) in zip(lines, expected, strict=True):
        assert citation(provision, lang) in line
        assert money(rupees, lang) in line


@pytest.mark.parametrize("lang", ALL)
def test_the_account_ends_with_what_is_delivered_with_it(lang: str) -> None:
    last = account_lines(lang)[-1]
    assert head_count(5, tr(lang)) in last
    assert money("23769.50", lang) in last


@pytest.mark.parametrize("lang", ALL)
def test_on_unclaimed_cattle_item_f_sends_the_surplus_into_deposit_under_s16_3(
    lang: str,
) -> None:
    _, account = unclaimed_account()
    lines = after(account_lines(lang, account), "(f)")
    surplus = lines[-1]
    assert citation("s.16(3)", lang) in surplus
    assert money(account.balance, lang) in surplus
    assert account.balance == Money.rupees("123000.50") - account.fines_and_charges


def test_an_unclaimed_account_says_the_balance_is_held_in_deposit_not_delivered() -> None:
    _, account = unclaimed_account()
    last = account_lines("en", account)[-1]
    assert last == (
        f"Held in deposit by the local authority: {money(account.balance, 'en')} (s.16(3))."
    )
    assert not any("Delivered with this account" in line for line in account_lines("en", account))


@pytest.mark.parametrize("lang", ALL)
def test_with_no_proceeds_item_f_says_so(lang: str) -> None:
    _, account = _nothing_sold()
    lines = account_lines(lang, account)
    assert after(lines, "(f)") == [f"  - {tr(lang).gettext('No proceeds.')}"]
    assert money(Money.zero(), lang) in item(lines, "(e)")


@pytest.mark.parametrize(
    ("on", "days"),
    [(IMPOUNDED, "1 day"), (OWNER_AUCTION_ON, "11 days")],
    ids=["s.15(3)(b) sold the day impounded", "s.15(3)(b) both ends counted"],
)
def test_item_b_counts_the_first_and_the_last_day_in_the_pound(on: date, days: str) -> None:
    account = _owner_sale([(2, 1, "5000")], on=on)
    b = item(account_lines("en", account), "(b)")
    assert b == f"(b) Time impounded: 2 Mar 2026 to {fmt.date(on, 'en')}, {days}"


# --- the account by SMS, and what the owner collects -------------------------------------------

COLLECT = [
    (
        "s.15(4) cattle and balance",
        lambda: owner_account()[1],
        "Collect 5 head of cattle and Rs 23,769.50 at the pound; give a receipt (s.15(4)).",
    ),
    (
        "s.15(4) cattle only",
        lambda: _owner_sale([(2, 1, "1000")]),
        "Collect 5 head of cattle at the pound; give a receipt (s.15(4)).",
    ),
    (
        "s.15(4) balance only",
        lambda: _owner_sale([(0, 2, "60000"), (1, 1, "30000"), (2, 3, "15000.25")]),
        "Collect Rs 96,769.25 at the pound; give a receipt (s.15(4)).",  # 1,05,000.25 - 8,231
    ),
    (
        "s.15(3) nothing left",
        lambda: _owner_sale([(0, 2, "2000"), (1, 1, "1000"), (2, 3, "1500")]),
        "Nothing is left to collect (s.15(3)).",
    ),
    (
        "s.16(3) held in deposit",
        lambda: unclaimed_account()[1],
        "The balance of Rs 1,10,671.75 is held in deposit by the local authority; claim it "
        "there within 3 months (s.16(3)).",
    ),
]


@pytest.mark.parametrize(("make", "collect"), [c[1:] for c in COLLECT], ids=[c[0] for c in COLLECT])
def test_the_account_sms_ends_with_what_the_owner_collects_and_where(
    make: Callable[[], Account], collect: str
) -> None:
    account = make()
    text = r.account_sms(account, tr("en"))
    assert text.startswith(f"Case {CASE_NUMBER}. Account (s.15(3)): ")
    assert text.endswith(collect)


def test_the_english_account_sms_gives_sold_proceeds_deductions_and_balance() -> None:
    assert r.account_sms(owner_account()[1], tr("en")) == (
        "Case KNM-17. Account (s.15(3)): 1 of 6 head sold for Rs 32,000.50; Rs 8,231 "
        "deducted for fines and charges (s.15(2)); balance Rs 23,769.50. Time impounded: "
        "11 days (s.15(3)(b)). Collect 5 head of cattle and Rs 23,769.50 at the pound; give "
        "a receipt (s.15(4))."
    )


@pytest.mark.parametrize("lang", ALL)
def test_the_deductions_and_the_balance_add_up_to_the_proceeds(lang: str) -> None:
    _, account = owner_account()
    deducted = account.proceeds - account.balance
    assert deducted == Money.rupees("8231")
    text = r.account_sms(account, tr(lang))
    for amount in (account.proceeds, deducted, account.balance):
        assert fmt.money(amount, lang, sms=True) in text


def test_proceeds_short_of_the_dues_leave_an_amount_not_met() -> None:
    """s.15(2): what the proceeds did not cover is stated, not silently dropped."""
    case = owner_auction_fixed()
    case = offer_lot(
        case,
        lot=2,
        count=1,
        price=Money.rupees("1000"),
        buyer=BUYER,
        buyer_role=None,
        declared_not_barred=True,
        on=OWNER_AUCTION_ON,
        today=FAR,
    )
    closed, settlement = close_sale(
        case, TARIFF, on=OWNER_AUCTION_ON, expenses=Money.rupees("450"), today=FAR
    )
    text = r.settled_reply(settlement, account_for(closed, settlement, OWNER_AUCTION_ON), tr("en"))
    unmet = fmt.money(settlement.unmet, "en", sms=False)
    assert settlement.unmet == Money.rupees("8231") - Money.rupees("1000")
    assert f"Not met by the proceeds: {unmet} (s.15(2))." in text.splitlines()


# --- the receipt, s.15(4) ----------------------------------------------------------------------


def test_the_english_receipt_names_who_received_what_and_when_with_a_line_to_sign() -> None:
    assert r.receipt_text(receipt(), tr("en")).splitlines() == [
        "Receipt (s.15(4)), case KNM-17",
        "I, Suresh Kumar, the owner of the cattle of case KNM-17 or the owner's agent, have "
        "received, according to the account delivered to me under s.15(3):",
        "  - the remaining cattle: 5 head of cattle;",
        "  - the balance of the proceeds of sale: ₹23,769.50.",
        "Date: 13 Mar 2026",
        "Signature of the owner or agent: ______________________________",
    ]


@pytest.mark.parametrize("lang", ALL)
def test_the_receipt_states_its_facts_line_by_line(lang: str) -> None:
    lines = r.receipt_text(receipt(), tr(lang)).splitlines()
    assert len(lines) == 6
    heading, body, cattle, balance, dated, signature = lines
    assert CASE_NUMBER in heading
    assert citation("s.15(4)", lang) in heading
    assert OWNER in body
    assert CASE_NUMBER in body
    assert citation("s.15(3)", lang) in body
    assert cattle.startswith("  - ")
    assert head_count(5, tr(lang)) in cattle
    assert balance.startswith("  - ")
    assert money("23769.50", lang) in balance
    assert fmt.date(date(2026, 3, 13), lang) in dated
    assert signature.endswith(" ______________________________")


def test_a_receipt_with_nothing_left_to_deliver_says_none_and_nothing() -> None:
    account = _owner_sale([(0, 2, "2000"), (1, 1, "1000"), (2, 3, "1500")])
    text = r.receipt_text(receipt_for(account, OWNER, date(2026, 3, 13)), tr("en"))
    assert "  - the remaining cattle: 0 head of cattle;" in text.splitlines()
    assert "  - the balance of the proceeds of sale: ₹0." in text.splitlines()


# --- each lot's time impounded, s.15(3)(b); heads disposed of apart, s.13(3) proviso -------


def _left_on_three_days() -> Account:
    """The owner refused (s.15(1)): one cow sold on 12 March for too little, two more at
    an auction fixed again for 15 March; the other three handed back with the account of
    17 March."""
    second, settled_on = date(2026, 3, 15), date(2026, 3, 17)
    case = owner_auction_fixed()
    for lot, count, rupees, on in ((2, 1, "500", OWNER_AUCTION_ON), (0, 2, "60000", second)):
        if on == second:
            case = case.apply(AuctionScheduled(on=on, auction_on=on, place="market"), FAR)
        case = offer_lot(
            case,
            lot=lot,
            count=count,
            price=Money.rupees(rupees),
            buyer=BUYER,
            buyer_role=None,
            declared_not_barred=True,
            on=on,
            today=FAR,
        )
    closed, settlement = close_sale(case, TARIFF, on=settled_on, expenses=Money.zero(), today=FAR)
    return account_for(closed, settlement, settled_on)


def test_item_b_gives_each_lot_its_days_when_the_heads_left_on_different_days() -> None:
    lines = account_lines("en", _left_on_three_days())
    assert item(lines, "(b)") == "(b) Time impounded, from 2 Mar 2026:"
    assert after(lines, "(b)") == [
        "  - 1 head of cattle sold on 12 Mar 2026: 11 days",
        "  - 2 head of cattle sold on 15 Mar 2026: 14 days",
        "  - 3 head of cattle delivered to the owner on 17 Mar 2026: 16 days",
    ]


@pytest.mark.parametrize("lang", ALL)
def test_each_lot_of_item_b_states_its_date_and_days_in_every_language(lang: str) -> None:
    lines = account_lines(lang, _left_on_three_days())
    lots = after(lines, "(b)")
    assert len(lots) == 3
    for line, on, days in zip(
        lots,
        (OWNER_AUCTION_ON, date(2026, 3, 15), date(2026, 3, 17)),
        (11, 14, 16),
        strict=True,
    ):
        assert fmt.date(on, lang) in line
        assert re.search(rf"\b{days}\b", line), line
    assert fmt.date(date(2026, 3, 2), lang) in item(lines, "(b)")


@pytest.mark.parametrize("lang", ALL)
def test_the_time_impounded_in_one_sentence_gives_the_fewest_and_the_most_days(lang: str) -> None:
    text = account_time(_left_on_three_days(), tr(lang))
    assert "11" in text
    assert "16" in text
    assert "15(3)(b)" in text
    one = account_time(owner_account()[1], tr(lang))
    assert "11" in one


def test_heads_disposed_of_otherwise_are_not_counted_as_sold_s13_3_proviso() -> None:
    _, account = _nothing_sold()
    assert (account.cattle_sold, account.cattle_disposed, account.cattle_remaining) == (0, 6, 0)
    lines = account_lines("en", account)
    assert item(lines, "(d)") == "(d) Number of cattle sold: 0"
    assert lines[lines.index(item(lines, "(d)")) + 1] == (
        "Disposed of otherwise by order, not sold (s.13(3) proviso): 6"
    )
    summary = r.account_sms(account, tr("en"))
    assert "of 6 head, 0 sold and 6 disposed of otherwise (s.13(3) proviso)" in summary
    assert "6 of 6 head sold" not in summary


@pytest.mark.parametrize("lang", ALL)
def test_the_heads_disposed_of_are_stated_apart_in_every_language(lang: str) -> None:
    _, account = _nothing_sold()
    lines = account_lines(lang, account)
    d = lines.index(item(lines, "(d)"))
    assert lines[d].endswith(": 0")
    assert lines[d + 1].endswith(": 6")
    assert "13(3)" in lines[d + 1]
    assert "6" in r.account_sms(account, tr(lang))


def test_an_account_with_no_head_disposed_of_has_no_line_for_them() -> None:
    lines = account_lines("en")
    assert not any("Disposed of otherwise" in line for line in lines)
