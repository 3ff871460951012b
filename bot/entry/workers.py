"""Background work inside ``poundbot serve``: delivering the outbox, sending reminders,
purging the personal data of old messages once a day, following the version of the
configuration in force (``bot.services.config_versions``): each instance looks at its
id every ``WATCH_EVERY`` and, when it changes, reads, checks and puts the new version to
work (``App.swap``); one that fails the checks is not put to work: the instance keeps
the one it has and logs the faults."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from datetime import date
from typing import TYPE_CHECKING

from bot.adapters.outbox import BatchSize, Sender, deliver_once
from bot.adapters.send_gate import Gate
from bot.config import ConfigError
from bot.reminders.dispatch import remind_once
from bot.services.config_versions import config_of
from bot.services.retention import purge_messages
from bot.store.config_versions import VersionRow, latest_id, version
from bot.store.instances import worker_id
from bot.store.tx import Store, sync_places
from bot.support.dlt import DltPolicy

if TYPE_CHECKING:
    from bot.services.runtime import App

__all__ = [
    "WATCH_EVERY",
    "adopt",
    "purge_daily",
    "run_config_watch",
    "run_delivery",
    "run_purge",
    "run_reminders",
    "worker_id",
]

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


#: How often each instance looks at the version of the configuration in force (seconds).
WATCH_EVERY = 2.0

config_log = logging.getLogger("poundbot.config")


async def adopt(app: App, row: VersionRow) -> bool:
    """Put version ``row`` to work in ``app``: checked, swapped in, its authorities and
    pounds written to their tables. False (the version in use kept, the faults logged)
    when it fails the checks."""
    try:
        config = config_of(row)
    except ConfigError as exc:
        config_log.error(
            "configuration version %d refused (%d fault(s)); keeping version %s",
            row.id,
            len(exc.faults),
            app.version,
        )
        for fault in exc.faults:
            config_log.error("  version %d:%d: %s", row.id, fault.line, fault.message)
        return False
    async with app.store.transaction() as tx:
        await sync_places(
            tx,
            {code: a.name for code, a in config.authorities.items()},
            {code: (p.authority, p.name) for code, p in config.pounds.items()},
        )
    app.swap(config, row.id)
    config_log.info("configuration version %d in force (%s: %s)", row.id, row.source, row.reason)
    return True


async def run_config_watch(app: App, stop: asyncio.Event, *, every: float = WATCH_EVERY) -> None:
    """Every ``every`` seconds until ``stop`` is set, the id of the version in force; a
    new one put to work (``adopt``). A version refused is not read again until another
    comes; a failed look is logged and tried again. Nothing to follow for an App handed
    its configuration (``App.version`` None)."""
    if app.version is None:  # a configuration handed to it: no version to follow
        return
    refused: int | None = None
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)
        if stop.is_set():
            return
        try:
            async with app.store.reading() as tx:
                latest = await latest_id(tx)
                changed = latest is not None and latest not in (app.version, refused)
                row = await version(tx, latest) if changed else None
            if row is not None and not await adopt(app, row):
                refused = row.id
        except Exception:
            config_log.exception("configuration watch failed; trying again in %.0f s", every)
