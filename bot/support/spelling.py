"""Words one letter apart, counting letters as people see them; words as compared.

A Malayalam, Tamil or Kannada letter is a consonant with its vowel sign, virama and
the consonants a virama joins to it (``ക്ക``, ``ശ്ശി``): one key press to the eye, several
code points. ``letters`` splits a word so (the standard library has no grapheme
clusters); ``one_edit_apart`` says whether one letter put in, taken out, changed, or
two neighbours swapped turns one word into the other. ``words_of`` splits a text into
words so; ``normalize_word`` and ``searchable_name`` give a word or a name in one
spelling (the desk's search compares names so).
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = [
    "MIN_LETTERS",
    "NAME_LENGTH",
    "letters",
    "normalize_word",
    "one_edit_apart",
    "searchable_name",
    "words_of",
]

#: Words shorter than this (in letters) are never read as another: too many are close.
MIN_LETTERS: Final = 4
#: The virama of Malayalam, Tamil and Kannada: it joins the next consonant to a letter.
_VIRAMAS: Final = frozenset("\u0d4d\u0bcd\u0ccd")
_JOINERS: Final = frozenset("\u200c\u200d")


def letters(word: str) -> list[str]:
    """``word`` as the letters a reader sees: each base character with the signs that
    follow it, and, after a virama, the consonant it joins."""
    out: list[str] = []
    for char in word:
        joined = bool(out) and (
            unicodedata.category(char) in {"Mn", "Mc", "Me"}
            or char in _JOINERS
            or (out[-1][-1] in _VIRAMAS and unicodedata.category(char) == "Lo")
        )
        if joined:
            out[-1] += char
        else:
            out.append(char)
    return out


def one_edit_apart(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one letter put in, taken out, changed,
    or two neighbours swapped (both at least ``MIN_LETTERS`` letters long)."""
    x, y = letters(a), letters(b)
    if x == y or min(len(x), len(y)) < MIN_LETTERS or abs(len(x) - len(y)) > 1:
        return False
    if len(x) > len(y):
        x, y = y, x
    i = 0
    while i < len(x) and x[i] == y[i]:
        i += 1
    if len(x) < len(y):  # one letter put in
        return x[i:] == y[i + 1 :]
    if x[i + 1 :] == y[i + 1 :]:  # one letter changed
        return True
    # two neighbours swapped
    return i + 1 < len(x) and x[i] == y[i + 1] and x[i + 1] == y[i] and x[i + 2 :] == y[i + 2 :]


# Malayalam chillu letters typed the old way: consonant, virama, zero-width joiner.
_CHILLU = {"ണ്\u200d": "ൺ", "ന്\u200d": "ൻ", "ര്\u200d": "ർ", "ല്\u200d": "ൽ", "ള്\u200d": "ൾ"}


def normalize_word(word: str) -> str:
    """A word for a kind as compared: NFC, casefolded, single-spaced, old-style Malayalam
    chillus made atomic and zero-width (non-)joiners dropped."""
    return _plain(word.casefold())


def _plain(text: str) -> str:
    """``text`` NFC, single-spaced, old-style chillus atomic, zero-width (non-)joiners
    dropped: as it reads, in one spelling."""
    text = unicodedata.normalize("NFC", text)
    for old, new in _CHILLU.items():
        text = text.replace(old, new)
    return " ".join(text.replace("\u200c", "").replace("\u200d", "").split())


#: The longest owner's name kept for the desk's search (``cases.owner_name``).
NAME_LENGTH: Final = 200


def searchable_name(name: str) -> str | None:
    """A person's name as the desk's search compares it, case kept (``normalize_word``
    less the casefolding, which the search does): None for no name; at most
    ``NAME_LENGTH`` characters."""
    kept = _plain(name)[:NAME_LENGTH].rstrip()
    return kept or None


def words_of(text: str) -> list[str]:
    """The words of ``text`` as a reader sees them: runs of letters and digits with the
    vowel signs, viramas and joiners that belong to them (a regular expression's ``\\w``
    breaks ``കുഞ്ഞമ്മദ്`` at each sign)."""
    words: list[str] = []
    current: list[str] = []
    for char in text:
        if char.isalnum() or char == "_" or _signs(char):
            current.append(char)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def _signs(char: str) -> bool:
    return char in _JOINERS or unicodedata.category(char) in {"Mn", "Mc", "Me"}
