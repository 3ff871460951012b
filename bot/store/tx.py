"""The unit of work: one database transaction and what the use cases read and write in it.

Why it is long: every read and write of a case is a method of the one transaction object,
so that none is made outside it."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, or_, select, text, update
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import ORMExecuteState, Session
from sqlalchemy.sql import Executable, Select

from bot.observe.metrics import DB_WAIT, DB_WAIT_REFUSED
from bot.store import desk_reads, exports, message_care, message_reads, users, web_sessions
from bot.store.case_cache import CaseCache
from bot.store.codec import dump_event, load_event
from bot.store.deadlines import derive_deadlines
from bot.store.models import (
    Authority,
    CaseEvent,
    CaseLot,
    CaseRow,
    LedgerEntry,
    LotOwnerPhone,
    Payment,
    Pound,
    SaleLot,
    SettlementRow,
    naming_phone,
)
from bot.store.search_text import IN_POUND_SQL, IN_POUND_VALUES, search_columns
from bot.support import budget
from bot.support.caller import Caller
from bot.support.clock import Clock
from bot.support.errors import BadInputError, CaseChangedError, UnknownCaseError
from bot.support.public_text import public_lots
from bot.support.spelling import searchable_name
from domain.accounts import Postings
from domain.case import Case
from domain.events import (
    AuctionScheduled,
    DisposedOtherwise,
    Event,
    LotOffered,
    LotsSeparated,
    NoticePosted,
    SeizureCorrected,
)
from domain.money import Money
from domain.s15_sale import Settlement

__all__ = [
    "CASE_AHEAD",
    "SHUT",
    "LoadedCase",
    "ReadOnlyError",
    "Recorder",
    "Store",
    "Tx",
    "case_named",
    "named_places",
    "owner_name_of",
    "parse_case_number",
    "search_query",
    "sync_places",
]

#: Stages of a case on no working list: finished, or voided as entered by mistake.
SHUT = ("released", "closed", "voided")

_TURN_WAIT = DB_WAIT.labels("turn")

#: A case number: its pound's letters and its number (``KNM-17``, ``knm 17``, ``KNM17``).
_CASE_NUMBER = r"([A-Za-z]{2,6})\s*[-/ .#]?\s*(\d{1,7})"
_CASE_NO = re.compile(rf"^\s*{_CASE_NUMBER}\s*$")
#: A case number anywhere in a line of text (``DUES knm 17``, ``PAID KNM-8 200``).
_CASE_NAMED = re.compile(rf"(?<![^\W\d_]){_CASE_NUMBER}(?!\d)")


def owner_name_of(case: Case) -> str | None:
    """The owner's name of the case's latest seizure facts, as ``cases.owner_name`` keeps
    it for staff's search (None: no owner named); the owners' names, each once, where the
    lots are of more than one owner."""
    names = [owner.name for owner in case.seizure.owners if owner is not None]
    return searchable_name(" ".join(dict.fromkeys(names))) if names else None


def case_named(text: str) -> tuple[str, int] | None:
    """The first case number ``text`` names, if any (a guess: the words are parsed
    later): the case an inbound message is likely about, read ahead with its claim
    (``bot.store.messages.act_on_inbound``, ``Tx.load_case``)."""
    match = _CASE_NAMED.search(text[:200])
    return (match.group(1).upper(), int(match.group(2))) if match else None


_CASES, _EVENTS_TABLE = cast(Table, CaseRow.__table__), cast(Table, CaseEvent.__table__)
#: The id of a case's last event: it names the case's whole history (events are only
#: ever appended), so a fold kept for it is the case (``bot.store.case_cache``). Of the
#: tables, not the ORM classes, so that a statement it is part of stays a plain one.
_LAST_EVENT = (
    select(_EVENTS_TABLE.c.id)
    .where(_EVENTS_TABLE.c.case_id == _CASES.c.id)
    .order_by(_EVENTS_TABLE.c.seq.desc())
    .limit(1)
    .scalar_subquery()
)
#: A case row and the id of its last event, as columns of another statement (the claim
#: of an inbound message: ``bot.store.messages``), for ``Tx.case_ahead``.
CASE_AHEAD = (
    *(c.label(f"case_{c.key}") for c in _CASES.c),
    _LAST_EVENT.label("case_last_event"),
)
_CASE_KEYS = tuple(c.key for c in _CASES.c)
_BY_NUMBER = (CaseRow.pound_code == bindparam("pound"), CaseRow.seq == bindparam("seq"))
#: Built once (every answer about a case runs them). A case of which no fold is kept:
#: its row with its events, in order, in one statement. A case of which one is kept:
#: its row with the id of its last event, then, only if that is not the fold's, its
#: events. A case a step is taken on: its row locked (and read as it is then, over
#: what the session may hold of it), then, for a case of which a fold is kept, the id
#: of its last event, then, if need be, its events (``Tx._locked``).
_CASE = (
    select(CaseRow, CaseEvent.id, CaseEvent.type, CaseEvent.payload)
    .join(CaseEvent, CaseEvent.case_id == CaseRow.id)
    .where(*_BY_NUMBER)
    .order_by(CaseEvent.seq)
)
_CASE_ROW = select(CaseRow, _LAST_EVENT).where(*_BY_NUMBER)
#: The lock of a step: FOR NO KEY UPDATE on PostgreSQL, which a second step waits for,
#: but not a row that refers to the case (a deadline, a reminder, an event: their
#: foreign keys lock the case's key only, FOR KEY SHARE).
_CASE_LOCKED = (
    select(CaseRow)
    .where(*_BY_NUMBER)
    .with_for_update(key_share=True)
    .execution_options(populate_existing=True)
)
_LAST_EVENT_OF = (
    select(CaseEvent.id)
    .where(CaseEvent.case_id == bindparam("case_id"))
    .order_by(CaseEvent.seq.desc())
    .limit(1)
)
_EVENTS = (
    select(CaseEvent.id, CaseEvent.type, CaseEvent.payload)
    .where(CaseEvent.case_id == bindparam("case_id"))
    .order_by(CaseEvent.seq)
)


#: How the database names the key a second event at one place in a case's history
#: breaks (case and sequence): PostgreSQL by the constraint's name, SQLite by its columns.
_EVENT_TAKEN = ("uq_case_events_case_id", "case_events.case_id, case_events.seq")


def parse_case_number(text: str) -> tuple[str, int]:
    """``KNM-17``, ``knm 17``, ``KNM17`` -> ("KNM", 17); anything else is bad input."""
    match = _CASE_NO.match(text)
    if not match:
        raise BadInputError("not a case number", text=text)
    return match.group(1).upper(), int(match.group(2))


class ReadOnlyError(RuntimeError):
    """Something to write was given to a transaction opened only to read."""


class _ReadingSession(Session):
    """The session of ``Store.reading``: it flushes nothing, and runs no INSERT, UPDATE
    or DELETE (``_no_writing``): its transaction ends in a rollback, and what it would
    have written must not be undone silently."""

    def flush(self, objects: Sequence[Any] | None = None) -> None:
        if self.new or self.dirty or self.deleted:
            raise ReadOnlyError("a reading transaction was given something to write")
        super().flush(objects)


@sqlalchemy_event.listens_for(_ReadingSession, "do_orm_execute")
def _no_writing(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        raise ReadOnlyError("a reading transaction was given a statement that writes")


@dataclass(frozen=True, slots=True)
class LoadedCase:
    """A case row and the domain case rebuilt from its events."""

    row: CaseRow
    case: Case

    @property
    def pound(self) -> str:
        return self.row.pound_code


@dataclass(frozen=True, slots=True)
class Recorder:
    """Who recorded the seizure of a case (s.7): the actor of its first event, their
    user's id (None: the command line, or a user not kept) and their role then."""

    user_id: int | None
    role: str


def as_typed(text: str) -> str:
    """A place as it was typed (no configuration to find it in)."""
    return text


class Tx(
    desk_reads.DeskReading,
    message_reads.MessageLogReading,
    message_care.MessageCare,
    exports.LedgerReading,
    users.UsersAndInvites,
    web_sessions.SignIns,
):
    """One transaction. Use cases read and write only through it (and what it inherits)."""

    def __init__(
        self,
        session: AsyncSession,
        now: datetime,
        cases: CaseCache | None = None,
        places: Callable[[str], str] = as_typed,
        *,
        reading: bool = False,
    ) -> None:
        self.session = session
        #: Opened only to read (``Store.reading``): nothing is written in it.
        self.reading = reading
        self.now = now
        #: The places typed into the events, as the configured names they are
        #: (``bot.config.names.PlaceNames``): read in the reader's language.
        self.places = places
        #: What this transaction wrote, in order: the postings of each event (``post``)
        #: and the keys of the messages queued (``bot.store.messages.enqueue``), so that
        #: a step's outcome can say what it did.
        self.posted: list[Postings] = []
        self.queued: list[str] = []
        #: The folded cases of the database (None: none kept), the folds this
        #: transaction made from the events it read, and the cases it wrote events of:
        #: once it has committed, what it read and did not write is kept (``kept``).
        self._cases = cases
        self._folded: dict[tuple[str, int], tuple[int, Case]] = {}
        self._wrote: set[tuple[str, int]] = set()
        #: Rows read ahead by another statement of this transaction, for whoever needs
        #: them next (the sender of an inbound message and the row of the case it names,
        #: read with its claim: ``bot.store.messages.act_on_inbound``); each is taken once.
        self.read_ahead: dict[tuple[str, str], Any] = {}
        #: The case the message being acted on is about (``KNM-17``), as the words
        #: acting on it found it (``bot.conversation.reply.handle_text``): recorded on
        #: its inbox row (``bot.store.messages.act_on_inbound``) and on the answer
        #: queued for it, so that the log shows both to the authority of the case.
        self.about_case: str | None = None

    def case_ahead(self, number: tuple[str, int], columns: Sequence[Any]) -> None:
        """The ``CASE_AHEAD`` columns of case ``number`` (None: no such case), read by
        another statement of this transaction, for ``load_case``."""
        if columns[0] is not None:
            self.read_ahead[("case", f"{number[0]}-{number[1]}")] = columns

    def kept(self) -> None:
        """The transaction has committed: keep the folds of the cases it read and did not
        write (what it wrote is folded again when next read, from what was committed)."""
        if self._cases is None:
            return
        for key, (last_event, case) in self._folded.items():
            if key not in self._wrote:
                self._cases.put(key, last_event, case)

    # -- case numbers --

    async def next_case_seq(self, pound: str) -> int:
        """The next number of ``pound``: no gaps, no duplicates, even concurrently."""
        result = await self.session.execute(
            update(Pound)
            .where(Pound.code == pound)
            .values(last_case_seq=Pound.last_case_seq + 1)
            .returning(Pound.last_case_seq)
        )
        seq = result.scalar_one_or_none()
        if seq is None:
            raise BadInputError("unknown pound", pound=pound)
        return int(seq)

    # -- cases --

    async def add_case(
        self, case: Case, seq: int, actor: Caller, owner_phone: str | None
    ) -> CaseRow:
        """Store a newly opened case and its first event."""
        seizure = case.seizure
        searched, kinds = search_columns(seizure.place_seized, public_lots(seizure))
        row = CaseRow(
            pound_code=seizure.pound,
            seq=seq,
            number=case.number,
            stage=case.stage.value,
            impounded_on=seizure.impounded_on,
            place_seized=seizure.place_seized,
            owner_phone=owner_phone,
            owner_name=owner_name_of(case),
            search_text=searched,
            kinds=kinds,
            created_at=self.now,
            updated_at=self.now,
        )
        self.session.add(row)
        await self.session.flush()
        self._set_lots(row, case)
        await self.append_events(LoadedCase(row, case), case, actor, from_seq=0)
        return row

    async def set_lot_phones(self, loaded: LoadedCase, phones: Sequence[str | None]) -> None:
        """The numbers of the owners of the case's lots, by each lot's place in its record
        as it is now (None: the lot names no owner of its own with a number)."""
        case_id = loaded.row.id
        await self.session.execute(delete(LotOwnerPhone).where(LotOwnerPhone.case_id == case_id))
        self.session.add_all(
            LotOwnerPhone(case_id=case_id, idx=i, phone=phone)
            for i, phone in enumerate(phones)
            if phone
        )
        await self.session.flush()

    async def lot_phones(self, loaded: LoadedCase) -> tuple[str | None, ...]:
        """The number of the owner of each lot of the case, by its place (None: none of
        its own)."""
        rows = await self.session.execute(
            select(LotOwnerPhone.idx, LotOwnerPhone.phone).where(
                LotOwnerPhone.case_id == loaded.row.id
            )
        )
        found = {int(idx): str(phone) for idx, phone in rows.all()}
        return tuple(found.get(i) for i in range(len(loaded.case.seizure.lots)))

    async def load_case(self, number: str, *, for_update: bool = False) -> LoadedCase:
        """The case with this number (tolerant: ``knm 17``): the fold kept for its last
        event (``bot.store.case_cache``), else rebuilt from its events. A step
        (``for_update``) locks the row first and then reads the case (``_locked``).
        The row and last event read ahead with an inbound message's claim (``case_ahead``)
        stand for the statement that reads them, once."""
        pound, seq = parse_case_number(number)
        params = {"pound": pound, "seq": seq}
        cases = self._cases
        ahead: Any = self.read_ahead.pop(("case", f"{pound}-{seq}"), None)
        if for_update:
            return await self._locked(params)
        if cases is not None and (pound, seq) in cases:
            if ahead is not None:  # read with the claim, as plain columns (no ORM load)
                values, last = ahead[:-1], ahead[-1]
                row = cases.row(
                    (pound, seq),
                    values,
                    lambda: CaseRow(**dict(zip(_CASE_KEYS, values, strict=True))),
                )
            else:
                found = (await self.session.execute(_CASE_ROW, params)).first()
                if found is None:
                    raise UnknownCaseError("no such case", number=f"{pound}-{seq}")
                row, last = found
            case = cases.get((pound, seq), last)
            if case is None:
                events = (await self.session.execute(_EVENTS, {"case_id": row.id})).all()
                case = self._fold(row, events)
            return LoadedCase(row, case)
        rows = (await self.session.execute(_CASE, params)).all()
        if not rows:
            raise UnknownCaseError("no such case", number=f"{pound}-{seq}")
        row = rows[0][0]
        return LoadedCase(row, self._fold(row, [r[1:] for r in rows]))

    async def _locked(self, params: dict[str, Any]) -> LoadedCase:
        """The case a step is taken on, as it is once its row is locked: a step taken
        on it at the same moment, in this process or another, has then committed or
        not begun, and what it recorded is read: the id of the case's last event (the
        fold kept for it, if one is), else its events.

        The lock first, by a statement of its own: under READ COMMITTED (PostgreSQL's
        default, which poundbot keeps) a statement reads what was committed when it
        began. One that waited for the lock reads the locked row again once it has it,
        but not the rows joined to it: the events would be those of before the wait,
        and the step would be taken on a case that has moved on (and would write a
        second event at the same place in its history). On SQLite the transaction
        holds the database from its first statement (``BEGIN IMMEDIATE``) anyway."""
        row = (await self.session.execute(_CASE_LOCKED, params)).scalar_one_or_none()
        if row is None:
            raise UnknownCaseError("no such case", number=f"{params['pound']}-{params['seq']}")
        number, cases = (row.pound_code, row.seq), self._cases
        if cases is not None and number in cases:
            last = await self.session.scalar(_LAST_EVENT_OF, {"case_id": row.id})
            case = cases.get(number, last)
            if case is not None:
                return LoadedCase(row, case)
        events = (await self.session.execute(_EVENTS, {"case_id": row.id})).all()
        return LoadedCase(row, self._fold(row, events))

    def _event(self, type_name: str, payload: dict[str, Any]) -> Event:
        """An event read back, the places in it as the configured names they are."""
        return named_places(load_event(type_name, payload), self.places)

    def _fold(self, row: CaseRow, events: Sequence[Sequence[Any]]) -> Case:
        """A case rebuilt from its events (id, type, payload), remembered with the id of
        the last one read."""
        case = Case.replay(row.number, [self._event(t, p) for _, t, p in events])
        self._folded[(row.pound_code, row.seq)] = (events[-1][0], case)
        return case

    async def recorded_by(self, loaded: LoadedCase) -> Recorder:
        """Who recorded the seizure of a case (the actor of its first event)."""
        found = (
            await self.session.execute(
                select(CaseEvent.actor_user_id, CaseEvent.actor_role).where(
                    CaseEvent.case_id == loaded.row.id, CaseEvent.seq == 0
                )
            )
        ).one()
        return Recorder(found[0], found[1])

    async def _rebuild(self, row: CaseRow) -> LoadedCase:
        events = (
            await self.session.execute(
                select(CaseEvent.type, CaseEvent.payload)
                .where(CaseEvent.case_id == row.id)
                .order_by(CaseEvent.seq)
            )
        ).all()
        case = Case.replay(row.number, [self._event(t, p) for t, p in events])
        return LoadedCase(row, case)

    async def append_events(
        self, loaded: LoadedCase, after: Case, actor: Caller, *, from_seq: int | None = None
    ) -> list[CaseEvent]:
        """Append the events ``after`` has beyond ``loaded`` to the audit log; update the
        row. A place in the case's history that another step took first (``loaded`` was
        not read locked, as a step reads it: ``load_case``) is ``CaseChangedError``,
        nothing written, rather than a database error."""
        start = len(loaded.case.events) if from_seq is None else from_seq
        number = (loaded.row.pound_code, loaded.row.seq)
        self._wrote.add(number)
        rows: list[CaseEvent] = []
        cited = after.provisions  # each step's provision, by the route it was taken on
        for seq, event in enumerate(after.events[start:], start=start):
            type_name, payload = dump_event(event)
            rows.append(
                CaseEvent(
                    case_id=loaded.row.id,
                    seq=seq,
                    type=type_name,
                    on=event.on,
                    payload=payload,
                    provision=cited[seq],
                    actor_user_id=actor.user_id,
                    actor_role=actor.role,
                    channel=actor.channel,
                    recorded_at=self.now,
                )
            )
        self.session.add_all(rows)
        loaded.row.stage = after.stage.value
        loaded.row.updated_at = self.now
        if any(isinstance(e, SeizureCorrected | LotsSeparated) for e in after.events[start:]):
            loaded.row.impounded_on = after.seizure.impounded_on
            loaded.row.place_seized = after.seizure.place_seized
            loaded.row.owner_name = owner_name_of(after)
            await self.session.execute(delete(CaseLot).where(CaseLot.case_id == loaded.row.id))
            self._set_lots(loaded.row, after)
        try:
            await self.session.flush()
        except IntegrityError as exc:
            if not any(key in str(exc.orig) for key in _EVENT_TAKEN):
                raise
            raise CaseChangedError(
                "another step was recorded first", number=f"{number[0]}-{number[1]}"
            ) from exc
        # Every change to a case (add_case comes through here) re-derives its deadlines.
        await derive_deadlines(self.session, loaded.row, after, self.now)
        return rows

    def _set_lots(self, row: CaseRow, case: Case) -> None:
        # The public search reads these: the description as the public may read it (no
        # owner's name, no telephone number); the case's events keep it as written.
        lots = public_lots(case.seizure)
        self.session.add_all(
            CaseLot(
                case_id=row.id, idx=i, kind=lot.kind, count=lot.count, description=lot.description
            )
            for i, lot in enumerate(lots)
        )
        searched, kinds = search_columns(row.place_seized, lots)
        if (row.search_text, row.kinds) != (searched, kinds):  # a new case has them already
            row.search_text, row.kinds = searched, kinds

    async def open_cases_naming(self, phone: str, limit: int) -> tuple[list[str], int]:
        """The numbers of the newest ``limit`` open cases whose owner's number is
        ``phone``, newest first, and how many open cases name it in all."""
        rows = (
            await self.session.execute(
                select(CaseRow.number, func.count().over())
                .where(naming_phone(phone), CaseRow.stage.not_in(SHUT))
                .order_by(CaseRow.impounded_on.desc(), CaseRow.id.desc())
                .limit(limit)
            )
        ).all()
        return [number for number, _ in rows], (rows[0][1] if rows else 0)

    async def open_cases(self, pound: str) -> list[LoadedCase]:
        """Open cases of a pound, oldest first."""
        rows = (
            await self.session.execute(
                select(CaseRow)
                .where(CaseRow.pound_code == pound, CaseRow.stage.not_in(SHUT))
                .order_by(CaseRow.seq)
            )
        ).scalars()
        return [await self._rebuild(row) for row in rows]

    async def cases_in_stage(
        self, pounds: Sequence[str], stages: Sequence[str]
    ) -> list[LoadedCase]:
        rows = (
            await self.session.execute(
                select(CaseRow)
                .where(CaseRow.pound_code.in_(pounds), CaseRow.stage.in_(stages))
                .order_by(CaseRow.pound_code, CaseRow.seq)
            )
        ).scalars()
        return [await self._rebuild(row) for row in rows]

    async def cases_impounded(
        self, pounds: Sequence[str], start: date, end: date
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` impounded from ``start`` up to (not including) ``end``, by
        pound and number."""
        rows = (
            await self.session.execute(
                select(CaseRow)
                .where(
                    CaseRow.pound_code.in_(pounds),
                    CaseRow.impounded_on >= start,
                    CaseRow.impounded_on < end,
                )
                .order_by(CaseRow.pound_code, CaseRow.seq)
            )
        ).scalars()
        return await self._rebuild_many(list(rows))

    async def _rebuild_many(self, rows: list[CaseRow]) -> list[LoadedCase]:
        # A month's or a year's cases: their events in one statement per thousand cases,
        # not one per case.
        events: dict[int, list[tuple[str, dict[str, Any]]]] = {row.id: [] for row in rows}
        ids = list(events)
        for chunk in range(0, len(ids), 1000):
            found = await self.session.execute(
                select(CaseEvent.case_id, CaseEvent.type, CaseEvent.payload)
                .where(CaseEvent.case_id.in_(ids[chunk : chunk + 1000]))
                .order_by(CaseEvent.case_id, CaseEvent.seq)
            )
            for case_id, type_name, payload in found:
                events[case_id].append((type_name, payload))
        return [
            LoadedCase(row, Case.replay(row.number, [self._event(t, p) for t, p in events[row.id]]))
            for row in rows
        ]

    async def search_open(
        self,
        words: Sequence[str | Sequence[str]],
        limit: int = 5,
        *,
        stages: Sequence[str] | None = None,
    ) -> list[LoadedCase]:
        """Open cases (or those in ``stages``) whose kind, public description or place of
        seizure match every word; a word given as its forms matches by any of them."""
        query = search_query(words, limit, stages=stages)
        rows = (await self.session.execute(query)).scalars()
        return [await self._rebuild(row) for row in rows]

    # -- money --

    async def last_event_row(self, loaded: LoadedCase) -> CaseEvent:
        """The newest audit-log row of a case."""
        row = (
            await self.session.execute(
                select(CaseEvent)
                .where(CaseEvent.case_id == loaded.row.id)
                .order_by(CaseEvent.seq.desc())
                .limit(1)
            )
        ).scalar_one()
        return row

    async def record_sale_lot(self, loaded: LoadedCase, after: Case) -> None:
        """Project the newest sale event of ``after`` into ``sale_lots``."""
        event = after.events[-1]
        event_row = await self.last_event_row(loaded)
        if isinstance(event, LotOffered):
            self.session.add(
                SaleLot(
                    case_id=loaded.row.id,
                    lot_idx=event.lot,
                    count=event.count,
                    sold=event.sold,
                    price_paise=event.price.paise if event.price else None,
                    buyer_name=event.buyer.name if event.buyer else None,
                    buyer_declared_not_barred=event.buyer_declared_not_barred,
                    disposal="auction",
                    on=event.on,
                    event_id=event_row.id,
                )
            )
        elif isinstance(event, DisposedOtherwise):
            self.session.add(
                SaleLot(
                    case_id=loaded.row.id,
                    lot_idx=event.lot,
                    count=event.count,
                    sold=True,
                    price_paise=event.proceeds.paise,
                    buyer_name=None,
                    disposal="other",
                    on=event.on,
                    event_id=event_row.id,
                )
            )

    async def record_settlement(
        self, loaded: LoadedCase, event_row: CaseEvent, settlement: Settlement, on: date
    ) -> None:
        """The settled money of a sale."""
        self.session.add(
            SettlementRow(
                case_id=loaded.row.id,
                on=on,
                proceeds_paise=settlement.proceeds.paise,
                dues_paise=settlement.dues.total.paise,
                unmet_paise=settlement.unmet.paise,
                balance_paise=settlement.balance.paise,
                event_id=event_row.id,
            )
        )

    async def deposit_amount(self, loaded: LoadedCase) -> Money:
        """What was deposited under s.14 for a case."""
        paise = (
            await self.session.execute(
                select(func.coalesce(func.sum(Payment.amount_paise), 0)).where(
                    Payment.case_id == loaded.row.id, Payment.kind == "deposit"
                )
            )
        ).scalar_one()
        return Money(int(paise))

    async def record_payment(
        self, loaded: LoadedCase, event_row: CaseEvent, kind: str, amount: Money, on: date
    ) -> None:
        """A payment (s.12) or deposit (s.14) taken at the pound."""
        self.session.add(
            Payment(
                case_id=loaded.row.id,
                kind=kind,
                amount_paise=amount.paise,
                on=on,
                event_id=event_row.id,
            )
        )

    def post(
        self,
        *,
        authority: str,
        loaded: LoadedCase,
        event_row: CaseEvent,
        postings: Postings,
        on: date,
    ) -> None:
        """Write the ledger legs the domain returned for an event (``domain.ledger``)."""
        self.posted.append(postings)
        for leg in postings.legs:
            self.session.add(
                LedgerEntry(
                    authority_code=authority,
                    case_id=loaded.row.id,
                    account=leg.account,
                    amount_paise=leg.amount.paise,
                    provision=leg.provision,
                    on=on,
                    event_id=event_row.id,
                )
            )


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class Store:
    """Opens transactions on one engine.

    On SQLite, where one writer holds the database at a time, the transactions of this
    process take turns on an asyncio lock, so they queue in order instead of each
    retrying SQLite's lock. A request with a wait budget (``bot.support.budget``) waits
    for its turn only until its deadline: then ``WaitBudgetExceeded``, nothing done.
    """

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        *,
        serialize: bool = False,
        places: Callable[[str], str] = as_typed,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.places = places
        self.engine: AsyncEngine = sessions.kw["bind"]
        self._reading_sessions = async_sessionmaker(
            class_=sessions.class_, **{**sessions.kw, "sync_session_class": _ReadingSession}
        )
        #: The folded cases of this database, kept between transactions.
        self.cases = CaseCache()
        self._turn = asyncio.Lock() if serialize else None
        self._holder: asyncio.Task[Any] | None = None

    def use_places(self, places: Callable[[str], str]) -> None:
        """Name the places typed into events as ``places`` does from now on (a new version
        of the configuration): the cases kept were folded with the names before."""
        self.places = places
        self.cases.clear()

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """One turn for several transactions in a row (SQLite): the transactions of the
        task holding it go straight on; everyone else's wait until it is over."""
        if self._turn is None or self._holder is asyncio.current_task():
            yield
            return
        left = budget.remaining()
        start = time.perf_counter()
        try:
            async with asyncio.timeout(left):
                await self._turn.acquire()
        except TimeoutError:
            DB_WAIT_REFUSED.labels("turn").inc()
            raise budget.WaitBudgetExceeded("no turn on the database within the budget") from None
        finally:
            _TURN_WAIT.observe(time.perf_counter() - start)
        self._holder = asyncio.current_task()
        try:
            yield
        finally:
            self._holder = None
            self._turn.release()

    def _my_turn(self) -> AbstractAsyncContextManager[None]:
        return self.turn() if self._turn is not None else nullcontext()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One transaction: committed if the block ends normally, rolled back otherwise."""
        async with self._my_turn(), self.sessions() as session:
            async with session.begin():
                tx = Tx(session, self.clock.now(), self.cases, self.places)
                yield tx
            tx.kept()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        """A transaction that only reads (the desk's lists): begun as any other (its
        turn; on SQLite the write lock, so it reads what is committed), ended by a
        rollback instead of a commit, in the session's close: one trip through
        SQLAlchemy fewer (some 0.04 ms). Writing in it is an error (``ReadOnlyError``:
        a flush, an INSERT, UPDATE or DELETE, a message queued, a posting), not undone
        silently."""
        async with self._my_turn(), self._reading_sessions() as session:
            tx = Tx(session, self.clock.now(), self.cases, self.places, reading=True)
            yield tx
            if session.new or session.dirty or session.deleted or tx.posted or tx.queued:
                raise ReadOnlyError("a reading transaction was given something to write")
        tx.kept()

    async def execute(self, statement: Executable, params: dict[str, Any]) -> int:
        """One statement in a transaction of its own, on a bare connection: cheaper than
        a session, for the write every inbound message begins with; the rows it changed."""
        async with self._my_turn(), self.engine.begin() as conn:
            result = await conn.execute(statement, params)
        return int(getattr(result, "rowcount", 0) or 0)


def named_places(event: Event, places: Callable[[str], str]) -> Event:
    """``event`` with the places an officer typed in it (s.13(2): the office and the places
    of proclamation; s.13(3): the auction's place) as ``places`` finds them."""
    if isinstance(event, NoticePosted):
        return replace(
            event,
            office=places(event.office),
            proclaimed_at=tuple(places(p) for p in event.proclaimed_at),
        )
    if isinstance(event, AuctionScheduled):
        return replace(event, place=places(event.place))
    return event


async def sync_places(
    tx: Tx, authorities: dict[str, str], pounds: dict[str, tuple[str, str]]
) -> None:
    """Make the authorities and pounds tables match the configuration (case counters kept).
    Inserted or updated in one statement a row (``ON CONFLICT``), in the order of their
    codes: servers starting together on one database write them side by side."""
    dialect = tx.session.bind.dialect.name if tx.session.bind is not None else "sqlite"
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    # Only what differs is written: a server on a database it cannot write still starts
    # (and its health check says so).
    authorities_had = await tx.session.execute(select(Authority.code, Authority.name))
    had = {code: name for code, name in authorities_had}
    pounds_had = await tx.session.execute(select(Pound.code, Pound.authority_code, Pound.name))
    kept = {code: (authority, name) for code, authority, name in pounds_had}
    for code, name in sorted(authorities.items()):
        if had.get(code) == name:
            continue
        row = insert(Authority).values(code=code, name=name)
        await tx.session.execute(
            row.on_conflict_do_update(index_elements=["code"], set_={"name": row.excluded.name})
        )
    for code, (authority, name) in sorted(pounds.items()):
        if kept.get(code) == (authority, name):
            continue
        pound = insert(Pound).values(
            code=code, authority_code=authority, name=name, last_case_seq=0
        )
        await tx.session.execute(
            pound.on_conflict_do_update(
                index_elements=["code"],
                set_={
                    "authority_code": pound.excluded.authority_code,
                    "name": pound.excluded.name,
                },
            )
        )


def search_query(
    words: Sequence[str | Sequence[str]], limit: int, *, stages: Sequence[str] | None
) -> Select[CaseRow]:
    """The newest ``limit`` cases open (or in ``stages``) whose ``search_text`` holds every
    word (``bot.store.search_text``), one of its forms where it has several. Over the cases
    still in the pound, the stages are the index's own predicate, written as it is, so
    that PostgreSQL reads the trigram index and not every open case of a state."""
    if stages is not None and set(stages) == IN_POUND_VALUES:
        query = select(CaseRow).where(text(IN_POUND_SQL))
    else:
        query = select(CaseRow).where(
            CaseRow.stage.in_(stages) if stages else CaseRow.stage.not_in(SHUT)
        )
    for word in words:
        forms = [word] if isinstance(word, str) else list(word)
        query = query.where(
            or_(
                *(
                    CaseRow.search_text.like(f"%{_escape_like(form.casefold())}%", escape="\\")
                    for form in forms
                )
            )
        )
    return query.order_by(CaseRow.id.desc()).limit(limit)
