"""The checks of single values of a configuration file: text, codes, languages, words,
time zones and clock times, rates, the s.15(2) order of deductions, dates and rupees.

Each check takes ``(value, key, where)`` and returns what it read, or raises Bad with a
message that starts with ``where`` (``key`` is the value's key path, for the checks that
record the places of what they read).
"""

from __future__ import annotations

import contextlib
import enum
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, time
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.config.lines import Key
from bot.config.model import LANGUAGES, PROVISO_HOLDERS, normalize_word
from bot.config.names import Name
from bot.support.phones import is_region
from domain.dues_items import DuesItem
from domain.money import Money
from domain.profiles import Office, Power
from domain.s18_buyers import DEFAULT_BARRED_CLASSES

__all__ = [
    "Bad",
    "Check",
    "amount",
    "barred_classes",
    "clock",
    "code",
    "count",
    "day",
    "disposal_office",
    "languages",
    "listing",
    "local_name",
    "names",
    "night",
    "one_of",
    "order",
    "phone_region",
    "powers",
    "rate",
    "retired_deciders",
    "text",
    "words",
    "zone",
]

Check = Callable[[Any, Key, str], Any]  # (value, key, where) -> the value read
_CLOCK = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")
_RUPEES = re.compile(r"-?\d+(\.\d+)?")
#: A case number as stored: the pound's code and the number (``KNM-17``).
_CASE_NUMBER = re.compile(r"[A-Z]{2,6}-[1-9]\d{0,8}")


def listing(values: Iterable[str]) -> str:
    """Values quoted and comma-separated, for a message: ``"ml", "en"``."""
    return ", ".join(f'"{v}"' for v in values)


class Bad(Exception):
    """A value that cannot be read; ``below`` locates the fault inside it."""

    def __init__(self, message: str, *below: str | int) -> None:
        super().__init__(message)
        self.below = below


def phone_region(value: Any, key: Key, where: str) -> str:
    """A region telephone numbers are read in: a two-letter code libphonenumber knows."""
    if isinstance(value, str) and is_region(value.strip().upper()):
        return value.strip().upper()
    raise Bad(f'{where} must be a two-letter region code, like "IN" for India')


def text(value: Any, key: Key, where: str) -> str:
    """Non-empty text, stripped."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise Bad(f"{where} must be non-empty text")


def local_name(value: Any, key: Key, where: str) -> Name:
    """A name people read: text, or a table of its forms per language with the English one
    (``{ en = "Kunnamangalam", ml = "കുന്ദമംഗലം" }``)."""
    if isinstance(value, str):
        return Name(text(value, key, where))
    if not isinstance(value, dict):
        raise Bad(
            f"{where} must be text, or a name per language such as "
            f'{{ en = "Kunnamangalam", ml = "കുന്ദമംഗലം" }}'
        )
    for lang, form in value.items():
        if lang not in LANGUAGES:
            raise Bad(f"{where}: {lang!r} is not one of {listing(LANGUAGES)}", lang)
        if not isinstance(form, str) or not form.strip():
            raise Bad(f"{where}: the {lang} name must be non-empty text", lang)
    if "en" not in value:
        raise Bad(f'{where} needs its English form too (en = "..."), shown where no other is')
    forms = {lang: form.strip() for lang, form in value.items() if lang != "en"}
    return Name(value["en"].strip(), forms)


def one_of(allowed: Sequence[str] | type[enum.Enum]) -> Check:
    """A check that the value is one of ``allowed`` (an enum's values, read as it)."""
    values = [m.value for m in allowed] if isinstance(allowed, type) else list(allowed)

    def check(value: Any, key: Key, where: str) -> Any:
        if value not in values:
            raise Bad(f"{where}: {value!r} is not one of {listing(values)}")
        return allowed(value) if isinstance(allowed, type) else value

    return check


def code(pattern: str, rule: str) -> Check:
    """A check that the value is a code matching ``pattern``."""

    def check(value: Any, key: Key, where: str) -> str:
        if isinstance(value, str) and re.fullmatch(pattern, value):
            return value
        raise Bad(f"{where}: {value!r} must be {rule}")

    return check


def languages(value: Any, key: Key, where: str) -> tuple[str, ...]:
    """A pound's languages: one or more of LANGUAGES, each once."""
    if not isinstance(value, list) or not value:
        raise Bad(f'{where} must be a list such as ["ml", "en"]')
    for i, lang in enumerate(value):
        if lang not in LANGUAGES or lang in value[:i]:
            why = "listed twice" if lang in LANGUAGES else f"not one of {listing(LANGUAGES)}"
            raise Bad(f"{where}: {lang!r} is {why}", i)
    return tuple(value)


def words(value: Any, key: Key, where: str) -> list[tuple[str, str, Key]]:
    """(language, normalized word, key) for each word of a kind's ``words`` table."""
    if not isinstance(value, dict) or not value:
        raise Bad(f'{where} must be a table such as {{ en = ["cow", "cows"] }}')
    found: list[tuple[str, str, Key]] = []
    for lang, listed in value.items():
        if lang not in LANGUAGES:
            raise Bad(f"{where}: {lang!r} is not one of {listing(LANGUAGES)}", lang)
        if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
            raise Bad(f"{where}.{lang} must be a list of text", lang)
        for i, word in enumerate(listed):
            if not normalize_word(word):
                raise Bad(f"{where}.{lang}: a word is empty", lang, i)
            found.append((lang, normalize_word(word), (*key, lang, i)))
    return found


def zone(value: Any, key: Key, where: str) -> ZoneInfo:
    """An IANA time zone such as "Asia/Kolkata"."""
    with contextlib.suppress(ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo(value)
    raise Bad(f"{where}: {value!r} is not a known time zone")


def clock(value: Any, key: Key, where: str) -> time:
    """A wall-clock time written "HH:MM" (24-hour)."""
    found = _CLOCK.fullmatch(value) if isinstance(value, str) else None
    if not found:
        raise Bad(f'{where}: {value!r} is not a time "HH:MM" (24-hour)')
    return time(int(found.group(1)), int(found.group(2)))


def night(value: Any, key: Key, where: str) -> tuple[time, time]:
    """The night hours: two different clock times, start and end."""
    if not isinstance(value, list) or len(value) != 2:
        raise Bad(f'{where} must be ["HH:MM", "HH:MM"] (start, end)')
    hours: list[time] = []
    for i, hour in enumerate(value):
        try:
            hours.append(clock(hour, key, where))
        except Bad as bad:
            raise Bad(str(bad), i) from None
    if hours[0] == hours[1]:
        raise Bad(f"{where}: the night starts when it ends")
    return hours[0], hours[1]


def rate(value: Any, key: Key, where: str) -> float:
    """A finite number above 0 (SMS per second)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not (number and math.isfinite(value) and value > 0):
        raise Bad(f"{where}: {value!r} is not a number above 0")
    return float(value)


def count(value: Any, key: Key, where: str) -> int:
    """A whole number from 1 up (messages, minutes)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise Bad(f"{where}: {value!r} is not a whole number from 1 up")
    return value


def order(value: Any, key: Key, where: str) -> tuple[DuesItem, ...]:
    """s.15(2): each head of dues once, in the order sale proceeds meet them."""
    heads = [item.value for item in DuesItem]
    if not isinstance(value, list) or sorted(map(str, value)) != sorted(heads):
        raise Bad(f"{where} must list each of {listing(heads)} once")
    return tuple(DuesItem(v) for v in value)


def case_numbers(value: Any, key: Key, where: str) -> frozenset[str]:
    """A list of case numbers (``KNM-17``): the closed cases a rate dated back keeps
    the figures of (``domain.tariff.DatedRate.closed``)."""
    if not isinstance(value, list):
        raise Bad(f'{where} must be a list of case numbers such as ["KNM-17", "KNM-20"]')
    for i, number in enumerate(value):
        if not isinstance(number, str) or not _CASE_NUMBER.fullmatch(number):
            raise Bad(f"{where}: {number!r} is not a case number such as KNM-17", i)
    return frozenset(value)


def names(value: Any, key: Key, where: str) -> tuple[str, ...]:
    """A list of people's names (s.18: the members of a local authority); may be empty."""
    if not isinstance(value, list):
        raise Bad(f'{where} must be a list of names such as ["Jameela K", "Mohanan P"]')
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise Bad(f"{where}: a name must be non-empty text", i)
    return tuple(name.strip() for name in value)


def markets(value: Any, key: Key, where: str) -> Mapping[str, str]:
    """s.13(2): villages and the market place nearest each, as a table of names (text,
    or a name per language)."""
    if not isinstance(value, dict):
        raise Bad(f'{where} must be a table such as {{ "Pathimangalam" = "Pathimangalam Market" }}')
    read: dict[str, str] = {}
    for village, market in value.items():
        if not str(village).strip() or not isinstance(market, str | dict) or not market:
            raise Bad(f"{where}: {village!r} needs a market place (non-empty text)", village)
        try:
            read[str(village).strip()] = local_name(market, key, f"{where}: {village}")
        except Bad as bad:
            raise Bad(str(bad), village, *bad.below) from None
    return MappingProxyType(read)


def retired_deciders(value: Any, key: Key, where: str) -> None:
    """s.13(3) proviso: ``[policy] proviso_deciders`` (words found anywhere in who
    ordered a disposal) is no longer read; the office is named in ``[[proviso_offices]]``
    instead, and a file that still has the key is refused, saying what to write."""
    raise Bad(
        f"{where} is no longer read: name the office that may order another disposal "
        "(s.13(3) proviso) in [[proviso_offices]], with its code (typed after BY), its name "
        'and a short form: [[proviso_offices]] code = "DIRECTOR" name = { en = "Director '
        'of Animal Husbandry", ml = "..." } short = { en = "...", ml = "..." } (see the '
        "sample configuration)"
    )


def barred_classes(value: Any, key: Key, where: str) -> tuple[str, ...]:
    """s.18: the classes barred from buying, each once, from those poundbot can name."""
    known = DEFAULT_BARRED_CLASSES
    if not isinstance(value, list) or not value:
        raise Bad(f"{where} must list one or more of {listing(known)}")
    for i, item in enumerate(value):
        if item not in known or item in value[:i]:
            why = "listed twice" if item in known else f"not one of {listing(known)}"
            raise Bad(f"{where}: {item!r} is {why}", i)
    return tuple(value)


def powers(value: Any, key: Key, where: str) -> tuple[Power, ...]:
    """Powers an office may hold (``domain.profiles.Power``), each once; may be empty."""
    known = [power.value for power in Power]
    if not isinstance(value, list):
        raise Bad(f'{where} must be a list of powers such as ["receive_report", "sell"]')
    for i, item in enumerate(value):
        if item not in known or item in value[:i]:
            why = "listed twice" if item in known else f"not a power: one of {listing(known)}"
            raise Bad(f"{where}: {item!r} is {why}", i)
    return tuple(Power(item) for item in value)


def disposal_office(value: Any, key: Key, where: str) -> Office:
    """s.13(3) proviso: which office of the Acts an office of ``[[proviso_offices]]`` is
    (``domain.profiles.Office``): one that some Act poundbot applies gives the power to
    order another disposal."""
    may = [office.value for office in PROVISO_HOLDERS]
    if value in may:
        return Office(value)
    if value in [office.value for office in Office]:
        raise Bad(
            f"{where}: {value!r} may not order another disposal under any Act poundbot "
            f"applies (s.13(3) proviso): one of {listing(may)}"
        )
    raise Bad(f"{where}: {value!r} is not an office: one of {listing(may)}")


def day(value: Any, key: Key, where: str) -> date:
    """A TOML date (not a date-time)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    raise Bad(f"{where}: {value!r} is not a date such as 2024-04-01")


def amount(value: Any, key: Key, where: str) -> Money:
    """Rupees as text ("37.50") or a whole number: never a float, negative or with
    more than two decimals."""
    if isinstance(value, float):
        raise Bad(f'{where}: {value!r} is a float; write money as text: "{value}"')
    written = value.strip() if isinstance(value, str) else str(value)
    if isinstance(value, bool) or not _RUPEES.fullmatch(written):
        raise Bad(f'{where}: {value!r} is not an amount such as "500" or "37.50"')
    if written.startswith("-"):
        raise Bad(f"{where}: {value!r} is negative")
    try:
        return Money.rupees(written)
    except ValueError:
        raise Bad(f"{where}: {value!r} has more than two decimals") from None
