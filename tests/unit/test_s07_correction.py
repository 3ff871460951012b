"""s.7: the steps that keep the record true (``domain/s07_correction.py``): the intake
facts corrected, which keeps the stage, and a case entered by mistake voided; the
corrections and voids refused. The record of the cattle brought in itself is tested in
test_s07_seizure.py."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from domain.errors import (
    CorrectionRefusedError,
    FutureDateError,
    InvalidCaseError,
    VoidRefusedError,
)
from domain.events import CaseVoided, SeizureCorrected
from domain.s07_seizure import Person
from domain.stages import Stage
from tests.unit.case_helpers import (
    ALLOWED_FROM,
    Allowed,
    Refused,
    _in,
    _selling_nothing_sold,
    assert_allowed,
    assert_refused,
)
from tests.unit.domain_fixtures import (
    IMPOUNDED_ON,
    S,
    case_in,
    correct_impounding_day,
    seizure,
)

# --- s.7: voiding, correcting, and the corrections refused --------------------------------

#: The steps the Act allows, each from a stage: test_case_lifecycle.py gathers these rows
#: and checks that every pair of stage and event it allows has one.
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
]


@pytest.mark.parametrize("row", ALLOWED, ids=[r.sentence for r in ALLOWED])
def test_an_allowed_step_moves_the_case_to_the_next_stage(row: Allowed) -> None:
    assert_allowed(row)


#: Steps the Act forbids, each with the error and the provision it is refused under.
REFUSED = [
    Refused(
        "s.7: a case on which money has moved cannot be voided",
        _in(S.SELLING),
        CaseVoided(on=date(2026, 3, 19), reason="mistake"),
        VoidRefusedError,
        "s.13(3)",
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
]


@pytest.mark.parametrize("row", REFUSED, ids=[r.sentence for r in REFUSED])
def test_a_step_the_act_forbids_is_refused_with_its_error_and_provision(row: Refused) -> None:
    assert_refused(row)


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
