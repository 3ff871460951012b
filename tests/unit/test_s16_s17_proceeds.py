"""ss.16 and 17: the surplus held in deposit, claimed, or credited to the fund."""

from __future__ import annotations

from datetime import date

import pytest

from domain.errors import InvalidCaseError, TooEarlyError, TransitionRefusedError
from domain.events import ClaimPreferred, ClaimRejected, CreditedToFund, DepositClaimed, SaleClosed
from domain.s16_s17_proceeds import credit_to_fund
from domain.stages import Stage
from tests.unit.case_helpers import (
    Allowed,
    Refused,
    _all_sold_after_notice,
    _in,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import AUCTION_FROM, LATER, S, case_in, rs, step


def test_s16_3_nothing_is_credited_to_the_fund_from_a_case_not_in_deposit() -> None:
    with pytest.raises(TransitionRefusedError) as caught:
        credit_to_fund(case_in(Stage.ACCOUNT_DUE), on=date(2026, 12, 1), today=date(2026, 12, 1))
    assert caught.value.provision == "s.16(3)"


# --- ss.16(3) and 17(1): the deposit and the fund as steps of the case --------------------

DAY_AFTER_DEPOSIT_WINDOW = date(2026, 6, 19)  # deposit 18 March: window ends 18 June

#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
ALLOWED = [
    Allowed(
        "s.16(3): closing an unclaimed sale with a surplus puts it in deposit",
        lambda: _all_sold_after_notice(rs(30000)),
        SaleClosed(
            on=AUCTION_FROM, expenses=rs(500), to_owner_or_deposit=rs(25820), owner_appeared=False
        ),
        S.IN_DEPOSIT,
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
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.17(1): nothing is credited to the fund of a case never in deposit",
        _in(S.ACCOUNT_DUE),
        CreditedToFund(on=LATER),
        TransitionRefusedError,
        "s.17(1)",
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
    assert_refused(row)


def test_s16_3_an_unclaimed_surplus_is_in_deposit_from_the_day_the_sale_closed() -> None:
    assert case_in(S.IN_DEPOSIT).deposited_on == AUCTION_FROM
