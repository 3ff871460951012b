"""s.18 barred buyers (the section's text is not in the material given; the classes are
configuration): names, phones and the offices a description names."""

from __future__ import annotations

import pytest

from bot.conversation.words import BUYER_TITLES_ALL
from domain.s07_seizure import Person
from domain.s18_buyers import (
    DEFAULT_BARRED_CLASSES,
    BarredMatch,
    KnownPerson,
    barred_match,
    same_name,
)

KNOWN = (
    KnownPerson("pound_keeper", "Velayudhan K", "+919847000010"),
    KnownPerson("officer", "Anitha Kumari", None),
    KnownPerson("member", "Jameela Beevi"),
)


@pytest.mark.parametrize(
    ("buyer", "known", "same"),
    [
        ("Velayudhan K", "Velayudhan K", True),
        ("K. Velayudhan", "Velayudhan K", True),
        ("velayudhan", "Velayudhan K", True),
        ("Velayudhan Nair", "Velayudhan", True),
        ("Mammu K", "Velayudhan K", False),
        ("Ayesha", "Anitha Kumari", False),
        ("", "Velayudhan", False),
    ],
)
def test_s18_names_match_initials_aside(buyer: str, known: str, same: bool) -> None:
    assert same_name(buyer, known) is same


@pytest.mark.parametrize(
    ("buyer", "phone", "match"),
    [
        (
            Person("Velayudhan K", "Kunnamangalam"),
            None,
            BarredMatch("pound_keeper", "Velayudhan K"),
        ),
        (Person("Sunil", "Perla"), "+919847000010", BarredMatch("pound_keeper", "Velayudhan K")),
        (Person("Jameela Beevi", "Pathimangalam"), None, BarredMatch("member", "Jameela Beevi")),
        (
            Person("SI Suresh", "Kunnamangalam police station"),
            None,
            BarredMatch("police_officer", "police", by_title=True),
        ),
        (
            Person("വാർഡ് മെമ്പർ ജമീല", "കുന്ദമംഗലം"),
            None,
            BarredMatch("member", "മെമ്പർ", by_title=True),
        ),
        (Person("Mammu", "Chathamangalam"), None, None),
        (Person("Simon", "Siruvani"), None, None),  # "si" only as a whole word
    ],
)
def test_s18_a_buyer_is_barred_by_a_registered_name_a_phone_or_an_office(
    buyer: Person, phone: str | None, match: BarredMatch | None
) -> None:
    found = barred_match(
        buyer, phone, classes=DEFAULT_BARRED_CLASSES, known=KNOWN, titles=BUYER_TITLES_ALL
    )
    assert found == match


def test_s18_only_the_configured_classes_are_barred() -> None:
    found = barred_match(
        Person("Velayudhan K", "Kunnamangalam"),
        None,
        classes=("police_officer", "officer", "member"),
        known=KNOWN,
        titles=BUYER_TITLES_ALL,
    )
    assert found is None
