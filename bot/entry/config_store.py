"""The configuration's versions as the command line reads and writes them, on the
database of ``POUNDBOT_DATABASE_URL`` (``bot.services.config_versions``): for ``config
import|export|history|diff``, ``config check`` and ``dlt import``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store.config_versions import VersionRow

__all__ = ["database_url", "database_version", "store_version"]


def database_url() -> str:
    """``POUNDBOT_DATABASE_URL``, else the embedded database."""
    from bot.store import engine

    return engine.database_url()


async def _read_version(url: str, version_id: int | None) -> VersionRow | None:
    from bot.store.config_versions import version
    from bot.store.engine import make_engine, make_sessionmaker
    from bot.store.tx import Store
    from bot.support.clock import SystemClock

    engine = make_engine(url)
    try:
        store = Store(make_sessionmaker(engine), SystemClock())
        async with store.reading() as tx:
            return await version(tx, version_id)
    finally:
        await engine.dispose()


def database_version(version_id: int | None = None) -> VersionRow | None:
    """The version ``version_id`` of the configuration in the database of
    ``POUNDBOT_DATABASE_URL``, or the one in force; None when there is none, no embedded
    database yet, or a database without the table (not migrated: it holds none)."""
    from bot.store.engine import DatabaseError, database_file

    url = database_url()
    path = database_file(url)
    if path is not None and not path.is_file():
        return None
    try:
        return asyncio.run(_read_version(url, version_id))
    except DatabaseError:
        return None


async def _store(text: str, source: str, reason: str) -> tuple[int, bool]:
    from bot.bootstrap import open_app
    from bot.config import parse_config
    from bot.services.config_versions import import_text

    async with open_app(config=parse_config(text)) as app:
        done = await import_text(app.store, text, source=source, reason=reason)
    return done.id, done.new


def store_version(text: str, *, source: str, reason: str) -> tuple[int, bool]:
    """Store ``text`` (checked) as the version in force: its id, and whether it is new."""
    return asyncio.run(_store(text, source, reason))
