"""The life of a case as a state machine: every allowed step, the refused ones, and dates.

The diagram is in the docstring of ``domain/case.py``. Each refusal names the provision
it enforces (``error.provision``); the expected provisions here are read from the Act,
independently of the table in ``domain.case``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta

import pytest

from domain.case import Case, provision_of
from domain.errors import (
    BackwardsDateError,
    BarredBuyerError,
    CorrectionRefusedError,
    DomainError,
    FutureDateError,
    InvalidCaseError,
    TooEarlyError,
    TransitionRefusedError,
    VoidRefusedError,
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
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SaleExpensesStated,
    SeizureCorrected,
)
from domain.money import Money
from domain.s07_seizure import Person
from domain.s15_3_account import refuse_account
from domain.s15_sale import close_sale
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    IMPOUNDED_ON,
    LATER,
    NOTICE_ON,
    REPORT_DUE,
    S,
    buyer,
    case_in,
    closed_sale_event,
    correct_impounding_day,
    disposal,
    notice,
    open_case,
    owner_refused,
    report,
    rs,
    sale,
    sample_tariff,
    seizure,
    step,
    unsold,
)

REFUSED_ON = date(2026, 3, 4)  # the owner appears and refuses to pay (s.15(1))
SOLD_ON = date(2026, 3, 6)  # a lot sold on the s.15(1) route

#: The provision of each kind of event, read from the Act.
EVENT_PROVISION: dict[type[Event], str] = {
    Impounded: "s.7",
    SeizureCorrected: "s.7",
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

BEFORE_SALE = frozenset({S.IMPOUNDED, S.REPORTED, S.NOTICE_POSTED})
AUCTION_STAGES = frozenset({S.NOTICE_POSTED, S.OWNER_REFUSED, S.SELLING})

#: From which stages the Act allows each event (the diagram in domain/case.py).
ALLOWED_FROM: dict[type[Event], frozenset[Stage]] = {
    Impounded: frozenset(),  # only ever the first event
    SeizureCorrected: frozenset(Stage) - {S.RELEASED, S.CLOSED, S.VOIDED},
    # A case entered by mistake, while no money has moved (Case.void names the step
    # that moved it otherwise).
    CaseVoided: frozenset({S.IMPOUNDED, S.REPORTED, S.NOTICE_POSTED, S.OWNER_REFUSED, S.SELLING}),
    # s.12: the owner may claim until a head is sold, also after refusing (s.15(1))
    # s.12: until a head is sold, also after a refusal; after a refused account until a
    # head of its round is sold (s.15(5), s.13(3)).
    ClaimedAndPaid: BEFORE_SALE | {S.OWNER_REFUSED, S.SELLING, S.DEEMED_UNCLAIMED},
    # s.14: while the ten days of s.19 run and no head is sold, also after a refusal.
    DeliveredOnDeposit: BEFORE_SALE | {S.OWNER_REFUSED, S.SELLING},
    DepositOutcome: frozenset({S.ON_DEPOSIT}),
    DepositRefunded: frozenset({S.CLOSED}),  # s.19: the refund ordered, paid back
    ReportedUnclaimed: frozenset({S.IMPOUNDED, S.DEEMED_UNCLAIMED}),  # s.13(1), s.15(5)
    NoticePosted: frozenset({S.REPORTED}),
    OwnerRefusedToPay: BEFORE_SALE,
    AuctionScheduled: AUCTION_STAGES,
    LotOffered: AUCTION_STAGES,
    DisposedOtherwise: frozenset({S.NOTICE_POSTED, S.SELLING}),
    SaleClosed: frozenset({S.SELLING}),
    SaleExpensesStated: frozenset({S.SELLING}),  # s.15(2): actual expenses, dues unmet
    AccountDelivered: frozenset({S.ACCOUNT_DUE}),
    AccountRefused: frozenset({S.ACCOUNT_DUE}),
    DepositClaimed: frozenset({S.IN_DEPOSIT}),
    ClaimPreferred: frozenset({S.IN_DEPOSIT}),
    ClaimRejected: frozenset({S.IN_DEPOSIT}),
    CreditedToFund: frozenset({S.IN_DEPOSIT}),
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


def _selling_on_s15_route() -> Case:
    return step(open_case(), owner_refused(REFUSED_ON), sale(0, 1, rs(20000), SOLD_ON))


def _all_sold_after_notice(price: Money) -> Case:
    return step(open_case(), report(), notice(), sale(0, 2, price, AUCTION_FROM))


def _account_due_all_sold() -> Case:
    """The owner's route: both cows needed and sold, a balance for the owner (s.15(3))."""
    selling = step(
        open_case(),
        owner_refused(REFUSED_ON),
        sale(0, 1, rs(1000), SOLD_ON),
        sale(0, 1, rs(20000), SOLD_ON),
    )
    return close_sale(selling, sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON)[0]


def _account_due_with_no_balance() -> Case:
    selling = step(open_case(), owner_refused(REFUSED_ON), sale(0, 2, rs(1), SOLD_ON))
    return close_sale(selling, sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON)[0]


@dataclass(frozen=True)
class Allowed:
    sentence: str
    start: Callable[[], Case]
    event: Event
    then: Stage


def _in(stage: Stage) -> Callable[[], Case]:
    return lambda: case_in(stage)


DAY_AFTER_DEPOSIT_WINDOW = date(2026, 6, 19)  # deposit 18 March: window ends 18 June


def _selling_nothing_sold() -> Case:
    return step(open_case(), report(), notice(), unsold(0, 1, AUCTION_FROM))


ALLOWED = [
    *(
        Allowed(
            f"s.7: a case entered by mistake is voided when {start().stage.value}",
            start,
            CaseVoided(on=date(2026, 3, 25), reason="entered twice"),
            S.VOIDED,
        )
        for start in (
            _in(S.IMPOUNDED),
            _in(S.REPORTED),
            _in(S.NOTICE_POSTED),
            _in(S.OWNER_REFUSED),
            _selling_nothing_sold,
        )
    ),
    Allowed(
        "s.12: impounded cattle claimed and paid for are released",
        _in(S.IMPOUNDED),
        ClaimedAndPaid(on=date(2026, 3, 3), paid=rs(1180)),
        S.RELEASED,
    ),
    Allowed(
        "s.12: reported cattle may still be claimed and released",
        _in(S.REPORTED),
        ClaimedAndPaid(on=date(2026, 3, 9), paid=rs(1700)),
        S.RELEASED,
    ),
    Allowed(
        "s.12: after the notice the cattle may be claimed until the sale",
        _in(S.NOTICE_POSTED),
        ClaimedAndPaid(on=date(2026, 3, 17), paid=rs(2500)),
        S.RELEASED,
    ),
    Allowed(
        "s.12, s.15(1): an owner who refused may still pay until a head is sold",
        _in(S.OWNER_REFUSED),
        ClaimedAndPaid(on=date(2026, 3, 5), paid=rs(3000)),
        S.RELEASED,
    ),
    Allowed(
        "s.12: an owner may pay after a lot was offered and not sold",
        _selling_nothing_sold,
        ClaimedAndPaid(on=AUCTION_FROM, paid=rs(3000)),
        S.RELEASED,
    ),
    Allowed(
        "s.12, s.15(5): after a refused account the owner may pay until a head of that "
        "round is sold; the first sale's balance stays in deposit (s.16(3))",
        _in(S.DEEMED_UNCLAIMED),
        ClaimedAndPaid(on=date(2026, 3, 10), paid=rs(480)),
        S.IN_DEPOSIT,
    ),
    Allowed(
        "s.14: an owner who refused may still deposit within the s.19 days",
        _in(S.OWNER_REFUSED),
        DeliveredOnDeposit(on=date(2026, 3, 5), deposited=rs(1500)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: a deposit after a lot offered and not sold, within the s.19 days",
        lambda: step(open_case(), owner_refused(REFUSED_ON), unsold(0, 1, date(2026, 3, 6))),
        DeliveredOnDeposit(on=date(2026, 3, 7), deposited=rs(1500)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: the owner disputing the seizure takes the cattle on deposit",
        _in(S.IMPOUNDED),
        DeliveredOnDeposit(on=date(2026, 3, 3), deposited=rs(1180)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: a deposit after the report, within the s.19 days",
        _in(S.REPORTED),
        DeliveredOnDeposit(on=date(2026, 3, 10), deposited=rs(1900)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.14: a deposit after the notice, within the s.19 days",
        _in(S.NOTICE_POSTED),
        DeliveredOnDeposit(on=date(2026, 3, 11), deposited=rs(2000)),
        S.ON_DEPOSIT,
    ),
    Allowed(
        "s.19: the deposit returned on a complaint upheld closes the case",
        _in(S.ON_DEPOSIT),
        DepositOutcome(on=date(2026, 4, 1), returned=True, reference="CC 7/2026"),
        S.CLOSED,
    ),
    Allowed(
        "s.19: the refund of a deposit ordered refunded is recorded once paid back",
        lambda: step(
            case_in(S.ON_DEPOSIT),
            DepositOutcome(on=date(2026, 4, 1), returned=True, reference="CC 7/2026"),
        ),
        DepositRefunded(on=date(2026, 4, 3)),
        S.CLOSED,
    ),
    Allowed(
        "s.19: the deposit applied to the dues closes the case",
        _in(S.ON_DEPOSIT),
        DepositOutcome(on=date(2026, 4, 1), returned=False, reference="none filed"),
        S.CLOSED,
    ),
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
        "s.15(1): the owner appears and refuses to pay while impounded",
        _in(S.IMPOUNDED),
        owner_refused(REFUSED_ON),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): the owner appears and refuses to pay after the report",
        _in(S.REPORTED),
        owner_refused(date(2026, 3, 12)),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): the owner appears and refuses to pay after the notice",
        _in(S.NOTICE_POSTED),
        owner_refused(date(2026, 3, 12)),
        S.OWNER_REFUSED,
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
        "s.13(3) proviso: other disposal by the Director's order starts the sale",
        _in(S.NOTICE_POSTED),
        disposal(0, 1, AUCTION_FROM),
        S.SELLING,
    ),
    Allowed(
        "s.15(1): an auction fixed after the owner refused",
        _in(S.OWNER_REFUSED),
        AuctionScheduled(on=REFUSED_ON, auction_on=SOLD_ON, place="market"),
        S.OWNER_REFUSED,
    ),
    Allowed(
        "s.15(1): a lot sold after the owner refused, with no seven-day wait",
        _in(S.OWNER_REFUSED),
        sale(0, 1, rs(20000), REFUSED_ON),
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
    Allowed(
        "s.15(2): actual expenses of sale stated during the sale keep it going",
        _in(S.SELLING),
        SaleExpensesStated(on=date(2026, 3, 19), expenses=rs(1500)),
        S.SELLING,
    ),
    Allowed(
        "s.13(3) proviso: the rest disposed of otherwise during the sale",
        _in(S.SELLING),
        disposal(0, 1, date(2026, 3, 19)),
        S.SELLING,
    ),
    Allowed(
        "s.15(2): closing a sale the owner appeared in leaves the account due",
        _selling_on_s15_route,
        SaleClosed(
            on=SOLD_ON, expenses=rs(200), to_owner_or_deposit=rs(18000), owner_appeared=True
        ),
        S.ACCOUNT_DUE,
    ),
    Allowed(
        "s.16(3): closing an unclaimed sale with a surplus puts it in deposit",
        lambda: _all_sold_after_notice(rs(30000)),
        SaleClosed(
            on=AUCTION_FROM, expenses=rs(500), to_owner_or_deposit=rs(25820), owner_appeared=False
        ),
        S.IN_DEPOSIT,
    ),
    Allowed(
        "s.15(2): closing an unclaimed sale with no surplus closes the case",
        lambda: _all_sold_after_notice(rs(1000)),
        SaleClosed(
            on=AUCTION_FROM, expenses=rs(0), to_owner_or_deposit=rs(0), owner_appeared=False
        ),
        S.CLOSED,
    ),
    Allowed(
        "s.15(4): the owner takes the account and gives a receipt",
        _in(S.ACCOUNT_DUE),
        AccountDelivered(on=date(2026, 3, 7), receipt_by="Ramesh"),
        S.CLOSED,
    ),
    Allowed(
        "s.15(5): the owner refuses the account and the balance goes into deposit",
        _account_due_all_sold,
        AccountRefused(on=date(2026, 3, 7)),
        S.IN_DEPOSIT,
    ),
    Allowed(
        "s.15(5): the owner refuses the account and the cattle left are deemed unclaimed",
        _in(S.ACCOUNT_DUE),
        AccountRefused(on=date(2026, 3, 7)),
        S.DEEMED_UNCLAIMED,
    ),
    Allowed(
        "s.16(3): a claim to the deposit preferred and pending keeps the deposit",
        _in(S.IN_DEPOSIT),
        ClaimPreferred(on=date(2026, 5, 2), claimant="Ramesh"),
        S.IN_DEPOSIT,
    ),
    Allowed(
        "s.16(3): a claim pending rejected leaves the deposit held",
        lambda: step(case_in(S.IN_DEPOSIT), ClaimPreferred(on=date(2026, 5, 2), claimant="R")),
        ClaimRejected(on=date(2026, 5, 20), reference="RDO-1"),
        S.IN_DEPOSIT,
    ),
    Allowed(
        "s.15(5), s.13(1): cattle deemed unclaimed are reported",
        _in(S.DEEMED_UNCLAIMED),
        ReportedUnclaimed(on=date(2026, 3, 9)),
        S.REPORTED,
    ),
    Allowed(
        "s.15(5): the owner refuses an account with no balance and the case closes",
        _account_due_with_no_balance,
        AccountRefused(on=date(2026, 3, 7)),
        S.CLOSED,
    ),
    Allowed(
        "s.16(3): a claim to the deposit preferred in time and established closes the case",
        _in(S.IN_DEPOSIT),
        DepositClaimed(
            on=date(2026, 7, 1), claimant="Ramesh", preferred_on=date(2026, 6, 18), reference="R-9"
        ),
        S.CLOSED,
    ),
    Allowed(
        "s.17(1): the unclaimed deposit is credited to the fund after three months",
        _in(S.IN_DEPOSIT),
        CreditedToFund(on=DAY_AFTER_DEPOSIT_WINDOW),
        S.CLOSED,
    ),
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    case = row.start()
    after = case.apply(row.event, today=row.event.on)
    assert after.stage is row.then
    assert after.events == (*case.events, row.event)


def test_every_allowed_pair_of_stage_and_event_has_a_scenario() -> None:
    covered = {(r.start().stage, type(r.event)) for r in ALLOWED}
    expected = {
        (stage, kind)
        for kind, stages in ALLOWED_FROM.items()
        for stage in stages
        if kind is not SeizureCorrected  # one test per stage below
    }
    assert expected <= covered


CORRECTABLE = sorted(ALLOWED_FROM[SeizureCorrected], key=lambda s: s.value)


@pytest.mark.parametrize(
    "stage",
    CORRECTABLE,
    ids=[f"s.7: the intake facts can be corrected when {s.value}" for s in CORRECTABLE],
)
def test_a_correction_keeps_the_stage_and_replaces_the_intake_facts(stage: Stage) -> None:
    case = case_in(stage)
    corrected = replace(case.seizure, owner=Person("Ramesan", "Kazhakkoottam"))
    on = case.last_event_on
    after = case.apply(SeizureCorrected(on=on, seizure=corrected, reason="name misspelt"), today=on)
    assert after.stage is stage
    assert after.seizure.owner == Person("Ramesan", "Kazhakkoottam")


# --- a sample of refused steps, by name ---------------------------------------------------


@dataclass(frozen=True)
class Refused:
    sentence: str
    start: Callable[[], Case]
    event: Event
    error: type[DomainError]
    provision: str


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
        "s.12: a claim after the sale has closed is refused",
        _in(S.IN_DEPOSIT),
        ClaimedAndPaid(on=date(2026, 3, 19), paid=rs(3000)),
        TransitionRefusedError,
        "s.12",
    ),
    Refused(
        "s.13(1): a later impounding day that makes the report made too early is refused",
        _in(S.REPORTED),
        correct_impounding_day(date(2026, 3, 2), REPORT_DUE),
        CorrectionRefusedError,
        "s.13(1)",
    ),
    Refused(
        "s.15(1): an impounding day after the owner's recorded refusal is refused",
        _in(S.OWNER_REFUSED),
        correct_impounding_day(date(2026, 3, 5), date(2026, 3, 6)),
        CorrectionRefusedError,
        "s.15(1)",
    ),
    Refused(
        "s.14: the impounding day cannot be corrected once the deposit was counted on it",
        _in(S.ON_DEPOSIT),
        correct_impounding_day(date(2026, 2, 28), date(2026, 3, 4)),
        CorrectionRefusedError,
        "s.14",
    ),
    Refused(
        "s.7: a case on which money has moved cannot be voided",
        _in(S.SELLING),
        CaseVoided(on=date(2026, 3, 19), reason="mistake"),
        VoidRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.13(3) proviso: other disposal on the s.15(1) route is refused (owner refused)",
        _in(S.OWNER_REFUSED),
        disposal(0, 1, SOLD_ON),
        TransitionRefusedError,
        "s.13(3) proviso",
    ),
    Refused(
        "s.13(3) proviso: other disposal on the s.15(1) route is refused (selling)",
        _selling_on_s15_route,
        disposal(0, 1, SOLD_ON),
        TransitionRefusedError,
        "s.13(3) proviso",
    ),
    Refused(
        "s.13(1): a case already reported cannot be reported again",
        _in(S.REPORTED),
        report(date(2026, 3, 10)),
        TransitionRefusedError,
        "s.13(1)",
    ),
    Refused(
        "s.15(4): no account can be delivered before a sale is closed",
        _in(S.SELLING),
        AccountDelivered(on=date(2026, 3, 19), receipt_by="Ramesh"),
        TransitionRefusedError,
        "s.15(4)",
    ),
    Refused(
        "s.17(1): nothing is credited to the fund of a case never in deposit",
        _in(S.ACCOUNT_DUE),
        CreditedToFund(on=LATER),
        TransitionRefusedError,
        "s.17(1)",
    ),
    Refused(
        "s.19: a deposit outcome for a case never on deposit is refused",
        _in(S.IMPOUNDED),
        DepositOutcome(on=date(2026, 3, 20), returned=True, reference="x"),
        TransitionRefusedError,
        "s.19",
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
    Refused(
        "s.13(3) proviso: other disposal needs who ordered it and the order's reference",
        _in(S.NOTICE_POSTED),
        replace(disposal(0, 1, AUCTION_FROM), order_reference=" "),
        InvalidCaseError,
        "s.13(3) proviso",
    ),
    Refused(
        "s.13(3) proviso: other disposal cannot bring in negative proceeds",
        _in(S.NOTICE_POSTED),
        disposal(0, 1, AUCTION_FROM, Money(-100)),
        InvalidCaseError,
        "s.13(3) proviso",
    ),
    Refused(
        "s.13(3): an auction cannot be fixed for a day before the day it is fixed",
        _in(S.NOTICE_POSTED),
        AuctionScheduled(on=date(2026, 3, 20), auction_on=date(2026, 3, 19), place="market"),
        BackwardsDateError,
        "s.13(3)",
    ),
    Refused(
        "s.15(1): an auction cannot be fixed for a day before the day it is fixed",
        _in(S.OWNER_REFUSED),
        AuctionScheduled(on=date(2026, 3, 5), auction_on=REFUSED_ON, place="market"),
        BackwardsDateError,
        "s.15(1)",
    ),
    Refused(
        "s.7: a correction needs a reason",
        _in(S.IMPOUNDED),
        SeizureCorrected(on=IMPOUNDED_ON, seizure=seizure(), reason="  "),
        InvalidCaseError,
        "s.7",
    ),
    Refused(
        "s.7: a correction cannot bring the cattle in after the day it is made",
        _in(S.IMPOUNDED),
        correct_impounding_day(date(2026, 3, 3), date(2026, 3, 2)),
        FutureDateError,
        "s.7",
    ),
    Refused(
        "s.7: a correction cannot leave a lot fewer heads than were already sold",
        _in(S.IN_DEPOSIT),
        SeizureCorrected(
            on=date(2026, 3, 19), seizure=seizure(lots=(("cow", 1),)), reason="recount"
        ),
        CorrectionRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.7: a correction cannot drop a lot from which heads were sold",
        _in(S.SELLING),
        SeizureCorrected(
            on=date(2026, 3, 19), seizure=replace(seizure(), lots=()), reason="recount"
        ),
        CorrectionRefusedError,
        "s.13(3)",
    ),
    Refused(
        "s.16(3): a claim preferred before the surplus was deposited is refused",
        _in(S.IN_DEPOSIT),
        DepositClaimed(
            on=date(2026, 3, 20), claimant="Ramesh", preferred_on=date(2026, 3, 17), reference="R-1"
        ),
        TooEarlyError,
        "s.16(3)",
    ),
    Refused(
        "s.16(3): a claim is established only after it is preferred",
        _in(S.IN_DEPOSIT),
        DepositClaimed(
            on=date(2026, 3, 20), claimant="Ramesh", preferred_on=date(2026, 3, 21), reference="R-1"
        ),
        InvalidCaseError,
        "s.16(3)",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    case = row.start()
    today = max(row.event.on, LATER)
    with pytest.raises(row.error) as caught:
        case.apply(row.event, today=today)
    assert caught.value.provision == row.provision


def test_a_refused_step_leaves_the_case_as_it_was() -> None:
    case = case_in(S.IMPOUNDED)
    with pytest.raises(TransitionRefusedError):
        case.apply(notice(REPORT_DUE), today=REPORT_DUE)
    assert case.stage is S.IMPOUNDED
    assert len(case.events) == 1


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


def test_s13_3_proviso_once_the_rest_are_disposed_of_otherwise_the_sale_closes() -> None:
    case = step(case_in(S.SELLING), disposal(0, 1, date(2026, 3, 19), rs(500)))
    closed, _ = close_sale(
        case, sample_tariff(), on=date(2026, 3, 19), expenses=rs(0), today=date(2026, 3, 19)
    )
    assert closed.stage in (S.IN_DEPOSIT, S.CLOSED)


def test_s15_1_the_owners_route_may_close_the_sale_with_heads_left() -> None:
    closed, _ = close_sale(
        _selling_on_s15_route(), sample_tariff(), on=SOLD_ON, expenses=rs(0), today=SOLD_ON
    )
    assert closed.stage is S.ACCOUNT_DUE
    assert closed.heads_remaining == 1


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


# --- the seizure report (s.7) ---------------------------------------------------------------


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


# --- sale outcome, proceeds, s.15(5) ---------------------------------------------------------


def test_before_any_head_goes_there_is_no_sale_outcome() -> None:
    assert case_in(S.NOTICE_POSTED).sale_outcome is None
    assert step(case_in(S.NOTICE_POSTED), unsold(0, 2, AUCTION_FROM)).sale_outcome is None


def test_the_outcome_is_sold_when_every_head_is_sold() -> None:
    assert case_in(S.IN_DEPOSIT).sale_outcome == "sold"


def test_the_outcome_is_partly_sold_while_heads_remain() -> None:
    assert case_in(S.SELLING).sale_outcome == "partly_sold"
    assert case_in(S.ACCOUNT_DUE).sale_outcome == "partly_sold"


def test_the_outcome_is_disposed_otherwise_when_the_proviso_took_every_head() -> None:
    case = step(case_in(S.NOTICE_POSTED), disposal(0, 2, AUCTION_FROM, rs(300)))
    assert case.sale_outcome == "disposed_otherwise"
    assert case.heads_remaining == 0
    assert case.proceeds == rs(300)


def test_s15_3_e_the_proceeds_add_up_sales_and_other_disposal() -> None:
    case = step(
        case_in(S.NOTICE_POSTED),
        sale(0, 1, rs(15000), AUCTION_FROM),
        unsold(0, 1, AUCTION_FROM),
        disposal(0, 1, date(2026, 3, 19), rs(750)),
    )
    assert case.proceeds == rs(15750)
    assert case.disposed_heads(0) == 2
    assert case.remaining_heads(0) == 0
    # s.13(3) and its proviso: some sold, the rest disposed of by the Director's order.
    assert case.sale_outcome == "sold_and_disposed"


def test_s15_5_the_owner_refusing_the_account_puts_the_balance_in_deposit_that_day() -> None:
    account_due = _account_due_all_sold()
    balance = closed_sale_event(account_due).to_owner_or_deposit
    assert balance.paise > 0
    refused = refuse_account(account_due, on=date(2026, 3, 9), today=date(2026, 3, 9))
    assert refused.stage is S.IN_DEPOSIT
    assert refused.deposited_on == date(2026, 3, 9)
    assert refused.deposit_total == balance


def test_s15_5_cattle_left_go_the_s13_way_and_the_deposit_waits_for_their_sale() -> None:
    account_due = case_in(S.ACCOUNT_DUE)
    balance = closed_sale_event(account_due).to_owner_or_deposit
    refused = refuse_account(account_due, on=date(2026, 3, 9), today=date(2026, 3, 9))
    assert refused.stage is S.DEEMED_UNCLAIMED
    assert refused.deemed_unclaimed
    assert not refused.owner_appeared
    assert refused.deposit_total == balance
    assert refused.deposited_on is None  # the three months run from the second settlement
    far = date(2026, 12, 31)
    reported = refused.apply(ReportedUnclaimed(on=date(2026, 3, 9)), far)
    noticed = reported.apply(notice(date(2026, 3, 10)), far)
    assert noticed.notice is not None
    assert noticed.notice.on == date(2026, 3, 10)
    with pytest.raises(TooEarlyError):
        noticed.apply(sale(0, 1, rs(9000), date(2026, 3, 17)), far)
    sold = noticed.apply(sale(0, 1, rs(9000), date(2026, 3, 18)), far)
    closed, settlement = close_sale(
        sold, sample_tariff(), on=date(2026, 3, 18), expenses=rs(100), today=far
    )
    assert closed.stage is S.IN_DEPOSIT
    assert closed.deposited_on == date(2026, 3, 18)
    assert closed.deposit_total == balance + settlement.balance
    assert settlement.proceeds == rs(9000)


def test_s16_3_an_unclaimed_surplus_is_in_deposit_from_the_day_the_sale_closed() -> None:
    assert case_in(S.IN_DEPOSIT).deposited_on == AUCTION_FROM


def test_s15_3_while_the_account_is_due_nothing_is_in_deposit() -> None:
    assert case_in(S.ACCOUNT_DUE).deposited_on is None


def test_the_owner_appeared_only_on_the_s15_route() -> None:
    assert case_in(S.OWNER_REFUSED).owner_appeared
    assert not case_in(S.NOTICE_POSTED).owner_appeared


def test_a_history_recorded_before_s15_5_sent_refused_cattle_the_s13_way_still_replays() -> None:
    """Before the refused cattle went the s.13 way, such a case was held in deposit and
    could be credited to the fund; its stored history must still load."""
    refused = refuse_account(case_in(S.ACCOUNT_DUE), on=date(2026, 3, 9), today=LATER)
    credit = CreditedToFund(on=date(2026, 6, 10))
    replayed = Case.replay(refused.number, [*refused.events, credit])
    assert replayed.stage is S.CLOSED
    with pytest.raises(TransitionRefusedError):  # but no such step is taken from now on
        refused.apply(credit, LATER)


# --- the owner's way back after refusing: s.14 and s.19; s.15(5) and s.12 ---------------


def test_a_deposit_after_a_refusal_is_lawful_while_the_ten_days_run_and_nothing_is_sold() -> None:
    """Impounded and seized 1 March: the ten days of s.19 end on 11 March."""
    refused = case_in(S.OWNER_REFUSED)
    assert refused.complaint_by == date(2026, 3, 11)
    assert refused.lawful_today(DeliveredOnDeposit, date(2026, 3, 11))
    assert not refused.lawful_today(DeliveredOnDeposit, date(2026, 3, 12))
    with pytest.raises(TransitionRefusedError) as late:
        refused.apply(DeliveredOnDeposit(on=date(2026, 3, 12), deposited=rs(1)), LATER)
    assert (late.value.provision, late.value.reason) == ("s.19", "complaint_time_over")
    sold = step(refused, sale(0, 1, rs(20000), date(2026, 3, 6)))
    assert not sold.lawful_today(DeliveredOnDeposit, date(2026, 3, 7))
    with pytest.raises(TransitionRefusedError) as after_sale:
        sold.apply(DeliveredOnDeposit(on=date(2026, 3, 7), deposited=rs(1)), LATER)
    assert (after_sale.value.provision, after_sale.value.reason) == ("s.15(1)", "head_sold")


def test_after_a_refused_account_payment_is_lawful_until_a_head_of_that_round_is_sold() -> None:
    deemed = case_in(S.DEEMED_UNCLAIMED)
    assert deemed.lawful_today(ClaimedAndPaid, date(2026, 3, 10))
    assert not deemed.lawful_today(DeliveredOnDeposit, date(2026, 3, 10))  # s.15(5)
    rest = step(deemed, report(date(2026, 3, 10)), notice(date(2026, 3, 11)))
    assert rest.lawful_today(ClaimedAndPaid, date(2026, 3, 12))
    sold = step(rest, sale(0, 1, rs(9000), date(2026, 3, 19)))
    assert not sold.lawful_today(ClaimedAndPaid, date(2026, 3, 19))
    with pytest.raises(TransitionRefusedError) as caught:
        sold.apply(ClaimedAndPaid(on=date(2026, 3, 19), paid=rs(1)), LATER)
    assert (caught.value.provision, caught.value.reason) == ("s.13(3)", "unclaimed_head_sold")
