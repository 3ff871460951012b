"""The DLT ids changed on the web desk, one at a time, by a state administrator: the id
the portal gave an SMS template (``[dlt.templates]``, ``<kind>.<language> = "<id>"``)
and the principal entity's id (``[dlt] entity_id``). Digits only, as the checks of the
configuration read them (``bot.config.reader``); an empty id removes it. Written through
``bot.services.config_edit.apply_edit``."""

from __future__ import annotations

import re
from typing import Any, Final

import tomlkit
from tomlkit.items import Table
from tomlkit.toml_document import TOMLDocument

from bot.config.edit import Change
from bot.services.config_edit import Written, apply_edit
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.dlt import Registry
from bot.support.errors import BadInputError, NotAllowedError

__all__ = ["set_entity_id", "set_template_id"]

#: An id as the configuration's checks take it: digits, as text (19 on the portals).
_ID: Final = re.compile(r"\d{1,30}")


def _id(value: str) -> str | None:
    """The id typed, or None for none; ``BadInputError`` when it is not digits."""
    value = "".join(value.split())
    if not value:
        return None
    if not _ID.fullmatch(value):
        raise BadInputError("not an id", what="id")
    return value


def _table(parent: Any, name: str) -> Table:
    """``parent[name]``, a table, made when there is none."""
    found = parent.get(name)
    if not isinstance(found, Table):
        found = tomlkit.table()
        parent[name] = found
    return found


def _state_admin(caller: Caller) -> None:
    if not caller.is_state_admin:
        raise NotAllowedError("only a state administrator changes the DLT ids")


async def set_template_id(
    store: Store,
    caller: Caller,
    templates: Registry,
    *,
    based_on: int,
    name: str,
    template_id: str,
    reason: str,
) -> Written:
    """Set the id of template ``name`` (``kind.lang``, one of ``templates``) to
    ``template_id`` ("": removed), on version ``based_on``, for ``reason``."""
    _state_admin(caller)
    if templates.get(name) is None:
        raise BadInputError("no such template", what="template")
    new = _id(template_id)
    kind, _, lang = name.rpartition(".")

    def edit(document: TOMLDocument) -> list[Change]:
        table = _table(_table(document, "dlt"), "templates")
        by_lang = table.get(kind)
        old = by_lang.get(lang) if isinstance(by_lang, dict) else None
        old = str(old) if old is not None else None
        if old == new:
            return []
        if new is None:
            assert isinstance(by_lang, dict)
            del by_lang[lang]
            if not by_lang:
                del table[kind]
        elif isinstance(by_lang, dict):
            by_lang[lang] = new
        else:
            table.add(tomlkit.key([kind, lang]), new)
        return [Change(None, "dlt", "template", name, old, new)]

    return await apply_edit(store, caller, based_on=based_on, edit=edit, reason=reason)


async def set_entity_id(
    store: Store, caller: Caller, *, based_on: int, entity_id: str, reason: str
) -> Written:
    """Set the principal entity's id (``[dlt] entity_id``; "": removed, DLT off)."""
    _state_admin(caller)
    new = _id(entity_id)

    def edit(document: TOMLDocument) -> list[Change]:
        dlt = _table(document, "dlt")
        found = dlt.get("entity_id")
        old = str(found) if found is not None else None
        if old == new:
            return []
        if new is None:
            del dlt["entity_id"]
        else:
            dlt["entity_id"] = new
        return [Change(None, "dlt", "entity", "entity_id", old, new)]

    return await apply_edit(store, caller, based_on=based_on, edit=edit, reason=reason)
