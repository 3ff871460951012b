"""Reminders across processes: two instances on one database send each reminder once, and
an instance killed with SIGKILL at random moments loses none (at most one duplicate
send per kill, counted).

The instances are real processes running this module (``python -m
tests.integration.test_reminders_processes``): ``remind`` runs one pass of the engine
(``remind_once``, as ``poundbot remind --once`` does) once told to go, so that both
start together; ``zygote`` imports everything
once and forks, on request, an instance that runs the engine and the outbox delivery
(as ``poundbot serve`` does) against a fake Telegram that appends each message's
idempotency key to a file, so that a crash between sending and recording shows up as a
duplicate line. Each instance's clock runs hours ahead of the last one's, so the leases
of a killed instance have run out when the next starts (no test waits for a lease).

``make test`` runs each small (2,000 reminders; 5 kills); ``make test-slow`` at full
size (10,000 reminders; 20 kills).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.adapters.outbox import deliver_once
from bot.config import load_config, sample_config_path
from bot.reminders.dispatch import TROUBLED_AFTER, dispatch_batch, remind_once
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.models import Base, OutboxRow, ReminderJob
from bot.store.tx import Store, sync_places
from tests.service.test_reminders_load import seed_due_jobs

ROOT = Path(__file__).resolve().parents[2]
MODULE = "tests.integration.test_reminders_processes"
JOBS = 10_000
JOBS_SMALL = 2_000
KILLS = 20
KILLS_SMALL = 5
JOBS_PER_TRIAL = 150


class ShiftedClock:
    """The system clock, ``hours`` ahead."""

    def __init__(self, hours: float) -> None:
        self.shift = timedelta(hours=hours)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.shift


class KeyLog:
    """A fake Telegram: appends the idempotency key of each message it is given, in one
    ``write`` (a kill lands before or after it, never inside)."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.sent = 0

    async def send(self, recipient: str, body: str, key: str) -> str:
        os.write(self.fd, f"{key}\n".encode())
        self.sent += 1
        return f"tg{self.sent}"


def _store(url: str, hours: float) -> tuple[AsyncEngine, Store]:
    engine = make_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    return engine, Store(make_sessionmaker(engine), ShiftedClock(hours), serialize=sqlite)


async def _remind(url: str, name: str) -> None:
    """One pass of the engine once a line comes on stdin (``ready`` said first);
    prints how many reminders this instance sent."""
    engine, store = _store(url, 0)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    try:
        done = await remind_once(store, load_config(sample_config_path()), name, limit=500)
    finally:
        await engine.dispose()
    print(f"reminders {done.reminders}", flush=True)


async def _serve(url: str, name: str, hours: float, log: str) -> None:
    """Reminders and outbox delivery, a batch of each in turn, until nothing is left."""
    engine, store = _store(url, hours)
    config = load_config(sample_config_path())
    telegram = KeyLog(log)
    try:
        while True:
            fired = await dispatch_batch(store, config, name)
            sent = await deliver_once(store, {"telegram": telegram}, name)
            if fired is None and not sent:
                break
    finally:
        await engine.dispose()


def _zygote(url: str, log: str) -> None:
    """Fork an instance on ``run NAME HOURS``; reap it on ``reap PID`` (a child that has
    ended stays a zombie until then, so its pid cannot be reused before the kill)."""
    for line in sys.stdin:
        command, *args = line.split()
        if command == "run":
            pid = os.fork()
            if pid == 0:
                try:
                    asyncio.run(_serve(url, args[0], float(args[1]), log))
                finally:
                    os._exit(0)
            print(f"forked {pid}", flush=True)
        elif command == "reap":
            _, status = os.waitpid(int(args[0]), 0)
            killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            print("killed" if killed else f"ended {os.waitstatus_to_exitcode(status)}", flush=True)


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", MODULE, *args]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


async def _seeded_store(engine: AsyncEngine) -> Store:
    config = load_config(sample_config_path())
    store = Store(make_sessionmaker(engine), ShiftedClock(0))
    async with store.transaction() as tx:
        await sync_places(
            tx,
            {code: a.name for code, a in config.authorities.items()},
            {code: (p.authority, p.name) for code, p in config.pounds.items()},
        )
    return store


# -- two instances ------------------------------------------------------------------------


async def test_two_processes_send_each_of_2000_due_reminders_exactly_once(
    engine: AsyncEngine,
) -> None:
    await two_processes_send_each_once(engine, JOBS_SMALL)


@pytest.mark.slow
async def test_two_processes_send_each_of_10000_due_reminders_exactly_once(
    engine: AsyncEngine,
) -> None:
    await two_processes_send_each_once(engine, JOBS)


async def two_processes_send_each_once(engine: AsyncEngine, jobs_due: int) -> None:
    """Two instances, started together, drain ``jobs_due`` due reminders: each fired by
    exactly one of them, both taking part."""
    store = await _seeded_store(engine)
    officer = await seed_due_jobs(store, jobs_due)
    url = engine.url.render_as_string(hide_password=False)
    procs = [
        await asyncio.create_subprocess_exec(
            *_command("remind", url, name),
            cwd=ROOT,
            env=_env(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for name in ("one", "two")
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).decode().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    outputs = [await proc.communicate() for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0]
    counts = [int(out.decode().split()[-1]) for out, _ in outputs]
    assert sum(counts) == jobs_due  # each job fired by exactly one of them
    assert min(counts) > 0  # and both took part
    async with store.transaction() as tx:
        keys = (await tx.session.execute(select(OutboxRow.idempotency_key))).scalars().all()
        states = (
            await tx.session.execute(
                select(ReminderJob.status, ReminderJob.attempts, func.count()).group_by(
                    ReminderJob.status, ReminderJob.attempts
                )
            )
        ).all()
    assert sorted(keys) == sorted(f"rem:load:{i}:u{officer}" for i in range(jobs_due))
    assert [tuple(s) for s in states] == [("done", 1, jobs_due)]


# -- kill -9 --------------------------------------------------------------------------------


async def test_an_instance_killed_at_random_moments_loses_no_reminder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killed 5 times (``make test``)."""
    await killed_at_random_moments(tmp_path, capsys, KILLS_SMALL)


@pytest.mark.slow
async def test_an_instance_killed_20_times_at_random_moments_loses_no_reminder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await killed_at_random_moments(tmp_path, capsys, KILLS)


async def killed_at_random_moments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], times: int
) -> None:
    """An instance killed ``times`` times with SIGKILL, each after a trial's reminders
    were seeded, then one left to finish: none lost, at most one duplicate a kill."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'kill.sqlite3'}"
    log = tmp_path / "sent.log"
    engine = make_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    store = await _seeded_store(engine)
    zygote = await asyncio.create_subprocess_exec(
        *_command("zygote", url, str(log)),
        cwd=ROOT,
        env=_env(),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert zygote.stdin is not None
    assert zygote.stdout is not None
    moments = random.Random(1961)
    kills = trials = seeded = 0
    officer = 0
    try:
        while kills < times and trials < 3 * times:
            officer = await seed_due_jobs(
                store, JOBS_PER_TRIAL, prefix=f"t{trials}", first_case=1 + trials * 1000
            )
            seeded += JOBS_PER_TRIAL
            zygote.stdin.write(f"run i{trials} {trials}\n".encode())
            await zygote.stdin.drain()
            pid = int((await zygote.stdout.readline()).split()[-1])
            await asyncio.sleep(moments.uniform(0.0, 0.3))  # the random moment of the kill
            os.kill(pid, signal.SIGKILL)  # a zombie, if it has ended: then a no-op
            zygote.stdin.write(f"reap {pid}\n".encode())
            await zygote.stdin.drain()
            outcome = (await zygote.stdout.readline()).decode().strip()
            assert outcome in ("killed", "ended 0")
            kills += outcome == "killed"
            trials += 1
            duplicates = sum(n - 1 for n in Counter(log.read_text().split()).values())
            assert duplicates <= kills  # at most one per kill, at every step
        zygote.stdin.write(f"run last {trials + 1}\n".encode())
        await zygote.stdin.drain()
        pid = int((await zygote.stdout.readline()).split()[-1])
        zygote.stdin.write(f"reap {pid}\n".encode())
        await zygote.stdin.drain()
        assert (await zygote.stdout.readline()).decode().strip() == "ended 0"
    finally:
        zygote.stdin.close()
        await zygote.wait()

    lines = Counter(log.read_text().split())
    sent = Counter({key: n for key, n in lines.items() if key.startswith("rem:")})
    alerts = Counter({key: n for key, n in lines.items() if key.startswith("alert:")})
    expected = {f"rem:t{t}:{i}:u{officer}" for t in range(trials) for i in range(JOBS_PER_TRIAL)}
    async with store.transaction() as tx:
        jobs = Counter((await tx.session.execute(select(ReminderJob.status))).scalars().all())
        reclaimed = await tx.session.scalar(
            select(func.count()).select_from(ReminderJob).where(ReminderJob.attempts > 1)
        )
        troubled = await tx.session.scalar(
            select(func.count())
            .select_from(ReminderJob)
            .where(ReminderJob.attempts > TROUBLED_AFTER)
        )
        outbox = Counter((await tx.session.execute(select(OutboxRow.status))).scalars().all())
    await engine.dispose()
    duplicates = sum(n - 1 for n in lines.values())
    lost = len(expected - set(sent))
    with capsys.disabled():
        print(
            f"\nkill -9: {trials} trials, {kills} kills; {len(expected)} reminders, "
            f"{reclaimed} claimed again after a kill, {troubled} troubled (tried alone), "
            f"{len(alerts)} alert(s) to the officer; sent {sum(sent.values())} messages, "
            f"{duplicates} duplicate(s) ({duplicates / max(kills, 1):.2f} per kill), "
            f"{lost} lost, {jobs['failed']} failed"
        )
    assert kills >= times
    assert jobs == {"done": seeded}  # no reminder lost, none failed
    assert outbox == {"sent": seeded + len(alerts)}  # each queued once and delivered
    assert set(sent) == expected  # every one reached the fake Telegram
    assert bool(alerts) == bool(troubled)  # told when reminders were in trouble
    assert duplicates <= kills


if __name__ == "__main__":
    match sys.argv[1:]:
        case ["remind", url, name]:
            asyncio.run(_remind(url, name))
        case ["zygote", url, log]:
            _zygote(url, log)
        case _:
            sys.exit(f"usage: python -m {MODULE} remind URL NAME | zygote URL LOG")
