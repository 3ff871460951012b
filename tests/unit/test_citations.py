"""Every public rule of ``domain`` names its provision, and only provisions of the Act.

STYLE.md section 2: "A meta-test fails when a public rule has no citation, or cites a
provision that is not in the Act's table of provisions."
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import domain
from domain import errors
from domain.calendar import add_months, day_after_period, period_end
from domain.case import Case
from domain.deadlines import deadlines
from domain.events import Event
from domain.profiles import PROFILES
from domain.provisions import PROVISIONS, UnknownProvisionError, cites, provisions_of
from domain.s04_s11_dues import dues_on
from domain.s07_seizure import Seizure
from domain.s12_release import release_on_payment
from domain.s13_3_proviso import dispose_otherwise
from domain.s13_unclaimed import auction_allowed_from, report_due_on
from domain.s14_deposit import complaint_last_day, deposit_for, release_on_deposit
from domain.s15_3_account import account_for, deliver_account, receipt_for, refuse_account
from domain.s15_sale import close_sale, offer_lot, sale_progress, settle
from domain.s16_s17_proceeds import credit_to_fund, deposit_window_end, establish_claim
from domain.s18_buyers import check_buyer
from domain.tariff import Tariff, feeding_days

MODULES: list[ModuleType] = [
    importlib.import_module(f"domain.{info.name}") for info in pkgutil.iter_modules(domain.__path__)
]

#: Public functions that apply no rule of the Act, and why they need no citation.
UNCITED_FUNCTIONS: dict[str, str] = {
    "domain.money.total": "arithmetic: adds amounts of money, applies no provision",
    "domain.accounts.legs": "bookkeeping: leaves out the legs of nothing, applies no provision",
    "domain.accounts.move": "bookkeeping: a transfer between two accounts; its caller cites",
    "domain.provisions.cites": "the citation machinery itself",
    "domain.profiles.profile": "the lookup of an Act's profile by its key",
    "domain.profiles.require_counterpart": (
        "refuses a step under a provision the case's Act lacks; the step's provision is cited"
    ),
    "domain.provisions.provisions_of": "the citation machinery itself (reads __provisions__)",
    "domain.provisions.home_of": "the citation machinery itself (where a provision's rules live)",
    "domain.case.provision_of": (
        "a lookup of the provision of an event type; every entry is checked below and "
        "every refusal that uses it is checked in test_case_lifecycle"
    ),
    "domain.reminders.days_to_plan": (
        "calendar of the reminders of a deadline; the series it plans cite their provisions"
    ),
    "domain.reminders.next_day": "the next morning of a daily series; no provision involved",
    "domain.reminders.fire_time": "the local hour a reminder goes out; no provision involved",
    "domain.recorded.recorded_of": (
        "query over the case's events (as Case.last): the steps its answers tell of"
    ),
}

#: Public methods that apply no rule of the Act themselves, and why.
UNCITED_METHODS: dict[str, str] = {
    "domain.profiles.Profile.cites": "the profile's table: how its Act cites a provision",
    "domain.profiles.Profile.has": "the profile's table: whether its Act has a provision",
    "domain.profiles.Profile.office_for": "the profile's table: the office holding a power",
    "domain.profiles.Profile.in_force": (
        "the profile with the values configured of its gaps and the offices a s.31 "
        "notification transferred; the rules reading them cite their provisions"
    ),
    "domain.s07_seizure.ActSettings.of": "what a case keeps of its Act as in force",
    "domain.money.Money.zero": "constructor of the zero amount",
    "domain.money.Money.rupees": "parses text into paise; no provision involved",
    "domain.tariff.RateTable.of": "constructor from an iterable of rows",
    "domain.tariff.RateTable.row_on": (
        "generic dated-table lookup; the rules using it (Tariff.fine_per_head s.11, "
        "Tariff.feeding_per_head s.4) cite their provision"
    ),
    "domain.case.Case.open": "constructor; the rule it applies is Seizure.validate (s.7)",
    "domain.case.Case.replay": "rebuilds a case from stored events (no new rule)",
    "domain.case.Case.apply": (
        "the state machine's entry point; each refusal carries the provision of its event "
        "(checked in test_case_lifecycle), the table of which is checked below"
    ),
    "domain.case.Case.first": "query over the case's events",
    "domain.case.Case.step_of": (
        "the lookup of a step's declaration; each declaration is checked in test_steps"
    ),
    "domain.case.Case.then": (
        "takes a step by its declaration, as Case.apply does without today's date; each "
        "declaration's refusals carry their provision (checked in test_case_lifecycle)"
    ),
    "domain.case.Case.from_intake": "a case back at its intake, for a correction's check",
    "domain.case.Case.noted": "a step added as recorded, unchecked, for a correction's check",
    "domain.step.Case.first": "a protocol: what a rule reads (Case.first answers it)",
    "domain.step.Case.last": "a protocol: what a rule reads (Case.last answers it)",
    "domain.step.Case.remaining_heads": "a protocol: what a rule reads",
    "domain.step.Case.step_of": "a protocol: what a rule reads (Case.step_of answers it)",
    "domain.step.Case.apply": "a protocol: the step a rule takes (Case.apply answers it)",
    "domain.step.Case.then": "a protocol: the step a rule takes (Case.then answers it)",
    "domain.step.Case.from_intake": "a protocol: a correction's check (Case answers it)",
    "domain.step.Case.noted": "a protocol: a correction's check (Case answers it)",
    "domain.step.Step.next_stage": "reads the stage a declaration leads to; no rule of its own",
    "domain.step.Step.provision_on": "reads the provision a declaration names for a route",
    "domain.case.Case.kept": "keeps what was made from a case with it; no provision involved",
    "domain.stages.CaseFacts.last": "a protocol: what a rule reads (Case.last answers it)",
    "domain.stages.CaseSteps.apply": "a protocol: how a rule takes a step (Case.apply does)",
    "domain.case.Case.last": "query over the case's events",
    "domain.s15_3_account._Heads.disposed_heads": "a protocol: what SaleFacts reads",
    "domain.s15_3_account._Heads.remaining_heads": "a protocol: what SaleFacts reads",
    "domain.s15_3_account.SaleFacts.disposed_heads": "count over the case's events",
    "domain.s15_3_account.SaleFacts.remaining_heads": "count over the case's events",
    "domain.s04_s11_dues.Dues.of": "sum of the lines of one head of dues",
    "domain.s15_sale.Settlement.to": "sum of the disbursements to one payee",
}


def _public_functions() -> dict[str, Callable[..., object]]:
    found: dict[str, Callable[..., object]] = {}
    for module in MODULES:
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == module.__name__ and not name.startswith("_"):
                found[f"{module.__name__}.{name}"] = fn
    return found


def _public_methods() -> dict[str, Callable[..., object]]:
    found: dict[str, Callable[..., object]] = {}
    for module in MODULES:
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for name, attr in vars(cls).items():
                if isinstance(attr, staticmethod | classmethod):
                    attr = attr.__func__
                if not name.startswith("_") and inspect.isfunction(attr):
                    found[f"{module.__name__}.{cls_name}.{name}"] = attr
    return found


PUBLIC_FUNCTIONS = _public_functions()
PUBLIC_METHODS = _public_methods()
RULES = {
    name: fn
    for name, fn in {**PUBLIC_FUNCTIONS, **PUBLIC_METHODS}.items()
    if name not in UNCITED_FUNCTIONS and name not in UNCITED_METHODS
}


def test_the_meta_test_sees_the_rules_of_every_module() -> None:
    modules = {name.rsplit(".", 1)[0] for name in PUBLIC_FUNCTIONS}
    for expected in ("calendar", "case", "deadlines", "s04_s11_dues", "s15_sale", "tariff"):
        assert f"domain.{expected}" in modules
    assert len(RULES) >= 25


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_name_a_module_offers_in_all_exists(module: ModuleType) -> None:
    for name in getattr(module, "__all__", ()):
        assert hasattr(module, name), f"{module.__name__}.__all__ lists missing {name}"


@pytest.mark.parametrize("name", sorted(RULES), ids=[f"{n} cites the Act" for n in sorted(RULES)])
def test_a_public_rule_cites_at_least_one_provision_of_the_act(name: str) -> None:
    cited = provisions_of(RULES[name])
    assert cited, f"{name} applies a rule but cites no provision"
    unknown = [p for p in cited if p not in PROVISIONS]
    assert unknown == [], f"{name} cites provisions not in the Act's table: {unknown}"


def test_the_allow_list_names_only_functions_that_exist() -> None:
    assert set(UNCITED_FUNCTIONS) <= set(PUBLIC_FUNCTIONS)
    assert set(UNCITED_METHODS) <= set(PUBLIC_METHODS)
    assert all(reason.strip() for reason in {**UNCITED_FUNCTIONS, **UNCITED_METHODS}.values())


#: The provisions each rule must cite (at least), read from the statute.
EXPECTED_CITATIONS: list[tuple[Callable[..., object], set[str]]] = [
    (period_end, {"GCA s.8"}),
    (day_after_period, {"GCA s.8"}),
    (add_months, {"GCA s.8"}),
    (report_due_on, {"s.13(1)", "GCA s.8"}),
    (auction_allowed_from, {"s.13(3)", "GCA s.8"}),
    (deposit_window_end, {"s.16(3)"}),
    (complaint_last_day, {"s.19", "GCA s.8"}),
    (feeding_days, {"s.4"}),
    (Tariff.fine_per_head, {"s.11"}),
    (Tariff.feeding_per_head, {"s.4"}),
    (Seizure.validate, {"s.7", "s.2(1)"}),
    (dues_on, {"s.11", "s.4", "s.15(2)"}),
    (deposit_for, {"s.14", "s.19"}),
    (release_on_payment, {"s.12"}),
    (release_on_deposit, {"s.14"}),
    (check_buyer, {"s.18"}),
    (offer_lot, {"s.13(3)", "s.15(1)", "s.18"}),
    (dispose_otherwise, {"s.13(3) proviso"}),
    (sale_progress, {"s.13(3)", "s.15(1)"}),
    (settle, {"s.15(2)", "s.15(3)", "s.16(1)", "s.16(2)", "s.16(3)"}),
    (close_sale, {"s.15(2)"}),
    (
        account_for,
        {"s.15(3)", *(f"s.15(3)({limb})" for limb in "abcdef")},
    ),
    (receipt_for, {"s.15(4)"}),
    (deliver_account, {"s.15(4)"}),
    (refuse_account, {"s.15(5)"}),
    (establish_claim, {"s.16(3)"}),
    (credit_to_fund, {"s.17(1)"}),
    (deadlines, {"s.13(1)", "s.13(2)", "s.13(3)", "s.16(3)", "s.17(1)", "s.19"}),
]


@pytest.mark.parametrize(
    ("rule", "expected"),
    EXPECTED_CITATIONS,
    ids=[f"{fn.__qualname__} cites {' '.join(sorted(p))}" for fn, p in EXPECTED_CITATIONS],
)
def test_a_rule_cites_the_provisions_it_applies(
    rule: Callable[..., object], expected: set[str]
) -> None:
    assert expected <= set(provisions_of(rule))


def test_every_event_type_has_a_provision_of_the_act() -> None:
    from domain import events as events_module
    from domain.steps import STEPS

    events = [
        cls
        for _, cls in inspect.getmembers(events_module, inspect.isclass)
        if issubclass(cls, Event) and cls is not Event
    ]
    assert len(events) >= 15
    for cls in events:
        provision = STEPS[cls].provision
        assert provision in PROVISIONS, f"{cls.__name__}: {provision}"


_CITATION = re.compile(r"(GCA )?s\.\d+(\(\d+\))?(\([a-z]\))?( proviso)?")


def _string_citations(path: Path) -> list[tuple[int, str]]:
    """Every string literal in a module that is, whole, a citation (not docstrings' prose)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _CITATION.fullmatch(node.value)
    ]


@pytest.mark.parametrize(
    "path", sorted(Path(domain.__file__).parent.glob("*.py")), ids=lambda p: p.name
)
def test_every_citation_written_in_the_domain_is_in_the_table_of_provisions(path: Path) -> None:
    """Errors, dues lines, disbursements and deadlines carry citations as strings: no typo.
    The profiles of the other Acts write those Acts' own citations."""
    known = set(PROVISIONS)
    if path.name == "profiles.py":
        for act in PROFILES.values():
            known |= {cited for cited in act.citations.values() if cited is not None}
            known |= {gap.cited for gap in act.gaps}
    unknown = [(line, text) for line, text in _string_citations(path) if text not in known]
    assert unknown == []


def test_the_table_of_provisions_has_every_section_the_product_enforces() -> None:
    enforced = {
        "s.13(1)",
        "s.13(2)",
        "s.13(2)(a)",
        "s.13(2)(b)",
        "s.13(2)(c)",
        "s.13(3)",
        "s.13(3) proviso",
        "s.14",
        "s.15(1)",
        "s.15(2)",
        "s.15(3)",
        *(f"s.15(3)({limb})" for limb in "abcdef"),
        "s.15(4)",
        "s.15(5)",
        "s.16(1)",
        "s.16(2)",
        "s.16(3)",
        "s.17(1)",
        "s.18",
        "s.19",
    }
    assert enforced <= set(PROVISIONS)
    assert all(text.strip() for text in PROVISIONS.values())


def test_citing_a_provision_that_is_not_in_the_act_is_refused() -> None:
    with pytest.raises(UnknownProvisionError, match=r"s\.99"):
        cites("s.99")


def test_citing_one_known_and_one_unknown_provision_is_refused() -> None:
    with pytest.raises(UnknownProvisionError):
        cites("s.13(1)", "s.13(9)")


def test_a_rule_citing_nothing_is_refused() -> None:
    with pytest.raises(UnknownProvisionError):
        cites()


def test_an_unknown_provision_is_a_value_error() -> None:
    assert issubclass(UnknownProvisionError, ValueError)


def test_cites_marks_the_function_and_returns_it_unchanged() -> None:
    def rule() -> int:
        return 7

    marked = cites("s.13(1)", "GCA s.8")(rule)
    assert marked is rule
    assert marked() == 7
    assert provisions_of(marked) == ("s.13(1)", "GCA s.8")


def test_an_uncited_function_has_no_provisions() -> None:
    assert provisions_of(lambda: None) == ()


def test_case_apply_is_not_mistaken_for_a_cited_rule() -> None:
    assert provisions_of(Case.apply) == ()


def test_every_domain_error_has_a_docstring_and_its_own_stable_code() -> None:
    classes = [
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.DomainError)
    ]
    assert len(classes) == len(errors.__all__)
    codes = [cls.code for cls in classes]
    assert len(set(codes)) == len(codes)
    assert all((cls.__doc__ or "").strip() for cls in classes)


def test_a_domain_error_carries_its_provision() -> None:
    error = errors.TooEarlyError("too early", "s.13(1)")
    assert error.provision == "s.13(1)"
    assert str(error) == "too early"
