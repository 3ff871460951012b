"""``domain/`` is the Act as pure code: the standard library only, no clock, no float.

STYLE.md section 1: the domain imports the standard library (and ``zoneinfo``) and
itself; "today" is a parameter; money is integer paise. Each check parses the source
with ``ast``, so it also sees imports inside functions and code never executed by a test.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import domain

DOMAIN_DIR = Path(domain.__file__).parent
DOMAIN_FILES = sorted(DOMAIN_DIR.glob("*.py"))

#: Attribute chains that read the clock (matched on the last two names, so that
#: ``datetime.datetime.now`` and ``dt.date.today`` are caught as well).
CLOCK_READS = frozenset(
    {
        "date.today",
        "datetime.now",
        "datetime.utcnow",
        "datetime.today",
        "time.time",
        "time.time_ns",
        "time.monotonic",
        "time.localtime",
        "time.gmtime",
    }
)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def foreign_imports(tree: ast.Module) -> list[str]:
    """Top-level modules imported that are neither the standard library nor ``domain``."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a relative import stays inside the package
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        found += [
            f"line {node.lineno}: {root}"
            for root in roots
            if root != "domain" and root not in sys.stdlib_module_names
        ]
    return found


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return "?"


def clock_reads(tree: ast.Module) -> list[str]:
    """Every reference to a clock-reading function, called or not."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            tail = ".".join(_dotted(node).split(".")[-2:])
            if tail in CLOCK_READS:
                found.append(f"line {node.lineno}: {_dotted(node)}")
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            found += [
                f"line {node.lineno}: from time import {alias.name}"
                for alias in node.names
                if f"time.{alias.name}" in CLOCK_READS
            ]
    return found


def _annotations(tree: ast.Module) -> list[ast.expr]:
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            found.append(node.returns)
    return found


def float_uses(tree: ast.Module) -> list[str]:
    """The name ``float`` (a call, an annotation, an isinstance) or a float/complex literal."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "float":
            found.append(f"line {node.lineno}: float")
        elif isinstance(node, ast.Constant) and isinstance(node.value, float | complex):
            found.append(f"line {node.lineno}: literal {node.value!r}")
    # A string annotation ("float | None") is an expression to mypy: parse it and look in.
    for annotation in _annotations(tree):
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            inner = ast.parse(annotation.value, mode="eval")
            if any(isinstance(n, ast.Name) and n.id == "float" for n in ast.walk(inner)):
                found.append(f"line {annotation.lineno}: annotation {annotation.value!r}")
    return found


def test_the_domain_package_has_the_modules_the_checks_expect() -> None:
    names = {path.stem for path in DOMAIN_FILES}
    assert {
        "calendar",
        "case",
        "s04_s11_dues",
        "money",
        "provisions",
        "s15_sale",
        "tariff",
    } <= names


@pytest.mark.parametrize("path", DOMAIN_FILES, ids=lambda p: p.name)
def test_a_domain_module_imports_only_the_standard_library_and_domain(path: Path) -> None:
    assert foreign_imports(_tree(path)) == []


@pytest.mark.parametrize("path", DOMAIN_FILES, ids=lambda p: p.name)
def test_a_domain_module_never_reads_the_clock_today_is_a_parameter(path: Path) -> None:
    assert clock_reads(_tree(path)) == []


@pytest.mark.parametrize("path", DOMAIN_FILES, ids=lambda p: p.name)
def test_a_domain_module_never_uses_float(path: Path) -> None:
    assert float_uses(_tree(path)) == []


# The checkers themselves must catch what they look for, or the tests above prove nothing.

BAD_SOURCE = """
import os.path
import sqlalchemy.orm
from telegram import Bot
from . import money
from datetime import date, datetime
import datetime as dt
from time import time

def now() -> date:
    return date.today()

def stamp() -> object:
    return datetime.now(), dt.datetime.utcnow(), time()

def half(x: "float | None") -> float:
    return float(x) * 0.5
"""


def test_the_import_check_finds_a_third_party_import_and_spares_the_standard_library() -> None:
    found = foreign_imports(ast.parse(BAD_SOURCE))
    assert [f.split(": ")[1] for f in found] == ["sqlalchemy", "telegram"]


def test_the_clock_check_finds_each_way_of_reading_the_clock() -> None:
    found = clock_reads(ast.parse(BAD_SOURCE))
    assert [f.split(": ")[1] for f in found] == [
        "from time import time",
        "date.today",
        "datetime.now",
        "dt.datetime.utcnow",
    ]


def test_the_float_check_finds_the_name_a_literal_and_a_string_annotation() -> None:
    found = float_uses(ast.parse(BAD_SOURCE))
    kinds = sorted(f.split(": ")[1].split(" ")[0] for f in found)
    assert kinds == ["annotation", "float", "float", "literal"]
