"""Benchmark: signed ``DUES`` SMS webhooks under uvicorn on SQLite vs a bare TwiML route.

One uvicorn server (a child process) serves poundbot's ``/twilio/sms`` and, beside it,
``/bare``: a Starlette route that returns constant TwiML. The same load goes to both
in the same run: (1) an open loop at 100 requests/s for p50/p99 latency, (2) a closed
loop with 16 clients for requests/s. Each DUES request has a new MessageSid, so each
is stored in the inbox and answered from the database. Prints the ratio, and the
server's CPU time per request on each route (read from /proc: steadier than requests/s
on a shared machine, where the load generator on the same cores can be the limit).
Targets: throughput ratio >= 0.5; p99 <= 25 ms at 100 req/s.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import httpx
from twilio.request_validator import RequestValidator

PUBLIC = "https://pound.example.org"
TOKEN = "bench-token"
RATE = 100
SECONDS = 10
CLIENTS = 16
CLOSED_REQUESTS = 1500


def _serve(db: str, port: int) -> None:
    import uvicorn
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from bot.app import build_app
    from bot.bootstrap import open_app
    from bot.settings import Settings

    async def bare(request: Request) -> Response:
        await request.form()
        return Response(
            '<?xml version="1.0" encoding="UTF-8"?><Response><Message>ok</Message></Response>',
            media_type="application/xml",
        )

    settings = Settings(
        public_url=PUBLIC,
        twilio_sid="AC" + "0" * 32,
        twilio_token=TOKEN,
        twilio_from="+14155550100",
        twilio_api_url="http://127.0.0.1:9",
    )
    app = build_app(lambda: open_app(url=f"sqlite+aiosqlite:///{db}"), settings)
    app.router.routes.append(Route("/bare", bare, methods=["POST"]))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


async def _seed(db: str) -> None:
    from bot.bootstrap import open_app
    from bot.caller import KEEPER, Caller
    from bot.services import keeper
    from domain.case import Lot, Seizure

    async with open_app(url=f"sqlite+aiosqlite:///{db}") as app, app.store.transaction() as tx:
        caller = Caller(role=KEEPER, channel="bench", pound="KNM", authority="KNM-GP")
        lots = (Lot("cow", 2, "brown"), Lot("buffalo", 1, ""))
        await keeper.record_seizure(
            tx, app.deps, caller, Seizure("KNM", lots, "Kunnamangalam market", datetime.now())
        )


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux), or NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Load:
    def __init__(self, base: str) -> None:
        self.base = base
        self.validator = RequestValidator(TOKEN)
        self.n = 0

    def request(self, path: str) -> tuple[str, dict[str, str], dict[str, str]]:
        self.n += 1
        params = {
            "MessageSid": f"SMbench{os.getpid()}{self.n:08d}",
            "From": "+919847000001",
            "To": "+14155550100",
            "Body": "DUES KNM-1",
            "FromCity": "",
        }
        signature = self.validator.compute_signature(PUBLIC + "/twilio/sms", params)
        return path, params, {"X-Twilio-Signature": signature}

    async def open_loop(self, client: httpx.AsyncClient, path: str) -> list[float]:
        latencies: list[float] = []
        errors = 0

        async def one() -> None:
            nonlocal errors
            p, data, headers = self.request(path)
            start = time.perf_counter()
            response = await client.post(p, data=data, headers=headers)
            latencies.append(time.perf_counter() - start)
            errors += response.status_code != 200

        tasks = []
        start = time.perf_counter()
        for i in range(RATE * SECONDS):
            await asyncio.sleep(max(0.0, start + i / RATE - time.perf_counter()))
            tasks.append(asyncio.create_task(one()))
        await asyncio.gather(*tasks)
        if errors:
            raise SystemExit(f"{errors} errors on {path}")
        return sorted(latencies)

    async def closed_loop(self, client: httpx.AsyncClient, path: str) -> float:
        left = CLOSED_REQUESTS

        async def worker() -> None:
            nonlocal left
            while left > 0:
                left -= 1
                p, data, headers = self.request(path)
                response = await client.post(p, data=data, headers=headers)
                assert response.status_code == 200, response.text

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(CLIENTS)))
        return CLOSED_REQUESTS / (time.perf_counter() - start)


async def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.sqlite3")
        await _seed(db)
        port = _free_port()
        server = multiprocessing.get_context("spawn").Process(target=_serve, args=(db, port))
        server.start()
        base = f"http://127.0.0.1:{port}"
        try:
            limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
            async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
                for _ in range(200):
                    try:
                        await client.get("/healthz")
                        break
                    except httpx.TransportError:
                        await asyncio.sleep(0.05)
                load = Load(base)
                for path in ("/bare", "/twilio/sms"):  # warm both paths
                    await load.closed_loop(client, path)
                results = {}
                for name, path in (("bare TwiML", "/bare"), ("poundbot DUES", "/twilio/sms")):
                    latencies = await load.open_loop(client, path)
                    cpu = _cpu_seconds(server.pid or 0)
                    rps = await load.closed_loop(client, path)
                    cpu_ms = (_cpu_seconds(server.pid or 0) - cpu) / CLOSED_REQUESTS * 1e3
                    results[name] = (latencies, rps, cpu_ms)
        finally:
            server.terminate()
            server.join()
    for name, (lat, rps, cpu_ms) in results.items():
        p50, p99 = statistics.median(lat) * 1e3, lat[int(len(lat) * 0.99)] * 1e3
        print(
            f"{name:>14}: {rps:7.0f} req/s (16 clients); at {RATE} req/s p50 {p50:.1f} ms, "
            f"p99 {p99:.1f} ms; server CPU {cpu_ms:.2f} ms a request"
        )
    ratio = results["poundbot DUES"][1] / results["bare TwiML"][1]
    p99 = results["poundbot DUES"][0][int(len(results["poundbot DUES"][0]) * 0.99)] * 1e3
    print(
        f"throughput ratio (DUES / bare): {ratio:.2f} (target >= 0.5); "
        f"DUES p99 at {RATE} req/s: {p99:.1f} ms (target <= 25 ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
