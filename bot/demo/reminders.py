"""Checking the reminders: every one queued so far, at the minute, to the person and with
the words the Act's deadline calls for, and delivered; none other.

The expected text is rendered by ``render.reminder`` in the recipient's language, as
the reminder engine renders it; the demo compares the whole list each time, so a
reminder on the wrong day, to the wrong person or twice is a failed check.
"""

from __future__ import annotations

from datetime import date

from bot.demo.checks import Checks, Sent, reminders_sent
from bot.demo.world import World
from bot.i18n import render, translator
from domain.deadlines import DeadlineKind

__all__ = ["expect_reminders"]

_PROVISION = {
    DeadlineKind.REPORT_DUE: "s.13(1)",
    DeadlineKind.NOTICE_DUE: "s.13(2)",
    DeadlineKind.AUCTION_LAWFUL: "s.13(3)",
    DeadlineKind.AUCTION_DAY: "s.13(3)",
    DeadlineKind.CREDIT_TO_FUND: "s.17(1)",
}

#: (local time queued "YYYY-MM-DD HH:MM", role, deadline, its day)
Expected = tuple[str, str, DeadlineKind, date]


def _day(stamp: str) -> date:
    return date.fromisoformat(stamp[:10])


async def expect_reminders(
    w: World, check: Checks, new: list[Expected], case: str = "KNM-2"
) -> None:
    """Check that the reminders queued so far are those expected before, and ``new``."""
    w.expected_reminders.extend((stamp, role, kind, due, case) for stamp, role, kind, due in new)
    tr = translator(w.phrases.lang).under(w.transcript.act)  # in the words of its Act
    expected = [
        Sent(stamp, role, render.reminder(kind, number, due, _day(stamp), tr), "sent")
        for stamp, role, kind, due, number in w.expected_reminders
    ]
    found = await reminders_sent(w.app, w.transcript.chats)
    wrong = {
        "missing": [s for s in expected if s not in found],
        "unexpected": [s for s in found if s not in expected],
    }
    for stamp, role, kind, due in new:
        what = f"the reminder of {due:%d %b} ({kind.value}) reached the {role.lower()} at {stamp}"
        check.that(found == expected, _PROVISION[kind], what, wrong)
