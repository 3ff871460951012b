"""Background work inside ``poundbot serve``: delivering the outbox, sending reminders,
purging the personal data of old messages once a day."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from datetime import date
from typing import TYPE_CHECKING

from bot.adapters.outbox import BatchSize, Sender, deliver_once
from bot.adapters.send_gate import Gate
from bot.reminders.dispatch import remind_once
from bot.services.retention import purge_messages
from bot.store.instances import worker_id
from bot.store.tx import Store
from bot.support.dlt import DltPolicy

if TYPE_CHECKING:
    from bot.services.runtime import App

__all__ = ["purge_daily", "run_delivery", "run_purge", "run_reminders", "worker_id"]

log = logging.getLogger("poundbot.workers")


async def run_delivery(
    store: Store,
    senders: Mapping[str, Sender],
    *,
    interval: float = 2.0,
    pause: Callable[[], Mapping[str, float]] | None = None,
    stop: asyncio.Event | None = None,
    name: str | None = None,
    dlt: Callable[[], DltPolicy] | None = None,
    gate: Gate | None = None,
) -> None:
    """Deliver due messages until cancelled or ``stop`` is set; a failed pass is logged.
    ``name``: the instance's lease name (its heartbeat's), else one of its own. ``dlt``:
    the configuration's DLT policy, applied to every SMS (``bot.adapters.outbox``), and
    ``pause``, between two messages of a channel: each read at every pass (the
    configuration in force then). ``gate``: the checks every message passes when it is
    sent."""
    me = name or worker_id()
    stop = stop or asyncio.Event()
    batch = BatchSize()
    while not stop.is_set():
        try:
            sent = await deliver_once(
                store,
                senders,
                me,
                pause=pause() if pause is not None else None,
                batch=batch,
                dlt=dlt() if dlt is not None else None,
                gate=gate,
            )
        except Exception:
            log.exception("outbox delivery pass failed; trying again in %.0f s", interval)
            sent = 0
        if not sent:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval)


async def run_reminders(
    app: App, stop: asyncio.Event | None = None, *, interval: float = 10.0, name: str | None = None
) -> None:
    """Plan and queue due reminders every ``interval`` seconds until cancelled or ``stop``
    is set; a failed pass is logged. Any number of instances may run it at once.
    ``name``: the instance's lease name (its heartbeat's), else one of its own."""
    me = name or worker_id()
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            done = await remind_once(app.store, app.config, me)
        except Exception:
            log.exception("reminder pass failed; trying again in %.0f s", interval)
        else:
            if done.reminders or done.failed:
                log.info(
                    "reminders: %d sent (%d messages queued), %d failed, %d deadlines planned",
                    done.reminders,
                    done.messages,
                    done.failed,
                    done.planned,
                )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=interval)


async def purge_daily(app: App, done_on: date | None) -> date | None:
    """One check of the daily purge (``bot.services.retention``): on a local day other
    than ``done_on``, purge the text and number of the messages older than the retention
    period. The day the purge was last done (``done_on`` when it was not due; a failed
    purge is logged and tried again at the next check)."""
    today = app.deps.today()
    if today == done_on:
        return done_on
    try:
        purged = await purge_messages(
            app.store, app.config.retention.messages_days, app.store.clock.now()
        )
    except Exception:
        log.exception("purge of old messages failed; trying again at the next check")
        return done_on
    if purged.total:
        log.info(
            "purged the text and number of %d messages older than %d days",
            purged.total,
            purged.days,
        )
    return today


async def run_purge(
    app: App, stop: asyncio.Event | None = None, *, interval: float = 600.0
) -> None:
    """Purge the messages older than the retention period once a local day: when it
    starts, then at the first check (every ``interval`` seconds) of each new day
    (``purge_daily``), until cancelled or ``stop`` is set. Any number of instances may
    run it at once (a purge run twice purges nothing more)."""
    stop = stop or asyncio.Event()
    done_on: date | None = None
    while not stop.is_set():
        done_on = await purge_daily(app, done_on)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=interval)
