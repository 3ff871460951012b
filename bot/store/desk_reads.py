"""The SQL of the web desk's reads (``bot.services.desk``): Today's sections with its
count of cases due in one statement, the keepers and officers whose number said STOP,
a page of the list of cases with its count, and a case's events and ledger. Who may see
which pounds, the paging and the desk's records stay in ``bot.services.desk``."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import (
    Integer,
    Select,
    String,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    select,
    union_all,
)
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from bot.store.models import (
    CaseEvent,
    CaseLot,
    CaseRow,
    Contact,
    DeadlineRow,
    LedgerEntry,
    SettlementRow,
    User,
    naming_phone,
)
from bot.support.caller import KEEPER

__all__ = ["DeskReading"]

OPEN = "open"

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


def _today(rows: int, due_cap: int) -> Any:
    """Today's four sections in one statement, each in its order, told by "section",
    ``rows`` at most in "due" and "awaiting"; the "due" rows carry how many cases are
    due, counted up to ``due_cap + 1`` (a subquery of its own, run once)."""
    due = _OPEN.where(*_DUE_WHERE).order_by(DeadlineRow.due_on).limit(rows)
    #: Cases, not deadlines: a case with two deadlines due is one line of the day's work.
    due_count = select(func.count()).select_from(
        _OPEN.where(*_DUE_WHERE)
        .with_only_columns(DeadlineRow.case_number)
        .distinct()
        .limit(due_cap + 1)
        .subquery()
    )
    awaiting = _OPEN.where(DeadlineRow.kind == "notice_due").order_by(DeadlineRow.due_on)
    auctions = _OPEN.where(
        DeadlineRow.kind == "auction_day",
        DeadlineRow.due_on >= bindparam("day"),
        DeadlineRow.due_on <= bindparam("until"),
    ).order_by(DeadlineRow.due_on)
    # What a case holds in deposit (s.16(3)): the balances of all its settlements (a case
    # whose owner refused the account has two: s.15(5)).
    balance = (
        select(func.coalesce(func.sum(SettlementRow.balance_paise), 0))
        .where(SettlementRow.case_id == DeadlineRow.case_id)
        .scalar_subquery()
    )
    held = _OPEN.where(DeadlineRow.kind == "deposit_window_ends").order_by(DeadlineRow.due_on)
    return union_all(
        _section("due", due, counted=due_count.scalar_subquery()),
        _section("awaiting", awaiting.limit(rows)),
        _section("auctions", auctions),
        _section("held", held, balance),
    )


#: The impounding day of a deadline's case (with its pound: the Act of the case).
_IMPOUNDED = select(CaseRow.impounded_on).where(CaseRow.id == DeadlineRow.case_id).scalar_subquery()


def _section(name: str, query: Any, balance: Any = None, counted: Any = None) -> Any:
    part = query.add_columns(
        literal(name).label("section"),
        (balance if balance is not None else literal(0)).label("balance"),
        (counted if counted is not None else literal(0)).label("due_cases"),
        DeadlineRow.pound_code.label("pound_code"),
        _IMPOUNDED.label("impounded_on"),
    ).subquery()
    return select(part)


@functools.cache
def _today_of(rows: int, due_cap: int) -> Any:
    """Today's statement, built once per size (and compiled once by SQLAlchemy)."""
    return _today(rows, due_cap)


_STOPPED = (
    select(
        User.name,
        User.role,
        User.telegram_id,
        Contact.opted_out_at,
        Contact.whatsapp_stopped_at,
    )
    .join(Contact, Contact.phone == User.phone)
    .where(
        User.active.is_(True),
        (Contact.opted_out_at.is_not(None)) | (Contact.whatsapp_stopped_at.is_not(None)),
        (User.pound_code.in_(bindparam("pounds", expanding=True)))
        | (User.authority_code.in_(bindparam("authorities", expanding=True))),
    )
    .order_by(User.role, User.name, User.id)
)


#: The pounds of ``pounds`` that had a keeper and have none active now (each keeper of
#: theirs disabled), by code.
_KEEPERLESS = (
    select(User.pound_code)
    .where(User.role == KEEPER, User.pound_code.in_(bindparam("pounds", expanding=True)))
    .group_by(User.pound_code)
    .having(func.max(case((User.active.is_(True), 1), else_=0)) == 0)
    .order_by(User.pound_code)
)


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
    stage: bool,
    kind: bool,
    since: bool,
    until: bool,
    many: bool,
    page: int,
    cap: int,
    words: int = 0,
    phone: bool = False,
) -> tuple[Select[int], Select[*tuple[Any, ...]]]:
    """The count and the page statements of a shape of filter, built once per shape (and
    compiled once by SQLAlchemy, its cache keyed on the shape): ``words`` searched words
    (``word0``, ``word1``… each a LIKE pattern, lower case), each found in the place of
    seizure, the owner's name or a lot's kind or description, and the owner's ``phone``."""
    filters: list[Any] = []
    for i in range(words):
        like: Any = bindparam(f"word{i}")
        # The place and the lots' kinds and descriptions as the public search reads them
        # (``search_text``, casefolded), and the owner's name: the desk is staff's. Both
        # are on the row (and, on PostgreSQL, in ``ix_cases_pound_newest``).
        named = func.lower(CaseRow.owner_name).like(like, escape="\\")
        filters.append(CaseRow.search_text.like(like, escape="\\") | named)
    if phone:
        filters.append(naming_phone(bindparam("phone")))
    if stage:
        filters.append(CaseRow.stage == bindparam("stage"))
    if kind:  # the kinds on the case's row (``kinds_text``), as a pattern: ``% cow %``
        filters.append(CaseRow.kinds.like(bindparam("kind"), escape="\\"))
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
    count = select(func.count()).select_from(matching.limit(cap + 1).subquery())
    pound = _Unindexed(CaseRow.pound_code) if many else CaseRow.pound_code
    # The page's cases chosen by what the index of the pounds' cases holds (on PostgreSQL
    # ``ix_cases_pound_newest`` holds every column a filter reads: the choice reads no
    # row), then their rows read by id: a state's rows are not read for an authority's page.
    keys = (
        select(CaseRow.id.label("key"))
        .where(pound.in_(pounds), *filters)
        .order_by(CaseRow.impounded_on.desc(), CaseRow.id.desc())
        .offset(bindparam("offset"))
        .limit(page + 1)  # one more: is there an older page?
        .subquery()
    )
    newest = select(*_CASE_COLUMNS).join(keys, keys.c.key == CaseRow.id).subquery()
    # The page's cases with their lots, one row a lot, and the count, in one statement
    # (the count is a subquery of its own: the database runs it once, not once a row).
    listing = (
        select(newest, CaseLot.kind, CaseLot.count, CaseLot.description, count.scalar_subquery())
        .outerjoin(CaseLot, CaseLot.case_id == newest.c.id)
        .order_by(newest.c.impounded_on.desc(), newest.c.id.desc(), CaseLot.idx)
    )
    return count, listing


def _wanted(
    pounds: list[str],
    stage: str,
    kind: str,
    since: date | None,
    until: date | None,
    words: Sequence[str] = (),
    phone: str = "",
) -> dict[str, Any]:
    """The parameters of the filters in use (an empty one narrows nothing); each word a
    pattern that finds it anywhere, in lower case, its ``%``, ``_`` and ``\\`` as written."""
    kinds = f"% {_escape_like(kind)} %" if kind else ""
    params = {"stage": stage, "kind": kinds, "since": since, "until": until, "phone": phone}
    likes = {f"word{i}": f"%{_escape_like(w.casefold())}%" for i, w in enumerate(words)}
    return {"pounds": pounds} | {k: v for k, v in params.items() if v} | likes


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class DeskReading:
    """The web desk's reads as methods of the transaction: ``bot.store.tx.Tx`` inherits them,
    and so is the port of the desk's reads (``bot.store.port.DeskReads``)."""

    session: AsyncSession

    async def today_rows(
        self, pounds: list[str], day: date, until: date, *, rows: int, due_cap: int
    ) -> list[Row[*tuple[Any, ...]]]:
        """Today's rows for ``pounds`` on ``day``, unordered: the open deadlines of each
        section (case_number, kind, provision, due_on, who, counts_from, section, balance,
        due_cases, pound_code, impounded_on: the last two tell the case's Act): "due" (up
        to ``rows`` due by ``day``, not the owner's, each with the
        count of cases due up to ``due_cap + 1``), "awaiting" (up to ``rows`` notices due),
        "auctions" (from ``day`` to ``until``), "held" (deposit windows, with the balance)."""
        params = {"pounds": pounds, "day": day, "until": until}
        return list((await self.session.execute(_today_of(rows, due_cap), params)).all())

    async def stopped_numbers(
        self, pounds: list[str], authorities: list[str]
    ) -> list[Row[*tuple[Any, ...]]]:
        """The active users of ``pounds`` or ``authorities`` whose number said STOP: rows of
        name, role, telegram_id, opted_out_at (SMS) and whatsapp_stopped_at, by role, name."""
        found = await self.session.execute(_STOPPED, {"pounds": pounds, "authorities": authorities})
        return list(found.all())

    async def keeperless_pounds(self, pounds: list[str]) -> list[str]:
        """The pounds of ``pounds`` whose keepers are all disabled (a pound that never
        had a keeper is not among them), by code."""
        found = await self.session.scalars(_KEEPERLESS, {"pounds": pounds})
        return [code for code in found if code is not None]

    async def cases_page(
        self,
        pounds: list[str],
        *,
        stage: str,
        kind: str,
        since: date | None,
        until: date | None,
        offset: int,
        page: int,
        cap: int,
        words: Sequence[str] = (),
        phone: str = "",
    ) -> list[Row[*tuple[Any, ...]]]:
        """Up to ``page + 1`` cases of ``pounds`` from ``offset``, newest first, narrowed by
        the filters given (empty: not narrowed), one row a lot (a case without lots: one, its
        lot NULL): id, number, pound_code, stage, impounded_on, place_seized, the lot's kind,
        count and description, and how many cases match, counted up to ``cap + 1``. Each of
        ``words`` is found in the place of seizure, the owner's name (the desk is staff's)
        or a lot's kind or description, in any case; ``phone`` (E.164) is the owner's."""
        used = _wanted(pounds, stage, kind, since, until, words, phone)
        shape = (bool(stage), bool(kind), since is not None, until is not None, len(pounds) > 1)
        _, listing = _listing(*shape, page, cap, len(words), bool(phone))
        return list((await self.session.execute(listing, {**used, "offset": offset})).all())

    async def cases_counted(
        self,
        pounds: list[str],
        *,
        stage: str,
        kind: str,
        since: date | None,
        until: date | None,
        page: int,
        cap: int,
        words: Sequence[str] = (),
        phone: str = "",
    ) -> int:
        """How many cases of ``pounds`` the filters given match, counted up to ``cap + 1``."""
        used = _wanted(pounds, stage, kind, since, until, words, phone)
        shape = (bool(stage), bool(kind), since is not None, until is not None, len(pounds) > 1)
        count, _ = _listing(*shape, page, cap, len(words), bool(phone))
        return int((await self.session.execute(count, used)).scalar() or 0)

    async def case_events(self, case_id: int) -> list[tuple[CaseEvent, str | None]]:
        """The events of case ``case_id`` in order, each with its actor's name (or None)."""
        events = await self.session.execute(
            select(CaseEvent, User.name)
            .outerjoin(User, User.id == CaseEvent.actor_user_id)
            .where(CaseEvent.case_id == case_id)
            .order_by(CaseEvent.seq)
        )
        return [(event, name) for event, name in events]

    async def case_ledger(self, case_id: int) -> list[LedgerEntry]:
        """The ledger entries of case ``case_id``, by day and id."""
        ledger = await self.session.execute(
            select(LedgerEntry)
            .where(LedgerEntry.case_id == case_id)
            .order_by(LedgerEntry.on, LedgerEntry.id)
        )
        return list(ledger.scalars())
