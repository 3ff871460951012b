"""A refusal gives its reason, with its dates and counts, in every language (issue 12,
item 19); the dispatcher tests in tests/service/test_owner_answers.py reach them too."""

from __future__ import annotations

import re
from datetime import date

import pytest

from bot.i18n import render as r
from bot.i18n import translator
from bot.i18n.common import day
from bot.support.sms_segments import segments
from domain import errors
from domain.stages import Stage

MAR_9 = date(2026, 3, 9)

REFUSALS: list[tuple[str, errors.DomainError, str]] = [
    (
        "s.19 complaint over",
        errors.TransitionRefusedError(
            "x", "s.19", reason="complaint_time_over", facts={"date": MAR_9}
        ),
        "The ten days to complain ended on 9 Mar 2026, so no deposit under protest. (s.19)",
    ),
    (
        "s.16(3) before the deposit",
        errors.TooEarlyError("x", "s.16(3)", reason="before_deposit", facts={"date": MAR_9}),
        "That date is before the deposit, made on 9 Mar 2026. Check the date. (s.16(3))",
    ),
    (
        "s.16(3) three months over",
        errors.TransitionRefusedError(
            "x", "s.16(3)", reason="claim_time_over", facts={"date": MAR_9}
        ),
        "The three months to claim the deposit ended on 9 Mar 2026. (s.16(3))",
    ),
    (
        "stage",
        errors.TransitionRefusedError(
            "x", "s.13(1)", reason="stage", facts={"stage": "released", "date": MAR_9}
        ),
        "The cattle were released to the owner on 9 Mar 2026 (s.12). "
        "This step is not possible now. (s.13(1))",
    ),
    (
        "before the last step",
        errors.BackwardsDateError("x", "s.12", reason="before_last_step", facts={"date": MAR_9}),
        "That date is before the last step recorded in this case, on 9 Mar 2026. "
        "Check the date. (s.12)",
    ),
    (
        "s.13(3) heads unsold",
        errors.TransitionRefusedError("x", "s.13(3)", reason="heads_unsold", facts={"count": 2}),
        "2 head are still unsold: unclaimed cattle are all sold or disposed of first. (s.13(3))",
    ),
    (
        "s.13(3) heads left",
        errors.InvalidCaseError("x", "s.13(3)", reason="heads_left", facts={"lot": 1, "count": 1}),
        "Lot 1 has 1 head left. (s.13(3))",
    ),
    (
        "s.7 seized after brought",
        errors.InvalidCaseError(
            "x",
            "s.7",
            reason="seized_after_brought",
            facts={"seized": date(2026, 3, 10), "date": MAR_9},
        ),
        "The day of seizure, 10 Mar 2026, is after the day the cattle were brought in, "
        "9 Mar 2026. (s.7)",
    ),
    (
        "s.7 bad count",
        errors.InvalidCaseError("x", "s.7", reason="bad_count", facts={"count": 0}),
        "0 is not a number of cattle: give a number from 1 to 10,000. (s.7)",
    ),
    (
        "s.7 no place",
        errors.InvalidCaseError("x", "s.7", reason="no_place"),
        "The place where the cattle were seized is missing. Add it and send the report again. "
        "(s.7)",
    ),
    (
        "s.15(4) receipt",
        errors.TransitionRefusedError("x", "s.15(4)", reason="receipt_without_name"),
        "A receipt needs the name of the person who received the cattle and the balance. (s.15(4))",
    ),
]

_ENGLISH = re.compile(r"\b(the|is|before|after|ended|deposit|cattle|date)\b")


@pytest.mark.parametrize(
    ("exc", "english"), [x[1:] for x in REFUSALS], ids=[x[0] for x in REFUSALS]
)
def test_a_refusal_says_its_reason_with_its_date_in_every_language(
    exc: errors.DomainError, english: str
) -> None:
    assert r.error(exc, translator("en")) == english
    for lang in ("ml", "ta", "kn"):
        text = r.error(exc, translator(lang))
        assert not _ENGLISH.search(text), text
        for value in exc.facts.values():
            if isinstance(value, date):
                assert day(value, translator(lang)) in text
        assert segments(text).segment_count <= 3, text


@pytest.mark.parametrize("stage", list(Stage), ids=lambda s: s.value)
def test_every_stage_gives_a_dated_reason(stage: Stage) -> None:
    exc = errors.TransitionRefusedError(
        "x", "s.12", reason="stage", facts={"stage": stage.value, "date": MAR_9}
    )
    for lang in ("en", "ml", "ta", "kn"):
        text = r.error(exc, translator(lang))
        assert day(MAR_9, translator(lang)) in text
        assert "present stage" not in text


@pytest.mark.parametrize("route", ["s.13(3)", "s.15(1)"])
def test_a_step_refused_during_a_sale_cites_the_sale_of_its_route(route: str) -> None:
    """The domain says which route the sale is on (``sale``): the refusal cites it alone,
    never both (s.13(3) unclaimed, s.15(1) on the owner's refusal)."""
    exc = errors.TransitionRefusedError(
        "x", "s.12", reason="stage", facts={"stage": "selling", "date": MAR_9, "sale": route}
    )
    assert r.error(exc, translator("en")) == (
        f"The sale began on 9 Mar 2026 ({route}). This step is not possible now. (s.12)"
    )
    other = "s.15(1)" if route == "s.13(3)" else "s.13(3)"
    for lang in ("ml", "ta", "kn"):
        text = r.error(exc, translator(lang))
        assert route.removeprefix("s.") in text
        assert other.removeprefix("s.") not in text
