"""The commands as orders: one small record per command, its fields named for what they
are. The parser (``bot.conversation.commands``) and the web desk's forms
(``bot.web.actions``) make them; the reply (``bot.conversation.reply``) carries each out.

Every order knows the language its keyword was in (``lang``); its command word is the
class's ``name``. An order on a case names the case (``case``) and the day of the step,
when one was given (``on``: else today).

Why it is long: one small record for each of the thirty-four commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from typing import ClassVar

from domain.money import Money

__all__ = [
    "ORDERS",
    "AccountRefused",
    "Auction",
    "CaseOrder",
    "Cases",
    "Claim",
    "Claimed",
    "Correct",
    "Deposit",
    "Deposited",
    "Dispose",
    "Due",
    "Dues",
    "Find",
    "Fund",
    "Help",
    "Lang",
    "Notice",
    "Order",
    "Outcome",
    "Paid",
    "Photo",
    "Receipt",
    "Refunded",
    "Refused",
    "Register",
    "Reject",
    "Report",
    "Seize",
    "SeizeLot",
    "Settle",
    "Sold",
    "Start",
    "Status",
    "Stop",
    "Unsold",
    "Void",
    "Web",
]


@dataclass(frozen=True, slots=True)
class SeizeLot:
    """``<n> <kind> [(description)]`` in a SEIZE line (s.7, s.13(2)(a))."""

    count: int
    kind: str
    description: str = ""
    #: The owner of this lot and their number, when the lots are of more than one owner
    #: (an OWNER written after the lot); blank: the case's owner.
    owner: str = ""
    owner_phone: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Order:
    """A command as parsed: the language its keyword was in."""

    name: ClassVar[str] = ""
    lang: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseOrder(Order):
    """A command on one case: its number, and the day of the step when given."""

    case: str
    on: date | None = None


# --- anyone ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Help(Order):
    name: ClassVar[str] = "help"


@dataclass(frozen=True, slots=True, kw_only=True)
class Find(Order):
    """FIND: the words to look for in the open cases (at most six)."""

    name: ClassVar[str] = "find"
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Lang(Order):
    """LANG: the language chosen for the sender's number."""

    name: ClassVar[str] = "lang"
    choice: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop(Order):
    name: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(Order):
    name: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True, kw_only=True)
class Web(Order):
    name: ClassVar[str] = "web"


@dataclass(frozen=True, slots=True, kw_only=True)
class Dues(CaseOrder):
    name: ClassVar[str] = "dues"


@dataclass(frozen=True, slots=True, kw_only=True)
class Deposit(CaseOrder):
    name: ClassVar[str] = "deposit"


@dataclass(frozen=True, slots=True, kw_only=True)
class Status(CaseOrder):
    name: ClassVar[str] = "status"


# --- keepers -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Seize(Order):
    """SEIZE: the cattle brought in (s.7): the lots, the place of seizure, the day and
    hour brought (when not now), who seized, the owner and the owner's phone when known,
    the day of seizure when not the day brought (s.19), the description shared by the
    lots, and the pound the cattle were brought to when the order names it (an officer's
    on the web desk; a keeper's SEIZE is into their own pound, and the chat's names none).
    """

    name: ClassVar[str] = "seize"
    lots: tuple[SeizeLot, ...]
    place: str
    on: date | None = None
    at: time | None = None
    seizer: str = ""
    description: str = ""
    owner: str = ""
    owner_phone: str | None = None
    seized_on: date | None = None
    pound: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Correct(CaseOrder):
    """CORRECT: one fact of the seizure record (``fact``, one of
    ``bot.support.words.FIELDS``), its new value in the field that holds it, and the
    reason (s.7)."""

    name: ClassVar[str] = "correct"
    fact: str
    reason: str
    lots: tuple[SeizeLot, ...] = ()
    at: time | None = None
    seized_on: date | None = None
    owner: str = ""
    owner_phone: str | None = None
    #: OWNER LOT n: the owner of that lot (and of no other), where the lots are of more
    #: than one owner.
    lot: int | None = None
    #: The new place of seizure, or the new seizer's name.
    text: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Void(CaseOrder):
    """VOID: a case entered by mistake, and why."""

    name: ClassVar[str] = "void"
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Photo(CaseOrder):
    """PHOTO: the photos that come with it are of this case (and lot, when given)."""

    name: ClassVar[str] = "photo"
    lot: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Paid(CaseOrder):
    """PAID (s.12): the amount given, if said (checked against the dues)."""

    name: ClassVar[str] = "paid"
    amount: Money | None = None
    #: LOT n: the lots of that lot's owner only, on their own dues (s.12).
    lot: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Deposited(CaseOrder):
    """DEPOSITED (s.14): the amount given, if said (checked against the dues)."""

    name: ClassVar[str] = "deposited"
    amount: Money | None = None
    #: LOT n: the lots of that lot's owner only, on their own dues (s.14).
    lot: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Report(CaseOrder):
    name: ClassVar[str] = "report"


@dataclass(frozen=True, slots=True, kw_only=True)
class Refused(CaseOrder):
    """REFUSED (s.15(1)): the owner refused or omitted to pay; LOT n: the owner of that
    lot, for their lots only."""

    name: ClassVar[str] = "refused"
    lot: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Cases(Order):
    name: ClassVar[str] = "cases"


@dataclass(frozen=True, slots=True, kw_only=True)
class Due(Order):
    name: ClassVar[str] = "due"


@dataclass(frozen=True, slots=True, kw_only=True)
class Register(Order):
    name: ClassVar[str] = "register"


# --- officers ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Notice(CaseOrder):
    """NOTICE (s.13(2)): the places of the proclamation named; with none and no day, the
    notice to print."""

    name: ClassVar[str] = "notice"
    places: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Auction(CaseOrder):
    """AUCTION: the day fixed (``on``), the place, and the expected expenses of sale
    (s.15(2); None: the authority's default)."""

    name: ClassVar[str] = "auction"
    place: str = ""
    expenses: Money | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Sold(CaseOrder):
    """SOLD: heads of a lot sold at a price to a buyer, who lives at ``residence`` and
    declared they are not barred (s.18); the buyer's phone is matched, not kept."""

    name: ClassVar[str] = "sold"
    lot: int
    count: int
    price: Money
    buyer: str
    residence: str
    buyer_phone: str | None = None
    declared: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Unsold(CaseOrder):
    """UNSOLD: heads of a lot offered and not sold."""

    name: ClassVar[str] = "unsold"
    lot: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Settle(CaseOrder):
    """SETTLE: the expenses of the sale (s.15(2))."""

    name: ClassVar[str] = "settle"
    expenses: Money


@dataclass(frozen=True, slots=True, kw_only=True)
class Receipt(CaseOrder):
    """RECEIPT (s.15(4)): who received the cattle and the balance."""

    name: ClassVar[str] = "receipt"
    received_by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountRefused(CaseOrder):
    name: ClassVar[str] = "account_refused"


@dataclass(frozen=True, slots=True, kw_only=True)
class Dispose(CaseOrder):
    """DISPOSE (s.13(3) proviso): heads of a lot disposed of otherwise, the proceeds, who
    ordered it and the order's reference, and the manner."""

    name: ClassVar[str] = "dispose"
    lot: int
    count: int
    proceeds: Money
    ordered_by: str
    reference: str
    manner: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome(CaseOrder):
    """OUTCOME (s.19): what the complaint of illegal seizure found, and the decision's
    reference."""

    name: ClassVar[str] = "outcome"
    outcome: str
    reference: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Refunded(CaseOrder):
    name: ClassVar[str] = "refunded"


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(CaseOrder):
    """CLAIM (s.16(3)): the claim of ``claimant`` to the deposit established by the
    decision ``reference`` on ``on`` (None: today); ``preferred_on`` the day it was
    preferred (None: the pending claim's day)."""

    name: ClassVar[str] = "claim"
    claimant: str
    reference: str
    preferred_on: date | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Claimed(CaseOrder):
    """CLAIMED (s.16(3)): a claim of ``claimant`` to the deposit preferred, not yet
    decided."""

    name: ClassVar[str] = "claimed"
    claimant: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Reject(CaseOrder):
    """REJECT (s.16(3)): a claim rejected by the decision ``reference``; whose, when
    several are pending."""

    name: ClassVar[str] = "reject"
    reference: str
    claimant: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Fund(CaseOrder):
    name: ClassVar[str] = "fund"


#: Every order by its command word.
ORDERS: dict[str, type[Order]] = {
    cls.name: cls
    for cls in (
        Help,
        Find,
        Lang,
        Stop,
        Start,
        Web,
        Dues,
        Deposit,
        Status,
        Seize,
        Correct,
        Void,
        Photo,
        Paid,
        Deposited,
        Report,
        Refused,
        Cases,
        Due,
        Register,
        Notice,
        Auction,
        Sold,
        Unsold,
        Settle,
        Receipt,
        AccountRefused,
        Dispose,
        Outcome,
        Refunded,
        Claim,
        Claimed,
        Reject,
        Fund,
    )
}
