"""s.18 barred buyers (the section's text is not in the material given; the classes are
configuration): names, phones and the offices a description names."""

from __future__ import annotations

import pytest

from bot.support.words import BUYER_TITLES_ALL
from domain.errors import BarredBuyerError, InvalidCaseError
from domain.events import LotOffered
from domain.s07_seizure import Person
from domain.s15_sale import offer_lot
from domain.s18_buyers import (
    BARRED_ROLES,
    DEFAULT_BARRED_CLASSES,
    BarredMatch,
    KnownPerson,
    barred_match,
    check_buyer,
    same_name,
)
from domain.stages import Stage
from tests.unit.case_helpers import Refused, _in, assert_refused
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    SALE_DAY,
    S,
    buyer,
    rs,
    three_cows_owner_refused,
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


def test_s18_the_barred_roles_are_officers_pound_keepers_and_members() -> None:
    assert {"officer", "pound_keeper", "member"} <= BARRED_ROLES


@pytest.mark.parametrize(
    "role",
    sorted(BARRED_ROLES),
    ids=[f"s.18: a {r.replace('_', ' ')} may not buy" for r in sorted(BARRED_ROLES)],
)
def test_s18_a_barred_buyer_is_refused_even_with_a_declaration(role: str) -> None:
    case = three_cows_owner_refused()
    with pytest.raises(BarredBuyerError) as caught:
        offer_lot(
            case,
            lot=0,
            count=1,
            price=rs(2000),
            buyer=buyer(),
            buyer_role=role,
            declared_not_barred=True,
            on=SALE_DAY,
            today=SALE_DAY,
        )
    assert caught.value.provision == "s.18"
    assert caught.value.code == "barred_buyer"


def test_s18_a_buyer_who_has_not_declared_they_are_not_barred_is_refused() -> None:
    with pytest.raises(BarredBuyerError) as caught:
        offer_lot(
            three_cows_owner_refused(),
            lot=0,
            count=1,
            price=rs(2000),
            buyer=buyer(),
            buyer_role=None,
            declared_not_barred=False,
            on=SALE_DAY,
            today=SALE_DAY,
        )
    assert caught.value.provision == "s.18"


def test_s18_check_buyer_itself_requires_the_declaration() -> None:
    with pytest.raises(BarredBuyerError) as caught:
        check_buyer(None, declared_not_barred=False)
    assert caught.value.provision == "s.18"


def test_s18_a_buyer_of_no_barred_role_who_declared_may_buy() -> None:
    check_buyer(None, declared_not_barred=True)
    check_buyer("farmer", declared_not_barred=True)
    case = offer_lot(
        three_cows_owner_refused(),
        lot=0,
        count=1,
        price=rs(2000),
        buyer=buyer(),
        buyer_role="farmer",
        declared_not_barred=True,
        on=SALE_DAY,
        today=SALE_DAY,
    )
    assert case.proceeds == rs(2000)


def test_s18_an_unsold_lot_needs_no_buyer() -> None:
    case = offer_lot(
        three_cows_owner_refused(),
        lot=0,
        count=3,
        price=None,
        buyer=None,
        buyer_role=None,
        declared_not_barred=False,
        on=SALE_DAY,
        today=SALE_DAY,
    )
    assert case.stage is Stage.SELLING
    assert case.heads_remaining == 3


# --- s.18: the buyer of a lot offered, refused as a step of the case ----------------------

#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.18: a sale needs the buyer's name",
        _in(S.NOTICE_POSTED),
        LotOffered(
            on=AUCTION_FROM,
            lot=0,
            count=1,
            price=rs(15000),
            buyer=Person("  "),
            buyer_declared_not_barred=True,
        ),
        InvalidCaseError,
        "s.18",
    ),
    Refused(
        "s.18: a buyer who has not declared they are not barred is refused",
        _in(S.NOTICE_POSTED),
        LotOffered(on=AUCTION_FROM, lot=0, count=1, price=rs(15000), buyer=buyer()),
        BarredBuyerError,
        "s.18",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)
