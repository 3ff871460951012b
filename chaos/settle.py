"""Two officers settle the same sale at the same moment, each through a ``poundbot serve``
of its own on one database: is the sale settled once, and the other officer refused?

``cases`` sales wait to be settled (one cow each, seized, reported, noticed, auctioned
and sold in the weeks before today). For each, two officers of the authority send
``SETTLE`` at once, each to one of two server processes: by the web desk's form
(signed in, with its CSRF token), by a signed Twilio SMS webhook, or one of each, in
turn. Each then sends it again, a moment later: the answer the step is given once the
sale is settled. The pass line: each sale settled once (one settlement, one set of
ledger lines); of each pair, one answer says it was settled and the other is the
refusal, word for word as it is given a moment later: no 500, no "Sorry, we could not
process your message". On PostgreSQL when ``pg_url`` is given, else on one SQLite file.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import time as clock_time
from pathlib import Path

import httpx
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine
from twilio.request_validator import RequestValidator

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.conversation.reply import handle_text
from bot.fakes.loopback import bind, serve
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.services.web_signin import issue_link_for
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.models import (
    CaseEvent,
    CaseRow,
    DeadlineRow,
    LedgerEntry,
    ReminderJob,
    SettlementRow,
    User,
)
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock, SystemClock, local_today
from chaos.outbox import _database, _drop
from chaos.report import Outcome, progress
from chaos.sms import FROM, ROOT, SID, TOKEN, Server, TimedTwilio, _config
from domain.calendar import LOCAL_TZ

__all__ = ["concurrent_settle"]

#: The web desk's address: http, so that the session cookie goes to loopback.
PUBLIC = "http://pound.example.org"
SECRET = "chaos-web-desk-secret-of-32-chars-or-more"
KEEPER = "+919800000100"


def officer(n: int) -> str:
    """The telephone number of officer ``n``."""
    return f"+9198001{n:05d}"


#: How the two officers send their SETTLE, in turn (the first to the first server).
PAIRS = (("web", "web"), ("sms", "sms"), ("web", "sms"))
_MESSAGE = re.compile(r"<Message>(.*)</Message>", re.S)
_REPLY = re.compile(r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', re.S)
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_SIGNIN = re.compile(r'name="signin" value="([^"]+)"')


@dataclass
class Answer:
    """What one SETTLE got: the HTTP status, the text shown or sent back, the time."""

    status: int
    text: str
    took: float


async def _prepare(url: str, cases: int, config: Path) -> tuple[list[str], list[tuple[User, User]]]:
    """The people, and ``cases`` sales to settle today: seized 40 days ago, reported
    unclaimed and noticed on the 8th day, the auction fixed on the 16th for the 19th,
    where the cow was sold. The numbers of the cases, and the two officers who settle
    each (two of their own, so that a limit on answers per sender is not what is
    measured). The database's first start imports ``config``, the servers' configuration."""
    first = local_today(SystemClock()) - timedelta(days=40)
    clock = FixedClock(datetime.combine(first, clock_time(10), LOCAL_TZ))
    async with open_app(url=url, clock=clock, migrate=True, file=str(config)) as app:
        async with app.store.transaction() as tx:
            keeper = await add_user(
                tx, app.deps, Caller.system(), role="keeper", pound="KNM", phone=KEEPER, lang="en"
            )
            officers = [
                await add_user(
                    tx,
                    app.deps,
                    Caller.system(),
                    role="officer",
                    authority="KNM-GP",
                    phone=officer(n),
                    name=f"Officer {n}",
                    lang="en",
                )
                for n in range(2 * cases)
            ]
        numbers = [await _say(app, keeper, "SEIZE 1 cow AT Chaos market") for _ in range(cases)]
        auction = first + timedelta(days=19)
        for day, lines in (
            (8, [(keeper, "REPORT {n}"), (officers[0], "NOTICE {n} AT Kunnamangalam")]),
            (16, [(officers[0], f"AUCTION {{n}} ON {auction:%d-%m-%Y} AT Panchayat yard")]),
            (19, [(officers[0], "SOLD {n} 1 1 30000 TO Vasu, Chathamangalam DECLARED")]),
        ):
            clock.set(datetime.combine(first + timedelta(days=day), clock_time(10), LOCAL_TZ))
            for number in numbers:
                for user, line in lines:
                    await _say(app, user, line.format(n=number))
    return numbers, list(zip(officers[::2], officers[1::2], strict=True))


async def _say(app: App, user: User, line: str) -> str:
    """A line sent by ``user``, through the dispatcher: recorded (the case it names)."""
    async with app.store.transaction() as tx:
        fresh = await tx.session.get(User, user.id)
        assert fresh is not None
        reply = await handle_text(tx, app.deps, caller_of(fresh, "sms"), line, sms=True)
    if reply.refused or reply.loaded is None:
        raise RuntimeError(f"{line!r} was refused: {reply.text}")
    return reply.loaded.row.number


@dataclass
class Desk:
    """The two servers, the officers' browsers, Twilio posting their SMS, and the
    database (to sign in, to count a case's events)."""

    servers: list[Server]
    twilio: httpx.AsyncClient
    store: Store
    browsers: list[httpx.AsyncClient] = field(default_factory=list)
    officers: tuple[User, User] | None = None
    sent: int = 0

    async def sign_in(self, officers: tuple[User, User], browsers: list[httpx.AsyncClient]) -> None:
        """The two officers of a sale, each signed in in a browser of their own."""
        self.officers, self.browsers = officers, browsers
        for who, user in enumerate(officers):
            async with self.store.transaction() as tx:
                link = f"{self.servers[who].base}/web/signin/{await issue_link_for(tx, user.id)}"
            page = await browsers[who].get(link)
            found = _SIGNIN.search(page.text)
            form = {"signin": found.group(1)} if found else {}
            signed = await browsers[who].post(link, data=form, headers={"Origin": PUBLIC})
            if signed.status_code != 303:
                raise RuntimeError(f"{user.name} could not sign in: {signed.status_code}")

    async def form(self, who: int, number: str) -> dict[str, str]:
        """The fields of the SETTLE form of ``number`` as officer ``who``'s page has them:
        its CSRF token and how many events the case had (a page with no step left to
        take has no form: as many as the case has)."""
        page = await self.browsers[who].get(f"{self.servers[who].base}/web/cases/{number}")
        csrf = _CSRF.search(page.text)
        if csrf is None:
            raise RuntimeError(f"no CSRF token on the page of {number}: {page.status_code}")
        seen = re.search(r'name="seen" value="(\d+)"', page.text)
        if seen is not None:
            return {"csrf": csrf.group(1), "seen": seen.group(1), "amount": "500"}
        async with self.store.transaction() as tx:
            events = len((await tx.load_case(number)).case.events)
        return {"csrf": csrf.group(1), "seen": str(events), "amount": "500"}

    async def settle(self, who: int, channel: str, number: str, form: dict[str, str]) -> Answer:
        """Officer ``who`` sends SETTLE for ``number`` to server ``who``."""
        started = time.monotonic()
        base = self.servers[who].base
        try:
            if channel == "web":
                browser = self.browsers[who]
                done = await browser.post(f"{base}/web/cases/{number}/settle", data=form)
                status = done.status_code
                if status == 303:
                    done = await browser.get(base + done.headers["location"])
                found = _REPLY.search(done.text)
                text = html.unescape(found.group(1).strip()) if found else done.text[:200]
                return Answer(status, text, time.monotonic() - started)
            self.sent += 1
            assert self.officers is not None
            params = {
                "MessageSid": f"SMsettle{self.sent}",
                "AccountSid": SID,
                "From": self.officers[who].phone or "",
                "To": FROM,
                "Body": f"SETTLE {number} 500",
                "NumMedia": "0",
            }
            signature = RequestValidator(TOKEN).compute_signature(PUBLIC + "/twilio/sms", params)
            response = await self.twilio.post(
                f"{base}/twilio/sms", data=params, headers={"X-Twilio-Signature": signature}
            )
            found = _MESSAGE.search(response.text)
            text = html.unescape(found.group(1)) if found else response.text[:200]
            return Answer(response.status_code, text, time.monotonic() - started)
        except httpx.HTTPError as exc:
            return Answer(0, f"no answer: {exc!r}", time.monotonic() - started)


async def concurrent_settle(tmp: Path, *, cases: int, pg_url: str | None) -> Outcome:
    """``cases`` sales, each settled by two officers at once on two servers; counted."""
    url, dropped = await _database(tmp, pg_url)
    engine_name = "PostgreSQL" if pg_url else "SQLite"
    try:
        progress(f"settle: {cases} sales to settle, 2 servers on {engine_name}")
        numbers, officers = await _prepare(url, cases, _config(tmp))
        answers, settlements, ledger = await _race(tmp, url, numbers, officers)
    finally:
        if dropped and pg_url:
            await _drop(pg_url, dropped)
    return _tally(numbers, answers, settlements, ledger, engine_name)


async def _race(
    tmp: Path, url: str, numbers: list[str], officers: list[tuple[User, User]]
) -> tuple[dict[str, list[tuple[str, Answer, Answer]]], Counter[str], dict[str, int]]:
    """Start the servers and race; per case, each officer's channel, answer and answer a
    moment later; the settlements of each case and the events its ledger lines come from."""
    twilio = TimedTwilio()
    config = _config(tmp)
    async with serve(twilio.app()) as twilio_url:
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
        }
        servers = []
        for name in ("a", "b"):
            sock = bind()
            port = sock.getsockname()[1]
            sock.close()  # a free port for the server (loopback only)
            folder = tmp / name
            folder.mkdir(parents=True, exist_ok=True)
            servers.append(Server(folder, twilio, env, port))
        engine = make_engine(url)
        try:
            await asyncio.gather(*(s.start() for s in servers))
            await _quiet(engine)
            answers = await _settle_all(servers, engine, numbers, officers)
        finally:
            await asyncio.gather(*(s.stop() for s in servers))
    try:
        async with engine.connect() as conn:
            settled = Counter(
                number
                for (number,) in await conn.execute(
                    select(CaseRow.number).join(SettlementRow, SettlementRow.case_id == CaseRow.id)
                )
            )
            posted = {
                number: int(events)
                for number, events in await conn.execute(
                    select(CaseRow.number, func.count(func.distinct(LedgerEntry.event_id)))
                    .join(LedgerEntry, LedgerEntry.case_id == CaseRow.id)
                    .join(CaseEvent, CaseEvent.id == LedgerEntry.event_id)
                    .where(CaseEvent.type == "SaleClosed")
                    .group_by(CaseRow.number)
                )
            }
    finally:
        await engine.dispose()
    return answers, settled, posted


async def _quiet(engine: AsyncEngine, seconds: float = 600.0) -> None:
    """Wait (bounded) until the servers have planned and sent the reminders of the weeks
    the sales took, due at their start: a step on a case waits while the reminders of
    its deadlines are being sent, and what is measured here is two steps at once."""
    started = time.monotonic()
    planned = select(func.count()).select_from(DeadlineRow).where(DeadlineRow.needs_plan)
    while time.monotonic() - started < seconds:
        await asyncio.sleep(0.5)
        due = (
            select(func.count())
            .select_from(ReminderJob)
            .where(ReminderJob.status == "pending", ReminderJob.fire_at <= SystemClock().now())
        )
        try:
            async with engine.connect() as conn:
                if await conn.scalar(planned) or await conn.scalar(due):
                    continue
        except OperationalError:  # SQLite: a server holds the database (sending them)
            continue
        progress(f"settle: the reminders due at start sent in {time.monotonic() - started:.0f} s")
        return
    raise RuntimeError(f"the reminders due at start were not sent within {seconds:g} s")


async def _settle_all(
    servers: list[Server],
    engine: AsyncEngine,
    numbers: list[str],
    officers: list[tuple[User, User]],
) -> dict[str, list[tuple[str, Answer, Answer]]]:
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as twilio:
        desk = Desk(servers, twilio, Store(make_sessionmaker(engine), SystemClock()))
        answers: dict[str, list[tuple[str, Answer, Answer]]] = {}
        for n, (number, pair) in enumerate(zip(numbers, officers, strict=True)):
            channels = PAIRS[n % len(PAIRS)]
            async with (
                httpx.AsyncClient(timeout=60, limits=limits) as first,
                httpx.AsyncClient(timeout=60, limits=limits) as second,
            ):
                await desk.sign_in(pair, [first, second])
                forms = [await desk.form(who, number) for who in range(2)]
                race = await asyncio.gather(
                    *(desk.settle(who, channels[who], number, forms[who]) for who in range(2))
                )
                fresh = [await desk.form(who, number) for who in range(2)]
                later = [
                    await desk.settle(who, channels[who], number, fresh[who]) for who in range(2)
                ]
            answers[number] = [(channels[who], race[who], later[who]) for who in range(2)]
            if (n + 1) % 20 == 0:
                progress(f"settle: {n + 1} of {len(numbers)} sales")
        return answers


def _settled(channel: str, answer: Answer) -> bool:
    """Whether ``answer`` says the sale was settled: a form followed to the case page
    (303), an SMS answered with the settlement."""
    if channel == "web":
        return answer.status == 303
    return answer.status == 200 and "sale settled" in answer.text


def _tally(
    numbers: list[str],
    answers: dict[str, list[tuple[str, Answer, Answer]]],
    settlements: Counter[str],
    posted: dict[str, int],
    engine_name: str,
) -> Outcome:
    """Per sale: settled once (one settlement row, the ledger lines of one event), one
    answer saying so and the other the refusal the step gets a moment later."""
    outcome = Outcome(
        f"SETTLE by 2 officers at once, 2 servers, {engine_name} ({len(numbers)} sales)",
        2 * len(numbers),
        answered=0,
        lost=0,
        duplicated=0,
    )
    errors: Counter[str] = Counter()
    refused = 0
    for number in numbers:
        recorded = 0
        for channel, answer, later in answers[number]:
            outcome.latencies.append(answer.took)
            if _settled(channel, answer):
                recorded += 1
            elif later.status in (200, 409) and (answer.status, answer.text) == (
                later.status,
                later.text,
            ):
                refused += 1
            else:
                errors[f"{channel}: {answer.status} {answer.text[:60]}"] += 1
                continue
            outcome.answered += 1
        if settlements[number] == 0 or recorded == 0:
            outcome.lost += 1
        if settlements[number] > 1 or recorded > 1 or posted.get(number, 0) > 1:
            outcome.duplicated += 1
    for error, count in errors.most_common():
        outcome.failures.append(f"{count} answered {error!r}")
    outcome.note = (
        f"{sum(settlements.values())} settlements for {len(numbers)} sales; {refused} "
        "officers refused (the sale was settled); by web form, SMS, or one of each"
    )
    return outcome
