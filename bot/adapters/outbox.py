"""Delivering the outbox: claim due messages with a lease, send, mark; retry with backoff.

The claim is one ``UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED)
RETURNING`` that works on SQLite (where writers are serialised) and PostgreSQL (where
instances skip each other's rows). A message whose lease ran out, or whose instance's
heartbeat stopped (``bot.store.instances``: it died while sending), is claimed again:
at most one duplicate per crash (the message in flight), never a loss.

A slow provider must not make a live instance look dead. Before each send the row's
lease is renewed, on the condition that the row is still this instance's
(``take``): a row another instance claimed after the lease ran out is left to it,
never sent twice. A delivery loop claims what it can send in half the lease at the
pace of its last batch (``BatchSize``); a batch is sent for at most half the lease, and
what is left of it then is given back at once for any instance to claim.

Every message passes the send gate (``bot.adapters.send_gate.Gate``) when it is sent,
not only when it was queued: a message a check refuses is dropped (status ``dropped``,
the check and its reason in ``last_error``) and counted; one about a case is written
again by the gate's composer. The outbox knows no check's rule and renders no text.

Fairness on a paced channel (one named in ``busy``: Telegram, one new message a
second per chat): a claim takes at most one message per recipient (the oldest), and
none for the recipients named busy (a chat waiting for its slot). A chat with hundreds
of replies queued waits its turn without holding up the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Mapping
from datetime import timedelta
from typing import Final, Protocol

from bot.adapters.send_gate import Gate
from bot.observe.metrics import (
    OUTBOX_DLT_REFUSED,
    OUTBOX_FAILED,
    OUTBOX_RETRIED,
    OUTBOX_SENT,
)
from bot.store import outbox
from bot.store.messages import set_contact
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.dlt import DltPolicy, DltRefusal, DltStamp, Registry, registry

__all__ = [
    "SMS",
    "BatchSize",
    "PermanentSendError",
    "Sender",
    "SmsSender",
    "TransientSendError",
    "UnsubscribedError",
    "claim",
    "deliver_once",
    "refusal_label",
    "take",
]

log = logging.getLogger("poundbot.outbox")

LEASE = timedelta(minutes=2)
MAX_ATTEMPTS = 8


class TransientSendError(Exception):
    """The provider could not take the message now (429, 5xx, network): try again later."""


class PermanentSendError(Exception):
    """The provider refused the message for good."""


class UnsubscribedError(PermanentSendError):
    """The number has unsubscribed (Twilio 21610): it is marked stopped."""


class Sender(Protocol):
    """A channel's way to send one message; returns the provider's message id."""

    async def send(self, recipient: str, body: str, key: str) -> str: ...


class SmsSender(Protocol):
    """An SMS provider: sends one SMS under its DLT stamp (None where DLT is off)."""

    async def send(
        self, recipient: str, body: str, key: str, *, dlt: DltStamp | None = None
    ) -> str: ...


#: The channel whose messages go under DLT.
SMS: Final = "sms"


def refusal_label(reason: str) -> str:
    """The kind of a DLT refusal, for the metric's label (a few fixed values)."""
    if reason.startswith("no DLT template id"):
        return "no_template_id"
    if reason.startswith("variable") or reason.startswith("the variables"):
        return "variable_too_long"
    return "no_template"


async def _stamp(
    store: Store, row: OutboxRow, body: str, worker: str, policy: DltPolicy, templates: Registry
) -> DltStamp | None:
    """The DLT stamp of an SMS row, its template recorded on the row; a row that cannot
    go under DLT is marked failed with the reason (and None returned)."""
    try:
        name, stamp = policy.stamp(body, templates, row.template)
    except DltRefusal as refusal:
        reason = f"dlt: {refusal}"
        await _finish(store, row.id, worker, status="failed", last_error=reason[:500])
        OUTBOX_FAILED.labels(row.channel).inc()
        OUTBOX_DLT_REFUSED.labels(refusal_label(str(refusal))).inc()
        log.warning("outbox message %d not sent: %s", row.id, reason)
        return None
    if row.template != name:
        async with store.transaction() as tx:
            await outbox.set_template(tx, row.id, name)
    return stamp


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, ... up to an hour between attempts."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


async def claim(
    store: Store,
    worker: str,
    channels: list[str],
    limit: int = 50,
    *,
    lease: timedelta = LEASE,
    busy: Mapping[str, Collection[str]] | None = None,
) -> list[OutboxRow]:
    """Take up to ``limit`` due messages of ``channels`` for ``worker`` under a lease; on
    a channel named in ``busy``, only the oldest of each recipient and none for the
    recipients it names."""
    busy = busy or {}
    async with store.transaction() as tx:
        return await outbox.claim_due(tx, worker, channels, limit, tx.now + lease, busy)


async def take(store: Store, row_id: int, worker: str, lease: timedelta = LEASE) -> bool:
    """Renew the lease of a claimed row just before sending it; False if the row is no
    longer ``worker``'s (the lease ran out and another instance claimed it)."""
    async with store.transaction() as tx:
        return await outbox.renew_lease(tx, row_id, worker, tx.now + lease)


async def _give_back(store: Store, row_ids: list[int], worker: str) -> None:
    """Release claimed rows not sent (the batch ran out of time): due again at once, and
    the claim does not count as an attempt."""
    async with store.transaction() as tx:
        await outbox.give_back(tx, row_ids, worker)


async def _finish(store: Store, row_id: int, worker: str, **values: object) -> None:
    """Record the outcome of a send, if the lease is still ours."""
    async with store.transaction() as tx:
        await outbox.finish(tx, row_id, worker, **values)


class BatchSize:
    """How many messages a delivery loop claims at a time: what it can send in half the
    lease at the pace of its last batch (never more than ``most``), so that it does not
    hold messages another instance could be sending."""

    def __init__(self, lease: timedelta = LEASE, most: int = 50) -> None:
        self.lease, self.most = lease, most
        self.per_message: timedelta | None = None

    def limit(self) -> int:
        """The number of messages to claim next."""
        if not self.per_message:
            return self.most
        return max(1, min(self.most, int(self.lease / 2 / self.per_message)))

    def record(self, messages: int, took: timedelta) -> None:
        """A batch sent ``messages`` (tried) in ``took``."""
        if messages:
            self.per_message = took / messages


async def deliver_once(
    store: Store,
    senders: Mapping[str, Sender],
    worker: str,
    *,
    limit: int = 50,
    pause: Mapping[str, float] | None = None,
    lease: timedelta = LEASE,
    busy: Mapping[str, Collection[str]] | None = None,
    batch: BatchSize | None = None,
    dlt: DltPolicy | None = None,
    gate: Gate | None = None,
) -> int:
    """One pass: claim due messages and send them; returns how many were sent.

    ``gate``: the checks each message passes just before it is sent (``send_gate``); one it
    refuses is dropped, never sent.

    ``batch`` (kept by a delivery loop from pass to pass) sizes the claim instead of
    ``limit``. With ``dlt`` enforced (an entity configured), an SMS goes only under the
    template its text matches (``bot.support.dlt``), with the stamp passed to the sender as
    ``dlt=``; one that cannot is marked failed with the reason, never sent."""
    sent = tried = 0
    pause = pause or {}
    size = batch.limit() if batch is not None else limit
    rows = await claim(store, worker, list(senders), size, lease=lease, busy=busy)
    started = store.clock.now()
    stop_at = started + lease / 2
    for i, row in enumerate(rows):
        if store.clock.now() >= stop_at:
            await _give_back(store, [r.id for r in rows[i:]], worker)
            break
        tried += 1
        if not await take(store, row.id, worker, lease):
            log.info("outbox %s: taken over by another instance", row.idempotency_key)
            continue
        body = row.body
        if gate is not None and (gate.checks or gate.compose is not None):
            passed = await gate.admit(store, row, worker)
            if passed is None:
                continue
            body = passed
        sender = senders[row.channel]
        stamp: DltStamp | None = None
        if row.channel == SMS and dlt is not None and dlt.enforced:
            stamp = await _stamp(store, row, body, worker, dlt, registry())
            if stamp is None:
                continue
        try:
            if stamp is not None:
                sms: SmsSender = sender  # type: ignore[assignment]
                provider_id = await sms.send(row.recipient, body, row.idempotency_key, dlt=stamp)
            else:
                provider_id = await sender.send(row.recipient, body, row.idempotency_key)
        except TransientSendError as exc:
            final = row.attempts >= MAX_ATTEMPTS
            await _finish(
                store,
                row.id,
                worker,
                status="failed" if final else "queued",
                last_error=str(exc)[:500],
                next_attempt_at=store.clock.now() + backoff(row.attempts),
            )
            (OUTBOX_FAILED if final else OUTBOX_RETRIED).labels(row.channel).inc()
            log.warning("outbox %s: %s (attempt %d)", row.idempotency_key, exc, row.attempts)
        except PermanentSendError as exc:
            await _finish(store, row.id, worker, status="failed", last_error=str(exc)[:500])
            OUTBOX_FAILED.labels(row.channel).inc()
            if isinstance(exc, UnsubscribedError):
                async with store.transaction() as tx:
                    await set_contact(tx, row.recipient, opted_out=True, channel=row.channel)
            log.warning("outbox %s refused: %s", row.idempotency_key, exc)
        else:
            await _finish(
                store,
                row.id,
                worker,
                status="sent",
                provider_id=provider_id,
                sent_at=store.clock.now(),
            )
            OUTBOX_SENT.labels(row.channel).inc()
            sent += 1
        if pause.get(row.channel):
            await asyncio.sleep(pause[row.channel])
    if batch is not None:
        batch.record(tried, store.clock.now() - started)
    return sent
