"""The Alembic migrations build exactly the schema the models describe, on SQLite and
(when ``POUNDBOT_TEST_PG_URL`` is set) on PostgreSQL, each time in a database of its own."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, make_url

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
