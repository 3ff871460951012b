"""Money, dates and times as the four languages write them; the only place they are formatted.

Decisions (tested in ``tests/unit/test_fmt.py``):

- Money uses Indian digit grouping (``1,23,456.50``) in every language. CLDR gives lakh
  grouping for en_IN but not for ml_IN, ta_IN or kn_IN, so the pattern is passed
  explicitly. Digits stay Latin: that is how Kerala offices, receipts and banks write
  amounts in all four languages.
- Whole rupees drop ".00" (``₹150``, not ``₹150.00``); amounts with paise keep both
  decimals (``₹150.50``). Receipts in whole rupees are the common case, and the
  characters saved count in an SMS.
- The sign: chat uses ``₹`` in every language. An SMS in English uses ``Rs `` so the
  message stays in GSM-7 (``₹`` alone would force UCS-2 and halve its room). An SMS
  in Malayalam, Tamil or Kannada is UCS-2 anyway, so it keeps ``₹``: one unit, shorter
  than any spelled-out word for rupees.
- Dates are day, native month, year (``9 മാർച്ച് 2026``, ``9 மார். 2026``,
  ``9 ಮಾರ್ಚ್ 2026``, ``9 Mar 2026``) in every language: the order Kerala offices write,
  never ambiguous the way ``09/03/26`` is. (CLDR's medium format puts the year first in
  Malayalam and the month first in Kannada.) Malayalam and Kannada write the month in
  full, on the web, in documents and in an SMS alike: neither abbreviates months in
  print, and CLDR's Kannada abbreviations are other words (ಜನ "people", ಆಗ "then").
  The longest full date (``30 സെപ്റ്റംബർ 2026``) is 18 characters, two or three more
  than the abbreviation, within the SMS budgets. English and Tamil keep the short
  month (``9 மார். 2026`` is how Tamil prints it).
- A date read aloud (the s.13(2) proclamation) has the month in full, in the order the
  language says it: ``2026 മാർച്ച് 16`` (year, month, day) in Malayalam, ``16 March 2026``
  in the others (``spoken_date``).
- Times are local (Asia/Kolkata), 12-hour with AM/PM as CLDR gives for these locales.
  A naive datetime is taken to be local already, as the domain keeps them.
"""

from __future__ import annotations

import datetime as _dt
import functools
from decimal import Decimal
from typing import Final

from babel.dates import format_date, format_datetime, format_time
from babel.numbers import format_currency

from bot.i18n.catalogs import locale_of
from domain.calendar import LOCAL_TZ
from domain.money import Money

__all__ = ["clock_time", "date", "datetime", "money", "month", "month_short", "spoken_date"]

_DATE: Final = "d MMM y"
_DATETIME: Final = "d MMM y, h:mm a"
#: The languages whose dates write the month in full (``d MMMM y``).
_FULL_MONTH: Final = frozenset({"ml", "kn"})
_TIME: Final = "h:mm a"
#: A date as it is said aloud: the month in full, in the language's spoken order.
_SPOKEN: Final = {"ml": "y MMMM d"}
_SPOKEN_OTHERS: Final = "d MMMM y"
_MONTH: Final = "LLLL y"
_MONTH_SHORT: Final = "LLL"
_MONTH_FULL: Final = "LLLL"
_GROUPED_WHOLE: Final = "#,##,##0"
_GROUPED_PAISE: Final = "#,##,##0.00"


def money(amount: Money, lang: str, *, sms: bool) -> str:
    """``amount`` with Indian grouping: ``₹1,23,456.50``, ``₹150``; ``Rs 150`` in an English SMS."""
    return _money(amount.paise, lang, sms)


def date(day: _dt.date, lang: str) -> str:
    """``day`` as day, native month and year: ``9 മാർച്ച് 2026``, ``9 Mar 2026``."""
    return _date(day, lang)


def spoken_date(day: _dt.date, lang: str) -> str:
    """``day`` as it is read aloud, the month in full: ``2026 മാർച്ച് 16``, ``16 March 2026``."""
    return format_date(day, _SPOKEN.get(lang, _SPOKEN_OTHERS), locale=locale_of(lang))


def month(day: _dt.date, lang: str) -> str:
    """The month of ``day`` and its year, as a heading says it: ``March 2026``."""
    return format_date(day, _MONTH, locale=locale_of(lang))


def month_short(day: _dt.date, lang: str) -> str:
    """The month of ``day`` as a chart's axis says it: abbreviated (``Mar``), but in
    full in Malayalam and Kannada, as their dates write it (the chart staggers long
    labels, ``bot.web.svg``)."""
    pattern = _MONTH_FULL if lang in _FULL_MONTH else _MONTH_SHORT
    return format_date(day, pattern, locale=locale_of(lang))


# Babel's formatting is the dearest step of a reply, and the same amounts (fines,
# daily rates) and dates recur in every answer: each is formatted once.
@functools.lru_cache(maxsize=4096)
def _money(paise: int, lang: str, sms: bool) -> str:
    number = _GROUPED_WHOLE if paise % 100 == 0 else _GROUPED_PAISE
    symbol = "'Rs '" if sms and lang == "en" else "¤"
    return format_currency(
        Decimal(paise).scaleb(-2),
        "INR",
        format=symbol + number,
        locale=locale_of(lang),
        currency_digits=False,
    )


@functools.lru_cache(maxsize=1024)
def _date(day: _dt.date, lang: str) -> str:
    return format_date(day, _full(_DATE, lang), locale=locale_of(lang))


def clock_time(moment: _dt.datetime, lang: str) -> str:
    """The local time of day of ``moment``: ``11:40 AM``."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(LOCAL_TZ).replace(tzinfo=None)
    return format_time(moment.time(), _TIME, locale=locale_of(lang))


def datetime(moment: _dt.datetime, lang: str) -> str:
    """``moment`` in local time: ``9 മാർച്ച് 2026, 2:30 PM``."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(LOCAL_TZ).replace(tzinfo=None)
    return format_datetime(moment, _full(_DATETIME, lang), locale=locale_of(lang))


def _full(pattern: str, lang: str) -> str:
    """``pattern`` with the month in full in the languages that write it so."""
    return pattern.replace("MMM", "MMMM") if lang in _FULL_MONTH else pattern
