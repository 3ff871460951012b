"""s.13: the report of unclaimed cattle, the notice and its proclamation, the auction."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from domain.case import provision_of
from domain.errors import (
    BackwardsDateError,
    CorrectionRefusedError,
    InvalidCaseError,
    TooEarlyError,
    TransitionRefusedError,
)
from domain.events import AuctionScheduled, ClaimedAndPaid, LotOffered
from domain.money import Money
from domain.s13_unclaimed import (
    auction_allowed_from,
    check_notice_printable,
    proclamation_places,
    report_due_on,
    village_and_market,
)
from domain.s15_3_account import refuse_account
from domain.s15_sale import close_sale
from tests.unit.case_helpers import (
    REFUSED_ON,
    SOLD_ON,
    Allowed,
    Refused,
    _in,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    NOTICE_ON,
    REPORT_DUE,
    S,
    case_in,
    correct_impounding_day,
    notice,
    open_case,
    owner_refused,
    report,
    rs,
    sale,
    sample_tariff,
    step,
    unsold,
)


def test_s13_1_correcting_the_impounding_day_before_the_report_moves_the_report_day() -> None:
    corrected = step(case_in(S.IMPOUNDED), correct_impounding_day(date(2026, 2, 27), IMPOUNDED_ON))
    assert report_due_on(corrected.seizure.impounded_on) == date(2026, 3, 7)
    assert step(corrected, report(date(2026, 3, 7))).stage is S.REPORTED


def test_s13_1_the_report_is_due_the_day_after_seven_days_from_impounding() -> None:
    assert report_due_on(IMPOUNDED_ON) == REPORT_DUE  # 1 March: the 7 days end on 8 March


def test_s13_3_the_auction_is_lawful_the_day_after_seven_days_from_the_notice() -> None:
    assert auction_allowed_from(NOTICE_ON) == AUCTION_FROM  # 10 March: from 18 March


def test_s13_2_no_notice_before_the_cattle_are_unclaimed_seven_days() -> None:
    with pytest.raises(TooEarlyError) as refused:
        check_notice_printable(case_in(S.IMPOUNDED), date(2026, 3, 8))
    assert refused.value.lawful_from == REPORT_DUE
    check_notice_printable(case_in(S.IMPOUNDED), REPORT_DUE)


def test_s13_2_no_notice_of_cattle_that_left_the_pound() -> None:
    with pytest.raises(TransitionRefusedError):
        check_notice_printable(case_in(S.RELEASED), date(2026, 4, 1))


MARKETS = {"Kunnamangalam": "Kunnamangalam market", "Chathamangalam": "Chathamangalam chanda"}
DEFAULT = ("Panchayat village", "Panchayat market")


def test_s13_2_the_market_nearest_the_place_of_seizure_is_that_of_its_village() -> None:
    found = village_and_market("field near Chathamangalam school", (MARKETS,), DEFAULT)
    assert found == ("Chathamangalam", "Chathamangalam chanda")


def test_s13_2_the_pounds_list_is_read_before_the_authoritys() -> None:
    pound = {"Chathamangalam": "Pound-side market"}
    found = village_and_market("Chathamangalam", (pound, MARKETS), DEFAULT)
    assert found == ("Chathamangalam", "Pound-side market")


def test_s13_2_a_place_no_list_names_is_proclaimed_in_the_authoritys_village() -> None:
    assert village_and_market("a paddy field", (MARKETS,), DEFAULT) == DEFAULT


def test_s13_2_the_drum_is_beaten_in_the_village_and_the_market_whatever_was_named() -> None:
    assert proclamation_places((), "Kunnamangalam", "Kunnamangalam market") == (
        "Kunnamangalam",
        "Kunnamangalam market",
    )
    assert proclamation_places(("Temple junction",), "Kunnamangalam", "Kunnamangalam market") == (
        "Temple junction",
        "Kunnamangalam market",
    )
    assert proclamation_places(
        ("kunnamangalam  MARKET",), "Kunnamangalam", "Kunnamangalam market"
    ) == ("Kunnamangalam", "Kunnamangalam market")  # the market, as configured


# --- s.13(1) to (3): the report, the notice and the auction as steps of the case ----------

#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
ALLOWED = [
    Allowed(
        "s.13(1): unclaimed cattle are reported on the eighth day",
        _in(S.IMPOUNDED),
        report(REPORT_DUE),
        S.REPORTED,
    ),
    Allowed(
        "s.13(2): the notice follows the report",
        _in(S.REPORTED),
        notice(NOTICE_ON),
        S.NOTICE_POSTED,
    ),
    Allowed(
        "s.13(2): the notice may be posted thereupon, the day of the report",
        _in(S.REPORTED),
        notice(REPORT_DUE),
        S.NOTICE_POSTED,
    ),
    Allowed(
        "s.13(3): an auction fixed after the notice keeps the case noticed",
        _in(S.NOTICE_POSTED),
        AuctionScheduled(on=date(2026, 3, 11), auction_on=AUCTION_FROM, place="market"),
        S.NOTICE_POSTED,
    ),
    Allowed(
        "s.13(3): the first lot sold after the notice starts the sale",
        _in(S.NOTICE_POSTED),
        sale(0, 1, rs(15000), AUCTION_FROM),
        S.SELLING,
    ),
    Allowed(
        "s.13(3): a lot offered and not sold also starts the sale",
        _in(S.NOTICE_POSTED),
        unsold(0, 2, AUCTION_FROM),
        S.SELLING,
    ),
    Allowed(
        "s.13(3): a further lot sold keeps the sale going",
        _in(S.SELLING),
        sale(0, 1, rs(12000), date(2026, 3, 19)),
        S.SELLING,
    ),
    Allowed(
        "s.13(3): a further auction day fixed during the sale",
        _in(S.SELLING),
        AuctionScheduled(on=date(2026, 3, 19), auction_on=date(2026, 3, 25), place="market"),
        S.SELLING,
    ),
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.13(2): a notice before the report is refused",
        _in(S.IMPOUNDED),
        notice(REPORT_DUE),
        TransitionRefusedError,
        "s.13(2)",
    ),
    Refused(
        "s.13(3): an auction lot before the notice is refused",
        _in(S.REPORTED),
        sale(0, 1, rs(15000), AUCTION_FROM),
        TransitionRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): an auction fixed before the notice is refused",
        _in(S.REPORTED),
        AuctionScheduled(on=REPORT_DUE, auction_on=AUCTION_FROM, place="market"),
        TransitionRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): an auction lot while merely impounded is refused",
        _in(S.IMPOUNDED),
        sale(0, 1, rs(15000), REPORT_DUE),
        TransitionRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): a claim once a head is sold is refused",
        _in(S.SELLING),
        ClaimedAndPaid(on=date(2026, 3, 19), paid=rs(3000)),
        TransitionRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.13(1): a later impounding day that makes the report made too early is refused",
        _in(S.REPORTED),
        correct_impounding_day(date(2026, 3, 2), REPORT_DUE),
        CorrectionRefusedError,
        "s.13(1)",
    ),
    Refused(
        "s.13(1): a case already reported cannot be reported again",
        _in(S.REPORTED),
        report(date(2026, 3, 10)),
        TransitionRefusedError,
        "s.13(1)",
    ),
    Refused(
        "s.13(3): selling more heads than a lot has left is refused",
        _in(S.SELLING),
        sale(0, 2, rs(15000), date(2026, 3, 19)),
        InvalidCaseError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): selling from a lot the case does not have is refused",
        _in(S.NOTICE_POSTED),
        sale(1, 1, rs(15000), AUCTION_FROM),
        InvalidCaseError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): offering no heads at all is refused",
        _in(S.NOTICE_POSTED),
        sale(0, 0, rs(15000), AUCTION_FROM),
        InvalidCaseError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): a sale needs a price above nothing",
        _in(S.NOTICE_POSTED),
        sale(0, 1, Money(0), AUCTION_FROM),
        InvalidCaseError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3): an auction cannot be fixed for a day before the day it is fixed",
        _in(S.NOTICE_POSTED),
        AuctionScheduled(on=date(2026, 3, 20), auction_on=date(2026, 3, 19), place="market"),
        BackwardsDateError,
        "s.13(3)",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)


def test_s13_3_the_sale_of_unclaimed_cattle_cannot_close_with_heads_unsold() -> None:
    selling = case_in(S.SELLING)  # one of two cows sold
    with pytest.raises(TransitionRefusedError, match="1 head still unsold") as caught:
        close_sale(
            selling, sample_tariff(), on=date(2026, 3, 19), expenses=rs(0), today=date(2026, 3, 19)
        )
    assert caught.value.provision == "s.13(3)"


def test_s13_3_an_unsold_lot_does_not_let_the_unclaimed_sale_close() -> None:
    case = step(case_in(S.NOTICE_POSTED), unsold(0, 2, AUCTION_FROM))
    with pytest.raises(TransitionRefusedError) as caught:
        close_sale(case, sample_tariff(), on=AUCTION_FROM, expenses=rs(0), today=AUCTION_FROM)
    assert caught.value.provision == "s.13(3)"


def test_the_auction_and_its_lots_cite_the_route_they_were_taken_on_s13_3_s15_1() -> None:
    """The owner refused to pay: the auction is fixed and the lots offered under s.15(1);
    the owner refused the account of that sale: the rest go the s.13 way, their auction
    and lots under s.13(3) (s.15(5)). Unclaimed from the first: s.13(3) throughout."""
    fixed = AuctionScheduled(on=REFUSED_ON, auction_on=SOLD_ON, place="Kulathoor market")
    owners = step(open_case(), owner_refused(REFUSED_ON), fixed, sale(0, 1, rs(1000), SOLD_ON))
    closed, _ = close_sale(owners, sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON)
    refused = refuse_account(closed, on=SOLD_ON, today=SOLD_ON)
    second_notice = NOTICE_ON + timedelta(days=10)
    rest = step(
        refused,
        report(second_notice),
        notice(second_notice),
        sale(0, 1, rs(2000), second_notice + timedelta(days=8)),
    )
    cited = dict(zip(rest.events, rest.provisions, strict=True))
    lots = [cited[e] for e in rest.events if isinstance(e, LotOffered)]
    assert cited[fixed] == "s.15(1)"
    assert lots == ["s.15(1)", "s.13(3)"]
    unclaimed = step(open_case(), report(), notice(), sale(0, 2, rs(2000), AUCTION_FROM))
    assert unclaimed.provisions[-1] == "s.13(3)"
    assert provision_of(fixed, owner_appeared=True) == "s.15(1)"
    assert provision_of(fixed) == "s.13(3)"
