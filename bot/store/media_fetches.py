"""The pictures of a message to fetch (``media_fetches``), as the Twilio media fetcher
(``bot.channels.twilio.media``) records, claims and finishes them.

The channels (``bot.channels``) reach these rows only through these functions: they
take plain values and return plain values or rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, or_, select, update

from bot.store.instances import taken_over
from bot.store.models import CaseRow, MediaFetch
from bot.store.tx import Tx

__all__ = [
    "Claimed",
    "add_fetch",
    "case_number",
    "claim_fetch",
    "done",
    "give_back",
    "locked_fetch",
]


@dataclass(frozen=True, slots=True)
class Claimed:
    """A job claimed: its id, key, the URLs to fetch and how often it was claimed."""

    id: int
    key: str
    urls: tuple[str, ...]
    attempts: int


async def add_fetch(tx: Tx, job: MediaFetch) -> None:
    """Record ``job`` unless a job of its key is recorded already (a message acted on once)."""
    known = await tx.session.scalar(select(MediaFetch.id).where(MediaFetch.key == job.key))
    if known is None:
        tx.session.add(job)
        await tx.session.flush()


async def claim_fetch(tx: Tx, name: str, lease: timedelta) -> Claimed | None:
    """One due job (pending, its lease over or its instance stopped), claimed for the
    instance ``name`` until ``tx.now + lease``; SKIP LOCKED on PostgreSQL, so that two
    instances never take one. None when none is due."""
    now = tx.now
    due = (
        select(MediaFetch.id)
        .where(
            MediaFetch.status == "pending",
            or_(
                MediaFetch.claimed_until.is_(None),
                MediaFetch.claimed_until < now,
                and_(
                    MediaFetch.claimed_by.is_not(None),
                    taken_over(MediaFetch.claimed_by, now),
                ),
            ),
        )
        .order_by(MediaFetch.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    claimed = (
        await tx.session.execute(
            update(MediaFetch)
            .where(MediaFetch.id.in_(due.scalar_subquery()))
            .values(
                claimed_by=name,
                claimed_until=now + lease,
                attempts=MediaFetch.attempts + 1,
            )
            .returning(MediaFetch.id, MediaFetch.key, MediaFetch.urls, MediaFetch.attempts)
            .execution_options(synchronize_session=False)
        )
    ).first()
    if claimed is None:
        return None
    row_id, key, urls, attempts = claimed
    return Claimed(row_id, key, tuple(str(u) for u in urls or ()), attempts)


async def give_back(tx: Tx, job_id: int, name: str) -> None:
    """The job ``job_id``, claimed by ``name``, is due again at once for any instance."""
    await tx.session.execute(
        update(MediaFetch)
        .where(MediaFetch.id == job_id, MediaFetch.claimed_by == name)
        .values(claimed_by=None, claimed_until=None, attempts=MediaFetch.attempts - 1)
    )


async def locked_fetch(tx: Tx, job_id: int) -> MediaFetch | None:
    """The job ``job_id``, locked for this transaction (None: gone)."""
    row: MediaFetch | None = (
        await tx.session.execute(
            select(MediaFetch).where(MediaFetch.id == job_id).with_for_update()
        )
    ).scalar_one_or_none()
    return row


async def case_number(tx: Tx, case_id: int) -> str | None:
    """The number of the case ``case_id``."""
    number: str | None = await tx.session.scalar(
        select(CaseRow.number).where(CaseRow.id == case_id)
    )
    return number


def done(tx: Tx, row: MediaFetch) -> None:
    """Mark ``row`` done now, its lease given up (written with the transaction)."""
    row.status, row.done_at = "done", tx.now
    row.claimed_until = None
