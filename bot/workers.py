"""Background work inside ``poundbot serve``: delivering the outbox (and, later, reminders)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Mapping

from bot.outbox import Sender, deliver_once
from bot.store.tx import Store

__all__ = ["run_delivery", "worker_id"]

log = logging.getLogger("poundbot.workers")


def worker_id() -> str:
    """A name for this process's leases, unique across instances and restarts."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


async def run_delivery(
    store: Store,
    senders: Mapping[str, Sender],
    *,
    interval: float = 2.0,
    pause: Mapping[str, float] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Deliver due messages until cancelled or ``stop`` is set; a failed pass is logged."""
    me = worker_id()
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            sent = await deliver_once(store, senders, me, pause=pause)
        except Exception:
            log.exception("outbox delivery pass failed; trying again in %.0f s", interval)
            sent = 0
        if not sent:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval)
