"""Three instances behind the shipped nginx on one PostgreSQL, a state-wide number, a
mixed load for a bounded time, and one instance killed with SIGKILL mid-way and started
again: is each message answered once, no reminder sent twice, nothing lost, and does an
owner's SMS reach the authority of the owner's case?

One database of its own (on the PostgreSQL ``pg_url`` names), migrated, with two
authorities of the sample configuration — A, Kunnamangalam (pound KNM), and B, Enmakaje
(pound ENM) — each with its keepers (on Telegram), an officer and an admin; the limits
per sender and the ceiling of answers raised for the run (what is measured is poundbot,
not the limits). Owners' cases were seized nine days ago, some owners with a case in each
authority (the one in B the newer), so the s.13(1) report is overdue and its reminders
are planned; cases of each authority were reported the day before, for the officers to
post their notices. Three ``poundbot serve`` run on it (each with its workers: the
outbox, the reminders, the sweep), behind deploy/nginx.conf's locations and headers with
an ``upstream`` of the three. nginx keeps its defaults: a request goes to the next
server when the one it was passed to cannot be reached or fails, but a POST already
sent is not sent again (``proxy_next_upstream`` does not retry non-idempotent requests);
the client gets a 502 and sends it again itself, as Telegram does.

For ``seconds``, through nginx: owners' SMS on the ONE number (signed Twilio webhooks:
``DUES <case>``, and plain ``DUES`` and ``STATUS``, naming no case), keepers' seizures
by Telegram (``/seize``, with the webhook's secret), the officers' desk (Today, Cases, a
case's page and its notice form, each officer on their own authority's cases), and the
planned reminders falling due over the first half of the run. Mid-way one instance is
killed (SIGKILL) and started again.

The pass line, once the outbox has drained: each SMS answered exactly once (in its TwiML
response, or by the one SMS the sweep sends for it); each Telegram update stored, acted
on and answered once (one case for each seizure, one answer naming it); each outbox row
handed to its provider once (so no reminder twice); every reminder due sent; each desk
notice recorded once; every answer to an owner names the case it is about and no other —
a case of B (its number begins with B's pound's code) for an owner whose case is in B,
never a case of the other authority; and the desk's log of messages (the Messages page)
shows each authority's admin an owner's messages about the case in that authority, sent
and received (an SMS received is logged with the case it was about), and none about the
case in the other. (An answer carried in Twilio's response is not a message of the log
of its own: the SMS it answers is shown answered.) A
message in flight at the kill, handed to its provider and not yet recorded, is sent
again by the instance that takes the claim over (``bot.adapters.outbox``): at most one
per delivery loop, shown apart, not counted as sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import time as clock_time
from pathlib import Path

import httpx
from sqlalchemy import select, text
from twilio.request_validator import RequestValidator

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.channels.telegram.outbox import decode
from bot.channels.telegram.webhook import SECRET_HEADER
from bot.fakes.loopback import bind, serve
from bot.fakes.telegram_api import TOKEN as TELEGRAM_TOKEN
from bot.fakes.telegram_api import FakeTelegram, TelegramUser, Updates
from bot.reminders.plan import plan_pending
from bot.services import messages as message_log
from bot.services.admin import add_user
from bot.services.web_signin import issue_link_for
from bot.store.models import User
from bot.support.caller import Caller
from bot.support.clock import FixedClock, SystemClock, local_today
from chaos import nginx
from chaos.outbox import _database, _drop
from chaos.pg_restart import PgServer
from chaos.report import TWILIO_TIMEOUT, Outcome, progress
from chaos.settle import _say
from chaos.sms import FROM, ROOT, SID, TOKEN, TimedTwilio
from domain.calendar import LOCAL_TZ

__all__ = ["NoNginx", "three_instances"]

#: The web desk's address: http, so that the session cookie goes to loopback.
PUBLIC = "http://pound.example.org"
SECRET = "chaos-state-desk-secret-of-32-chars-or-more"
TELEGRAM_SECRET = "chaos-state-telegram-webhook-secret"
#: The two authorities of the sample configuration the run uses: (authority, pound, the
#: pound's name in English, as an answer may give it).
A = ("KNM-GP", "KNM", "Kunnamangalam")
B = ("ENM-GP", "ENM", "Enmakaje")
_CASE = re.compile(r"\b(KNM|ENM)-\d+\b")
#: How many messages a killed instance may have had in flight: one per delivery loop
#: (SMS, Telegram).
IN_FLIGHT = 2
_MESSAGE = re.compile(r"<Message>(.*)</Message>", re.S)
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_SEEN = re.compile(r'name="seen" value="(\d+)"')
_SIGNIN = re.compile(r'name="signin" value="([^"]+)"')


class NoNginx(RuntimeError):
    """nginx is not installed: the scenario cannot run."""


def owner_phone(i: int) -> str:
    return f"+9197{i:08d}"


def officer_phone(n: int) -> str:
    return f"+9198002{n:05d}"


def keeper_phone(n: int) -> str:
    return f"+9198003{n:05d}"


def _limits(sample: str) -> str:
    """The sample configuration with the limits per sender and the ceiling of answers
    raised for the run, and SMS sent as fast as a short code may."""
    raised = {
        "sms_per_second = 1\n": "sms_per_second = 50\n",
        "public = 10\n": "public = 100000\n",
        "keeper = 60\n": "keeper = 100000\n",
        "officer = 60\n": "officer = 100000\n",
        "answers_per_hour = 200\n": "answers_per_hour = 1000000\n",
        "answers_per_day = 1000\n": "answers_per_day = 1000000\n",
        "answers_per_number_per_day = 30\n": "answers_per_number_per_day = 100000\n",
    }
    for old, new in raised.items():
        if old not in sample:
            raise RuntimeError(f"the sample configuration has no {old.strip()!r} to raise")
        sample = sample.replace(old, new)
    return sample


def _config(tmp: Path) -> Path:
    from bot.config import sample_config_path

    tmp.mkdir(parents=True, exist_ok=True)
    config = tmp / "poundbot.toml"
    config.write_text(_limits(sample_config_path().read_text()))
    return config


@dataclass
class People:
    """Who the run has: keepers (Telegram), officers, admins of A and B; the owners'
    cases; the cases waiting for their notice."""

    keepers: dict[str, list[tuple[User, TelegramUser]]] = field(default_factory=dict)
    officers: dict[str, User] = field(default_factory=dict)
    admins: dict[str, User] = field(default_factory=dict)
    #: Per owner: their cases (one or two), oldest first.
    owners: list[list[str]] = field(default_factory=list)
    #: Per authority: the cases reported, waiting for the officer's notice.
    desk: dict[str, list[str]] = field(default_factory=dict)
    #: The configuration the database was made with (and the servers run with).
    config: Path = Path()


async def _prepare(url: str, config: Path, *, owners: int, keepers: int, desk: int) -> People:
    """The people and the cases (see the module); the reminders planned, to fire later."""
    first = local_today(SystemClock()) - timedelta(days=9)
    clock = FixedClock(datetime.combine(first, clock_time(10), LOCAL_TZ))
    people = People(config=config)
    async with open_app(url=url, clock=clock, migrate=True, file=str(config)) as app:
        async with app.store.transaction() as tx:
            ids = itertools.count(5000)
            for n, (authority, pound, _) in enumerate((A, B)):
                people.keepers[pound] = []
                for k in range(keepers):
                    tg = TelegramUser(next(ids), f"Keeper {pound} {k}", "en")
                    user = await add_user(
                        tx, app.deps, Caller.system(), role="keeper", pound=pound,
                        phone=keeper_phone(100 * n + k), telegram_id=tg.id,
                        name=tg.first_name, lang="en",
                    )  # fmt: skip
                    people.keepers[pound].append((user, tg))
                people.officers[pound] = await add_user(
                    tx, app.deps, Caller.system(), role="officer", authority=authority,
                    phone=officer_phone(n), name=f"Officer {pound}", lang="en",
                )  # fmt: skip
                people.admins[pound] = await add_user(
                    tx, app.deps, Caller.system(), role="admin", authority=authority,
                    phone=officer_phone(10 + n), name=f"Admin {pound}", lang="en",
                )  # fmt: skip
        seizer = {pound: people.keepers[pound][0][0] for _, pound, _ in (A, B)}
        # Owner i: a case in A (i % 3 == 0), in B (1), or in both, B's a day newer (2).
        for i in range(owners):
            pounds = [["KNM"], ["ENM"], ["KNM", "ENM"]][i % 3]
            cases = []
            for day, pound in enumerate(pounds):
                clock.set(datetime.combine(first + timedelta(days=day), clock_time(10), LOCAL_TZ))
                line = f"SEIZE 1 cow AT Field {i} OWNER Ravi, Perla {owner_phone(i)}"
                cases.append(await _say(app, seizer[pound], line))
            people.owners.append(cases)
        clock.set(datetime.combine(first, clock_time(11), LOCAL_TZ))
        for _, pound, _ in (A, B):
            people.desk[pound] = [
                await _say(app, seizer[pound], f"SEIZE 1 cow AT Desk {pound} {j}")
                for j in range(desk)
            ]
        clock.set(datetime.combine(first + timedelta(days=8), clock_time(10), LOCAL_TZ))
        for _, pound, _ in (A, B):
            for number in people.desk[pound]:
                await _say(app, seizer[pound], f"REPORT {number}")
    # The reminders of the deadlines, planned now, to fall due during the run.
    async with open_app(url=url, file=str(config)) as app:
        while True:
            async with app.store.transaction() as tx:
                if not await plan_pending(tx, app.config):
                    break
        async with app.store.transaction() as tx:
            await tx.session.execute(
                text("UPDATE reminder_jobs SET fire_at = :later WHERE status = 'pending'"),
                {"later": SystemClock().now() + timedelta(days=1)},
            )
    return people


@dataclass
class Sms:
    """One owner's SMS and its attempts: (HTTP status, 0 cut; the TwiML message)."""

    owner: int
    sid: str
    body: str
    expect: str  # the case the answer is about
    attempts: list[tuple[int, str | None]] = field(default_factory=list)
    took: list[float] = field(default_factory=list)


@dataclass
class Seizure:
    """One keeper's /seize by Telegram and the HTTP status of each post of it."""

    pound: str
    chat: int
    update_id: int
    place: str
    statuses: list[int] = field(default_factory=list)


@dataclass
class Notice:
    """One officer's notice by the desk: the HTTP status of each post (303: recorded)."""

    pound: str
    case: str
    statuses: list[int] = field(default_factory=list)


@dataclass
class Load:
    """The mixed load through nginx, and what each part got."""

    base: str
    people: People
    http: httpx.AsyncClient
    sms: list[Sms] = field(default_factory=list)
    seizures: list[Seizure] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    pages: Counter[str] = field(default_factory=Counter)
    updates: Updates = field(default_factory=lambda: Updates(first=900_000))

    async def owner_sms(self, n: int) -> None:
        """Owner ``n % owners`` asks, in turn, ``DUES <case>`` (an owner with a case in each
        authority names the one in B, then the one in A), ``DUES`` and ``STATUS`` (about
        their newest case: B's for an owner with a case in each)."""
        owner = n % len(self.people.owners)
        cases = self.people.owners[owner]
        turn = n // len(self.people.owners)
        named = cases[-1 - (turn // 3) % len(cases)]
        body, expect = [(f"DUES {named}", named), ("DUES", cases[-1]), ("STATUS", cases[-1])][
            turn % 3
        ]
        asked = Sms(owner, f"SMstate{n:06d}", body, expect)
        self.sms.append(asked)
        params = {
            "MessageSid": asked.sid,
            "AccountSid": SID,
            "From": owner_phone(owner),
            "To": FROM,
            "Body": body,
            "NumMedia": "0",
        }
        signature = RequestValidator(TOKEN).compute_signature(PUBLIC + "/twilio/sms", params)
        for _ in range(2):  # cut by the kill: sent once more
            started = time.monotonic()
            try:
                response = await self.http.post(
                    self.base + "/twilio/sms",
                    data=params,
                    headers={"X-Twilio-Signature": signature},
                )
            except httpx.HTTPError:
                asked.attempts.append((0, None))
                continue
            asked.took.append(time.monotonic() - started)
            found = _MESSAGE.search(response.text) if response.status_code == 200 else None
            asked.attempts.append(
                (response.status_code, html.unescape(found.group(1)) if found else "")
            )
            if response.status_code == 200:
                return

    async def seize(self, n: int) -> None:
        """A keeper seizes by Telegram; posted again until answered 200, as Telegram does."""
        pound = ("KNM", "ENM")[n % 2]
        keepers = self.people.keepers[pound]
        _, tg = keepers[(n // 2) % len(keepers)]
        place = f"State {n}"
        update = self.updates.text(tg, f"/seize 1 cow at {place}")
        seizure = Seizure(pound, tg.id, int(update["update_id"]), place)
        self.seizures.append(seizure)
        for _ in range(10):
            try:
                response = await self.http.post(
                    self.base + "/telegram", json=update, headers={SECRET_HEADER: TELEGRAM_SECRET}
                )
                seizure.statuses.append(response.status_code)
                if response.status_code == 200:
                    return
            except httpx.HTTPError:
                seizure.statuses.append(0)
            await asyncio.sleep(0.5)

    async def desk(self, pound: str, browser: httpx.AsyncClient, stop: asyncio.Event) -> None:
        """An officer at the desk: Today, Cases, then a case's page and its notice form."""
        waiting = list(self.people.desk[pound])
        while not stop.is_set():
            for path in ("/web/", "/web/cases"):
                self.pages[f"GET {path} {(await _get(browser, self.base + path))}"] += 1
            if waiting:
                number = waiting.pop(0)
                notice = Notice(pound, number)
                self.notices.append(notice)
                page = await browser.get(f"{self.base}/web/cases/{number}")
                csrf, seen = _CSRF.search(page.text), _SEEN.search(page.text)
                if csrf is None or seen is None:
                    notice.statuses.append(-page.status_code)
                else:
                    form = {"csrf": csrf.group(1), "seen": seen.group(1), "places": "Office"}
                    for _ in range(2):  # cut by the kill: the same form once more
                        try:
                            done = await browser.post(
                                f"{self.base}/web/cases/{number}/notice", data=form
                            )
                        except httpx.HTTPError:
                            notice.statuses.append(0)
                            continue
                        notice.statuses.append(done.status_code)
                        if done.status_code not in (502, 503, 504):
                            break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)


async def _get(browser: httpx.AsyncClient, url: str) -> int:
    try:
        return (await browser.get(url)).status_code
    except httpx.HTTPError:
        return 0


async def _sign_in(
    base: str, url: str, config: Path, user: User, browser: httpx.AsyncClient
) -> None:
    """``user`` signed in at the desk through nginx, by a link the CLI would issue."""
    async with open_app(url=url, file=str(config)) as app, app.store.transaction() as tx:
        token = await issue_link_for(tx, user.id)
    link = f"{base}/web/signin/{token}"
    page = await browser.get(link)
    found = _SIGNIN.search(page.text)
    form = {"signin": found.group(1)} if found else {}
    signed = await browser.post(link, data=form, headers={"Origin": PUBLIC})
    if signed.status_code != 303:
        raise RuntimeError(f"{user.name} could not sign in: {signed.status_code}")


async def three_instances(
    tmp: Path,
    pg_url: str | None,
    *,
    seconds: float,
    owners: int,
    keepers: int,
    desk: int,
    pace: float,
    burst: int,
) -> Outcome:
    """The run (see the module): an SMS and a Telegram seizure every ``pace`` seconds for
    ``seconds`` (and ``burst`` of each at once as the kill comes), ``owners`` owners,
    ``keepers`` keepers and ``desk`` cases waiting for their notice in each authority.
    Raises ``NoNginx`` without nginx; ``pg_url`` None: ``ValueError`` (one SQLite file is
    not three instances' database)."""
    if not pg_url:
        raise ValueError("three instances run on PostgreSQL: no PostgreSQL URL given")
    if nginx.NGINX is None:
        raise NoNginx("nginx is not installed (.ci/run installs nginx-light)")
    url, dropped = await _database(tmp, pg_url)
    try:
        config = _config(tmp)
        progress(f"state: preparing {owners} owners, 2 authorities, {keepers} keepers each")
        people = await _prepare(url, config, owners=owners, keepers=keepers, desk=desk)
        return await _run(tmp, url, config, people, seconds=seconds, pace=pace, burst=burst)
    finally:
        if dropped:
            await _drop(pg_url, dropped)


async def _run(
    tmp: Path,
    url: str,
    config: Path,
    people: People,
    *,
    seconds: float,
    pace: float,
    burst: int,
) -> Outcome:
    twilio, telegram = TimedTwilio(), FakeTelegram()
    async with serve(twilio.app()) as twilio_url, serve(telegram.app()) as telegram_url:
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "POUNDBOT_CONFIG": str(config),
            "POUNDBOT_DATABASE_URL": url,
            "POUNDBOT_DATA_DIR": str(tmp / "data"),
            "POUNDBOT_PUBLIC_URL": PUBLIC,
            "POUNDBOT_SECRET": SECRET,
            "TWILIO_ACCOUNT_SID": SID,
            "TWILIO_AUTH_TOKEN": TOKEN,
            "TWILIO_FROM_NUMBER": FROM,
            "TWILIO_API_URL": twilio_url,
            "TELEGRAM_BOT_TOKEN": TELEGRAM_TOKEN,
            "TELEGRAM_WEBHOOK_SECRET": TELEGRAM_SECRET,
            "TELEGRAM_API_URL": f"{telegram_url}/bot",
        }
        dsn = url.replace("postgresql+asyncpg://", "postgresql://")
        servers: list[PgServer] = []
        for name in ("1", "2", "3"):
            sock = bind()
            port = sock.getsockname()[1]
            sock.close()  # a free port for the server (loopback only)
            folder = tmp / f"instance-{name}"
            folder.mkdir(parents=True, exist_ok=True)
            server = PgServer(folder, twilio, env, port)
            server.dsn = dsn
            servers.append(server)
        try:
            await asyncio.gather(*(s.start() for s in servers))
            front = tmp / "nginx"
            front.mkdir(parents=True, exist_ok=True)
            async with nginx.running(front, [s.base for s in servers]) as base:
                load, kill = await _load(
                    base, url, people, servers, seconds=seconds, pace=pace, burst=burst
                )
                drained = await _drained(servers[0], 120)
        finally:
            await asyncio.gather(*(s.stop() for s in servers))
        return await _tally(url, servers[0], load, twilio, telegram, kill, drained, seconds)


async def _load(
    base: str,
    url: str,
    people: People,
    servers: list[PgServer],
    *,
    seconds: float,
    pace: float,
    burst: int,
) -> tuple[Load, str]:
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=0)
    async with (
        httpx.AsyncClient(timeout=60, limits=limits) as http,
        httpx.AsyncClient(timeout=60, limits=limits) as desk_a,
        httpx.AsyncClient(timeout=60, limits=limits) as desk_b,
    ):
        await _sign_in(base, url, people.config, people.officers["KNM"], desk_a)
        await _sign_in(base, url, people.config, people.officers["ENM"], desk_b)
        load = Load(base, people, http)
        # The reminders fall due over the first half of the run, across the kill.
        await _due_over(servers[0], seconds / 2)
        stop = asyncio.Event()
        officers = [
            asyncio.create_task(load.desk("KNM", desk_a, stop)),
            asyncio.create_task(load.desk("ENM", desk_b, stop)),
        ]
        tasks: list[asyncio.Task[None]] = []
        started = time.monotonic()
        killed = False
        kill = ""
        n = 0
        progress(f"state: {seconds:g} s of SMS, Telegram, desk and reminders through nginx")
        while time.monotonic() - started < seconds:
            tasks.append(asyncio.create_task(load.owner_sms(n)))
            tasks.append(asyncio.create_task(load.seize(n)))
            n += 1
            if not killed and time.monotonic() - started >= seconds / 2:
                killed = True
                # A burst at once, and the kill while a third of it is with the victim.
                for _ in range(burst):
                    tasks.append(asyncio.create_task(load.owner_sms(n)))
                    tasks.append(asyncio.create_task(load.seize(n)))
                    n += 1
                await asyncio.sleep(0.05)
                victim = servers[1]
                victim.kill()
                await victim.wait()
                down = time.monotonic()
                await victim.start()
                kill = (
                    f"instance 2 killed at {down - started:.0f} s, up again in "
                    f"{time.monotonic() - down:.1f} s"
                )
                progress(f"state: {kill}")
            await asyncio.sleep(pace)
        await asyncio.gather(*tasks)
        stop.set()
        await asyncio.gather(*officers)
        progress(
            f"state: load over: {len(load.sms)} SMS, {len(load.seizures)} seizures, "
            f"{len(load.notices)} notices, {sum(load.pages.values())} desk pages"
        )
        return load, kill


async def _due_over(server: PgServer, seconds: float) -> None:
    """The planned reminders made due one after another over the next ``seconds``."""
    jobs = [
        job_id
        for (job_id,) in server.query(
            "SELECT id FROM reminder_jobs WHERE status = 'pending' ORDER BY id"
        )
    ]
    step = seconds / max(1, len(jobs))
    for n, job_id in enumerate(jobs):
        server.query(
            "UPDATE reminder_jobs SET fire_at = now() + interval "
            f"'{n * step:.3f} seconds' WHERE id = {job_id}"
        )


async def _drained(server: PgServer, seconds: float) -> bool:
    """Wait (bounded) until nothing due waits to be acted on, fired or sent."""
    for _ in range(int(seconds / 0.5)):
        ((waiting,),) = server.query(
            "SELECT (SELECT count(*) FROM inbox WHERE processed_at IS NULL)"
            " + (SELECT count(*) FROM outbox WHERE status IN ('queued', 'sending')"
            "    AND next_attempt_at <= now())"
            " + (SELECT count(*) FROM reminder_jobs WHERE status = 'pending'"
            "    AND fire_at <= now())"
        )
        if not waiting:
            return True
        await asyncio.sleep(0.5)
    return False


async def _tally(
    url: str,
    db: PgServer,
    load: Load,
    twilio: TimedTwilio,
    telegram: FakeTelegram,
    kill: str,
    drained: bool,
    seconds: float,
) -> Outcome:
    requests = len(load.sms) + len(load.seizures) + len(load.notices)
    outcome = Outcome(
        f"3 instances behind nginx, 1 killed, PostgreSQL ({seconds:g} s)",
        requests,
        answered=0,
        lost=0,
        duplicated=0,
    )
    odd: Counter[str] = Counter()
    # Each outbox row handed to its provider once: per (recipient, text), the provider's
    # calls against the rows sent.
    rows = db.query(
        "SELECT idempotency_key, channel, recipient, body, status, attempts FROM outbox"
    )
    status_of = {key: status for key, _, _, _, status, _ in rows}
    expected: Counter[tuple[str, str, str]] = Counter()
    claims: dict[tuple[str, str, str], int] = {}
    for _, channel, recipient, body, status, attempts in rows:
        if status != "sent":
            continue
        if channel == "telegram":
            action = decode(body)
            if action.op != "send":
                continue
            key = ("telegram", recipient, action.text)
        else:
            key = (channel, recipient, body)
        expected[key] += 1
        claims[key] = max(claims.get(key, 0), attempts)
    got: Counter[tuple[str, str, str]] = Counter()
    for m in twilio.messages:
        got[("sms", m.get("To", ""), m.get("Body", ""))] += 1
    for call in telegram.sent():
        got[("telegram", str(call.params.get("chat_id")), call.text)] += 1
    twice = {key: got[key] - n for key, n in expected.items() if got[key] > n}
    never = {key: n - got[key] for key, n in expected.items() if got[key] < n}
    # A message in flight when its instance was killed (handed to the provider, not yet
    # recorded) is sent again by the instance that takes the claim over: at most one per
    # delivery loop of the killed instance (``bot.adapters.outbox``), and only a message
    # claimed more than once. Any other is sent twice.
    in_flight = {key: n for key, n in twice.items() if claims.get(key, 0) > 1 and n == 1}
    if len(in_flight) > IN_FLIGHT:
        in_flight = {}
    twice = {key: n for key, n in twice.items() if key not in in_flight}
    reminders_twice = sum(
        1
        for key, channel, recipient, body, status, _ in rows
        if key.startswith("rem:") and status == "sent" and _twice(twice, recipient, body)
    )
    if twice:
        outcome.duplicated += sum(twice.values())
        first = next(iter(twice))
        odd[
            f"{sum(twice.values())} message(s) handed to a provider twice, as "
            f"{first[0]} to {first[1]}: {first[2][:70]!r}"
        ] += 1
    if never:
        outcome.lost += sum(never.values())
        odd[f"{sum(never.values())} message(s) marked sent, never handed over"] += 1
    # The owners' SMS: each answered once, about its case, of its authority.
    by_sms = {
        key.removeprefix("sms-reply:"): body
        for key, _, _, body, status, _ in rows
        if key.startswith("sms-reply:") and status == "sent"
    }
    stored = {sid for (sid,) in db.query("SELECT provider_id FROM inbox WHERE channel = 'sms'")}
    wrong: list[str] = []
    cut = 0
    for asked in load.sms:
        outcome.latencies += asked.took
        outcome.late += sum(1 for took in asked.took if took > TWILIO_TIMEOUT)
        answers = [t for status, t in asked.attempts if status == 200 and t]
        if asked.sid in by_sms:
            answers.append(by_sms[asked.sid])
        if not answers:
            if asked.sid in stored:
                outcome.lost += 1
            else:
                cut += 1
            continue
        if len(answers) > 1:
            outcome.duplicated += 1
            continue
        named = set(m.group(0) for m in _CASE.finditer(answers[0]))
        if named != {asked.expect}:
            wrong.append(f"{asked.body!r} from owner {asked.owner}: {answers[0][:120]!r}")
            continue
        outcome.answered += 1
    outcome.cut = cut
    with (db.tmp.parent / "owners-answers.txt").open("w", encoding="utf-8") as out:
        for asked in load.sms:  # for whoever reads the run afterwards
            print(asked.owner, asked.body, asked.attempts, by_sms.get(asked.sid), file=out)
    if wrong:
        outcome.failures.append(f"{len(wrong)} owners' answers not about their case: {wrong[0]}")
    # The keepers' seizures: one case each, one answer naming it.
    cases = Counter(
        place
        for (place,) in db.query("SELECT place_seized FROM cases")
        if place.startswith("State")
    )
    replies = {
        key.rsplit(":", 1)[1]: key
        for key, *_ in rows
        if key.startswith("tg-reply:") and key.count(":") == 2
    }
    for seizure in load.seizures:
        reply = replies.get(str(seizure.update_id))
        answered = reply is not None and status_of.get(reply) == "sent"
        if cases[seizure.place] > 1:
            outcome.duplicated += 1
        elif cases[seizure.place] == 1 and answered:
            outcome.answered += 1
        else:
            outcome.lost += 1
            odd[f"a seizure with {cases[seizure.place]} case(s), answered: {answered}"] += 1
    # The officers' notices: each recorded once (303 once, the retry refused as stale).
    noticed = Counter(
        number
        for (number,) in db.query(
            "SELECT c.number FROM case_events e JOIN cases c ON c.id = e.case_id"
            " WHERE e.type = 'NoticePosted'"
        )
    )
    for notice in load.notices:
        if noticed[notice.case] > 1:
            outcome.duplicated += 1
        elif noticed[notice.case] == 1:
            outcome.answered += 1
        else:
            outcome.lost += 1
            odd[f"a notice not recorded: {notice.statuses}"] += 1
    # The reminders: each due job done.
    ((due_left,),) = db.query(
        "SELECT count(*) FROM reminder_jobs WHERE status IN ('pending', 'failed')"
        " AND fire_at <= now()"
    )
    ((done,),) = db.query("SELECT count(*) FROM reminder_jobs WHERE status = 'done'")
    reminders = sum(1 for key, *_ in rows if key.startswith("rem:"))
    resent = ", ".join(f"{k[0]} to {k[1]}: {k[2][:40]!r}" for k in in_flight)
    if due_left:
        odd[f"{due_left} reminder job(s) due and not sent"] += 1
    if not drained:
        odd["the outbox or the inbox not drained within 120 s"] += 1
    errors = Counter(status for status in load.pages.elements())
    pages_failed = {page: n for page, n in errors.items() if not page.endswith(" 200")}
    if pages_failed:
        odd[f"desk pages not 200: {pages_failed}"] += 1
    scope, shown = await _log_scope(url, load)
    if scope:
        outcome.failures.append(scope)
    for what, count in odd.most_common():
        outcome.failures.append(what if count == 1 else f"{count}: {what}")
    retried = sum(1 for s in load.sms if len(s.attempts) > 1) + sum(
        1 for s in load.seizures if len(s.statuses) > 1
    )
    outcome.note = (
        f"{kill}; {len(load.sms)} owners' SMS, {len(load.seizures)} Telegram seizures, "
        f"{len(load.notices)} desk notices, {sum(load.pages.values())} desk pages; "
        f"{retried} sent again after a 502 or a cut; {len(by_sms)} SMS answered by the "
        f"sweep; {done} reminder jobs done, {reminders} reminder messages, "
        f"{reminders_twice} sent twice; in flight at the kill and sent again by the "
        f"instance taking the claim over: {len(in_flight)}"
        + (f" ({resent})" if resent else "")
        + f"; {shown}"
    )
    return outcome


def _twice(twice: dict[tuple[str, str, str], int], recipient: str, body: str) -> bool:
    text_of = decode(body).text
    return any(key[1] == recipient and key[2] in (body, text_of) for key in twice)


async def _log_scope(url: str, load: Load) -> tuple[str, str]:
    """What the desk's log of messages (``bot.services.messages.log``, the Messages page)
    shows each authority's admin of an owner with a case in each: ("" if each sees that
    owner's messages about its own case and none about the other's, else what is wrong;
    what each saw)."""
    owner = next((i for i, cases in enumerate(load.people.owners) if len(cases) == 2), None)
    if owner is None:
        return "", "no owner with a case in each authority"
    mine = dict(zip(("KNM", "ENM"), load.people.owners[owner], strict=True))
    seen: dict[str, Counter[str]] = {}
    config = str(load.people.config)
    async with open_app(url=url, file=config) as app, app.store.reading() as tx:
        for pound, admin in load.people.admins.items():
            fresh = await tx.session.scalar(select(User).where(User.id == admin.id))
            assert fresh is not None
            found = await message_log.log(
                tx,
                app.deps,
                caller_of(fresh, "web"),
                message_log.MessageFilter(phone=owner_phone(owner)),
            )
            seen[pound] = Counter(item.case for item in found.items)
    shown = "; ".join(
        f"{pound}'s admin: " + ", ".join(f"{n} about {case or 'no case'}" for case, n in c.items())
        for pound, c in seen.items()
    )
    wrong = [pound for pound, c in seen.items() if not c or set(c) != {mine[pound]}]
    if wrong:
        return f"the log of owner {owner}'s messages ({mine}): {shown}", shown
    return "", f"owner {owner}'s messages in the log: {shown}"
