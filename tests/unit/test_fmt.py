"""Money, dates and times in the four languages (bot.i18n.fmt)."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime

import pytest

from bot.i18n import LANGUAGES, UnknownLanguageError, fmt
from bot.support.sms_segments import segments
from domain.money import Money

INDIAN = ("ml", "ta", "kn")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_groups_rupees_in_lakhs_and_crores(lang: str) -> None:
    assert fmt.money(Money(12_345_650), lang, sms=False) == "₹1,23,456.50"
    assert fmt.money(Money(1_234_567_800), lang, sms=False) == "₹1,23,45,678"
    assert fmt.money(Money(99_999_00), lang, sms=False) == "₹99,999"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_rupees_drop_the_paise_and_other_amounts_keep_two_decimals(lang: str) -> None:
    assert fmt.money(Money(15_000), lang, sms=False) == "₹150"
    assert fmt.money(Money(15_050), lang, sms=False) == "₹150.50"
    assert fmt.money(Money(15_005), lang, sms=False) == "₹150.05"
    assert fmt.money(Money(5), lang, sms=False) == "₹0.05"
    assert fmt.money(Money(0), lang, sms=False) == "₹0"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_digits_stay_latin_in_every_language(lang: str) -> None:
    text = fmt.money(Money(987_654_321), lang, sms=False)
    assert set(text) <= set("₹0123456789,.")


def test_an_english_sms_writes_rs_so_the_message_stays_gsm7() -> None:
    text = fmt.money(Money(12_345_650), "en", sms=True)
    assert text == "Rs 1,23,456.50"
    assert segments(text).encoding == "GSM-7"


@pytest.mark.parametrize("lang", INDIAN)
def test_an_sms_in_an_indian_language_keeps_the_one_character_rupee_sign(lang: str) -> None:
    assert fmt.money(Money(12_345_650), lang, sms=True) == "₹1,23,456.50"


def test_chat_uses_the_rupee_sign_in_english_too() -> None:
    assert fmt.money(Money(15_000), "en", sms=False) == "₹150"


def test_a_negative_amount_puts_the_sign_before_the_currency() -> None:
    assert fmt.money(Money(-15_000), "en", sms=False) == "-₹150"
    assert fmt.money(Money(-15_000), "en", sms=True) == "-Rs 150"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "9 Mar 2026"), ("ml", "9 മാർച്ച് 2026"), ("ta", "9 மார். 2026"), ("kn", "9 ಮಾರ್ಚ್ 2026")],
)
def test_a_date_is_day_month_and_year(lang: str, expected: str) -> None:
    assert fmt.date(date(2026, 3, 9), lang) == expected


FULL_MONTHS = {
    "ml": "ജനുവരി ഫെബ്രുവരി മാർച്ച് ഏപ്രിൽ മേയ് ജൂൺ ജൂലൈ ഓഗസ്റ്റ് സെപ്റ്റംബർ ഒക്\u200cടോബർ നവംബർ ഡിസംബർ",
    "kn": "ಜನವರಿ ಫೆಬ್ರವರಿ ಮಾರ್ಚ್ ಏಪ್ರಿಲ್ ಮೇ ಜೂನ್ ಜುಲೈ ಆಗಸ್ಟ್ ಸೆಪ್ಟೆಂಬರ್ ಅಕ್ಟೋಬರ್ ನವೆಂಬರ್ ಡಿಸೆಂಬರ್",
}


@pytest.mark.parametrize("lang", ["ml", "kn"])
def test_malayalam_and_kannada_dates_write_the_month_in_full(lang: str) -> None:
    """Abbreviated, a Kannada month is another word (ಜನ "people", ಆಗ "then") and neither
    language abbreviates months in print: every month of a year is written in full, on
    the web, in documents and in an SMS alike."""
    for number, name in enumerate(FULL_MONTHS[lang].split(), start=1):
        assert fmt.date(date(2026, number, 9), lang) == f"9 {name} 2026"
        assert fmt.datetime(datetime(2026, number, 9, 14, 5), lang) == f"9 {name} 2026, 2:05 PM"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "30 Sept 2026"),
        ("ml", "30 സെപ്റ്റംബർ 2026"),
        ("ta", "30 செப். 2026"),
        ("kn", "30 ಸೆಪ್ಟೆಂಬರ್ 2026"),
    ],
)
def test_the_longest_month_still_gives_a_date_of_at_most_18_characters(
    lang: str, expected: str
) -> None:
    assert fmt.date(date(2026, 9, 30), lang) == expected
    assert len(expected) <= 18


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_month_of_a_date_is_short_enough_for_an_sms(lang: str) -> None:
    for month in range(1, 13):
        assert len(fmt.date(date(2026, month, 28), lang)) <= 18


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "9 Mar 2026, 2:05 PM"),
        ("ml", "9 മാർച്ച് 2026, 2:05 PM"),
        ("ta", "9 மார். 2026, 2:05 PM"),
        ("kn", "9 ಮಾರ್ಚ್ 2026, 2:05 PM"),
    ],
)
def test_a_local_time_is_written_with_its_date(lang: str, expected: str) -> None:
    assert fmt.datetime(datetime(2026, 3, 9, 14, 5), lang) == expected


def test_an_aware_time_is_shown_in_kerala_time() -> None:
    assert fmt.datetime(datetime(2026, 3, 9, 8, 35, tzinfo=UTC), "en") == "9 Mar 2026, 2:05 PM"


def test_a_naive_time_is_not_shifted_by_the_machine_time_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        assert fmt.datetime(datetime(2026, 3, 9, 14, 5), "en") == "9 Mar 2026, 2:05 PM"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_an_unknown_language_is_an_error_not_english() -> None:
    with pytest.raises(UnknownLanguageError):
        fmt.money(Money(100), "hi", sms=False)
    with pytest.raises(UnknownLanguageError):
        fmt.date(date(2026, 3, 9), "hi")
    with pytest.raises(UnknownLanguageError):
        fmt.datetime(datetime(2026, 3, 9, 14, 5), "hi")


@pytest.mark.parametrize("lang", ["ml", "kn"])
def test_a_charts_month_is_written_in_full_in_malayalam_and_kannada(lang: str) -> None:
    """On the charts' axis too: ಜನ would read "people"."""
    for number, name in enumerate(FULL_MONTHS[lang].split(), start=1):
        assert fmt.month_short(date(2026, number, 1), lang) == name
