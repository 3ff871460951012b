"""PostgreSQL stopped and started again under a ``poundbot serve`` while SMS keep coming:
does the server reconnect by itself, is every message answered once, and is nothing lost?

A throwaway PostgreSQL cluster of the scenario's own (``Cluster``: ``initdb`` into a
temporary folder, as the ``postgres`` user when run as root, trust authentication, a
free port on 127.0.0.1) holds a migrated poundbot database; one server process runs on
it, answering signed Twilio webhooks. Keepers send ``SEIZE 1 cow AT Restart <n>`` and
owners ``DUES KNM-1`` (one sender a message), at a steady pace, before, while and after
the cluster is stopped (``pg_ctl stop -m fast``: sessions ended, as a restart or a
failover ends them) for ``down`` seconds and started again.

The pass line, as ``bot.channels.sms.inbound`` promises it: each message gets exactly
one answer — in the TwiML response (its case or its dues, or "send it again" when it
could not be stored: nothing recorded), or by an SMS of the sweep when it was stored
and not acted on; whoever is asked to send it again does, once the database is back, and
each keeper's message makes exactly one case. ``/healthz`` answers 503 while the database
is down and 200 within ``recover`` seconds of its start; the server process is the same
one throughout (it reconnected by itself). Then the cluster is restarted once more while
no request is in flight and ``/healthz`` is not asked, and ``burst`` SMS come at once
after its start: each is answered (none of the stale connections the server kept is used:
``pool_pre_ping``).
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import html
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from twilio.request_validator import RequestValidator

from bot.bootstrap import open_app
from bot.fakes.loopback import bind, serve
from bot.i18n import render, reply_language, translator
from bot.services.admin import add_user
from bot.store.models import User
from bot.support.caller import Caller
from chaos.report import TWILIO_TIMEOUT, Outcome, progress
from chaos.settle import _say
from chaos.sms import FROM, PUBLIC, ROOT, SID, TOKEN, Server, TimedTwilio, _config, keeper

__all__ = ["Cluster", "NoPostgres", "cluster", "restarted"]

_MESSAGE = re.compile(r"<Message>(.*)</Message>", re.S)
_CASE = re.compile(r"\bKNM-\d+\b")
#: The case the owners ask about (the first the database holds).
DUES_CASE = "KNM-1"


class NoPostgres(RuntimeError):
    """No PostgreSQL server programs here (initdb, pg_ctl): the scenario cannot run."""


def server_bindir() -> Path | None:
    """The folder of PostgreSQL's server programs: ``pg_config --bindir`` if it holds
    ``initdb`` and ``pg_ctl``, else the newest ``/usr/lib/postgresql/*/bin``; None."""
    found: list[Path] = []
    if shutil.which("pg_config"):
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run(
                ["pg_config", "--bindir"], capture_output=True, text=True, check=True
            ).stdout
            found.append(Path(out.strip()))
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    found += sorted((Path(p) for p in versions), key=lambda p: _version(p.parent.name))[::-1]
    for folder in found:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", name)) or (0,)


@dataclass
class Cluster:
    """A PostgreSQL cluster of its own in ``folder`` on 127.0.0.1:``port`` (trust)."""

    bindir: Path
    folder: Path
    port: int
    #: The user its programs run as (``postgres`` when run as root), None: this one.
    user: str | None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    async def _run(self, *command: str) -> str:
        argv = [str(self.bindir / command[0]), *command[1:]]
        if self.user is not None:
            argv = ["runuser", "-u", self.user, "--", *argv]
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=self.folder,
        )
        out, _ = await proc.communicate()
        text = out.decode(errors="replace")
        if proc.returncode:
            raise RuntimeError(f"{' '.join(command[:2])} failed ({proc.returncode}): {text}")
        return text

    async def initdb(self) -> None:
        await self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )

    async def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off"
        )
        await self._run(
            "pg_ctl", "start", "-D", str(self.data), "-w", "-t", "60",
            "-l", str(self.folder / "postgres.log"), "-o", options,
        )  # fmt: skip

    async def stop(self) -> None:
        await self._run("pg_ctl", "stop", "-D", str(self.data), "-w", "-t", "60", "-m", "fast")

    async def running(self) -> bool:
        try:
            await self._run("pg_ctl", "status", "-D", str(self.data))
        except RuntimeError:
            return False
        return True


@asynccontextmanager
async def cluster() -> AsyncIterator[Cluster]:
    """A new cluster, started; stopped and removed when the context ends, however it ends.
    Raises ``NoPostgres`` when the server programs are not installed."""
    bindir = server_bindir()
    if bindir is None:
        raise NoPostgres("no PostgreSQL server programs (initdb, pg_ctl) found")
    user: str | None = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its programs run as postgres
        user = "postgres"
        try:
            pwd.getpwnam(user)
        except KeyError as exc:
            raise NoPostgres("running as root, and there is no postgres user") from exc
    folder = Path(tempfile.mkdtemp(prefix="poundbot-pg-"))
    try:
        if user is not None:
            shutil.chown(folder, user, None)
        sock = bind()
        port = sock.getsockname()[1]
        sock.close()  # a free port for PostgreSQL (loopback only)
        made = Cluster(bindir, folder, port, user)
        await made.initdb()
        await made.start()
        try:
            yield made
        finally:
            if await made.running():
                with contextlib.suppress(RuntimeError):
                    await made.stop()
    finally:
        await asyncio.to_thread(shutil.rmtree, folder, True)


class PgServer(Server):
    """A ``poundbot serve`` on PostgreSQL: the same process control, read through asyncpg."""

    dsn: str = ""

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        import asyncpg

        async def fetch() -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(self.dsn)
            try:
                return [tuple(row) for row in await conn.fetch(sql)]
            finally:
                await conn.close()

        # The caller's loop may be running: the query runs on a thread and loop of its own.
        with ThreadPoolExecutor(1) as thread:
            return thread.submit(asyncio.run, fetch()).result()


def owner(request: int) -> str:
    """The owner (not registered) who sends message ``request``."""
    return f"+9197{request:08d}"


@dataclass
class Sent:
    """One webhook request and what came back."""

    request: int
    sid: str
    body: str
    started: float
    took: float | None = None
    status: int = 0
    text: str | None = None  # the TwiML answer's message; "" none; None if cut


@dataclass
class Traffic:
    """Keepers (even requests) and owners (odd) posting signed webhooks to a server."""

    server: Server
    http: httpx.AsyncClient
    sent: list[Sent] = field(default_factory=list)

    @staticmethod
    def sender(request: int) -> str:
        return keeper(request) if request % 2 == 0 else owner(request)

    @staticmethod
    def body(request: int) -> str:
        return f"SEIZE 1 cow AT Restart {request}" if request % 2 == 0 else f"DUES {DUES_CASE}"

    async def sms(self, request: int, sid: str) -> Sent:
        params = {
            "MessageSid": sid,
            "AccountSid": SID,
            "From": self.sender(request),
            "To": FROM,
            "Body": self.body(request),
            "NumMedia": "0",
        }
        signature = RequestValidator(TOKEN).compute_signature(PUBLIC + "/twilio/sms", params)
        sent = Sent(request, sid, params["Body"], time.monotonic())
        self.sent.append(sent)
        try:
            response = await self.http.post(
                self.server.base + "/twilio/sms",
                data=params,
                headers={"X-Twilio-Signature": signature},
            )
        except httpx.HTTPError:
            return sent
        sent.took = time.monotonic() - sent.started
        sent.status = response.status_code
        found = _MESSAGE.search(response.text) if response.status_code == 200 else None
        sent.text = html.unescape(found.group(1)) if found else ""
        return sent


@dataclass
class Health:
    """``/healthz`` polled every ``every`` seconds: (when asked, status; 0 no answer)."""

    base: str
    every: float = 0.1
    seen: list[tuple[float, int]] = field(default_factory=list)

    async def run(self, stop: asyncio.Event) -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            while not stop.is_set():
                asked = time.monotonic()
                try:
                    status = (await http.get(self.base + "/healthz")).status_code
                except httpx.HTTPError:
                    status = 0
                self.seen.append((asked, status))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.every)

    def between(self, start: float, end: float) -> list[int]:
        return [status for at, status in self.seen if start <= at <= end]

    def first_ok(self, since: float) -> float | None:
        return next((at for at, status in self.seen if at >= since and status == 200), None)


async def _prepare(url: str, keepers: int, config: Path) -> None:
    """Keepers for the even requests, the case the owners ask about."""
    async with open_app(url=url, migrate=True, file=str(config)) as app:
        async with app.store.transaction() as tx:
            users: list[User] = [
                await add_user(
                    tx,
                    app.deps,
                    Caller.system(),
                    role="keeper",
                    pound="KNM",
                    phone=keeper(i),
                    name=f"Keeper {i}",
                )
                for i in range(0, 2 * keepers, 2)
            ]
        number = await _say(app, users[0], "SEIZE 1 cow AT Restart market")
        assert number == DUES_CASE, number


async def restarted(
    tmp: Path,
    *,
    messages: int,
    down: float,
    pace: float,
    burst: int = 10,
    recover: float = 10.0,
) -> Outcome:
    """``messages`` SMS, one every ``pace`` seconds, the cluster stopped for ``down``
    seconds at a third of them, as ``burst`` of them come at once; counted."""
    async with cluster() as pg:
        import asyncpg

        admin = await asyncpg.connect(f"postgresql://postgres@127.0.0.1:{pg.port}/postgres")
        try:
            await admin.execute("CREATE DATABASE poundbot")
        finally:
            await admin.close()
        url = pg.url("poundbot")
        config = _config(tmp)
        await _prepare(url, (messages + burst + 1) // 2, config)
        twilio = TimedTwilio()
        sock = bind()
        port = sock.getsockname()[1]
        sock.close()  # a free port for the server (loopback only)
        async with serve(twilio.app()) as twilio_url:
            env = {
                "PATH": os.environ.get("PATH", ""),
                "PYTHONPATH": str(ROOT),
                "POUNDBOT_CONFIG": str(config),
                "POUNDBOT_DATABASE_URL": url,
                "POUNDBOT_DATA_DIR": str(tmp / "data"),
                "POUNDBOT_PUBLIC_URL": PUBLIC,
                "TWILIO_ACCOUNT_SID": SID,
                "TWILIO_AUTH_TOKEN": TOKEN,
                "TWILIO_FROM_NUMBER": FROM,
                "TWILIO_API_URL": twilio_url,
            }
            server = PgServer(tmp, twilio, env, port)
            server.dsn = f"postgresql://postgres@127.0.0.1:{pg.port}/poundbot"
            try:
                return await _run(pg, server, messages, down, pace, burst, recover)
            finally:
                await server.stop()


async def _run(
    pg: Cluster,
    server: PgServer,
    messages: int,
    down: float,
    pace: float,
    burst: int,
    recover: float,
) -> Outcome:
    await server.start()
    assert server.proc is not None
    pid = server.proc.pid
    health = Health(server.base)
    stop_polling = asyncio.Event()
    poller = asyncio.create_task(health.run(stop_polling))
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        traffic = Traffic(server, http)
        tasks: list[asyncio.Task[Sent]] = []

        async def send(first: int, last: int) -> None:
            for request in range(first, last):
                tasks.append(asyncio.create_task(traffic.sms(request, f"SMpg{request}")))
                await asyncio.sleep(pace)

        third = messages // 3
        progress(
            f"pg restart: {messages} SMS at one every {pace:g} s; PostgreSQL stopped for "
            f"{down:g} s after {third}, as {burst} come at once"
        )
        await send(0, third)
        stopping = time.monotonic()
        # A burst as the stop begins: some are inside their transactions when it ends them.
        for request in range(third, third + burst):
            tasks.append(asyncio.create_task(traffic.sms(request, f"SMpg{request}")))
        during = asyncio.create_task(send(third + burst, messages))
        await pg.stop()
        stopped = time.monotonic()
        await asyncio.sleep(down)
        starting = time.monotonic()
        await pg.start()
        started = time.monotonic()
        await during
        first = await asyncio.gather(*tasks)
        ok_at = None
        while ok_at is None and time.monotonic() - started < recover + 5:
            ok_at = health.first_ok(started)
            await asyncio.sleep(0.1)
        progress(
            f"pg restart: stopped in {stopped - stopping:.2f} s, started in "
            f"{started - starting:.2f} s; /healthz 200 again "
            + (f"{ok_at - started:.2f} s after the start" if ok_at else "never")
        )
        again_text = {s.sid: _again(s.body) for s in first}
        again = [s for s in first if s.text and s.text == again_text[s.sid]]
        progress(f"pg restart: {len(again)} asked to send it again; they do")
        for sent in again:
            await traffic.sms(sent.request, sent.sid + "r")
        await server.drained(60)
        # Restarted again while no request is in flight and /healthz is not asked: the
        # connections the server keeps are stale. Those who write at once after the start
        # are answered, not asked to send it again.
        stop_polling.set()
        await poller
        await pg.stop()
        await pg.start()
        after = await asyncio.gather(
            *(traffic.sms(r, f"SMpg{r}") for r in range(messages, messages + burst))
        )
        stale = [s for s in after if s.text is None or s.text == _again(s.body)]
        progress(f"pg restart: restarted idle; {len(stale)} of {burst} SMS at once then refused")
        drained = await server.drained(60)
    alive = server.proc.returncode is None and server.proc.pid == pid
    await server.stop()
    again_text |= {s.sid: _again(s.body) for s in after}
    outcome = _tally(server, traffic, messages + burst, again_text)
    (swept,) = server.query("SELECT count(*) FROM outbox WHERE idempotency_key LIKE 'sms-reply:%'")[
        0
    ]
    while_down = health.between(stopped, starting)
    if not while_down or any(status != 503 for status in while_down):
        outcome.failures.append(f"/healthz while PostgreSQL was down: {Counter(while_down)}")
    if ok_at is None or ok_at - started > recover:
        outcome.failures.append(f"/healthz not 200 within {recover:g} s of PostgreSQL's start")
    if not alive:
        outcome.failures.append("the server process ended (it did not reconnect by itself)")
    if not again:
        outcome.failures.append("no SMS was asked to be sent again: none came while it was down")
    if stale:
        outcome.failures.append(
            f"{len(stale)} SMS sent right after an idle restart were not answered (stale "
            "connections)"
        )
    if not drained:
        outcome.failures.append("SMS still waiting to be acted on or sent after 60 s")
    outcome.note = (
        f"PostgreSQL down {starting - stopped:.1f} s; /healthz 503 x{while_down.count(503)} "
        f"while down, 200 again {(ok_at or started) - started:.2f} s after the start; "
        f"{len(again)} asked to send again, {swept} answered by the sweep's SMS; same "
        f"server pid: {alive}"
    )
    return outcome


def _again(body: str) -> str:
    """ "Send it again", as the server says it to a message of ``body``."""
    return render.try_again_later(translator(reply_language(text=body)))


def _tally(server: PgServer, traffic: Traffic, messages: int, again: dict[str, str]) -> Outcome:
    """Per message: each attempt answered exactly once (TwiML or the sweep's SMS), the
    last with the case or the dues; one case per keeper's message."""
    cases = Counter(
        int(place.rsplit(" ", 1)[1])
        for (place,) in server.query("SELECT place_seized FROM cases")
        if re.fullmatch(r"Restart \d+", place)
    )
    by_sms = {
        key.removeprefix("sms-reply:"): body
        for key, body in server.query(
            "SELECT idempotency_key, body FROM outbox WHERE idempotency_key LIKE 'sms-reply:%'"
        )
    }
    arrived = Counter((m.get("To", ""), m.get("Body", "")) for m in server.twilio.messages)
    outcome = Outcome(
        f"PostgreSQL restarted under SMS traffic, then idle ({messages} SMS)",
        messages,
        answered=0,
        lost=0,
        duplicated=0,
    )
    per_request: dict[int, list[Sent]] = {}
    odd: Counter[str] = Counter()
    for sent in traffic.sent:
        per_request.setdefault(sent.request, []).append(sent)
        if sent.took is not None:
            outcome.latencies.append(sent.took)
            outcome.late += sent.took > TWILIO_TIMEOUT
    for request in range(messages):
        sender = Traffic.sender(request)
        attempts = per_request.get(request, [])
        answers: list[str] = []
        for s in attempts:
            pushed = arrived[(sender, by_sms[s.sid])] if s.sid in by_sms else 0
            given = [s.text] if s.text else []
            if s.status != 200:
                odd[f"HTTP {s.status}"] += 1
            if len(given) + pushed != 1:
                odd[f"an attempt answered {len(given) + pushed} times"] += 1
                if len(given) + pushed > 1:
                    outcome.duplicated += 1
            answers += given + [by_sms.get(s.sid, "")] * pushed
        done = [a for a in answers if a != again.get(attempts[0].sid if attempts else "", "")]
        if request % 2 == 0:
            named = [a for a in done if _CASE.search(a)]
            if cases[request] > 1 or len(named) > 1:
                outcome.duplicated += 1
            if cases[request] != 1 or len(named) != 1:
                outcome.lost += 1
                continue
        elif len([a for a in done if DUES_CASE in a]) != 1:
            outcome.lost += 1
            continue
        outcome.answered += 1
    for what, count in odd.most_common():
        outcome.failures.append(f"{count}: {what}")
    return outcome


if __name__ == "__main__":
    from chaos.report import table

    print(table([asyncio.run(restarted(Path(sys.argv[1]), messages=40, down=3, pace=0.2))]))
