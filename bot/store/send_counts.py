"""The SQL of the counts of paid answers (``send_counts``) that the ceiling of answers
to the public keeps (``bot.notifications.spending``): a count taken under its row's lock,
the answers to a number counted unless it is staff's, the counts undone, the old ones
forgotten."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Any, cast

from sqlalchemy import (
    Date,
    Integer,
    String,
    Table,
    bindparam,
    delete,
    exists,
    literal,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import Executable

from bot.store.models import SendCount, User
from bot.store.rows import dialect
from bot.store.tx import Tx

__all__ = ["count", "count_unless_staff", "forget_before", "uncount"]


def _insert(tx: Tx) -> Any:
    return (postgresql.insert if dialect(tx) == "postgresql" else sqlite.insert)(SendCount)


async def count(tx: Tx, window: str, day: date, by: int = 1) -> int:
    """``by`` more in ``window`` (made on its first), under the row's lock until the
    transaction ends; the count now."""
    statement = (
        _insert(tx)
        .values(window=window, day=day, count=by)
        .on_conflict_do_update(index_elements=["window"], set_={"count": SendCount.count + by})
        .returning(SendCount.count)
    )
    return int((await tx.session.execute(statement)).scalar_one())


@functools.cache
def _counting_unless_staff(dialect_name: str, windows: int) -> Executable:
    """The statement of ``count_unless_staff`` for ``windows`` windows, built once a
    dialect (it runs for every answer to the public: building it, and finding its key
    in SQLAlchemy's cache of compiled statements, cost more than running it)."""
    users, counts = cast(Table, User.__table__), cast(Table, SendCount.__table__)
    phone = bindparam("phone", type_=String())
    staff = exists().where(users.c.phone == phone, users.c.active.is_(True))
    rows = union_all(
        *(
            select(
                bindparam(f"window_{n}", type_=String()).label("window"),
                bindparam("day", type_=Date()).label("day"),
                literal(1, Integer).label("count"),
            ).where(~staff)
            for n in range(windows)
        )
    )
    insert = postgresql.insert if dialect_name == "postgresql" else sqlite.insert
    # Of the table, not the ORM class: a statement the ORM would take its parameters
    # for rows to insert (its "bulk" INSERT).
    return (
        insert(counts)
        .from_select(["window", "day", "count"], rows)
        .on_conflict_do_update(index_elements=["window"], set_={"count": counts.c.count + 1})
        .returning(counts.c.window, counts.c.count)
    )


async def count_unless_staff(
    tx: Tx, phone: str, day: date, windows: Sequence[str]
) -> dict[str, int] | None:
    """One more in each of ``windows`` (rows made on their first), under their rows'
    locks until the transaction ends, unless an active keeper, officer or administrator
    has the number ``phone``: the counts now, or None for staff (nothing counted). One
    statement: it runs for every answer to the public."""
    statement = _counting_unless_staff(dialect(tx), len(windows))
    params: dict[str, Any] = {f"window_{n}": key for n, key in enumerate(windows)}
    params |= {"phone": phone, "day": day}
    counted = {key: int(n) for key, n in (await tx.session.execute(statement, params)).all()}
    return counted or None


async def uncount(tx: Tx, windows: Sequence[str]) -> None:
    """One less in each of ``windows``."""
    await tx.session.execute(
        update(SendCount)
        .where(SendCount.window.in_(list(windows)))
        .values(count=SendCount.count - 1)
    )


async def forget_before(tx: Tx, day: date) -> None:
    """The counts of the days before ``day`` go."""
    await tx.session.execute(delete(SendCount).where(SendCount.day < day))
