"""Moving the clock of a running server in a test.

A rig's server writes its heartbeat every three seconds at its clock's time
(``bot.store.instances``). A test that moves that clock by minutes or days leaves the last
beat behind: until the next one, the server counts as a stopped instance, and a message or
a reminder job it claims meanwhile may be taken over by the test's own delivery or
reminder pass and sent twice. So the clock is moved, and the server's heartbeat written at
the new time at once, as ``bot.demo.world`` does."""

from __future__ import annotations

from datetime import datetime

from starlette.applications import Starlette

from bot.services.runtime import App
from bot.store.instances import beat
from bot.support.clock import FixedClock

__all__ = ["RIG_TIMEOUT", "move"]

#: How long a rig's HTTP client waits for poundbot's answer: a machine running the whole
#: suite on every core answers a webhook slowly at times, which is not what a test
#: asserts (httpx's own default is 5 s).
RIG_TIMEOUT = 30.0


async def move(
    clock: FixedClock,
    app: App,
    server: Starlette,
    to: datetime | None = None,
    **delta: float,
) -> None:
    """Set ``clock`` to ``to`` or advance it by ``delta``; then the server's heartbeat."""
    if to is not None:
        clock.set(to)
    else:
        clock.advance(**delta)
    instance = getattr(server.state, "instance", None)
    if instance is not None:  # the server is up (its lifespan names the instance)
        await beat(app.store, instance)
