"""Fines reach the fund of the local authority (s.17(1)): the second ledger step after
they are received, on release (s.12), from a sale (s.16(1)) or from a deposit (s.14)."""

from __future__ import annotations

from datetime import date

from bot.store.models import CaseEvent
from bot.store.tx import LoadedCase, Tx
from domain.money import Money

__all__ = ["fines_to_fund"]


def fines_to_fund(
    tx: Tx,
    *,
    authority: str,
    loaded: LoadedCase,
    event_row: CaseEvent,
    amount: Money,
    on: date,
) -> None:
    """s.17(1): "All sums received on account of fines ... shall be credited to the fund
    of the local authority": the fines received move from ``fines`` to ``fund``."""
    if not amount.paise:
        return
    for account, sign in (("fines", -1), ("fund", 1)):
        tx.ledger(
            authority=authority,
            loaded=loaded,
            event_row=event_row,
            account=account,
            amount=sign * amount.paise,
            provision="s.17(1)",
            on=on,
        )
