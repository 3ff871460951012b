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

from dataclasses import dataclass
from datetime import datetime

from bot.config import SenderLimits
from bot.store import senders
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


async def admit(tx: Tx, limits: SenderLimits, channel: str, sender: str, role: str) -> Admission:
    """Count a message of ``sender`` (in ``role``) and say whether it may be answered.

    One statement counts it: the row is made, or its window started again when it has
    passed, or its count raised (never past one over the allowance), under the row's lock
    until the transaction ends; only the first message past the limit writes again (to
    remember that the sender was told)."""
    allowance = limits.allowance(role)
    window_start, count, told = await senders.count_message(
        tx, channel, sender, window_over=tx.now - limits.window, allowance=allowance
    )
    until = window_start + limits.window
    if count <= allowance:
        return Admission(answer=True, tell=False, until=until)
    if not told:
        await senders.mark_told(tx, channel, sender)
    return Admission(answer=False, tell=not told, until=until)


async def charge(tx: Tx, channel: str, sender: str, extra: int) -> None:
    """Count ``extra`` more against ``sender`` in the current window (a wrong invite)."""
    await senders.charge(tx, channel, sender, extra)
