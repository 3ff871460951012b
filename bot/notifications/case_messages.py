"""Messages about a case, rendered when they are sent: a check and the composer of the
send gate (``bot.adapters.outbox.Gate``), registered by the composition root.

A message to an owner or an officer about a case is queued as what it is (``About``: its
kind, the case, the reader's language, and what the kind names), not only as a text
written at the moment of the step. When the outbox sends it (an owner's SMS may wait for
the morning; a back-dated paper record is entered after the cattle left; a retry comes an
hour later), the case is read again:

- a message whose kind no longer applies at the case's stage is dropped and counted
  (``poundbot_case_messages_overtaken_total{kind}``): the intake SMS ("pay … to take them
  back") once the owner cannot pay and take them (paid, on deposit, sold, deemed
  unclaimed); the auction's SMS once that auction is no longer the one fixed, or no head
  is left to sell; the SMS that an auction is cancelled (a correction superseded its
  notice) once an auction is fixed again for that day or the cattle left the pound; the
  keeper's report to the officer ("the notice is due now") once the notice is recorded;
- one that still applies is rendered from the case's statement of that day (the dues to
  the day, the report's day), in the reader's language, as an SMS when it goes by SMS;
  the intake SMS to an owner of some of the cattle of a case of more than one owner, of
  their own lots alone, and dropped once their lots left the case (``bot.services.owners``).

A message queued before messages recorded what they are goes as it was queued.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Final, NamedTuple

from bot.adapters.send_gate import Outgoing
from bot.i18n import render, reply_language, translator
from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import rendering_sms
from bot.observe.metrics import CASE_MESSAGES_OVERTAKEN
from bot.services.base import Deps, statement_of
from bot.services.owners import is_owners_number, owners_case
from bot.store.tx import Tx
from bot.support.dlt import PART
from bot.support.errors import UnknownCaseError
from domain.case import Case
from domain.stages import Stage
from domain.statement import Statement

__all__ = ["ACCOUNT", "AUCTION", "CANCELLED", "IMPOUNDED", "KINDS", "REPORT", "CaseMessages"]

#: The kinds of message about a case.
IMPOUNDED: Final = "owner_impounded"  # to the owner, on intake (s.7, s.11, s.4, s.12, s.14)
AUCTION: Final = "owner_auction"  # to the owner, when the auction is fixed (s.13(3), s.15(1))
#: To the owner, when a correction of what the notice stated cancelled the auction fixed
#: on it (s.13(2), s.13(3)).
CANCELLED: Final = "owner_auction_cancelled"
ACCOUNT: Final = "owner_account"  # to the owner, the account of the sale (s.15(3))
REPORT: Final = "officer_report"  # to the officers, the keeper's report (s.13(1), s.13(2))


class _Facts(NamedTuple):
    """What a kind reads: the case, its statement on the day, the pound's name, and what
    the message names (``ref``)."""

    case: Case
    statement: Statement
    pound_name: str
    ref: str
    #: Whether the reader's number is still that of an owner of the cattle the message
    #: is about (an intake SMS to one owner of some of them).
    theirs: bool = True


class _Kind(NamedTuple):
    """Whether a message of a kind still applies to the case, and its text from the
    case's facts of the day; ``staff``: rendered as staff's SMS are (names in DLT
    variables, in parts), as ``bot.notifications.notify`` queues them."""

    applies: Callable[[_Facts], bool]
    text: Callable[[_Facts, Translator], str]
    staff: bool = False


def _may_take_back(facts: _Facts) -> bool:
    """The intake SMS tells the owner how to take the cattle back on paying the dues:
    while they may, and no head is sold (then what they pay is what the proceeds leave
    owed, s.15(1), which DUES tells)."""
    st = facts.statement
    sold = st.sale is not None and bool(st.sale.proceeds)
    return st.payable and st.heads_in_pound > 0 and not sold


def _auction_stands(facts: _Facts) -> bool:
    """The auction the message announces is still the one fixed, with heads to sell."""
    fixed = facts.case.scheduled_auction
    return (
        fixed is not None
        and fixed.auction_on.isoformat() == facts.ref
        and facts.statement.heads_in_pound > 0
        and facts.case.stage in (Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING)
    )


def _auction_cancelled(facts: _Facts) -> bool:
    """The auction the message says is cancelled is not fixed for that day again, and
    the cattle are still in the pound on their way to a sale (a new notice to post, or
    posted)."""
    fixed = facts.case.scheduled_auction
    return (
        (fixed is None or fixed.auction_on.isoformat() != facts.ref)
        and facts.statement.heads_in_pound > 0
        and facts.case.stage in (Stage.REPORTED, Stage.NOTICE_POSTED)
    )


def _notice_due(facts: _Facts) -> bool:
    """The report tells the officer the s.13(2) notice is due: until it is recorded."""
    return facts.case.stage is Stage.REPORTED


def _intake(facts: _Facts, tr: Translator) -> str:
    st = facts.statement
    return render.intake_sms(facts.case, st.dues, st.daily_rate, facts.pound_name, tr)


def _auction(facts: _Facts, tr: Translator) -> str:
    fixed = facts.case.scheduled_auction
    assert fixed is not None
    return render.auction_sms(facts.case.number, fixed.auction_on, fixed.place, tr)


def _cancelled(facts: _Facts, tr: Translator) -> str:
    return render.auction_cancelled_sms(facts.case.number, date.fromisoformat(facts.ref), tr)


def _account(facts: _Facts, tr: Translator) -> str:
    account = facts.statement.account
    assert account is not None
    return render.account_sms(account, tr)


def _report(facts: _Facts, tr: Translator) -> str:
    case = facts.case
    reported = case.reported_on or facts.statement.on
    return render.report_to_officer(case, facts.pound_name, reported, tr)


KINDS: Final[dict[str, _Kind]] = {
    IMPOUNDED: _Kind(_may_take_back, _intake),
    AUCTION: _Kind(_auction_stands, _auction),
    CANCELLED: _Kind(_auction_cancelled, _cancelled),
    ACCOUNT: _Kind(lambda facts: facts.statement.account is not None, _account),
    REPORT: _Kind(_notice_due, _report, staff=True),
}


def _part(text: str, key: str) -> str | None:
    """The part of ``text`` that the row keyed ``key`` carries (an SMS in parts is a row
    a part: ``key``, ``key#2``, …); None when the text now has fewer parts."""
    parts = [p for p in text.split(PART) if p.strip()] if PART in text else [text]
    base, _, n = key.rpartition("#")
    index = int(n) - 1 if base and n.isdecimal() else 0
    return parts[index] if index < len(parts) else None


class CaseMessages:
    """The send gate's check that a message about a case still applies (``name``:
    ``overtaken``), and its composer: the text from the case's statement of the day."""

    name = "overtaken"

    def __init__(self, deps: Callable[[], Deps]) -> None:
        #: The dependencies as they are when a message is sent (``App.deps``: the
        #: configuration in force then, not at start).
        self.deps = deps

    async def _facts(self, tx: Tx, message: Outgoing) -> tuple[_Kind, _Facts] | None:
        kind = KINDS.get(message.kind or "")
        if kind is None or not message.case:
            return None
        try:
            loaded = await tx.load_case(message.case)
        except (UnknownCaseError, ValueError):
            return None
        case = loaded.case
        deps = self.deps()
        pound = deps.config.pounds[case.seizure.pound]
        if message.kind == IMPOUNDED:
            # An owner of some of the cattle is told of their own lots alone; an intake
            # SMS to an owner by their number (its key ends with it) whose lots have left
            # the case (separated into a case of their own) says nothing of the rest.
            theirs = not message.key.endswith(f":{message.recipient}") or await is_owners_number(
                tx, loaded, message.recipient
            )
            case = await owners_case(tx, loaded, message.recipient, self._today()) or case
        else:
            theirs = True
        statement = statement_of(deps, case, self._today())
        return kind, _Facts(case, statement, pound.name, message.ref or "", theirs)

    def _today(self) -> date:
        return self.deps().today()

    async def __call__(self, tx: Tx, message: Outgoing) -> str | None:
        found = await self._facts(tx, message)
        if found is None:
            return None
        kind, facts = found
        if facts.theirs and kind.applies(facts):
            return None
        CASE_MESSAGES_OVERTAKEN.labels(message.kind or "").inc()
        stage = facts.case.stage.value
        return f"{message.kind} no longer applies to {facts.case.number} ({stage})"

    async def compose(self, tx: Tx, message: Outgoing) -> str | None:
        """The text of ``message`` from its case's statement today (None: as queued)."""
        found = await self._facts(tx, message)
        if found is None:
            return None
        kind, facts = found
        with rendering_sms(kind.staff and message.channel == "sms"):  # as it was queued
            tr = translator(message.lang or reply_language()).under(facts.case.profile)
            text = kind.text(facts, tr)
        return _part(text, message.key)
