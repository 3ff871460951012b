"""The proviso to s.13(3): the Director's order of another disposal."""

from __future__ import annotations

import pytest

from domain.errors import InvalidCaseError, TransitionRefusedError
from domain.events import DisposedOtherwise
from domain.s13_3_proviso import dispose_otherwise, office_named
from domain.stages import Stage
from tests.unit.domain_fixtures import AUCTION_FROM, case_in, rs

#: The office that holds the power, as configured: its name, its code and other names.
OFFICES = {
    "Director of Animal Husbandry": (
        "DIRECTOR",
        "മൃഗസംരക്ഷണ വകുപ്പ് ഡയറക്ടർ",
        "மிருக பராமரிப்பு இயக்குநர்",
        "Director, AH",
    )
}


def test_s13_3_proviso_other_disposal_records_the_directors_order() -> None:
    case = dispose_otherwise(
        case_in(Stage.NOTICE_POSTED),
        lot=0,
        count=2,
        manner="to a goshala",
        ordered_by="Director of Animal Husbandry",
        order_reference="DAH/1",
        proceeds=rs(100),
        on=AUCTION_FROM,
        today=AUCTION_FROM,
        offices=OFFICES,
    )
    event = case.last(DisposedOtherwise)
    assert isinstance(event, DisposedOtherwise)
    assert (event.ordered_by, event.order_reference) == ("Director of Animal Husbandry", "DAH/1")
    assert case.sale_outcome == "disposed_otherwise"


def test_s13_3_proviso_other_disposal_without_the_order_is_refused() -> None:
    with pytest.raises(InvalidCaseError) as caught:
        dispose_otherwise(
            case_in(Stage.NOTICE_POSTED),
            lot=0,
            count=2,
            manner="to a goshala",
            ordered_by="",
            order_reference="",
            proceeds=rs(0),
            on=AUCTION_FROM,
            today=AUCTION_FROM,
            offices=OFFICES,
        )
    assert caught.value.provision == "s.13(3) proviso"


@pytest.mark.parametrize(
    ("ordered_by", "office"),
    [
        ("Director of Animal Husbandry", "Director of Animal Husbandry"),
        ("director", "Director of Animal Husbandry"),
        ("  DIRECTOR of  animal husbandry ", "Director of Animal Husbandry"),
        ("Director, AH", "Director of Animal Husbandry"),
        ("മൃഗസംരക്ഷണ\u200c വകുപ്പ് ഡയറക്ടർ", "Director of Animal Husbandry"),
        ("Deputy Director of Panchayats", None),
        ("Panchayat Secretary for the Director", None),
        ("Director of Panchayats", None),
        ("Director of Animal Husbandry (in charge)", None),
        ("ഡയറക്ടർ", None),
        ("", None),
    ],
    ids=[
        "s.13(3) proviso: the office by its full name",
        "s.13(3) proviso: the office by its code, any case",
        "s.13(3) proviso: spacing and case aside",
        "s.13(3) proviso: the office by its short form",
        "s.13(3) proviso: in Malayalam, a zero-width joiner aside",
        "s.13(3) proviso: a deputy of another department is not the office",
        "s.13(3) proviso: someone acting for the Director is not the office",
        "s.13(3) proviso: another Director is not the office",
        "s.13(3) proviso: more than the name is not the name",
        "s.13(3) proviso: a word of the name is not the name",
        "s.13(3) proviso: nothing names no office",
    ],
)
def test_s13_3_proviso_only_the_office_itself_names_it(ordered_by: str, office: str | None) -> None:
    assert office_named(ordered_by, OFFICES) == office


@pytest.mark.parametrize("who", ["Deputy Director of Panchayats", "Secretary for the Director"])
def test_s13_3_proviso_another_disposal_ordered_by_another_office_is_refused(who: str) -> None:
    with pytest.raises(TransitionRefusedError) as caught:
        dispose_otherwise(
            case_in(Stage.NOTICE_POSTED),
            lot=0,
            count=1,
            manner="to a goshala",
            ordered_by=who,
            order_reference="DO-1",
            proceeds=rs(0),
            on=AUCTION_FROM,
            today=AUCTION_FROM,
            offices=OFFICES,
        )
    refused = caught.value
    assert (refused.provision, refused.reason) == ("s.13(3) proviso", "not_director")
    assert refused.facts == {"who": who}


def test_s13_3_proviso_the_order_is_recorded_as_the_office_is_named() -> None:
    case = dispose_otherwise(
        case_in(Stage.NOTICE_POSTED),
        lot=0,
        count=1,
        manner="to a goshala",
        ordered_by="director",
        order_reference="DO-1",
        proceeds=rs(0),
        on=AUCTION_FROM,
        today=AUCTION_FROM,
        offices=OFFICES,
    )
    event = case.last(DisposedOtherwise)
    assert isinstance(event, DisposedOtherwise)
    assert event.ordered_by == "Director of Animal Husbandry"
