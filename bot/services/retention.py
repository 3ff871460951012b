"""The retention of the personal data of messages: once a message in or out is older than
the configured period (``[retention] messages_days``, ``bot.config.RetentionSettings``),
its text and its telephone number are purged (``bot.store.message_care``): the body
emptied, the number replaced by a word that keeps nothing of it, the raw request of a
message in and its reply, a WhatsApp template's variables of a message out, gone, and
the numbers a provider's answer quoted in a failed message's error. The
row stays, with its time, channel and status, so that Today's counts and the log's
counts by day, status and channel are the same after as before; the log says "purged
after N days" in place of the text.

A message still queued or being sent is never touched. The purge runs in batches, each
its own transaction, so that a hundred thousand rows are no one long transaction and
the delivery loop and the desk go on between them; run twice it purges nothing more.
``poundbot serve`` runs it once a day (``bot.entry.workers.run_purge``), ``poundbot
messages purge`` on demand (``--dry-run``: how many would be purged, nothing changed).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import NamedTuple, Protocol

__all__ = ["BATCH", "Purged", "Purging", "Transactions", "purge_messages"]

#: How many messages one transaction of the purge takes.
BATCH = 1000


class Purging(Protocol):
    """The purge's reads and writes in one transaction (``bot.store.message_care``)."""

    async def purge_counts(self, before: datetime) -> tuple[int, int]: ...

    async def purge_batch(self, before: datetime, limit: int) -> tuple[int, int]: ...


class Transactions(Protocol):
    """The store, as the purge opens one transaction a batch on it."""

    def transaction(self) -> AbstractAsyncContextManager[Purging]: ...


class Purged(NamedTuple):
    """What a purge did (or, on a dry run, would do): the messages in and out received or
    queued before ``before`` (``days`` before the time it ran) whose text and number
    were (would be) purged."""

    days: int
    before: datetime
    inbox: int
    outbox: int
    dry_run: bool = False

    @property
    def total(self) -> int:
        return self.inbox + self.outbox


async def purge_messages(
    store: Transactions,
    days: int,
    now: datetime,
    *,
    dry_run: bool = False,
    batch: int = BATCH,
) -> Purged:
    """Purge the personal data of every message older than ``days`` days at ``now``,
    ``batch`` messages a transaction; a dry run only counts them."""
    if days < 1 or batch < 1:
        raise ValueError("the retention period and the batch are at least 1")
    before = now - timedelta(days=days)
    if dry_run:
        async with store.transaction() as tx:
            ins, outs = await tx.purge_counts(before)
        return Purged(days, before, ins, outs, dry_run=True)
    ins = outs = 0
    while True:
        async with store.transaction() as tx:
            one_in, one_out = await tx.purge_batch(before, batch)
        ins, outs = ins + one_in, outs + one_out
        if one_in + one_out < batch:
            return Purged(days, before, ins, outs)
