"""What the tests of the steps share (the modules of the sections, tests/unit/test_s*.py,
and the state machine's, tests/unit/test_case_lifecycle.py): from which stages the Act
allows each event, the rows of an allowed and of a refused step, and the cases they start
from. Imported explicitly by the modules that use them (not a conftest)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pytest

from domain.case import Case
from domain.errors import DomainError
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
from domain.money import Money
from domain.stages import Stage
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    LATER,
    S,
    case_in,
    notice,
    open_case,
    owner_refused,
    report,
    rs,
    sale,
    step,
    unsold,
)

REFUSED_ON = date(2026, 3, 4)  # the owner appears and refuses to pay (s.15(1))
SOLD_ON = date(2026, 3, 6)  # a lot sold on the s.15(1) route

BEFORE_SALE = frozenset({S.IMPOUNDED, S.REPORTED, S.NOTICE_POSTED})
AUCTION_STAGES = frozenset({S.NOTICE_POSTED, S.OWNER_REFUSED, S.SELLING})

#: From which stages the Act allows each event (the diagram in domain/case.py).
ALLOWED_FROM: dict[type[Event], frozenset[Stage]] = {
    Impounded: frozenset(),  # only ever the first event
    SeizureCorrected: frozenset(Stage) - {S.RELEASED, S.CLOSED, S.VOIDED},
    # s.7: one owner's lots separated for that owner's step, before any is offered.
    LotsSeparated: frozenset({S.IMPOUNDED, S.REPORTED, S.NOTICE_POSTED, S.OWNER_REFUSED}),
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


def _selling_on_s15_route() -> Case:
    return step(open_case(), owner_refused(REFUSED_ON), sale(0, 1, rs(20000), SOLD_ON))


def _all_sold_after_notice(price: Money) -> Case:
    return step(open_case(), report(), notice(), sale(0, 2, price, AUCTION_FROM))


@dataclass(frozen=True)
class Allowed:
    sentence: str
    start: Callable[[], Case]
    event: Event
    then: Stage


def _in(stage: Stage) -> Callable[[], Case]:
    return lambda: case_in(stage)


def _selling_nothing_sold() -> Case:
    return step(open_case(), report(), notice(), unsold(0, 1, AUCTION_FROM))


@dataclass(frozen=True)
class Refused:
    sentence: str
    start: Callable[[], Case]
    event: Event
    error: type[DomainError]
    provision: str


def assert_allowed(row: Allowed) -> None:
    """The step of ``row`` is taken and moves the case to the stage the row says."""
    case = row.start()
    after = case.apply(row.event, today=row.event.on)
    assert after.stage is row.then
    assert after.events == (*case.events, row.event)


def assert_refused(row: Refused) -> None:
    """The step of ``row`` is refused with the error and under the provision it says."""
    case = row.start()
    today = max(row.event.on, LATER)
    with pytest.raises(row.error) as caught:
        case.apply(row.event, today=today)
    assert caught.value.provision == row.provision
