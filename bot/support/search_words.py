"""The words FIND looks for, in every language: a word of FIND stands for all the ways
the same thing may be written in a description (``bot/search_words.toml``: colours and
common marks, in English, Malayalam, Tamil, Kannada and Latin letters) and a kind of
cattle for every name the configuration gives it in every language, and its code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Final

from bot.support.spelling import normalize_word

__all__ = ["LANGUAGES", "VOCABULARY_PATH", "search_terms", "vocabulary"]

VOCABULARY_PATH: Final = Path(__file__).parents[1] / "search_words.toml"
#: The lists of each entry: the four languages, and the spellings in Latin letters.
LANGUAGES: Final = ("en", "ml", "ta", "kn", "latin")


@cache
def vocabulary() -> tuple[Mapping[str, tuple[str, ...]], ...]:
    """The entries of ``search_words.toml``, each its words by language."""
    with VOCABULARY_PATH.open("rb") as file:
        entries = tomllib.load(file)["words"]
    return tuple({lang: tuple(entry[lang]) for lang in LANGUAGES} for entry in entries)


@cache
def _index() -> Mapping[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for entry in vocabulary():
        words = tuple(dict.fromkeys(normalize_word(w) for ws in entry.values() for w in ws))
        for word in words:
            out[word] = words
    return out


def search_terms(word: str, kind_words: Mapping[str, Mapping[str, str]]) -> tuple[str, ...]:
    """What ``word`` may be written as in a case (any one of them matches): a kind's
    code and every name of it, an entry's words, or the word itself."""
    typed = normalize_word(word)
    kind = next((k[typed] for k in kind_words.values() if typed in k), None)
    if kind is not None:
        names = (w for k in kind_words.values() for w, code in k.items() if code == kind)
        return tuple(dict.fromkeys([kind, *names]))
    return _index().get(typed, (typed,))
