"""Names the web desk shows for codes: stages, events, deadlines, roles, channels.

The page templates (``bot/web/templates``) carry their own sentences through ``_()``;
what the store keeps as a code is named here, in the four catalogs.

Why it is long: every stage, event, deadline, role and channel the store keeps has its
name here, and a name that differs by the case's Act (its days and months, where its
money goes) is chosen here, once for every page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import credited_to, day, reported_to, to_office
from bot.i18n.documents.notice import second_round_claim
from domain.case import Case
from domain.profiles import Destination, Office, Power, Profile
from domain.stages import Stage

__all__ = [
    "account_name",
    "board_intro",
    "board_refused_account",
    "buyer_declared",
    "case_stage",
    "channel_name",
    "deadline_name",
    "deadline_on",
    "deposit_window_heading",
    "desk_form",
    "event_name",
    "field_label",
    "role_name",
    "stage_name",
    "step_title",
]

_Name = Callable[[Translator], str]

_STAGES: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — the stage of a case, in a word or two (s.7).
    "impounded": lambda tr: tr.gettext("In the pound"),
    # TRANSLATORS: web desk — stage: released to the owner on payment (s.12).
    "released": lambda tr: tr.gettext("Released"),
    # TRANSLATORS: web desk — stage: delivered to the owner on a deposit (s.14).
    "on_deposit": lambda tr: tr.gettext("Delivered on deposit"),
    # TRANSLATORS: web desk — stage: reported unclaimed (s.13(1)).
    "reported": lambda tr: tr.gettext("Reported unclaimed"),
    # TRANSLATORS: web desk — stage: the notice is posted (s.13(2)).
    "notice_posted": lambda tr: tr.gettext("Notice posted"),
    # TRANSLATORS: web desk — stage: the owner refused to pay (s.15(1)).
    "owner_refused": lambda tr: tr.gettext("Owner refused to pay"),
    # TRANSLATORS: web desk — stage: being sold at auction (s.13(3)).
    "selling": lambda tr: tr.gettext("Being sold"),
    # TRANSLATORS: web desk — stage: the account awaits the owner (s.15(3)).
    "account_due": lambda tr: tr.gettext("Account due"),
    # TRANSLATORS: web desk — stage: the balance is held in deposit (s.16(3)).
    "in_deposit": lambda tr: tr.gettext("Balance in deposit"),
    # TRANSLATORS: web desk — stage: the case is closed.
    "closed": lambda tr: tr.gettext("Closed"),
    # TRANSLATORS: web desk — stage: voided as entered by mistake (s.7).
    "voided": lambda tr: tr.gettext("Voided"),
    # TRANSLATORS: web desk — stage: the owner refused the account; the cattle left are
    # deemed unclaimed and go the s.13 way (s.15(5)).
    "deemed_unclaimed": lambda tr: tr.gettext("Deemed unclaimed (s.15(5))"),
}

_EVENTS: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — an event in a case's timeline (s.7).
    "Impounded": lambda tr: tr.gettext("Cattle brought to the pound"),
    "SeizureCorrected": lambda tr: tr.gettext("Seizure report corrected"),
    "CaseVoided": lambda tr: tr.gettext("Case voided"),
    "ClaimedAndPaid": lambda tr: tr.gettext("Claimed and paid; released"),
    "DeliveredOnDeposit": lambda tr: tr.gettext("Delivered on deposit"),
    "DepositOutcome": lambda tr: tr.gettext("Outcome of the complaint"),
    # TRANSLATORS: web desk — an event (s.19): the deposit was paid back to the owner.
    "DepositRefunded": lambda tr: tr.gettext("Deposit refunded to the owner"),
    "ReportedUnclaimed": lambda tr: tr.gettext("Reported unclaimed"),
    "NoticePosted": lambda tr: tr.gettext("Notice posted and proclaimed"),
    "OwnerRefusedToPay": lambda tr: tr.gettext("Owner refused to pay"),
    "AuctionScheduled": lambda tr: tr.gettext("Auction fixed"),
    "LotOffered": lambda tr: tr.gettext("Lot offered at auction"),
    "DisposedOtherwise": lambda tr: tr.gettext("Disposed of otherwise"),
    "SaleClosed": lambda tr: tr.gettext("Sale settled"),
    "AccountDelivered": lambda tr: tr.gettext("Account delivered; receipt given"),
    "AccountRefused": lambda tr: tr.gettext("Account refused"),
    "DepositClaimed": lambda tr: tr.gettext("Deposit claimed"),
    "CreditedToFund": lambda tr: (
        # TRANSLATORS: web desk — an event (s.17(1)); %(to_fund)s is where, as "to the
        # fund" (or "to State revenue") is translated.
        tr.gettext("Credited %(to_fund)s") % {"to_fund": credited_to(tr, short=True)}
    ),
    # TRANSLATORS: web desk — an event (s.16(3)): a claim to the deposit preferred.
    "ClaimPreferred": lambda tr: tr.gettext("Claim to the deposit preferred"),
    # TRANSLATORS: web desk — an event (s.16(3)): the claim pending was not established.
    "ClaimRejected": lambda tr: tr.gettext("Claim rejected"),
    # TRANSLATORS: web desk — an event (s.15(2)): the actual expenses of sale stated.
    "SaleExpensesStated": lambda tr: tr.gettext("Expenses of sale stated"),
}

_DEADLINES: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — a deadline of a case (s.13(1)).
    "report_due": lambda tr: tr.gettext("Report the cattle unclaimed"),
    # TRANSLATORS: web desk — a deadline (s.13(2)).
    "notice_due": lambda tr: tr.gettext("Post the notice"),
    # TRANSLATORS: web desk — a day (s.13(3)).
    "auction_lawful": lambda tr: tr.gettext("Auction lawful from"),
    # TRANSLATORS: web desk — a day (s.13(3), s.15(1)).
    "auction_day": lambda tr: tr.gettext("Auction day"),
    # TRANSLATORS: web desk — a day (s.19).
    "complaint_window_ends": lambda tr: tr.gettext("Last day to complain"),
    # TRANSLATORS: web desk — a day (s.16(3)): the months the deposit is held end
    # (%(months)d: three under the Kerala Act).
    "deposit_window_ends": lambda tr: (
        tr.ngettext(
            "%(months)d month of the deposit ends",
            "%(months)d months of the deposit end",
            tr.act.surplus_months,
        )
        % {"months": tr.act.surplus_months}
    ),
    "credit_to_fund": lambda tr: (
        # TRANSLATORS: web desk — a day (s.17(1)); %(to_fund)s is where, as "to the fund"
        # (or "to State revenue") is translated.
        tr.gettext("Credit the deposit %(to_fund)s") % {"to_fund": credited_to(tr, short=True)}
    ),
    # TRANSLATORS: web desk — a deadline (s.16(3)): a claim preferred, to be decided.
    "claim_pending": lambda tr: tr.gettext("Decide the claim pending"),
}

#: The deadlines whose name runs into its day ("Auction lawful from 17 Mar 2026"): the
#: name and the day in one text, in the order the language puts them.
_DEADLINES_ON: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: web desk — the first day the auction is lawful (s.13(3)); %(date)s is
    # the day, as "9 Mar 2026".
    "auction_lawful": lambda tr: tr.gettext("Auction lawful from %(date)s"),
}

_ROLES: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — who recorded an event.
    "keeper": lambda tr: tr.gettext("pound-keeper"),
    "officer": lambda tr: tr.gettext("officer"),
    "admin": lambda tr: tr.gettext("administrator"),
    "owner": lambda tr: tr.gettext("owner"),
    "system": lambda tr: tr.gettext("poundbot"),
}

_CHANNELS: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — how an event was recorded.
    "sms": lambda tr: tr.gettext("by SMS"),
    "telegram": lambda tr: tr.gettext("on Telegram"),
    "web": lambda tr: tr.gettext("on the web desk"),
    "console": lambda tr: tr.gettext("at the console"),
}

_MESSAGE_CHANNELS: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk, the log of messages — the channel a message went by.
    "sms": lambda tr: tr.gettext("SMS"),
    "whatsapp": lambda tr: tr.gettext("WhatsApp"),
    "telegram": lambda tr: tr.gettext("Telegram"),
}

_MESSAGE_STATUSES: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk, the log of messages — where a message stands.
    "received": lambda tr: tr.gettext("received"),
    "answered": lambda tr: tr.gettext("answered"),
    "queued": lambda tr: tr.gettext("queued"),
    # TRANSLATORS: web desk — an SMS to an owner waits for the morning (no SMS at night).
    "held": lambda tr: tr.gettext("held for the night"),
    "sent": lambda tr: tr.gettext("sent"),
    "delivered": lambda tr: tr.gettext("delivered"),
    "failed": lambda tr: tr.gettext("failed"),
    # TRANSLATORS: web desk — the SMS was refused under the DLT rules of TRAI.
    "dlt": lambda tr: tr.gettext("refused by DLT"),
    "stop": lambda tr: tr.gettext("dropped: the number said STOP"),
    "ceiling": lambda tr: tr.gettext("dropped: the spending ceiling was reached"),
    # TRANSLATORS: web desk — not sent: the case had moved past what it said.
    "overtaken": lambda tr: tr.gettext("dropped: the case has moved on"),
}

_ACCOUNTS: Final[dict[str, _Name]] = {
    "fines": lambda tr: _fines_account(tr),
    # TRANSLATORS: web desk — a ledger account: feeding charges to the keeper (s.4, s.16(2)).
    "keeper_feeding": lambda tr: tr.gettext("Feeding charges to the keeper"),
    # TRANSLATORS: web desk — a ledger account: expenses of the sale (s.15(2)).
    "sale_expenses": lambda tr: tr.gettext("Expenses of the sale"),
    # TRANSLATORS: web desk — a ledger account: the balance due to the owner (s.15(3)).
    "owner_balance": lambda tr: tr.gettext("Balance to the owner"),
    # TRANSLATORS: web desk — a ledger account: surplus held in deposit (s.16(3)).
    "surplus_deposit": lambda tr: tr.gettext("Surplus in deposit"),
    # TRANSLATORS: web desk — a ledger account: deposit taken under protest (s.14).
    "protest_deposit": lambda tr: tr.gettext("Deposit under protest"),
    "fund": lambda tr: _fund_account(tr),
}


def _fines_account(tr: Translator) -> str:
    """The ledger account of the fines, named by the office they go to (s.16(1))."""
    office = tr.act.office_for(Power.RECEIVE_FINES)
    if office is Office.LOCAL_AUTHORITY:
        # TRANSLATORS: web desk — a ledger account: fines to the local authority (s.11,
        # s.17(1)).
        return tr.gettext("Fines to the local authority")
    # TRANSLATORS: web desk — a ledger account: fines sent to another office than the
    # local authority (the District Magistrate, under the Cattle-trespass Act, 1871);
    # %(to_office)s is that office, as "to the District Magistrate" is translated.
    return tr.gettext("Fines, sent %(to_office)s") % {"to_office": to_office(office, tr)}


def _fund_account(tr: Translator) -> str:
    """The ledger account the unclaimed surplus is credited to (s.17(1))."""
    if tr.act.surplus_to is Destination.LOCAL_FUND:
        # TRANSLATORS: web desk — a ledger account: the fund of the local authority
        # (s.17(1)).
        return tr.gettext("Fund of the local authority")
    # TRANSLATORS: web desk — a ledger account: the revenue of the State, credited with
    # the unclaimed surplus under the Cattle-trespass Act, 1871 (s.17).
    return tr.gettext("State revenue")


_STEPS: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — the title and button of a form: a step of a case (s.12).
    "paid": lambda tr: tr.gettext("The owner paid: release (s.12)"),
    # TRANSLATORS: web desk — a step (s.14).
    "deposited": lambda tr: tr.gettext("The owner deposited under protest (s.14)"),
    "report": lambda tr: (
        # TRANSLATORS: web desk — a step (s.13(1)); %(to_office)s is whom the report is
        # made to, with its ending ("to the local authority"; under the Cattle-trespass
        # Act, 1871 "to the officer in charge of the nearest police station").
        tr.gettext("Report unclaimed %(to_office)s (s.13(1))") % {"to_office": reported_to(tr)}
    ),
    # TRANSLATORS: web desk — a step (s.15(1)).
    "refused": lambda tr: tr.gettext("The owner refused to pay (s.15(1))"),
    # TRANSLATORS: web desk — a step (s.13(2)).
    "notice": lambda tr: tr.gettext("Notice posted and proclaimed (s.13(2))"),
    # TRANSLATORS: web desk — a step (s.13(3), s.15(1)).
    "auction": lambda tr: tr.gettext("Fix the auction (s.13(3))"),
    # TRANSLATORS: web desk — a step (s.13(3), s.18).
    "sold": lambda tr: tr.gettext("Heads of a lot sold (s.13(3))"),
    # TRANSLATORS: web desk — a step (s.13(3)).
    "unsold": lambda tr: tr.gettext("Heads of a lot not sold (s.13(3))"),
    # TRANSLATORS: web desk — a step (s.15(2), s.16).
    "settle": lambda tr: tr.gettext("Close the sale and settle (s.15(2))"),
    # TRANSLATORS: web desk — a step (s.15(4)).
    "receipt": lambda tr: tr.gettext("The owner took the account and signed (s.15(4))"),
    # TRANSLATORS: web desk — a step (s.15(5)).
    "account_refused": lambda tr: tr.gettext("The owner refused the account (s.15(5))"),
    # TRANSLATORS: web desk — a step (s.16(3)).
    "claim": lambda tr: tr.gettext("A claim to the deposit established (s.16(3))"),
    "fund": lambda tr: (
        # TRANSLATORS: web desk — a step (s.17(1)); %(to_fund)s is where, as "to the fund"
        # (or "to State revenue") is translated.
        tr.gettext("Credit the deposit %(to_fund)s (s.17(1))")
        % {"to_fund": credited_to(tr, short=True)}
    ),
    # TRANSLATORS: web desk — a step (s.13(3) proviso).
    "dispose": lambda tr: tr.gettext("Heads disposed of by order (s.13(3) proviso)"),
    # TRANSLATORS: web desk — a step (s.16(3)).
    "claimed": lambda tr: tr.gettext("A claim to the deposit preferred (s.16(3))"),
    # TRANSLATORS: web desk — a step (s.16(3)).
    "reject": lambda tr: tr.gettext("The claim pending rejected (s.16(3))"),
    # TRANSLATORS: web desk — a step (s.14, s.19).
    "outcome": lambda tr: tr.gettext("Outcome of the complaint (s.14, s.19)"),
    # TRANSLATORS: web desk — a step (s.7).
    "void": lambda tr: tr.gettext("Void: entered by mistake (s.7)"),
    # TRANSLATORS: web desk — a step (s.7): correct a fact of the seizure report.
    "correct": lambda tr: tr.gettext("Correct the seizure report (s.7)"),
}

_FIELDS: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — a form field: the day of the step; empty means today.
    "on": lambda tr: tr.gettext("Day (empty: today)"),
    # TRANSLATORS: web desk — a form field: the day the auction is held.
    "auction.on": lambda tr: tr.gettext("Day of the auction"),
    # TRANSLATORS: web desk — a form field: where the auction is held.
    "auction.place": lambda tr: tr.gettext("Place of the auction"),
    # TRANSLATORS: web desk — a form field (s.13(2)): the places where the notice was
    # proclaimed (by beat of drum, where the Act has one), separated by commas.
    "places": lambda tr: tr.gettext("Proclaimed at (places, separated by commas)"),
    # TRANSLATORS: web desk — a form field: which lot of the case.
    # TRANSLATORS: s.7 — the lot whose owner pays, deposits or refuses for their own
    # cattle, in a case of cattle of more than one owner.
    "paid.lot": lambda tr: tr.gettext("Whose cattle: the owner of lot"),
    "deposited.lot": lambda tr: tr.gettext("Whose cattle: the owner of lot"),
    "refused.lot": lambda tr: tr.gettext("Whose cattle: the owner of lot"),
    "lot": lambda tr: tr.gettext("Lot"),
    # TRANSLATORS: web desk — a form field: how many heads of the lot.
    "count": lambda tr: tr.gettext("Heads"),
    # TRANSLATORS: web desk — a form field: the price, in rupees.
    "sold.amount": lambda tr: tr.gettext("Price (rupees)"),
    # TRANSLATORS: web desk — a form field: the buyer's name.
    "sold.person": lambda tr: tr.gettext("Buyer"),
    # TRANSLATORS: web desk — a form field (s.15(2)): the expenses of the sale, in rupees.
    "settle.amount": lambda tr: tr.gettext("Expenses of the sale (rupees)"),
    # TRANSLATORS: web desk — a form field (s.18): where the buyer lives.
    "sold.place": lambda tr: tr.gettext("Buyer's residence"),
    # TRANSLATORS: web desk — a form field (s.15(2)): the expected expenses of the sale,
    # in rupees; empty: the authority's default.
    "auction.expenses": lambda tr: tr.gettext("Expected expenses of sale (rupees; empty: default)"),
    # TRANSLATORS: web desk — a form field (s.13(3) proviso): proceeds of the disposal.
    "dispose.amount": lambda tr: tr.gettext("Proceeds, if any (rupees)"),
    # TRANSLATORS: web desk — a form field (s.13(3) proviso): who ordered the disposal.
    "dispose.person": lambda tr: tr.gettext("Ordered by"),
    # TRANSLATORS: web desk — a form field (s.13(3) proviso): the order's reference.
    "dispose.reference": lambda tr: tr.gettext("Order reference"),
    # TRANSLATORS: web desk — a form field (s.13(3) proviso): how the cattle were disposed of.
    "dispose.description": lambda tr: tr.gettext("Manner of disposal"),
    # TRANSLATORS: web desk — a form field (s.16(3)): who preferred the claim.
    "claimed.person": lambda tr: tr.gettext("Claimant"),
    # TRANSLATORS: web desk — a form field (s.14, s.19): what the complaint decided.
    "outcome.outcome": lambda tr: tr.gettext("Outcome"),
    # TRANSLATORS: web desk — an outcome (s.14, s.19): the seizure was upheld.
    "outcome.upheld": lambda tr: tr.gettext("Seizure upheld"),
    # TRANSLATORS: web desk — an outcome (s.14, s.19): the seizure was found illegal.
    "outcome.illegal": lambda tr: tr.gettext("Seizure found illegal"),
    # TRANSLATORS: web desk — a form field (s.15(4)): who signed the receipt.
    "receipt.person": lambda tr: tr.gettext("Received by"),
    # TRANSLATORS: web desk — a form field (s.16(3)): who claimed the deposit.
    "claim.person": lambda tr: tr.gettext("Claimant"),
    # TRANSLATORS: web desk — a form field (s.16(3)): the day the claim was preferred
    # (within the three months); empty: the day of the claim pending.
    "claim.preferred": lambda tr: tr.gettext(
        "Day the claim was preferred (empty: the pending claim's)"
    ),
    # TRANSLATORS: web desk — a form field (s.16(3)): the day the claim was established.
    "claim.on": lambda tr: tr.gettext("Day it was established (empty: today)"),
    # TRANSLATORS: web desk — a form field: the reference of the claim's order.
    "reference": lambda tr: tr.gettext("Reference"),
    # TRANSLATORS: web desk — a form field: why the case is voided or corrected.
    "reason": lambda tr: tr.gettext("Reason"),
    # TRANSLATORS: web desk — a form field of CORRECT: which fact of the report.
    "field": lambda tr: tr.gettext("What to correct"),
    # TRANSLATORS: web desk — a form field of CORRECT: the corrected fact.
    "value": lambda tr: tr.gettext("Corrected to"),
    # TRANSLATORS: web desk — a fact of the seizure report: where the cattle were seized.
    "correct.place": lambda tr: tr.gettext("Place seized"),
    # TRANSLATORS: web desk — a fact of the seizure report: who seized the cattle.
    "correct.seizer": lambda tr: tr.gettext("Seized by"),
}


#: The steps of the sale on the owner's route (s.15(1)), where the others cite s.13(3).
_OWNERS_ROUTE_STEPS: Final[dict[str, _Name]] = {
    # TRANSLATORS: web desk — a step (s.15(1)): the owner refused or omitted to pay.
    "auction": lambda tr: tr.gettext("Fix the auction (s.15(1))"),
    # TRANSLATORS: web desk — a step (s.15(1), s.18).
    "sold": lambda tr: tr.gettext("Heads of a lot sold (s.15(1))"),
    # TRANSLATORS: web desk — a step (s.15(1)).
    "unsold": lambda tr: tr.gettext("Heads of a lot not sold (s.15(1))"),
}


def step_title(command: str, tr: Translator, sale: str | None = None) -> str:
    """A step of a case (a form of the web desk) in words; the steps of the sale cite
    its route's provision (``sale``: s.13(3) or s.15(1)) when it is known."""
    if sale == "s.15(1)" and command in _OWNERS_ROUTE_STEPS:
        return _OWNERS_ROUTE_STEPS[command](tr)
    return _name(_STEPS, command, tr)


def desk_form(command: str, tr: Translator, sale: str | None = None, *, below: bool = True) -> str:
    """A step's form as an answer on the desk names it where the chat names the command
    to send (``bot.i18n.sms_keyword.on_desk``): ``below`` on the reader's case page, or
    on the page of the other role that takes the step."""
    values = {"form": step_title(command, tr, sale)}
    if below:
        # TRANSLATORS: web desk — in an answer shown on the desk, where a chat answer says
        # which command to send: the form of that step on the case page, by its title (as
        # in "Fix its day and place with the form “Fix the auction (s.13(3))” below"). The
        # answers around it put it where they put a command word (in quotes, if yours do).
        return tr.gettext("the form “%(form)s” below") % values
    # TRANSLATORS: web desk — the same, of a step the other role takes on its own page of
    # the case (the pound-keeper records a payment, the officer the sale).
    return tr.gettext("the form “%(form)s”") % values


def field_label(command: str, name: str, tr: Translator) -> str:
    """The label of a field of a step's form."""
    found = _FIELDS.get(f"{command}.{name}") or _FIELDS.get(name)
    return found(tr) if found is not None else name


def account_name(code: str, tr: Translator) -> str:
    """A ledger account in words."""
    return _name(_ACCOUNTS, code, tr)


def board_intro(tr: Translator) -> str:
    """The first lines of the public notice board."""
    # TRANSLATORS: s.13(2) — the public notice board on the web: what it lists, for
    # owners looking for their cattle.
    return tr.gettext(
        "Cattle impounded and not claimed, for which the notice of s.13(2) is posted. "
        "The owner may claim them at the pound, paying the fines and charges, before the "
        "auction."
    )


def board_refused_account(tr: Translator) -> str:
    """On the public notice board, under cattle the owner refused after a sale in part
    (s.15(5)): how the owner may still claim them (as the notice says)."""
    return second_round_claim(tr)


def buyer_declared(tr: Translator) -> str:
    """The box an officer ticks with SOLD on the web."""
    # TRANSLATORS: s.18 — a box the officer ticks on the web: the buyer signed the
    # declaration that they are not barred from buying.
    return tr.gettext(
        "The buyer signed the declaration that they are not barred from buying (s.18)."
    )


def _name(table: dict[str, _Name], code: str, tr: Translator) -> str:
    found = table.get(code)
    return found(tr) if found is not None else code


def stage_name(code: str, tr: Translator) -> str:
    """The stage of a case in a word or two."""
    return _name(_STAGES, code, tr)


def case_stage(case: Case, tr: Translator) -> str:
    """The stage of ``case`` in a few words, saying so when its auction is fixed."""
    fixed = case.scheduled_auction
    if fixed is not None and case.stage in (Stage.NOTICE_POSTED, Stage.OWNER_REFUSED):
        # TRANSLATORS: web desk — the stage of a case whose public auction is fixed for a
        # day (s.13(3), s.15(1)).
        return tr.gettext("Auction fixed for %(date)s") % {"date": day(fixed.auction_on, tr)}
    return stage_name(case.stage.value, tr)


def event_name(code: str, tr: Translator) -> str:
    """An event of the audit log (its type name) in words."""
    return _name(_EVENTS, code, tr)


def deadline_name(code: str, tr: Translator) -> str:
    """A deadline (``domain.deadlines.DeadlineKind`` value) in words."""
    return _name(_DEADLINES, code, tr)


def deadline_on(code: str, when: str, tr: Translator, mark: str = ", ") -> str:
    """A deadline and its day ``when``: "Post the notice, 9 Mar 2026" (``mark`` between
    them), or a name that runs into its day without one ("Auction lawful from
    17 Mar 2026")."""
    runs_into = _DEADLINES_ON.get(code)
    if runs_into is not None:
        return runs_into(tr) % {"date": when}
    return f"{deadline_name(code, tr)}{mark}{when}"


def deposit_window_heading(acts: Iterable[Profile], tr: Translator) -> str:
    """The head of the column of the days the deposits' months end (s.16(3)): their
    number when the Acts of the deposits listed (``acts``) hold them alike, else when
    claims end."""
    months = {act.surplus_months for act in acts} or {tr.act.surplus_months}
    if len(months) > 1:
        # TRANSLATORS: web desk — a column head: the last day claims to a deposit may be
        # preferred (s.16(3)), for deposits held for different numbers of months.
        return tr.gettext("Claims until")
    n = months.pop()
    # TRANSLATORS: web desk — a column head: the day the months a deposit is held end
    # (s.16(3); %(months)d: three under the Kerala Act).
    return tr.ngettext("%(months)d month ends", "%(months)d months end", n) % {"months": n}


def role_name(code: str, tr: Translator) -> str:
    """A role in words."""
    return _name(_ROLES, code, tr)


def channel_name(code: str, tr: Translator) -> str:
    """A channel in words."""
    return _name(_CHANNELS, code, tr)


def message_channel(code: str, tr: Translator) -> str:
    """The channel of a message of the log in a word."""
    return _name(_MESSAGE_CHANNELS, code, tr)


def message_status(code: str, tr: Translator) -> str:
    """The status of a message of the log (``bot.store.message_reads.STATUSES``) in words."""
    return _name(_MESSAGE_STATUSES, code, tr)
