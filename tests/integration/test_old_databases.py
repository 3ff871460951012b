"""Every database poundbot's history has made reaches the head with its data, through
``poundbot migrate`` and as ``poundbot serve`` starts; a database whose schema is not
the one its revision gives is refused with the differences, and nothing is changed.

The databases are ``tests/fixtures/databases/<state>.sqlite.sql`` (and ``.pg.sql``),
each made once by the code of a commit at that revision, with data entered through it
(``tests/fixtures/databases/build.py`` says how): users, an invite, two cases seized at
the keeper's console (one with its owner's number), a payment, an owner's questions
and language. Before ``0005`` numbers were stored by an older rule (``+9847012345``);
before ``0010`` a photo was a ``photo:<file id>`` word in a lot's description.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url

from bot.bootstrap import open_app
from bot.conversation.reply import handle_text
from bot.entry.cli import main
from bot.store.engine import make_engine
from bot.store.lineage import PAST
from bot.store.migrate import line
from bot.store.models import Base
from bot.store.writable import shown as served_as
from bot.support.caller import Caller
from tests.integration.test_cli import refused, run
from tests.integration.test_migrations import (
    PG_URL,
    add_stranded_case,
    fresh_pg_database,
    stranded_afterwards,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "databases"
NAMES = sorted(p.name.removesuffix(".sqlite.sql") for p in FIXTURES.glob("*.sqlite.sql"))
PAST_STATES = {state.schema: state for state in PAST}

#: The numbers entered (typed 09847012345, 09447012345, 09847012346), in E.164.
KEEPER, OFFICER, OWNER = "+919847012345", "+919447012345", "+919847012346"
PHONES = (("users", "phone"), ("cases", "owner_phone"), ("contacts", "phone"))


def load_sqlite(name: str, path: Path) -> str:
    """The fixture ``name`` as the SQLite database ``path``; its URL."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript((FIXTURES / f"{name}.sqlite.sql").read_text(encoding="utf-8"))
    finally:
        connection.close()
    return f"sqlite+aiosqlite:///{path}"


def load_pg(name: str, url: str) -> None:
    """The fixture ``name`` (a pg_dump) into the empty PostgreSQL database at ``url``."""
    import asyncpg

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    async def restore() -> None:
        connection = await asyncpg.connect(dsn)
        try:
            await connection.execute((FIXTURES / f"{name}.pg.sql").read_text(encoding="utf-8"))
        finally:
            await connection.close()

    asyncio.run(restore())


def fixture_params(names: list[str], *, pg: bool = True) -> list[Any]:
    """(name, engine) of each fixture on SQLite, and on PostgreSQL when asked to."""
    found = [pytest.param((name, "sqlite"), id=f"{name}-sqlite") for name in names]
    if pg and PG_URL:
        found += [
            pytest.param((name, "postgresql"), id=f"{name}-postgresql", marks=pytest.mark.pg)
            for name in names
            if (FIXTURES / f"{name}.pg.sql").is_file()
        ]
    return found


@contextmanager
def loaded(
    name: str, engine: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The fixture ``name`` loaded into a new database on ``engine``, named by
    ``POUNDBOT_DATABASE_URL``; its URL."""
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(tmp_path / "data"))
    if engine == "sqlite":
        url = load_sqlite(name, tmp_path / "old.sqlite3")
        monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
        yield url
        return
    with fresh_pg_database() as url:
        load_pg(name, url)
        monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
        yield url


@pytest.fixture
def old_database(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A database loaded from a fixture: the test's parameter (name, engine)."""
    name, engine = request.param
    with loaded(name, engine, tmp_path, monkeypatch) as url:
        yield url


@dataclass(frozen=True)
class Facts:
    """What a database holds, read with plain SQL."""

    counts: dict[str, int]
    users: list[tuple[Any, ...]]
    cases: list[tuple[Any, ...]]
    lots: list[tuple[Any, ...]]
    phones: list[str]
    revisions: list[str]
    differences: list[Any]  # from the schema the models describe

    def held(self) -> tuple[Any, ...]:
        """All but the differences of the schema (which hold the models' tables)."""
        return (self.counts, self.users, self.cases, self.lots, self.phones, self.revisions)

    @property
    def photo_words(self) -> int:
        return sum("photo:" in lot[4] for lot in self.lots)


def _facts(connection: Connection) -> Facts:
    def rows(sql: str) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in connection.execute(text(sql))]

    tables = [
        t
        for (t,) in rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            if connection.dialect.name == "sqlite"
            else "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        )
    ]
    context = MigrationContext.configure(
        connection,
        opts={"compare_type": True, "render_as_batch": connection.dialect.name == "sqlite"},
    )
    return Facts(
        counts={t: rows(f'SELECT count(*) FROM "{t}"')[0][0] for t in tables},
        users=rows("SELECT name, role, phone, telegram_id FROM users ORDER BY id"),
        cases=rows("SELECT number, stage, owner_phone FROM cases ORDER BY id"),
        lots=rows(
            "SELECT c.number, l.idx, l.kind, l.count, l.description FROM case_lots l "
            "JOIN cases c ON c.id = l.case_id ORDER BY c.id, l.idx"
        ),
        phones=[
            phone
            for table, column in PHONES
            if table in tables
            for (phone,) in rows(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL")
        ],
        revisions=[r for (r,) in rows("SELECT version_num FROM alembic_version")],
        differences=list(compare_metadata(context, Base.metadata)),
    )


async def read(url: str) -> Facts:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_facts)
    finally:
        await engine.dispose()


async def execute(url: str, *statements: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await engine.dispose()


def described(name: str) -> str:
    """How ``migrate`` names the revision the fixture ``name`` is at."""
    state = PAST_STATES.get(name)
    return f"{state.stamp} ({state.about})" if state else name


def shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


# -- every revision to the head ----------------------------------------------------------


def test_there_is_a_database_of_every_revision_the_history_has_had() -> None:
    """The head's database is the one the tests make; when a revision is added, the
    database of the one before it is made (``FIXTURES`` in build.py names its commit)."""
    assert set(NAMES) | {line()[-1]} == set(line()) | set(PAST_STATES)


@pytest.mark.parametrize("old_database", fixture_params(NAMES), indirect=True)
async def test_a_database_of_every_revision_migrates_to_the_head_with_its_data(
    old_database: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    name = request.node.callspec.params["old_database"][0]
    head = line()[-1]
    before = await read(old_database)

    status, out, err = await asyncio.to_thread(run, capsys, "migrate")
    assert (status, err) == (0, "")
    done = "already at revision" if name == head else f"upgraded from {described(name)} to"
    assert out == f"database {shown(old_database)}: {done} {head} (head)\n"
    after = await read(old_database)

    assert after.differences == []  # exactly the schema the models describe
    assert after.revisions == [head]
    # No row lost; a photo once written into a description is a photo now.
    expected = {**before.counts, "photos": before.counts.get("photos", 0) + before.photo_words}
    assert {t: n for t, n in after.counts.items() if t in expected} == expected
    assert after.users == [
        ("Velayudhan", "keeper", KEEPER, None),
        ("Sreedevi", "officer", OFFICER, None),
        ("Anil", "admin", None, 424242),
    ]
    assert after.cases == [
        (number, stage, OWNER if phone else None) for number, stage, phone in before.cases
    ]
    assert [number for number, _, _ in after.cases] == ["KNM-1", "KNM-2"]
    assert set(after.phones) <= {KEEPER, OFFICER, OWNER}
    assert [lot[:4] for lot in after.lots] == [
        ("KNM-1", 0, "cow", 2),
        ("KNM-1", 1, "buffalo", 1),
        ("KNM-2", 0, "goat", 1),
    ]
    assert [lot[4] for lot in after.lots] == [
        lot[4].replace("; photo:AgACAgUAAx0Cc1", "") for lot in before.lots
    ]
    assert after.lots[2][4] == "black"

    # Today's code reads every case from its events and answers about them.
    async with open_app(url=old_database, migrate=False) as app:
        async with app.store.transaction() as tx:
            for number, stage, _ in after.cases:
                assert (await tx.load_case(number)).case.stage.value == stage
            cattle = (await tx.load_case("KNM-1")).case.seizure.lots
            assert [(lot.kind, lot.count) for lot in cattle] == [("cow", 2), ("buffalo", 1)]
            photos = [
                tuple(r)
                for r in await tx.session.execute(text("SELECT status, fetch_ref FROM photos"))
            ]
        keeper = Caller(role="keeper", channel="console", pound="KNM", authority="KNM-GP")
        async with app.store.transaction() as tx:
            reply = await handle_text(tx, app.deps, keeper, "CASES", sms=False)
    assert "KNM-1" in reply.text
    assert photos == ([("pending", "AgACAgUAAx0Cc1")] if before.photo_words else [])

    status, out, _ = await asyncio.to_thread(run, capsys, "migrate")
    assert out == f"database {shown(old_database)}: already at revision {head} (head)\n"


@pytest.mark.parametrize(
    "old_database", fixture_params(["h8_phones", "0013-case_snapshots"]), indirect=True
)
async def test_status_names_an_earlier_revision_and_what_an_upgrade_runs_changing_nothing(
    old_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = await read(old_database)
    status, out, err = await asyncio.to_thread(run, capsys, "migrate", "--status")
    assert (status, err) == (0, "")
    first, second = out.splitlines()
    revisions = line()
    if before.revisions == ["h8_phones"]:
        assert first.endswith("at revision h8_phones (an earlier name of 0005)")
        pending = revisions[revisions.index("0006") :]
    else:
        assert "at revision 0013 (the snapshots of cases, once numbered 0013" in first
        pending = revisions[revisions.index("0013") :]
    assert (
        second == f"pending: {len(pending)} ({', '.join(pending)}); poundbot migrate applies them"
    )
    assert (await read(old_database)).held() == before.held()


@pytest.mark.parametrize("old_database", fixture_params(["h2_two_settlements"]), indirect=True)
async def test_a_case_stranded_in_deposit_under_the_first_h2_two_settlements_is_settled(
    old_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first ``h2_two_settlements`` changed the schema only; a case a refused account
    left "in deposit" gets its stage when its database reaches the head all the same."""
    from datetime import date

    from sqlalchemy.ext.asyncio import AsyncSession

    engine = make_engine(old_database)
    try:
        async with AsyncSession(engine) as session, session.begin():
            await add_stranded_case(session, "KNM-3", 3)
        status, _, err = await asyncio.to_thread(run, capsys, "migrate")
        assert (status, err) == (0, "")
        stage, deadlines = await stranded_afterwards(engine, "KNM-3")
    finally:
        await engine.dispose()
    assert stage == "deemed_unclaimed"
    assert deadlines == {
        "deposit_window_ends": ("closed", date(2026, 6, 6)),
        "report_due": ("open", date(2026, 3, 9)),
    }


# -- refused, changing nothing -----------------------------------------------------------

H10_WEB = f"h10_web ({PAST_STATES['h10_web'].about})"

#: (fixture, what is done to it, the refusal, its first differences)
REFUSED = {
    "a-table-missing-and-a-column-of-its-own": (
        "0013",
        ["DROP TABLE media_fetches", "ALTER TABLE users ADD COLUMN nickname VARCHAR(20)"],
        "the database is at revision 0013, but its schema is not the one 0013 gives",
        ["table media_fetches: missing", "users: column nickname: not expected"],
    ),
    "a-known-variant-less-an-index": (
        "h10_web",
        ["DROP INDEX ix_cases_impounded"],
        f"the database is at revision h10_web, but its schema is not the one {H10_WEB} gives",
        ["cases: index ix_cases_impounded: missing"],
    ),
    "a-column-of-another-type": (
        "h8_phones",
        ["ALTER TABLE invites DROP COLUMN name", "ALTER TABLE invites ADD COLUMN name INTEGER"],
        "the database is at revision h8_phones, but its schema is not the one "
        "h8_phones (an earlier name of 0005) gives",
        ["invites: column name: Integer null, expected String(200)"],
    ),
    "a-revision-no-version-has-had": (
        "0013",
        ["UPDATE alembic_version SET version_num = '0099'"],
        "the database is at revision 0099, which this version of poundbot does not know "
        "(made by a newer version?)",
        [],
    ),
    "two-revisions-at-once": (
        "0006",
        ["INSERT INTO alembic_version VALUES ('h2_two_settlements')"],
        "the database is at revisions 0006, h2_two_settlements at once",
        [],
    ),
    "tables-without-a-revision": (
        "0004",
        ["DELETE FROM alembic_version"],
        "the database has tables but no migration revision (not made by poundbot's migrations)",
        ["table authorities: not expected", "table case_events: not expected"],
    ),
}


@pytest.fixture
def refused_database(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, str, list[str]]]:
    """(URL, refusal, first differences) of a fixture made into a schema no revision
    gives: the test's parameter (case, engine)."""
    case, engine = request.param
    name, statements, refusal, differences = REFUSED[case]
    with loaded(name, engine, tmp_path, monkeypatch) as url:
        asyncio.run(execute(url, *statements))
        yield url, refusal, differences


def _refused_params(cases: list[str] | None = None) -> list[Any]:
    """(case, engine) of each case of ``REFUSED`` (or of ``cases``), on both engines."""
    cases = cases or list(REFUSED)
    found = [pytest.param((case, "sqlite"), id=f"{case}-sqlite") for case in cases]
    if PG_URL:
        found += [
            pytest.param((case, "postgresql"), id=f"{case}-postgresql", marks=pytest.mark.pg)
            for case in cases
        ]
    return found


def _text(difference: Any) -> str:
    return re.sub(r" object at 0x[0-9a-f]+", "", str(difference))


@pytest.mark.parametrize("refused_database", _refused_params(), indirect=True)
async def test_a_schema_no_revision_gives_is_refused_with_its_differences_and_left_alone(
    refused_database: tuple[str, str, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, refusal, differences = refused_database
    before = await read(url)
    for argv in (["migrate"], ["migrate", "--status"]):
        status, out, err = await asyncio.to_thread(run, capsys, *argv)
        assert (status, out) == (1, "")
        assert "Traceback" not in err
        lines = err.splitlines()
        assert lines[0] == f"poundbot: error: database {shown(url)}: {refusal}"
        assert lines[1 : 1 + len(differences)] == [f"  {d}" for d in differences]
        assert lines[-1] == "nothing was changed (docs/operator/upgrade.md)"
    after = await read(url)
    assert after.held() == before.held()
    # Each difference as text, without the addresses of the objects it names (a foreign
    # key's columns print as "... object at 0x...").
    assert [_text(d) for d in after.differences] == [_text(d) for d in before.differences]
    if url.startswith("sqlite"):  # a command that opens the embedded database refuses too
        status, out, err = await asyncio.to_thread(run, capsys, "users", "list")
        assert (status, out) == (1, "")
        assert err.startswith(f"poundbot: error: {refusal}")
        assert err.count("\n") == 1
        assert (await read(url)).held() == before.held()


# -- poundbot serve ----------------------------------------------------------------------


def _serve_in_process(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> tuple[int, list[str], bool]:
    """``poundbot serve`` up to the server itself: status, what it logged, whether the
    server was started."""
    import logging

    import uvicorn

    served: list[bool] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.append(True))
    with caplog.at_level(logging.INFO):
        status = main(["serve"])
    errors = [r for r in caplog.records if r.name == "poundbot" and r.levelno >= logging.ERROR]
    assert all(r.exc_info is None for r in errors)
    return status, [r.getMessage() for r in errors], bool(served)


@pytest.mark.parametrize(
    "refused_database", _refused_params(["a-table-missing-and-a-column-of-its-own"]), indirect=True
)
async def test_serve_refuses_a_schema_no_revision_gives_with_its_differences(
    refused_database: tuple[str, str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    url, refusal, differences = refused_database
    status, errors, served = await asyncio.to_thread(_serve_in_process, monkeypatch, caplog)
    assert (status, served) == (2, False)
    assert errors[0] == f"refusing to start: database {served_as(url)}: {refusal}"
    assert errors[1 : 1 + len(differences)] == [f"  {d}" for d in differences]


@pytest.mark.parametrize("old_database", fixture_params(["h8_phones"]), indirect=True)
async def test_serve_on_an_earlier_revision_migrates_the_embedded_database_not_postgresql(
    old_database: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, errors, served = await asyncio.to_thread(_serve_in_process, monkeypatch, caplog)
    if old_database.startswith("sqlite"):  # migrated as the server starts (the next test)
        assert (status, errors, served) == (0, [], True)
        return
    assert (status, served) == (2, False)
    assert errors == [
        f"refusing to start: database {served_as(old_database)}: the database is at revision "
        f"h8_phones (an earlier name of 0005) and this version needs {line()[-1]}: "
        "run poundbot migrate first"
    ]
    assert (await asyncio.to_thread(run, capsys, "migrate"))[0] == 0
    caplog.clear()
    status, errors, served = await asyncio.to_thread(_serve_in_process, monkeypatch, caplog)
    assert (status, errors, served) == (0, [], True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    "old_database", [pytest.param(("h8_phones", "sqlite"), id="h8_phones")], indirect=True
)
def test_serve_migrates_an_embedded_database_of_an_earlier_revision_and_serves(
    old_database: str,
) -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "bot.entry.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        health = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        assert server.poll() is None, server.communicate()[0]
        assert health is not None
        assert (health.status_code, health.json()) == (200, {"status": "ok"})
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert "Traceback" not in log
    after = asyncio.run(read(old_database))
    assert after.revisions == [line()[-1]]
    assert after.users[0] == ("Velayudhan", "keeper", KEEPER, None)


# -- all or nothing ----------------------------------------------------------------------


@pytest.mark.parametrize("old_database", fixture_params(["h10_web-first"]), indirect=True)
async def test_an_upgrade_that_fails_half_way_leaves_the_database_as_it_was(
    old_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store.migrate as migrate

    repair = migrate._repair

    def failing(connection: Connection, state: Any, revision: str) -> None:
        repair(connection, state, revision)
        if revision == "0009":  # after 0007 and 0008 ran, 0009 stamped, its indexes made
            raise RuntimeError("the disk is full")

    monkeypatch.setattr(migrate, "_repair", failing)
    before = await read(old_database)
    engine = make_engine(old_database)
    try:
        with pytest.raises(RuntimeError, match="the disk is full"):
            await migrate.upgrade(engine)
    finally:
        await engine.dispose()
    after = await read(old_database)
    assert after.held() == before.held()
    # Each difference as text, without the addresses of the objects it names (a foreign
    # key's columns print as "... object at 0x...").
    assert [_text(d) for d in after.differences] == [_text(d) for d in before.differences]


# -- poundbot restore --------------------------------------------------------------------


def test_restore_takes_a_backup_of_an_earlier_revision_and_refuses_a_schema_none_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("POUNDBOT_DATABASE_URL", raising=False)
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(tmp_path / "data"))
    backup = tmp_path / "h8_phones.sqlite3"
    load_sqlite("h8_phones", backup)
    numbers = [f"--next-number={pound}=1" for pound in ("PTM", "ENM", "VTV")]
    status, out, err = run(capsys, "restore", "--next-number=KNM=3", *numbers, str(backup))
    assert (status, err) == (0, "")
    assert f"(migration revision h8_phones; upgraded to {line()[-1]} when poundbot next" in out
    status, out, _ = run(capsys, "users", "list")  # opening it upgrades it
    assert status == 0
    assert KEEPER in out
    assert OFFICER in out

    bad = tmp_path / "bad.sqlite3"
    load_sqlite("0013", bad)
    with sqlite3.connect(bad) as connection:
        connection.execute("DROP TABLE media_fetches")
    connection.close()
    refusal = refused(capsys, "restore", str(bad))  # the database in place stays
    assert refusal.endswith(
        "cannot be upgraded by this poundbot: the database is at revision 0013, but its "
        "schema is not the one 0013 gives: table media_fetches: missing"
    )
    assert KEEPER in run(capsys, "users", "list")[1]  # the database in place is kept
