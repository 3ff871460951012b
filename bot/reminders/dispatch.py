"""Sending reminders: claim due jobs under a lease, queue their messages, mark them done.

1. **Claim** (one short transaction): one ``UPDATE ... WHERE id IN (SELECT ... ORDER BY
   fire_at LIMIT n FOR UPDATE SKIP LOCKED) RETURNING id`` sets ``claimed_by``,
   ``claimed_until`` (the lease) and ``attempts + 1``. PostgreSQL instances skip each
   other's rows; SQLite has one writer at a time. The due index keeps it cheap.
2. **Fire** (one transaction per claimed batch): the batch is taken with ``UPDATE ... SET
   status='done' WHERE id IN (...) AND claimed_by=me AND status='pending' RETURNING id``;
   only the jobs it returns are rendered and queued in the outbox (idempotency key per
   job and recipient). Taking, queuing and marking commit together: a crash loses
   nothing (the lease runs out and another instance claims the jobs again) and queues
   nothing twice; a job cancelled meanwhile, or taken over by an instance that found
   the lease run out, is left alone (on PostgreSQL the second ``UPDATE`` waits for the
   first and then finds the job done).

A reminder of a deadline the Act sets is never given up. A job that raises (a renderer
failing, say) goes back to pending after a backoff. One that has not finished after
``TROUBLED_AFTER`` claims (an instance died on it, or it raised, each time) is
*troubled*: from then on it is claimed alone, only when no other job is due (so it
cannot take a batch down with it), and its lease grows by the same backoff (so an
instance that it crashes is not crashed again at once); the officers of its authority and
the admins are told once a day (``reminders_troubled``) and the metric
``poundbot_reminders_troubled`` counts it. The outbox then sends (Telegram if the person
linked it, else SMS) with its own retries.

Why it is long: claiming, rendering and queueing a job are one lease loop; split, the
lease would be held across modules.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from types import MappingProxyType
from typing import Final

from bot.config import Config
from bot.i18n import Translator, render, reply_language, translator
from bot.i18n.dlt_probe import rendering_sms
from bot.notifications.notify import queue_to_staff, route_of
from bot.observe.metrics import REMINDERS_FAILED, REMINDERS_SENT, REMINDERS_TROUBLED
from bot.reminders.plan import ROUND, DeadlineFacts, local_today, plan_pending, schedule
from bot.services.base import act_in_force, act_of_case
from bot.store import reminder_jobs as jobs
from bot.store.reminder_jobs import JobRow
from bot.store.rows import savepoint
from bot.store.tx import Store, Tx, parse_case_number
from bot.store.users import admins_and_officers, staff_of
from bot.support.caller import KEEPER, OFFICER
from bot.support.offices import declared_offices, held_offices
from domain.deadline import DeadlineKind
from domain.profiles import Office, Power, Profile
from domain.reminders import Audience, next_day

__all__ = [
    "DIGEST_OVER",
    "KIND_POWERS",
    "LEASE",
    "SQLITE_BREATHER",
    "TROUBLED_AFTER",
    "Pass",
    "claim",
    "dispatch_batch",
    "fire_claimed",
    "remind_once",
]

log = logging.getLogger("poundbot.reminders")

LEASE = timedelta(minutes=2)
#: Claims that did not finish (the instance died, or the job raised) after which a job is
#: troubled: claimed alone, after the others, its lease growing by ``backoff``.
TROUBLED_AFTER = 3
#: More items than this in one morning for one person: one digest instead.
DIGEST_OVER = 3
#: Seconds a pass waits between batches on SQLite, so that writers of other processes
#: (polling SQLite's busy handler) get the database between them; in one process the
#: Store's lock already takes turns. The outbox, not this, limits the rate.
SQLITE_BREATHER = 0.1

Compose = Callable[[Translator], str]


@dataclass
class Pass:
    """What one pass did: deadlines planned, reminders sent (a digest counts each of its
    items), messages queued, jobs that failed for good (only for want of anyone to tell:
    a job that raises is tried again)."""

    planned: int = 0
    reminders: int = 0
    messages: int = 0
    failed: int = 0

    def add(self, other: Pass) -> None:
        self.planned += other.planned
        self.reminders += other.reminders
        self.messages += other.messages
        self.failed += other.failed


@dataclass(frozen=True, slots=True)
class _Person:
    user_id: int
    channel: str
    recipient: str
    lang: str
    #: The offices they hold (``bot.support.offices.held_offices``).
    offices: frozenset[Office] = frozenset()


#: The power of the Act each deadline the officers are reminded of is for: the
#: reminder goes to the officers who hold the office the case's Act gives it to (to
#: every officer when none does).
KIND_POWERS: Final[Mapping[DeadlineKind, Power]] = MappingProxyType(
    {
        DeadlineKind.REPORT_DUE: Power.RECEIVE_REPORT,  # s.13(1): the report overdue
        DeadlineKind.NOTICE_DUE: Power.POST_NOTICE,  # s.13(2)
        DeadlineKind.AUCTION_LAWFUL: Power.FIX_CONDITIONS,  # s.13(3): time and place
        DeadlineKind.AUCTION_DAY: Power.SELL,  # s.13(3), s.15(1): the auction to hold
        DeadlineKind.COMPLAINT_WINDOW_ENDS: Power.HEAR_COMPLAINT,  # s.19: the deposit
        DeadlineKind.DEPOSIT_WINDOW_ENDS: Power.HOLD_SURPLUS,  # s.16(3)
        DeadlineKind.CREDIT_TO_FUND: Power.HOLD_SURPLUS,  # s.17(1)
        DeadlineKind.CLAIM_PENDING: Power.HOLD_SURPLUS,  # s.16(3)
    }
)


@dataclass
class _Batch:
    """One claimed batch: its transaction, the people looked up, and the outcomes to
    write at the end (in a few statements, not one per job)."""

    tx: Tx
    config: Config
    worker: str
    today: date
    people: dict[tuple[str, str], list[_Person]] = field(default_factory=dict)
    messages: dict[int, int] = field(default_factory=dict)
    stale: list[int] = field(default_factory=list)
    unreached: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))


def backoff(attempts: int) -> timedelta:
    """1, 2, 4, ... minutes (up to an hour) before a job that raised is tried again."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 60))


@dataclass(frozen=True, slots=True)
class _Claimed:
    """The ids of a claimed batch; ``troubled``: the one troubled job claimed alone."""

    ids: list[int]
    troubled: bool = False


async def _claim(store: Store, worker: str, limit: int, lease: timedelta) -> _Claimed:
    async with store.transaction() as tx:
        now = tx.now
        rows = await jobs.lease_due(tx, worker, now + lease, limit, TROUBLED_AFTER)
        if rows:
            return _Claimed([job_id for job_id, _ in rows])
        rows = await jobs.lease_due(tx, worker, now + lease, 1, TROUBLED_AFTER, troubled=True)
        if not rows:
            return _Claimed([])
        [(job_id, attempts)] = rows
        # Tried ``attempts - 1`` times without finishing: wait longer before the next try
        # if this one does not finish either.
        longer = now + lease + backoff(attempts - TROUBLED_AFTER)
        await jobs.set_jobs(tx, [job_id], claimed_until=longer)
        return _Claimed([job_id], troubled=True)


async def claim(
    store: Store, worker: str, *, limit: int = 50, lease: timedelta = LEASE
) -> list[int]:
    """Lease up to ``limit`` due jobs to ``worker``, earliest first; their ids. When none
    but troubled jobs are due, one of them alone, its lease longer by ``backoff``."""
    return (await _claim(store, worker, limit, lease)).ids


async def fire_claimed(store: Store, config: Config, worker: str, ids: Sequence[int]) -> Pass:
    """Fire the jobs ``ids`` claimed by ``worker``, in one transaction."""
    done = Pass()
    if not ids:
        return done
    async with store.transaction() as tx:
        batch = _Batch(tx, config, worker, local_today(tx, config))
        taken = await jobs.take_claimed(tx, ids, worker)
        if not taken:
            return done
        facts = await _facts(tx, [job for job in taken if job.kind != ROUND])
        for job in taken:
            try:
                if job.kind == ROUND:
                    async with savepoint(tx):
                        fired = await _fire_round(batch, job)
                else:
                    fired = await _fire_single(batch, job, facts.get(job.deadline_id))
            except Exception as exc:  # one bad job must not hold up the others: logged, kept
                log.exception("reminder %s failed (attempt %d)", job.key, job.attempts)
                await _retry_later(tx, job, worker, exc)
                continue
            done.reminders += fired[0]
            done.messages += fired[1]
        await _record(batch)
    # Committed: counted once, here.
    REMINDERS_SENT.inc(done.reminders)
    REMINDERS_FAILED.labels("unreached").inc(sum(map(len, batch.unreached.values())))
    return done


def _is_sqlite(store: Store) -> bool:
    bind = store.sessions.kw.get("bind")
    return bind is not None and bind.dialect.name == "sqlite"


async def dispatch_batch(
    store: Store, config: Config, worker: str, *, limit: int = 50, lease: timedelta = LEASE
) -> Pass | None:
    """Claim one batch and fire it; None when nothing was due."""
    claimed = await _claim(store, worker, limit, lease)
    if not claimed.ids:
        return None
    if claimed.troubled:
        log.warning(
            "reminder job %d not finished after %d claims: tried alone",
            claimed.ids[0],
            TROUBLED_AFTER,
        )
        REMINDERS_TROUBLED.inc()
        # Committed before the job is tried again: if it takes this instance down too,
        # the people have been told all the same (once a day: the outbox key).
        async with store.transaction() as tx:
            await _tell_trouble(tx, config, claimed.ids[0])
    return await fire_claimed(store, config, worker, claimed.ids)


async def remind_once(
    store: Store,
    config: Config,
    worker: str,
    *,
    limit: int = 50,
    lease: timedelta = LEASE,
    breather: float | None = None,
) -> Pass:
    """One full pass: plan every new or moved deadline, then fire every due job,
    ``breather`` seconds apart (by default ``SQLITE_BREATHER`` on SQLite, else none)."""
    pause = (SQLITE_BREATHER if _is_sqlite(store) else 0.0) if breather is None else breather
    total = Pass()
    while True:
        async with store.transaction() as tx:
            planned = await plan_pending(tx, config)
        total.planned += planned
        if not planned:
            break
    while (
        batch := await dispatch_batch(store, config, worker, limit=limit, lease=lease)
    ) is not None:
        total.add(batch)
        if pause:
            await asyncio.sleep(pause)
    return total


# -- one job ------------------------------------------------------------------------------


async def _fire_single(batch: _Batch, job: JobRow, facts: DeadlineFacts | None) -> tuple[int, int]:
    """One reminder to its audience: (reminders, messages). Everything is rendered before
    anything is written, so a renderer that raises leaves nothing behind."""
    if not _is_live(job, facts):
        batch.stale.append(job.id)
        return 0, 0
    assert facts is not None
    people = _addressed(batch.config, await _people(batch, job.audience, job.place), job, facts)
    compose = _reminder(batch.config, job, facts, batch.today)
    bodies = [(person, _composed(compose, person)) for person in people]
    sent = await _send(batch, job.key, bodies)
    await _go_on(batch, job, facts)
    batch.messages[job.id] = sent
    if not people:
        batch.unreached[_nobody(job)].append(job.id)
    return 1, sent


async def _fire_round(batch: _Batch, job: JobRow) -> tuple[int, int]:
    """A morning round: the items waiting for it, as single reminders, or as one digest
    per person when more than ``DIGEST_OVER`` are due or overdue."""
    tx = batch.tx
    items = await _round_items(tx, job)
    facts = await _facts(tx, items)
    live, stale = [], []
    for item in items:
        found = facts.get(item.deadline_id)
        if _is_live(item, found):
            assert found is not None
            live.append((item, found))
        else:
            stale.append(item.id)
    if not live:  # nothing to tell (its items met or moved): no one to look up
        batch.messages[job.id] = 0
        batch.stale += stale
        return 0, 0
    people = await _people(batch, job.audience, job.place)
    config, today = batch.config, batch.today
    # Each person's items: those for an office they hold, or that none of them holds.
    theirs: dict[_Person, list[tuple[JobRow, DeadlineFacts]]] = {person: [] for person in people}
    for item, found in live:
        for person in _addressed(config, people, item, found):
            theirs[person].append((item, found))
    # render.digest lists what is due today and overdue; a reminder of a later day (the
    # eve of s.13(3)) goes on its own.
    bodies: dict[str, list[tuple[_Person, str]]] = defaultdict(list)
    digesting = False
    for person, own in theirs.items():
        now_due = [(item, found) for item, found in own if found.due_on <= today]
        singles = own
        if len(now_due) > DIGEST_OVER:
            digesting = True
            singles = [(item, found) for item, found in own if found.due_on > today]
            if config.dlt.enforced and person.channel == "sms":
                # Under DLT an SMS must be one of a few registered templates, and a digest
                # of any number of lines is none of them: by SMS each reminder goes alone.
                singles += now_due
            else:
                digest = _digest(config, job.place, now_due, today)
                bodies[job.key].append((person, _composed(digest, person)))
        for item, found in singles:
            compose = _reminder(config, item, found, today)
            bodies[item.key].append((person, _composed(compose, person)))
    if digesting:  # the later days first, as they go alone, then those now due
        live = sorted(live, key=lambda entry: entry[1].due_on <= today)
    messages = {item.id: await _send(batch, item.key, bodies[item.key]) for item, _ in live}
    if job.key in bodies:
        messages[job.id] = await _send(batch, job.key, bodies[job.key])
    for item, found in live:
        await _go_on(batch, item, found)
    # Only now, when nothing more can fail, does the batch learn the outcome.
    sent = sum(messages.values())
    batch.messages.update(messages)
    batch.messages[job.id] = sent
    batch.stale += stale
    if live and not people:
        batch.unreached[_nobody(job)] += [job.id, *(item.id for item, _ in live)]
    return len(live), sent


def _is_live(job: JobRow, facts: DeadlineFacts | None) -> bool:
    """Whether the job's deadline is still open on the same day. A change to the case
    cancels the jobs it makes stale itself; this catches one racing with the send."""
    return facts is not None and facts.is_open and facts.due_on == job.due_on


async def _go_on(batch: _Batch, job: JobRow, facts: DeadlineFacts) -> None:
    """A daily series goes on tomorrow (until its deadline is met and closed)."""
    audience = Audience(job.audience)
    if facts.is_daily_for(audience):
        day = next_day(job.day, batch.today)
        await schedule(batch.tx, batch.config, facts, audience, day, daily=True)


def _addressed(
    config: Config, people: list[_Person], job: JobRow, facts: DeadlineFacts
) -> list[_Person]:
    """Of ``people``, those a reminder of the deadline ``facts`` goes to: of the officers,
    those who hold the office the case's Act gives its power to (``KIND_POWERS``), or all
    of them when none does; of the keepers, all."""
    power = KIND_POWERS.get(facts.kind)
    if job.audience != Audience.OFFICERS.value or power is None:
        return people
    office = _act(config, facts).office_for(power)
    return [person for person in people if office in person.offices] or people


def _nobody(job: JobRow) -> str:
    return f"no active {job.audience} of {job.place} with Telegram or a phone"


def _act(config: Config, facts: DeadlineFacts) -> Profile:
    """The Act of the deadline's case, in whose words its reminder is: as the case keeps
    it (``DeadlineFacts.act``, as ``_facts`` reads them). Facts without it (a case not
    found, never): the Act in force for its pound's authority on its impounding day
    (``act_of_case``), else on the day its period counts from."""
    if facts.act is not None:
        return facts.act
    return act_of_case(config, facts.pound_code, facts.impounded_on or facts.counts_from)


def _reminder(config: Config, item: JobRow, facts: DeadlineFacts, today: date) -> Compose:
    act = _act(config, facts)

    def compose(tr: Translator) -> str:
        return render.reminder(
            facts.kind,
            item.case_number,
            item.due_on,
            today,
            tr.under(act),
            to_officer=item.audience == "officers",
        )

    return compose


def _digest(
    config: Config, place: str, items: list[tuple[JobRow, DeadlineFacts]], today: date
) -> Compose:
    """The morning digest of ``items`` to the people of ``place`` (a pound, an
    authority): each line in the words of its case's Act, the rest in those of the Act
    in force today for the authority."""
    entries = sorted(
        ((item.case_number, facts.as_deadline()) for item, facts in items),
        key=lambda entry: (entry[1].due_on, parse_case_number(entry[0]), entry[1].kind.value),
    )
    acts = {item.case_number: _act(config, facts) for item, facts in items}
    pound = config.pounds.get(place)
    authority = pound.authority if pound is not None else place
    act = act_in_force(config, authority, today)

    def compose(tr: Translator) -> str:
        return render.digest(entries, today, tr.under(act), acts=acts)

    return compose


async def _round_items(tx: Tx, job: JobRow) -> list[JobRow]:
    """Take the items waiting for the morning round ``job``."""
    return await jobs.take_round_items(tx, job.key)


async def _facts(tx: Tx, rows: Sequence[JobRow]) -> dict[int, DeadlineFacts]:
    """The deadlines of the jobs ``rows``, by id, each with the Act its case keeps."""
    ids = {job.deadline_id for job in rows if job.deadline_id is not None}
    found = await jobs.deadline_rows(tx, ids)
    acts = await tx.case_acts({row.case_number for row in found})
    return {row.id: replace(DeadlineFacts.of(row), act=acts.get(row.case_number)) for row in found}


async def _people(batch: _Batch, audience: str, place: str) -> list[_Person]:
    """The active keepers of a pound or officers of an authority who can be reached,
    each with their language (else the authority's default language)."""
    cached = batch.people.get((audience, place))
    if cached is not None:
        return cached
    config = batch.config
    if audience == Audience.OFFICERS.value:
        role, authority_code = OFFICER, place
    else:
        role = KEEPER
        pound = config.pounds.get(place)
        authority_code = pound.authority if pound else ""
    authority = config.authorities.get(authority_code)
    default = reply_language(authority=authority)
    people = []
    for user in await staff_of(batch.tx, role, place):
        route = route_of(user)
        if route is not None:
            held = held_offices(user.role, declared_offices(user.offices))
            people.append(_Person(user.id, route[0], route[1], user.lang or default, held))
    batch.people[(audience, place)] = people
    return people


def _composed(compose: Compose, person: _Person) -> str:
    """``compose`` in the person's language; by SMS as an SMS is rendered (names in DLT
    variables, a digest that does not fit the staff budget by its case numbers)."""
    with rendering_sms(person.channel == "sms"):
        return compose(translator(person.lang))


async def _send(batch: _Batch, key: str, bodies: list[tuple[_Person, str]]) -> int:
    """Queue each body to its person, once per job key and person; how many were new
    (``bot.notifications.notify.queue_to_staff``: not at all to a number that said STOP)."""
    queued = 0
    for person, body in bodies:
        to = (person.channel, person.recipient)
        if await queue_to_staff(
            batch.tx,
            person.user_id,
            to,
            person.lang,
            body,
            f"rem:{key}",
            batch.config.whatsapp_templates,
            sep=" ",
        ):
            queued += 1
    return queued


async def _record(batch: _Batch) -> None:
    """Write the outcomes of a batch: messages per job, the stale, the unreached."""
    by_count: dict[int, list[int]] = defaultdict(list)
    for job_id, count in batch.messages.items():
        if count:
            by_count[count].append(job_id)
    for count, ids in by_count.items():
        await jobs.set_jobs(batch.tx, ids, messages=count)
    if batch.stale:
        await jobs.set_jobs(
            batch.tx, batch.stale, status="cancelled", last_error="no longer due: met or moved"
        )
    for error, ids in batch.unreached.items():
        await jobs.set_jobs(batch.tx, ids, status="failed", last_error=error)


async def _retry_later(tx: Tx, job: JobRow, worker: str, exc: Exception) -> None:
    """Record the error; back to pending after a backoff (a reminder of a deadline the
    Act sets is never given up: once troubled, the people are told)."""
    error = f"{type(exc).__name__}: {exc}"[:500]
    await jobs.retry_later(tx, job.id, worker, error, tx.now + backoff(job.attempts))


async def _tell_trouble(tx: Tx, config: Config, job_id: int) -> None:
    """Tell the officers and admins of the troubled job's authority and the state admins,
    once a local day each (the key), that reminders could not be sent and are being tried
    again."""
    job = await jobs.job(tx, job_id)
    if job.audience == Audience.OFFICERS.value:
        authority_code = job.place
    else:
        pound = config.pounds.get(job.place)
        authority_code = pound.authority if pound else ""
    authority = config.authorities.get(authority_code)
    default = reply_language(authority=authority)
    today = local_today(tx, config)
    for user in await admins_and_officers(tx, authority_code):
        found = route_of(user)
        if found is None:
            continue
        lang = user.lang or default
        with rendering_sms(found[0] == "sms"):  # by SMS in parts, a template each
            body = render.reminders_troubled(translator(lang))
        place = authority_code if user.role == OFFICER else "all"
        key = f"alert:reminders:{today.isoformat()}:{place}"
        templates = config.whatsapp_templates
        await queue_to_staff(tx, user.id, found, lang, body, key, templates, sep=" ")
