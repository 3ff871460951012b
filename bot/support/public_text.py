"""The description of cattle as the public may read and search it.

The s.13(2)(a) notice, the proclamation, the public search (FIND) and the public
replies give "the number and description of the cattle", never a person's name or
telephone number. A keeper's description may hold both (``black buffalo OWNER
Kunhammed 9847012345`` was once stored whole), so what the public sees is the
description cut before an OWNER word (in any of the four languages), without the
names of the people of the case and without phone-like runs of digits. The place of
seizure likewise (``AT Kunhammed Haji's field ... OWNER Kunhammed Haji`` is shown as
``field``): a name of the owner or the seizer in it would tie a person to the case. A
name is left out alone and with a case ending (``കുഞ്ഞമ്മദിന്റെ പറമ്പ്``,
``Kunhammed-Haji's``), by the one rule of ``bot.support.person_names``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from bot.support.person_names import without_names
from bot.support.phones import strip_phones
from bot.support.spelling import normalize_word
from bot.support.words import CONNECTIVES
from domain.s07_seizure import Lot, Seizure

__all__ = ["public_description", "public_lots", "public_place", "public_words"]

_OWNER_WORDS: Final = frozenset(
    normalize_word(word) for words in CONNECTIVES["owner"].values() for word in words
)
_TOKEN: Final = re.compile(r"\S+")
_EDGE: Final = ".,;:!?()'\"-"


def _before_owner(text: str) -> str:
    for token in _TOKEN.finditer(text):
        if normalize_word(token.group(0).strip(_EDGE)) in _OWNER_WORDS:
            return text[: token.start()]
    return text


def public_description(text: str, names: Iterable[str] = ()) -> str:
    """``text`` before any OWNER word, without the words of ``names`` (alone or with a
    case ending) and without phone-like digits: ``black buffalo OWNER Kunhammed
    9847012345`` -> ``black buffalo``."""
    return strip_phones(without_names(_before_owner(text), names))


def _names(seizure: Seizure) -> list[str]:
    """The names of the people of a case: the owner and the seizer."""
    return [p.name for p in (seizure.owner, seizure.seizer) if p is not None]


def public_words(text: str, seizure: Seizure) -> str:
    """A text of a case (a place) as the public may read it: without the words of the
    owner's and the seizer's names, alone or with a case ending, and without phone-like
    digits. A text with nothing to leave out is given back as it is (a configured place
    keeps its names in the other languages: ``bot.config.names.local``)."""
    public = strip_phones(without_names(text, _names(seizure)))
    return text if public == text else public


def public_place(seizure: Seizure) -> str:
    """The place of seizure as the public may read it (``public_words``)."""
    return public_words(seizure.place_seized, seizure)


def public_lots(seizure: Seizure) -> tuple[Lot, ...]:
    """The lots of a seizure with their descriptions as the public may read them."""
    names = _names(seizure)
    return tuple(
        Lot(lot.kind, lot.count, public_description(lot.description, names)) for lot in seizure.lots
    )
