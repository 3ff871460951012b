"""Cattle of two owners in one SEIZE: an OWNER after a lot is that lot's; LOT n on the
owner's steps; CORRECT of a lot's owner."""

from __future__ import annotations

from datetime import date

import pytest

from bot.config import Config, load_config, sample_config_path
from bot.conversation import orders as o
from bot.conversation.commands import ParseError, parse
from domain.money import Money

CONFIG: Config = load_config(sample_config_path())
TODAY = date(2026, 11, 20)


def p(text: str) -> o.Order:
    return parse(text, CONFIG, TODAY)


def test_an_owner_written_after_a_lot_is_that_lots_owner() -> None:
    seize = p(
        "SEIZE 1 cow (brown) OWNER Kunhammed 9847012345 1 goat (white) "
        "OWNER Ayisha 9847012346 AT Mavoor road ON 20-11-2026"
    )
    assert isinstance(seize, o.Seize)
    assert [(lot.kind, lot.description, lot.owner, lot.owner_phone) for lot in seize.lots] == [
        ("cow", "brown", "Kunhammed", "+919847012345"),
        ("goat", "white", "Ayisha", "+919847012346"),
    ]
    assert seize.owner == ""
    assert seize.owner_phone is None
    assert seize.place == "Mavoor road"


def test_an_owner_is_the_owner_of_the_lots_written_since_the_owner_before() -> None:
    seize = p("SEIZE 2 cow 1 calf OWNER Kunhammed 1 goat OWNER Ayisha, Mavoor AT field")
    assert isinstance(seize, o.Seize)
    assert [lot.owner for lot in seize.lots] == ["Kunhammed", "Kunhammed", "Ayisha, Mavoor"]


def test_lots_after_the_last_owner_have_no_owner_of_their_own() -> None:
    seize = p("SEIZE 1 cow OWNER Kunhammed 9847012345 1 goat AT field")
    assert isinstance(seize, o.Seize)
    assert [lot.owner for lot in seize.lots] == ["Kunhammed", ""]


@pytest.mark.parametrize(
    "line",
    [
        "SEIZE 2 cow 1 goat OWNER Ravi 9847012345 AT field",
        "SEIZE 2 cow 1 goat AT field OWNER Ravi 9847012345",
        "SEIZE 2 cow 1 goat AT field; brown OWNER Ravi 9847012345",
    ],
)
def test_one_owner_after_all_the_lots_is_the_owner_of_every_lot(line: str) -> None:
    seize = p(line)
    assert isinstance(seize, o.Seize)
    assert seize.owner == "Ravi"
    assert seize.owner_phone == "+919847012345"
    assert all(lot.owner == "" for lot in seize.lots)


def test_owners_per_lot_in_malayalam_words() -> None:
    seize = p("പിടിച്ചു 1 പശു ഉടമ കുഞ്ഞഹമ്മദ് 9847012345 1 ആട് ഉടമ ആയിഷ സ്ഥലം മാവൂർ")
    assert isinstance(seize, o.Seize)
    assert [lot.owner for lot in seize.lots] == ["കുഞ്ഞഹമ്മദ്", "ആയിഷ"]


@pytest.mark.parametrize(
    ("line", "kind", "lot", "amount"),
    [
        ("PAID KNM-7 LOT 2", o.Paid, 2, None),
        ("PAID KNM-7 LOT 2 540", o.Paid, 2, Money.rupees(540)),
        ("PAID KNM-7 540 LOT 2", o.Paid, 2, Money.rupees(540)),
        ("paid knm 7 lot 2 Rs.540/-", o.Paid, 2, Money.rupees(540)),
        ("DEPOSITED KNM-7 LOT 1 1200", o.Deposited, 1, Money.rupees(1200)),
        ("PAID KNM-7 540", o.Paid, None, Money.rupees(540)),
        ("അടച്ചു KNM-7 ലോട്ട് 2", o.Paid, 2, None),
    ],
)
def test_lot_names_the_lot_of_an_owners_payment(
    line: str, kind: type[o.Paid] | type[o.Deposited], lot: int | None, amount: Money | None
) -> None:
    order = p(line)
    assert isinstance(order, kind)
    assert order.case == "KNM-7"
    assert order.lot == lot
    assert order.amount == amount


def test_refused_takes_a_lot() -> None:
    order = p("REFUSED KNM-7 LOT 2")
    assert isinstance(order, o.Refused)
    assert order.lot == 2
    whole = p("REFUSED KNM-7")
    assert isinstance(whole, o.Refused)
    assert whole.lot is None


@pytest.mark.parametrize("line", ["PAID KNM-7 LOT", "PAID KNM-7 LOT two", "REFUSED KNM-7 LOT 0"])
def test_a_lot_without_its_number_is_refused(line: str) -> None:
    with pytest.raises(ParseError) as refused:
        p(line)
    assert refused.value.code == "bad_count"


def test_correct_sets_the_owner_of_one_lot() -> None:
    order = p("CORRECT KNM-7 OWNER LOT 2 Ayisha 9847012346 BECAUSE the goat is hers")
    assert isinstance(order, o.Correct)
    assert order.fact == "owner"
    assert order.lot == 2
    assert order.owner == "Ayisha"
    assert order.owner_phone == "+919847012346"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("SEIZE 1 cow OWNER 1 goat OWNER Ayisha AT field", "owner_of_lots"),
        ("SEIZE 1 cow OWNER 9847012345 1 goat OWNER Ayisha AT field", "owner_of_lots"),
        ("SEIZE 1 cow 1 goat OWNER Ravi AT field OWNER Ayisha", "owner_of_lots"),
    ],
)
def test_an_owner_without_a_name_or_written_twice_is_refused(line: str, code: str) -> None:
    with pytest.raises(ParseError) as refused:
        p(line)
    assert refused.value.code == code
