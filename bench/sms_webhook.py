"""Benchmark: signed ``DUES`` SMS webhooks under uvicorn on SQLite vs a bare TwiML route.

One uvicorn server (a child process) serves poundbot's ``/twilio/sms`` and, beside it,
``/bare``: a Starlette route that reads the form and returns constant TwiML, and
``/floor``: the least poundbot's SMS webhook does for any message it answers (check the
signature, store the raw message, count the sender against their limit of answers
(``[limits] public``), pass the answer through the send gate (a STOP said, the ceiling of
answers to the public: one count), mark it answered exactly once, return constant
TwiML); and ``/floor-ungated``, the same without the sender's count and the gate, for
scale only (what any SMS webhook does at the least). The same load goes to each in the
same run: (1) an open loop at 100 requests/s for p50/p99 latency, (2) a
closed loop with 16 clients for requests/s, with the server's CPU time per request
(read from /proc), in rounds that give each route a turn (a host whose speed drifts
slows them all alike). Each request has a new MessageSid, so each DUES is stored in the
inbox and answered from the database. Runs on SQLite and, when POUNDBOT_TEST_PG_URL is
set, again on a fresh PostgreSQL database.
Targets (each printed with PASS or FAIL; exit 1 on a FAIL), on each database, all
ratios within the one run: throughput DUES >= 0.8 x the floor route; the server's CPU per
DUES <= 1.3 x per floor request; DUES p99 at 100 req/s <= 2 x the floor's p99; the
server's CPU per DUES on a case of ``LONG_CASE`` events (corrections of its record)
<= 1.2 x on a case of ``SHORT_CASE`` events: the answer is rendered from one statement
of the case, whatever its history.
The counts of the sender and of the gate are part of the floor because no answer may
go without them (a sender past their limit is not answered; the ceiling caps what the
public can cost): the targets hold the answer's own work (the words, the case, its
statement, the rendering) to the cost of the floor. The bare route is reported for scale
only: storing the message durably and answering it exactly once costs more than the
whole bare route, so no correct webhook can be held to it.
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
from urllib.parse import urlencode

from targets import fresh_pg_database, verdict
from twilio.request_validator import RequestValidator

PUBLIC = "https://pound.example.org"
TOKEN = "bench-token"
RATE = 100
SECONDS = int(os.environ.get("BENCH_SMS_SECONDS", "10"))  # smaller for a look on a busy machine
CLIENTS = 16
CLOSED_REQUESTS = int(os.environ.get("BENCH_SMS_REQUESTS", "1500"))
#: The closed loops in rounds, each route in turn (see ``_measure``).
ROUNDS = int(os.environ.get("BENCH_SMS_ROUNDS", "6"))
LONG_CASE = 200  # events of the long case
SHORT_CASE = 5  # events of the short case
#: (name, path, the case asked about): KNM-1 is one impounding; KNM-2 has SHORT_CASE
#: events and KNM-3 LONG_CASE.
ROUTES = (
    ("bare TwiML", "/bare", "KNM-1"),
    ("floor", "/floor", "KNM-1"),
    ("floor, ungated", "/floor-ungated", "KNM-1"),
    ("poundbot DUES", "/twilio/sms", "KNM-1"),
    ("DUES, short case", "/twilio/sms", "KNM-2"),
    ("DUES, long case", "/twilio/sms", "KNM-3"),
)


def _serve(url: str, port: int) -> None:
    import uvicorn
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from bot.adapters.send_gate import ANSWER, Outgoing
    from bot.bootstrap import load, open_app
    from bot.channels.limits import admit
    from bot.channels.sms.answer import reply_key
    from bot.channels.twilio.webhook import twiml
    from bot.config.settings import Settings
    from bot.entry.app import build_app
    from bot.store.messages import Inbound, process_inbound
    from bot.store.tx import Tx
    from bot.support.caller import PUBLIC as PUBLIC_ROLE

    async def bare(request: Request) -> Response:
        await request.form()
        return Response(
            '<?xml version="1.0" encoding="UTF-8"?><Response><Message>ok</Message></Response>',
            media_type="application/xml",
        )

    validator = RequestValidator(TOKEN)

    async def floor(request: Request, *, gated: bool = True) -> Response:
        form = await request.form()
        params = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        signature = request.headers.get("X-Twilio-Signature", "")
        if not validator.validate(PUBLIC + "/twilio/sms", params, signature):
            return Response("forbidden", status_code=403)
        message = Inbound("sms", params["MessageSid"], params["From"], params["Body"], params)
        app = request.app.state.poundbot

        async def constant(tx: Tx) -> str:
            if not gated:
                return "ok"
            sender = message.sender[:64]
            allowed = await admit(tx, app.config.limits, "sms", sender, PUBLIC_ROLE)
            outgoing = Outgoing(reply_key(message.provider_id), "sms", sender, ANSWER)
            if not allowed.answer or await app.gate.refusal(tx, outgoing) is not None:
                return ""
            return "ok"

        reply = await process_inbound(app.store, message, constant)
        return twiml(reply)

    async def ungated(request: Request) -> Response:
        return await floor(request, gated=False)

    settings = Settings(
        public_url=PUBLIC,
        twilio_sid="AC" + "0" * 32,
        twilio_token=TOKEN,
        twilio_from="+14155550100",
        twilio_api_url="http://127.0.0.1:9",
    )
    # Every request comes from a number of its own: the ceiling of answers to the public
    # (``[limits]``) is lifted so that each is answered, its counting still paid for.
    config = load()
    config = config._replace(
        limits=config.limits._replace(answers_per_hour=10**9, answers_per_day=10**9)
    )
    app = build_app(lambda: open_app(url=url, config=config), settings)
    app.router.routes.append(Route("/bare", bare, methods=["POST"]))
    app.router.routes.append(Route("/floor", floor, methods=["POST"]))
    app.router.routes.append(Route("/floor-ungated", ungated, methods=["POST"]))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


async def _seed(url: str) -> None:
    """KNM-1, one impounding; KNM-2 and KNM-3 the same with their record corrected until
    they have SHORT_CASE and LONG_CASE events (each correction in its own transaction)."""
    from bot.bootstrap import open_app
    from bot.services import keeper
    from bot.support.caller import KEEPER, Caller
    from domain.s07_seizure import Lot, Seizure

    caller = Caller(role=KEEPER, channel="bench", pound="KNM", authority="KNM-GP")
    lots = (Lot("cow", 2, "brown"), Lot("buffalo", 1, ""))
    seizure = Seizure("KNM", lots, "Kunnamangalam market", datetime.now())
    async with open_app(url=url, migrate=True) as app:
        for events in (1, SHORT_CASE, LONG_CASE):
            async with app.store.transaction() as tx:
                recorded = await keeper.record_seizure(tx, app.deps, caller, seizure)
            for n in range(events - 1):
                async with app.store.transaction() as tx:
                    await keeper.correct_seizure(
                        tx, app.deps, caller, recorded.case.number, seizure, f"check {n}"
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


class Connections:
    """Keep-alive HTTP/1.1 connections to the server, spoken to directly.

    A load generator on the same (small) machine must cost less per request than what
    it measures: httpx spends about 1 ms of CPU on each, more than the server spends on
    the bare route, so it capped that route and flattered the ratio. This one writes a
    prepared request and reads the answer by its Content-Length: some 50 us.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def post(self, path: str, form: dict[str, str], signature: str) -> tuple[int, bytes]:
        body = urlencode(form).encode()
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"X-Twilio-Signature: {signature}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        while self.idle:  # the server closes connections idle past its keep-alive
            connection = self.idle.pop()
            try:
                return await self._exchange(connection, request)
            except (asyncio.IncompleteReadError, ConnectionError):
                connection[1].close()  # closed by the server: closed here too
                continue
        return await self._exchange(await asyncio.open_connection("127.0.0.1", self.port), request)

    async def _exchange(
        self, connection: tuple[asyncio.StreamReader, asyncio.StreamWriter], request: bytes
    ) -> tuple[int, bytes]:
        reader, writer = connection
        writer.write(request)
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = (line.partition(":") for line in head[1:])
        length = next(int(v) for k, _, v in fields if k.lower() == "content-length")
        body = await reader.readexactly(length)
        self.idle.append(connection)
        return int(head[0].split()[1]), body

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()


class Load:
    def __init__(self, connections: Connections) -> None:
        self.http = connections
        self.validator = RequestValidator(TOKEN)
        self.n = 0

    async def send(self, path: str, case: str = "KNM-1") -> int:
        """One signed DUES request (the bare route ignores what it is sent); its status,
        or 502 when poundbot's answer is not the dues (an SMS left unanswered).

        Each request comes from a number of its own, as the owners of a district would
        write: one number sending them all would be past its limit of answers after ten
        (``[limits] public``) and measure the silence, not the answer."""
        self.n += 1
        params = {
            "MessageSid": f"SMbench{os.getpid()}{self.n:08d}",
            "From": f"+91984{self.n % 10**7:07d}",
            "To": "+14155550100",
            "Body": f"DUES {case}",
            "FromCity": "",
        }
        signature = self.validator.compute_signature(PUBLIC + "/twilio/sms", params)
        status, body = await self.http.post(path, params, signature)
        if status == 200 and path == "/twilio/sms" and case.encode() not in body:
            return 502
        return status

    async def open_loop(self, path: str, case: str = "KNM-1") -> list[float]:
        latencies: list[float] = []
        errors = 0

        async def one() -> None:
            nonlocal errors
            start = time.perf_counter()
            status = await self.send(path, case)
            latencies.append(time.perf_counter() - start)
            errors += status != 200

        tasks = []
        start = time.perf_counter()
        for i in range(RATE * SECONDS):
            await asyncio.sleep(max(0.0, start + i / RATE - time.perf_counter()))
            tasks.append(asyncio.create_task(one()))
        await asyncio.gather(*tasks)
        if errors:
            raise SystemExit(f"{errors} errors on {path}")
        return sorted(latencies)

    async def closed_loop(
        self, path: str, case: str = "KNM-1", requests: int | None = None
    ) -> float:
        """Requests a second through ``CLIENTS`` clients sending ``requests`` in all
        (``CLOSED_REQUESTS`` if not given)."""
        requests = CLOSED_REQUESTS if requests is None else requests
        left = requests

        async def worker() -> None:
            nonlocal left
            while left > 0:
                left -= 1
                status = await self.send(path, case)
                assert status == 200, status

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(CLIENTS)))
        return requests / (time.perf_counter() - start)


async def _wait_for(port: int) -> None:
    for _ in range(400):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
        else:
            writer.close()
            return
    raise SystemExit("the server did not start")


async def _measure(url: str) -> dict[str, tuple[list[float], float, float]]:
    """Latencies at RATE req/s, closed-loop req/s and server CPU per request, per route."""
    await _seed(url)
    port = _free_port()
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(url, port))
    server.start()
    connections = Connections(port)
    try:
        await _wait_for(port)
        load = Load(connections)
        for _, path, case in ROUTES:  # warm every path
            await load.closed_loop(path, case)
        latencies = {}
        for name, path, case in ROUTES:
            print(f"   {name}: {SECONDS} s at {RATE} req/s")
            latencies[name] = await load.open_loop(path, case)
        # The closed loops take turns, a round of each route at a time: a machine whose
        # speed drifts (a shared host) slows every route alike, not the one measured then.
        seconds = dict.fromkeys(latencies, 0.0)
        cpu = dict.fromkeys(latencies, 0.0)
        each = max(CLOSED_REQUESTS // ROUNDS, CLIENTS)
        print(f"   {ROUNDS} rounds of {each} requests a route, {CLIENTS} clients")
        for _ in range(ROUNDS):
            for name, path, case in ROUTES:
                before = _cpu_seconds(server.pid or 0)
                seconds[name] += each / await load.closed_loop(path, case, each)
                cpu[name] += _cpu_seconds(server.pid or 0) - before
        total = each * ROUNDS
        results = {
            name: (latencies[name], total / seconds[name], cpu[name] / total * 1e3)
            for name in latencies
        }
    finally:
        connections.close()
        server.terminate()
        server.join()
    return results


def _report(engine: str, results: dict[str, tuple[list[float], float, float]]) -> bool:
    """Print the routes and the targets with PASS or FAIL; True when every target is met."""
    for name, (lat, rps, cpu_ms) in results.items():
        p50, p99 = statistics.median(lat) * 1e3, lat[int(len(lat) * 0.99)] * 1e3
        print(
            f"{name:>14}: {rps:7.0f} req/s (16 clients); at {RATE} req/s p50 {p50:.1f} ms, "
            f"p99 {p99:.1f} ms; server CPU {cpu_ms:.2f} ms a request"
        )
    dues, bare, floor = (results[name] for name in ("poundbot DUES", "bare TwiML", "floor"))
    ungated = results["floor, ungated"]
    p99, floor_p99 = (lat[int(len(lat) * 0.99)] * 1e3 for lat in (dues[0], floor[0]))
    print(
        f"({engine}) for scale: DUES / bare {dues[1] / bare[1]:.2f}, floor / bare "
        f"{floor[1] / bare[1]:.2f}; DUES / the floor without the sender's count and the gate: "
        f"throughput {dues[1] / ungated[1]:.2f}, server CPU {dues[2] / ungated[2]:.2f}"
    )
    short, lengthy = results["DUES, short case"], results["DUES, long case"]
    met = [
        verdict(f"({engine}) throughput DUES / floor", dues[1] / floor[1], ">=", 0.8),
        verdict(f"({engine}) server CPU per request, DUES / floor", dues[2] / floor[2], "<=", 1.3),
        verdict(f"({engine}) p99 at {RATE} req/s, DUES / floor", p99 / floor_p99, "<=", 2.0),
        verdict(
            f"({engine}) DUES CPU, case of {LONG_CASE} events / of {SHORT_CASE}",
            lengthy[2] / short[2],
            "<=",
            1.2,
        ),
    ]
    return all(met)


async def in_process() -> int:
    """``--in-process``: the CPU of one DUES through the use case, no HTTP (a quick look at
    what the history of a case costs); no target."""
    from bot.bootstrap import open_app
    from bot.services import public

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        await _seed(url)
        async with open_app(url=url) as app:
            for number, events in (("KNM-1", 1), ("KNM-2", SHORT_CASE), ("KNM-3", LONG_CASE)):
                for rounds in (20, 200):  # warm, then measure
                    cpu = time.process_time()
                    for _ in range(rounds):
                        async with app.store.transaction() as tx:
                            await public.dues_today(tx, app.deps, number)
                each = (time.process_time() - cpu) / rounds * 1e3
                print(f"DUES {number} ({events} events): {each:.2f} ms CPU")
    return 0


async def main() -> int:
    if "--in-process" in sys.argv:
        return await in_process()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        print("== SQLite", flush=True)
        sqlite = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        ok &= _report("SQLite", await _measure(sqlite))
    pg = os.environ.get("POUNDBOT_TEST_PG_URL")
    if pg:
        print("== PostgreSQL", flush=True)
        async with fresh_pg_database(pg, "poundbot_bench_sms") as url:
            ok &= _report("PostgreSQL", await _measure(url))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
