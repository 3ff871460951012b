"""A change to the configuration made on the web desk: made on the version in force,
checked as any imported configuration is, written as the next version with its reason
and who made it, and each value it changed recorded for the audit
(``config_changes``); every instance takes it up within seconds
(``bot.entry.workers.run_config_watch``).

A change is a function of the TOML document (``bot.config.edit``) that returns the
values it changed. Who may make it is read from those values: each of an authority is
for that authority's administrators (``Caller.administers``), each of the state's (an
authority added, a kind of cattle, a DLT template id) for a state administrator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tomlkit.exceptions import ParseError
from tomlkit.toml_document import TOMLDocument

from bot.config import ConfigError, parse_config
from bot.config.edit import Change, dump, load
from bot.store.config_versions import (
    ChangeRow,
    add_changes,
    add_version,
    changes,
    version,
)
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.errors import (
    BadInputError,
    ConfigChangedError,
    ConfigRefusedError,
    NotAllowedError,
    NothingChangedError,
)

__all__ = ["Edit", "Written", "apply_edit", "audit", "may_change"]

#: A change: the document changed in place, the values it changed returned.
Edit = Callable[[TOMLDocument], list[Change]]


class Written(NamedTuple):
    """A change written: the id of the version now in force, and what it changed."""

    version_id: int
    changes: list[Change]


def may_change(caller: Caller, authority: str | None) -> bool:
    """Whether ``caller`` may change the configuration of ``authority`` (None: the
    state's, a state administrator's alone)."""
    return caller.is_admin and caller.administers(authority)


async def apply_edit(
    store: Store, caller: Caller, *, based_on: int, edit: Edit, reason: str
) -> Written:
    """Make ``edit`` on version ``based_on``, the version in force, and write the result
    as the next version, by ``caller`` for ``reason``. Refused, nothing written: not an
    administrator of each authority the change touches (``NotAllowedError``), no reason
    (``BadInputError``), another version in force (``ConfigChangedError``), no value
    changed (``NothingChangedError``), a result failing the checks
    (``ConfigRefusedError``, with its faults)."""
    if not caller.is_admin:
        raise NotAllowedError("only an administrator changes the configuration")
    why = " ".join(reason.split())
    if not why:
        raise BadInputError("a reason is required")
    # The version read, changed, written out and checked outside the transaction that
    # writes it: on SQLite a transaction that writes holds every other writer, and a
    # state's document takes a while to parse and check.
    async with store.reading() as tx:
        found = await version(tx)
    if found is None or found.id != based_on:
        raise ConfigChangedError("the configuration changed", based_on=based_on)
    try:
        document = load(found.text)
    except ParseError as exc:  # not reached: every version stored was parsed
        raise ConfigRefusedError("the version in force does not parse") from exc
    made = edit(document)
    for change in made:
        if not may_change(caller, change.authority):
            raise NotAllowedError("not an administrator of it", authority=change.authority)
    if not made:
        raise NothingChangedError("no value changed")
    text = dump(document)
    try:
        parse_config(text, f"the change to version {found.id}")
    except ConfigError as exc:
        faults = [fault.message for fault in exc.faults]
        raise ConfigRefusedError("the change fails the checks", faults=faults) from exc
    async with store.transaction() as tx:
        # the id after ``based_on``: taken by a change written meanwhile, it collides
        added = await add_version(
            tx, text, source="web", reason=why[:500], by_user_id=caller.user_id, after=based_on
        )
        if added is None:
            raise ConfigChangedError("another change came first", based_on=based_on)
        await add_changes(
            tx, added, [(c.authority, c.entity, c.key, c.field, c.old, c.new) for c in made]
        )
    return Written(added, made)


async def audit(store: Store, caller: Caller, authority: str | None) -> list[ChangeRow]:
    """The values changed on the web, newest first: of ``authority`` for its
    administrators, of every authority and the state's (``authority`` None) for a state
    administrator."""
    if not may_change(caller, authority):
        raise NotAllowedError("not an administrator of it", authority=authority)
    async with store.reading() as tx:
        return await changes(tx, authority=authority)
