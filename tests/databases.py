"""Empty SQLite databases for the tests, made once per process and copied.

Making a schema costs tens of milliseconds (``create_all``) and running every migration
a few hundred; copying a file costs well under one. Each test process (each pytest-xdist
worker, or the one process without it) makes each kind of file once, in a folder of its
own (``use_folder``, called by tests/conftest.py with a session temporary folder), and a
test gets a copy of it at the path it names:

* ``schema``: ``Base.metadata.create_all``, as the ``engine`` fixture had made per test;
* ``migrated``: every migration run (``bot.store.migrate.upgrade``), as poundbot does on a
  new embedded database; ``open_app`` on a copy finds it at the head (the schema checked)
  and migrates nothing, as on its second start. The migrations themselves, from nothing
  and from every older release, are tested on files of their own
  (tests/integration/test_migrations.py, test_old_databases.py, tests/e2e/test_health.py).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.engine import make_engine

Kind = Literal["schema", "migrated"]

_folder: Path | None = None
_made: dict[str, Path] = {}


def use_folder(folder: Path) -> None:
    """Make this process's template files in ``folder`` (one per kind)."""
    global _folder
    _folder = folder
    _made.clear()


async def _build(path: Path, kind: Kind) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        if kind == "schema":
            from bot.store.models import Base

            async with engine.begin() as conn:
                await conn.run_sync(Base.metadata.create_all)
        else:
            from bot.store.migrate import upgrade

            await upgrade(engine)
    finally:
        await engine.dispose()  # the last connection closed: the WAL checkpointed, gone


def _template(kind: Kind) -> Path:
    global _folder
    made = _made.get(kind)
    if made is not None and made.exists():
        return made
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="poundbot-templates-"))
    path = _folder / f"{kind}.sqlite3"
    for old in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        old.unlink(missing_ok=True)
    # On a thread of its own with its own event loop: callable from a test's loop too.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, _build(path, kind)).result()
    _made[kind] = path
    return path


def sqlite_copy(dest: Path, kind: Kind = "schema") -> Path:
    """A copy at ``dest`` of this process's empty database of ``kind``; returns ``dest``."""
    template = _template(kind)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, dest)
    for suffix in ("-wal", "-shm"):
        side = template.with_name(template.name + suffix)
        if side.exists():
            shutil.copyfile(side, dest.with_name(dest.name + suffix))
    return dest


def migrated_url(path: Path) -> str:
    """The aiosqlite URL of the database at ``path``: a copy of the empty migrated one
    when there is no file there yet, else the one there (a rig started again on it)."""
    if not path.exists():
        sqlite_copy(path, "migrated")
    return f"sqlite+aiosqlite:///{path}"


_pg_schema_ready = False


@asynccontextmanager
async def empty_engine(
    kind: str, tmp_path: Path, pg_database_url: str | None
) -> AsyncIterator[AsyncEngine]:
    """An engine with an empty schema (the ``engine`` fixture's): for ``sqlite`` a copy
    of this process's empty SQLite file (made once by ``create_all``), for ``postgresql``
    the database at ``pg_database_url`` truncated (its schema made the first time)."""
    global _pg_schema_ready
    if kind == "sqlite":
        path = sqlite_copy(tmp_path / "test.sqlite3", "schema")
        eng = make_engine(f"sqlite+aiosqlite:///{path}")
    else:
        from bot.store.models import Base

        assert pg_database_url is not None
        eng = make_engine(pg_database_url)
        async with eng.begin() as conn:
            if not _pg_schema_ready:
                await conn.run_sync(Base.metadata.drop_all)
                await conn.run_sync(Base.metadata.create_all)
                _pg_schema_ready = True
            else:
                tables = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
                await conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    try:
        yield eng
    finally:
        await eng.dispose()
