"""``poundbot remind --once`` and ``poundbot deadlines`` on a real SQLite file, and the
migration that derives the deadlines of the cases already open."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from bot.bootstrap import open_app
from bot.config import load_config, sample_config_path
from bot.entry.cli import main
from bot.reminders.dispatch import remind_once
from bot.services import admin
from bot.services import keeper as k
from bot.store.codec import dump_event
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.migrate import upgrade
from bot.store.models import CaseEvent, CaseRow, DeadlineRow, OutboxRow, User
from bot.store.tx import Store, sync_places
from bot.support.caller import Caller
from bot.support.clock import FixedClock, SystemClock
from domain.calendar import LOCAL_TZ
from domain.events import Impounded
from tests.service.helpers import seizure

KNM_KEEPER = Caller(role="keeper", channel="cli", pound="KNM", authority="KNM-GP")


# The commands read the system clock; pin it to noon in Kerala today, so that what is
# "due at once" does not depend on the hour the tests run (before 08:00 a reminder waits
# for the morning round).
NOON = datetime.now(LOCAL_TZ).replace(hour=12, minute=0, second=0, microsecond=0)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The URL of the SQLite file the commands use, with the sample configuration."""
    monkeypatch.setattr(SystemClock, "now", lambda self: NOON.astimezone(UTC))
    url = f"sqlite+aiosqlite:///{tmp_path / 'poundbot.sqlite3'}"
    monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    return url


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _an_overdue_case(url: str) -> date:
    """A case impounded twelve days ago (its s.13(1) report is overdue), a keeper and an
    officer of KNM-GP; the day its report fell due."""
    import asyncio

    brought = NOON - timedelta(days=12)

    async def prepare() -> None:
        async with open_app(url=url, clock=SystemClock()) as app, app.store.transaction() as tx:
            system = Caller.system()
            await admin.add_user(tx, app.deps, system, role="keeper", pound="KNM", telegram_id=11)
            await admin.add_user(
                tx, app.deps, system, role="officer", authority="KNM-GP", telegram_id=12
            )
            await k.record_seizure(tx, app.deps, KNM_KEEPER, seizure(at=brought))

    asyncio.run(prepare())
    return brought.date() + timedelta(days=8)


def test_remind_once_queues_what_is_due_and_deadlines_lists_it(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    due = _an_overdue_case(db).isoformat()
    status, out, err = run(capsys, "remind", "--once")
    assert (status, err) == (0, "")
    # The keeper's overdue report and the escalation to the officer, at once.
    assert out == (
        "reminders: 2 sent (2 messages queued in the outbox), 0 failed; 2 deadlines planned\n"
    )
    status, out, _ = run(capsys, "remind", "--once")
    assert out.startswith("reminders: 0 sent (0 messages queued in the outbox)")

    status, out, err = run(capsys, "deadlines", "--authority", "KNM-GP")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert f"KNM-1\ts.13(1)\treport due\t{due}\tkeeper" in lines
    assert not any("_due" in line or "round:" in line for line in lines)  # no internal keys
    states = sorted(
        (row[1], row[2])
        for row in (line.split("\t") for line in lines)
        if row[4:] == ["report due (s.13(1))", due]
    )
    tomorrow = (NOON + timedelta(days=1)).date().isoformat()
    assert states == [
        ("queued (1 queued)", "keeper KNM"),
        ("queued (1 queued)", "officers KNM-GP"),
        (f"scheduled (morning round of {tomorrow})", "keeper KNM"),
        (f"scheduled (morning round of {tomorrow})", "officers KNM-GP"),
    ]

    status, out, _ = run(capsys, "deadlines", "--authority", "ENM-GP")
    assert [line for line in out.splitlines() if not line.startswith("#")] == []
    status, out, err = run(capsys, "deadlines", "--authority", "NOPE")
    assert (status, out) == (1, "")
    assert err == "poundbot: error: unknown authority (authority: NOPE)\n"


def test_remind_alone_runs_one_pass_as_remind_once_does(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["remind"]) == 0
    assert capsys.readouterr().out.startswith("reminders: 0 sent (0 messages queued")
    assert main(["remind", "--once"]) == 0  # the flag of the cron lines still works
    assert capsys.readouterr().out.startswith("reminders: 0 sent (0 messages queued")


async def test_the_migration_derives_the_deadlines_of_the_cases_already_open(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}")
    config = load_config(sample_config_path())
    clock = FixedClock(datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ))
    try:
        await upgrade(engine, "0003")
        store = Store(make_sessionmaker(engine), clock)
        async with store.transaction() as tx:
            await sync_places(
                tx,
                {code: a.name for code, a in config.authorities.items()},
                {code: (p.authority, p.name) for code, p in config.pounds.items()},
            )
            facts = seizure()
            # A statement of the table's columns at 0003, not of today's model (which
            # has columns later revisions add).
            table: Any = CaseRow.__table__
            case_id = await tx.session.scalar(
                insert(table)
                .values(
                    pound_code="KNM",
                    seq=1,
                    number="KNM-1",
                    stage="impounded",
                    impounded_on=facts.impounded_on,
                    place_seized=facts.place_seized,
                    created_at=tx.now,
                    updated_at=tx.now,
                )
                .returning(table.c.id)
            )
            kind, payload = dump_event(Impounded(on=facts.impounded_on, seizure=facts))
            tx.session.add(
                CaseEvent(
                    case_id=case_id,
                    seq=0,
                    type=kind,
                    on=facts.impounded_on,
                    payload=payload,
                    provision="s.7",
                    actor_role="keeper",
                    channel="test",
                    recorded_at=tx.now,
                )
            )
        await upgrade(engine)
        async with store.transaction() as tx:
            rows = (await tx.session.execute(select(DeadlineRow))).scalars().all()
            tx.session.add(
                User(role="keeper", pound_code="KNM", telegram_id=5, lang="en", created_at=tx.now)
            )
        assert sorted((r.kind, r.due_on, r.status, r.needs_plan) for r in rows) == [
            ("complaint_window_ends", date(2026, 3, 11), "open", True),
            ("report_due", date(2026, 3, 9), "open", True),
        ]
        assert (await remind_once(store, config, "w")).planned == 2
        clock.set(datetime(2026, 3, 9, 2, 30, tzinfo=UTC))  # 08:00 in Kolkata
        await remind_once(store, config, "w")
        async with store.transaction() as tx:
            outbox = (await tx.session.execute(select(OutboxRow))).scalars().all()
        assert [(m.idempotency_key, m.recipient) for m in outbox] == [
            ("rem:d1:2026-03-09:keeper:2026-03-09:u1", "5")
        ]
    finally:
        await engine.dispose()
