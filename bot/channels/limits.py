"""Answers per sender: how many messages of one sender are answered in a window.

Each SMS answer costs the authority money, and each Telegram answer takes a slot of the
bot's 30 a second: one sender must not be able to spend either without end. The Act is
silent; the limits are the authority's policy (``[limits]`` in the configuration).

The count is a row per channel and sender (``sender_counts``), read and written in the
transaction that handles the message, under the row's lock: it holds across
instances, and two messages of one sender are counted one after the other. A window
starts with the first message after the last window ended. The message past the limit
gets one answer saying when the window ends; later ones none until then. What was sent
is stored all the same (the inbox keeps it). The console is not limited.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Table, bindparam, case, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import Executable

from bot.config import SenderLimits
from bot.store.models import SenderCount
from bot.store.tx import Tx

__all__ = ["WRONG_INVITE", "Admission", "admit", "charge"]

#: What a wrong invite code counts for (one more than a message): guessing is slowed.
WRONG_INVITE = 2


@dataclass(frozen=True, slots=True)
class Admission:
    """Whether to act on a message and answer it; else whether to tell the sender once
    that they must wait ``until``."""

    answer: bool
    tell: bool
    until: datetime


_TABLE = cast(Table, SenderCount.__table__)


@functools.cache
def _counting(dialect: str) -> Executable:
    """The statement that counts a message, built once a dialect (it is run for every
    message; SQLAlchemy compiles it once, then finds it in its cache)."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    now = bindparam("now", type_=_TABLE.c.window_start.type)
    passed = _TABLE.c.window_start <= bindparam("window_over", type_=now.type)
    return (
        insert(_TABLE)
        .values(
            channel=bindparam("who_channel"),
            sender=bindparam("who"),
            window_start=now,
            count=1,
            told=False,
        )
        .on_conflict_do_update(
            index_elements=["channel", "sender"],
            set_={
                "window_start": case((passed, now), else_=_TABLE.c.window_start),
                "count": case(
                    (passed, 1),
                    (_TABLE.c.count <= bindparam("allowance"), _TABLE.c.count + 1),
                    else_=_TABLE.c.count,
                ),
                "told": case((passed, False), else_=_TABLE.c.told),
            },
        )
        .returning(_TABLE.c.window_start, _TABLE.c.count, _TABLE.c.told)
    )


_TOLD = (
    update(_TABLE)
    .where(_TABLE.c.channel == bindparam("who_channel"), _TABLE.c.sender == bindparam("who"))
    .values(told=True)
)


async def admit(tx: Tx, limits: SenderLimits, channel: str, sender: str, role: str) -> Admission:
    """Count a message of ``sender`` (in ``role``) and say whether it may be answered.

    One statement counts it: the row is made, or its window started again when it has
    passed, or its count raised (never past one over the allowance), under the row's lock
    until the transaction ends; only the first message past the limit writes again (to
    remember that the sender was told)."""
    allowance = limits.allowance(role)
    bind = tx.session.bind
    who = {"who_channel": channel, "who": sender}
    counting = _counting(bind.dialect.name if bind is not None else "sqlite")
    params = {**who, "now": tx.now, "window_over": tx.now - limits.window, "allowance": allowance}
    window_start, count, told = (await tx.session.execute(counting, params)).one()
    until = window_start + limits.window
    if count <= allowance:
        return Admission(answer=True, tell=False, until=until)
    if not told:
        await tx.session.execute(_TOLD, who)
    return Admission(answer=False, tell=not told, until=until)


async def charge(tx: Tx, channel: str, sender: str, extra: int) -> None:
    """Count ``extra`` more against ``sender`` in the current window (a wrong invite)."""
    await tx.session.execute(
        update(SenderCount)
        .where(SenderCount.channel == channel, SenderCount.sender == sender)
        .values(count=SenderCount.count + extra)
        .execution_options(synchronize_session=False)
    )
