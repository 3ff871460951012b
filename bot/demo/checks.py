"""What the demo checks after each step: facts read back from the database.

A check that fails raises ``DemoFailed``: the demo prints it and exits 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapters.export import read_table
from bot.demo.transcript import Transcript
from bot.services.runtime import App
from bot.store.outbox import reminders_queued
from bot.store.reminder_jobs import jobs_counted
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.money import Money

__all__ = [
    "Checks",
    "DemoFailed",
    "LedgerLine",
    "Sent",
    "case_of",
    "jobs_in",
    "ledger_of",
    "reminders_sent",
]


class DemoFailed(Exception):
    """A step did not do what the Act requires."""


class Checks:
    """Counts the checks passed and prints each; the first that fails stops the demo."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.passed = 0

    def that(self, ok: bool, provision: str, what: str, found: object = None) -> None:
        """Check ``ok``: ``what`` is the fact the Act requires, ``found`` what was there."""
        if not ok:
            seen = "" if found is None else f"\n    found: {found}"
            raise DemoFailed(f"({self.transcript.cited(provision)}): {what}{seen}")
        self.passed += 1
        self.transcript.checked(f"{provision}: {what}")


async def case_of(app: App, number: str) -> Case:
    """The case as the store rebuilds it from its events."""
    async with app.store.transaction() as tx:
        return (await tx.load_case(number)).case


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """An entry of the ledger, as the export writes it, and its amount."""

    on: str
    case: str
    account: str
    amount: Money
    provision: str


async def ledger_of(app: App, authority: str) -> list[LedgerLine]:
    """The ledger of ``authority``, oldest first (the rows of ``poundbot export ledger``)."""
    async with app.store.transaction() as tx:
        table = await read_table(tx, "ledger", authority=authority)
    return [
        LedgerLine(on, case, account, Money.rupees(amount), provision)
        for on, _, case, account, amount, provision in table.records
    ]


@dataclass(frozen=True, slots=True)
class Sent:
    """A reminder as the outbox holds it: when it was queued, to whom, what, its status."""

    at: str
    to: str
    body: str
    status: str


async def reminders_sent(app: App, chats: dict[int, str]) -> list[Sent]:
    """Every reminder queued so far, oldest first, with the role of its recipient."""
    async with app.store.transaction() as tx:
        rows = await reminders_queued(tx)
        return [
            Sent(
                row.created_at.astimezone(LOCAL_TZ).strftime("%Y-%m-%d %H:%M"),
                chats.get(int(row.recipient), row.recipient)
                if row.recipient.isdigit()
                else row.recipient,
                row.body,
                row.status,
            )
            for row in rows
        ]


async def jobs_in(app: App, *statuses: str) -> int:
    """How many reminder jobs are in one of ``statuses``."""
    async with app.store.transaction() as tx:
        return await jobs_counted(tx, statuses)
