"""The configuration in the database: its versions, the one in force, a new one, and the
watch that puts a new one to work on every running instance.

The first server started on a database without a version imports its configuration
file (``settle``); from then on the database is what is in force, and the file is only
what ``poundbot-admin config import`` reads. Each running server follows the version in
force (``bot.entry.workers.run_config_watch``).
"""

from __future__ import annotations

import difflib
from typing import NamedTuple

from bot.config import Config, parse_config
from bot.store.config_versions import VersionRow, add_version, version, versions
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.errors import ConfigChangedError, NotAllowedError

__all__ = [
    "SOURCES",
    "Imported",
    "Settled",
    "config_of",
    "current",
    "desk_version",
    "desk_versions",
    "diff",
    "history",
    "import_text",
    "one",
    "settle",
]

#: Where a version came from: the first start's file, ``config import``, the web desk,
#: ``dlt import``.
SOURCES = ("file", "cli", "web", "dlt")


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
    store: Store,
    text: str,
    *,
    source: str,
    reason: str,
    by_user_id: int | None = None,
    based_on: int | None = None,
) -> Imported:
    """Store ``text`` as the new version in force, unless it is the version in force
    already. The caller has checked it (``poundbot config check``'s checks); it is
    parsed again here so that nothing that fails to load is ever stored (raises
    ``ConfigError``). ``based_on``: the version ``text`` was made from, which must still
    be the one in force (else ``ConfigChangedError``, nothing stored): a change made on
    one version is never written over another made meanwhile."""
    if source not in SOURCES:
        raise ValueError(f"unknown source of a configuration: {source}")
    parse_config(text, "the configuration imported")
    while True:
        async with store.transaction() as tx:
            found = await version(tx)
            if found is not None and found.text == text:
                return Imported(found.id, new=False)
            if based_on is not None and (found is None or found.id != based_on):
                raise ConfigChangedError("the configuration changed", based_on=based_on)
            added = await add_version(
                tx, text, source=source, reason=reason, by_user_id=by_user_id, after=based_on
            )
        if added is not None:
            return Imported(added, new=True)
        if based_on is not None:
            raise ConfigChangedError("another version came first", based_on=based_on)
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
