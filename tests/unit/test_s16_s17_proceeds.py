"""ss.16 and 17: the surplus held in deposit, claimed, or credited to the fund."""

from __future__ import annotations

from datetime import date

import pytest

from domain.errors import TransitionRefusedError
from domain.s16_s17_proceeds import credit_to_fund
from domain.stages import Stage
from tests.unit.domain_fixtures import case_in


def test_s16_3_nothing_is_credited_to_the_fund_from_a_case_not_in_deposit() -> None:
    with pytest.raises(TransitionRefusedError) as caught:
        credit_to_fund(case_in(Stage.ACCOUNT_DUE), on=date(2026, 12, 1), today=date(2026, 12, 1))
    assert caught.value.provision == "s.16(3)"
