"""SMS under faults: ``poundbot serve`` as a real process, signed Twilio webhooks, a fake
Twilio REST API on loopback taking the SMS poundbot sends.

- ``killed``: a burst of ``SEIZE`` by SMS, the server killed with SIGKILL while it is
  answering, restarted: what was stored and not answered must be answered by SMS
  (the sweep), none twice.
- ``locked``: another process holds the SQLite file longer than the wait budget while
  ``SEIZE`` keep coming: every request is answered within the budget ("send it again"
  and nothing recorded, or the case); the keeper sends those again; one case each.
- ``slow_media``: a keeper's MMS with ten pictures: some served 64 bytes every 0.5 s,
  one 7000 x 7000 PNG (past the pixel cap), one 5000 x 5000 PNG (kept), while other
  keepers send ``SEIZE``: the keeper is answered within the wait budget, no other
  sender waits more than 1 s beyond the same SMS on a quiet server, the server's peak
  memory stays under its target, and the follow-up says what was kept.

Each request is ``SEIZE 1 cow AT Chaos <n>`` from a registered keeper of its own (one
place per request, so a duplicate shows as a second case at one place; one sender per
request, so a limit on answers per sender is not what is measured).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse
from twilio.request_validator import RequestValidator

from bot.bootstrap import open_app
from bot.config import sample_config_path
from bot.fakes.loopback import bind, serve
from bot.fakes.twilio_api import FakeTwilio
from bot.services.admin import add_user
from bot.support.caller import Caller
from chaos.report import TWILIO_TIMEOUT, Outcome, progress

__all__ = ["MEMORY_TARGET_MB", "killed", "locked", "slow_media"]

#: The server's memory target (its peak resident size), as docs/photos.md states it.
MEMORY_TARGET_MB = 300

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = "https://pound.example.org"
TOKEN = "chaos-twilio-token"
SID = "AC" + "1" * 32
FROM = "+14155550100"


def keeper(request: int) -> str:
    """The registered keeper who sends message ``request`` (one keeper a message, so that
    a limit on answers per sender is not what is measured)."""
    return f"+9198{request:08d}"


_MESSAGE = re.compile(r"<Message>(.*)</Message>", re.S)
_CASE = re.compile(r"\bKNM-\d+\b")


class TimedTwilio(FakeTwilio):
    """The fake Twilio API, noting when each SMS arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: list[float] = []

    async def create(self, request: Request) -> JSONResponse:
        response = await super().create(request)
        self.arrived.append(time.monotonic())
        return response


@dataclass
class Server:
    """One poundbot deployment on a SQLite file: start, kill, stop its process."""

    tmp: Path
    twilio: TimedTwilio
    env: dict[str, str]
    port: int
    proc: asyncio.subprocess.Process | None = None
    starts: int = 0

    @property
    def db(self) -> Path:
        return self.tmp / "chaos.sqlite3"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.starts += 1
        log = _log_file(self.tmp / f"serve-{self.starts}.log")
        command = [sys.executable, "-m", "bot.entry.cli", "serve", "--port", str(self.port)]
        self.proc = await asyncio.create_subprocess_exec(
            *command, cwd=ROOT, env=self.env, stdout=log, stderr=log
        )
        log.close()
        async with httpx.AsyncClient() as http:
            for _ in range(600):  # 30 s at most
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(self.base + "/healthz")).status_code == 200:
                        return
                if self.proc.returncode is not None:
                    break
                await asyncio.sleep(0.05)
        raise RuntimeError(f"poundbot serve did not start: see {self.tmp}/serve-*.log")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)

    async def wait(self) -> None:
        assert self.proc is not None
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.kill()
            await self.proc.wait()

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        """Read the database as any other process may (WAL: never blocks the server)."""
        with contextlib.closing(sqlite3.connect(self.db, timeout=30)) as conn:
            return list(conn.execute(sql))

    async def drained(self, seconds: float) -> bool:
        """Wait until no SMS waits to be acted on or sent (bounded); False if time ran out."""
        for _ in range(int(seconds / 0.2)):
            (waiting,) = self.query(
                "SELECT (SELECT count(*) FROM inbox WHERE channel = 'sms' AND processed_at IS NULL)"
                " + (SELECT count(*) FROM outbox WHERE channel = 'sms'"
                " AND status IN ('queued', 'sending'))"
            )[0]
            if not waiting:
                return True
            await asyncio.sleep(0.2)
        return False


def _log_file(path: Path) -> Any:
    return path.open("wb")


def _config(tmp: Path) -> Path:
    """The sample configuration, sending SMS as fast as a short code may (not 1 a
    second), so that what is measured is poundbot, not the pace."""
    tmp.mkdir(parents=True, exist_ok=True)
    config = tmp / "poundbot.toml"
    config.write_text(
        sample_config_path().read_text().replace("sms_per_second = 1\n", "sms_per_second = 50\n")
    )
    return config


@asynccontextmanager
async def deployment(
    tmp: Path, *, keepers: int, budget: float | None = None
) -> AsyncIterator[Server]:
    """A database with ``keepers`` keepers, the fake Twilio API serving, the server not
    started."""
    twilio = TimedTwilio()
    config = _config(tmp)
    url = f"sqlite+aiosqlite:///{tmp / 'chaos.sqlite3'}"
    # The first start imports the configuration the server runs with.
    async with open_app(url=url, file=str(config)) as app, app.store.transaction() as tx:
        for i in range(keepers):
            await add_user(
                tx,
                app.deps,
                Caller.system(),
                role="keeper",
                pound="KNM",
                phone=keeper(i),
                name=f"Keeper {i}",
            )
    sock = bind()
    port = sock.getsockname()[1]
    sock.close()  # a free port for the server (loopback only)
    async with serve(twilio.app()) as twilio_url:
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "POUNDBOT_CONFIG": str(config),
            "POUNDBOT_DATABASE_URL": url,
            "POUNDBOT_PUBLIC_URL": PUBLIC,
            "TWILIO_ACCOUNT_SID": SID,
            "TWILIO_AUTH_TOKEN": TOKEN,
            "TWILIO_FROM_NUMBER": FROM,
            "TWILIO_API_URL": twilio_url,
        }
        if budget is not None:
            env["POUNDBOT_WAIT_BUDGET"] = str(budget)
        server = Server(tmp, twilio, env, port)
        try:
            yield server
        finally:
            await server.stop()


@dataclass
class Sent:
    """One webhook request and what came back."""

    request: int  # the keeper's message it carries (a resend has the same)
    sid: str
    started: float
    took: float | None = None
    text: str | None = None  # the TwiML answer's message; "" for none; None if cut


@dataclass
class Client:
    """Twilio, posting signed webhooks to a server."""

    server: Server
    http: httpx.AsyncClient
    sent: list[Sent] = field(default_factory=list)

    async def sms(self, request: int, sid: str, media: list[str] | None = None) -> Sent:
        params = {
            "MessageSid": sid,
            "AccountSid": SID,
            "From": keeper(request),
            "To": FROM,
            "Body": f"SEIZE 1 cow AT Chaos {request}",
            "NumMedia": str(len(media or [])),
        }
        for n, url in enumerate(media or []):
            params[f"MediaUrl{n}"] = url
            params[f"MediaContentType{n}"] = "image/png"
        signature = RequestValidator(TOKEN).compute_signature(PUBLIC + "/twilio/sms", params)
        sent = Sent(request, sid, time.monotonic())
        self.sent.append(sent)
        try:
            response = await self.http.post(
                self.server.base + "/twilio/sms",
                data=params,
                headers={"X-Twilio-Signature": signature},
            )
        except httpx.HTTPError:
            return sent  # cut: no answer
        sent.took = time.monotonic() - sent.started
        found = _MESSAGE.search(response.text) if response.status_code == 200 else None
        sent.text = found.group(1) if found else ""
        return sent


def _client(server: Server) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        timeout=60, limits=httpx.Limits(max_connections=400, max_keepalive_connections=0)
    )


def tally(
    scenario: str,
    server: Server,
    client: Client,
    requests: int,
    note: str,
    limit: float = TWILIO_TIMEOUT,
) -> Outcome:
    """Count, per keeper's message: its cases, its answers (TwiML, then SMS)."""
    cases = Counter(
        int(place.rsplit(" ", 1)[1])
        for (place,) in server.query("SELECT place_seized FROM cases")
        if place.startswith("Chaos ")
    )
    stored = {sid for (sid,) in server.query("SELECT provider_id FROM inbox WHERE channel='sms'")}
    by_sms = {
        key.removeprefix("sms-reply:"): body
        for key, body in server.query(
            "SELECT idempotency_key, body FROM outbox WHERE idempotency_key LIKE 'sms-reply:%'"
        )
    }
    arrived = Counter((m.get("To", ""), m.get("Body", "")) for m in server.twilio.messages)
    outcome = Outcome(scenario, requests, 0, 0, 0, note=note, limit=limit)
    per_request: dict[int, list[Sent]] = {}
    for sent in client.sent:
        per_request.setdefault(sent.request, []).append(sent)
        if sent.took is not None:
            outcome.latencies.append(sent.took)
            outcome.late += sent.took > limit
    for request in range(requests):
        attempts = per_request.get(request, [])
        # How many times the SMS answer to each attempt reached the keeper (0: none).
        by_phone = {
            s.sid: arrived[(keeper(request), by_sms[s.sid])] if s.sid in by_sms else 0
            for s in attempts
        }
        answers = [s.text for s in attempts if s.text] + [
            by_sms[s.sid] for s in attempts if by_phone[s.sid]
        ]
        case_answers = sum(1 for text in answers if _CASE.search(text))
        case_answers += sum(n - 1 for n in by_phone.values() if n > 1)  # one SMS sent twice
        unanswered_stored = any(
            s.sid in stored and not s.text and not by_phone[s.sid] for s in attempts
        )
        if cases[request] > 1 or case_answers > 1:
            outcome.duplicated += 1
        if (cases[request] and not case_answers) or unanswered_stored:
            outcome.lost += 1
        elif answers:
            outcome.answered += 1
        elif not cases[request] and not any(s.sid in stored for s in attempts):
            outcome.cut += 1
    return outcome


async def killed(tmp: Path, *, burst: int, runs: int) -> Outcome:
    """kill -9 during bursts of ``burst`` SEIZE, ``runs`` times; restart; sweep."""
    async with deployment(tmp, keepers=runs * burst) as server:
        await server.start()
        async with _client(server) as http:
            client = Client(server, http)
            kills = 0
            for run in range(runs):
                first = run * burst
                tasks = [
                    asyncio.create_task(client.sms(first + i, f"SMkill{run}x{i}"))
                    for i in range(burst)
                ]
                done = 0
                for finished in asyncio.as_completed(tasks):
                    done += (await finished).text is not None
                    if done >= burst // 3:
                        break
                server.kill()
                await asyncio.gather(*tasks)
                await server.wait()
                kills += 1
                answered = sum(1 for t in tasks if t.result().text)
                progress(
                    f"kill -9 run {run + 1}/{runs}: {burst} SEIZE sent, killed after {answered} "
                    "answers; restarting"
                )
                await server.start()
                drained = await server.drained(60 + burst / 10)
                progress(f"kill -9 run {run + 1}/{runs}: restarted, sweep done: {drained}")
        await server.stop()
        swept = len(server.query("SELECT 1 FROM outbox WHERE idempotency_key LIKE 'sms-reply:%'"))
        note = f"{kills} kills; {swept} stored-but-unanswered SMS answered by SMS after the restart"
        return tally(
            f"kill -9 during an SMS burst ({runs}x{burst})", server, client, runs * burst, note
        )


async def locked(
    tmp: Path, *, requests: int, hold: float, budget: float, limit: float = TWILIO_TIMEOUT
) -> Outcome:
    """SQLite held by another process for ``hold`` s while ``requests`` SEIZE come in;
    a webhook answered after ``limit`` s is late."""
    async with deployment(tmp, keepers=requests, budget=budget) as server:
        await server.start()
        async with _client(server) as http:
            client = Client(server, http)
            other = sqlite3.connect(server.db, isolation_level=None, timeout=30)
            other.execute("BEGIN IMMEDIATE")  # the admin CLI, a backup, a second instance
            progress(f"lock: database held for {hold:.0f} s; {requests} SEIZE coming in")
            held_since = time.monotonic()
            tasks = []
            for i in range(requests):
                tasks.append(asyncio.create_task(client.sms(i, f"SMlock{i}")))
                await asyncio.sleep(hold / requests)
            await asyncio.sleep(max(0.0, hold - (time.monotonic() - held_since)))
            other.execute("ROLLBACK")
            other.close()
            first = await asyncio.gather(*tasks)
            again = [s for s in first if s.text and not _CASE.search(s.text)]
            progress(
                f"lock: released; {len(again)} asked to send again, max wait "
                f"{max(s.took or 0 for s in first):.2f} s; the keeper sends those again"
            )
            resent = []
            for sent in again:  # at the pace the messages came in
                resent.append(asyncio.create_task(client.sms(sent.request, sent.sid + "r")))
                await asyncio.sleep(hold / requests)
            await asyncio.gather(*resent)
            await server.drained(60)
        await server.stop()
        note = (
            f"budget {budget:g} s, lock held {hold:g} s; {len(again)} asked to send again; "
            f"late: answered after {limit:g} s"
        )
        return tally(
            f"SQLite locked {hold:g} s by another process ({requests} SMS)",
            server,
            client,
            requests,
            note,
            limit,
        )


def _png(width: int, height: int, shade: int = 90) -> bytes:
    """A real PNG of ``width`` x ``height`` (one colour: small as a file, full size when
    decoded)."""
    import io

    from PIL import Image

    out = io.BytesIO()
    with Image.new("RGB", (width, height), (shade, 120, 60)) as image:
        image.save(out, "PNG")
    return out.getvalue()


def _peak_mb(pid: int) -> float:
    """The peak resident memory of process ``pid`` so far (Linux ``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def slow_media(
    tmp: Path,
    *,
    senders: int,
    drips: int,
    drip_bytes: int,
    kept_side: int,
    budget: float = 8.0,
    target_mb: int = MEMORY_TARGET_MB,
) -> Outcome:
    """One keeper's MMS of a 7000 x 7000 PNG, a ``kept_side`` square PNG and ``drips``
    pictures dripping (each ``drip_bytes`` long, 64 bytes every 0.5 s), while ``senders``
    other keepers send SEIZE by SMS; the same SEIZE first on a quiet server."""
    async with deployment(tmp, keepers=1 + 2 * senders, budget=budget) as server:
        twilio, api = server.twilio, server.env["TWILIO_API_URL"]
        sid = "MMslow0"
        # The huge pictures first: they are checked while the other senders come in.
        urls = [api + twilio.add_media(SID, sid, 0, _png(7000, 7000), "image/png")]
        big = _png(kept_side, kept_side)
        urls.append(api + twilio.add_media(SID, sid, 1, big, "image/png"))
        for n in range(2, 2 + drips):  # real pictures, padded to their length
            data = _pad(_png(16, 16, shade=n * 20 % 255), drip_bytes)
            urls.append(api + twilio.add_media(SID, sid, n, data, "image/png", drip=True))
        await server.start()
        async with _client(server) as http:
            client = Client(server, http)
            quiet = [await client.sms(1 + i, f"SMquiet{i}") for i in range(senders)]
            base = sorted(s.took or 0 for s in quiet)[len(quiet) // 2]
            progress(f"slow media: quiet SEIZE answered in {base:.2f} s (median)")
            mms = asyncio.create_task(client.sms(0, sid, urls))
            others = []
            for i in range(senders):  # while the pictures are fetched and checked
                await asyncio.sleep(0.25)
                others.append(await client.sms(1 + senders + i, f"SMbusy{i}"))
            keeper_sent = await mms
            progress(
                f"slow media: keeper answered in {keeper_sent.took or 0:.2f} s; others at most "
                f"{max(s.took or 0 for s in others):.2f} s"
            )
            key = f"mms-photos:{sid}"
            told: list[str] = []
            for _ in range(int((90 + 30 * drips) / 0.2)):  # the message's deadline and more
                told = [
                    body
                    for (body,) in server.query(
                        f"SELECT body FROM outbox WHERE idempotency_key = '{key}'"
                        f" OR idempotency_key LIKE '{key}:%' ORDER BY id"
                    )
                ]
                if told:
                    break
                await asyncio.sleep(0.2)
            await server.drained(60)
            peak = _peak_mb(server.proc.pid) if server.proc is not None else 0.0
        await server.stop()
        kept = server.query(f"SELECT count(*) FROM photos WHERE source_key LIKE 'mms:{sid}:%'")
        requests = 1 + 2 * senders
        outcome = tally(
            f"slow media: 7000x7000 + {kept_side}x{kept_side} + {drips} dripping in one MMS",
            server,
            client,
            requests,
            "",
        )
        held = max((s.took or 0) - base for s in others)
        if keeper_sent.took is None or keeper_sent.took > budget:
            outcome.failures.append(f"the keeper was answered after {keeper_sent.took} s")
        if held > 1.0:
            outcome.failures.append(f"another sender was held {held:.2f} s")
        if peak >= target_mb:
            outcome.failures.append(f"the server's memory peaked at {peak:.0f} MB")
        if not told:
            outcome.lost += 1  # the follow-up never came
        delivered = {m.get("Body", "") for m in twilio.messages if m.get("To") == keeper(0)}
        if told and not set(told) <= delivered:
            outcome.lost += 1  # queued, never sent
        outcome.note = (
            f"keeper answered in {keeper_sent.took or 0:.2f} s (budget {budget:g} s); others "
            f"held {held:.2f} s beyond a quiet server's {base:.2f} s; server peak {peak:.0f} MB "
            f"(target {target_mb} MB); {kept[0][0]} picture(s) kept; follow-up: " + " / ".join(told)
        )
        return outcome


def _pad(png: bytes, length: int) -> bytes:
    """``png`` made ``length`` bytes long with a text chunk before its end (still a PNG)."""
    import struct
    import zlib

    extra = max(0, length - len(png) - 12)
    body = b"tEXt" + b"pad\x00" + b"x" * max(0, extra - 4)
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    end = png.rindex(b"IEND") - 4
    return png[:end] + chunk + png[end:]
