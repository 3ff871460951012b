"""The cases in memory: a fake of the port of the cases (``bot.store.port.CaseStore``),
for tests of the use cases that need no database.

``MemoryStore`` opens transactions as ``bot.store.tx.Store`` does; each works on a copy
of what is held and puts it back only when its block ends normally (a block that
raises leaves nothing). The events are kept as the database keeps them (the store's
codec: type and payload) and a case is folded from them when read, its places named as
the real store names them. The rows handed out are the store's own row classes, made
here and never bound to a session: the use cases read a case's number, pound, id and
owner's number from them, and set the owner's number. Not faked: the deadlines kept as
rows (``bot.store.deadlines``), the public search's tables, anything read by SQL of the
read side. One transaction at a time: nothing here is isolated from a second one.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from bot.store.codec import dump_event, load_event
from bot.store.models import CaseEvent, CaseRow
from bot.store.port import CaseStore
from bot.store.tx import SHUT, LoadedCase, as_typed, named_places, parse_case_number
from bot.support.caller import Caller
from bot.support.clock import Clock
from bot.support.errors import BadInputError, CaseChangedError, UnknownCaseError
from bot.support.public_text import public_lots
from domain.case import Case
from domain.events import DisposedOtherwise, LotOffered, SeizureCorrected
from domain.ledger import Postings
from domain.money import Money
from domain.s15_sale import Settlement

__all__ = ["MemoryCases", "MemoryStore"]

#: The columns of a case's row that the fake keeps.
_ROW = (
    "id",
    "pound_code",
    "seq",
    "number",
    "stage",
    "impounded_on",
    "place_seized",
    "owner_phone",
    "created_at",
    "updated_at",
)
_EVENT = (
    "id",
    "case_id",
    "seq",
    "type",
    "on",
    "payload",
    "provision",
    "actor_user_id",
    "actor_role",
    "channel",
    "recorded_at",
)


@dataclass(slots=True)
class _Held:
    """One case as held: its row's values, its events' values, the words of its lots."""

    row: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    #: (kind, public description) of each lot, as the public search reads them.
    lots: list[tuple[str, str]] = field(default_factory=list)


@dataclass(slots=True)
class _Data:
    """Everything held: the last number of each pound, the cases, the money's rows."""

    last_seq: dict[str, int]
    cases: dict[tuple[str, int], _Held] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    #: (case id, kind, paise, on, event id)
    payments: list[tuple[int, str, int, date, int]] = field(default_factory=list)
    sale_lots: list[dict[str, Any]] = field(default_factory=list)
    settlements: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)

    def next_id(self, table: str) -> int:
        self.ids[table] = self.ids.get(table, 0) + 1
        return self.ids[table]


class MemoryCases:
    """One transaction on the cases in memory (``CaseStore``)."""

    def __init__(self, data: _Data, now: datetime, places: Callable[[str], str] = as_typed) -> None:
        self.data = data
        self.now = now
        self.places = places
        self.posted: list[Postings] = []
        #: The rows this transaction handed out, one per case (as a session's identity
        #: map): what a use case sets on one is held when next read and at the end.
        self._rows: dict[tuple[str, int], CaseRow] = {}

    # -- rows handed out --

    def _row(self, key: tuple[str, int]) -> CaseRow:
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = CaseRow(**self.data.cases[key].row)
        return row

    def flush(self) -> None:
        """What was set on the rows handed out, into what is held."""
        for key, row in self._rows.items():
            self.data.cases[key].row.update({name: getattr(row, name) for name in _ROW})

    def _loaded(self, key: tuple[str, int]) -> LoadedCase:
        held = self.data.cases[key]
        events = [
            named_places(load_event(e["type"], e["payload"]), self.places) for e in held.events
        ]
        return LoadedCase(self._row(key), Case.replay(held.row["number"], events))

    def _find(self, keep: Callable[[dict[str, Any]], bool]) -> list[tuple[str, int]]:
        self.flush()
        return [key for key, held in self.data.cases.items() if keep(held.row)]

    def _held(self, loaded: LoadedCase) -> _Held:
        return self.data.cases[(loaded.row.pound_code, loaded.row.seq)]

    # -- case numbers and cases --

    async def next_case_seq(self, pound: str) -> int:
        """The next number of ``pound`` (no gaps); an unknown pound is ``BadInputError``."""
        if pound not in self.data.last_seq:
            raise BadInputError("unknown pound", pound=pound)
        self.data.last_seq[pound] += 1
        return self.data.last_seq[pound]

    async def add_case(
        self, case: Case, seq: int, actor: Caller, owner_phone: str | None
    ) -> CaseRow:
        """Store a newly opened case and its first event."""
        seizure = case.seizure
        key = (seizure.pound, seq)
        self.data.cases[key] = _Held(
            row={
                "id": self.data.next_id("cases"),
                "pound_code": seizure.pound,
                "seq": seq,
                "number": case.number,
                "stage": case.stage.value,
                "impounded_on": seizure.impounded_on,
                "place_seized": seizure.place_seized,
                "owner_phone": owner_phone,
                "created_at": self.now,
                "updated_at": self.now,
            }
        )
        row = self._row(key)
        self._set_lots(key, case)
        await self.append_events(LoadedCase(row, case), case, actor, from_seq=0)
        return row

    def _set_lots(self, key: tuple[str, int], case: Case) -> None:
        lots = public_lots(case.seizure)
        self.data.cases[key].lots = [(lot.kind, lot.description) for lot in lots]

    async def load_case(self, number: str, *, for_update: bool = False) -> LoadedCase:
        """The case with this number (``knm 17``); none is ``UnknownCaseError``."""
        key = parse_case_number(number)
        if key not in self.data.cases:
            raise UnknownCaseError("no such case", number=f"{key[0]}-{key[1]}")
        return self._loaded(key)

    async def recorded_by(self, loaded: LoadedCase) -> int | None:
        """The user who recorded the seizure of a case (the actor of its first event)."""
        user: int | None = self._held(loaded).events[0]["actor_user_id"]
        return user

    async def append_events(
        self, loaded: LoadedCase, after: Case, actor: Caller, *, from_seq: int | None = None
    ) -> list[CaseEvent]:
        """Append the events ``after`` has beyond ``loaded``; a step taken first elsewhere
        is ``CaseChangedError``, nothing written."""
        start = len(loaded.case.events) if from_seq is None else from_seq
        key = (loaded.row.pound_code, loaded.row.seq)
        held = self.data.cases[key]
        new = after.events[start:]
        if new and len(held.events) > start:
            raise CaseChangedError("another step was recorded first", number=f"{key[0]}-{key[1]}")
        cited = after.provisions
        for seq, event in enumerate(new, start=start):
            type_name, payload = dump_event(event)
            held.events.append(
                {
                    "id": self.data.next_id("case_events"),
                    "case_id": held.row["id"],
                    "seq": seq,
                    "type": type_name,
                    "on": event.on,
                    "payload": payload,
                    "provision": cited[seq],
                    "actor_user_id": actor.user_id,
                    "actor_role": actor.role,
                    "channel": actor.channel,
                    "recorded_at": self.now,
                }
            )
        loaded.row.stage = after.stage.value
        loaded.row.updated_at = self.now
        if any(isinstance(e, SeizureCorrected) for e in new):
            loaded.row.impounded_on = after.seizure.impounded_on
            loaded.row.place_seized = after.seizure.place_seized
            self._set_lots(key, after)
        self._rows.setdefault(key, loaded.row)
        self.flush()
        return [CaseEvent(**e) for e in held.events[start:]]

    # -- lists --

    async def open_cases_naming(self, phone: str, limit: int) -> tuple[list[str], int]:
        """The newest ``limit`` open cases' numbers whose owner is ``phone``, and their count."""
        keys = self._find(lambda r: r["owner_phone"] == phone and r["stage"] not in SHUT)
        rows = sorted(
            (self.data.cases[k].row for k in keys),
            key=lambda r: (r["impounded_on"], r["id"]),
            reverse=True,
        )
        return [r["number"] for r in rows[:limit]], len(rows)

    async def open_cases(self, pound: str) -> list[LoadedCase]:
        """Open cases of a pound, oldest first."""
        keys = self._find(lambda r: r["pound_code"] == pound and r["stage"] not in SHUT)
        return [self._loaded(k) for k in sorted(keys)]

    async def cases_in_stage(
        self, pounds: Sequence[str], stages: Sequence[str]
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` in ``stages``, by pound and number."""
        keys = self._find(lambda r: r["pound_code"] in pounds and r["stage"] in stages)
        return [self._loaded(k) for k in sorted(keys)]

    async def cases_impounded(
        self, pounds: Sequence[str], start: date, end: date
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` impounded from ``start`` up to ``end``, by pound and number."""
        keys = self._find(lambda r: r["pound_code"] in pounds and start <= r["impounded_on"] < end)
        return [self._loaded(k) for k in sorted(keys)]

    async def search_open(
        self,
        words: Sequence[str | Sequence[str]],
        limit: int = 5,
        *,
        stages: Sequence[str] | None = None,
    ) -> list[LoadedCase]:
        """Open cases (or those in ``stages``) whose kind, description or place match."""
        keys = self._find(lambda r: r["stage"] in stages if stages else r["stage"] not in SHUT)

        def matches(key: tuple[str, int]) -> bool:
            held = self.data.cases[key]
            texts = [held.row["place_seized"], *(t for lot in held.lots for t in lot)]
            return all(
                any(
                    form.casefold() in text.lower()
                    for form in ([word] if isinstance(word, str) else word)
                    for text in texts
                )
                for word in words
            )

        found = sorted((k for k in keys if matches(k)), key=lambda k: self.data.cases[k].row["id"])
        return [self._loaded(k) for k in reversed(found[-limit:] if limit > 0 else [])]

    # -- money --

    async def last_event_row(self, loaded: LoadedCase) -> CaseEvent:
        """The newest audit-log row of a case."""
        return CaseEvent(**self._held(loaded).events[-1])

    async def record_sale_lot(self, loaded: LoadedCase, after: Case) -> None:
        """Project the newest sale event of ``after`` into the sold lots."""
        event, event_id = after.events[-1], self._held(loaded).events[-1]["id"]
        case_id = loaded.row.id
        if isinstance(event, LotOffered):
            self.data.sale_lots.append(
                {"case_id": case_id, "lot_idx": event.lot, "count": event.count}
                | {"sold": event.sold, "disposal": "auction", "event_id": event_id}
                | {"price_paise": event.price.paise if event.price else None}
            )
        elif isinstance(event, DisposedOtherwise):
            self.data.sale_lots.append(
                {"case_id": case_id, "lot_idx": event.lot, "count": event.count}
                | {"sold": True, "disposal": "other", "event_id": event_id}
                | {"price_paise": event.proceeds.paise}
            )

    async def record_settlement(
        self, loaded: LoadedCase, event_row: CaseEvent, settlement: Settlement, on: date
    ) -> None:
        """The settled money of a sale."""
        self.data.settlements.append(
            {"case_id": loaded.row.id, "on": on, "event_id": event_row.id}
            | {"proceeds_paise": settlement.proceeds.paise}
            | {"balance_paise": settlement.balance.paise}
        )

    async def deposit_amount(self, loaded: LoadedCase) -> Money:
        """What was deposited under s.14 for a case."""
        return Money(
            sum(p[2] for p in self.data.payments if p[0] == loaded.row.id and p[1] == "deposit")
        )

    async def record_payment(
        self, loaded: LoadedCase, event_row: CaseEvent, kind: str, amount: Money, on: date
    ) -> None:
        """A payment (s.12) or deposit (s.14) taken at the pound."""
        self.data.payments.append((loaded.row.id, kind, amount.paise, on, event_row.id))

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
        self.data.ledger.extend(
            {"authority": authority, "case_id": loaded.row.id, "account": leg.account}
            | {"paise": leg.amount.paise, "on": on, "event_id": event_row.id}
            for leg in postings.legs
        )


class MemoryStore:
    """Opens transactions on the cases in memory, as ``bot.store.tx.Store`` does on a
    database: ``pounds`` are the pounds there are (each numbered from 1)."""

    def __init__(
        self, pounds: Iterable[str], clock: Clock, places: Callable[[str], str] = as_typed
    ) -> None:
        self.clock = clock
        self.places = places
        self.data = _Data(last_seq=dict.fromkeys(pounds, 0))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[MemoryCases]:
        """One transaction: kept if the block ends normally, forgotten otherwise."""
        tx = MemoryCases(copy.deepcopy(self.data), self.clock.now(), self.places)
        yield tx
        tx.flush()
        self.data = tx.data


#: The fake is one (checked by mypy).
_MEMORY: type[CaseStore] = MemoryCases
