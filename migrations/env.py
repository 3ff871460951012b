"""Alembic environment: migrations run on a connection poundbot hands over, or on the URL."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from bot.store.engine import database_url, make_engine
from bot.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_on_url() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or database_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif (shared := config.attributes.get("connection")) is not None:
    _run(shared)
else:
    asyncio.run(_run_on_url())
