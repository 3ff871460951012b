"""CSV exports for the authority's office: the cases, the ledger, the audit of the
changes to its users, and the audit of the changes to its configuration made on the web
desk (``config_audit_record``, beside the users' ``audit_record``).

Amounts leave the database as integer paise and are written as rupees with two
decimals by integer division, so a clerk's desk calculator agrees to the paisa.

Every CSV file the server or ``poundbot export`` writes goes through
``bot.support.csv_sheet.write_csv``, which makes each cell safe to open in a spreadsheet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date
from typing import Literal

from bot.store.config_versions import ChangeRow
from bot.store.exports import case_lots, case_rows, last_event_days
from bot.store.models import UserChange
from bot.store.port import LedgerReads
from bot.store.tx import Tx
from bot.support.csv_sheet import Table
from domain.calendar import LOCAL_TZ

__all__ = [
    "AUDIT_HEADER",
    "CASE_HEADER",
    "CONFIG_AUDIT_HEADER",
    "LEDGER_HEADER",
    "CaseLine",
    "LedgerLine",
    "audit_record",
    "case_record",
    "changed_by",
    "config_audit_record",
    "kinds_text",
    "ledger_lines",
    "ledger_record",
    "read_table",
    "rupees",
]

CASE_HEADER = (
    "number",
    "pound",
    "stage",
    "impounded_on",
    "place_seized",
    "kinds",
    "heads",
    "last_event_on",
)
LEDGER_HEADER = ("date", "authority", "case", "account", "amount_rupees", "provision")
AUDIT_HEADER = ("at", "user", "authority", "by", "field", "old", "new", "reason")
#: The audit of the configuration: a value changed on the web desk a row.
CONFIG_AUDIT_HEADER = (
    "at",
    "version",
    "authority",
    "by",
    "entity",
    "key",
    "field",
    "old",
    "new",
    "reason",
)


@dataclass(frozen=True, slots=True)
class CaseLine:
    """A case as the export reads it: its row, its lots in order, its newest event's day."""

    number: str
    pound: str
    stage: str
    impounded_on: date
    place_seized: str
    lots: tuple[tuple[str, int], ...]  # (kind, count), in the order of the s.7 report
    last_event_on: date | None


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """A ledger entry as the export reads it (amount in integer paise)."""

    on: date
    authority: str
    case_number: str
    account: str
    amount_paise: int
    provision: str


def rupees(paise: int) -> str:
    """Integer paise as rupees with two decimals: 12050 -> "120.50", -5 -> "-0.05"."""
    whole, part = divmod(abs(paise), 100)
    return f"{'-' if paise < 0 else ''}{whole}.{part:02d}"


def kinds_text(lots: Iterable[tuple[str, int]]) -> str:
    """Heads per kind, in the order the kinds first appear: "2 cow; 1 buffalo"."""
    counts: dict[str, int] = {}
    for kind, count in lots:
        counts[kind] = counts.get(kind, 0) + count
    return "; ".join(f"{count} {kind}" for kind, count in counts.items())


def case_record(line: CaseLine) -> list[str]:
    """One CSV record of the cases export (columns of ``CASE_HEADER``)."""
    return [
        line.number,
        line.pound,
        line.stage,
        line.impounded_on.isoformat(),
        line.place_seized,
        kinds_text(line.lots),
        str(sum(count for _, count in line.lots)),
        line.last_event_on.isoformat() if line.last_event_on else "",
    ]


def ledger_record(line: LedgerLine) -> list[str]:
    """One CSV record of the ledger export (columns of ``LEDGER_HEADER``)."""
    return [
        line.on.isoformat(),
        line.authority,
        line.case_number,
        line.account,
        rupees(line.amount_paise),
        line.provision,
    ]


def changed_by(change: UserChange) -> str:
    """Who made a change to a user: the id of the user who did, or "cli" (the command
    line, which acts as no user)."""
    return "cli" if change.by_user_id is None else str(change.by_user_id)


def audit_record(change: UserChange) -> list[str]:
    """One CSV record of the audit export (columns of ``AUDIT_HEADER``): when, in the
    pounds' time with its offset, to the second."""
    return [
        change.at.astimezone(LOCAL_TZ).isoformat(timespec="seconds"),
        str(change.user_id),
        change.authority_code or "",
        changed_by(change),
        change.field,
        change.old or "",
        change.new or "",
        change.reason,
    ]


def config_audit_record(change: ChangeRow) -> list[str]:
    """One CSV record of the audit of the configuration (``CONFIG_AUDIT_HEADER``): when
    (in the pounds' time, to the second), the version it made, the authority (empty: the
    state's), who (by name), what (entity and its code), which field, the old and new
    value as the audit keeps them (JSON for a text per language or a list), and why."""
    at = change.at if change.at.tzinfo else change.at.replace(tzinfo=UTC)
    return [
        at.astimezone(LOCAL_TZ).isoformat(timespec="seconds"),
        str(change.version_id),
        change.authority_code or "",
        change.by_name,
        change.entity,
        change.key,
        change.field,
        change.old or "",
        change.new or "",
        change.reason,
    ]


async def read_table(
    tx: Tx, what: Literal["cases", "ledger", "audit"], *, authority: str | None = None
) -> Table:
    """The cases (every pound, by pound and number), the ledger (oldest first, of one
    authority when ``authority`` is given) or the audit of the changes to users (oldest
    first, to the users of one authority when given), formatted for CSV."""
    if what == "cases":
        return Table(CASE_HEADER, [case_record(line) for line in await _case_lines(tx)])
    if what == "audit":
        changes = await tx.user_changes(authority=authority)
        return Table(AUDIT_HEADER, [audit_record(change) for change in changes])
    return Table(
        LEDGER_HEADER, [ledger_record(line) for line in await _ledger_lines(tx, authority)]
    )


async def _case_lines(tx: Tx) -> list[CaseLine]:
    cases = await case_rows(tx)
    lots: dict[int, list[tuple[str, int]]] = {}
    for case_id, kind, count in await case_lots(tx):
        lots.setdefault(case_id, []).append((kind, count))
    last = await last_event_days(tx)
    return [
        CaseLine(number, pound, stage, impounded_on, place, tuple(lots.get(id_, ())), last.get(id_))
        for id_, number, pound, stage, impounded_on, place in cases
    ]


async def _ledger_lines(tx: Tx, authority: str | None) -> list[LedgerLine]:
    return await ledger_lines(tx, authority=authority)


async def ledger_lines(
    tx: LedgerReads,
    *,
    authority: str | None = None,
    pounds: Sequence[str] | None = None,
    start: date | None = None,
    end: date | None = None,
) -> list[LedgerLine]:
    """Ledger entries, oldest first: of one authority, of the cases of some pounds, from
    ``start`` up to (not including) ``end``, as each is given."""
    rows = await tx.ledger_rows(authority=authority, pounds=pounds, start=start, end=end)
    return [LedgerLine(*row) for row in rows]
