"""The renderers (``bot/i18n``) read the steps they tell of from the statement of the
case (``Statement.recorded``, ``domain.recorded``), never from the case's events: no
module of ``bot/i18n`` calls ``.last(`` or ``.first(`` (``Case.last``, ``Case.first``)
or reads ``last_event_on`` or the events themselves (``case.events``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "bot" / "i18n"
MODULES = sorted(I18N.rglob("*.py"))

#: What digs into a case's events: methods called, attributes read.
CALLS = frozenset({"last", "first"})
READS = frozenset({"last_event_on", "events"})


def _digs(source: str) -> list[str]:
    """Each place ``source`` calls ``<x>.last(...)``/``<x>.first(...)`` or reads
    ``<x>.last_event_on`` or ``<x>.events``, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in CALLS:
                found.append(f"{node.lineno}: .{node.func.attr}(")
        elif isinstance(node, ast.Attribute) and node.attr in READS:
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_the_check_finds_what_it_looks_for() -> None:
    source = "a = case.last(X)\nb = case.first(Y)\nc = case.last_event_on\nd = case.events[-1]\n"
    assert _digs(source + "e = s.recorded.payment\n") == [
        "1: .last(",
        "2: .first(",
        "3: .last_event_on",
        "4: .events",
    ]


def test_there_are_renderers_to_check() -> None:
    names = {p.relative_to(I18N).as_posix() for p in MODULES}
    assert {"officers/deposit.py", "officers/sale.py", "public/anyone.py"} <= names
    assert {"public/owner.py", "keepers/keeper.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_renderer_reads_the_statement_not_the_events_of_the_case(path: Path) -> None:
    assert _digs(path.read_text(encoding="utf-8")) == []
