"""What a posted notice stated, corrected (s.13(2), s.13(3)).

The notice states the number and description of the cattle, the place seized and the
place impounded. Once cattle were offered on it (a lot offered, sold or not, or disposed
of otherwise) those facts stay as posted, at every later stage; before that, a correction
of them supersedes the notice: the auction fixed on it is cancelled, the new notice is
due the day of the correction and the s.13(3) deadlines of the old one are gone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta

import pytest

from domain.case import Case
from domain.deadlines import DeadlineKind, deadlines
from domain.errors import CorrectionRefusedError, TransitionRefusedError
from domain.events import (
    AuctionScheduled,
    ClaimedAndPaid,
    CreditedToFund,
    SeizureCorrected,
)
from domain.s07_seizure import Lot, Person, Seizure
from domain.s15_3_account import refuse_account
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    NOTICE_ON,
    REPORT_DUE,
    S,
    case_in,
    disposal,
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

FIXED = AuctionScheduled(on=NOTICE_ON, auction_on=AUCTION_FROM, place="Kazhakkoottam market")


def _place(seizure: Seizure) -> Seizure:
    return replace(seizure, place_seized=f"{seizure.place_seized}, east gate")


def _description(seizure: Seizure) -> Seizure:
    first = seizure.lots[0]
    return replace(seizure, lots=(Lot(first.kind, first.count, f"{first.description}, star"),))


def _owner(seizure: Seizure) -> Seizure:
    return replace(seizure, owner=Person("Ramesan", "Kazhakkoottam"))


def _unsold_on_the_notice() -> Case:
    """s.13(3): both cows offered on 18 Mar and not sold (no money moved)."""
    return step(case_in(S.NOTICE_POSTED), FIXED, unsold(0, 2, AUCTION_FROM))


def _disposed_on_the_notice() -> Case:
    """s.13(3) proviso: one cow disposed of otherwise by the Director's order."""
    return step(case_in(S.NOTICE_POSTED), disposal(0, 1, AUCTION_FROM, rs(500)))


def _in_deposit() -> Case:
    """Both cows sold on 18 Mar on the notice, the surplus in deposit (s.16(3))."""
    return case_in(S.IN_DEPOSIT)


def _credited_to_fund() -> Case:
    """The deposit credited to the fund after three months: the case is closed (s.17(1))."""
    return step(case_in(S.IN_DEPOSIT), CreditedToFund(on=date(2026, 6, 19)))


def _released_after_unsold() -> Case:
    """Offered and not sold, then the owner paid (s.12): released."""
    case = _unsold_on_the_notice()
    return case.apply(ClaimedAndPaid(on=AUCTION_FROM, paid=rs(2240)), today=AUCTION_FROM)


def _owners_route_after_the_notice() -> Case:
    """The notice posted on 10 Mar, then the owner appeared and refused (s.15(1)); one cow
    sold on the auction fixed while the notice stood, the sale settled: the account due."""
    refused = step(
        open_case(),
        report(),
        notice(),
        owner_refused(date(2026, 3, 11)),
        AuctionScheduled(on=date(2026, 3, 11), auction_on=date(2026, 3, 13), place="market"),
        sale(0, 1, rs(20000), date(2026, 3, 13)),
    )
    on = date(2026, 3, 13)
    return close_sale(refused, sample_tariff(), on=on, expenses=rs(200), today=on)[0]


def _account_refused_after_the_notice() -> Case:
    """The owner refused the account (s.15(5)): the cow left is deemed unclaimed."""
    on = date(2026, 3, 14)
    return refuse_account(_owners_route_after_the_notice(), on=on, today=on)


def _second_notice_offered() -> Case:
    """The first notice superseded by a correction, a second posted on 20 Mar and a cow
    sold on it on 28 Mar."""
    case = case_in(S.NOTICE_POSTED)
    corrected = SeizureCorrected(on=date(2026, 3, 12), seizure=_place(case.seizure), reason="typo")
    second = notice(date(2026, 3, 20))
    return step(case, corrected, second, sale(0, 1, rs(15000), date(2026, 3, 28)))


OFFERED: list[tuple[str, Callable[[], Case], Stage, date]] = [
    ("selling, a lot offered and not sold", _unsold_on_the_notice, S.SELLING, NOTICE_ON),
    ("selling, a head sold", lambda: case_in(S.SELLING), S.SELLING, NOTICE_ON),
    ("selling, a head disposed of otherwise", _disposed_on_the_notice, S.SELLING, NOTICE_ON),
    ("in deposit, the sale settled", _in_deposit, S.IN_DEPOSIT, NOTICE_ON),
    ("closed, the deposit credited to the fund", _credited_to_fund, S.CLOSED, NOTICE_ON),
    ("released after an auction with no buyer", _released_after_unsold, S.RELEASED, NOTICE_ON),
    (
        "account due, sold while the notice stood",
        _owners_route_after_the_notice,
        S.ACCOUNT_DUE,
        NOTICE_ON,
    ),
    (
        "deemed unclaimed after the account was refused",
        _account_refused_after_the_notice,
        S.DEEMED_UNCLAIMED,
        NOTICE_ON,
    ),
    ("selling on a second notice", _second_notice_offered, S.SELLING, date(2026, 3, 20)),
]

FACTS = [("the place seized", _place), ("the cattle's description", _description)]


@pytest.mark.parametrize(
    ("build", "stage", "posted"),
    [(build, stage, posted) for _, build, stage, posted in OFFERED],
    ids=[f"s.13(2): refused when {name}" for name, *_ in OFFERED],
)
@pytest.mark.parametrize("change", [c for _, c in FACTS], ids=[n for n, _ in FACTS])
def test_what_the_notice_stated_cannot_be_corrected_once_cattle_were_offered_on_it(
    build: Callable[[], Case],
    stage: Stage,
    posted: date,
    change: Callable[[Seizure], Seizure],
) -> None:
    case = build()
    assert case.stage is stage
    on = case.last_event_on + timedelta(days=1)
    event = SeizureCorrected(on=on, seizure=change(case.seizure), reason="written wrongly")
    with pytest.raises(CorrectionRefusedError) as caught:
        case.apply(event, today=on)
    assert caught.value.provision == "s.13(2)"
    assert caught.value.reason == "notice_offered"
    assert caught.value.facts == {"date": posted}
    assert case.notice_offered_on is not None
    assert case.notice_offered_on.on == posted


@pytest.mark.parametrize(
    "build",
    [build for _, build, stage, _ in OFFERED if stage not in (S.CLOSED, S.RELEASED)],
    ids=[
        f"s.7: the owner's name still corrected when {name}"
        for name, _, stage, _ in OFFERED
        if stage not in (S.CLOSED, S.RELEASED)
    ],
)
def test_a_fact_the_notice_does_not_state_is_still_corrected_after_the_offer(
    build: Callable[[], Case],
) -> None:
    case = build()
    on = case.last_event_on + timedelta(days=1)
    after = case.apply(
        SeizureCorrected(on=on, seizure=_owner(case.seizure), reason="name misspelt"), today=on
    )
    assert after.stage is case.stage
    assert after.seizure.owner == Person("Ramesan", "Kazhakkoottam")
    assert after.notice == case.notice


def test_a_closed_case_says_why_its_notice_facts_cannot_be_corrected_and_the_rest_by_stage() -> (
    None
):
    case = _credited_to_fund()
    on = date(2026, 6, 20)
    with pytest.raises(TransitionRefusedError) as caught:
        case.apply(SeizureCorrected(on=on, seizure=_owner(case.seizure), reason="name"), today=on)
    assert caught.value.reason == "stage"


def test_on_the_owners_route_with_no_notice_the_place_is_still_corrected() -> None:
    case = case_in(S.ACCOUNT_DUE)  # refused on 4 Mar, sold 6 Mar: no notice was posted
    assert case.notice_offered_on is None
    on = date(2026, 3, 7)
    after = case.apply(
        SeizureCorrected(on=on, seizure=_place(case.seizure), reason="written wrongly"), today=on
    )
    assert after.seizure.place_seized.endswith(", east gate")
    assert after.stage is S.ACCOUNT_DUE


# --- before an offer: the correction supersedes the notice ------------------------------------


@pytest.mark.parametrize("change", [c for _, c in FACTS], ids=[n for n, _ in FACTS])
def test_before_any_offer_a_correction_supersedes_the_notice_and_cancels_the_auction(
    change: Callable[[Seizure], Seizure],
) -> None:
    fixed = step(case_in(S.NOTICE_POSTED), FIXED)
    on = date(2026, 3, 12)
    after = fixed.apply(
        SeizureCorrected(on=on, seizure=change(fixed.seizure), reason="written wrongly"), today=on
    )
    assert after.stage is S.REPORTED
    assert after.notice is None
    assert after.scheduled_auction is None
    assert after.superseded_notice is not None
    assert after.superseded_notice.on == NOTICE_ON
    assert after.cancelled_auction == FIXED
    assert after.superseding is not None
    assert after.superseding.on == on
    assert after.notice_offered_on is None


def test_a_notice_superseded_with_no_auction_fixed_cancels_none() -> None:
    posted = case_in(S.NOTICE_POSTED)
    on = date(2026, 3, 12)
    after = posted.apply(
        SeizureCorrected(on=on, seizure=_place(posted.seizure), reason="typo"), today=on
    )
    assert after.superseded_notice is not None
    assert after.cancelled_auction is None


def test_a_new_notice_ends_the_supersession() -> None:
    posted = step(case_in(S.NOTICE_POSTED), FIXED)
    on = date(2026, 3, 12)
    corrected = SeizureCorrected(on=on, seizure=_place(posted.seizure), reason="typo")
    again = step(posted, corrected, notice(date(2026, 3, 13)))
    assert again.superseding is None
    assert again.superseded_notice is None
    assert again.cancelled_auction is None
    assert again.notice is not None
    assert again.notice.on == date(2026, 3, 13)


def test_the_superseded_notice_s13_3_deadlines_go_and_the_s13_2_notice_is_due_again() -> None:
    fixed = step(case_in(S.NOTICE_POSTED), FIXED)
    assert [d.kind for d in deadlines(fixed)] == [DeadlineKind.AUCTION_DAY]
    posted = case_in(S.NOTICE_POSTED)
    assert [d.kind for d in deadlines(posted)] == [DeadlineKind.AUCTION_LAWFUL]
    on = date(2026, 3, 12)
    for case in (fixed, posted):
        after = case.apply(
            SeizureCorrected(on=on, seizure=_place(case.seizure), reason="typo"), today=on
        )
        (due,) = deadlines(after)
        assert due.kind is DeadlineKind.NOTICE_DUE
        assert due.provision == "s.13(2)"
        assert due.due_on == on  # "thereupon": from the correction, not the old report
        assert due.counts_from == on


def test_a_report_with_no_notice_yet_keeps_its_notice_due_on_the_report_day() -> None:
    (due,) = deadlines(case_in(S.REPORTED))
    assert (due.kind, due.due_on) == (DeadlineKind.NOTICE_DUE, REPORT_DUE)


def test_a_replayed_case_keeps_the_refusal_and_the_supersession() -> None:
    fixed = step(case_in(S.NOTICE_POSTED), FIXED)
    on = date(2026, 3, 12)
    after = fixed.apply(
        SeizureCorrected(on=on, seizure=_place(fixed.seizure), reason="typo"), today=on
    )
    again = Case.replay(after.number, after.events)
    assert again.cancelled_auction == FIXED
    assert again.superseding == after.superseding
    sold = Case.replay(_in_deposit().number, _in_deposit().events)
    assert sold.notice_offered_on is not None
