"""Schema migrations with Alembic, run from poundbot's own event loop.

Before it migrates, ``upgrade`` checks that the schema it finds is the one the database's
revision gives (``bot.store.schema``); a database made before the line of migrations was
one, or under a revision id later used for other content (``bot.store.lineage``), is
recognised by its revision and its schema and brought into the line; anything else is
refused with the differences, and nothing is changed. After it migrates, the schema
must be the head's, or the whole upgrade is rolled back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.lineage import State, states
from bot.store.schema import SchemaRefused, differences, load_schema, read_schema
from bot.support.resources import data_dir

__all__ = [
    "MIGRATIONS",
    "Found",
    "SchemaRefused",
    "Upgraded",
    "alembic_config",
    "identify",
    "identify_file",
    "inspect_database",
    "line",
    "schema_fault",
    "upgrade",
]

log = logging.getLogger("poundbot.migrate")

MIGRATIONS = data_dir("migrations")


@dataclass(frozen=True)
class Found:
    """What a database is, as far as migrations go."""

    stamp: str | None  # its revision (None: an empty database)
    state: State | None  # the state it is in (None: an empty database)
    pending: list[str]  # the revisions an upgrade to the head runs, oldest first
    head: str

    def describe(self) -> str:
        """``0013``, ``h8_phones (an earlier name of 0005)``, ``none (an empty database)``."""
        if self.state is None:
            return "none (an empty database)"
        if self.state.is_past:
            return f"{self.stamp} ({self.state.about})"
        return str(self.stamp)


@dataclass(frozen=True)
class Upgraded:
    """What ``upgrade`` found, and the revision the database is at after it."""

    before: Found
    after: str


def alembic_config() -> AlembicConfig:
    """An Alembic configuration pointing at ``migrations/`` (no alembic.ini needed)."""
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def line(script: ScriptDirectory | None = None) -> list[str]:
    """The revisions of the line of migrations, oldest first."""
    script = script or ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def _labelled(state: State) -> str:
    return f"{state.stamp} ({state.about})" if state.is_past else state.stamp


def _stamps(connection: Connection) -> tuple[str, ...]:
    """The revisions in ``alembic_version`` (read without an Alembic context, which
    would log before ``serve`` says what it runs)."""
    if not inspect(connection).has_table("alembic_version"):
        return ()
    rows = connection.execute(text("SELECT version_num FROM alembic_version"))
    return tuple(sorted(str(r) for (r,) in rows))


def identify(connection: Connection, revisions: list[str]) -> Found:
    """What the database on ``connection`` is; raises ``SchemaRefused`` when its schema
    is not one its revision gives. ``revisions``: the line, oldest first."""
    head = revisions[-1]
    stamps = _stamps(connection)
    found = read_schema(connection)
    if not stamps:
        if not found:
            return Found(None, None, list(revisions), head)
        raise SchemaRefused(
            "the database has tables but no migration revision (not made by poundbot's migrations)",
            differences({}, found),
        )
    if len(stamps) > 1:
        raise SchemaRefused(f"the database is at revisions {', '.join(stamps)} at once")
    (stamp,) = stamps
    candidates = [s for s in states(revisions) if s.stamp == stamp]
    if not candidates:
        raise SchemaRefused(
            f"the database is at revision {stamp}, which this version of poundbot does not "
            "know (made by a newer version?)"
        )
    closest: tuple[State, list[str]] | None = None
    for state in candidates:
        expected = load_schema(state.schema)
        if expected is None:
            raise LookupError(
                f"no schema recorded for revision {state.schema}: "
                "run python -m bot.store.record_schemas"
            )
        missed = differences(expected, found)
        if not missed:
            return Found(stamp, state, state.pending(revisions), head)
        if closest is None or len(missed) < len(closest[1]):
            closest = (state, missed)
    assert closest is not None
    state, missed = closest
    raise SchemaRefused(
        f"the database is at revision {stamp}, but its schema is not the one "
        f"{_labelled(state)} gives",
        missed,
    )


def identify_file(path: Path, revisions: list[str]) -> Found:
    """What the SQLite database file ``path`` is, opened read-only (``identify``)."""
    engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    try:
        with engine.connect() as connection:
            return identify(connection, revisions)
    finally:
        engine.dispose()


def _repair(connection: Connection, state: State, revision: str) -> None:
    repair = state.repairs.get(revision)
    if repair is not None:
        repair(Operations(MigrationContext.configure(connection)))


def _into_the_line(
    cfg: AlembicConfig, connection: Connection, found: Found, revisions: list[str]
) -> None:
    """Stamp a past state with the revision of the line it has all of, run the revisions
    it lacks and stamp those it has, repairing where it says, up to the last it has."""
    state = found.state
    assert state is not None
    log.info("database at revision %s: brought into the line at %s", found.describe(), state.base)
    command.stamp(cfg, state.base, purge=True)
    _repair(connection, state, state.base)
    last = max([revisions.index(r) for r in (*state.has, *state.repairs)], default=-1)
    for revision in revisions[revisions.index(state.base) + 1 : last + 1]:
        if revision in state.has:
            command.stamp(cfg, revision)
        else:
            command.upgrade(cfg, revision)
        _repair(connection, state, revision)


async def inspect_database(engine: AsyncEngine) -> Found:
    """What the database of ``engine`` is (changes nothing); raises ``SchemaRefused``."""
    revisions = line()
    async with engine.connect() as connection:
        return await connection.run_sync(identify, revisions)


async def schema_fault(engine: AsyncEngine, *, migrates: bool) -> SchemaRefused | None:
    """Why a server may not start on the database of ``engine``: a schema this version
    will not migrate, or (``migrates`` false: PostgreSQL, migrated by hand) a revision
    not the head's. None when it may."""
    try:
        found = await inspect_database(engine)
    except SchemaRefused as exc:
        return exc
    if migrates or not (found.pending or (found.state and found.state.is_past)):
        return None
    return SchemaRefused(
        f"the database is at revision {found.describe()} and this version needs "
        f"{found.head}: run poundbot migrate first"
    )


async def upgrade(engine: AsyncEngine, revision: str = "head") -> Upgraded:
    """Upgrade the database to ``revision`` on a connection of ``engine``, in one
    transaction; raises ``SchemaRefused`` (and changes nothing) for a database whose
    schema is not one this version knows."""

    def _upgrade(connection: Connection) -> Upgraded:
        cfg = alembic_config()
        cfg.attributes["connection"] = connection
        script = ScriptDirectory.from_config(cfg)
        revisions = line(script)
        found = identify(connection, revisions)
        at_head = found.state is not None and not found.state.is_past and not found.pending
        if revision == "head" and at_head:  # the schema checked: nothing to do
            return Upgraded(found, found.head)
        if found.state is not None and found.state.is_past:
            _into_the_line(cfg, connection, found, revisions)
        command.upgrade(cfg, revision)
        after = MigrationContext.configure(connection).get_current_revision()
        if revision == "head" and found.state is not None and found.pending:
            expected = load_schema(found.head)
            missed = differences(expected or {}, read_schema(connection))
            if missed:
                raise SchemaRefused(
                    f"upgraded from {found.describe()}, the schema is not the one "
                    f"{found.head} gives (nothing was changed)",
                    missed,
                )
        return Upgraded(found, after or "")

    async with engine.begin() as connection:
        return await connection.run_sync(_upgrade)
