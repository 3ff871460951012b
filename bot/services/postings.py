"""Writing an event's money: the ledger legs the domain's rules return (``domain.ledger``)."""

from __future__ import annotations

from datetime import date

from bot.services.base import Deps
from bot.store.models import CaseEvent
from bot.store.port import CaseStore
from bot.store.tx import LoadedCase
from domain.accounts import Postings
from domain.case import Case
from domain.ledger import postings_for

__all__ = ["write_postings"]


async def write_postings(
    tx: CaseStore,
    deps: Deps,
    loaded: LoadedCase,
    after: Case,
    on: date,
    event_row: CaseEvent | None = None,
) -> Postings:
    """Write the postings of the newest event of ``after`` (``loaded`` holds the case
    before it), under the event's audit-log row; they are the domain's, to the paisa."""
    postings = postings_for(
        loaded.case, after, deps.tariff_of(loaded.case), deps.config.deduction_order
    )
    if postings.legs:
        row = event_row if event_row is not None else await tx.last_event_row(loaded)
        tx.post(
            authority=deps.authority_of(loaded.pound),
            loaded=loaded,
            event_row=row,
            postings=postings,
            on=on,
        )
    return postings
