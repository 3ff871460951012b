"""What the web desk shows: the day's work, the list of cases, one case in full.

Each reader is scoped by role as the use cases are: an officer sees the pounds of their
authority, a keeper their pound, an admin every pound; anyone else is refused. The lists
read the projections the store keeps in step with the events (the ``deadlines`` rows,
the ``cases`` and ``case_lots`` rows, the settlements), so a page costs a few indexed
queries whatever the number of cases; one case is rebuilt from its events.

Why it is long: the queries of every page of the web desk.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import (
    Integer,
    Select,
    String,
    bindparam,
    func,
    literal,
    literal_column,
    select,
    union_all,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from bot.services.base import Deps, statement_of
from bot.store.models import (
    CaseEvent,
    CaseLot,
    CaseRow,
    Contact,
    DeadlineRow,
    LedgerEntry,
    SettlementRow,
)
from bot.store.models import User as UserRow
from bot.store.tx import LoadedCase, Tx
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.errors import NotAllowedError, UnknownCaseError
from domain.deadlines import Deadline
from domain.money import Money
from domain.s04_s11_dues import Dues
from domain.s07_seizure import Lot
from domain.s15_3_account import Account
from domain.s15_sale import Settlement
from domain.stages import Stage
from domain.statement import Statement

__all__ = [
    "CaseFilter",
    "CaseItem",
    "CaseList",
    "CaseView",
    "DepositHeld",
    "DueItem",
    "StoppedNumber",
    "TimelineEntry",
    "Today",
    "case_of",
    "case_view",
    "list_cases",
    "pounds_of",
    "today",
]

#: How many cases a page of the list shows (a phone screen's worth, twice over).
PAGE = 20
#: How many rows each section of Today lists: the earliest (the list of cases has all).
TODAY_ROWS = 15
#: Cases are counted up to this many; beyond, the list says "1000+".
COUNT_CAP = 1000
#: Deadlines due are counted up to this many on Today ("100+": the list has the rest).
DUE_CAP = 100
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
class StoppedNumber:
    """A keeper or an officer whose number said STOP on a channel (``channel``: ``sms``
    or ``whatsapp``), since ``since``: no reminder or report reaches it there; with
    Telegram linked they come there instead."""

    name: str
    role: str
    channel: str
    since: date
    on_telegram: bool


@dataclass(frozen=True, slots=True)
class Today:
    """The day's work of a keeper, an officer or an admin."""

    day: date
    due: list[DueItem]
    #: How many are due, up to DUE_CAP + 1 (more than DUE_CAP: "100+").
    due_total: int
    awaiting_notice: list[DueItem]
    auctions: list[DueItem]
    deposits: list[DepositHeld]
    held: Money
    #: Keepers and officers whose number said STOP: nothing goes to it but answers.
    stopped: list[StoppedNumber] = field(default_factory=list)

    @property
    def due_counted(self) -> str:
        """How many are due, as the page says it: ``12``, or ``100+`` past DUE_CAP."""
        return str(self.due_total) if self.due_total <= DUE_CAP else f"{DUE_CAP}+"


# The statements of Today, built once (every request of the page runs them all;
# SQLAlchemy compiles each once, then finds it in its cache).
_COLUMNS = (
    DeadlineRow.case_number,
    DeadlineRow.kind,
    DeadlineRow.provision,
    DeadlineRow.due_on,
    DeadlineRow.who,
    DeadlineRow.counts_from,
)
_OPEN = select(*_COLUMNS).where(
    DeadlineRow.status == OPEN, DeadlineRow.pound_code.in_(bindparam("pounds", expanding=True))
)
_DUE_WHERE = (DeadlineRow.due_on <= bindparam("day"), DeadlineRow.who != "owner")
_DUE = _OPEN.where(*_DUE_WHERE).order_by(DeadlineRow.due_on).limit(TODAY_ROWS)
#: Cases, not deadlines: a case with two deadlines due is one line of the day's work.
_DUE_COUNT = select(func.count()).select_from(
    _OPEN.where(*_DUE_WHERE)
    .with_only_columns(DeadlineRow.case_number)
    .distinct()
    .limit(DUE_CAP + 1)
    .subquery()
)
_AWAITING = _OPEN.where(DeadlineRow.kind == "notice_due").order_by(DeadlineRow.due_on)
_AUCTIONS = _OPEN.where(
    DeadlineRow.kind == "auction_day",
    DeadlineRow.due_on >= bindparam("day"),
    DeadlineRow.due_on <= bindparam("until"),
).order_by(DeadlineRow.due_on)
#: What a case holds in deposit (s.16(3)): the balances of all its settlements (a case
#: whose owner refused the account has two: s.15(5)).
_BALANCE = (
    select(func.coalesce(func.sum(SettlementRow.balance_paise), 0))
    .where(SettlementRow.case_id == DeadlineRow.case_id)
    .scalar_subquery()
)
_HELD = _OPEN.where(DeadlineRow.kind == "deposit_window_ends").order_by(DeadlineRow.due_on)


def _section(name: str, query: Any, balance: Any = None) -> Any:
    part = query.add_columns(
        literal(name).label("section"),
        (balance if balance is not None else literal(0)).label("balance"),
    ).subquery()
    return select(part)


#: The four sections of Today in one statement, each in its order, told by "section".
_TODAY = union_all(
    _section("due", _DUE),
    _section("awaiting", _AWAITING.limit(TODAY_ROWS)),
    _section("auctions", _AUCTIONS),
    _section("held", _HELD, _BALANCE),
)


def _item(row: Any) -> DueItem:
    return DueItem(row[0], row[1], row[2], row[3], row[4], row[5])


async def today(tx: Tx, deps: Deps, caller: Caller) -> Today:
    """Deadlines due or overdue (not the owner's), reports awaiting a notice, auctions in
    the next seven days, and the deposits held with the end of their three months."""
    pounds = pounds_of(deps, caller)
    day = deps.today()
    params = {"pounds": pounds, "day": day, "until": day + timedelta(days=6)}
    sections: dict[str, list[Any]] = {"due": [], "awaiting": [], "auctions": [], "held": []}
    for row in (await tx.session.execute(_TODAY, params)).all():
        sections[row[6]].append(row)
    for name, rows in sections.items():  # a UNION ALL keeps no order of its own
        rows.sort(key=lambda row: (row[3], row[0]))
        # A case once per section, at its earliest deadline (its page lists them all).
        firsts: dict[str, Any] = {}
        for row in rows:
            firsts.setdefault(row[0], row)
        sections[name] = list(firsts.values())
    # Counted up to DUE_CAP: "100+" says enough, and the count stays cheap.
    due_total = (await tx.session.execute(_DUE_COUNT, {"pounds": pounds, "day": day})).scalar()
    deposits = [
        DepositHeld(row[0], Money(int(row[7] or 0)), row[5], row[3]) for row in sections["held"]
    ]
    return Today(
        day=day,
        due=[_item(r) for r in sections["due"]],
        due_total=int(due_total or 0),
        awaiting_notice=[_item(r) for r in sections["awaiting"]],
        auctions=[_item(r) for r in sections["auctions"]],
        deposits=deposits,
        held=Money(sum(d.amount.paise for d in deposits)),
        stopped=await _stopped_numbers(tx, deps, pounds),
    )


_STOPPED = (
    select(
        UserRow.name,
        UserRow.role,
        UserRow.telegram_id,
        Contact.opted_out_at,
        Contact.whatsapp_stopped_at,
    )
    .join(Contact, Contact.phone == UserRow.phone)
    .where(
        UserRow.active.is_(True),
        (Contact.opted_out_at.is_not(None)) | (Contact.whatsapp_stopped_at.is_not(None)),
        (UserRow.pound_code.in_(bindparam("pounds", expanding=True)))
        | (UserRow.authority_code.in_(bindparam("authorities", expanding=True))),
    )
    .order_by(UserRow.role, UserRow.name, UserRow.id)
)


async def _stopped_numbers(tx: Tx, deps: Deps, pounds: list[str]) -> list[StoppedNumber]:
    """The keepers of ``pounds`` and the officers of their authorities whose number said
    STOP (by SMS, by WhatsApp), each channel a line, the day in local time."""
    authorities = sorted(
        {deps.config.pounds[p].authority for p in pounds if p in deps.config.pounds}
    )
    zone = deps.config.reminders.timezone
    found = []
    stopped = await tx.session.execute(_STOPPED, {"pounds": pounds, "authorities": authorities})
    for name, role, telegram_id, sms_at, whatsapp_at in stopped.all():
        for channel, since in (("sms", sms_at), ("whatsapp", whatsapp_at)):
            if since is not None:
                day = since.astimezone(zone).date()
                found.append(StoppedNumber(name, role, channel, day, telegram_id is not None))
    return found


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
    """A page of the list of cases, how many match (counted up to COUNT_CAP + 1), and
    whether older ones follow."""

    items: list[CaseItem]
    total: int
    page: int
    more: bool
    pounds: list[str] = field(default_factory=list)

    @property
    def counted(self) -> str:
        """How many match, as the page says it: ``25``, or ``1000+`` past COUNT_CAP."""
        return str(self.total) if self.total <= COUNT_CAP else f"{COUNT_CAP}+"


_CASE_COLUMNS = (
    CaseRow.id,
    CaseRow.number,
    CaseRow.pound_code,
    CaseRow.stage,
    CaseRow.impounded_on,
    CaseRow.place_seized,
)


class _Unindexed(FunctionElement[str]):
    """A column the SQLite planner must not pick an index for (``+column``): the pounds
    of an authority match most cases, and walking the newest-first index beats sorting
    them all. Other databases get the bare column (their planners have statistics)."""

    inherit_cache = True
    type = String()


@compiles(_Unindexed)
def _bare(element: _Unindexed, compiler: SQLCompiler, **kw: Any) -> str:
    return str(compiler.process(element.clauses, **kw))


@compiles(_Unindexed, "sqlite")
def _plus(element: _Unindexed, compiler: SQLCompiler, **kw: Any) -> str:
    return "+" + str(compiler.process(element.clauses, **kw))


@functools.cache
def _listing(
    stage: bool, kind: bool, since: bool, until: bool, many: bool
) -> tuple[Select[int], Select[*tuple[Any, ...]]]:
    """The count and the page statements of a shape of filter, built once per shape (and
    compiled once by SQLAlchemy, its cache keyed on the shape)."""
    filters: list[Any] = []
    if stage:
        filters.append(CaseRow.stage == bindparam("stage"))
    if kind:
        filters.append(
            select(CaseLot.id)
            .where(CaseLot.case_id == CaseRow.id, CaseLot.kind == bindparam("kind"))
            .exists()
        )
    if since:
        filters.append(CaseRow.impounded_on >= bindparam("since"))
    if until:
        filters.append(CaseRow.impounded_on <= bindparam("until"))
    pounds: Any = bindparam("pounds", expanding=True)
    # The count reads the pound index (a constant a case: SQLite then reads no column of
    # the index, some 15 % cheaper); the page walks the newest-first index.
    matching = (
        select(literal_column("1", Integer))
        .select_from(CaseRow)
        .where(CaseRow.pound_code.in_(pounds), *filters)
    )
    count = select(func.count()).select_from(matching.limit(COUNT_CAP + 1).subquery())
    pound = _Unindexed(CaseRow.pound_code) if many else CaseRow.pound_code
    newest = (
        select(*_CASE_COLUMNS)
        .where(pound.in_(pounds), *filters)
        .order_by(CaseRow.impounded_on.desc(), CaseRow.id.desc())
        .offset(bindparam("offset"))
        .limit(PAGE + 1)  # one more: is there an older page?
        .subquery()
    )
    # The page's cases with their lots, one row a lot, and the count, in one statement
    # (the count is a subquery of its own: the database runs it once, not once a row).
    page = (
        select(newest, CaseLot.kind, CaseLot.count, CaseLot.description, count.scalar_subquery())
        .outerjoin(CaseLot, CaseLot.case_id == newest.c.id)
        .order_by(newest.c.impounded_on.desc(), newest.c.id.desc(), CaseLot.idx)
    )
    return count, page


async def list_cases(tx: Tx, deps: Deps, caller: Caller, wanted: CaseFilter) -> CaseList:
    """The caller's cases, newest first, narrowed by stage, pound, kind and dates."""
    pounds = pounds_of(deps, caller)
    params: dict[str, Any] = {
        "pounds": [wanted.pound] if wanted.pound in pounds else pounds,
        "stage": wanted.stage,
        "kind": wanted.kind,
        "since": wanted.since,
        "until": wanted.until,
    }
    count, listing = _listing(
        bool(wanted.stage),
        bool(wanted.kind),
        wanted.since is not None,
        wanted.until is not None,
        len(params["pounds"]) > 1,
    )
    used = {k: v for k, v in params.items() if k == "pounds" or v}
    page = max(1, wanted.page)
    found = (await tx.session.execute(listing, {**used, "offset": (page - 1) * PAGE})).all()
    cases: dict[int, tuple[Any, list[Lot]]] = {}
    for row in found:
        lots = cases.setdefault(row[0], (row, []))[1]
        if row[6] is not None:
            lots.append(Lot(row[6], row[7], row[8]))
    shown = list(cases.values())
    # On a page past the last (or with no case at all), the count alone.
    total = int(shown[0][0][9] if shown else (await tx.session.execute(count, used)).scalar() or 0)
    more = len(shown) > PAGE
    items = [CaseItem(r[1], r[2], r[3], r[4], r[5], tuple(lots)) for r, lots in shown[:PAGE]]
    return CaseList(items, total, page, more, pounds)


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
    stated: Statement


async def case_of(
    tx: Tx, deps: Deps, caller: Caller, number: str, *, for_update: bool = False
) -> LoadedCase:
    """A case of the caller's pounds (``for_update``: locked for a step); another's is
    refused as unknown."""
    loaded = await tx.load_case(number, for_update=for_update)
    if loaded.pound not in pounds_of(deps, caller):
        # Said as "no such case": the desk does not confirm another authority's numbers.
        raise UnknownCaseError("no such case", number=loaded.row.number)
    return loaded


async def case_view(tx: Tx, deps: Deps, caller: Caller, number: str | LoadedCase) -> CaseView:
    """One case of the caller's pounds, in full: read by its number, or as already read
    (the case after a step); another's is refused as unknown."""
    if isinstance(number, LoadedCase):
        loaded = number
    else:
        loaded = await case_of(tx, deps, caller, number)
    events = await tx.session.execute(
        select(CaseEvent, UserRow.name)
        .outerjoin(UserRow, UserRow.id == CaseEvent.actor_user_id)
        .where(CaseEvent.case_id == loaded.row.id)
        .order_by(CaseEvent.seq)
    )
    # Each step cites the provision of the route it was taken on (s.13(3) or s.15(1)),
    # read from the case: rows written before the route was recorded cite s.13(3).
    cited = loaded.case.provisions
    timeline = [
        TimelineEntry(
            e.type,
            e.on,
            cited[e.seq] if e.seq < len(cited) else e.provision,
            e.actor_role,
            name or "",
            e.channel,
        )
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
    stated = statement_of(deps, case)
    settled = [r.settlement for r in stated.rounds if r.settlement is not None]
    return CaseView(
        loaded=loaded,
        authority=deps.authority_of(loaded.pound),
        timeline=timeline,
        deadlines=list(stated.deadlines),
        dues=None if case.stage is Stage.VOIDED else stated.dues,
        settled=(settled[-1], stated.account) if settled and stated.account else None,
        ledger=list(ledger),
        stated=stated,
    )
