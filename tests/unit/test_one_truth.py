"""Every answer reads its figures from the statement of the case (``domain.statement``):
no module outside ``domain/`` imports the dues or sale arithmetic, or the rules that
count the Act's dates, to compute an amount or a statutory date itself.

``STILL_COMPUTING`` lists, name by name, the modules that still do; the test fails when
a module not listed starts to, and when a listed one no longer needs its entry, so the
list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Names of the domain that compute money or a statutory date from a case.
ARITHMETIC: dict[str, frozenset[str]] = {
    "domain.s04_s11_dues": frozenset({"dues_on", "daily_charge", "per_day_on"}),
    "domain.s14_deposit": frozenset({"deposit_for", "complaint_last_day"}),
    "domain.s15_sale": frozenset(
        {"round_settlements", "sale_progress", "settle", "shortfall_on_settling"}
    ),
    "domain.s15_3_account": frozenset({"account_for", "time_impounded"}),
    "domain.ledger": frozenset({"postings_for", "held_in_deposit"}),
    "domain.s13_unclaimed": frozenset({"report_due", "report_due_on", "auction_allowed_from"}),
    "domain.s16_s17_proceeds": frozenset({"deposit_window_end", "fund_credit_from"}),
    "domain.calendar": frozenset({"period_end", "day_after_period", "add_months"}),
    "domain.deadlines": frozenset({"deadlines"}),
}

#: The modules that are the statement's and the ledger's doors into the domain.
DOORS: dict[str, str] = {
    "bot/services/base.py": "statement_of: builds the statement with the pound's tariff",
    "bot/services/postings.py": "write_postings: writes the domain's postings",
    "bot/store/deadlines.py": "projects the domain's deadlines into the store's rows",
    "bot/store/memory.py": "the store's fake: projects the domain's deadlines as the store does",
}

#: Modules that still compute from the arithmetic themselves, and the names they use.
STILL_COMPUTING: dict[str, frozenset[str]] = {
    # The demo checks the figures independently of the answers it drives (a cross-check
    # of the ledger and the replies), so it recomputes them on purpose.
    "bot/demo/intake.py": frozenset({"auction_allowed_from", "dues_on", "report_due_on"}),
    "bot/demo/refusal.py": frozenset({"auction_allowed_from"}),
    "bot/demo/sale.py": frozenset(
        {"auction_allowed_from", "deposit_window_end", "dues_on", "sale_progress"}
    ),
}


def _imports(path: Path) -> set[str]:
    """``module.name`` of every arithmetic name ``path`` imports (or reaches as an
    attribute of an imported domain module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if alias.name in ARITHMETIC.get(node.module, frozenset()):
                    found.add(alias.name)
                if node.module == "domain" and f"domain.{alias.name}" in ARITHMETIC:
                    aliases[alias.asname or alias.name] = f"domain.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ARITHMETIC:
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = aliases.get(node.value.id)
            if module and node.attr in ARITHMETIC[module]:
                found.add(node.attr)
    return found


def _uses() -> dict[str, frozenset[str]]:
    out = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        names = _imports(path)
        if names and rel not in DOORS:
            out[rel] = frozenset(names)
    return out


def test_no_service_or_renderer_computes_an_amount_or_a_statutory_date_itself() -> None:
    uses = _uses()
    new = {m: sorted(n - STILL_COMPUTING.get(m, frozenset())) for m, n in uses.items()}
    new = {m: n for m, n in new.items() if n}
    assert not new, f"read these from the statement (domain.statement) instead: {new}"


def test_the_list_of_modules_still_computing_only_shrinks() -> None:
    uses = _uses()
    stale = {
        m: sorted(n - uses.get(m, frozenset()))
        for m, n in STILL_COMPUTING.items()
        if n - uses.get(m, frozenset())
    }
    assert not stale, f"no longer used, take them off STILL_COMPUTING: {stale}"


def test_the_check_sees_a_direct_import_and_a_module_attribute(tmp_path: Path) -> None:
    direct = tmp_path / "direct.py"
    direct.write_text("from domain.s04_s11_dues import dues_on\n", encoding="utf-8")
    attribute = tmp_path / "attribute.py"
    attribute.write_text(
        "from domain import s15_sale as s\nx = s.round_settlements\n", encoding="utf-8"
    )
    assert _imports(direct) == {"dues_on"}
    assert _imports(attribute) == {"round_settlements"}
