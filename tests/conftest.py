"""Shared fixtures: databases on SQLite always and on PostgreSQL when asked to.

``POUNDBOT_TEST_PG_URL`` (e.g. ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``)
names a server; each test process (each pytest-xdist worker) gets a database of its own
there, dropped at the end. On SQLite each test gets a copy of an empty database made once
per process (tests/databases.py).
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from tests import databases

PG_URL = os.environ.get("POUNDBOT_TEST_PG_URL")
ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)] if PG_URL else ["sqlite"]


@pytest.fixture(scope="session", autouse=True)
def sqlite_templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this process's empty SQLite databases (tests/databases.py)."""
    folder = tmp_path_factory.mktemp("templates")
    databases.use_folder(folder)
    return folder


@pytest.fixture(scope="session")
def pg_database_url() -> Iterator[str | None]:
    """A fresh PostgreSQL database for this test process (None without
    POUNDBOT_TEST_PG_URL): named by the pytest-xdist worker (``main`` without it) and
    a random part, so that workers and runs side by side never share one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    if not PG_URL:
        yield None
        return
    import asyncio

    import asyncpg

    base = make_url(PG_URL)
    name = f"poundbot_test_{worker}_{uuid.uuid4().hex[:12]}"
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


@pytest.fixture(scope="session")
def data_folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests' data folders are (``data_folder``)."""
    return tmp_path_factory.mktemp("data")


_DATA_FOLDERS = itertools.count(1)


@pytest.fixture(autouse=True)
def data_folder(data_folders: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test keeps its photos (``POUNDBOT_DATA_DIR``) in a folder of its own, made
    when something is kept there (a test that needs no ``tmp_path`` makes none)."""
    folder = data_folders / str(next(_DATA_FOLDERS))
    monkeypatch.setenv("POUNDBOT_DATA_DIR", str(folder))
    return folder


@pytest.fixture(params=ENGINES)
async def engine(
    request: pytest.FixtureRequest, tmp_path: Path, pg_database_url: str | None
) -> AsyncIterator[AsyncEngine]:
    """An engine with an empty schema: a copy of this process's empty SQLite file (made
    once by ``create_all``), or a truncated PostgreSQL database."""
    async with databases.empty_engine(request.param, tmp_path, pg_database_url) as eng:
        yield eng
