"""Money is integer paise, parsed from text, never a float (STYLE.md section 3)."""

from __future__ import annotations

import pytest

from domain.money import Money, total


@pytest.mark.parametrize(
    ("text", "paise"),
    [
        ("150", 15000),
        ("150.5", 15050),
        ("150.50", 15050),
        ("0.01", 1),
        ("0", 0),
        ("1000000", 100000000),
        (150, 15000),
    ],
    ids=lambda v: repr(v),
)
def test_rupees_are_parsed_to_paise_exactly(text: str | int, paise: int) -> None:
    assert Money.rupees(text) == Money(paise)


@pytest.mark.parametrize(
    "text",
    [
        "1.234",
        "150.505",
        "0.001",
        "abc",
        "",
        "1.2.3",
        "Rs 150",
        "Infinity",
        "-Infinity",
        "NaN",
        "sNaN",
    ],
    ids=lambda v: repr(v),
)
def test_text_that_is_not_an_amount_of_rupees_and_paise_is_refused(text: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each text fails for its own reason
        Money.rupees(text)


def test_money_is_integer_paise_so_a_float_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Money(150.5)  # type: ignore[arg-type]


def test_a_bool_is_not_money() -> None:
    with pytest.raises(TypeError):
        Money(True)


def test_rupees_refuse_a_float_rather_than_trust_its_binary_value() -> None:
    with pytest.raises(TypeError):
        Money.rupees(150.5)  # type: ignore[arg-type]


def test_multiplying_money_by_a_float_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Money(100) * 1.5  # type: ignore[operator]


def test_money_adds_subtracts_and_multiplies_by_a_count_of_heads() -> None:
    assert Money(150) + Money(25) == Money(175)
    assert Money(150) - Money(200) == Money(-50)
    assert Money(150) * 3 == Money(450)
    assert 3 * Money(150) == Money(450)


def test_money_orders_by_amount() -> None:
    assert Money(1) < Money(2)
    assert min(Money(500), Money(300)) == Money(300)


def test_zero_is_false_and_negative_money_says_so() -> None:
    assert not Money.zero()
    assert Money(1)
    assert Money(-1).is_negative
    assert not Money(0).is_negative


def test_money_reads_as_rupees_and_paise() -> None:
    assert str(Money(15050)) == "Rs 150.50"
    assert str(Money(5)) == "Rs 0.05"
    assert str(Money(-15050)) == "-Rs 150.50"


def test_the_total_of_nothing_is_zero() -> None:
    assert total([]) == Money.zero()
    assert total([Money(1), Money(2), Money(3)]) == Money(6)


@pytest.mark.parametrize("text", ["1e3", "1_000", " 12 34", "+5", "12.", ".5", "१२"])
def test_rupees_refuse_anything_but_plain_digits_and_two_decimals(text: str) -> None:
    with pytest.raises(ValueError, match=r"rupees|decimals"):
        Money.rupees(text)
