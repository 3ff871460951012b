"""Each step of the Act is declared once, in the module of its section, and everything
that asks about a step asks its declaration (``domain.step``, ``domain.steps``)."""

from __future__ import annotations

import inspect
import re
from datetime import date, datetime, time, timedelta

import pytest

from domain import events as events_module
from domain.calendar import LOCAL_TZ
from domain.case import Case, provision_of
from domain.events import Event, Impounded, ReportedUnclaimed
from domain.provisions import MODULES, PROVISIONS
from domain.s07_seizure import Lot, Person, Seizure
from domain.stages import Stage
from domain.step import Step
from domain.steps import DECLARED, STEPS

EVENTS = [
    cls
    for _, cls in inspect.getmembers(events_module, inspect.isclass)
    if issubclass(cls, Event) and cls is not Event
]
IMPOUNDED = date(2026, 3, 1)


def _section(provision: str) -> int:
    found = re.match(r"s\.(\d+)", provision)
    assert found, provision
    return int(found.group(1))


def _modules_of_section(section: int) -> set[str]:
    """The modules of every provision of ``section`` (``domain.provisions.MODULES``)."""
    return {
        module
        for provision, modules in MODULES.items()
        if provision.startswith("s.") and _section(provision) == section
        for module in modules
    }


def test_every_event_is_the_step_of_exactly_one_declaration() -> None:
    declared = [step.event for step, _ in DECLARED]
    assert len(declared) == len(set(declared)), "a step declared twice"
    assert set(declared) == set(EVENTS)
    assert set(STEPS) == set(EVENTS)


@pytest.mark.parametrize(
    ("step", "module"), DECLARED, ids=[f"{step.event.__name__}" for step, _ in DECLARED]
)
def test_a_step_is_declared_in_the_module_of_its_section(step: Step[Event], module: str) -> None:
    for provision in filter(None, (step.provision, step.owners_route)):
        assert provision in PROVISIONS, f"{step.event.__name__} cites {provision}"
    name = module.removeprefix("domain.")
    assert name in MODULES[step.provision], (
        f"{step.event.__name__} is taken under {step.provision}: declare it in "
        f"{MODULES[step.provision][0]}, not {name}"
    )


@pytest.mark.parametrize(
    ("step", "module"), DECLARED, ids=[f"{step.event.__name__}" for step, _ in DECLARED]
)
def test_a_steps_rules_are_written_under_its_section(step: Step[Event], module: str) -> None:
    """The guard, the day and the next stage a declaration names live in its section's
    modules (or are the shared defaults of ``domain.step``)."""
    homes = {
        f"domain.{module}"
        for provision in filter(None, (step.provision, step.owners_route))
        for module in _modules_of_section(_section(provision))
    }
    for rule in (
        step.guard,
        step.guard_new,
        step.lawful,
        step.prepare,
        step.leads_to,
        step.deadlines,
        step.postings,
    ):
        where = getattr(rule, "__module__", None)
        if rule is None or isinstance(rule, Stage) or where == "domain.step":
            continue
        assert where in homes, f"{step.event.__name__}: {rule} is in {where}, not {homes}"


def test_the_provision_of_a_step_on_each_route_is_its_declarations() -> None:
    # The s.13(3) auction and its lots are taken under s.15(1) on the owner's route.
    assert all(
        step.owners_route == "s.15(1)" for step, _ in DECLARED if step.provision == "s.13(3)"
    )
    for step, _ in DECLARED:
        assert step.provision_on(False) == step.provision
        assert step.provision_on(True) == (step.owners_route or step.provision)


def test_provision_of_reads_the_declaration_of_the_events_type() -> None:
    case = _impounded()
    report = ReportedUnclaimed(on=IMPOUNDED + timedelta(days=8))
    assert provision_of(report) == STEPS[ReportedUnclaimed].provision == "s.13(1)"
    assert case.step_of(report) is STEPS[ReportedUnclaimed]


def _impounded() -> Case:
    seizure = Seizure(
        pound="KNM",
        lots=(Lot(kind="cow", count=2, description="brown"),),
        place_seized="Kunnamangalam market",
        brought_at=datetime.combine(IMPOUNDED, time(9), tzinfo=LOCAL_TZ),
        seizer=Person(name="Ravi"),
        owner=Person(name="Kunhammed"),
    )
    return Case(
        number="KNM-1",
        seizure=seizure,
        stage=Stage.IMPOUNDED,
        events=(Impounded(on=IMPOUNDED, seizure=seizure),),
    )


@pytest.mark.parametrize("kind", EVENTS, ids=[e.__name__ for e in EVENTS])
def test_a_step_is_lawful_today_only_from_a_stage_its_declaration_follows(
    kind: type[Event],
) -> None:
    case = _impounded()
    for stage in Stage:
        at = Case(number=case.number, seizure=case.seizure, stage=stage, events=case.events)
        if stage not in STEPS[kind].follows:
            assert not at.lawful_today(kind, IMPOUNDED + timedelta(days=400))


def test_the_day_a_declaration_sets_is_the_day_lawful_today_and_the_guard_agree_on() -> None:
    """The s.13(1) report: not on the seventh day after impounding, on the eighth."""
    case = _impounded()
    seventh, eighth = IMPOUNDED + timedelta(days=7), IMPOUNDED + timedelta(days=8)
    assert not case.lawful_today(ReportedUnclaimed, seventh)
    assert case.lawful_today(ReportedUnclaimed, eighth)
    with pytest.raises(Exception, match="seven days"):
        case.apply(ReportedUnclaimed(on=seventh), seventh)
    assert case.apply(ReportedUnclaimed(on=eighth), eighth).stage is Stage.REPORTED
