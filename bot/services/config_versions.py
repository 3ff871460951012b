"""The configuration in the database: its versions, the one in force, a new one, and the
watch that puts a new one to work on every running instance.

The first server started on a database without a version imports its configuration
file (``settle``); from then on the database is what is in force, and the file is only
what ``poundbot-admin config import`` reads. Each instance looks at the id in force
every ``WATCH_EVERY`` (``watch``) and, when it changes, reads, checks and puts the new
version to work (``App.swap``); one that fails the checks is not put to work: the
instance keeps the one it has and logs the faults.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import logging
from typing import NamedTuple

from bot.config import Config, ConfigError, parse_config
from bot.services.runtime import App
from bot.store.config_versions import VersionRow, add_version, latest_id, version, versions
from bot.store.tx import Store, sync_places
from bot.support.caller import Caller
from bot.support.errors import NotAllowedError

__all__ = [
    "SOURCES",
    "WATCH_EVERY",
    "Imported",
    "Settled",
    "adopt",
    "config_of",
    "current",
    "desk_version",
    "desk_versions",
    "diff",
    "history",
    "import_text",
    "one",
    "settle",
    "watch",
]

log = logging.getLogger("poundbot.config")

#: Where a version came from: the first start's file, ``config import``, the web desk,
#: ``dlt import``.
SOURCES = ("file", "cli", "web", "dlt")

#: How often each instance looks at the version in force (seconds).
WATCH_EVERY = 2.0


class Imported(NamedTuple):
    """What an import did: the version in force after it, and whether it is new (False:
    the text was the version in force already)."""

    id: int
    new: bool


class Settled(NamedTuple):
    """The version in force when a server starts, whether this start imported it, and
    whether the configuration file on disk says otherwise."""

    row: VersionRow
    imported: bool
    file_differs: bool


def config_of(row: VersionRow) -> Config:
    """The checked configuration of ``row`` (raises ``ConfigError`` with its faults)."""
    return parse_config(row.text, f"configuration version {row.id}")


async def current(store: Store) -> VersionRow | None:
    """The version in force (None: the database has none yet)."""
    async with store.reading() as tx:
        return await version(tx)


async def one(store: Store, version_id: int) -> tuple[VersionRow, VersionRow | None] | None:
    """The version ``version_id`` and the one before it (None: no such version)."""
    async with store.reading() as tx:
        found = await version(tx, version_id)
        if found is None:
            return None
        before = None
        for row in await versions(tx):
            if row.id < version_id:
                before = await version(tx, row.id)
                break
        return found, before


async def history(store: Store) -> list[VersionRow]:
    """Every version, the newest first (without their text)."""
    async with store.reading() as tx:
        return await versions(tx)


def _reads_the_configuration(caller: Caller) -> None:
    """The configuration is the state's: read by a state administrator alone."""
    if not caller.is_state_admin:
        raise NotAllowedError("only a state administrator reads the configuration")


async def desk_versions(store: Store, caller: Caller) -> list[VersionRow]:
    """The versions for the web desk's page (a state administrator's), newest first."""
    _reads_the_configuration(caller)
    return await history(store)


async def desk_version(
    store: Store, caller: Caller, version_id: int
) -> tuple[VersionRow, VersionRow | None] | None:
    """A version and the one before it for the web desk (a state administrator's)."""
    _reads_the_configuration(caller)
    return await one(store, version_id)


def diff(before: VersionRow | None, after: VersionRow) -> list[str]:
    """The unified diff from ``before`` (None: nothing) to ``after``, a line a string."""
    old = before.text.splitlines(keepends=True) if before is not None else []
    return [
        line.rstrip("\n")
        for line in difflib.unified_diff(
            old,
            after.text.splitlines(keepends=True),
            f"version {before.id}" if before is not None else "nothing",
            f"version {after.id}",
        )
    ]


async def import_text(
    store: Store, text: str, *, source: str, reason: str, by_user_id: int | None = None
) -> Imported:
    """Store ``text`` as the new version in force, unless it is the version in force
    already. The caller has checked it (``poundbot config check``'s checks); it is
    parsed again here so that nothing that fails to load is ever stored (raises
    ``ConfigError``)."""
    if source not in SOURCES:
        raise ValueError(f"unknown source of a configuration: {source}")
    parse_config(text, "the configuration imported")
    while True:
        async with store.transaction() as tx:
            found = await version(tx)
            if found is not None and found.text == text:
                return Imported(found.id, new=False)
            added = await add_version(tx, text, source=source, reason=reason, by_user_id=by_user_id)
        if added is not None:
            return Imported(added, new=True)
        # Another import took that id first: compare with it, and write after it.


async def settle(store: Store, text: str, name: str) -> Settled:
    """The version in force as a server starts: the database's, or (none yet) ``text``,
    the configuration file ``name``, imported as the first version, once whichever
    number of servers start at once (the version's id is its primary key: the second
    writer finds the first's)."""
    async with store.transaction() as tx:
        found = await version(tx)
        imported = False
        if found is None:
            added = await add_version(
                tx, text, source="file", reason=f"the first start, from {name}"
            )
            imported = added is not None
            found = await version(tx)
    if found is None:  # not reached: a version was written, by this start or another
        raise RuntimeError("no configuration version after the first start's import")
    return Settled(found, imported, file_differs=found.text != text)


async def adopt(app: App, row: VersionRow) -> bool:
    """Put version ``row`` to work in ``app``: checked, swapped in, its authorities and
    pounds written to their tables. False (the version in use kept, the faults logged)
    when it fails the checks."""
    try:
        config = config_of(row)
    except ConfigError as exc:
        log.error(
            "configuration version %d refused (%d fault(s)); keeping version %s",
            row.id,
            len(exc.faults),
            app.version,
        )
        for fault in exc.faults:
            log.error("  version %d:%d: %s", row.id, fault.line, fault.message)
        return False
    async with app.store.transaction() as tx:
        await sync_places(
            tx,
            {code: a.name for code, a in config.authorities.items()},
            {code: (p.authority, p.name) for code, p in config.pounds.items()},
        )
    app.swap(config, row.id)
    log.info("configuration version %d in force (%s: %s)", row.id, row.source, row.reason)
    return True


async def watch(app: App, stop: asyncio.Event, *, every: float = WATCH_EVERY) -> None:
    """Every ``every`` seconds until ``stop`` is set, the id of the version in force; a
    new one put to work (``adopt``). A version refused is not read again until another
    comes; a failed look is logged and tried again. Nothing to follow for an App handed
    its configuration (``App.version`` None)."""
    if app.version is None:  # a configuration handed to it: no version to follow
        return
    refused: int | None = None
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)
        if stop.is_set():
            return
        try:
            async with app.store.reading() as tx:
                latest = await latest_id(tx)
                changed = latest is not None and latest not in (app.version, refused)
                row = await version(tx, latest) if changed else None
            if row is not None and not await adopt(app, row):
                refused = row.id
        except Exception:
            log.exception("configuration watch failed; trying again in %.0f s", every)
