"""The SQL of a rate dated back (``bot.services.tariff_edit``): the cases whose figures
it may change, to be counted again with it and without it."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

from sqlalchemy import exists, or_, select

from bot.store.models import CaseEvent, CaseLot, CaseRow
from bot.store.tx import Tx

__all__ = ["cases_counted_since"]


async def cases_counted_since(
    tx: Tx,
    pounds: Collection[str],
    kinds: Collection[str],
    since: date,
    open_stages: Collection[str],
) -> list[str]:
    """The numbers of the cases of ``pounds`` with a lot of one of ``kinds`` that a rate
    from ``since`` may count: open (a stage of ``open_stages``), or impounded, or with a
    step, on or after ``since``; by number. (A case all of whose steps came before
    ``since`` was counted by the rows before it.)"""
    if not pounds or not kinds:
        return []
    lot = exists().where(CaseLot.case_id == CaseRow.id, CaseLot.kind.in_(list(kinds)))
    later = exists().where(CaseEvent.case_id == CaseRow.id, CaseEvent.on >= since)
    found = await tx.session.scalars(
        select(CaseRow.number)
        .where(
            CaseRow.pound_code.in_(list(pounds)),
            CaseRow.stage != "voided",
            lot,
            or_(CaseRow.stage.in_(list(open_stages)), CaseRow.impounded_on >= since, later),
        )
        .order_by(CaseRow.pound_code, CaseRow.seq)
    )
    return list(found)
