"""An Act as in force for an authority (``Profile.in_force``): the values of its gaps the
configuration set, and the powers a State's s.31 notification transferred; a case keeps
them from its impounding day (``Seizure.act_settings``), and the engine counts its
periods by them (s.19: 1871 s.20; s.16(3): 1871 s.17)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from domain.calendar import add_months, period_end
from domain.case import Case
from domain.deadlines import deadlines
from domain.errors import TransitionRefusedError
from domain.events import DeliveredOnDeposit, SeizureCorrected
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    PROFILES,
    Destination,
    Office,
    Power,
    Profile,
    UnsettableError,
)
from domain.s07_seizure import ActSettings
from domain.stages import Stage
from domain.statement import dates_of
from tests.unit.domain_fixtures import IMPOUNDED_ON, case_in, rs

SET_1871 = CATTLE_TRESPASS_1871.in_force(complaint_days=15, surplus_months=6)


def _under(case: Case, act: Profile) -> Case:
    """``case`` opened under ``act`` as in force (what the intake records)."""
    return replace(
        case, seizure=replace(case.seizure, act=act.key, act_settings=ActSettings.of(act))
    )


# -- what each Act leaves open -------------------------------------------------------------


def test_the_1871_act_leaves_open_its_complaint_time_and_its_s17() -> None:
    assert CATTLE_TRESPASS_1871.settable == (
        "complaint_days",
        "surplus_months",
        "fines_to",
        "surplus_to",
    )


def test_the_amended_kerala_act_leaves_open_only_the_months_of_its_unseen_s16() -> None:
    assert KERALA_1961_AMENDED.settable == ("surplus_months",)


def test_the_kerala_act_as_enacted_leaves_nothing_open() -> None:
    assert KERALA_1961.settable == ()


@pytest.mark.parametrize("act", list(PROFILES.values()), ids=list(PROFILES))
def test_each_setting_is_a_gap_of_its_act_to_be_confirmed(act: Profile) -> None:
    for name in act.settable:
        assert any(name in gap.settings and gap.taken for gap in act.gaps), name


# -- the Act as in force -------------------------------------------------------------------


def test_nothing_set_is_the_act_itself() -> None:
    assert CATTLE_TRESPASS_1871.in_force() is CATTLE_TRESPASS_1871
    assert KERALA_1961.in_force(transferred=frozenset()) is KERALA_1961


def test_the_values_set_replace_the_profiles_and_are_named_as_configured() -> None:
    act = CATTLE_TRESPASS_1871.in_force(
        complaint_days=15, fines_to=Destination.LOCAL_FUND, surplus_to=Destination.LOCAL_FUND
    )
    assert (act.complaint_days, act.surplus_months) == (15, 3)
    assert (act.fines_to, act.surplus_to) == (Destination.LOCAL_FUND, Destination.LOCAL_FUND)
    assert act.configured == ("complaint_days", "fines_to", "surplus_to")
    assert act.key == CATTLE_TRESPASS_1871.key
    assert act.citations is CATTLE_TRESPASS_1871.citations


def test_a_profile_with_values_set_is_not_the_bare_one_nor_hashed_as_it() -> None:
    same_days = CATTLE_TRESPASS_1871.in_force(complaint_days=10)
    assert same_days != CATTLE_TRESPASS_1871  # set, to be confirmed: not the profile's own
    assert SET_1871 != CATTLE_TRESPASS_1871
    assert CATTLE_TRESPASS_1871.in_force(surplus_months=6, complaint_days=15) == SET_1871
    kept = {CATTLE_TRESPASS_1871: "bare", SET_1871: "set", same_days: "ten"}
    assert kept[CATTLE_TRESPASS_1871.in_force(complaint_days=15, surplus_months=6)] == "set"
    assert len(kept) == 3


def test_the_powers_transferred_are_the_local_authoritys_in_the_offices() -> None:
    act = CATTLE_TRESPASS_1871.in_force(
        transferred=frozenset({Power.RECEIVE_REPORT, Power.HOLD_SURPLUS})
    )
    assert act.office_for(Power.RECEIVE_REPORT) is Office.LOCAL_AUTHORITY
    assert act.office_for(Power.HOLD_SURPLUS) is Office.LOCAL_AUTHORITY
    assert act.office_for(Power.SELL) is Office.POLICE_STATION  # not transferred
    assert act.offices[Power.RECEIVE_REPORT] is Office.LOCAL_AUTHORITY
    assert act.transferred == frozenset({Power.RECEIVE_REPORT, Power.HOLD_SURPLUS})
    assert act != CATTLE_TRESPASS_1871
    assert CATTLE_TRESPASS_1871.offices[Power.RECEIVE_REPORT] is Office.POLICE_STATION


@pytest.mark.parametrize(
    ("act", "values", "message"),
    [
        pytest.param(
            KERALA_1961,
            {"complaint_days": 15},
            "complaint_days is not open under kerala-1961: its text was found",
            id="kerala-1961 s.19 found",
        ),
        pytest.param(
            KERALA_1961_AMENDED,
            {"fines_to": Destination.STATE_REVENUE},
            "fines_to is not open under kerala-1961-amended: its text was found",
            id="amended s.17(1) found",
        ),
        pytest.param(
            CATTLE_TRESPASS_1871, {"complaint_days": 0}, "complaint_days: 0 is not", id="zero"
        ),
        pytest.param(
            CATTLE_TRESPASS_1871, {"surplus_months": -3}, "surplus_months: -3 is not", id="neg"
        ),
        pytest.param(
            KERALA_1961,
            {"transferred": frozenset({Power.SELL})},
            "no power of kerala-1961 is transferred by a notification",
            id="no s.31 in Kerala",
        ),
        pytest.param(
            CATTLE_TRESPASS_1871,
            {"transferred": frozenset({Power.HEAR_COMPLAINT})},
            "hear_complaint is not a power a s.31 notification transfers",
            id="hearing not transferable",
        ),
    ],
)
def test_a_value_the_act_does_not_leave_open_is_refused(
    act: Profile, values: dict[str, object], message: str
) -> None:
    with pytest.raises(UnsettableError, match=message):
        act.in_force(**values)  # type: ignore[arg-type]


# -- a case keeps them, and the engine counts by them --------------------------------------


def test_a_case_is_under_its_act_as_in_force_on_its_impounding_day() -> None:
    case = _under(case_in(Stage.IMPOUNDED), SET_1871)
    assert case.profile == SET_1871
    assert case.profile is case.profile  # one value, not rebuilt at each reading


def test_a_case_recorded_without_settings_is_under_the_bare_act() -> None:
    case = replace(
        case_in(Stage.IMPOUNDED),
        seizure=replace(case_in(Stage.IMPOUNDED).seizure, act=CATTLE_TRESPASS_1871.key),
    )
    assert case.seizure.act_settings == ActSettings()
    assert case.profile is CATTLE_TRESPASS_1871


@pytest.mark.parametrize(
    ("day", "lawful"),
    [
        pytest.param(14, True, id="s.20 day 14"),
        pytest.param(15, True, id="s.20 day 15: the last"),
        pytest.param(16, False, id="s.20 day 16: over"),
    ],
)
def test_the_deposit_under_protest_follows_the_complaint_days_set(day: int, lawful: bool) -> None:
    case = _under(case_in(Stage.IMPOUNDED), SET_1871)
    seized = case.seizure.seizure_day
    on = seized + timedelta(day)
    assert case.complaint_by == period_end(seized, 15)
    event = DeliveredOnDeposit(on=on, deposited=rs(1180))
    if lawful:
        assert case.apply(event, on).stage is Stage.ON_DEPOSIT
    else:
        with pytest.raises(TransitionRefusedError, match="the time to complain ended"):
            case.apply(event, on)


def test_the_surplus_is_held_for_the_months_set() -> None:
    case = _under(case_in(Stage.IN_DEPOSIT), SET_1871)
    deposited = case.deposited_on
    assert deposited is not None
    dates = dates_of(case)
    assert dates.claims_until == add_months(deposited, 6)
    assert dates.complaint_by == period_end(case.seizure.seizure_day, 15)
    (window,) = [d for d in deadlines(case) if d.kind.value == "deposit_window_ends"]
    assert window.due_on == add_months(deposited, 6)


def test_a_correction_keeps_the_act_as_in_force_on_the_impounding_day() -> None:
    case = _under(case_in(Stage.IMPOUNDED), SET_1871)
    wrong = replace(case.seizure, place_seized="Kuttoor", act=KERALA_1961.key)
    wrong = replace(wrong, act_settings=ActSettings())
    corrected = case.then(SeizureCorrected(on=IMPOUNDED_ON, seizure=wrong, reason="place misspelt"))
    assert corrected.profile == SET_1871
    assert corrected.complaint_by == period_end(case.seizure.seizure_day, 15)


def test_a_correction_checks_the_steps_again_under_the_cases_act_as_in_force() -> None:
    """A deposit on the 15th day stood under fifteen days to complain: a correction of
    the place, its report made without the case's Act (as a keeper's is), checks it again
    under those fifteen days, not the Kerala Act's ten."""
    case = _under(case_in(Stage.IMPOUNDED), SET_1871)
    day_15 = case.seizure.seizure_day + timedelta(15)
    on_deposit = case.apply(DeliveredOnDeposit(on=day_15, deposited=rs(1180)), day_15)
    bare = replace(on_deposit.seizure, place_seized="Kuttoor", act=KERALA_1961.key)
    bare = replace(bare, act_settings=ActSettings())
    corrected = on_deposit.apply(
        SeizureCorrected(on=day_15, seizure=bare, reason="place misspelt"), day_15
    )
    assert corrected.seizure.place_seized == "Kuttoor"
    assert corrected.profile == SET_1871
