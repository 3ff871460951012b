"""The Alembic migrations build exactly the schema the models describe, on SQLite and
(when ``POUNDBOT_TEST_PG_URL`` is set) on PostgreSQL, each time in a database of its own."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.engine import make_engine
from bot.store.migrate import alembic_config, upgrade
from bot.store.models import Base

PG_URL = os.environ.get("POUNDBOT_TEST_PG_URL")


@contextmanager
def fresh_pg_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database on the test server, dropped afterwards.

    Created and dropped with asyncpg from the server's maintenance connection, so the
    shared ``test`` database is never touched.
    """
    import asyncpg

    assert PG_URL is not None
    base = make_url(PG_URL)
    name = f"poundbot_migrations_{uuid.uuid4().hex[:12]}"
    dsn = base.set(drivername="postgresql").render_as_string(hide_password=False)

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)] if PG_URL else ["sqlite"]


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'migrated.sqlite3'}"
        return
    with fresh_pg_database() as url:
        yield url


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(
        connection,
        opts={
            "compare_type": True,
            "render_as_batch": connection.dialect.name == "sqlite",
        },
    )
    return list(compare_metadata(context, Base.metadata))


def _revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def test_upgrading_an_empty_database_to_head_gives_exactly_the_models_schema(
    database_url: str,
) -> None:
    engine = make_engine(database_url)
    try:
        await upgrade(engine)
        async with engine.connect() as conn:
            differences = await conn.run_sync(_differences)
            revision = await conn.run_sync(_revision)
    finally:
        await engine.dispose()
    assert differences == []
    assert revision == ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_upgrading_a_database_already_at_head_changes_nothing(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        await upgrade(engine)
        await upgrade(engine)
        async with engine.connect() as conn:
            differences = await conn.run_sync(_differences)
    finally:
        await engine.dispose()
    assert differences == []


def test_the_revisions_form_one_line_with_one_head() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
    revisions = list(script.walk_revisions())
    assert revisions[-1].down_revision is None
    assert all(not rev.is_merge_point for rev in revisions)


def stranded_case(number: str) -> Any:
    """A case whose owner refused the account after a sale left one cow in the pound:
    before s.15(5) sent the cattle left the s.13 way, NORECEIPT put it "in deposit"."""
    from datetime import date, datetime

    from bot.config import load_config, sample_config_path
    from domain.case import Case
    from domain.events import AccountRefused, AuctionScheduled, LotOffered, OwnerRefusedToPay
    from domain.money import Money
    from domain.s07_seizure import Lot, Person, Seizure
    from domain.s15_sale import close_sale

    config = load_config(sample_config_path())
    far = date(2026, 12, 31)
    seizure = Seizure("KNM", (Lot("cow", 2),), "market", datetime(2026, 3, 1, 10, 0))
    case = Case.open(number, seizure, config.kinds, far)
    for event in (
        OwnerRefusedToPay(on=date(2026, 3, 2)),
        AuctionScheduled(on=date(2026, 3, 2), auction_on=date(2026, 3, 5), place="market"),
        LotOffered(
            on=date(2026, 3, 5),
            lot=0,
            count=1,
            price=Money.rupees(20000),
            buyer=Person("Mammu"),
            buyer_declared_not_barred=True,
        ),
    ):
        case = case.apply(event, far)
    tariff = config.tariffs["KNM"]
    case, _ = close_sale(case, tariff, on=date(2026, 3, 5), expenses=Money.zero(), today=far)
    return case.apply(AccountRefused(on=date(2026, 3, 6)), far)


async def old_case_row(session: AsyncSession, seq: int, number: str, stage: str, now: Any) -> int:
    """A row of ``cases`` of pound KNM with the columns every revision has (a statement
    of the table's, not of the model's: the columns later revisions add left out); its id."""
    from datetime import date

    from sqlalchemy import insert

    from bot.store.models import CaseRow

    table: Any = CaseRow.__table__
    added = await session.execute(
        insert(table)
        .values(
            pound_code="KNM",
            seq=seq,
            number=number,
            stage=stage,
            impounded_on=date(2026, 3, 1),
            place_seized="market",
            created_at=now,
            updated_at=now,
        )
        .returning(table.c.id)
    )
    return int(added.scalar_one())


#: The columns of ``cases`` revisions after 0004 added, as ``ALTER TABLE`` adds them.
LATER_CASE_COLUMNS = {
    "owner_name": "VARCHAR(200)",
    "search_text": "TEXT NOT NULL DEFAULT ''",
    "kinds": "VARCHAR(200) NOT NULL DEFAULT ''",
}


@asynccontextmanager
async def later_case_columns(engine: Any) -> AsyncIterator[None]:
    """Today's code writing cases into an older schema (``record_seizure`` at 0004): the
    columns of ``cases`` later revisions add are there while it writes, then dropped, and
    the schema is the older one again (what they held is lost, as it would have been)."""
    from sqlalchemy import text

    async with engine.begin() as conn:
        for name, kind in LATER_CASE_COLUMNS.items():
            await conn.execute(text(f"ALTER TABLE cases ADD COLUMN {name} {kind}"))
    try:
        yield
    finally:
        async with engine.begin() as conn:
            for name in LATER_CASE_COLUMNS:
                await conn.execute(text(f"ALTER TABLE cases DROP COLUMN {name}"))


async def add_stranded_case(session: AsyncSession, number: str, seq: int) -> None:
    """The rows an older poundbot wrote for ``stranded_case(number)``: "in deposit",
    with the deposit's three months as its deadline."""
    from datetime import UTC, date, datetime

    from bot.store.codec import dump_event
    from bot.store.models import CaseEvent, DeadlineRow
    from domain.case import provision_of

    case = stranded_case(number)
    now = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    case_id = await old_case_row(session, seq, number, "in_deposit", now)
    for n, event in enumerate(case.events, 1):
        kind, payload = dump_event(event)
        session.add(
            CaseEvent(
                case_id=case_id,
                seq=n,
                type=kind,
                on=event.on,
                payload=payload,
                provision=provision_of(event),
                actor_role="officer",
                channel="test",
                recorded_at=now,
            )
        )
    session.add(
        DeadlineRow(
            case_id=case_id,
            case_number=number,
            pound_code="KNM",
            kind="deposit_window_ends",
            who="officer",
            provision="s.16(3)",
            due_on=date(2026, 6, 6),
            counts_from=date(2026, 3, 6),
            status="open",
            needs_plan=False,
            created_at=now,
            updated_at=now,
        )
    )


async def stranded_afterwards(engine: Any, number: str) -> tuple[str, dict[str, Any]]:
    """The stage of the case ``number`` and its deadlines (kind: status, due day)."""
    from sqlalchemy import select

    from bot.store.models import CaseRow, DeadlineRow

    async with AsyncSession(engine) as session:
        row = await session.scalar(select(CaseRow).where(CaseRow.number == number))
        assert row is not None
        found = {
            r.kind: (r.status, r.due_on)
            for r in (
                await session.execute(select(DeadlineRow).where(DeadlineRow.case_id == row.id))
            ).scalars()
        }
    return row.stage, found


async def test_a_case_stranded_in_deposit_by_a_refused_account_is_deemed_unclaimed_on_upgrade(
    tmp_path: Path,
) -> None:
    """Before s.15(5) sent the cattle left the s.13 way, NORECEIPT put such a case "in
    deposit" for good; the upgrade gives it its stage and the keeper's report deadline."""
    from datetime import date

    from bot.store.models import Authority, Pound

    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        await upgrade(engine, "0004")
        async with AsyncSession(engine) as session, session.begin():
            session.add(Authority(code="KNM-GP", name="Kunnamangalam"))
            await session.flush()
            session.add(Pound(code="KNM", authority_code="KNM-GP", name="Pound"))
            await session.flush()
            await add_stranded_case(session, "KNM-1", 1)
        await upgrade(engine)
        stage, found = await stranded_afterwards(engine, "KNM-1")
    finally:
        await engine.dispose()
    assert stage == "deemed_unclaimed"
    assert found == {
        "deposit_window_ends": ("closed", date(2026, 6, 6)),
        "report_due": ("open", date(2026, 3, 9)),
    }


async def _add_case_with_events(session: AsyncSession, seq: int, events: list[Any]) -> None:
    """The rows of case ``KNM-<seq>`` as revision 0017 kept them (no owner's name on the
    row): its row and its events."""
    from datetime import UTC, datetime

    from bot.store.codec import dump_event
    from bot.store.models import CaseEvent

    now = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    case_id = await old_case_row(session, seq, f"KNM-{seq}", "impounded", now)
    for n, event in enumerate(events):
        kind, payload = dump_event(event)
        session.add(
            CaseEvent(
                case_id=case_id,
                seq=n,
                type=kind,
                on=event.on,
                payload=payload,
                provision="s.7",
                actor_role="keeper",
                channel="test",
                recorded_at=now,
            )
        )


async def test_upgrading_from_0017_gives_each_case_the_owners_name_of_its_latest_facts(
    database_url: str,
) -> None:
    """Revision 0018 fills ``cases.owner_name`` from each case's events: the name of its
    last correction, else of its intake, as the desk's search keeps it; none named, none."""
    from datetime import date, datetime

    from sqlalchemy import select
    from sqlalchemy.ext.asyncio import AsyncSession

    from bot.store.models import Authority, CaseRow, Pound
    from domain.events import Impounded, SeizureCorrected
    from domain.s07_seizure import Lot, Person, Seizure

    def seized(owner: str | None) -> Seizure:
        named = Person(owner, "Chathamangalam") if owner is not None else None
        return Seizure("KNM", (Lot("cow", 1),), "market", datetime(2026, 3, 1, 10), owner=named)

    day = date(2026, 3, 1)
    engine = make_engine(database_url)
    try:
        await upgrade(engine, "0017")
        async with AsyncSession(engine) as session, session.begin():
            session.add(Authority(code="KNM-GP", name="Kunnamangalam"))
            await session.flush()
            session.add(Pound(code="KNM", authority_code="KNM-GP", name="Pound"))
            await session.flush()
            await _add_case_with_events(
                session, 1, [Impounded(on=day, seizure=seized("  Kunhammed   P. "))]
            )
            await _add_case_with_events(
                session,
                2,
                [
                    Impounded(on=day, seizure=seized("Kunhammed")),
                    SeizureCorrected(on=day, seizure=seized("Abdul Rasheed"), reason="misnamed"),
                ],
            )
            await _add_case_with_events(
                session,
                3,
                [
                    Impounded(on=day, seizure=seized("കുഞ്ഞാലി")),
                    SeizureCorrected(on=day, seizure=seized(None), reason="not the owner"),
                ],
            )
            await _add_case_with_events(session, 4, [Impounded(on=day, seizure=seized(None))])
        await upgrade(engine)
        async with AsyncSession(engine) as session:
            found = dict((await session.execute(select(CaseRow.number, CaseRow.owner_name))).all())
    finally:
        await engine.dispose()
    assert found == {
        "KNM-1": "Kunhammed P.",
        "KNM-2": "Abdul Rasheed",
        "KNM-3": None,
        "KNM-4": None,
    }


async def test_upgrading_from_0024_fills_the_search_text_and_kinds_and_the_cases_of_messages(
    database_url: str,
) -> None:
    """Revision 0025 fills each case's search text and kinds from its place and lots;
    0026 gives each message received, acted on and not purged, the case its text names
    when a case has that number."""
    from datetime import UTC, date, datetime

    from sqlalchemy import insert, select
    from sqlalchemy.ext.asyncio import AsyncSession

    from bot.store.models import Authority, CaseLot, CaseRow, InboxRow, Pound
    from domain.events import Impounded
    from domain.s07_seizure import Lot, Seizure

    seizure = Seizure("KNM", (Lot("cow", 1),), "market", datetime(2026, 3, 1, 10))
    now = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    engine = make_engine(database_url)
    try:
        await upgrade(engine, "0024")
        async with AsyncSession(engine) as session, session.begin():
            session.add(Authority(code="KNM-GP", name="Kunnamangalam"))
            await session.flush()
            session.add(Pound(code="KNM", authority_code="KNM-GP", name="Pound"))
            await session.flush()
            await _add_case_with_events(
                session, 1, [Impounded(on=date(2026, 3, 1), seizure=seizure)]
            )
            await session.execute(
                insert(CaseLot.__table__).values(
                    case_id=select(CaseRow.id).where(CaseRow.number == "KNM-1").scalar_subquery(),
                    idx=0,
                    kind="cow",
                    count=1,
                    description="Brown, white forehead",
                )
            )
            for n, (body, purged) in enumerate(
                [("DUES knm 1", None), ("DUES KNM-9", None), ("DUES KNM-1", now), ("HELP", None)]
            ):
                await session.execute(
                    insert(InboxRow.__table__).values(
                        channel="sms",
                        provider_id=f"SM{n}",
                        sender="+919847012345",
                        body=body,
                        raw={},
                        received_at=now,
                        processed_at=now,
                        reply="ok",
                        purged_at=purged,
                    )
                )
        await upgrade(engine)
        async with AsyncSession(engine) as session:
            case = (await session.execute(select(CaseRow.search_text, CaseRow.kinds))).one()
            messages = dict(
                (await session.execute(select(InboxRow.provider_id, InboxRow.case_number))).all()
            )
    finally:
        await engine.dispose()
    assert tuple(case) == ("market\ncow\nbrown, white forehead", " cow ")
    assert messages == {"SM0": "KNM-1", "SM1": None, "SM2": None, "SM3": None}
