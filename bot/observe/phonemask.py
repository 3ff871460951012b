"""Telephone numbers in a log line, masked in whatever form they are written.

A number is masked to its prefix (``+91``, ``91``, ``0``, ``0091``: how it was written)
and its last four digits; every other digit becomes ``*``:

- ``+`` (or ``%2B``) and 8 to 15 digits: any country's number in E.164;
- a run of 10 to 15 digits that libphonenumber reads as a valid Indian number (mobile or
  landline): ``9847012345``, ``09847012345``, ``919847012345``, ``00919847012345``;
- the same written in groups: ``+91 98470 12345``, ``098470-12345``, ``(0471) 2345678``.

URL escapes count as separators (``%0A9847012345``, ``whatsapp%3A%2B91...``). What is not
a number stays: a run joined to letters or a word (``SM0123...``, a hex id), a run joined
by ``:`` or ``.`` to other digits (Telegram's ``<bot id>:<update id>``, ``4519.50``), and
runs that are no Indian number (``2026-12-06``, ``KNM-12``, a 19-digit DLT id, an epoch).
"""

from __future__ import annotations

import re
from types import ModuleType

__all__ = ["mask_numbers"]

#: A URL escape: read as the character it stands for only when it is a ``+``.
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
#: A run of digits, maybe after a ``+``.
_RUN = re.compile(r"\+?\d+")
#: Ten digits with a few separators between them: a number written in groups may be there.
_GROUPED = re.compile(r"\d(?:[ ().+/-]{0,3}\d){9}")
#: A + that cannot be the sign of a number: after a digit, or before anything but one.
_NOT_A_SIGN = re.compile(r"(?<=\d)\+|\+(?!\d)")
_E164 = range(8, 16)  # digits after a "+"
_BARE = range(10, 16)  # 10 digits, and a 0, 91 or 0091 before them


def _phonenumbers() -> ModuleType:
    """Imported on the first line with a long run of digits (it takes tens of ms)."""
    import phonenumbers

    return phonenumbers


def _national(digits: str) -> int | None:
    """The length of the national number when ``digits`` are a valid Indian number."""
    library = _phonenumbers()
    try:
        number = library.parse(digits, "IN")
    except library.NumberParseException:
        return None
    if number.country_code != 91 or not library.is_valid_number(number):
        return None
    return len(str(number.national_number))


def _alone(view: str, start: int, end: int) -> bool:
    """Whether ``view[start:end]`` stands alone: not part of a word or an id, not joined
    by ``:`` or ``.`` to other digits. A ``+`` is a boundary of its own (in a form body it
    is a space: ``OWNER+Kunhammed+9847012345``)."""
    before = view[start - 1] if start > 0 and view[start] != "+" else " "
    after = view[end] if end < len(view) else " "
    if before.isalnum() or before == "_" or after.isalnum() or after == "_":
        return False
    if before in ":." and start >= 2 and view[start - 2].isdigit():
        return False
    return not (after in ":." and end + 1 < len(view) and view[end + 1].isdigit())


def _star(chars: list[str], view: list[str], positions: list[int], kept: int) -> None:
    """Replace the digits at ``positions`` by ``*``, but the first ``kept`` and last four."""
    for i in positions[kept : len(positions) - 4]:
        chars[i] = view[i] = "*"


def _unescape(match: re.Match[str]) -> str:
    return "  +" if match.group().upper() == "%2B" else "   "


def mask_numbers(text: str) -> str:
    """``text`` with every telephone number masked (see the module's docstring)."""
    if not any(c.isdigit() for c in text):
        return text
    # A view of the same length, where escapes are separators and %2B is a +.
    seen = _ESCAPE.sub(_unescape, text)
    chars, view = list(text), list(seen)
    for match in _RUN.finditer(seen):
        start, end = match.span()
        plus = seen[start] == "+"
        digits = seen[start + plus : end]
        if len(digits) not in (_E164 if plus else _BARE) or not _alone(seen, start, end):
            continue
        national = _national(digits) if len(digits) >= _BARE.start else None
        if national is None and not plus:
            continue
        kept = len(digits) - national if national is not None else 2  # else: +CC****1234
        _star(chars, view, list(range(start + plus, end)), kept)
    # Such a + is a space of a form body (``98470+12345``, ``Body=DUES+%2B91+98470...``).
    seen = _NOT_A_SIGN.sub(" ", "".join(view))
    if _GROUPED.search(seen):
        library = _phonenumbers()
        for found in library.PhoneNumberMatcher(seen, "IN", leniency=library.Leniency.VALID):
            number = found.number
            if number.country_code != 91 or not _alone(seen, found.start, found.end):
                continue
            positions = [i for i in range(found.start, found.end) if seen[i].isdigit()]
            kept = len(positions) - len(str(number.national_number))
            _star(chars, view, positions, kept)
    return "".join(chars)
