"""Two instances deliver one outbox through a slow Telegram API: each message sent once?

``rows`` Telegram messages (one a chat) are queued; two instance processes (``python -m
chaos.outbox instance ...``) deliver them as ``poundbot serve`` does — the outbox's
claim under a lease (``bot.adapters.outbox.deliver_once``) and the real ``TelegramSender`` on a
PTB bot — to a fake Bot API on loopback that answers each ``sendMessage`` after
``delay`` seconds and counts them. The lease is scaled with the delay (``lease``;
production: 2 minutes against Telegram's worst 3.5 s); the instances end when nothing
is left to send.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import uuid
from collections import Counter
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bot.fakes.loopback import serve
from bot.fakes.telegram_api import TOKEN, FakeTelegram
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.messages import enqueue
from bot.store.models import Base, OutboxRow
from bot.store.tx import Store
from bot.support.clock import SystemClock
from chaos.report import Outcome, progress

__all__ = ["two_instances"]

ROOT = Path(__file__).resolve().parents[1]


class SlowTelegram(FakeTelegram):
    """The fake Bot API, answering ``sendMessage`` after ``delay`` seconds."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay
        self.took: list[float] = []

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/bot{token}/{method}", self.slow, methods=["POST"])])

    async def slow(self, request: Request) -> JSONResponse:
        started = time.monotonic()
        if request.path_params["method"] == "sendMessage":
            await asyncio.sleep(self.delay)
        response = await self.handle(request)
        self.took.append(time.monotonic() - started)
        return response


async def _instance(url: str, api: str, lease: float) -> None:
    """One instance's delivery, until nothing is queued or being sent."""
    from telegram import Bot
    from telegram.request import HTTPXRequest

    import bot.adapters.outbox
    from bot.channels.telegram.sender import ChatPacer, TelegramSender
    from bot.channels.telegram.webhook import CALL_TIMEOUT
    from bot.store.instances import worker_id

    scaled = timedelta(seconds=lease)  # production's 2 minutes, scaled
    batch = bot.adapters.outbox.BatchSize(scaled)  # as the delivery loops size their claims
    engine = make_engine(url)
    store = Store(
        make_sessionmaker(engine), SystemClock(), serialize=engine.dialect.name == "sqlite"
    )
    me = worker_id()
    request = HTTPXRequest(read_timeout=CALL_TIMEOUT, write_timeout=CALL_TIMEOUT)
    async with Bot(TOKEN, base_url=f"{api}/bot", request=request) as telegram:
        sender = TelegramSender(telegram, ChatPacer(1.0))
        try:
            while True:
                sent = await bot.adapters.outbox.deliver_once(
                    store, {"telegram": sender}, me, lease=scaled, batch=batch
                )
                if sent:
                    continue
                async with store.transaction() as tx:
                    left = await tx.session.scalar(
                        select(func.count())
                        .select_from(OutboxRow)
                        .where(OutboxRow.status.in_(["queued", "sending"]))
                    )
                if not left:
                    break
                await asyncio.sleep(0.1)
        finally:
            await engine.dispose()


async def _database(tmp: Path, pg_url: str | None) -> tuple[str, str | None]:
    """A new, empty database: (its URL, the PostgreSQL admin DSN to drop it, or None)."""
    if not pg_url:
        await asyncio.to_thread(tmp.mkdir, parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{tmp / 'outbox.sqlite3'}", None
    import asyncpg

    base = make_url(pg_url)
    name = f"poundbot_chaos_{uuid.uuid4().hex[:12]}"
    dsn = base.set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return base.set(database=name).render_as_string(hide_password=False), name


async def _drop(pg_url: str, name: str) -> None:
    import asyncpg

    dsn = make_url(pg_url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def two_instances(
    tmp: Path, *, rows: int, delay: float, lease: float, pg_url: str | None
) -> Outcome:
    """Queue ``rows`` messages; two instances deliver them; count the sends."""
    url, dropped = await _database(tmp, pg_url)
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(Base.metadata.create_all)
        store = Store(make_sessionmaker(engine), SystemClock())
        async with store.transaction() as tx:
            for i in range(rows):
                await enqueue(
                    tx,
                    key=f"chaos:{i}",
                    channel="telegram",
                    recipient=str(900_000 + i),
                    body=f"chaos message {i}",
                )
        telegram = SlowTelegram(delay)
        engine_name = "PostgreSQL" if pg_url else "SQLite"
        async with serve(telegram.app()) as api:
            progress(
                f"outbox: {rows} messages, 2 instances on {engine_name}, Telegram answering in "
                f"{delay:g} s, lease {lease:g} s"
            )
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            procs = [
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "chaos.outbox",
                    "instance",
                    url,
                    api,
                    str(lease),
                    cwd=ROOT,
                    env=env,
                )
                for _ in range(2)
            ]
            bound = 60 + 2 * rows * delay
            try:
                await asyncio.wait_for(asyncio.gather(*(p.wait() for p in procs)), bound)
            except TimeoutError:
                for proc in procs:
                    proc.kill()
                await asyncio.gather(*(p.wait() for p in procs))
        async with store.transaction() as tx:
            states = Counter((await tx.session.execute(select(OutboxRow.status))).scalars().all())
    finally:
        await engine.dispose()
        if dropped and pg_url:
            await _drop(pg_url, dropped)
    calls = Counter(call.text for call in telegram.sent())
    expected = {f"chaos message {i}" for i in range(rows)}
    delivered = expected & set(calls)
    outcome = Outcome(
        f"2 instances on {engine_name}, Telegram {delay:g} s/message ({rows} rows)",
        rows,
        answered=len(delivered),
        lost=len(expected - delivered) + sum(n for s, n in states.items() if s != "sent"),
        duplicated=sum(1 for text in expected if calls[text] > 1),
        latencies=telegram.took,
        note=(f"{sum(calls.values())} sendMessage calls for {rows} messages (lease {lease:g} s)"),
    )
    return outcome


if __name__ == "__main__":
    match sys.argv[1:]:
        case ["instance", url, api, lease]:
            asyncio.run(_instance(url, api, float(lease)))
        case _:
            sys.exit("usage: python -m chaos.outbox instance URL API_URL LEASE_SECONDS")
