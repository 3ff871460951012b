"""The Act by section: each rule lives in the module of the section it applies, and each
section's module has its tests beside it (``domain.provisions.MODULES``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import domain
from domain.provisions import FOUNDATIONS, MODULES, PROVISIONS, WHOLE_CASE, provisions_of

TESTS = Path(__file__).resolve().parent
NAMES = sorted(info.name for info in pkgutil.iter_modules(domain.__path__))
SECTION_MODULES = sorted({modules[0] for modules in MODULES.values()} - set(FOUNDATIONS))

#: Rules that live outside their section's module, and why.
ELSEWHERE: dict[str, str] = {
    "record.days_in_pound": (
        "the charts' count of days in the pound, counted as the s.15(3)(b) account counts them"
    ),
    "record.notice_timeliness": "a measure of the pound's record for the charts, deciding no step",
    "statement._account": "the account of all the sale rounds together, as the statement has it",
}


def _rules() -> Iterator[tuple[str, str, Callable[..., object]]]:
    """(module, name, function) of every cited function and method of ``domain``, but the
    guards of the fold (``Case``), which guard every section's steps in one place."""
    for name in NAMES:
        module = importlib.import_module(f"domain.{name}")
        for attr, value in vars(module).items():
            members: list[tuple[str, object]] = [(attr, value)]
            if inspect.isclass(value) and value.__module__ == module.__name__:
                if value.__name__ == "Case":
                    continue
                members += [(f"{attr}.{k}", v) for k, v in vars(value).items()]
            for member, obj in members:
                fn = obj.fget if isinstance(obj, property) else obj
                if isinstance(fn, staticmethod | classmethod):
                    fn = fn.__func__
                ours = callable(fn) and getattr(fn, "__module__", None) == module.__name__
                if ours and provisions_of(fn):
                    yield name, member, fn


RULES = sorted(_rules(), key=lambda rule: (rule[0], rule[1]))


def test_every_provision_has_a_module_and_every_module_is_there() -> None:
    assert set(MODULES) == set(PROVISIONS)
    listed = {m for modules in MODULES.values() for m in modules} | set(WHOLE_CASE)
    assert listed | set(FOUNDATIONS) >= set(NAMES) - {"__init__"}, "a module of no section"
    assert listed <= set(NAMES), "a module listed that is not there"


@pytest.mark.parametrize("module", SECTION_MODULES)
def test_each_section_module_has_its_tests_beside_it(module: str) -> None:
    assert (TESTS / f"test_{module}.py").is_file()


@pytest.mark.parametrize(("module", "name", "rule"), RULES, ids=[f"{m}.{n}" for m, n, _ in RULES])
def test_a_rule_lives_in_the_module_of_its_section(
    module: str, name: str, rule: Callable[..., object]
) -> None:
    cited = [p for p in provisions_of(rule) if p != "GCA s.8"] or ["GCA s.8"]
    homes = {MODULES[p][0] for p in cited}
    allowed = {m for p in cited for m in MODULES[p]}
    where = f"{module}.{name}"
    if where in ELSEWHERE:
        assert module not in allowed, f"{where} is home now: take it off ELSEWHERE"
        return
    if len(homes) == 1:
        assert module in allowed, f"{where} cites {cited}: it belongs in {homes.pop()}"
    else:
        assert module in allowed or module in WHOLE_CASE, f"{where} joins {sorted(homes)}"


def test_these_checks_see_the_rules_of_every_section() -> None:
    modules = {module for module, _, _ in RULES}
    assert set(SECTION_MODULES) - {"kinds"} <= modules  # the kinds are data (s.2(1))
    assert len(RULES) >= 60
