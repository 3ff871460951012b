"""Telephone numbers: read as people write them, stored in E.164, never shown in public.

Every number poundbot takes (an owner's in SEIZE, a user's in ``users add``, the sender
of an SMS, a contact) goes through ``normalize_phone``, which reads it with Google's
libphonenumber (the ``phonenumbers`` package) in the configured default region (India
unless ``[policy] phone_region`` says otherwise): ``09847012345``, ``98470 12345``,
``+91 98470-12345`` and ``0091 9847012345`` are all ``+919847012345``. Only a valid
mobile number is taken (the owner is told by SMS); anything else raises ``PhoneError``
with a code that names the fault.

``strip_phones`` drops phone-like runs of digits from a text shown to the public.
"""

from __future__ import annotations

import functools
import re
from types import ModuleType
from typing import Final

from bot.support.errors import BadInputError

__all__ = [
    "DEFAULT_REGION",
    "PHONE_CODES",
    "PhoneError",
    "example_mobile",
    "is_region",
    "looks_like_phone",
    "normalize_phone",
    "phone_runs",
    "sender_number",
    "strip_phones",
]

#: The region a number without a country code is read in, unless configured otherwise.
DEFAULT_REGION: Final = "IN"

#: The faults ``PhoneError`` names, by code.
PHONE_CODES: Final = (
    "phone_not_number",  # letters, or no digits at all
    "phone_too_short",  # too few digits for a mobile number
    "phone_too_long",  # too many digits
    "phone_bad_country",  # "+" followed by no known country code
    "phone_invalid",  # the right length, but no such number
    "phone_not_mobile",  # a landline, a toll-free number, ...: SMS cannot reach it
)
# What the command line says of each fault (the bot's replies are in the catalogs).
_PLAIN: Final = {
    "phone_not_number": "not a telephone number",
    "phone_too_short": "too few digits for a mobile number",
    "phone_too_long": "too many digits for a mobile number",
    "phone_bad_country": "no such country code",
    "phone_invalid": "no such number",
    "phone_not_mobile": "not a mobile number (a landline or a service number): SMS cannot reach it",
}

# What a number may be written with besides its digits.
_WRITTEN: Final = re.compile(r"^\+?[\d\s\-.()/]+$")
# A run of digits as numbers are written: a "+" before, single spaces, hyphens, dots or
# brackets between groups. Five digits or more is an attempt at a number in an OWNER
# clause; seven or more (a local landline) is phone-like in a public text.
_RUN: Final = re.compile(r"(?<![\w+])\+?\(?\d(?:[ \-.()]{0,2}\d)+\)?(?!\w)")
# A date as the commands write it (20-11-2026, 20.11.26) is not a phone number.
_DATE: Final = re.compile(r"^\d{1,2}[-.]\d{1,2}[-.](?:\d{2}|\d{4})$")
_PUBLIC_DIGITS: Final = 7
_OWNER_DIGITS: Final = 5


class PhoneError(BadInputError):
    """A text that is not a valid mobile number; ``code`` (one of ``PHONE_CODES``) says why."""

    def __init__(self, code: str, text: str, region: str) -> None:
        super().__init__(f"bad phone number: {_PLAIN[code]}")
        self.code = code
        self.facts = {"text": text, "region": region}


def _library() -> ModuleType:
    """The ``phonenumbers`` module, imported on first use: it takes tens of milliseconds,
    which `poundbot config check` (of a configuration in the default region) need not pay."""
    import phonenumbers

    return phonenumbers


def is_region(region: str) -> bool:
    """Whether ``region`` (``IN``, ``LK``, ...) is a region libphonenumber knows."""
    return region == DEFAULT_REGION or region in _library().SUPPORTED_REGIONS


def _digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def normalize_phone(text: str, region: str = DEFAULT_REGION) -> str:
    """A mobile number as written -> E.164 (``09847012345`` -> ``+919847012345``).

    Read in ``region`` unless it starts with ``+`` or an international prefix (``00``).
    Raises ``PhoneError`` when it is not a valid mobile number, naming the fault.
    """
    phonenumbers = _library()
    NumberParseException = phonenumbers.NumberParseException
    written = text.strip()
    if not written or not _WRITTEN.match(written) or _digits(written) == 0:
        raise PhoneError("phone_not_number", written, region)
    try:
        number = phonenumbers.parse(written, region)
    except NumberParseException as exc:
        code = {
            NumberParseException.INVALID_COUNTRY_CODE: "phone_bad_country",
            NumberParseException.TOO_SHORT_NSN: "phone_too_short",
            NumberParseException.TOO_SHORT_AFTER_IDD: "phone_too_short",
            NumberParseException.TOO_LONG: "phone_too_long",
        }.get(exc.error_type, "phone_not_number")
        raise PhoneError(code, written, region) from None
    if not phonenumbers.is_valid_number(number):
        reason = phonenumbers.is_possible_number_for_type_with_reason(
            number, phonenumbers.PhoneNumberType.MOBILE
        )
        code = {
            phonenumbers.ValidationResult.INVALID_COUNTRY_CODE: "phone_bad_country",
            phonenumbers.ValidationResult.TOO_SHORT: "phone_too_short",
            phonenumbers.ValidationResult.TOO_LONG: "phone_too_long",
        }.get(reason, "phone_invalid")
        raise PhoneError(code, written, region)
    mobile = (
        phonenumbers.PhoneNumberType.MOBILE,
        phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
    )
    if phonenumbers.number_type(number) not in mobile:
        raise PhoneError("phone_not_mobile", written, region)
    return str(phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164))


#: A sender as the SMS providers write it: an Indian mobile number in E.164 already.
#: libphonenumber gives it back as it is, valid or not (a "+" number is read whatever
#: the region; no national prefix to strip before its 6-9), so it is not read again.
_E164_INDIAN_MOBILE: Final = re.compile(r"\+91[6-9]\d{9}")


def sender_number(text: str, region: str = DEFAULT_REGION) -> str:
    """Who a message came from, as users and contacts are stored: the E.164 form of a
    mobile number, else the text as given (a short code or a sender name is answered but
    is no registered user)."""
    if _E164_INDIAN_MOBILE.fullmatch(text):
        return text
    return _sender_number(text, region)


@functools.lru_cache(maxsize=4096)
def _sender_number(text: str, region: str) -> str:
    try:
        return normalize_phone(text, region)
    except PhoneError:
        return text.strip()


def example_mobile(region: str = DEFAULT_REGION) -> str:
    """An example mobile number of ``region`` without its country code (``8123456789``)."""
    phonenumbers = _library()
    number = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    if number is None:
        return "+919847012345"
    return str(phonenumbers.national_significant_number(number))


def phone_runs(text: str, min_digits: int = _OWNER_DIGITS) -> list[str]:
    """The runs of ``text`` written like a telephone number, with ``min_digits`` or more
    digits (a date like ``20-11-2026`` is not one)."""
    return [
        m.group(0)
        for m in _RUN.finditer(text)
        if _digits(m.group(0)) >= min_digits and not _DATE.match(m.group(0))
    ]


def looks_like_phone(text: str) -> bool:
    """Whether ``text`` holds a phone-like run of digits (seven or more)."""
    return bool(phone_runs(text, _PUBLIC_DIGITS))


def strip_phones(text: str) -> str:
    """``text`` without its phone-like runs of digits, spaces and commas tidied."""
    out = text
    for run in phone_runs(text, _PUBLIC_DIGITS):
        out = out.replace(run, " ")
    out = re.sub(r"\s+([,;.])", r"\1", out)
    out = re.sub(r"([,;])(?:\s*[,;])+", r"\1", out)
    return " ".join(out.split()).strip(" ,;")
