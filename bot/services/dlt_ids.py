"""The DLT portal's export of approved templates, imported into the configuration: which
of poundbot's templates the export gives an id (new, changed, the same), which rows it
could not use, which templates still lack one, and the configuration after (its
``[dlt.templates]`` merged, ``bot.config.dlt_ids``), stored as a new version (source
``dlt``). ``poundbot dlt import`` and the web desk's ``/web/config/dlt`` plan and store
it alike (``plan_ids``); the desk's dry run and import are a state administrator's, and
the import is refused when the version in force is no longer the one the dry run read
(``PlanChangedError``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.config import parse_config
from bot.config.dlt_ids import merged_text
from bot.services.config_versions import Imported, current, import_text
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.dlt import Registry, registry
from bot.support.dlt_import import Matched, Row, match, read_sheet
from bot.support.errors import (
    BadInputError,
    ConfigChangedError,
    NotAllowedError,
    PlanChangedError,
)

__all__ = ["DltPlan", "desk_import", "desk_plan", "plan_ids"]


@dataclass(frozen=True, slots=True)
class DltPlan:
    """What importing an export does to the configuration ``before`` (the text of the
    version ``version``, None: a file): the rows read and matched (``found``), each
    template's id given anew, changed (old, new) or the same; the configured templates
    that still lack one (in ``languages``, those its SMS go out in); the configuration's
    text after, and whether it enforces DLT (an entity id is set)."""

    version: int | None
    rows: int
    found: Matched
    added: tuple[tuple[str, str], ...]
    changed: tuple[tuple[str, str, str], ...]
    same: tuple[str, ...]
    lacking: tuple[str, ...]
    before: str
    text: str
    enforced: bool
    languages: tuple[str, ...]

    @property
    def changes(self) -> bool:
        """Whether the import changes the configuration."""
        return self.text != self.before


def plan_ids(text: str, name: str, rows: Sequence[Row], *, version: int | None = None) -> DltPlan:
    """The import of the export's ``rows`` into the configuration ``text`` (called
    ``name`` in its faults): raises ``IdsRefused`` when the ids cannot be written into
    it, ``ConfigError`` when the result does not load."""
    config = parse_config(text, name)
    templates: Registry = registry()
    found = match(rows, templates)
    had: Mapping[str, str] = config.dlt.template_ids
    added = tuple((n, i) for n, i in sorted(found.ids.items()) if n not in had)
    changed = tuple(
        (n, had[n], i) for n, i in sorted(found.ids.items()) if n in had and had[n] != i
    )
    same = tuple(n for n, i in sorted(found.ids.items()) if had.get(n) == i)
    new = merged_text(text, found.ids) if found.ids else text
    after = parse_config(new, name)
    lacking = tuple(after.dlt.missing(templates.only(after.sms_languages)))
    return DltPlan(
        version,
        len(rows),
        found,
        added,
        changed,
        same,
        lacking,
        text,
        new,
        after.dlt.enforced,
        after.sms_languages,
    )


def _state_admin(caller: Caller) -> None:
    """The configuration is the state's: a state administrator's to change."""
    if not caller.is_state_admin:
        raise NotAllowedError("only a state administrator changes the configuration")


async def desk_plan(
    store: Store, caller: Caller, name: str, data: bytes, columns: Mapping[str, str]
) -> DltPlan:
    """The dry run of the export ``data`` (a file called ``name``, CSV or XLSX; its
    headings ``columns`` where they are not the portals' usual ones) against the version
    in force: raises ``ExportError`` for a sheet that cannot be read."""
    _state_admin(caller)
    in_force = await current(store)
    if in_force is None:  # not reached on a running server: its first start imported one
        raise BadInputError("no configuration in the database")
    rows = read_sheet(name, data, columns)
    return plan_ids(
        in_force.text, f"configuration version {in_force.id}", rows, version=in_force.id
    )


async def desk_import(
    store: Store,
    caller: Caller,
    name: str,
    data: bytes,
    columns: Mapping[str, str],
    *,
    reason: str,
    version: int,
) -> tuple[DltPlan, Imported]:
    """The import of the export as its dry run on version ``version`` showed it: a new
    version of the configuration, source ``dlt``, by the caller, for ``reason``;
    ``PlanChangedError`` when another version is in force now."""
    _state_admin(caller)
    why = " ".join(reason.split())
    if not why:
        raise BadInputError("a reason is required")
    plan = await desk_plan(store, caller, name, data, columns)
    if plan.version != version:
        raise PlanChangedError("the configuration changed since the dry run")
    if not plan.changes:
        raise BadInputError("nothing to change")
    try:
        done = await import_text(
            store,
            plan.text,
            source="dlt",
            reason=why,
            by_user_id=caller.user_id,
            based_on=version,
        )
    except ConfigChangedError:  # a version stored between the plan and the import
        raise PlanChangedError("the configuration changed since the dry run") from None
    return plan, done
