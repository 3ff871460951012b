"""The Act's periods: scenario tables for each date rule, each boundary tested the day
before, the day of and the day after, and the deadlines a case shows in each stage.

Periods "from" a day exclude it (GCA s.8); a month runs to the corresponding date, or
to the month's last day when there is none (the stated month-end policy).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

import pytest

from domain.case import Case
from domain.deadlines import Deadline, DeadlineKind, Role, deadlines
from domain.errors import DomainError, TooEarlyError, TransitionRefusedError
from domain.events import (
    AccountRefused,
    AuctionScheduled,
    CreditedToFund,
    DepositClaimed,
    Event,
    SaleClosed,
)
from domain.profiles import KERALA_1961
from domain.provisions import PROVISIONS
from domain.s13_unclaimed import auction_allowed_from, report_due_on
from domain.s14_deposit import complaint_last_day
from domain.s15_sale import close_sale
from domain.s16_s17_proceeds import credit_to_fund, deposit_window_end, establish_claim
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    NOTICE_ON,
    REPORT_DUE,
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
)

ONE = timedelta(days=1)


def ten_days(seized_on: date) -> date:
    """s.19: the Kerala Act's ten days (``KERALA_1961.complaint_days``)."""
    return complaint_last_day(seized_on, KERALA_1961.complaint_days)


def three_months(deposited_on: date) -> date:
    """s.16(3): the Kerala Act's three months (``KERALA_1961.surplus_months``)."""
    return deposit_window_end(deposited_on, KERALA_1961.surplus_months)


@dataclass(frozen=True)
class DateRule:
    sentence: str
    rule: Callable[[date], date]
    counts_from: date
    due: date


DATE_RULES = [
    DateRule(
        "s.13(1): impounded 1 March 2026, the report is due 9 March",
        report_due_on,
        date(2026, 3, 1),
        date(2026, 3, 9),
    ),
    DateRule(
        "s.13(1): impounded 28 December 2026, the report is due 5 January 2027",
        report_due_on,
        date(2026, 12, 28),
        date(2027, 1, 5),
    ),
    DateRule(
        "s.13(1): impounded 22 February 2028 (leap year), the report is due 1 March",
        report_due_on,
        date(2028, 2, 22),
        date(2028, 3, 1),
    ),
    DateRule(
        "s.13(3): notice 10 March 2026, the auction is lawful from 18 March",
        auction_allowed_from,
        date(2026, 3, 10),
        date(2026, 3, 18),
    ),
    DateRule(
        "s.13(3): notice 27 December 2026, the auction is lawful from 4 January 2027",
        auction_allowed_from,
        date(2026, 12, 27),
        date(2027, 1, 4),
    ),
    DateRule(
        "s.13(3): notice 25 February 2027, the auction is lawful from 5 March",
        auction_allowed_from,
        date(2027, 2, 25),
        date(2027, 3, 5),
    ),
    DateRule(
        "s.13(3): notice 25 February 2028 (leap year), the auction is lawful from 4 March",
        auction_allowed_from,
        date(2028, 2, 25),
        date(2028, 3, 4),
    ),
    DateRule(
        "s.19: seized 5 March 2026, a complaint may be made until 15 March",
        ten_days,
        date(2026, 3, 5),
        date(2026, 3, 15),
    ),
    DateRule(
        "s.19: seized 25 December 2026, a complaint may be made until 4 January 2027",
        ten_days,
        date(2026, 12, 25),
        date(2027, 1, 4),
    ),
    DateRule(
        "s.19: seized 20 February 2028 (leap year), a complaint until 1 March",
        ten_days,
        date(2028, 2, 20),
        date(2028, 3, 1),
    ),
    DateRule(
        "s.16(3) month-end policy: deposited 30 November 2026, the window ends 28 February 2027",
        three_months,
        date(2026, 11, 30),
        date(2027, 2, 28),
    ),
    DateRule(
        "s.16(3) month-end policy, leap year: deposited 30 November 2027, ends 29 February 2028",
        three_months,
        date(2027, 11, 30),
        date(2028, 2, 29),
    ),
    DateRule(
        "s.16(3): deposited 31 January 2026, the window ends 30 April",
        three_months,
        date(2026, 1, 31),
        date(2026, 4, 30),
    ),
    DateRule(
        "s.16(3) year end: deposited 15 October 2026, the window ends 15 January 2027",
        three_months,
        date(2026, 10, 15),
        date(2027, 1, 15),
    ),
    DateRule(
        "s.16(3) year end: deposited 31 December 2026, the window ends 31 March 2027",
        three_months,
        date(2026, 12, 31),
        date(2027, 3, 31),
    ),
    DateRule(
        "s.16(3): deposited 18 March 2026, the window ends 18 June",
        three_months,
        date(2026, 3, 18),
        date(2026, 6, 18),
    ),
]


@pytest.mark.parametrize("row", DATE_RULES, ids=[r.sentence for r in DATE_RULES])
def test_a_date_rule_gives_the_day_the_act_sets(row: DateRule) -> None:
    assert row.rule(row.counts_from) == row.due


# --- each boundary: the day before, the day of, the day after -----------------------------


def _deposited_on(day: date) -> Case:
    """Unclaimed cattle impounded a month before ``day``, all sold on ``day``, surplus deposited."""
    impounded = day - timedelta(days=30)
    noticed = step(
        open_case(on=impounded), report(report_due_on(impounded)), notice(report_due_on(impounded))
    )
    sold = step(noticed, sale(0, 2, rs(30000), day))
    closed = step(
        sold,
        SaleClosed(on=day, expenses=rs(500), to_owner_or_deposit=rs(25000), owner_appeared=False),
    )
    assert closed.stage is Stage.IN_DEPOSIT
    assert closed.deposited_on == day
    return closed


NOV_30_2026 = date(2026, 11, 30)
FEB_28_2027 = date(2027, 2, 28)
NOV_30_2027 = date(2027, 11, 30)
FEB_29_2028 = date(2028, 2, 29)


def _claim(preferred_on: date) -> DepositClaimed:
    return DepositClaimed(
        on=max(preferred_on, NOV_30_2026),
        claimant="Ramesh",
        preferred_on=preferred_on,
        reference="R-1",
    )


@dataclass(frozen=True)
class Boundary:
    sentence: str
    start: Callable[[], Case]
    event: Event
    error: type[DomainError] | None  # None: accepted
    provision: str = ""


def _impounded() -> Case:
    return case_in(Stage.IMPOUNDED)


def _all_sold_account_due() -> Case:
    """The owner's route: both cows needed and sold by 6 March, the account due."""
    on = date(2026, 3, 6)
    selling = step(
        open_case(),
        owner_refused(date(2026, 3, 4)),
        sale(0, 1, rs(1000), on),
        sale(0, 1, rs(20000), on),
    )
    return close_sale(selling, sample_tariff(), on=on, expenses=rs(200), today=on)[0]


def _noticed() -> Case:
    return case_in(Stage.NOTICE_POSTED)


def _scheduled(auction_on: date) -> AuctionScheduled:
    return AuctionScheduled(on=date(2026, 3, 11), auction_on=auction_on, place="market")


BOUNDARIES = [
    Boundary(
        "s.13(1): a report on 8 March, the day before it is due, is refused",
        _impounded,
        report(date(2026, 3, 8)),
        TooEarlyError,
        "s.13(1)",
    ),
    Boundary(
        "s.13(1): a report on 9 March, the day it falls due, is accepted",
        _impounded,
        report(date(2026, 3, 9)),
        None,
    ),
    Boundary(
        "s.13(1): a report on 10 March, the day after, is accepted",
        _impounded,
        report(date(2026, 3, 10)),
        None,
    ),
    Boundary(
        "s.13(1): a report the day of impounding is refused",
        _impounded,
        report(IMPOUNDED_ON),
        TooEarlyError,
        "s.13(1)",
    ),
    Boundary(
        "s.13(3): an auction lot on 17 March, the day before it is lawful, is refused",
        _noticed,
        sale(0, 1, rs(15000), date(2026, 3, 17)),
        TooEarlyError,
        "s.13(3)",
    ),
    Boundary(
        "s.13(3): an auction lot on 18 March, the first lawful day, is accepted",
        _noticed,
        sale(0, 1, rs(15000), date(2026, 3, 18)),
        None,
    ),
    Boundary(
        "s.13(3): an auction lot on 19 March is accepted",
        _noticed,
        sale(0, 1, rs(15000), date(2026, 3, 19)),
        None,
    ),
    Boundary(
        "s.13(3): an unsold lot offered on 17 March is refused too",
        _noticed,
        sale(0, 1, rs(15000), date(2026, 3, 17)),
        TooEarlyError,
        "s.13(3)",
    ),
    Boundary(
        "s.13(3): an auction fixed for 17 March is refused",
        _noticed,
        _scheduled(date(2026, 3, 17)),
        TooEarlyError,
        "s.13(3)",
    ),
    Boundary(
        "s.13(3): an auction fixed for 18 March is accepted",
        _noticed,
        _scheduled(date(2026, 3, 18)),
        None,
    ),
    Boundary(
        "s.13(3): an auction fixed for 19 March is accepted",
        _noticed,
        _scheduled(date(2026, 3, 19)),
        None,
    ),
    Boundary(
        "s.13(3) proviso: other disposal on 17 March is refused",
        _noticed,
        disposal(0, 1, date(2026, 3, 17)),
        TooEarlyError,
        "s.13(3)",
    ),
    Boundary(
        "s.13(3) proviso: other disposal on 18 March is accepted",
        _noticed,
        disposal(0, 1, date(2026, 3, 18)),
        None,
    ),
    Boundary(
        "s.15(1): on the owner's route a lot may be sold the day the owner refused",
        lambda: step(_impounded(), owner_refused(date(2026, 3, 2))),
        sale(0, 1, rs(15000), date(2026, 3, 2)),
        None,
    ),
    Boundary(
        "s.17(1): credit to the fund on 27 February 2027, inside the window, is refused",
        lambda: _deposited_on(NOV_30_2026),
        CreditedToFund(on=FEB_28_2027 - ONE),
        TooEarlyError,
        "s.16(3)",
    ),
    Boundary(
        "s.17(1): credit to the fund on 28 February 2027, the window's last day, is refused",
        lambda: _deposited_on(NOV_30_2026),
        CreditedToFund(on=FEB_28_2027),
        TooEarlyError,
        "s.16(3)",
    ),
    Boundary(
        "s.17(1): credit to the fund on 1 March 2027, the day after the window, is accepted",
        lambda: _deposited_on(NOV_30_2026),
        CreditedToFund(on=FEB_28_2027 + ONE),
        None,
    ),
    Boundary(
        "s.17(1) leap year: credit on 29 February 2028, the window's last day, is refused",
        lambda: _deposited_on(NOV_30_2027),
        CreditedToFund(on=FEB_29_2028),
        TooEarlyError,
        "s.16(3)",
    ),
    Boundary(
        "s.17(1) leap year: credit on 1 March 2028, the day after the window, is accepted",
        lambda: _deposited_on(NOV_30_2027),
        CreditedToFund(on=FEB_29_2028 + ONE),
        None,
    ),
    Boundary(
        "s.16(3): a claim preferred the day before the deposit is refused",
        lambda: _deposited_on(NOV_30_2026),
        _claim(NOV_30_2026 - ONE),
        TooEarlyError,
        "s.16(3)",
    ),
    Boundary(
        "s.16(3): a claim preferred the day of the deposit is accepted",
        lambda: _deposited_on(NOV_30_2026),
        _claim(NOV_30_2026),
        None,
    ),
    Boundary(
        "s.16(3): a claim preferred the day before the window ends is accepted",
        lambda: _deposited_on(NOV_30_2026),
        _claim(FEB_28_2027 - ONE),
        None,
    ),
    Boundary(
        "s.16(3): a claim preferred on the window's last day is accepted",
        lambda: _deposited_on(NOV_30_2026),
        _claim(FEB_28_2027),
        None,
    ),
    Boundary(
        "s.16(3): a claim preferred the day after the window is refused, and not as too early",
        lambda: _deposited_on(NOV_30_2026),
        _claim(FEB_28_2027 + ONE),
        TransitionRefusedError,
        "s.16(3)",
    ),
]


@pytest.mark.parametrize("row", BOUNDARIES, ids=[r.sentence for r in BOUNDARIES])
def test_each_date_rule_holds_the_day_before_the_day_of_and_the_day_after(row: Boundary) -> None:
    case = row.start()
    today = row.event.on
    if row.error is None:
        after = case.apply(row.event, today=today)
        assert after.events[-1] == row.event
        return
    with pytest.raises(row.error) as caught:
        case.apply(row.event, today=today)
    assert caught.value.provision == row.provision


def test_s13_1_the_refusal_of_an_early_report_says_from_when_it_is_lawful() -> None:
    with pytest.raises(TooEarlyError, match="2026-03-09"):
        case_in(Stage.IMPOUNDED).apply(report(date(2026, 3, 8)), today=date(2026, 3, 8))


def test_s13_3_the_refusal_of_an_early_auction_says_from_when_it_is_lawful() -> None:
    with pytest.raises(TooEarlyError, match="2026-03-18"):
        _noticed().apply(sale(0, 1, rs(15000), date(2026, 3, 17)), today=date(2026, 3, 17))


def test_s17_1_credit_to_fund_through_the_sale_module_on_the_window_end_is_refused() -> None:
    case = _deposited_on(NOV_30_2026)
    with pytest.raises(TooEarlyError) as caught:
        credit_to_fund(case, on=FEB_28_2027, today=FEB_28_2027)
    assert caught.value.provision == "s.16(3)"
    credited = credit_to_fund(case, on=FEB_28_2027 + ONE, today=FEB_28_2027 + ONE)
    assert credited.stage is Stage.CLOSED


def test_s16_3_a_claim_preferred_in_time_may_be_established_after_the_window() -> None:
    case = establish_claim(
        _deposited_on(NOV_30_2026),
        claimant="Ramesh",
        preferred_on=FEB_28_2027,
        reference="R-1",
        on=date(2027, 4, 10),
        today=date(2027, 4, 10),
    )
    assert case.stage is Stage.CLOSED


# --- the deadlines a case shows -----------------------------------------------------------

K, R = DeadlineKind, Role


@dataclass(frozen=True)
class Shown:
    sentence: str
    case: Callable[[], Case]
    expected: list[Deadline]


SHOWN = [
    Shown(
        "s.13(1) and s.19: impounded 1 March, report due 9 March, complaint until 11 March",
        _impounded,
        [
            Deadline(K.REPORT_DUE, date(2026, 3, 9), "s.13(1)", R.KEEPER, IMPOUNDED_ON),
            Deadline(K.COMPLAINT_WINDOW_ENDS, date(2026, 3, 11), "s.19", R.OWNER, IMPOUNDED_ON),
        ],
    ),
    Shown(
        "s.19 counts from the seizure: seized 27 February, complaint until 9 March, first",
        lambda: open_case(seized_on=date(2026, 2, 27)),
        [
            Deadline(K.COMPLAINT_WINDOW_ENDS, date(2026, 3, 9), "s.19", R.OWNER, date(2026, 2, 27)),
            Deadline(K.REPORT_DUE, date(2026, 3, 9), "s.13(1)", R.KEEPER, IMPOUNDED_ON),
        ],
    ),
    Shown(
        "s.19: on deposit, the officer watches the complaint window",
        lambda: case_in(Stage.ON_DEPOSIT),
        [Deadline(K.COMPLAINT_WINDOW_ENDS, date(2026, 3, 11), "s.19", R.OFFICER, IMPOUNDED_ON)],
    ),
    Shown(
        "s.13(2): once reported, the notice is due thereupon",
        lambda: case_in(Stage.REPORTED),
        [Deadline(K.NOTICE_DUE, REPORT_DUE, "s.13(2)", R.OFFICER, REPORT_DUE)],
    ),
    Shown(
        "s.13(3): notice 10 March, the auction is lawful from 18 March",
        _noticed,
        [Deadline(K.AUCTION_LAWFUL, AUCTION_FROM, "s.13(3)", R.OFFICER, NOTICE_ON)],
    ),
    Shown(
        "s.13(3): once an auction is fixed for 20 March, its day replaces the lawful day",
        lambda: step(_noticed(), _scheduled(date(2026, 3, 20))),
        [
            Deadline(K.AUCTION_DAY, date(2026, 3, 20), "s.13(3)", R.OFFICER, date(2026, 3, 11)),
        ],
    ),
    Shown(
        "s.15(1): the owner refused; the auction day fixed is shown under s.15(1)",
        lambda: step(
            case_in(Stage.OWNER_REFUSED),
            AuctionScheduled(on=date(2026, 3, 4), auction_on=date(2026, 3, 6), place="market"),
        ),
        [Deadline(K.AUCTION_DAY, date(2026, 3, 6), "s.15(1)", R.OFFICER, date(2026, 3, 4))],
    ),
    Shown(
        "s.15(1): the owner refused and no auction is fixed yet: nothing to show",
        lambda: case_in(Stage.OWNER_REFUSED),
        [],
    ),
    Shown(
        "s.16(3) and s.17(1): deposited 18 March, window to 18 June, credit from 19 June",
        lambda: case_in(Stage.IN_DEPOSIT),
        [
            Deadline(K.DEPOSIT_WINDOW_ENDS, date(2026, 6, 18), "s.16(3)", R.OFFICER, AUCTION_FROM),
            Deadline(K.CREDIT_TO_FUND, date(2026, 6, 19), "s.17(1)", R.OFFICER, AUCTION_FROM),
        ],
    ),
    Shown(
        "s.16(3) month-end policy: deposited 30 November 2026, window to 28 February 2027",
        lambda: _deposited_on(NOV_30_2026),
        [
            Deadline(K.DEPOSIT_WINDOW_ENDS, FEB_28_2027, "s.16(3)", R.OFFICER, NOV_30_2026),
            Deadline(K.CREDIT_TO_FUND, date(2027, 3, 1), "s.17(1)", R.OFFICER, NOV_30_2026),
        ],
    ),
    Shown(
        "s.15(5): refused on 9 March, the deposit window counts from the refusal",
        lambda: step(_all_sold_account_due(), AccountRefused(on=date(2026, 3, 9))),
        [
            Deadline(
                K.DEPOSIT_WINDOW_ENDS, date(2026, 6, 9), "s.16(3)", R.OFFICER, date(2026, 3, 9)
            ),
            Deadline(K.CREDIT_TO_FUND, date(2026, 6, 10), "s.17(1)", R.OFFICER, date(2026, 3, 9)),
        ],
    ),
    Shown(
        "s.15(5): refused with a cow left on 9 March, the keeper reports it that day",
        lambda: case_in(Stage.DEEMED_UNCLAIMED),
        [Deadline(K.REPORT_DUE, date(2026, 3, 9), "s.15(5)", R.KEEPER, date(2026, 3, 9))],
    ),
    Shown("a released case has no deadline", lambda: case_in(Stage.RELEASED), []),
    Shown("a closed case has no deadline", lambda: case_in(Stage.CLOSED), []),
    Shown("a voided case has no deadline", lambda: case_in(Stage.VOIDED), []),
    Shown(
        "s.15(3): while the account is due no period runs", lambda: case_in(Stage.ACCOUNT_DUE), []
    ),
]


@pytest.mark.parametrize("row", SHOWN, ids=[r.sentence for r in SHOWN])
def test_a_case_shows_the_deadlines_of_its_stage_earliest_first(row: Shown) -> None:
    assert deadlines(row.case()) == row.expected


def test_every_stage_is_covered_by_a_deadline_scenario() -> None:
    assert {row.case().stage for row in SHOWN} == set(Stage) - {Stage.SELLING}
    assert deadlines(case_in(Stage.SELLING)) == []


@pytest.mark.parametrize("stage", list(Stage), ids=[f"deadlines when {s.value}" for s in Stage])
def test_every_deadline_cites_a_provision_and_falls_on_or_after_its_start(stage: Stage) -> None:
    for deadline in deadlines(case_in(stage)):
        assert deadline.provision in PROVISIONS
        assert deadline.counts_from <= deadline.due_on
