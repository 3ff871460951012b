"""What ``poundbot deadlines`` prints: the open deadlines, and the reminders due, sent and
failed, one tab-separated line each (local times)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.config import Config
from bot.reminders.plan import ROUND
from bot.store.deadlines import OPEN
from bot.store.models import ReminderJob
from bot.store.reminder_jobs import jobs_listed, open_deadlines, reminder_outbox
from bot.store.tx import Tx

__all__ = ["deadline_lines", "job_state"]


def _places(config: Config, authority: str | None) -> tuple[set[str], set[str]]:
    """(pounds, places of jobs) of ``authority``, or of every authority."""
    pounds = {p.code for p in config.pounds.values() if authority in (None, p.authority)}
    authorities = {authority} if authority else set(config.authorities)
    return pounds, pounds | authorities


def job_state(job: ReminderJob, now: datetime, outbox: Counter[str] | None) -> str:
    """due, scheduled, waiting, sent, queued, failed or cancelled, with what happened."""
    if job.status == "pending":
        if job.fire_at > now:
            return "scheduled"
        late = f", retry after error: {job.last_error}" if job.last_error else ""
        return f"due (attempt {job.attempts}{late})" if job.attempts else "due"
    if job.status == "waiting":
        return f"scheduled (morning round of {(job.batch or '').rpartition(':')[2]})"
    if job.status in ("failed", "cancelled"):
        return f"{job.status}: {job.last_error or '-'}"
    if job.batch and not job.messages:
        return f"in the digest of {job.batch.rpartition(':')[2]}"
    counts = outbox or Counter()
    if job.kind == ROUND and not counts:
        return f"done: {job.messages} single reminder(s), no digest" if job.messages else "done"
    if not counts:
        return "done, no message"
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    if counts["failed"]:
        state = "failed"
    elif set(counts) == {"sent"}:
        state = "sent"
    elif set(counts) <= {"sent", "dropped"}:  # dropped when sent: a STOP since, say
        state = "dropped"
    else:
        state = "queued"
    return f"{state} ({summary})"


async def deadline_lines(
    tx: Tx, config: Config, *, authority: str | None = None, days: int = 7
) -> list[str]:
    """The report: open deadlines by due date, then reminders by time, of the last
    ``days`` days and every one still to go."""
    pounds, places = _places(config, authority)
    now = tx.now
    since = now - timedelta(days=days)
    deadlines = await open_deadlines(tx, pounds, OPEN)
    jobs = await jobs_listed(tx, places, since)
    outbox = await _outbox_states(tx, since)
    lines = ["# open deadlines: case, provision, deadline, due on, who acts"]
    lines += [
        "\t".join((d.case_number, d.provision, _words(d.kind), d.due_on.isoformat(), d.who))
        for d in deadlines
    ]
    lines.append(f"# reminders since {_local(since, config)}: time, state, to, case, deadline, due")
    for job in jobs:
        to = f"{job.audience} {job.place}"
        what = "morning round" if job.kind == ROUND else f"{_words(job.kind)} ({job.provision})"
        due = job.due_on.isoformat() if job.due_on else job.day.isoformat()
        state = job_state(job, now, outbox.get(job.key))
        fields = (_local(job.fire_at, config), state, to, job.case_number or "-", what, due)
        lines.append("\t".join(fields))
    return lines


def _words(kind: str) -> str:
    """A deadline's kind as words for a person ("report_due" -> "report due")."""
    return kind.replace("_", " ")


def _local(at: datetime, config: Config) -> str:
    return at.astimezone(config.reminders.timezone).strftime("%Y-%m-%d %H:%M")


async def _outbox_states(tx: Tx, since: datetime) -> dict[str, Counter[str]]:
    """The outbox status of every reminder message queued since ``since``, by job key."""
    rows = await reminder_outbox(tx, since)
    states: dict[str, Counter[str]] = {}
    for key, status in _keyed(rows):
        states.setdefault(key, Counter())[status] += 1
    return states


def _keyed(rows: Iterable[tuple[str, str]]) -> Iterable[tuple[str, str]]:
    for key, status in rows:
        job_key, _, _user = key.removeprefix("rem:").rpartition(":u")
        yield job_key, status
