"""A case number written in Malayalam, Tamil or Kannada letters: ``പിവിഎൽ-3``, ``கேஎன்எம் 3``.

Owners write a pound's code as they say it, letter by letter (``പിവിഎൽ`` is "pee vee
el", PVL). ``latin_code`` reads such a word back into Latin letters, and gives the
code only when it spells exactly one of the configured pounds' codes (in Tamil ``பி``
is both B and P: the configuration decides). Digits of any script are read as digits.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping
from functools import cache
from types import MappingProxyType
from typing import Final

from bot.config import normalize_word

__all__ = ["LETTER_NAMES", "latin_case", "latin_code"]

#: Each Latin letter as Malayalam, Tamil and Kannada write its name.
LETTER_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "A": ("എ", "ഏ", "ஏ", "எ", "ಎ", "ಏ"),
        "B": ("ബി", "பி", "ಬಿ"),
        "C": ("സി", "சி", "ಸಿ"),
        "D": ("ഡി", "டி", "ಡಿ"),
        "E": ("ഇ", "ഈ", "இ", "ஈ", "ಇ", "ಈ"),
        "F": ("എഫ്", "எஃப்", "எப்", "ಎಫ್"),
        "G": ("ജി", "ஜி", "ಜಿ"),
        "H": ("എച്ച്", "എച്ച", "எச்", "ஹெச்", "ಎಚ್", "ಹೆಚ್"),
        "I": ("ഐ", "ஐ", "ಐ"),
        "J": ("ജെ", "ജേ", "ஜே", "ஜெ", "ಜೆ", "ಜೇ"),
        "K": ("കെ", "കേ", "கே", "கெ", "ಕೆ", "ಕೇ"),
        "L": ("എൽ", "എല്", "எல்", "ಎಲ್"),
        "M": ("എം", "എമ്", "எம்", "ಎಂ", "ಎಮ್"),
        "N": ("എൻ", "എന്", "என்", "ಎನ್"),
        "O": ("ഒ", "ഓ", "ஓ", "ஒ", "ಒ", "ಓ"),
        "P": ("പി", "பி", "ಪಿ"),
        "Q": ("ക്യു", "ക്യൂ", "க்யூ", "கியூ", "ಕ್ಯೂ", "ಕ್ಯು"),
        "R": ("ആർ", "ആര്", "ஆர்", "ಆರ್"),
        "S": ("എസ്", "எஸ்", "ಎಸ್"),
        "T": ("ടി", "டி", "ಟಿ"),
        "U": ("യു", "യൂ", "யு", "யூ", "ಯು", "ಯೂ"),
        "V": ("വി", "வி", "ವಿ"),
        "W": ("ഡബ്ല്യു", "ഡബ്ലിയു", "ഡബ്ല്യൂ", "டபிள்யூ", "டபிள்யு", "ಡಬ್ಲ್ಯೂ", "ಡಬ್ಲ್ಯು"),
        "X": ("എക്സ്", "எக்ஸ்", "ಎಕ್ಸ್"),
        "Y": ("വൈ", "வை", "ವೈ"),
        "Z": ("സെഡ്", "ഇസഡ്", "இசட்", "செட்", "ಜೆಡ್", "ಝಡ್"),
    }
)

_NAMES: Final = tuple(
    (normalize_word(name), letter) for letter, names in LETTER_NAMES.items() for name in names
)
#: A word (no digits, no spaces), then, maybe after a dash, a number of any script.
_SPELLED: Final = re.compile(r"^(?P<word>[^\d\s]+?)[-/.#]?(?P<number>\d{1,7})?$")
_LONGEST_CODE: Final = 6


def _readings(word: str) -> set[str]:
    """Every string of Latin letters ``word`` may spell, letter name by letter name."""

    @cache
    def rest(at: int) -> frozenset[str]:
        if at == len(word):
            return frozenset({""})
        found: set[str] = set()
        for name, letter in _NAMES:
            if word.startswith(name, at):
                found.update(letter + more for more in rest(at + len(name)))
        return frozenset(r for r in found if len(r) <= _LONGEST_CODE)

    return set(rest(0))


def latin_code(word: str, codes: Collection[str]) -> str | None:
    """The one code of ``codes`` that ``word`` (letters, dots between them allowed)
    spells, or None."""
    if word.isascii():
        return None
    spelled = _readings(normalize_word(word).replace(".", ""))
    found = [code for code in codes if code.upper() in spelled]
    return found[0].upper() if len(found) == 1 else None


def _digits(text: str) -> str:
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text)


def latin_case(token: str, codes: Collection[str]) -> str:
    """``token`` with a pound's code spelled in Malayalam, Tamil or Kannada letters
    written in Latin letters, and the digits of its number in Latin digits
    (``പിവിഎൽ-൩`` -> ``PVL-3``); any other token as it is."""
    match = _SPELLED.match(token)
    if match is None or token.isascii():
        return token
    word, number = match["word"], match["number"]
    code = latin_code(word, codes) if not word.isascii() else word
    if code is None:
        return token
    if number is None:
        return code
    return f"{code}-{_digits(number)}"
