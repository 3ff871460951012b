"""The life of a case as a state machine, whole: which stage allows which event, every
refused pair citing its provision, the replay of a stored history, and dates (in the
future, backwards, backdated).

The diagram is in the docstring of ``domain/case.py``. Each refusal names the provision
it enforces (``error.provision``); the expected provisions here are read from the Act,
independently of the table in ``domain.case``. The rows of each allowed and each refused
step, by name, are beside the section they are about (tests/unit/test_s07_correction.py,
test_s12_claim.py, test_s13_unclaimed.py, test_s13_3_proviso.py, test_s14_deposit.py,
test_s15_sale.py, test_s15_3_account.py, test_s16_s17_proceeds.py, test_s18_buyers.py);
the tables they share are in tests/unit/case_helpers.py.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

import pytest

from domain.case import Case, provision_of
from domain.errors import (
    BackwardsDateError,
    FutureDateError,
    InvalidCaseError,
    TransitionRefusedError,
)
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    CaseVoided,
    ClaimedAndPaid,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    DepositRefunded,
    DisposedOtherwise,
    Event,
    Impounded,
    LotOffered,
    LotsSeparated,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SaleExpensesStated,
    SeizureCorrected,
)
from domain.s15_3_account import refuse_account
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit import (
    test_s07_correction,
    test_s07_owners,
    test_s12_claim,
    test_s13_3_proviso,
    test_s13_unclaimed,
    test_s14_deposit,
    test_s15_3_account,
    test_s15_sale,
    test_s16_s17_proceeds,
)
from tests.unit.case_helpers import ALLOWED_FROM, _in
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    LATER,
    NOTICE_ON,
    REPORT_DUE,
    S,
    case_in,
    disposal,
    notice,
    open_case,
    report,
    rs,
    sale,
    sample_tariff,
    seizure,
    step,
    unsold,
)

#: The provision of each kind of event, read from the Act.
EVENT_PROVISION: dict[type[Event], str] = {
    Impounded: "s.7",
    SeizureCorrected: "s.7",
    LotsSeparated: "s.7",
    CaseVoided: "s.7",
    ClaimedAndPaid: "s.12",
    DeliveredOnDeposit: "s.14",
    DepositOutcome: "s.19",
    DepositRefunded: "s.19",
    ReportedUnclaimed: "s.13(1)",
    NoticePosted: "s.13(2)",
    OwnerRefusedToPay: "s.15(1)",
    AuctionScheduled: "s.13(3)",
    LotOffered: "s.13(3)",
    DisposedOtherwise: "s.13(3) proviso",
    SaleClosed: "s.15(2)",
    SaleExpensesStated: "s.15(2)",
    AccountDelivered: "s.15(4)",
    AccountRefused: "s.15(5)",
    DepositClaimed: "s.16(3)",
    ClaimPreferred: "s.16(3)",
    ClaimRejected: "s.16(3)",
    CreditedToFund: "s.17(1)",
}


#: The steps that follow the s.13(1) report (the notice, the sale and its settlement).
AFTER_REPORT = frozenset(
    {NoticePosted, AuctionScheduled, LotOffered, DisposedOtherwise, SaleExpensesStated, SaleClosed}
)


def any_event(kind: type[Event], on: date) -> Event:
    """A well-formed event of ``kind`` on ``on`` (for the refused-transition matrix)."""
    makers: dict[type[Event], Callable[[], Event]] = {
        Impounded: lambda: Impounded(on=on, seizure=seizure()),
        SeizureCorrected: lambda: SeizureCorrected(on=on, seizure=seizure(), reason="typo"),
        CaseVoided: lambda: CaseVoided(on=on, reason="entered twice"),
        LotsSeparated: lambda: LotsSeparated(on=on, lots=(0,), into="KNM-9"),
        ClaimedAndPaid: lambda: ClaimedAndPaid(on=on, paid=rs(1000)),
        DeliveredOnDeposit: lambda: DeliveredOnDeposit(on=on, deposited=rs(1000)),
        DepositOutcome: lambda: DepositOutcome(on=on, returned=True, reference="CC 7/2026"),
        DepositRefunded: lambda: DepositRefunded(on=on),
        ReportedUnclaimed: lambda: ReportedUnclaimed(on=on),
        NoticePosted: lambda: notice(on),
        OwnerRefusedToPay: lambda: OwnerRefusedToPay(on=on),
        AuctionScheduled: lambda: AuctionScheduled(on=on, auction_on=on, place="market"),
        LotOffered: lambda: sale(0, 1, rs(15000), on),
        DisposedOtherwise: lambda: disposal(0, 1, on),
        SaleClosed: lambda: SaleClosed(
            on=on, expenses=rs(100), to_owner_or_deposit=rs(0), owner_appeared=False
        ),
        SaleExpensesStated: lambda: SaleExpensesStated(on=on, expenses=rs(1500)),
        AccountDelivered: lambda: AccountDelivered(on=on, receipt_by="Ramesh"),
        AccountRefused: lambda: AccountRefused(on=on),
        DepositClaimed: lambda: DepositClaimed(
            on=on, claimant="Ramesh", preferred_on=on, reference="R-1"
        ),
        ClaimPreferred: lambda: ClaimPreferred(on=on, claimant="Ramesh"),
        ClaimRejected: lambda: ClaimRejected(on=on, reference="R-2"),
        CreditedToFund: lambda: CreditedToFund(on=on),
    }
    return makers[kind]()


def test_the_tables_of_this_test_name_every_kind_of_event() -> None:
    from domain import events as events_module

    kinds = {
        cls
        for cls in vars(events_module).values()
        if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
    }
    assert kinds == set(EVENT_PROVISION) == set(ALLOWED_FROM)


@pytest.mark.parametrize(
    "kind",
    list(EVENT_PROVISION),
    ids=[f"{k.__name__} under {v}" for k, v in EVENT_PROVISION.items()],
)
def test_each_event_is_recorded_under_its_provision(kind: type[Event]) -> None:
    assert provision_of(any_event(kind, LATER)) == EVENT_PROVISION[kind]


REFUSED_PAIRS = [
    (stage, kind) for stage in Stage for kind in EVENT_PROVISION if stage not in ALLOWED_FROM[kind]
]


@pytest.mark.parametrize(
    ("stage", "kind"),
    REFUSED_PAIRS,
    ids=[f"{EVENT_PROVISION[k]}: {k.__name__} refused when {s.value}" for s, k in REFUSED_PAIRS],
)
def test_a_step_the_act_does_not_allow_from_the_stage_is_refused_citing_its_provision(
    stage: Stage, kind: type[Event]
) -> None:
    case = case_in(stage)
    with pytest.raises(TransitionRefusedError) as caught:
        case.apply(any_event(kind, LATER), today=LATER)
    assert caught.value.code == "transition_refused"
    if stage is S.DEEMED_UNCLAIMED and kind in AFTER_REPORT:
        # s.15(5): the refused cattle go the s.13 way; the s.13(1) report comes first.
        assert caught.value.provision == "s.13(1)"
        assert caught.value.reason == "report_first"
        return
    owners_route = case.first(OwnerRefusedToPay) and not case.first(AccountRefused)
    if kind in (AuctionScheduled, LotOffered) and owners_route:
        # s.15(1): on the owner's route the auction and its lots are that section's.
        assert caught.value.provision == "s.15(1)"
        return
    assert caught.value.provision == EVENT_PROVISION[kind]


# --- every allowed transition -------------------------------------------------------------

#: Every allowed step: the rows are beside the tests of their sections.
ALLOWED = [
    *test_s07_correction.ALLOWED,
    *test_s07_owners.ALLOWED,
    *test_s12_claim.ALLOWED,
    *test_s13_unclaimed.ALLOWED,
    *test_s13_3_proviso.ALLOWED,
    *test_s14_deposit.ALLOWED,
    *test_s15_sale.ALLOWED,
    *test_s15_3_account.ALLOWED,
    *test_s16_s17_proceeds.ALLOWED,
]


def test_every_allowed_pair_of_stage_and_event_has_a_scenario() -> None:
    covered = {(r.start().stage, type(r.event)) for r in ALLOWED}
    expected = {
        (stage, kind)
        for kind, stages in ALLOWED_FROM.items()
        for stage in stages
        if kind is not SeizureCorrected  # one test per stage below
    }
    assert expected <= covered


def test_a_refused_step_leaves_the_case_as_it_was() -> None:
    case = case_in(S.IMPOUNDED)
    with pytest.raises(TransitionRefusedError):
        case.apply(notice(REPORT_DUE), today=REPORT_DUE)
    assert case.stage is S.IMPOUNDED
    assert len(case.events) == 1


# --- dates: future, backwards, backdated ----------------------------------------------------


def test_an_event_dated_after_today_is_refused_citing_its_provision() -> None:
    with pytest.raises(FutureDateError) as caught:
        case_in(S.IMPOUNDED).apply(report(REPORT_DUE), today=REPORT_DUE - timedelta(1))
    assert caught.value.provision == "s.13(1)"


def test_an_event_dated_today_is_accepted() -> None:
    assert case_in(S.IMPOUNDED).apply(report(REPORT_DUE), today=REPORT_DUE).stage is S.REPORTED


def test_an_event_dated_before_the_previous_event_is_refused() -> None:
    reported = case_in(S.REPORTED)  # reported on 9 March
    with pytest.raises(BackwardsDateError) as caught:
        reported.apply(notice(REPORT_DUE - timedelta(1)), today=LATER)
    assert caught.value.provision == "s.13(2)"


def test_an_event_on_the_same_day_as_the_previous_one_is_accepted() -> None:
    reported = case_in(S.REPORTED)
    assert reported.apply(notice(REPORT_DUE), today=REPORT_DUE).stage is S.NOTICE_POSTED


def test_an_event_recorded_late_with_its_real_past_date_is_accepted() -> None:
    backdated = case_in(S.IMPOUNDED).apply(report(REPORT_DUE), today=date(2026, 3, 25))
    assert backdated.reported_on == REPORT_DUE


# --- replay ---------------------------------------------------------------------------------


def _long_case() -> Case:
    case = step(
        open_case(lots=(("cow", 2), ("goat", 3))),
        SeizureCorrected(
            on=IMPOUNDED_ON,
            seizure=seizure(lots=(("cow", 2), ("goat", 3)), owner="Ramesan"),
            reason="name",
        ),
        report(),
        notice(),
        AuctionScheduled(on=NOTICE_ON, auction_on=AUCTION_FROM, place="market"),
        sale(0, 2, rs(30000), AUCTION_FROM),
        unsold(1, 3, AUCTION_FROM),
        disposal(1, 3, date(2026, 3, 20), rs(900)),
    )
    closed, _ = close_sale(
        case, sample_tariff(), on=date(2026, 3, 20), expenses=rs(400), today=date(2026, 3, 20)
    )
    return step(closed, CreditedToFund(on=date(2026, 6, 21)))


@pytest.mark.parametrize(
    "build",
    [_long_case, *(_in(stage) for stage in Stage)],
    ids=[
        "a case through every s.13 step to the s.17(1) credit",
        *(f"a case {stage.value}" for stage in Stage),
    ],
)
def test_replaying_the_events_of_a_case_rebuilds_the_same_case(build: Callable[[], Case]) -> None:
    case = build()
    assert Case.replay(case.number, case.events) == case
    assert Case.replay(case.number, list(case.events)) == case


def test_the_long_case_ends_closed() -> None:
    assert _long_case().stage is S.CLOSED


def test_replay_needs_the_impounding_first() -> None:
    with pytest.raises(InvalidCaseError) as caught:
        Case.replay("X-1", [report()])
    assert caught.value.provision == "s.7"


def test_replay_refuses_a_stored_history_the_act_does_not_allow() -> None:
    events = (*case_in(S.IMPOUNDED).events, notice(NOTICE_ON))
    with pytest.raises(TransitionRefusedError):
        Case.replay("X-1", events)


def test_a_history_recorded_before_s15_5_sent_refused_cattle_the_s13_way_still_replays() -> None:
    """Before the refused cattle went the s.13 way, such a case was held in deposit and
    could be credited to the fund; its stored history must still load."""
    refused = refuse_account(case_in(S.ACCOUNT_DUE), on=date(2026, 3, 9), today=LATER)
    credit = CreditedToFund(on=date(2026, 6, 10))
    replayed = Case.replay(refused.number, [*refused.events, credit])
    assert replayed.stage is S.CLOSED
    with pytest.raises(TransitionRefusedError):  # but no such step is taken from now on
        refused.apply(credit, LATER)
