"""Benchmark: one-line ``/seize`` Telegram updates per second through the webhook path,
against the floor of the same database writes done directly with SQLAlchemy.

Webhook path: ``POST /telegram`` into poundbot's webhook route (in memory, httpx's
ASGI transport; the PTB bot talks to a fake Bot API on loopback for ``getMe``): the
secret check, JSON, the raw update committed to the inbox, ``process_update`` in a
second transaction (who wrote, the sender's count of answers, the chat's state, parse,
``record_seizure``), the reply queued to the outbox, the inbox row marked. The workers
of ``poundbot serve`` (delivery, reminders, backups) are off: they are not part of
taking an update.

Floor: the rows that path writes, written with SQLAlchemy Core in the same two
transactions and nothing else (insert inbox row; lock it, take the case number,
insert the case, its lots, its first event and its deadlines, queue the reply, mark
the row). The statements of one update are counted on both paths and printed: if the
use case comes to write other rows, the counts say the floor must follow.

Both run sequentially, each on its own fresh SQLite file (WAL, the same engine
set-up), interleaved one update each in turn so that a busy machine slows both alike;
rates are over all rounds.
Target: webhook / floor >= 0.5.
Run: ``make bench`` or ``.venv/bin/python bench/telegram_updates.py``.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from sqlalchemy import event, insert, select, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from targets import verdict

from bot.bootstrap import load, open_app
from bot.channels.telegram.webhook import (
    SECRET_HEADER,
    TelegramChannel,
    TelegramOptions,
    running,
    webhook_route,
)
from bot.config import SenderLimits
from bot.config.settings import Settings
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.store.codec import dump_event
from bot.store.models import (
    CaseEvent,
    CaseLot,
    CaseRow,
    DeadlineRow,
    InboxRow,
    OutboxRow,
    Pound,
    SenderCount,
)
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.events import Impounded
from domain.s07_seizure import Lot, Seizure

TOKEN = "123456:BENCH-token"
SECRET = "bench-secret"
KEEPER = 1001
ROUNDS = 4
PER_ROUND = 300
TEXT = "/seize 2 cow 1 buffalo at Kunnamangalam market; brown, white forehead"
REPLY = "Case KNM-1 recorded: 2 cows, 1 buffalo. " * 8  # about the size of the real reply
TARGET = 0.5


def _fake_bot_api() -> Starlette:
    me = {"id": 123456, "is_bot": True, "first_name": "Pound", "username": "bench_bot"}

    async def call(request: Request) -> JSONResponse:
        method = request.path_params["method"]
        return JSONResponse({"ok": True, "result": me if method == "getMe" else True})

    return Starlette(routes=[Route("/bot{token}/{method}", call, methods=["POST"])])


async def _serve(app: Starlette) -> tuple[uvicorn.Server, asyncio.Task[None], str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:  # noqa: ASYNC110 - uvicorn has no "started" event to await
        await asyncio.sleep(0.01)
    return server, task, f"http://127.0.0.1:{sock.getsockname()[1]}"


def _update(update_id: int) -> dict[str, Any]:
    user = {"id": KEEPER, "is_bot": False, "first_name": "Velayudhan", "language_code": "en"}
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 1_772_340_000,
            "chat": {"id": KEEPER, "type": "private", "first_name": "Velayudhan"},
            "from": user,
            "text": TEXT,
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }


class Webhook:
    """poundbot's Telegram webhook route with the channel running (PTB started), taking
    updates over ASGI. The workers of ``poundbot serve`` (reminders, backups, delivery)
    are left out: planning the reminders of the cases recorded here is not part of
    taking an update, and in the same event loop it was charged to whichever path was
    being timed (a round of the floor ran at a quarter of its rate)."""

    def __init__(self, app: App, channel: TelegramChannel) -> None:
        self.app = Starlette(routes=[webhook_route(SECRET)])
        self.app.state.poundbot = app
        self.app.state.telegram = channel
        self.next_id = 1

    @staticmethod
    @asynccontextmanager
    async def open(url: str, api: str, clock: FixedClock) -> AsyncIterator[Webhook]:
        settings = Settings(
            telegram_token=TOKEN, telegram_secret=SECRET, telegram_api_url=f"{api}/bot"
        )
        # One keeper sends every update: past the 60 answers of ``[limits] keeper`` in
        # ten minutes the rest would be counted and not acted on. The limit is raised,
        # not removed: each update is still counted against it.
        config = load()._replace(limits=SenderLimits(keeper=10**6))
        options = TelegramOptions(deliver=False)
        async with (
            open_app(config=config, url=url, clock=clock) as app,
            running(app, settings, options) as channel,
        ):
            yield Webhook(app, channel)

    async def one(self, client: httpx.AsyncClient) -> float:
        """Post one update; the seconds it took."""
        start = time.perf_counter()
        response = await client.post(
            "/telegram", json=_update(self.next_id), headers={SECRET_HEADER: SECRET}
        )
        if response.status_code != 200:
            raise SystemExit(f"webhook answered {response.status_code}: {response.text}")
        self.next_id += 1
        return time.perf_counter() - start


class Floor:
    """The same rows, written with SQLAlchemy Core and no logic."""

    def __init__(self, app: Any) -> None:
        self.store = app.store
        seizure = Seizure(
            "KNM",
            (Lot("cow", 2, "brown, white forehead"), Lot("buffalo", 1, "brown, white forehead")),
            "Kunnamangalam market",
            datetime(2026, 3, 1, 10, 30),
        )
        self.seizure = seizure
        self.event = dump_event(Impounded(on=seizure.impounded_on, seizure=seizure))
        self.next_id = 1

    async def one(self) -> float:
        """Write the rows of one update; the seconds it took."""
        start = time.perf_counter()
        i, self.next_id = self.next_id, self.next_id + 1
        provider_id = f"f{i}"
        raw = _update(i)
        async with self.store.transaction() as tx:
            await tx.session.execute(
                insert(InboxRow).values(
                    channel="telegram",
                    provider_id=provider_id,
                    sender=str(KEEPER),
                    body=TEXT,
                    raw=raw,
                    received_at=tx.now,
                )
            )
        async with self.store.transaction() as tx:
            s, now = tx.session, tx.now
            row_id = (
                await s.execute(
                    select(InboxRow.id)
                    .where(InboxRow.channel == "telegram", InboxRow.provider_id == provider_id)
                    .with_for_update()
                )
            ).scalar_one()
            await s.execute(  # the sender's count of answers (bot.channels.limits)
                sqlite_insert(SenderCount)
                .values(channel="telegram", sender=str(KEEPER), window_start=now, count=1)
                .on_conflict_do_update(
                    index_elements=["channel", "sender"],
                    set_={"count": SenderCount.count + 1},
                )
            )
            seq = (
                await s.execute(
                    update(Pound)
                    .where(Pound.code == "KNM")
                    .values(last_case_seq=Pound.last_case_seq + 1)
                    .returning(Pound.last_case_seq)
                )
            ).scalar_one()
            case_id = (
                await s.execute(
                    insert(CaseRow)
                    .values(
                        pound_code="KNM",
                        seq=seq,
                        number=f"KNM-{seq}",
                        stage="impounded",
                        impounded_on=self.seizure.impounded_on,
                        place_seized=self.seizure.place_seized,
                        owner_phone=None,
                        created_at=now,
                        updated_at=now,
                    )
                    .returning(CaseRow.id)
                )
            ).scalar_one()
            await s.execute(
                insert(CaseLot),
                [
                    {
                        "case_id": case_id,
                        "idx": n,
                        "kind": lot.kind,
                        "count": lot.count,
                        "description": lot.description,
                    }
                    for n, lot in enumerate(self.seizure.lots)
                ],
            )
            await s.execute(
                insert(CaseEvent).values(
                    case_id=case_id,
                    seq=0,
                    type=self.event[0],
                    on=self.seizure.impounded_on,
                    payload=self.event[1],
                    provision="s.7",
                    actor_user_id=1,
                    actor_role="keeper",
                    channel="telegram",
                    recorded_at=now,
                )
            )
            await s.execute(
                insert(DeadlineRow),
                [
                    {
                        "case_id": case_id,
                        "case_number": f"KNM-{seq}",
                        "pound_code": "KNM",
                        "kind": kind,
                        "who": "keeper",
                        "provision": provision,
                        "due_on": self.seizure.impounded_on,
                        "counts_from": self.seizure.impounded_on,
                        "status": "open",
                        "needs_plan": True,
                        "created_at": now,
                        "updated_at": now,
                    }
                    for kind, provision in (("report", "s.13(1)"), ("deposit", "s.14"))
                ],
            )
            await s.execute(
                insert(OutboxRow).values(
                    idempotency_key=f"tg-reply:{provider_id}",
                    channel="telegram",
                    recipient=str(KEEPER),
                    body=REPLY,
                    status="queued",
                    attempts=0,
                    next_attempt_at=now,
                    created_at=now,
                )
            )
            await s.execute(
                update(InboxRow).where(InboxRow.id == row_id).values(processed_at=now, reply=REPLY)
            )
        return time.perf_counter() - start


class Statements:
    """Counts the SQL statements an engine runs: (all, writes), a batch counted per row."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.all = self.writes = 0

    def _count(self, conn: Any, cursor: Any, sql: str, params: Any, ctx: Any, many: bool) -> None:
        # A real batch is a list of rows; SQLAlchemy's "insertmanyvalues" sends one row
        # per statement with the executemany flag set.
        batch = many and params and isinstance(params[0], tuple | list | dict)
        rows = len(params) if batch else 1
        self.all += rows
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            self.writes += rows

    def __enter__(self) -> Statements:
        event.listen(self.engine.sync_engine, "before_cursor_execute", self._count)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine.sync_engine, "before_cursor_execute", self._count)


async def _seed(url: str, clock: FixedClock) -> None:
    async with open_app(url=url, clock=clock) as app, app.store.transaction() as tx:
        await add_user(
            tx,
            app.deps,
            Caller.system(),
            role="keeper",
            pound="KNM",
            telegram_id=KEEPER,
            name="Velayudhan",
            lang="en",
        )


async def main() -> int:
    clock = FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))
    server, task, api = await _serve(_fake_bot_api())
    try:
        with tempfile.TemporaryDirectory() as tmp:
            hook_url = f"sqlite+aiosqlite:///{Path(tmp) / 'webhook.sqlite3'}"
            floor_url = f"sqlite+aiosqlite:///{Path(tmp) / 'floor.sqlite3'}"
            await _seed(hook_url, clock)
            await _seed(floor_url, clock)
            async with (
                Webhook.open(hook_url, api, clock) as webhook,
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(webhook.app), base_url="http://poundbot"
                ) as client,
                open_app(url=floor_url, clock=clock) as floor_app,
            ):
                floor = Floor(floor_app)
                for _ in range(49):  # warm both paths
                    await webhook.one(client)
                    await floor.one()
                with Statements(webhook.app.state.poundbot.engine) as hook_sql:
                    await webhook.one(client)
                with Statements(floor_app.engine) as floor_sql:
                    await floor.one()
                hook_times: list[float] = []
                floor_times: list[float] = []
                for _ in range(ROUNDS):
                    hook_round = floor_round = 0.0
                    for _ in range(PER_ROUND):
                        hook_round += await webhook.one(client)
                        floor_round += await floor.one()
                    hook_times.append(hook_round)
                    floor_times.append(floor_round)
                state = webhook.app.state.poundbot
                async with state.store.transaction() as tx:
                    cases = len((await tx.session.execute(select(CaseRow.id))).all())
                    replies = len(
                        (
                            await tx.session.execute(
                                select(OutboxRow.id).where(
                                    OutboxRow.idempotency_key.like("tg-reply:%")
                                )
                            )
                        ).all()
                    )
    finally:
        server.should_exit = True
        await task
    total = 50 + ROUNDS * PER_ROUND
    if cases != total or replies != total:
        print(f"webhook path recorded {cases} cases and queued {replies} replies of {total}")
        return 1
    print(
        f"SQL per update: webhook path {hook_sql.all} statements ({hook_sql.writes} rows "
        f"written), floor {floor_sql.all} ({floor_sql.writes} rows written)"
    )
    if hook_sql.writes != floor_sql.writes:
        print("the floor no longer writes the rows the webhook path writes: update it")
        return 1
    hook = ROUNDS * PER_ROUND / sum(hook_times)
    low = ROUNDS * PER_ROUND / sum(floor_times)
    for name, rate, times in (
        ("webhook path (/seize one-line, SQLite)", hook, hook_times),
        ("floor (same writes, SQLAlchemy Core)  ", low, floor_times),
    ):
        rounds = ", ".join(f"{PER_ROUND / t:.0f}" for t in times)
        print(f"{name}: {rate:6.0f} updates/s (rounds: {rounds})")
    ratio = hook / low
    return 0 if verdict("updates/s, webhook path / floor", ratio, ">=", TARGET) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
