"""Schema migrations with Alembic, run from poundbot's own event loop."""

from __future__ import annotations

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.support.resources import data_dir

__all__ = ["MIGRATIONS", "alembic_config", "upgrade"]

MIGRATIONS = data_dir("migrations")


def alembic_config() -> AlembicConfig:
    """An Alembic configuration pointing at ``migrations/`` (no alembic.ini needed)."""
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` on a connection of ``engine``."""

    def _upgrade(connection: Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)

    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)
