"""What this process counts, for ``GET /metrics`` (``bot.channels.metrics_page``).

Each concept is counted in one place: messages where the inbox stores and acts on them
(``bot.store.messages``), sends where the outbox marks them (``bot.adapters.outbox``), reminders
where a batch commits (``bot.reminders.dispatch``), waits for the database where they
happen (``Store.turn``, ``bot.store.engine``), webhook latency around the three
webhook routes (``WebhookTimer``). The counters are this process's (each instance its
own, from 0 at start); what is in the database (the outbox backlog, reminders due) is
read when scraped, by ``metrics_page``.

They live in a registry of poundbot's own, not prometheus_client's global one.
"""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram

__all__ = [
    "ANSWER_CEILING_REACHED",
    "CASE_MESSAGES_OVERTAKEN",
    "DB_WAIT",
    "DB_WAIT_REFUSED",
    "MESSAGES_ANSWERED",
    "MESSAGES_FAILED",
    "MESSAGES_RECEIVED",
    "OUTBOX_DLT_REFUSED",
    "OUTBOX_DROPPED",
    "OUTBOX_FAILED",
    "OUTBOX_RETRIED",
    "OUTBOX_SENT",
    "PAID_MESSAGES",
    "REGISTRY",
    "REMINDERS_FAILED",
    "REMINDERS_SENT",
    "REMINDERS_TROUBLED",
    "WEBHOOKS",
    "WEBHOOK_SECONDS",
    "WebhookTimer",
]

REGISTRY = CollectorRegistry()

MESSAGES_RECEIVED = Counter(
    "poundbot_messages_received",
    "Inbound messages stored in the inbox (a repeat of a stored one is not counted).",
    ["channel"],
    registry=REGISTRY,
)
MESSAGES_ANSWERED = Counter(
    "poundbot_messages_answered",
    "Inbound messages acted on and marked processed with their reply.",
    ["channel"],
    registry=REGISTRY,
)
MEDIA_FETCHED = Counter(
    "poundbot_media_fetched",
    "Pictures of answered messages fetched after the answer: kept, or why not "
    "(too_large, too_many_pixels, not_image, unreachable).",
    ["outcome"],
    registry=REGISTRY,
)
MESSAGES_FAILED = Counter(
    "poundbot_messages_failed",
    "Times acting on a stored message raised (rolled back: the sender is asked to send "
    "it again, or the SMS sweep tries it later).",
    ["channel"],
    registry=REGISTRY,
)
OUTBOX_SENT = Counter(
    "poundbot_outbox_sent",
    "Outbound messages the provider accepted.",
    ["channel"],
    registry=REGISTRY,
)
OUTBOX_RETRIED = Counter(
    "poundbot_outbox_retried",
    "Sends the provider could not take now (429, 5xx, network): tried again later.",
    ["channel"],
    registry=REGISTRY,
)
OUTBOX_FAILED = Counter(
    "poundbot_outbox_failed",
    "Outbound messages given up for good (refused by the provider, or out of attempts).",
    ["channel"],
    registry=REGISTRY,
)
OUTBOX_DROPPED = Counter(
    "poundbot_outbox_dropped",
    "Outbound messages dropped when they were to be sent, by the check that refused "
    "them: stop (the number said STOP after the message was queued), ceiling (the "
    "ceiling of answers to numbers that are not staff, or a number's daily cap).",
    ["channel", "check"],
    registry=REGISTRY,
)
PAID_MESSAGES = Counter(
    "poundbot_paid_messages",
    "SMS and WhatsApp messages let through the send gate, by purpose: answer (to the "
    "recipient's own message or missed call), notice (to an owner, of a step on their "
    "case), staff (reminders and alerts). Notices and staff messages are never held "
    "back by the ceiling of answers, only counted here.",
    ["purpose"],
    registry=REGISTRY,
)
ANSWER_CEILING_REACHED = Counter(
    "poundbot_answer_ceiling_reached",
    "Times the ceiling of answers to numbers that are not staff was reached: once an "
    "hour or a day (window) in which answers were then held back; the admins are told.",
    ["window"],
    registry=REGISTRY,
)
CASE_MESSAGES_OVERTAKEN = Counter(
    "poundbot_case_messages_overtaken",
    "Messages about a case dropped when they were to be sent because the case had moved "
    "past them (the intake SMS once the owner cannot take the cattle back, the auction's "
    "once it is no longer the one fixed, the report once the notice is recorded), by kind.",
    ["kind"],
    registry=REGISTRY,
)
OUTBOX_DLT_REFUSED = Counter(
    "poundbot_outbox_dlt_refused",
    "SMS not sent because they cannot go under DLT (no template matches, a variable is "
    "too long, or the template has no id); each is also counted as failed.",
    ["reason"],
    registry=REGISTRY,
)
REMINDERS_SENT = Counter(
    "poundbot_reminders_sent",
    "Reminders fired, their messages queued in the outbox (a digest counts each item).",
    registry=REGISTRY,
)
REMINDERS_FAILED = Counter(
    "poundbot_reminders_failed",
    "Reminder jobs failed for good: reason=unreached (no active keeper or officer with "
    "Telegram or a phone). A job that raises or is interrupted is tried again, never "
    "given up.",
    ["reason"],
    registry=REGISTRY,
)
REMINDERS_TROUBLED = Counter(
    "poundbot_reminders_troubled",
    "Tries of troubled reminder jobs, not finished after 3 claims (an instance died on "
    "them, or they raised): each tried alone, backing off; the officers and admins are "
    "told once a day.",
    registry=REGISTRY,
)

#: The webhook routes whose latency is measured.
WEBHOOKS = ("/twilio/sms", "/twilio/status", "/telegram")
WEBHOOK_SECONDS = Histogram(
    "poundbot_webhook_seconds",
    "Time from a webhook request's arrival to the end of its answer.",
    ["route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0),
    registry=REGISTRY,
)
DB_WAIT = Histogram(
    "poundbot_db_wait_seconds",
    "Time waited for the database: wait=turn (this process's queue for SQLite, each "
    "transaction or turn), wait=lock (the SQLite file held by another process: only the "
    "statements that found it held).",
    ["wait"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
DB_WAIT_REFUSED = Counter(
    "poundbot_db_wait_refused",
    "Waits for the database that ran out (the request's wait budget, or the lock's "
    "deadline): nothing was done and the sender is asked to send again.",
    ["wait"],
    registry=REGISTRY,
)

# The series a scraper sees from the start, at 0 (a rate needs them before the first event).
for _channel in ("sms", "telegram"):
    for _counter in (
        MESSAGES_RECEIVED,
        MESSAGES_ANSWERED,
        MESSAGES_FAILED,
        OUTBOX_SENT,
        OUTBOX_RETRIED,
        OUTBOX_FAILED,
    ):
        _counter.labels(_channel)
    for _check in ("stop", "ceiling", "overtaken"):
        OUTBOX_DROPPED.labels(_channel, _check)
for _kind in (
    "owner_impounded",
    "owner_auction",
    "owner_auction_cancelled",
    "owner_account",
    "officer_report",
):
    CASE_MESSAGES_OVERTAKEN.labels(_kind)
for _window in ("hour", "day"):
    ANSWER_CEILING_REACHED.labels(_window)
for _purpose in ("answer", "notice", "staff"):
    PAID_MESSAGES.labels(_purpose)
REMINDERS_FAILED.labels("unreached")
for _wait in ("turn", "lock"):
    DB_WAIT.labels(_wait)
    DB_WAIT_REFUSED.labels(_wait)
for _route in WEBHOOKS:
    WEBHOOK_SECONDS.labels(_route)

Scope = dict[str, Any]


class WebhookTimer:
    """ASGI middleware: the latency of each request to a webhook route, by route."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._timers = {route: WEBHOOK_SECONDS.labels(route) for route in WEBHOOKS}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        timer = self._timers.get(scope.get("path", "")) if scope["type"] == "http" else None
        if timer is None:
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            timer.observe(time.perf_counter() - start)
