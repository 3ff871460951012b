"""s.12: the owner's claim (``domain/s12_claim.py``): until when the cattle may be
claimed and paid for, by route and round (also after a refusal under s.15(1), and after
a refused account under s.15(5) until a head of that round is sold), and the claims
refused. What the payment must be is tested in test_s12_release.py."""

from __future__ import annotations

from datetime import date

import pytest

from domain.errors import TransitionRefusedError
from domain.events import ClaimedAndPaid, DeliveredOnDeposit
from tests.unit.case_helpers import (
    Allowed,
    Refused,
    _in,
    _selling_nothing_sold,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import (
    AUCTION_FROM,
    LATER,
    S,
    case_in,
    notice,
    report,
    rs,
    sale,
    step,
)

# --- s.12: the claim as a step of the case ------------------------------------------------

#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
ALLOWED = [
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
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.12: a claim after the sale has closed is refused",
        _in(S.IN_DEPOSIT),
        ClaimedAndPaid(on=date(2026, 3, 19), paid=rs(3000)),
        TransitionRefusedError,
        "s.12",
    ),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)


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
