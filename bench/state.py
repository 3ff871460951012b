"""Benchmark: one authority's work on a state's database against the same on a database
holding that authority's five years alone, in one run.

The state (``bench/state_data.py``): ``--authorities`` authorities (1,200), ``--pounds``
pounds (2,000), ``--cases`` cases over five years (about 300,000; the first authority,
the one measured, has ten times the average), with their messages, reminder jobs and
ledger, bulk-loaded on PostgreSQL; beside it, a second database with the first
authority's cases alone (the same rows). Each measurement runs ``--rounds`` times on both,
interleaved (a busy machine slows both alike): an owner's DUES, a Telegram seizure (the
keeper's line through the reply every channel shares), the desk's Today, Cases (plain,
by stage, by kind, by words, page 3) and a case's page over ASGI as a signed-in officer,
the public board, the register and the ledger of the authority's last year, a keeper's
CASES, FIND over the open cases; then one reminder pass on each, per due job.
Target: each p50 on the state / p50 on one authority <= 1.5 (the cost of one authority's
work must not grow with the state's size); p95 and p99 printed as information.

Then the operations on the state's database (``bench/state_ops.py``; ``--no-ops`` leaves
them out), figures under the heading "operations": its size and the rows of its big
tables; ``poundbot migrate`` from three revisions back to the head, and at the head (what
each start checks); ``pg_dump -Fc`` (time, size) and the restore of the Backups page's
PostgreSQL section, its three steps run as the page writes them into a fresh database,
with cases recorded after the dump: the one verdict, that the restore lists exactly those
and lowers no pound's counter; ``poundbot serve`` until ``/healthz`` answers, three times.

``--sqlite``: instead, the first authority's five years alone on SQLite (as one
panchayat's embedded database), generated and measured, no ratios.
Run: ``make bench-state`` (not part of ``make bench``), or
``.venv/bin/python bench/state.py --url postgresql+asyncpg://... [--authorities 30]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from datetime import date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from starlette.applications import Starlette
from state_data import (
    Plan,
    Templates,
    authority_code,
    generate,
    place_name,
    plan,
    record_templates,
    state_config,
)
from state_ops import run_ops
from targets import fresh_pg_database, verdict

from bot.bootstrap import open_app
from bot.config import Config
from bot.conversation.reply import handle_text
from bot.reminders.dispatch import remind_once
from bot.services import board, documents, keeper, public
from bot.services.runtime import App
from bot.services.web_signin import issue_link_for
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from bot.web.app import web_routes
from domain.calendar import LOCAL_TZ

TODAY = date(2026, 3, 2)
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=LOCAL_TZ)
RATIO = 1.5
SECRET = "bench-secret-of-the-web-desk"
MEASURED = 0  # the busiest authority
#: A village where the measured authority seizes cattle (the name recurs in fifteen other
#: authorities, each at a spot of its own): what the desk's words look for among the
#: authority's cases. FIND, the public's search of the state, looks for the village and
#: its spot (``Kunnuppara junction``): the measured authority's place alone, so that both
#: databases find the same cases.
VILLAGE = place_name(MEASURED, 0).split()[0]
PLACE = place_name(MEASURED, 0).split()


class Side:
    """One database opened as poundbot opens it, signed in as the measured authority's
    officer, with what the measurements ask about."""

    def __init__(self, name: str, app: App, client: httpx.AsyncClient) -> None:
        self.name = name
        self.app = app
        self.client = client
        self.numbers: list[str] = []
        self.officer: Caller | None = None
        self.keeper: Caller | None = None

    async def ready(self) -> None:
        async with self.app.store.transaction() as tx:
            auth = authority_code(MEASURED)
            officer = (
                await tx.session.execute(
                    text("SELECT id FROM users WHERE role='officer' AND authority_code=:a"),
                    {"a": auth},
                )
            ).scalar_one()
            kept = (
                await tx.session.execute(
                    text(
                        "SELECT u.id, u.pound_code FROM users u JOIN pounds p "
                        "ON p.code = u.pound_code WHERE p.authority_code=:a ORDER BY u.id"
                    ),
                    {"a": auth},
                )
            ).first()
            assert kept is not None
            self.numbers = list(
                (
                    await tx.session.execute(
                        text(
                            "SELECT c.number FROM cases c JOIN pounds p ON p.code=c.pound_code "
                            "WHERE p.authority_code=:a ORDER BY c.id"
                        ),
                        {"a": auth},
                    )
                ).scalars()
            )
            token = await issue_link_for(tx, officer)
        self.officer = Caller(role=OFFICER, channel="web", user_id=officer, authority=auth)
        self.keeper = Caller(
            role=KEEPER, channel="telegram", user_id=kept[0], pound=kept[1], lang="en"
        )
        page = await self.client.get(f"/web/signin/{token}")
        field = re.search(r'name="signin" value="([^"]+)"', page.text)
        assert field is not None, page.text[:300]
        signed = await self.client.post(
            f"/web/signin/{token}",
            data={"signin": field.group(1)},
            headers={"Origin": "http://bench.test"},
        )
        assert signed.status_code == 303, signed.status_code


Op = Callable[[Side, int], Awaitable[Any]]


def _page(path: str) -> Op:
    async def get(side: Side, i: int) -> None:
        response = await side.client.get(path)
        assert response.status_code == 200, (path, response.status_code)

    return get


async def _case_page(side: Side, i: int) -> None:
    number = side.numbers[(i * 7919) % len(side.numbers)]
    response = await side.client.get(f"/web/cases/{number}")
    assert response.status_code == 200, (number, response.status_code)


async def _dues(side: Side, i: int) -> None:
    number = side.numbers[(i * 104_729) % len(side.numbers)]
    async with side.app.store.transaction() as tx:
        await public.dues_today(tx, side.app.deps, number)


async def _seizure(side: Side, i: int) -> None:
    assert side.keeper is not None
    async with side.app.store.transaction() as tx:
        reply = await handle_text(
            tx, side.app.deps, side.keeper, "SEIZE 1 cow AT Kunnamangalam market", sms=False
        )
    assert not reply.refused, reply.text


def _year() -> tuple[date, date]:
    return TODAY - timedelta(days=365), TODAY


async def _register(side: Side, i: int) -> None:
    start, end = _year()
    async with side.app.store.transaction() as tx:
        rows = await documents.case_register(tx, side.app.deps, side.officer, start, end)  # type: ignore[arg-type]
    assert rows


async def _ledger(side: Side, i: int) -> None:
    start, end = _year()
    async with side.app.store.transaction() as tx:
        found = await documents.ledger_document(tx, side.app.deps, side.officer, start, end)  # type: ignore[arg-type]
    assert found.provisions


async def _board(side: Side, i: int) -> None:
    async with side.app.store.transaction() as tx:
        await board.notice_board(tx, side.app.deps, authority_code(MEASURED))


async def _keeper_cases(side: Side, i: int) -> None:
    async with side.app.store.transaction() as tx:
        await keeper.list_open_cases(tx, side.app.deps, side.keeper)  # type: ignore[arg-type]


async def _find(side: Side, i: int) -> None:
    async with side.app.store.transaction() as tx:
        await public.find_cases(tx, side.app.deps, ["cow", *PLACE])


OPS: dict[str, Op] = {
    "owner's DUES": _dues,
    "Telegram seizure (keeper's line)": _seizure,
    "desk Today": _page("/web/"),
    "desk Cases": _page("/web/cases"),
    "desk Cases, stage filter": _page("/web/cases?stage=released"),
    "desk Cases, kind filter": _page("/web/cases?kind=cow"),
    "desk Cases, words": _page(f"/web/cases?q={VILLAGE}"),
    "desk Cases, page 3": _page("/web/cases?page=3"),
    "desk case page": _case_page,
    "public board": _page(f"/notices/{authority_code(MEASURED)}"),
    "register of a year": _register,
    "ledger of a year": _ledger,
    "keeper's CASES": _keeper_cases,
    "FIND over open cases": _find,
}


def _q(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def _reminder_pass(side: Side) -> tuple[int, float]:
    """One reminder pass at 08:00 of the day, to the end: (jobs done, seconds)."""
    clock = side.app.deps.clock
    assert isinstance(clock, FixedClock)
    clock.set(NOW.replace(hour=8))
    jobs, started = 0, time.perf_counter()
    while True:
        done = await remind_once(side.app.store, side.app.config, f"bench-{side.name}", breather=0)
        if not (done.reminders or done.planned or done.failed):
            break
        jobs += done.reminders + done.failed
    return jobs, time.perf_counter() - started


async def measure(config: Config, urls: dict[str, str], rounds: int) -> dict[str, Any]:
    """Every measurement ``rounds`` times on each database, interleaved."""
    times: dict[str, dict[str, list[float]]] = {op: {n: [] for n in urls} for op in OPS}
    async with AsyncExitStack() as stack:
        sides = []
        for name, url in urls.items():
            clock = FixedClock(NOW)
            app = await stack.enter_async_context(open_app(config=config, url=url, clock=clock))
            asgi = Starlette(routes=web_routes(SECRET, "http://bench.test"))
            asgi.state.poundbot = app
            client = await stack.enter_async_context(
                httpx.AsyncClient(transport=httpx.ASGITransport(asgi), base_url="http://bench.test")
            )
            side = Side(name, app, client)
            await side.ready()
            sides.append(side)
        for op, fn in OPS.items():
            for side in sides:  # once each, unmeasured: the caches as a running server has them
                await fn(side, 0)
            for i in range(1, rounds + 1):
                for side in sides if i % 2 else reversed(sides):
                    start = time.perf_counter()
                    await fn(side, i)
                    times[op][side.name].append(time.perf_counter() - start)
        passes = {side.name: await _reminder_pass(side) for side in sides}
    return {"times": times, "passes": passes}


def report(found: dict[str, Any], names: list[str]) -> bool:
    ok = True
    times, passes = found["times"], found["passes"]
    print(f"{'':34} {'p50':>8} {'p95':>8} {'p99':>8} (ms; " + " / ".join(names) + ")")
    for op, by in times.items():
        cells = []
        for n in names:
            t = by[n]
            p50, p95, p99 = statistics.median(t), _q(t, 0.95), _q(t, 0.99)
            cells.append(f"{p50 * 1e3:8.2f} {p95 * 1e3:8.2f} {p99 * 1e3:8.2f}")
        print(f"{op:34} " + "  |  ".join(cells))
    for n in names:
        jobs, took = passes[n]
        per = took / jobs * 1e3 if jobs else float("nan")
        print(f"reminder pass on {n}: {jobs} due jobs in {took:.2f} s ({per:.2f} ms a job)")
    if len(names) == 2:
        state, one = names
        for op, by in times.items():
            ratio = statistics.median(by[state]) / statistics.median(by[one])
            ok &= verdict(f"{op}, p50 {state} / {one}", ratio, "<=", RATIO)
        (sj, st), (oj, ot) = passes[state], passes[one]
        if sj and oj:
            ok &= verdict(
                f"reminder pass per due job, {state} / {one}", (st / sj) / (ot / oj), "<=", RATIO
            )
    return ok


async def build(
    url: str, config: Config, p: Plan, templates: Templates, only: int | None, label: str
) -> None:
    async with open_app(config=config, url=url, migrate=True) as app:
        started = time.perf_counter()
        written = await generate(app.engine, p, templates, only=only, progress=print)
        took = time.perf_counter() - started
    rows = sum(written.values())
    print(
        f"{label}: {written.get('cases', 0):,} cases, {rows:,} rows in {took:.1f} s "
        f"({rows / took:,.0f} rows/s): "
        + ", ".join(f"{k} {v:,}" for k, v in written.items() if k != "cases")
    )


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--url",
        default=os.environ.get("POUNDBOT_BENCH_PG_URL") or os.environ.get("POUNDBOT_TEST_PG_URL"),
    )
    parser.add_argument("--authorities", type=int, default=1200)
    parser.add_argument("--pounds", type=int)
    parser.add_argument("--cases", type=int)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument(
        "--sqlite", action="store_true", help="the busiest authority alone, on SQLite"
    )
    parser.add_argument(
        "--no-ops",
        action="store_true",
        help="leave out the operations (migrate, pg_dump and pg_restore, start)",
    )
    args = parser.parse_args(argv)
    n = args.authorities
    pounds = args.pounds or round(n * 5 / 3)
    cases = args.cases or 250 * n
    config = state_config(n, pounds)
    started = time.perf_counter()
    templates = await record_templates(config)
    print(f"templates of {len(templates)} routes recorded in {time.perf_counter() - started:.1f} s")
    p = plan(n, pounds, cases, TODAY)
    print(
        f"plan: {n:,} authorities, {pounds:,} pounds, {len(p.cases):,} cases; "
        f"the measured authority {authority_code(MEASURED)}: {len(p.of(MEASURED)):,} cases"
    )
    random.seed(43)
    if args.sqlite or not args.url:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{Path(tmp) / 'one.sqlite3'}"
            await build(url, config, p, templates, MEASURED, "SQLite, one authority")
            found = await measure(config, {"one authority": url}, args.rounds)
        report(found, ["one authority"])
        return 0
    async with (
        fresh_pg_database(args.url, "bench_state") as state_url,
        fresh_pg_database(args.url, "bench_state_one") as one_url,
    ):
        await build(state_url, config, p, templates, None, "PostgreSQL, the state")
        await build(one_url, config, p, templates, MEASURED, "PostgreSQL, one authority")
        found = await measure(config, {"state": state_url, "one authority": one_url}, args.rounds)
        ok = report(found, ["state", "one authority"])
        if not args.no_ops:
            with tempfile.TemporaryDirectory() as work:
                ok &= await run_ops(
                    state_url,
                    partial(fresh_pg_database, args.url),
                    config,
                    n,
                    pounds,
                    Path(work),
                )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
