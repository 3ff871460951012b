"""Every error the domain raises, each with the provision it enforces where there is one."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domain.money import Money

__all__ = [
    "AmountNotDueError",
    "BackwardsDateError",
    "BarredBuyerError",
    "BuyerNotDeclaredError",
    "CorrectionRefusedError",
    "DomainError",
    "DuesUnmetError",
    "EnoughSoldError",
    "FutureDateError",
    "InvalidCaseError",
    "NotAuctionDayError",
    "RateNotInForceError",
    "SeizedAfterBroughtError",
    "TooEarlyError",
    "TransitionRefusedError",
    "UnknownKindError",
    "VoidRefusedError",
]


#: A fact a refusal gives its reason with: a date, a count, a stage's name.
Fact = date | int | str


class DomainError(Exception):
    """Base of every rule the domain refuses; ``provision`` names the rule, ``code`` is stable.

    ``reason`` (a stable key) and ``facts`` say why, so that a reply can give the reason
    ("the ten days to complain ended on 11 Nov", s.19) and not only the stage.
    """

    code = "domain_error"

    def __init__(
        self,
        message: str,
        provision: str | None = None,
        *,
        lawful_from: date | None = None,
        reason: str | None = None,
        facts: Mapping[str, Fact] | None = None,
    ) -> None:
        super().__init__(message)
        self.provision = provision
        #: For a step taken too early: the first day the Act allows it.
        self.lawful_from = lawful_from
        #: Why the step is refused, a stable key (``complaint_time_over``, ``stage``, ...).
        self.reason = reason
        #: The dates and counts the reason is given with.
        self.facts: Mapping[str, Fact] = dict(facts or {})


class RateNotInForceError(DomainError):
    """No rate is in force on the day asked (before the first dated rate)."""

    code = "rate_not_in_force"


class UnknownKindError(DomainError, KeyError):
    """A kind of cattle that the configuration does not list (s.2(1)).

    Also a ``KeyError``, so that ``Kinds`` keeps the ``Mapping`` contract
    (``code in kinds``, ``kinds.get(code)``).
    """

    code = "unknown_kind"

    def __str__(self) -> str:
        return Exception.__str__(self)  # the message, not KeyError's quoted repr


class InvalidCaseError(DomainError):
    """A seizure report whose facts cannot stand (no cattle, a bad count, ...)."""

    code = "invalid_case"


class FutureDateError(DomainError):
    """An event dated after today."""

    code = "future_date"


class BackwardsDateError(DomainError):
    """An event dated before the event before it."""

    code = "backwards_date"


class TransitionRefusedError(DomainError):
    """The Act does not allow this step from the case's present stage."""

    code = "transition_refused"


class TooEarlyError(DomainError):
    """A step taken before the period the Act sets has run (e.g. an auction inside s.13(3))."""

    code = "too_early"


class BarredBuyerError(DomainError):
    """A buyer the Act bars from buying at a pound sale (s.18).

    ``barred_as`` is the class the buyer falls in (``police_officer``, ``officer``,
    ``member``, ``pound_keeper``); ``matched`` what showed it: a registered keeper's or
    officer's name, a listed member's name, or a word of the buyer's description.
    """

    code = "barred_buyer"

    def __init__(
        self,
        message: str,
        provision: str | None = "s.18",
        *,
        barred_as: str = "",
        matched: str = "",
        by_title: bool = False,
    ) -> None:
        super().__init__(message, provision)
        self.barred_as = barred_as
        self.matched = matched
        #: True when ``matched`` is a word of the buyer's description, not a person.
        self.by_title = by_title


class BuyerNotDeclaredError(BarredBuyerError):
    """A sale recorded without the buyer's declaration that they are not barred (s.18);
    ``classes`` are the barred classes the declaration must name."""

    code = "buyer_not_declared"

    def __init__(
        self, message: str, provision: str | None = "s.18", *, classes: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message, provision)
        self.classes = classes


class NotAuctionDayError(TransitionRefusedError):
    """A lot offered with no auction fixed, or on a day other than the day fixed
    (s.13(3), s.15(1): sold "at such place and time" as directed)."""

    code = "not_auction_day"

    def __init__(
        self,
        message: str,
        provision: str | None = "s.13(3)",
        *,
        fixed_on: date | None = None,
        place: str = "",
    ) -> None:
        super().__init__(message, provision)
        self.fixed_on = fixed_on
        self.place = place


class EnoughSoldError(TransitionRefusedError):
    """On the owner's refusal, a further head offered once the proceeds meet the dues
    and the expected expenses of sale (s.15(1): "as many of them as may be necessary")."""

    code = "enough_sold"


class DuesUnmetError(TransitionRefusedError):
    """On the owner's refusal, a settlement asked while the proceeds leave the dues and
    the expenses of sale unmet and heads remain to offer (s.15(1): "as many of them as
    may be necessary": not fewer). ``short`` is what is unmet, ``proceeds`` the proceeds
    so far (``domain.money.Money``), ``heads`` the heads still in the pound."""

    code = "dues_unmet"

    def __init__(
        self,
        message: str,
        provision: str | None = "s.15(1)",
        *,
        short: Money | None = None,
        proceeds: Money | None = None,
        heads: int = 0,
    ) -> None:
        super().__init__(message, provision, reason="dues_unmet", facts={"count": heads})
        self.short = short
        self.proceeds = proceeds
        self.heads = heads


class CorrectionRefusedError(TransitionRefusedError):
    """A correction of the s.7 record that would make a step already recorded unlawful."""

    code = "correction_refused"


class VoidRefusedError(TransitionRefusedError):
    """Voiding a case on which money has moved."""

    code = "void_refused"


class SeizedAfterBroughtError(InvalidCaseError):
    """A day of seizure after the day the cattle were brought to the pound (s.7, s.19)."""

    code = "seized_after_brought"


class AmountNotDueError(TransitionRefusedError):
    """A payment (s.12) or deposit (s.14) of an amount that is not the fines and charges
    due that day: the Act releases the cattle on payment of them, not of a part;
    ``dues`` are what is due, line by line (``domain.s04_s11_dues.Dues``: carried, not
    read, here), ``tendered`` the amount given."""

    code = "amount_not_due"

    def __init__(
        self,
        message: str,
        provision: str | None = "s.12",
        *,
        tendered: Money | None = None,
        dues: object | None = None,
        owed: Money | None = None,
        proceeds: Money | None = None,
    ) -> None:
        super().__init__(message, provision)
        self.tendered = tendered
        self.dues = dues
        #: After part of the cattle were sold on the owner's route: what remains to pay
        #: once the ``proceeds`` so far are applied to the dues (s.15(2), s.12).
        self.owed = owed
        self.proceeds = proceeds
