"""The reminder engine, driven through the use cases with a fixed clock: who is told what,
on which local day and at what hour, exactly once, in their own language.

Reminders go out at the configured time (08:00 Asia/Kolkata in the sample
configuration). Each test runs the engine at 07:59, 08:00 and 13:00 of every day it
passes through, and right after each step of the case, and compares everything queued
in the outbox with the expected messages, rendered by ``render.reminder`` and
``render.digest`` in the recipient's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update

from bot.config import Config
from bot.i18n import render, translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.public.sms_fit import sms_parts
from bot.reminders.dispatch import Pass, claim, fire_claimed, remind_once
from bot.reminders.listing import deadline_lines
from bot.reminders.plan import plan_pending
from bot.services import admin
from bot.services import keeper as k
from bot.services import officer as o
from bot.services.base import Deps
from bot.store.instances import DEAD_AFTER, beat
from bot.store.models import DeadlineRow, OutboxRow, ReminderJob
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.dlt import DltPolicy, registry
from domain.calendar import LOCAL_TZ
from domain.deadlines import Deadline, DeadlineKind, Role
from domain.money import Money
from domain.s07_seizure import Person
from tests.service.helpers import seizure

REPORT, NOTICE = DeadlineKind.REPORT_DUE, DeadlineKind.NOTICE_DUE
LAWFUL, AUCTION = DeadlineKind.AUCTION_LAWFUL, DeadlineKind.AUCTION_DAY
FUND, WINDOW = DeadlineKind.CREDIT_TO_FUND, DeadlineKind.COMPLAINT_WINDOW_ENDS


def local(day: date, hour: int = 8, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=LOCAL_TZ)


def d(day: int, month: int = 3) -> date:
    return date(2026, month, day)


@dataclass(frozen=True, slots=True)
class Recipient:
    """A registered user as the outbox addresses them, and their language."""

    to: str
    lang: str


# The keeper of KNM (Tamil), and the two officers of KNM-GP: one who chose English and
# is on Telegram, one on SMS who chose nothing (KNM-GP's default language: Malayalam).
KEEPER = Recipient("telegram:101", "ta")
OFFICERS = (Recipient("telegram:201", "en"), Recipient("sms:+919847000202", "ml"))

Message = tuple[str, str, str]  # (local time, channel:recipient, body)


@pytest.fixture
async def people(store: Store, deps: Deps) -> None:
    """The people above, and two who must hear nothing of KNM's cases."""
    system = Caller.system()
    async with store.transaction() as tx:
        await admin.add_user(
            tx, deps, system, role="keeper", pound="KNM", telegram_id=101, lang="ta"
        )
        await admin.add_user(
            tx, deps, system, role="officer", authority="KNM-GP", telegram_id=201, lang="en"
        )
        await admin.add_user(
            tx, deps, system, role="officer", authority="KNM-GP", phone="+919847000202"
        )
        await admin.add_user(tx, deps, system, role="keeper", pound="PTM", telegram_id=301)
        await admin.add_user(tx, deps, system, role="officer", authority="ENM-GP", telegram_id=401)


class Engine:
    """Runs the reminder engine as the clock moves, and collects what it queues."""

    def __init__(self, store: Store, config: Config, clock: FixedClock) -> None:
        self.store, self.config, self.clock = store, config, clock
        self.seen = 0
        self.queued: list[Message] = []

    async def run(self) -> list[Message]:
        """One pass now; the messages it queued."""
        await remind_once(self.store, self.config, "test", breather=0)
        async with self.store.transaction() as tx:
            rows = (
                await tx.session.execute(
                    select(OutboxRow).where(OutboxRow.id > self.seen).order_by(OutboxRow.id)
                )
            ).scalars()
            new = list(rows)
        self.seen = max([self.seen, *(r.id for r in new)])
        messages = [
            (
                r.created_at.astimezone(LOCAL_TZ).strftime("%Y-%m-%d %H:%M"),
                f"{r.channel}:{r.recipient}",
                r.body,
            )
            for r in new
        ]
        self.queued += messages
        return messages

    async def until(self, when: datetime) -> None:
        """Run at 07:59, 08:00 and 13:00 of each day up to ``when``, then at ``when``."""
        start = self.clock.now()
        day = start.astimezone(LOCAL_TZ).date()
        while day <= when.date():
            for hour, minute in ((7, 59), (8, 0), (13, 0)):
                moment = local(day, hour, minute)
                if start < moment <= when:
                    self.clock.set(moment)
                    await self.run()
            day += timedelta(days=1)
        self.clock.set(when)
        await self.run()


@pytest.fixture
def engine_(store: Store, config: Config, clock: FixedClock, people: None) -> Engine:
    return Engine(store, config, clock)


def told(
    when: datetime,
    who: Sequence[Recipient],
    kind: DeadlineKind,
    due: date,
    case: str = "KNM-1",
) -> list[Message]:
    """The reminder each of ``who`` gets at ``when``, in their language."""
    stamp = when.strftime("%Y-%m-%d %H:%M")
    today = when.date()
    return [
        (
            stamp,
            p.to,
            render.reminder(kind, case, due, today, translator(p.lang), to_officer=p in OFFICERS),
        )
        for p in who
    ]


def digest_to(
    when: datetime, who: Sequence[Recipient], items: Sequence[tuple[str, Deadline]]
) -> list[Message]:
    stamp = when.strftime("%Y-%m-%d %H:%M")
    out = []
    for p in who:
        with rendering_sms(p.to.startswith("sms:")):  # by SMS within the staff budget
            out.append((stamp, p.to, render.digest(items, when.date(), translator(p.lang))))
    return out


def same(actual: list[Message], expected: list[Message]) -> None:
    """The same messages, each exactly once (order of queuing within a minute aside)."""
    assert sorted(actual) == sorted(expected)


async def _jobs(store: Store, *statuses: str) -> list[ReminderJob]:
    async with store.transaction() as tx:
        query = select(ReminderJob).order_by(ReminderJob.id)
        if statuses:
            query = query.where(ReminderJob.status.in_(statuses))
        return list((await tx.session.execute(query)).scalars())


async def _lot(
    store: Store, deps: Deps, officer: Caller, lot: int, count: int, rupees: int
) -> None:
    async with store.transaction() as tx:
        await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=lot,
            count=count,
            price=Money.rupees(rupees),
            buyer=Person("Mammu"),
            buyer_role=None,
            declared_not_barred=True,
        )


# -- the whole chain -----------------------------------------------------------------------


async def test_an_unclaimed_case_reminds_each_step_of_the_act_on_its_day_once(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # impounded 1 March
    await engine_.until(local(d(9), 11))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")  # s.13(1), on the day
    await engine_.until(local(d(11), 12))
    async with store.transaction() as tx:
        await o.record_notice(tx, deps, officer, "KNM-1", proclaimed_at=("Kunnamangalam",))
    await engine_.until(local(d(19), 12))  # s.13(3): lawful from 19 March
    async with store.transaction() as tx:
        await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=d(25), place="Kunnamangalam market"
        )
    await engine_.until(local(d(25), 12))
    await _lot(store, deps, officer, 0, 2, 40000)
    await _lot(store, deps, officer, 1, 1, 30000)
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(1500))
    await engine_.until(local(d(26, 6), 12))  # s.16(3): 25 March + 3 months, then s.17(1)
    async with store.transaction() as tx:
        await o.credit_deposit_to_fund(tx, deps, officer, "KNM-1")
    await engine_.until(local(d(30, 6), 13))

    same(
        engine_.queued,
        told(local(d(9)), [KEEPER], REPORT, d(9))  # s.13(1): "report KNM-1 today"
        + told(local(d(10)), OFFICERS, NOTICE, d(9))  # s.13(2): each morning until ...
        + told(local(d(11)), OFFICERS, NOTICE, d(9))  # ... the notice is recorded
        + told(local(d(18)), OFFICERS, LAWFUL, d(19))  # s.13(3): the day before
        + told(local(d(19)), OFFICERS, LAWFUL, d(19))  # s.13(3): the day
        + told(local(d(25)), OFFICERS, AUCTION, d(25))  # the auction day
        + told(local(d(26, 6)), OFFICERS, FUND, d(26, 6)),  # s.17(1)
    )
    assert await _jobs(store, "pending", "waiting") == []
    async with store.transaction() as tx:
        rows = (await tx.session.execute(select(DeadlineRow))).scalars().all()
    assert {r.status for r in rows} == {"closed"}


async def test_a_claimed_case_reminds_of_nothing_after_the_claim(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 10))
    async with store.transaction() as tx:
        await k.record_payment(tx, deps, keeper, "KNM-1")  # s.12
    await engine_.until(local(d(31), 13))

    same(engine_.queued, told(local(d(9)), [KEEPER], REPORT, d(9)))
    assert await _jobs(store, "pending", "waiting") == []
    cancelled = await _jobs(store, "cancelled")
    assert cancelled
    assert all("ClaimedAndPaid s.12" in (job.last_error or "") for job in cancelled)
    async with store.transaction() as tx:
        rows = (await tx.session.execute(select(DeadlineRow))).scalars().all()
    assert {(r.kind, r.status) for r in rows} == {
        ("report_due", "closed"),
        ("complaint_window_ends", "closed"),
    }


async def test_a_backdated_case_and_a_backdated_report_are_reminded_at_once_as_overdue(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock, engine_: Engine
) -> None:
    clock.set(local(d(20), 10, 30))
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # brought in on 1 March
    now = await engine_.run()
    same(
        now,
        told(local(d(20), 10, 30), [KEEPER], REPORT, d(9))  # overdue since 9 March
        + told(local(d(20), 10, 30), OFFICERS, REPORT, d(9)),  # and escalated
    )
    await engine_.until(local(d(20), 11))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1", on=d(12))  # made on 12 March
    now = await engine_.run()
    same(now, told(local(d(20), 11), OFFICERS, NOTICE, d(12)))  # s.13(2): overdue, at once
    await engine_.until(local(d(21), 13))
    same(
        engine_.queued,
        told(local(d(20), 10, 30), [KEEPER], REPORT, d(9))
        + told(local(d(20), 10, 30), OFFICERS, REPORT, d(9))
        + told(local(d(20), 11), OFFICERS, NOTICE, d(12))
        + told(local(d(21)), OFFICERS, NOTICE, d(12)),  # then each morning, the keeper no more
    )


@pytest.mark.parametrize(
    ("first", "corrected", "end", "expected"),
    [
        pytest.param(
            local(d(1), 9, 15),
            local(d(2), 9, 15),
            local(d(10), 13),
            lambda: told(local(d(10)), [KEEPER], REPORT, d(10)),
            id="s.13(1)-a-later-day-moves-the-reminder-later",
        ),
        pytest.param(
            local(d(5), 9, 15),
            local(d(1), 9, 15),
            local(d(11), 13),
            lambda: (
                told(local(d(10), 12), [KEEPER], REPORT, d(9))
                + told(local(d(10), 12), OFFICERS, REPORT, d(9))
                + told(local(d(11)), [KEEPER], REPORT, d(9))
                + told(local(d(11)), OFFICERS, REPORT, d(9))
            ),
            id="s.13(1)-an-earlier-day-makes-it-overdue-at-once",
        ),
    ],
)
async def test_a_corrected_day_of_impounding_moves_the_reminders(
    store: Store,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    engine_: Engine,
    first: datetime,
    corrected: datetime,
    end: datetime,
    expected: Callable[[], list[Message]],
) -> None:
    clock.set(first + timedelta(minutes=30))
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure(at=first))
    await engine_.until(local(d(5), 12) if first.day == 1 else local(d(10), 12))
    async with store.transaction() as tx:
        await k.correct_seizure(
            tx, deps, keeper, "KNM-1", seizure(at=corrected), "wrong day written"
        )
    await engine_.run()
    await engine_.until(end)
    same(engine_.queued, expected())
    cancelled = await _jobs(store, "cancelled")
    assert cancelled  # the reminders of the old day
    assert all("SeizureCorrected s.7" in (job.last_error or "") for job in cancelled)


async def test_an_unreported_case_is_escalated_to_the_officers_the_next_day(
    store: Store, deps: Deps, keeper: Caller, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(10), 9))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")  # a day late
    await engine_.until(local(d(11), 13))
    same(
        engine_.queued,
        told(local(d(9)), [KEEPER], REPORT, d(9))
        + told(local(d(10)), [KEEPER], REPORT, d(9))  # overdue
        + told(local(d(10)), OFFICERS, REPORT, d(9))  # escalation
        + told(local(d(11)), OFFICERS, NOTICE, d(10)),  # the report stopped both
    )
    # The officers are told who has not acted, not asked to send REPORT themselves.
    to_english_officer = [body for _, to, body in engine_.queued if to == OFFICERS[0].to]
    assert "pound-keeper has not yet reported" in to_english_officer[0]
    assert "REPORT" not in to_english_officer[0]


async def test_the_officers_hear_when_the_s19_window_of_a_s14_deposit_has_closed(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(3), 12))
    async with store.transaction() as tx:
        await k.record_deposit(tx, deps, keeper, "KNM-1")  # s.14: last day to complain 11 Mar
    await engine_.until(local(d(14), 13))
    async with store.transaction() as tx:
        await o.record_deposit_outcome(tx, deps, officer, "KNM-1", returned=False, reference="x")
    await engine_.until(local(d(20), 13))
    same(engine_.queued, told(local(d(12)), OFFICERS, WINDOW, d(11)))


# -- the morning digest ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cases", "digest"),
    [pytest.param(3, False, id="3-items-3-messages"), pytest.param(4, True, id="4-items-1-digest")],
)
async def test_more_than_three_items_in_a_morning_make_one_digest_per_person(
    store: Store, deps: Deps, keeper: Caller, engine_: Engine, cases: int, digest: bool
) -> None:
    numbers = [f"KNM-{i}" for i in range(1, cases + 1)]
    async with store.transaction() as tx:
        for _ in numbers:
            await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 11))
    async with store.transaction() as tx:
        for number in numbers:
            await k.report_unclaimed(tx, deps, keeper, number)
    await engine_.until(local(d(10), 13))

    def expected(when: datetime, who: Sequence[Recipient], kind: DeadlineKind, role: Role) -> list:
        due = d(9)
        if digest:
            items = [
                (n, Deadline(kind, due, kind_provision[kind], role, counts[kind])) for n in numbers
            ]
            return digest_to(when, who, items)
        return [m for n in numbers for m in told(when, who, kind, due, case=n)]

    kind_provision = {REPORT: "s.13(1)", NOTICE: "s.13(2)"}
    counts = {REPORT: d(1), NOTICE: d(9)}
    same(
        engine_.queued,
        expected(local(d(9)), [KEEPER], REPORT, Role.KEEPER)
        + expected(local(d(10)), OFFICERS, NOTICE, Role.OFFICER),
    )


async def test_a_digest_leaves_the_eve_of_an_auction_to_its_own_message(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, engine_: Engine
) -> None:
    numbers = [f"KNM-{i}" for i in range(1, 6)]
    async with store.transaction() as tx:
        for _ in numbers:
            await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 11))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    await engine_.until(local(d(10), 11))
    async with store.transaction() as tx:
        await o.record_notice(tx, deps, officer, "KNM-1", proclaimed_at=("Kunnamangalam",))
        for number in numbers[1:]:
            await k.report_unclaimed(tx, deps, keeper, number)  # a day late
    await engine_.until(local(d(17), 13))
    morning = [m for m in engine_.queued if m[0] == "2026-03-17 08:00"]
    notices = [(n, Deadline(NOTICE, d(10), "s.13(2)", Role.OFFICER, d(10))) for n in numbers[1:]]
    same(
        morning,
        digest_to(local(d(17)), OFFICERS, notices)  # four overdue notices: one digest
        + told(local(d(17)), OFFICERS, LAWFUL, d(18)),  # the eve of s.13(3): on its own
    )


# -- leases and failures ---------------------------------------------------------------------


async def test_a_job_leased_by_a_dead_instance_is_sent_by_another_once(
    store: Store, deps: Deps, keeper: Caller, config: Config, clock: FixedClock, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 7, 59))
    clock.set(local(d(9)))
    assert len(await claim(store, "dead")) == 1  # the keeper's morning round, then it died
    assert await engine_.run() == []  # leased
    clock.set(local(d(9), 8, 2))
    assert await engine_.run() == []  # still leased (2 minutes)
    clock.set(local(d(9), 8, 3))
    assert len(await engine_.run()) == 1
    assert await engine_.run() == []
    (round_,) = [j for j in await _jobs(store, "done") if j.kind == "round"]
    assert (round_.claimed_by, round_.attempts) == ("test", 2)


async def test_a_job_claimed_by_an_instance_whose_heartbeat_stopped_is_sent_within_seconds(
    store: Store, deps: Deps, keeper: Caller, config: Config, clock: FixedClock, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 7, 59))
    clock.set(local(d(9)))
    await beat(store, "killed")
    assert len(await claim(store, "killed")) == 1  # the keeper's morning round, then kill -9
    clock.advance(seconds=DEAD_AFTER.total_seconds() - 1)
    assert await engine_.run() == []  # its heartbeat is not yet old enough
    clock.advance(seconds=2)
    assert len(await engine_.run()) == 1  # not held for the 2-minute lease
    assert await engine_.run() == []


async def test_a_slow_instance_whose_lease_was_taken_over_fires_nothing(
    store: Store, deps: Deps, keeper: Caller, config: Config, clock: FixedClock, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 7, 59))
    clock.set(local(d(9)))
    slow = await claim(store, "slow")
    clock.set(local(d(9), 8, 3))  # the lease ran out before "slow" got to fire
    queued = await engine_.run()  # another instance claims the round and queues it
    assert len(queued) == 1
    assert await fire_claimed(store, config, "slow", slow) == Pass()  # checked: not its own
    assert await engine_.run() == []  # nothing more was queued


async def test_a_job_that_raises_is_retried_after_a_backoff(
    store: Store,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    engine_: Engine,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = render.reminder
    broken = [True]

    def flaky(*args: Any, **kwargs: Any) -> str:
        if broken[0]:
            raise RuntimeError("catalog trouble")
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "reminder", flaky)
    clock.set(local(d(20), 10))
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # overdue: keeper and officers
    assert await engine_.run() == []
    jobs = await _jobs(store, "pending")
    assert [(j.attempts, j.last_error) for j in jobs] == [(1, "RuntimeError: catalog trouble")] * 2
    broken[0] = False
    clock.set(local(d(20), 10, 1))
    assert await engine_.run() == []  # backing off: one minute after the first attempt
    clock.set(local(d(20), 10, 1) + timedelta(seconds=1))
    same(
        await engine_.run(),
        told(local(d(20), 10, 1), [KEEPER], REPORT, d(9))
        + told(local(d(20), 10, 1), OFFICERS, REPORT, d(9)),
    )


def _alerts(engine_: Engine) -> list[str]:
    """Who was told that reminders are in trouble (each in their own language)."""
    langs = ("en", "ml", "ta", "kn")
    texts = {render.reminders_troubled(translator(lang)) for lang in langs}
    with rendering_sms():  # by SMS in two parts: the first says it
        texts |= {sms_parts(render.reminders_troubled(translator(lang)))[0] for lang in langs}
    return [to for _, to, body in engine_.queued if body in texts]


async def test_a_job_that_keeps_raising_is_never_given_up_and_the_officers_are_told_once(
    store: Store,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    engine_: Engine,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    real = render.reminder
    broken = [True]

    def flaky(*args: Any, **kwargs: Any) -> str:
        calls.append("x")
        if broken[0]:
            raise RuntimeError("catalog trouble")
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "reminder", flaky)
    clock.set(local(d(20), 10))
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    for _ in range(8):  # past every backoff of the first tries
        await engine_.run()
        clock.advance(minutes=61)
    pending = await _jobs(store, "pending")
    assert len(pending) == 2
    assert await _jobs(store, "failed") == []  # never given up
    assert all(j.attempts == 8 and j.last_error == "RuntimeError: catalog trouble" for j in pending)
    assert len(calls) == 16
    # Troubled from the fourth try on: the officers of KNM-GP are told, once that day.
    assert sorted(_alerts(engine_)) == sorted(o.to for o in OFFICERS)
    async with store.transaction() as tx:
        lines = await deadline_lines(tx, engine_.config)
    assert sum("retry after error: RuntimeError: catalog trouble" in line for line in lines) == 2
    broken[0] = False
    clock.advance(minutes=61)
    await engine_.run()
    await engine_.run()
    assert len(await _jobs(store, "done")) == 2
    by_sms = sum(1 for o in OFFICERS if o.to.startswith("sms:"))  # the alert: two SMS
    # Told (by SMS in two parts); then each reminder.
    assert len(engine_.queued) == len(OFFICERS) + by_sms + 1 + len(OFFICERS)
    tomorrow = await _jobs(store, "pending")  # the overdue report: the series goes on
    assert [(j.attempts, j.day) for j in tomorrow] == [(0, d(21)), (0, d(21))]


async def test_a_job_whose_instance_dies_every_time_is_tried_alone_and_never_given_up(
    store: Store,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    engine_: Engine,
) -> None:
    clock.set(local(d(20), 10))
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # overdue: keeper and officers
    async with store.transaction() as tx:
        await plan_pending(tx, engine_.config)
    for _ in range(3):  # three instances claim both jobs and die before firing them
        assert len(await claim(store, "dead")) == 2
        clock.advance(minutes=3)
    for _ in range(12):  # troubled: one at a time, each lease longer, and they die again
        assert len(await claim(store, "dead")) == 1
        clock.advance(hours=2)
    assert await _jobs(store, "failed") == []
    assert [j.attempts for j in await _jobs(store, "pending")] == [9, 9]
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # a new case: due at once
    now = clock.now()
    queued = await engine_.run()
    # The new case's reminders first, in one batch; then each troubled job alone, the
    # officers told once before the first of them is tried.
    assert [to for _, to, _ in queued].count(KEEPER.to) == 2
    assert sorted(_alerts(engine_)) == sorted(o.to for o in OFFICERS)
    assert len(await _jobs(store, "done")) == 4
    assert {j.attempts for j in await _jobs(store, "pending")} == {0}  # tomorrow's
    assert all(when == now.astimezone(LOCAL_TZ).strftime("%Y-%m-%d %H:%M") for when, _, _ in queued)


async def test_no_one_to_tell_is_a_failed_reminder_and_the_series_goes_on(
    store: Store, deps: Deps, keeper: Caller, config: Config, clock: FixedClock
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # no users registered
    await remind_once(store, config, "w")  # planned on 1 March: the 9 March round
    clock.set(local(d(9)))
    done = await remind_once(store, config, "w")
    assert (done.reminders, done.messages) == (1, 0)
    failed = await _jobs(store, "failed")
    assert [j.last_error for j in failed] == [
        "no active keeper of KNM with Telegram or a phone"
    ] * 2
    assert [j.day for j in await _jobs(store, "waiting")] == [d(10), d(10)]


async def test_a_round_with_nothing_live_tells_no_one_and_cancels_its_stale_items(
    store: Store, deps: Deps, keeper: Caller, config: Config, clock: FixedClock, people: None
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await remind_once(store, config, "w")  # planned on 1 March: the 9 and 10 March rounds
    waiting = await _jobs(store, "waiting")
    assert waiting
    async with store.transaction() as tx:  # met meanwhile, its jobs not cancelled (a race)
        await tx.session.execute(update(DeadlineRow).values(status="closed"))
        before = await tx.session.scalar(select(func.count()).select_from(OutboxRow))
    clock.set(local(d(10)))
    done = await remind_once(store, config, "w")
    assert (done.reminders, done.messages, done.failed) == (0, 0, 0)
    cancelled = await _jobs(store, "cancelled")
    assert [j.id for j in cancelled] == [j.id for j in waiting]
    assert {j.last_error for j in cancelled} == {"no longer due: met or moved"}
    rounds = [j for j in await _jobs(store, "done") if j.kind == "round"]
    fired = [(j.day, j.messages, j.last_error) for j in rounds]
    assert fired == [(d(9), 0, None), (d(10), 0, None)]
    async with store.transaction() as tx:
        assert await tx.session.scalar(select(func.count()).select_from(OutboxRow)) == before


# -- s.15(5) and s.16(3): the refused account, the pending claim ---------------------------


async def test_a_refused_account_reminds_the_keeper_to_report_the_cattle_left_s15_5(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # 2 cows, 1 buffalo, 1 March
    await engine_.until(local(d(2), 12))
    async with store.transaction() as tx:
        await k.record_owner_refusal(tx, deps, keeper, "KNM-1")
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=d(5), place="market")
    await engine_.until(local(d(5), 12))
    await _lot(store, deps, officer, 0, 2, 40000)
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
    await engine_.until(local(d(6), 12))
    async with store.transaction() as tx:
        await o.record_account_refused(tx, deps, officer, "KNM-1")  # the buffalo is left
    await engine_.until(local(d(9), 12))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    await engine_.until(local(d(9), 13))
    same(
        engine_.queued,
        told(local(d(5)), OFFICERS, AUCTION, d(5)) + told(local(d(9)), [KEEPER], REPORT, d(9)),
    )


async def test_a_pending_claim_reminds_the_officers_to_decide_it_not_to_credit_the_fund(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, engine_: Engine
) -> None:
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    await engine_.until(local(d(9), 12))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    await engine_.until(local(d(10), 12))
    async with store.transaction() as tx:
        await o.record_notice(tx, deps, officer, "KNM-1", proclaimed_at=())
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=d(18), place="market")
    await engine_.until(local(d(18), 12))
    await _lot(store, deps, officer, 0, 2, 40000)
    await _lot(store, deps, officer, 1, 1, 30000)
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
    await engine_.until(local(d(1, 6), 12))
    async with store.transaction() as tx:
        await o.record_claim_preferred(tx, deps, officer, "KNM-1", claimant="Kunhammed")
    before = len(engine_.queued)
    await engine_.until(local(d(20, 6), 13))
    claim = DeadlineKind.CLAIM_PENDING
    same(engine_.queued[before:], told(local(d(19, 6)), OFFICERS, claim, d(19, 6)))
    (english,) = [body for _, to, body in engine_.queued[before:] if to == OFFICERS[0].to]
    assert "CLAIM / REJECT KNM-1" in english


async def test_under_dlt_a_number_on_sms_gets_each_reminder_alone_never_a_digest(
    store: Store, deps: Deps, keeper: Caller, config: Config, clock: FixedClock, people: None
) -> None:
    """A digest is as long as the morning's list: no one DLT template. Under DLT the
    officer on SMS gets the four reminders (each a registered template); the others
    still get one digest."""
    engine = Engine(store, config._replace(dlt=DltPolicy("1201160000000000000")), clock)
    numbers = [f"KNM-{i}" for i in range(1, 5)]
    async with store.transaction() as tx:
        for _ in numbers:
            await k.record_seizure(tx, deps, keeper, seizure())
    await engine.until(local(d(9), 11))
    async with store.transaction() as tx:
        for number in numbers:
            await k.report_unclaimed(tx, deps, keeper, number)
    await engine.until(local(d(10), 13))
    on_sms = [p for p in OFFICERS if p.to.startswith("sms:")]
    on_telegram = [p for p in OFFICERS if p not in on_sms]
    notices = [(n, Deadline(NOTICE, d(9), "s.13(2)", Role.OFFICER, d(9))) for n in numbers]
    officers = [m for m in engine.queued if m[0] == "2026-03-10 08:00" and m[1] != KEEPER.to]
    same(
        officers,
        digest_to(local(d(10)), on_telegram, notices)
        + [m for n in numbers for m in told(local(d(10)), on_sms, NOTICE, d(9), case=n)],
    )
    templates = registry()
    for _, to, body in officers:
        if to.startswith("sms:"):
            assert templates.find(body) is not None, body
