"""The SQL of the exports and of the ledger's reading: the cases with their lots and the
day of their last event, the ledger's entries with the number of their case
(``bot.adapters.export``), an authority's ledger as rows (``bot.services.officer``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.codec import act_of_intake
from bot.store.models import CaseEvent, CaseLot, CaseRow, LedgerEntry
from domain.profiles import Profile

__all__ = ["LedgerReading", "case_lots", "case_rows", "last_event_days"]


async def case_rows(tx: LedgerReading) -> list[tuple[Any, ...]]:
    """(id, number, pound, stage, impounded on, place seized) of every case, by pound and
    number."""
    rows = await tx.session.execute(
        select(
            CaseRow.id,
            CaseRow.number,
            CaseRow.pound_code,
            CaseRow.stage,
            CaseRow.impounded_on,
            CaseRow.place_seized,
        ).order_by(CaseRow.pound_code, CaseRow.seq)
    )
    return [tuple(row) for row in rows.all()]


async def case_lots(tx: LedgerReading) -> list[tuple[int, str, int]]:
    """(case id, kind, count) of every lot of every case, in order."""
    rows = await tx.session.execute(
        select(CaseLot.case_id, CaseLot.kind, CaseLot.count).order_by(CaseLot.case_id, CaseLot.idx)
    )
    return [(int(case_id), str(kind), int(count)) for case_id, kind, count in rows.all()]


async def last_event_days(tx: LedgerReading) -> dict[int, date]:
    """The day of the last event of every case, by case id."""
    rows = await tx.session.execute(
        select(CaseEvent.case_id, func.max(CaseEvent.on)).group_by(CaseEvent.case_id)
    )
    return {case_id: on for case_id, on in rows.all()}


class LedgerReading:
    """The ledger's reads as methods of the transaction: ``bot.store.tx.Tx`` inherits them,
    and so is the port of the ledger's reads (``bot.store.port.LedgerReads``). What the
    functions above read in: a transaction (its session)."""

    session: AsyncSession

    async def ledger_rows(
        self,
        *,
        authority: str | None = None,
        pounds: Sequence[str] | None = None,
        start: date | None = None,
        end: date | None = None,
    ) -> list[tuple[Any, ...]]:
        """(on, authority, case number, account, amount in paise, provision) of the ledger's
        entries, oldest first: of one authority, of the cases of some pounds, from ``start``
        up to (not including) ``end``, as each is given."""
        query = select(
            LedgerEntry.on,
            LedgerEntry.authority_code,
            CaseRow.number,
            LedgerEntry.account,
            LedgerEntry.amount_paise,
            LedgerEntry.provision,
        ).join(CaseRow, CaseRow.id == LedgerEntry.case_id)
        if authority is not None:
            query = query.where(LedgerEntry.authority_code == authority)
        if pounds is not None:
            query = query.where(CaseRow.pound_code.in_(pounds))
        if start is not None:
            query = query.where(LedgerEntry.on >= start)
        if end is not None:
            query = query.where(LedgerEntry.on < end)
        rows = await self.session.execute(query.order_by(LedgerEntry.on, LedgerEntry.id))
        return [tuple(row) for row in rows.all()]

    async def case_acts(self, numbers: Collection[str]) -> dict[str, Profile]:
        """The Act each case of ``numbers`` that exists is under, as in force on its
        impounding day (``Case.profile``: kept by its intake, the event of sequence 0,
        whatever the configuration says now), by number."""
        if not numbers:
            return {}
        found = await self.session.execute(
            select(CaseRow.number, CaseEvent.type, CaseEvent.payload)
            .join(CaseEvent, CaseEvent.case_id == CaseRow.id)
            .where(CaseRow.number.in_(list(numbers)), CaseEvent.seq == 0)
        )
        return {number: act_of_intake(kind, payload) for number, kind, payload in found.all()}

    async def ledger_of(self, authority: str) -> list[LedgerEntry]:
        """The ledger entries of ``authority``, oldest first."""
        rows = await self.session.execute(
            select(LedgerEntry)
            .where(LedgerEntry.authority_code == authority)
            .order_by(LedgerEntry.on, LedgerEntry.id)
        )
        return list(rows.scalars())
