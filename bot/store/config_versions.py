"""The SQL of the configuration's versions (``config_versions``): the id in force, a
version, the list of them, a new one.

The version in force is the one with the highest id. A new version takes the highest
id plus one, inserted in a savepoint: two writers at once (two servers starting on an
empty database, two imports) collide on the primary key, and the one that loses is
told so (``add_version`` returns None) instead of writing a second version.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Select, func, literal, select
from sqlalchemy.exc import IntegrityError

from bot.store.models import ConfigChange, ConfigVersion, User
from bot.store.tx import Tx

__all__ = [
    "ChangeRow",
    "VersionRow",
    "add_changes",
    "add_version",
    "changes",
    "latest_id",
    "version",
    "versions",
]


class VersionRow(NamedTuple):
    """A version of the configuration, with the name of who imported it ("" for none)."""

    id: int
    created_at: datetime
    by_user_id: int | None
    by_name: str
    reason: str
    source: str
    text: str


_LATEST = select(func.max(ConfigVersion.id))


def _rows(*, with_text: bool) -> Select[int, datetime, int | None, str, str, str, str]:
    text = ConfigVersion.text if with_text else literal("")
    return select(
        ConfigVersion.id,
        ConfigVersion.created_at,
        ConfigVersion.by_user_id,
        func.coalesce(User.name, ""),
        ConfigVersion.reason,
        ConfigVersion.source,
        text,
    ).outerjoin(User, User.id == ConfigVersion.by_user_id)


async def latest_id(tx: Tx) -> int | None:
    """The id of the version in force (None: no version yet): one index look-up."""
    return (await tx.session.execute(_LATEST)).scalar()


async def version(tx: Tx, version_id: int | None = None) -> VersionRow | None:
    """The version ``version_id``, or the one in force (None: there is none)."""
    wanted = version_id if version_id is not None else await latest_id(tx)
    if wanted is None:
        return None
    query = _rows(with_text=True).where(ConfigVersion.id == wanted)
    row = (await tx.session.execute(query)).first()
    return VersionRow(*row) if row is not None else None


async def versions(tx: Tx) -> list[VersionRow]:
    """Every version, the newest first, without their text."""
    query = _rows(with_text=False).order_by(ConfigVersion.id.desc())
    return [VersionRow(*row) for row in (await tx.session.execute(query)).all()]


async def add_version(
    tx: Tx,
    text: str,
    *,
    source: str,
    reason: str,
    by_user_id: int | None = None,
    after: int | None = None,
) -> int | None:
    """Write ``text`` as the next version (``after``: the one after version ``after``,
    the version it was made on); its id, or None when another writer took that id first
    (its version is then the one in force)."""
    latest = after if after is not None else await latest_id(tx)
    row = ConfigVersion(
        id=(latest or 0) + 1,
        created_at=tx.now,
        by_user_id=by_user_id,
        reason=reason,
        source=source,
        text=text,
    )
    try:
        async with tx.session.begin_nested():
            tx.session.add(row)
            await tx.session.flush()
    except IntegrityError:
        return None
    return row.id


class ChangeRow(NamedTuple):
    """A value a version changed (``config_changes``), with the version's when, who and
    why."""

    version_id: int
    at: datetime
    by_name: str
    reason: str
    authority_code: str | None
    entity: str
    key: str
    field: str
    old: str | None
    new: str | None


async def add_changes(
    tx: Tx,
    version_id: int,
    rows: list[tuple[str | None, str, str, str, str | None, str | None]],
) -> None:
    """Record what version ``version_id`` changed: (authority, entity, key, field, old,
    new) a row."""
    tx.session.add_all(
        ConfigChange(
            version_id=version_id,
            authority_code=authority,
            entity=entity,
            key=key,
            field=field,
            old=old,
            new=new,
        )
        for authority, entity, key, field, old, new in rows
    )
    await tx.session.flush()


async def changes(
    tx: Tx, *, authority: str | None = None, version_id: int | None = None, limit: int = 500
) -> list[ChangeRow]:
    """The values changed, the newest first: of ``authority`` (None: every authority's
    and the state's) or of one version."""
    query = (
        select(
            ConfigChange.version_id,
            ConfigVersion.created_at,
            func.coalesce(User.name, ""),
            ConfigVersion.reason,
            ConfigChange.authority_code,
            ConfigChange.entity,
            ConfigChange.key,
            ConfigChange.field,
            ConfigChange.old,
            ConfigChange.new,
        )
        .join(ConfigVersion, ConfigVersion.id == ConfigChange.version_id)
        .outerjoin(User, User.id == ConfigVersion.by_user_id)
        .order_by(ConfigChange.version_id.desc(), ConfigChange.id)
        .limit(limit)
    )
    if authority is not None:
        query = query.where(ConfigChange.authority_code == authority)
    if version_id is not None:
        query = query.where(ConfigChange.version_id == version_id)
    return [ChangeRow._make(row) for row in (await tx.session.execute(query)).all()]
