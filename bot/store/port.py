"""The port of the cases: what the use cases read and write of a case in a transaction.

``bot.store.tx.Tx`` is the store behind it (SQLAlchemy, SQLite or PostgreSQL);
``bot.store.memory.MemoryCases`` is a fake of it in memory, for tests of the use cases.
tests/contract/test_case_store.py holds the two to the same behaviour. The keeper's use
cases (``bot.services.keeper``) are typed against this port alone.

Left out: ``Tx.registered_keepers_and_officers`` (users, not cases), ``Tx.session`` and
what the read side (the desk, documents, exports) asks of the database in SQL of its own.
The rows the port hands out (``LoadedCase.row``, an event's row) are the store's rows:
the use cases read a case's number, pound, id and owner's number from them, and set the
owner's number (``bot.services.keeper.correct_seizure``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Protocol

from bot.store.models import CaseEvent, CaseRow
from bot.store.tx import LoadedCase, Tx
from bot.support.caller import Caller
from domain.case import Case
from domain.ledger import Postings
from domain.money import Money
from domain.s15_sale import Settlement

__all__ = ["CaseStore"]


class CaseStore(Protocol):
    """The cases as a use case sees them in one transaction."""

    #: When the transaction began.
    now: datetime
    #: The postings written in this transaction, in order (``post``).
    posted: list[Postings]

    async def next_case_seq(self, pound: str) -> int:
        """The next number of ``pound`` (no gaps); an unknown pound is ``BadInputError``."""
        ...

    async def add_case(
        self, case: Case, seq: int, actor: Caller, owner_phone: str | None
    ) -> CaseRow:
        """Store a newly opened case and its first event."""
        ...

    async def load_case(self, number: str, *, for_update: bool = False) -> LoadedCase:
        """The case with this number (``knm 17``); none is ``UnknownCaseError``."""
        ...

    async def recorded_by(self, loaded: LoadedCase) -> int | None:
        """The user who recorded the seizure of a case (the actor of its first event)."""
        ...

    async def append_events(
        self, loaded: LoadedCase, after: Case, actor: Caller, *, from_seq: int | None = None
    ) -> list[CaseEvent]:
        """Append the events ``after`` has beyond ``loaded``; a step taken first elsewhere
        is ``CaseChangedError``, nothing written."""
        ...

    async def open_cases_naming(self, phone: str, limit: int) -> tuple[list[str], int]:
        """The newest ``limit`` open cases' numbers whose owner is ``phone``, and their count."""
        ...

    async def open_cases(self, pound: str) -> list[LoadedCase]:
        """Open cases of a pound, oldest first."""
        ...

    async def cases_in_stage(
        self, pounds: Sequence[str], stages: Sequence[str]
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` in ``stages``, by pound and number."""
        ...

    async def cases_impounded(
        self, pounds: Sequence[str], start: date, end: date
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` impounded from ``start`` up to ``end``, by pound and number."""
        ...

    async def search_open(
        self,
        words: Sequence[str | Sequence[str]],
        limit: int = 5,
        *,
        stages: Sequence[str] | None = None,
    ) -> list[LoadedCase]:
        """Open cases (or those in ``stages``) whose kind, description or place match."""
        ...

    async def last_event_row(self, loaded: LoadedCase) -> CaseEvent:
        """The newest audit-log row of a case."""
        ...

    async def record_sale_lot(self, loaded: LoadedCase, after: Case) -> None:
        """Project the newest sale event of ``after`` into the sold lots."""
        ...

    async def record_settlement(
        self, loaded: LoadedCase, event_row: CaseEvent, settlement: Settlement, on: date
    ) -> None:
        """The settled money of a sale."""
        ...

    async def deposit_amount(self, loaded: LoadedCase) -> Money:
        """What was deposited under s.14 for a case."""
        ...

    async def record_payment(
        self, loaded: LoadedCase, event_row: CaseEvent, kind: str, amount: Money, on: date
    ) -> None:
        """A payment (s.12) or deposit (s.14) taken at the pound."""
        ...

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
        ...


#: The database's unit of work is one (checked by mypy).
_TX: type[CaseStore] = Tx
