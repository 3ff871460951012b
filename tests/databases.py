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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

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
