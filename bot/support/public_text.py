"""The description of cattle as the public may read and search it.

The s.13(2)(a) notice, the proclamation, the public search (FIND) and the public
replies give "the number and description of the cattle", never a person's name or
telephone number. A keeper's description may hold both (``black buffalo OWNER
Kunhammed 9847012345`` was once stored whole), so what the public sees is the
description cut before an OWNER word (in any of the four languages), without the
names of the people of the case and without phone-like runs of digits. The place of
seizure likewise (``AT Kunhammed Haji's field ... OWNER Kunhammed Haji`` is shown as
``field``): a name of the owner or the seizer in it would tie a person to the case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from bot.config import normalize_word
from bot.conversation.words import CONNECTIVES
from bot.support.phones import strip_phones
from domain.s07_seizure import Lot, Seizure

__all__ = ["public_description", "public_lots", "public_place"]

_OWNER_WORDS: Final = frozenset(
    normalize_word(word) for words in CONNECTIVES["owner"].values() for word in words
)
_TOKEN: Final = re.compile(r"\S+")
_EDGE: Final = ".,;:!?()'\"-"
_MIN_NAME_WORD: Final = 3  # initials ("K.") say nothing alone; a shorter word may be a colour


def _before_owner(text: str) -> str:
    for token in _TOKEN.finditer(text):
        if normalize_word(token.group(0).strip(_EDGE)) in _OWNER_WORDS:
            return text[: token.start()]
    return text


def _without_names(text: str, names: Iterable[str]) -> str:
    words = {
        normalize_word(w.strip(_EDGE))
        for name in names
        for w in name.split()
        if len(w.strip(_EDGE)) >= _MIN_NAME_WORD
    }
    if not words:
        return text
    kept = [
        token
        for token in text.split()
        if normalize_word(token.strip(_EDGE).removesuffix("'s").removesuffix("’s")) not in words
    ]
    return " ".join(kept)


def public_description(text: str, names: Iterable[str] = ()) -> str:
    """``text`` before any OWNER word, without the words of ``names`` and without
    phone-like digits: ``black buffalo OWNER Kunhammed 9847012345`` -> ``black buffalo``."""
    return strip_phones(_without_names(_before_owner(text), names))


def _names(seizure: Seizure) -> list[str]:
    """The names of the people of a case: the owner and the seizer."""
    return [p.name for p in (seizure.owner, seizure.seizer) if p is not None]


def public_place(seizure: Seizure) -> str:
    """The place of seizure as the public may read it: without the words of the owner's
    and the seizer's names and without phone-like digits."""
    return strip_phones(_without_names(seizure.place_seized, _names(seizure)))


def public_lots(seizure: Seizure) -> tuple[Lot, ...]:
    """The lots of a seizure with their descriptions as the public may read them."""
    names = _names(seizure)
    return tuple(
        Lot(lot.kind, lot.count, public_description(lot.description, names)) for lot in seizure.lots
    )
