"""The Acts poundbot applies (``domain.profiles``): every step has a citation, or a
declared "no counterpart", in every profile; each citation resolves to the module of its
section; and a case under an Act refuses a step that Act does not have."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest

from domain.calendar import add_months, period_end
from domain.case import Case
from domain.errors import TransitionRefusedError
from domain.events import AccountDelivered, AccountRefused, Event, SeizureCorrected
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    DEFAULT_ACT,
    KERALA_1961,
    KERALA_1961_AMENDED,
    PROFILES,
    Office,
    Power,
    Profile,
    UnknownActError,
    profile,
)
from domain.provisions import MODULES, PROVISIONS
from domain.s14_deposit import complaint_last_day
from domain.s16_s17_proceeds import deposit_window_end
from domain.stages import Stage
from domain.statement import dates_of
from domain.step import Step
from domain.steps import DECLARED
from tests.unit.domain_fixtures import case_in

#: An Act's own citation: a section, a paragraph of it, clauses, a proviso.
CITATION = re.compile(r"(GCA )?s\.\d+[A-Z]?( para \d+)?(\([0-9a-z]+\))*( proviso)?")

ALL = list(PROFILES.values())
STEPS_BY_PROFILE = [(act, step, module) for act in ALL for step, module in DECLARED]


def _under(case: Case, act: Profile) -> Case:
    return replace(case, seizure=replace(case.seizure, act=act.key))


@pytest.mark.parametrize("act", ALL, ids=[a.key for a in ALL])
def test_a_profile_answers_for_every_provision_and_cites_it_in_its_acts_own_form(
    act: Profile,
) -> None:
    assert set(act.citations) == set(PROVISIONS), "each provision cited or declared absent"
    for provision, cited in act.citations.items():
        if cited is not None:
            assert CITATION.fullmatch(cited), f"{act.key}: {provision} -> {cited!r}"
    assert set(act.offices) == set(Power), "every power held by an office"
    for gap in act.gaps:
        assert gap.provision in PROVISIONS
        assert gap.what


@pytest.mark.parametrize(
    ("act", "step", "module"),
    STEPS_BY_PROFILE,
    ids=[f"{a.key}-{s.event.__name__}" for a, s, _ in STEPS_BY_PROFILE],
)
def test_every_step_resolves_in_every_profile_to_the_module_of_its_section(
    act: Profile, step: Step[Event], module: str
) -> None:
    if step.owners_route is not None:  # the owner's route (s.15(1)) is cited too
        assert step.owners_route in act.citations
    cited = act.cites(step.provision)
    if cited is None:
        return  # declared: this Act has no such step
    # The Act's own citation is the citation of this provision, and of provisions of the
    # same home only: it leads back to the module the step is declared in.
    same = [p for p, c in act.citations.items() if c == cited]
    assert step.provision in same
    homes = {m for p in same for m in MODULES[p]}
    assert module.removeprefix("domain.") in homes


def test_the_kerala_profiles_cite_the_act_by_its_own_numbers() -> None:
    for act in (KERALA_1961, KERALA_1961_AMENDED):
        assert all(act.cites(p) == p for p in PROVISIONS)


def test_the_1871_act_cites_its_paragraphs_and_has_no_s15_5() -> None:
    assert CATTLE_TRESPASS_1871.cites("s.13(1)") == "s.14 para 1"
    assert CATTLE_TRESPASS_1871.cites("s.13(3) proviso") == "s.14 para 3 proviso"
    assert CATTLE_TRESPASS_1871.cites("s.15(3)(e)") == "s.16 para 3(e)"
    assert CATTLE_TRESPASS_1871.cites("s.14") == "s.15"
    assert CATTLE_TRESPASS_1871.cites("s.19") == "s.20"
    assert CATTLE_TRESPASS_1871.cites("s.15(5)") is None
    assert [p for p in PROVISIONS if not CATTLE_TRESPASS_1871.has(p)] == ["s.15(5)"]


def test_who_acts_differs_by_act() -> None:
    assert KERALA_1961.office_for(Power.ORDER_DISPOSAL) is Office.DIRECTOR
    assert KERALA_1961_AMENDED.office_for(Power.ORDER_DISPOSAL) is Office.LOCAL_AUTHORITY
    assert CATTLE_TRESPASS_1871.office_for(Power.RECEIVE_REPORT) is Office.POLICE_STATION
    assert CATTLE_TRESPASS_1871.office_for(Power.ORDER_DISPOSAL) is Office.DISTRICT_MAGISTRATE
    assert KERALA_1961.drum
    assert CATTLE_TRESPASS_1871.drum
    assert not KERALA_1961_AMENDED.drum


def test_a_s31_notification_transfers_the_magistrates_powers_it_names() -> None:
    moved = frozenset({Power.FIX_CONDITIONS, Power.HEAR_COMPLAINT})
    act = CATTLE_TRESPASS_1871
    assert act.office_for(Power.FIX_CONDITIONS, moved) is Office.LOCAL_AUTHORITY
    # s.31 moves the State's and the Magistrate of the District's functions, not a
    # court's: the complaint stays with a Magistrate.
    assert act.office_for(Power.HEAR_COMPLAINT, moved) is Office.MAGISTRATE
    # The Kerala Act has no s.31: nothing moves.
    assert KERALA_1961.office_for(Power.FIX_CONDITIONS, moved) is Office.DIRECTOR


def test_the_1871_act_and_the_amended_kerala_act_name_their_gaps() -> None:
    gaps_1871 = {g.cited for g in CATTLE_TRESPASS_1871.gaps}
    assert {"s.17", "s.19", "s.20"} <= gaps_1871
    assert {g.provision for g in KERALA_1961_AMENDED.gaps} == {
        "s.13(1)",
        "s.13(3) proviso",
        "s.16(3)",
    }
    assert all(act.caution for act in ALL)


def test_an_unknown_act_is_refused_by_name() -> None:
    with pytest.raises(UnknownActError, match="kerala-1961"):
        profile("kerala-1962")
    assert profile(DEFAULT_ACT) is KERALA_1961


def test_a_case_recorded_before_profiles_is_under_the_kerala_act() -> None:
    assert case_in(Stage.IMPOUNDED).profile is KERALA_1961


def test_under_the_1871_act_a_refused_account_is_refused_with_the_reason() -> None:
    due = _under(case_in(Stage.ACCOUNT_DUE), CATTLE_TRESPASS_1871)
    today = date(2026, 3, 7)
    assert not due.lawful_today(AccountRefused, today)
    with pytest.raises(TransitionRefusedError) as refused:
        due.apply(AccountRefused(on=today), today)
    assert refused.value.reason == "no_counterpart"
    assert refused.value.provision == "s.15(5)"
    assert refused.value.facts == {"act": "cattle-trespass-1871"}
    # The account is delivered as under any Act: s.16's receipt (Kerala s.15(4)).
    assert due.lawful_today(AccountDelivered, today)
    closed = due.apply(AccountDelivered(on=today, receipt_by="Ramesh"), today)
    assert closed.stage is Stage.CLOSED


@pytest.mark.parametrize("act", [KERALA_1961, KERALA_1961_AMENDED], ids=lambda a: a.key)
def test_under_the_kerala_act_a_refused_account_makes_the_cattle_unclaimed(act: Profile) -> None:
    due = _under(case_in(Stage.ACCOUNT_DUE), act)
    today = date(2026, 3, 7)
    assert due.lawful_today(AccountRefused, today)
    assert due.apply(AccountRefused(on=today), today).stage is Stage.DEEMED_UNCLAIMED


def test_a_correction_keeps_the_cases_act() -> None:
    case = _under(case_in(Stage.IMPOUNDED), CATTLE_TRESPASS_1871)
    wrong = replace(case.seizure, place_seized="Kuttoor", act=DEFAULT_ACT)
    corrected = case.then(
        SeizureCorrected(on=case.seizure.impounded_on, seizure=wrong, reason="place misspelt")
    )
    assert corrected.seizure.place_seized == "Kuttoor"
    assert corrected.profile is CATTLE_TRESPASS_1871


@pytest.mark.parametrize("act", ALL, ids=[a.key for a in ALL])
def test_the_engine_counts_the_days_and_months_each_act_declares(act: Profile) -> None:
    """s.19 (1871: s.20) and s.16(3) (1871: s.17): a case's periods are those its Act
    declares (the 1871 values are gaps, the Kerala Act's taken meanwhile), so a profile's
    figures and the dates its cases get cannot drift apart."""
    held = _under(case_in(Stage.IN_DEPOSIT), act)
    seized, deposited = held.seizure.seizure_day, held.deposited_on
    assert deposited is not None
    assert held.complaint_by == period_end(seized, act.complaint_days)
    assert complaint_last_day(seized, act.complaint_days) == held.complaint_by
    assert dates_of(held).claims_until == add_months(deposited, act.surplus_months)
    assert deposit_window_end(deposited, act.surplus_months) == dates_of(held).claims_until
