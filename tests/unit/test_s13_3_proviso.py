"""The proviso to s.13(3): the Director's order of another disposal."""

from __future__ import annotations

import pytest

from domain.errors import InvalidCaseError
from domain.events import DisposedOtherwise
from domain.s13_3_proviso import dispose_otherwise
from domain.stages import Stage
from tests.unit.domain_fixtures import AUCTION_FROM, case_in, rs


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
        )
    assert caught.value.provision == "s.13(3) proviso"
