"""What the web desk shows: the day's work, the list of cases, one case in full.

Each reader is scoped by role as the use cases are: an officer sees the pounds of their
authority, a keeper their pound, an admin every pound; anyone else is refused. The lists
read the projections the store keeps in step with the events (the ``deadlines`` rows,
the ``cases`` and ``case_lots`` rows, the settlements), so a page costs a few indexed
queries whatever the number of cases; one case is rebuilt from its events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from sqlalchemy import Select, func, select

from bot.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.errors import NotAllowedError, UnknownCaseError
from bot.services.base import Deps
from bot.services.officer import account_of
from bot.store.models import CaseEvent, CaseLot, CaseRow, DeadlineRow, LedgerEntry, SettlementRow
from bot.store.models import User as UserRow
from bot.store.tx import LoadedCase, Tx
from domain.case import Lot, Stage
from domain.deadlines import Deadline, deadlines
from domain.dues import Dues, dues_on
from domain.money import Money
from domain.sale import Account, Settlement

__all__ = [
    "CaseFilter",
    "CaseItem",
    "CaseList",
    "CaseView",
    "DepositHeld",
    "DueItem",
    "TimelineEntry",
    "Today",
    "case_view",
    "list_cases",
    "pounds_of",
    "today",
]

#: How many rows a section of a page lists (the rest are counted, not shown).
PAGE = 50
OPEN = "open"


def pounds_of(deps: Deps, caller: Caller) -> list[str]:
    """The pounds the caller may see: their pound, their authority's, or all of them."""
    if caller.role == ADMIN:
        return sorted(deps.config.pounds)
    if caller.role == OFFICER and caller.authority:
        return sorted(
            p.code for p in deps.config.pounds.values() if p.authority == caller.authority
        )
    if caller.role == KEEPER and caller.pound:
        return [caller.pound]
    raise NotAllowedError("only a keeper, an officer or an admin uses the web desk")


@dataclass(frozen=True, slots=True)
class DueItem:
    """A statutory deadline of a case: what, by when, under which provision, for whom."""

    number: str
    kind: str
    provision: str
    due_on: date
    who: str
    counts_from: date


@dataclass(frozen=True, slots=True)
class DepositHeld:
    """Surplus proceeds held in deposit (s.16(3)) and when its three months end."""

    number: str
    amount: Money
    deposited_on: date
    window_end: date


@dataclass(frozen=True, slots=True)
class Today:
    """The day's work of a keeper, an officer or an admin."""

    day: date
    due: list[DueItem]
    due_total: int
    awaiting_notice: list[DueItem]
    auctions: list[DueItem]
    deposits: list[DepositHeld]
    held: Money


def _deadlines(pounds: Sequence[str]) -> Select[DeadlineRow]:
    return select(DeadlineRow).where(DeadlineRow.pound_code.in_(pounds), DeadlineRow.status == OPEN)


def _item(row: DeadlineRow) -> DueItem:
    return DueItem(row.case_number, row.kind, row.provision, row.due_on, row.who, row.counts_from)


async def today(tx: Tx, deps: Deps, caller: Caller) -> Today:
    """Deadlines due or overdue (not the owner's), reports awaiting a notice, auctions in
    the next seven days, and the deposits held with the end of their three months."""
    pounds = pounds_of(deps, caller)
    day = deps.today()
    due_query = _deadlines(pounds).where(DeadlineRow.due_on <= day, DeadlineRow.who != "owner")
    due = (await tx.session.execute(due_query.order_by(DeadlineRow.due_on).limit(PAGE))).scalars()
    due_total = await tx.session.scalar(select(func.count()).select_from(due_query.subquery()))
    awaiting = (
        await tx.session.execute(
            _deadlines(pounds)
            .where(DeadlineRow.kind == "notice_due")
            .order_by(DeadlineRow.due_on)
            .limit(PAGE)
        )
    ).scalars()
    auctions = (
        await tx.session.execute(
            _deadlines(pounds)
            .where(
                DeadlineRow.kind == "auction_day",
                DeadlineRow.due_on >= day,
                DeadlineRow.due_on <= day + timedelta(days=6),
            )
            .order_by(DeadlineRow.due_on)
        )
    ).scalars()
    latest = (
        select(func.max(SettlementRow.id).label("id")).group_by(SettlementRow.case_id).subquery()
    )
    held_rows = await tx.session.execute(
        _deadlines(pounds)
        .where(DeadlineRow.kind == "deposit_window_ends")
        .join(SettlementRow, SettlementRow.case_id == DeadlineRow.case_id)
        .join(latest, latest.c.id == SettlementRow.id)
        .add_columns(SettlementRow.balance_paise)
        .order_by(DeadlineRow.due_on)
    )
    deposits = [
        DepositHeld(row.case_number, Money(int(paise)), row.counts_from, row.due_on)
        for row, paise in held_rows
    ]
    return Today(
        day=day,
        due=[_item(r) for r in due],
        due_total=int(due_total or 0),
        awaiting_notice=[_item(r) for r in awaiting],
        auctions=[_item(r) for r in auctions],
        deposits=deposits,
        held=Money(sum(d.amount.paise for d in deposits)),
    )


@dataclass(frozen=True, slots=True)
class CaseFilter:
    """What the list of cases is narrowed to; empty fields narrow nothing."""

    stage: str = ""
    pound: str = ""
    kind: str = ""
    since: date | None = None
    until: date | None = None
    page: int = 1


@dataclass(frozen=True, slots=True)
class CaseItem:
    """A line of the list of cases."""

    number: str
    pound: str
    stage: str
    impounded_on: date
    place_seized: str
    lots: tuple[Lot, ...]


@dataclass(frozen=True, slots=True)
class CaseList:
    """A page of the list of cases and how many match in all."""

    items: list[CaseItem]
    total: int
    page: int
    pages: int
    pounds: list[str] = field(default_factory=list)


async def list_cases(tx: Tx, deps: Deps, caller: Caller, wanted: CaseFilter) -> CaseList:
    """The caller's cases, newest first, narrowed by stage, pound, kind and dates."""
    pounds = pounds_of(deps, caller)
    query = select(CaseRow).where(
        CaseRow.pound_code.in_([wanted.pound] if wanted.pound in pounds else pounds)
    )
    if wanted.stage:
        query = query.where(CaseRow.stage == wanted.stage)
    if wanted.kind:
        query = query.where(
            select(CaseLot.id)
            .where(CaseLot.case_id == CaseRow.id, CaseLot.kind == wanted.kind)
            .exists()
        )
    if wanted.since is not None:
        query = query.where(CaseRow.impounded_on >= wanted.since)
    if wanted.until is not None:
        query = query.where(CaseRow.impounded_on <= wanted.until)
    total = int(await tx.session.scalar(select(func.count()).select_from(query.subquery())) or 0)
    pages = max(1, -(-total // PAGE))
    page = min(max(1, wanted.page), pages)
    rows = list(
        (
            await tx.session.execute(
                query.order_by(CaseRow.impounded_on.desc(), CaseRow.id.desc())
                .offset((page - 1) * PAGE)
                .limit(PAGE)
            )
        ).scalars()
    )
    lots: dict[int, list[Lot]] = {}
    if rows:
        found = await tx.session.execute(
            select(CaseLot)
            .where(CaseLot.case_id.in_([r.id for r in rows]))
            .order_by(CaseLot.case_id, CaseLot.idx)
        )
        for lot in found.scalars():
            lots.setdefault(lot.case_id, []).append(Lot(lot.kind, lot.count, lot.description))
    items = [
        CaseItem(
            r.number,
            r.pound_code,
            r.stage,
            r.impounded_on,
            r.place_seized,
            tuple(lots.get(r.id, ())),
        )
        for r in rows
    ]
    return CaseList(items, total, page, pages, pounds)


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """An event of the audit log: what, on which day, under what, recorded by whom."""

    type: str
    on: date
    provision: str
    actor_role: str
    actor_name: str
    channel: str


@dataclass(frozen=True, slots=True)
class CaseView:
    """One case as the desk shows it."""

    loaded: LoadedCase
    authority: str
    timeline: list[TimelineEntry]
    deadlines: list[Deadline]
    dues: Dues | None
    settled: tuple[Settlement, Account] | None
    ledger: list[LedgerEntry]


async def case_view(tx: Tx, deps: Deps, caller: Caller, number: str) -> CaseView:
    """One case of the caller's pounds, in full; another's is refused as unknown."""
    pounds = pounds_of(deps, caller)
    loaded = await tx.load_case(number)
    if loaded.pound not in pounds:
        # Said as "no such case": the desk does not confirm another authority's numbers.
        raise UnknownCaseError("no such case", number=loaded.row.number)
    events = await tx.session.execute(
        select(CaseEvent, UserRow.name)
        .outerjoin(UserRow, UserRow.id == CaseEvent.actor_user_id)
        .where(CaseEvent.case_id == loaded.row.id)
        .order_by(CaseEvent.seq)
    )
    timeline = [
        TimelineEntry(e.type, e.on, e.provision, e.actor_role, name or "", e.channel)
        for e, name in events
    ]
    ledger = (
        await tx.session.execute(
            select(LedgerEntry)
            .where(LedgerEntry.case_id == loaded.row.id)
            .order_by(LedgerEntry.on, LedgerEntry.id)
        )
    ).scalars()
    case = loaded.case
    dues = (
        None
        if case.stage is Stage.VOIDED
        else dues_on(case, deps.tariff(loaded.pound), deps.today())
    )
    return CaseView(
        loaded=loaded,
        authority=deps.authority_of(loaded.pound),
        timeline=timeline,
        deadlines=deadlines(case),
        dues=dues,
        settled=account_of(deps, case),
        ledger=list(ledger),
    )
