"""The send gate: the checks every outbound message passes when it is sent, not only when
it was queued, and the composer that writes a message about a case again then.

The composition root registers them (``bot.bootstrap.send_gate``): a STOP said since the
message was queued (``bot.adapters.send_checks``), a message about a case that the case
has moved past (``bot.notifications.case_messages``), the ceiling of answers to numbers that
are not staff (``bot.notifications.spending``). Each reads the message as an ``Outgoing``: its
key, channel, recipient and purpose, and what a message about a case is. The outbox
(``bot.adapters.outbox``) runs the gate; it knows no check's rule and renders no text.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol

from bot.observe.metrics import OUTBOX_DROPPED
from bot.store import outbox
from bot.store.models import OutboxRow
from bot.store.tx import Store, Tx

log = logging.getLogger("poundbot.outbox")

__all__ = [
    "ANSWER",
    "NOTICE",
    "STAFF",
    "Composer",
    "Gate",
    "Outgoing",
    "SendCheck",
    "outgoing",
    "purpose_of",
]

#: Why a message is sent (``OutboxRow.purpose``): an answer to the recipient's own
#: message; a notice to an owner of a step on their case; a reminder or an alert to a
#: keeper, an officer or an admin.
ANSWER: Final = "answer"
NOTICE: Final = "notice"
STAFF: Final = "staff"

#: The keys of the answers queued before messages recorded their purpose.
_ANSWER_KEYS = ("sms-reply:", "tg-", "mms-photos:", "stopped:")


def purpose_of(row: OutboxRow) -> str:
    """Why ``row`` is sent: its recorded purpose, else (a row queued before purposes
    were recorded) an answer by its key, else a notice."""
    if row.purpose:
        return row.purpose
    return ANSWER if row.idempotency_key.startswith(_ANSWER_KEYS) else NOTICE


class Outgoing(NamedTuple):
    """A message about to be sent, as a send-time check reads it: with ``kind`` (None
    for a message about no case), the case, the language and what the kind names."""

    key: str
    channel: str
    recipient: str
    purpose: str
    body: str = ""
    kind: str | None = None
    case: str | None = None
    lang: str | None = None
    ref: str | None = None


def outgoing(row: OutboxRow) -> Outgoing:
    """The message of ``row`` as the send gate reads it."""
    return Outgoing(
        row.idempotency_key,
        row.channel,
        row.recipient,
        purpose_of(row),
        row.body,
        row.kind,
        row.case_number,
        row.lang,
        row.ref,
    )


class SendCheck(Protocol):
    """One check of the send gate: None when the message may go, else why it may not.
    ``name`` labels the messages it drops in ``/metrics``."""

    name: str

    async def __call__(self, tx: Tx, message: Outgoing) -> str | None: ...


class Composer(Protocol):
    """Renders a message again when it is sent (a message about a case, from the case's
    statement that day): the text to send, or None to send the one queued."""

    async def __call__(self, tx: Tx, message: Outgoing) -> str | None: ...


class Gate:
    """The checks every message passes when it is sent, in the order registered; the
    first that refuses drops it. ``compose``: what renders a message that passed them
    again, from what it is, just before it is sent."""

    def __init__(self, checks: Sequence[SendCheck] = (), compose: Composer | None = None) -> None:
        self.checks = tuple(checks)
        self.compose = compose

    async def refusal(self, tx: Tx, message: Outgoing) -> tuple[str, str] | None:
        """(the check's name, its reason) for the first check that refuses ``message``;
        None when every check lets it go."""
        for check in self.checks:
            reason = await check(tx, message)
            if reason is not None:
                return check.name, reason
        return None

    async def admit(self, store: Store, row: OutboxRow, worker: str) -> str | None:
        """The text to send of the claimed ``row`` (rendered again by the gate's composer,
        and recorded, when it is a message about a case), or None when it may not be sent
        now: then it is dropped with the check's reason (if the lease is still
        ``worker``'s) and counted."""
        message = outgoing(row)
        async with store.transaction() as tx:
            refused = await self.refusal(tx, message)
            if refused is None:
                body = await self.compose(tx, message) if self.compose is not None else None
                if body is None or body == row.body:
                    return row.body
                await outbox.rewrite(tx, row.id, worker, body)
                return body
            name, reason = refused
            await outbox.drop(tx, row.id, worker, f"{name}: {reason}"[:500])
        OUTBOX_DROPPED.labels(row.channel, name).inc()
        log.info("outbox %s dropped: %s: %s", row.idempotency_key, name, reason)
        return None
