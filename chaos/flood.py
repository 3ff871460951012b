"""A flood of missed calls: ``poundbot serve`` as a real process with Exotel, its SMS API
faked on loopback, and ``callers`` numbers that are not staff each ringing once, all
within about a second (a missed call costs its caller nothing).

What must hold: every call is stored and acted on once (no webhook refused, none lost);
no number is answered twice; exactly the ceiling of the hour (``[limits]
answers_per_hour``) is answered by SMS and the rest held back (``dropped``); the
administrator is told once, and the message to the administrator is not held back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

from bot.bootstrap import open_app
from bot.config import sample_config_path
from bot.fakes.exotel_api import FakeExotel
from bot.fakes.loopback import bind, serve
from bot.services.admin import add_user
from bot.support.caller import Caller
from chaos.report import Outcome, progress

__all__ = ["missed_calls"]

ROOT = Path(__file__).resolve().parents[1]
SECRET = "chaos-webhook-secret-" + "f" * 24
ACCOUNT = ("chaosexotel1", "chaos-key", "chaos-token")
EXOPHONE = "08047091234"
ADMIN = "+919847000099"


def caller(n: int) -> str:
    """The number of caller ``n`` as Exotel writes it (a leading 0)."""
    return f"09846{n:06d}"


def _config(tmp: Path, per_hour: int) -> Path:
    """The sample configuration with the ceiling of the hour at ``per_hour`` and SMS sent
    as fast as a short code may."""
    text = sample_config_path().read_text()
    text = text.replace("sms_per_second = 1\n", "sms_per_second = 50\n")
    text = text.replace("answers_per_hour = 200\n", f"answers_per_hour = {per_hour}\n")
    config = tmp / "poundbot.toml"
    config.write_text(text)
    return config


def _query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn:
        return list(conn.execute(sql))


async def missed_calls(tmp: Path, *, callers: int, per_hour: int) -> Outcome:
    """``callers`` missed calls from as many numbers at once, the hour's ceiling at
    ``per_hour``."""
    os.makedirs(tmp, exist_ok=True)
    db = tmp / "flood.sqlite3"
    url = f"sqlite+aiosqlite:///{db}"
    config = _config(tmp, per_hour)  # imported by the first start: the server's
    async with open_app(url=url, file=str(config)) as app, app.store.transaction() as tx:
        await add_user(
            tx, app.deps, Caller.system(), role="admin", phone=ADMIN, name="IT cell", lang="en"
        )
    exotel = FakeExotel(ACCOUNT)
    sock = bind()
    port = sock.getsockname()[1]
    sock.close()
    base = f"http://127.0.0.1:{port}"
    async with serve(exotel.app()) as exotel_url:
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "POUNDBOT_CONFIG": str(config),
            "POUNDBOT_DATABASE_URL": url,
            "POUNDBOT_PUBLIC_URL": "https://pound.example.org",
            "POUNDBOT_SMS_PROVIDER": "exotel",
            "POUNDBOT_WEBHOOK_SECRET": SECRET,
            "EXOTEL_ACCOUNT_SID": ACCOUNT[0],
            "EXOTEL_API_KEY": ACCOUNT[1],
            "EXOTEL_API_TOKEN": ACCOUNT[2],
            "EXOTEL_SUBDOMAIN": "api.in.exotel.com",
            "EXOTEL_FROM": EXOPHONE,
            "EXOTEL_API_URL": exotel_url,
        }
        log = (tmp / "serve.log").open("wb")
        command = [sys.executable, "-m", "bot.entry.cli", "serve", "--port", str(port)]
        proc = await asyncio.create_subprocess_exec(
            *command, cwd=ROOT, env=env, stdout=log, stderr=log
        )
        log.close()
        try:
            async with httpx.AsyncClient(timeout=60) as http:
                for _ in range(600):
                    with contextlib.suppress(httpx.HTTPError):
                        if (await http.get(base + "/healthz")).status_code == 200:
                            break
                    await asyncio.sleep(0.05)
                else:
                    raise RuntimeError(f"poundbot serve did not start: see {tmp}/serve.log")
                progress(f"{callers} missed calls at once, the hour's ceiling {per_hour}")

                async def ring(n: int) -> int:
                    params = {
                        "CallSid": f"flood-{n}",
                        "CallFrom": caller(n),
                        "CallTo": EXOPHONE,
                        "From": caller(n),
                        "To": EXOPHONE,
                        "Direction": "incoming",
                        "CallType": "call-attempt",
                    }
                    try:
                        response = await http.get(f"{base}/exotel/call/{SECRET}", params=params)
                    except httpx.HTTPError:
                        return 0
                    return response.status_code

                started = time.monotonic()
                statuses = await asyncio.gather(*(ring(n) for n in range(callers)))
                took = time.monotonic() - started
                for _ in range(300):  # until nothing is left to act on or to send (60 s)
                    (waiting,) = _query(
                        db,
                        "SELECT (SELECT count(*) FROM inbox WHERE processed_at IS NULL)"
                        " + (SELECT count(*) FROM outbox WHERE status IN ('queued', 'sending'))",
                    )[0]
                    if not waiting:
                        break
                    await asyncio.sleep(0.2)
        finally:
            if proc.returncode is None:
                proc.terminate()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(proc.wait(), 30)
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
    (row,) = _query(db, "SELECT count(*), count(processed_at) FROM inbox WHERE channel = 'call'")
    stored, acted = (int(str(n)) for n in row)
    (dropped,) = _query(db, "SELECT count(*) FROM outbox WHERE status = 'dropped'")[0]
    to = Counter(m["To"] for m in exotel.messages)
    public = {number: n for number, n in to.items() if number != ADMIN}
    outcome = Outcome(
        f"{callers} missed calls in {took:.1f} s, ceiling {per_hour} an hour",
        callers,
        answered=len(public),
        lost=callers - acted,
        duplicated=sum(1 for n in public.values() if n > 1),
        note=f"{dropped} held back, {to[ADMIN]} SMS to the admin",
    )
    refused = [s for s in statuses if s != 200]
    if refused:
        outcome.failures.append(f"{len(refused)} webhooks not answered 200: {set(refused)}")
    if stored != callers:
        outcome.failures.append(f"{callers - stored} calls not stored")
    if len(public) != per_hour:
        outcome.failures.append(f"{len(public)} numbers answered, not the ceiling {per_hour}")
    if dropped != callers - per_hour:
        outcome.failures.append(f"{dropped} answers held back, not {callers - per_hour}")
    if to[ADMIN] != 2:  # the alert: two SMS (a template each), once
        outcome.failures.append(f"the admin got {to[ADMIN]} SMS, not the one alert (2 SMS)")
    return outcome
