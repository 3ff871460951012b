"""The demo's world moves a simulated clock that the server it runs shares: the server
must stay alive at every time the clock is moved to, or its claims (an SMS it is
sending) would be taken over by the demo's own delivery and sent a second time."""

from __future__ import annotations

import io
from datetime import timedelta

from bot.demo.phrases import phrases
from bot.demo.transcript import Transcript
from bot.demo.world import START, running
from bot.store.instances import stopped
from bot.support.clock import FixedClock


async def test_the_server_is_alive_at_once_when_the_clock_moves() -> None:
    clock = FixedClock(START)
    async with running(phrases("en"), Transcript(io.StringIO(), clock), clock, "mseva") as w:
        for later in (timedelta(minutes=1), timedelta(days=2, hours=3)):
            await w.until(START + later)
            async with w.app.store.transaction() as tx:
                dead = list((await tx.session.execute(stopped(tx.now))).scalars())
            assert dead == [], f"{later} on, the server counts as stopped: its SMS may go twice"
