"""Two people take the same step on one case at the same moment, each through an instance
of poundbot of its own on one database: by the web desk's form (signed in, with its CSRF
token) or by a signed SMS webhook. Exactly one is recorded; the other is answered with
the step's own refusal, word for word what the same step sent a moment later gets: never
a 500, never "Sorry, we could not process". The money is posted once.

On PostgreSQL a third connection holds the case's row lock (as a step in progress does)
until both requests wait for it: each has read what it reads before the lock when the
first of them takes it, the worst order, every run. On SQLite a transaction holds the
whole database from its first statement, so the two simply race.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime

import httpx
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine
from twilio.request_validator import RequestValidator

from bot.bootstrap import load, open_app
from bot.channels.identity import caller_of
from bot.config.settings import Settings
from bot.conversation.reply import handle_text
from bot.entry.app import build_app
from bot.fakes.loopback import serve
from bot.fakes.twilio_api import FakeTwilio
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.services.web_signin import issue_link_for
from bot.store.models import CaseEvent, CaseRow, LedgerEntry, Payment, SettlementRow, User
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ

PUBLIC_URL = "http://desk.test"  # http: the session cookie is not Secure on loopback
TOKEN = "twilio-test-auth-token"
SID = "AC" + "0" * 32
FROM = "+14155550100"
SECRET = "test-secret-of-the-web-desk"
_MESSAGE = re.compile(r"<Message>(.*)</Message>", re.S)
_REPLY = re.compile(r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', re.S)
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_SEEN = re.compile(r'name="seen" value="(\d+)"')
_SIGNIN = re.compile(r'name="signin" value="([^"]+)"')

#: Who takes the step by which channel: the first person through the first instance,
#: the second through the second.
PAIRS = [("web", "web"), ("sms", "sms"), ("web", "sms")]
#: A case for each pair.
CASES = [f"KNM-{n}" for n in range(1, len(PAIRS) + 1)]


@dataclass
class Person:
    """A keeper or an officer: their user, and a browser of their own."""

    user: User
    browser: httpx.AsyncClient


@dataclass
class Instances:
    """Two instances of poundbot on one database, and the people who use them."""

    bases: list[str]
    apps: list[App]
    clock: FixedClock
    http: httpx.AsyncClient
    keepers: list[Person]
    officers: list[Person]

    def on(self, day: int) -> None:
        self.clock.set(datetime(2026, 3, day, 10, 0, tzinfo=LOCAL_TZ))

    async def say(self, person: Person, line: str) -> None:
        """A line ``person`` sends, through the first instance's dispatcher: recorded."""
        app = self.apps[0]
        async with app.store.transaction() as tx:
            user = await tx.session.get(User, person.user.id)
            assert user is not None
            reply = await handle_text(tx, app.deps, caller_of(user, "sms"), line, sms=True)
        assert not reply.refused, reply.text

    async def sign_in(self, person: Person, instance: int) -> None:
        async with self.apps[0].store.transaction() as tx:
            path = f"/web/signin/{await issue_link_for(tx, person.user.id)}"
        url = self.bases[instance] + path
        page = await person.browser.get(url)
        found = _SIGNIN.search(page.text)
        form = {"signin": found.group(1)} if found else {}
        signed = await person.browser.post(url, data=form, headers={"Origin": PUBLIC_URL})
        assert signed.status_code == 303, signed.text[-1000:]

    async def page(self, person: Person, instance: int, number: str) -> dict[str, str]:
        """The hidden fields of the step forms of a case's page, as ``person`` sees it:
        the CSRF token and how many events the case had (on a page with no step left to
        take, as many as it has)."""
        page = await person.browser.get(f"{self.bases[instance]}/web/cases/{number}")
        assert page.status_code == 200, page.text[-1000:]
        csrf, seen = _CSRF.search(page.text), _SEEN.search(page.text)
        assert csrf, "no CSRF token on the page"
        if seen is not None:
            return {"csrf": csrf.group(1), "seen": seen.group(1)}
        async with self.apps[0].store.transaction() as tx:
            events = len((await tx.load_case(number)).case.events)
        return {"csrf": csrf.group(1), "seen": str(events)}

    async def post_form(
        self, person: Person, instance: int, number: str, step: str, form: dict[str, str]
    ) -> tuple[int, str]:
        """Post a step's form: (the status, the reply shown); a step recorded is
        followed to the case page, where its reply is shown once."""
        base = self.bases[instance]
        done = await person.browser.post(f"{base}/web/cases/{number}/{step}", data=form)
        status = done.status_code
        if status == 303:
            done = await person.browser.get(base + done.headers["location"])
        found = _REPLY.search(done.text)
        return status, html.unescape(found.group(1).strip()) if found else done.text[-500:]

    async def sms(self, person: Person, instance: int, body: str, sid: str) -> tuple[int, str]:
        """A signed Twilio webhook: (the status, the answer's text)."""
        params = {
            "MessageSid": sid,
            "From": person.user.phone or "",
            "To": FROM,
            "Body": body,
            "FromCity": "",
            "NumMedia": "0",
            "AccountSid": SID,
        }
        signature = RequestValidator(TOKEN).compute_signature(PUBLIC_URL + "/twilio/sms", params)
        response = await self.http.post(
            f"{self.bases[instance]}/twilio/sms",
            data=params,
            headers={"X-Twilio-Signature": signature},
        )
        found = _MESSAGE.search(response.text)
        return response.status_code, html.unescape(found.group(1)) if found else response.text


@asynccontextmanager
async def instances(engine: AsyncEngine) -> AsyncIterator[Instances]:
    """Two poundbot servers on loopback over the database of ``engine``, on 1 March 2026;
    two keepers of KNM and two officers of its authority, each with a browser."""
    url = engine.url.render_as_string(hide_password=False)
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    twilio = FakeTwilio(account=(SID, TOKEN))
    # The SMS the steps queue go out at once, not one a second: a server stops once the
    # batch it is sending is sent.
    config = load()
    config = config._replace(reminders=config.reminders._replace(sms_per_second=100.0))
    apps: list[App] = []

    def factory() -> AbstractAsyncContextManager[App]:
        @asynccontextmanager
        async def opened() -> AsyncIterator[App]:
            async with open_app(url=url, clock=clock, config=config, migrate=False) as app:
                apps.append(app)
                yield app

        return opened()

    async with AsyncExitStack() as stack:
        twilio_url = await stack.enter_async_context(serve(twilio.app()))
        settings = Settings(
            public_url=PUBLIC_URL,
            twilio_sid=SID,
            twilio_token=TOKEN,
            twilio_from=FROM,
            twilio_api_url=twilio_url,
            link_secret=SECRET,
        )
        bases = [
            await stack.enter_async_context(serve(build_app(factory, settings))) for _ in range(2)
        ]
        people: dict[str, list[Person]] = {"keeper": [], "officer": []}
        async with apps[0].store.transaction() as tx:
            for n, role in enumerate(["keeper", "keeper", "officer", "officer"]):
                user = await add_user(
                    tx,
                    apps[0].deps,
                    Caller.system(),
                    role=role,
                    pound="KNM" if role == "keeper" else None,
                    authority="KNM-GP" if role == "officer" else None,
                    phone=f"+91984700003{n}",
                    name=f"{role.title()} {n}",
                    lang="en",
                )
                browser = await stack.enter_async_context(httpx.AsyncClient(timeout=30))
                people[role].append(Person(user, browser))
        http = await stack.enter_async_context(httpx.AsyncClient(timeout=30))
        yield Instances(bases, apps, clock, http, people["keeper"], people["officer"])


async def _seized(run: Instances) -> None:
    """The cases, one cow each, brought to the pound on 1 March."""
    for _ in CASES:
        await run.say(run.keepers[0], "SEIZE 1 cow AT Kunnamangalam market")


async def _due_for_report(run: Instances) -> None:
    """... on 9 March, unclaimed for seven days (s.13(1))."""
    await _seized(run)
    run.on(9)


async def _selling(run: Instances) -> None:
    """... reported, their notices posted, their auction on the 20th: that day."""
    await _due_for_report(run)
    for n in CASES:
        await run.say(run.keepers[0], f"REPORT {n}")
        await run.say(run.officers[0], f"NOTICE {n} AT Kunnamangalam")
    run.on(17)
    for n in CASES:
        await run.say(run.officers[0], f"AUCTION {n} ON 20-03-2026 AT Panchayat office yard")
    run.on(20)


async def _sold(run: Instances) -> None:
    """... where each cow was sold: the sales to settle."""
    await _selling(run)
    for n in CASES:
        await run.say(run.officers[0], f"SOLD {n} 1 1 30000 TO Vasu, Chathamangalam DECLARED")


@dataclass(frozen=True)
class Step:
    """A step two people take at once: who, the cases before it, its word, its form."""

    name: str
    role: str
    before: Callable[[Instances], Awaitable[None]]
    word: str
    form: dict[str, str]
    event: str


STEPS = [
    Step("settle", "officer", _sold, "SETTLE {case} 500", {"amount": "500"}, "SaleClosed"),
    Step("paid", "keeper", _seized, "PAID {case}", {}, "ClaimedAndPaid"),
    Step("report", "keeper", _due_for_report, "REPORT {case}", {}, "ReportedUnclaimed"),
    Step(
        "sold",
        "officer",
        _selling,
        "SOLD {case} 1 1 30000 TO Vasu, Chathamangalam DECLARED",
        {
            "lot": "1",
            "count": "1",
            "amount": "30000",
            "person": "Vasu",
            "place": "Chathamangalam",
            "confirm": "yes",
        },
        "LotOffered",
    ),
]


@dataclass(frozen=True)
class Written:
    """What a case has in the database: its events by type, its ledger lines, its
    payments and its settlements."""

    events: list[str]
    ledger: int
    payments: int
    settlements: int


async def _written(engine: AsyncEngine, number: str) -> Written:
    async with engine.connect() as conn:
        case_id = await conn.scalar(select(CaseRow.id).where(CaseRow.number == number))
        events = await conn.execute(
            select(CaseEvent.type).where(CaseEvent.case_id == case_id).order_by(CaseEvent.seq)
        )
        counts = [
            int(
                await conn.scalar(
                    select(func.count()).select_from(model).where(model.case_id == case_id)
                )
                or 0
            )
            for model in (LedgerEntry, Payment, SettlementRow)
        ]
    return Written(list(events.scalars()), *counts)


@asynccontextmanager
async def _case_held(
    engine: AsyncEngine, number: str
) -> AsyncIterator[Callable[[int], Awaitable[None]]]:
    """On PostgreSQL, the case's row locked by another transaction (a step in progress)
    while the block runs; it gives a wait for ``n`` requests to be waiting for a lock.
    On SQLite, nothing held (a transaction holds the database from its first statement)."""
    if engine.dialect.name != "postgresql":

        async def racing(n: int) -> None:
            return None

        yield racing
        return
    async with engine.connect() as holder:
        locked = text("SELECT id FROM cases WHERE number = :number FOR UPDATE")
        await holder.execute(locked, {"number": number})
        waiting = text(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )

        async def waited(n: int) -> None:
            async with engine.connect() as watcher:
                for _ in range(400):  # 20 s at most
                    if await watcher.scalar(waiting) == n:
                        return
                    await asyncio.sleep(0.05)
            raise AssertionError(f"{n} requests never waited for the case's lock")

        try:
            yield waited
        finally:
            await holder.rollback()


async def _race(
    run: Instances, engine: AsyncEngine, step: Step, number: str, channels: tuple[str, str]
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The step taken on case ``number`` at once by the two people of its role, each by
    their channel on an instance of their own; then by each again, a moment later. The
    answers of both rounds."""
    people = run.keepers if step.role == "keeper" else run.officers
    word = step.word.format(case=number)
    forms = {
        i: {**await run.page(people[i], i, number), **step.form}
        for i, channel in enumerate(channels)
        if channel == "web"
    }

    async def take(i: int, round_: str) -> tuple[int, str]:
        if channels[i] == "web":
            return await run.post_form(people[i], i, number, step.name, forms[i])
        return await run.sms(people[i], i, word, f"SM{round_}{number}x{i}")

    async with _case_held(engine, number) as waited:
        racing = [asyncio.create_task(take(i, "race")) for i in range(2)]
        await waited(2)
    answers = await asyncio.gather(*racing)
    for i, channel in enumerate(channels):  # from the page as it is now
        if channel == "web":
            forms[i] = {**await run.page(people[i], i, number), **step.form}
    later = [await take(i, "later") for i in range(2)]
    return answers, later


@pytest.mark.parametrize("step", STEPS, ids=[s.name for s in STEPS])
async def test_two_people_take_one_step_at_once_one_is_recorded_the_other_refused(
    engine: AsyncEngine, step: Step
) -> None:
    async with instances(engine) as run:
        await step.before(run)
        people = run.keepers if step.role == "keeper" else run.officers
        for i in range(2):
            await run.sign_in(people[i], i)
        for number, channels in zip(CASES, PAIRS, strict=True):
            before = await _written(engine, number)
            answers, later = await _race(run, engine, step, number, channels)
            after = await _written(engine, number)
            # Recorded: a form followed to the case page (303), an SMS answered with
            # something else than the refusal the same SMS gets a moment later.
            recorded = [
                i
                for i, answer in enumerate(answers)
                if (answer[0] == 303 if channels[i] == "web" else answer != later[i])
            ]
            assert len(recorded) == 1, (number, channels, answers, later)
            for i, (status, reply) in enumerate(answers):
                refused = later[i]
                assert refused[0] == (409 if channels[i] == "web" else 200), refused
                assert "Sorry" not in reply
                if i not in recorded:  # the step's own refusal, word for word
                    assert (status, reply) == refused, (number, channels)
            assert after.events == [*before.events, step.event]
            paid = 1 if step.name == "paid" else 0
            settled = 1 if step.name == "settle" else 0
            assert after.payments == before.payments + paid
            assert after.settlements == before.settlements + settled
            assert (after.ledger > before.ledger) == bool(paid or settled)
