"""What the channels read and write of who writes to poundbot: the sender of a number,
the count of a sender's messages against their limit (``bot.channels.limits``), a
Telegram chat's row (``conversations``) and a registered user's language.

The channels (``bot.channels``) reach these rows only through these functions: they
take plain values and return plain values or rows.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any, cast

from sqlalchemy import String, Table, bindparam, case, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import Executable

from bot.store.messages import SENDER_COLUMNS, sender_joined
from bot.store.models import Conversation, SenderCount, User
from bot.store.tx import Tx

__all__ = [
    "add_chat",
    "charge",
    "chat_for_update",
    "count_message",
    "mark_told",
    "sender_row",
    "set_user_lang",
    "write_chat",
]

_NUMBER = select(bindparam("number", type_=String()).label("phone")).subquery("number")
#: Built once, run for every SMS not read with its claim (``act_on_inbound``): the
#: active user with the number (if any) and what the number's contact row says (its
#: language, the channel it last wrote on), in one row.
_SENDER = select(*SENDER_COLUMNS).select_from(sender_joined(_NUMBER, _NUMBER.c.phone))


async def sender_row(tx: Tx, phone: str) -> Any:
    """The ``SENDER_COLUMNS`` of ``phone`` (``bot.store.messages``), in one row (its
    ``user_id`` None when no active user has the number)."""
    return (await tx.session.execute(_SENDER, {"number": phone})).one()


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


async def count_message(
    tx: Tx, channel: str, sender: str, *, window_over: datetime, allowance: int
) -> tuple[datetime, int, bool]:
    """Count a message of ``sender`` on ``channel`` in one statement: the row made, or
    its window started again at ``tx.now`` when it started at ``window_over`` or before,
    or its count raised (never past one over ``allowance``), under the row's lock until
    the transaction ends. Returns the window's start, the count, and whether the sender
    was told they are past the limit."""
    bind = tx.session.bind
    who = {"who_channel": channel, "who": sender}
    counting = _counting(bind.dialect.name if bind is not None else "sqlite")
    params = {**who, "now": tx.now, "window_over": window_over, "allowance": allowance}
    window_start, count, told = (await tx.session.execute(counting, params)).one()
    return window_start, count, told


async def mark_told(tx: Tx, channel: str, sender: str) -> None:
    """Remember that ``sender`` was told they are past the limit of the window."""
    await tx.session.execute(_TOLD, {"who_channel": channel, "who": sender})


async def charge(tx: Tx, channel: str, sender: str, extra: int) -> None:
    """Count ``extra`` more against ``sender`` in the current window."""
    await tx.session.execute(
        update(SenderCount)
        .where(SenderCount.channel == channel, SenderCount.sender == sender)
        .values(count=SenderCount.count + extra)
        .execution_options(synchronize_session=False)
    )


async def chat_for_update(tx: Tx, channel: str, chat_id: str) -> Conversation | None:
    """The chat's row, locked until the end of the transaction (None: none yet)."""
    row: Conversation | None = (
        await tx.session.execute(
            select(Conversation)
            .where(Conversation.channel == channel, Conversation.chat_id == chat_id)
            .with_for_update()
        )
    ).scalar_one_or_none()
    return row


def add_chat(tx: Tx, channel: str, chat_id: str, flow: str, state: dict[str, Any]) -> Conversation:
    """A new chat's row, written with the transaction; returned to be changed in it."""
    row = Conversation(channel=channel, chat_id=chat_id, flow=flow, state=state, updated_at=tx.now)
    tx.session.add(row)
    return row


def write_chat(tx: Tx, row: Conversation, flow: str, state: dict[str, Any]) -> None:
    """The chat's flow in progress and its state, written with the transaction (``state``
    a new dict: the JSON column sees the change)."""
    row.flow, row.state, row.updated_at = flow, state, tx.now


async def set_user_lang(tx: Tx, user_id: int, lang: str) -> None:
    """The registered user ``user_id`` chose ``lang`` (nothing if there is no such user)."""
    user = await tx.session.get(User, user_id)
    if user is not None:
        user.lang = lang
