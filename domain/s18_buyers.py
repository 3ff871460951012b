"""Who may not buy at a pound sale (s.18).

The text of s.18 is NOT in the material the project was given (only ss.13-17 are); what
is known of it from public sources is that officers, pound-keepers and members of the
local authority may not buy at these sales. The barred classes are therefore data, not
code: the configuration lists them (``[policy] barred_buyers``), by default the four
below; this module only says whether a buyer falls in one of the listed classes.

A buyer is barred when
- their name or phone matches a registered pound-keeper or officer, of any pound or
  authority (a keeper of another pound is still a pound-keeper), or a member of a local
  authority listed in the configuration; or
- their description names a barred office ("SI Suresh, Kunnamangalam police station",
  "Ward member Jameela"), by the words given for each class
  (``bot.support.words.BUYER_TITLES``,
  in the four languages).
Every sale also needs the buyer's explicit declaration (``domain.s15_sale.check_buyer``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from domain.errors import BarredBuyerError, BuyerNotDeclaredError
from domain.provisions import cites

if TYPE_CHECKING:  # (the configuration reads the barred classes without the seizure)
    from domain.s07_seizure import Person

__all__ = [
    "BARRED_ROLES",
    "DEFAULT_BARRED_CLASSES",
    "BarredMatch",
    "KnownPerson",
    "barred_match",
    "check_buyer",
    "same_name",
]

#: The classes barred by default (s.18, as publicly known): a police officer, an officer
#: of the local authority, a member of the local authority, a pound-keeper.
DEFAULT_BARRED_CLASSES: tuple[str, ...] = ("police_officer", "officer", "member", "pound_keeper")

# A word: a run of anything but spaces and punctuation (``\w`` would split Malayalam,
# Tamil and Kannada words at their vowel signs).
_WORD = re.compile(r"[^\s,.;:!?()\[\]/\\'\"-]+")


class KnownPerson(NamedTuple):
    """A person poundbot knows to be in a barred class: a registered keeper or officer,
    or a member listed in the configuration; ``phone`` in E.164 when known."""

    barred_as: str
    name: str
    phone: str | None = None


class BarredMatch(NamedTuple):
    """Why a buyer is barred: the class, and the name or word that showed it."""

    barred_as: str
    matched: str
    by_title: bool = False  # ``matched`` is a word of the description, not a person


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(unicodedata.normalize("NFC", text))]


@cites("s.18")
def same_name(buyer: str, known: str) -> bool:
    """Whether two written names may be the same person's: initials aside, every word of
    the shorter name is in the longer one, so "Velayudhan K", "K. Velayudhan" and
    "Velayudhan" are one name. Cautious on purpose: a refusal names whom it matched."""

    def main(words: list[str]) -> set[str]:
        return {w for w in words if len(w) > 1} or set(words)

    a, b = main(_words(buyer)), main(_words(known))
    if not a or not b:
        return False
    return a <= b or b <= a


def _names_title(description: str, title: str) -> bool:
    """Whether ``title`` (one or more words) appears as whole words in ``description``."""
    said, wanted = _words(description), _words(title)
    n = len(wanted)
    return n > 0 and any(said[i : i + n] == wanted for i in range(len(said) - n + 1))


@cites("s.18")
def barred_match(
    buyer: Person,
    phone: str | None,
    *,
    classes: Iterable[str],
    known: Iterable[KnownPerson],
    titles: Mapping[str, Iterable[str]],
) -> BarredMatch | None:
    """The barred class ``buyer`` falls in, with what showed it, or None.

    ``classes`` are the barred classes of the configuration; ``known`` the registered
    keepers and officers and the listed members; ``titles`` the words, per class, that
    name its offices in a buyer's description (name and residence).
    """
    barred = tuple(classes)
    for person in known:
        if person.barred_as not in barred:
            continue
        if phone is not None and person.phone is not None and phone == person.phone:
            return BarredMatch(person.barred_as, person.name)
        if same_name(buyer.name, person.name):
            return BarredMatch(person.barred_as, person.name)
    description = f"{buyer.name} {buyer.residence}"
    for barred_as in barred:
        for title in titles.get(barred_as, ()):
            if _names_title(description, title):
                return BarredMatch(barred_as, title, by_title=True)
    return None


#: Who may not buy at a sale under this Act by default (s.18; the configuration may
#: change the list: see ``domain.s18_buyers``).
BARRED_ROLES = frozenset(DEFAULT_BARRED_CLASSES)


@cites("s.18")
def check_buyer(
    barred: BarredMatch | str | None,
    declared_not_barred: bool,
    classes: tuple[str, ...] = DEFAULT_BARRED_CLASSES,
) -> None:
    """s.18 (its text is not in the material given; see ``domain.s18_buyers``): a police
    officer, an officer or member of the local authority, or a pound-keeper may not buy.

    ``barred`` is what poundbot found of the buyer (``domain.s18_buyers.barred_match``, or a
    class code); the buyer's own explicit declaration is required in every case.
    """
    if isinstance(barred, str) and barred in BARRED_ROLES:
        barred = BarredMatch(barred, "")
    if isinstance(barred, BarredMatch):
        raise BarredBuyerError(
            f"a {barred.barred_as.replace('_', ' ')} may not buy at this sale",
            "s.18",
            barred_as=barred.barred_as,
            matched=barred.matched,
            by_title=barred.by_title,
        )
    if not declared_not_barred:
        raise BuyerNotDeclaredError(
            "the buyer must declare they are not barred", "s.18", classes=classes
        )
