"""``bot.support.phones`` and ``bot.support.public_text``: numbers as people write them, and
descriptions
as the public may read them."""

from __future__ import annotations

import random

import pytest

from bot.observe.logsafe import mask_phone
from bot.support.phones import (
    PhoneError,
    looks_like_phone,
    normalize_phone,
    sender_number,
    strip_phones,
)
from bot.support.public_text import public_description


@pytest.mark.parametrize(
    ("written", "region", "e164"),
    [
        ("9847012345", "IN", "+919847012345"),
        ("09847012345", "IN", "+919847012345"),
        ("98470 12345", "IN", "+919847012345"),
        ("98470-12345", "IN", "+919847012345"),
        ("+91 98470 12345", "IN", "+919847012345"),
        ("0091 9847012345", "IN", "+919847012345"),
        ("+447911123456", "IN", "+447911123456"),
        ("0771234567", "LK", "+94771234567"),
    ],
)
def test_a_mobile_number_is_read_in_its_region_into_e164(
    written: str, region: str, e164: str
) -> None:
    assert normalize_phone(written, region) == e164


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("", "phone_not_number"),
        ("ravi", "phone_not_number"),
        ("98470abc", "phone_not_number"),
        ("98470", "phone_too_short"),
        ("+9847012345", "phone_too_short"),
        ("9847012345678", "phone_too_long"),
        ("+999123456", "phone_bad_country"),
        ("04952370000", "phone_not_mobile"),
        ("1800112233", "phone_not_mobile"),
    ],
)
def test_what_is_not_a_valid_mobile_number_is_refused_with_its_fault(
    written: str, code: str
) -> None:
    with pytest.raises(PhoneError) as raised:
        normalize_phone(written)
    assert raised.value.code == code
    assert raised.value.facts == {"text": written, "region": "IN"}


def test_a_sender_is_its_e164_number_or_as_given() -> None:
    assert sender_number("09847012345") == "+919847012345"
    assert sender_number("+919847012345") == "+919847012345"
    assert sender_number("POUNDS") == "POUNDS"  # a sender name: no user, still answered


@pytest.mark.parametrize(
    ("text", "public"),
    [
        ("black buffalo 9847012345", "black buffalo"),
        ("brown, call 98470 12345, white forehead", "brown, call, white forehead"),
        ("office (0495) 2370000", "office"),
        ("+91 98470-12345 brown", "brown"),
        ("tag 4471, seen 20-11-2026", "tag 4471, seen 20-11-2026"),
        ("pin 673571", "pin 673571"),
    ],
)
def test_phone_like_digits_are_dropped_and_short_numbers_and_dates_kept(
    text: str, public: str
) -> None:
    assert strip_phones(text) == public


def test_a_search_word_looks_like_a_phone_from_seven_digits() -> None:
    assert looks_like_phone("2370000")
    assert looks_like_phone("98470 12345")
    assert not looks_like_phone("673571")
    assert not looks_like_phone("20-11-2026")


@pytest.mark.parametrize(
    ("text", "names", "public"),
    [
        ("black buffalo OWNER Kunhammed 9847012345", (), "black buffalo"),
        ("കറുത്ത എരുമ ഉടമ കുഞ്ഞമ്മദ്", (), "കറുത്ത എരുമ"),
        ("brown, Kunhammed's cows", ("Kunhammed P.",), "brown, cows"),
        ("brown, seized by Rajan", ("Rajan K.",), "brown, seized by"),
        ("brown, K. mark", ("K. Rajan",), "brown, K. mark"),  # an initial says nothing
    ],
)
def test_the_public_description_holds_no_owner_clause_name_or_number(
    text: str, names: tuple[str, ...], public: str
) -> None:
    assert public_description(text, names) == public


def test_a_number_in_a_log_is_masked() -> None:
    assert mask_phone("+919847012345") == "+91******2345"
    assert "9847012345" not in mask_phone("09847012345")


def test_a_sender_in_e164_is_read_as_libphonenumber_reads_it() -> None:
    # The senders the providers send (+91 and a mobile number) are not parsed again:
    # what is taken as it is must be what reading it would give, valid or not.
    rng = random.Random(7)
    for _ in range(2000):
        text = f"+91{rng.choice('6789')}{rng.randrange(10**9):09d}"
        try:
            read = normalize_phone(text)
        except PhoneError:
            read = text
        assert sender_number(text) == read == text
    assert sender_number("+9109847012345") == "+919847012345"  # the national 0 dropped
