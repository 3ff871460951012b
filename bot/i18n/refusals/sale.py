"""Why a step of the sale is refused, with what to do instead: a lot offered with no
auction fixed or on another day (s.13(3), s.15(1)), a head more than necessary
(s.15(1)), a settlement before enough are sold (s.15(1)), a buyer without the
declaration or barred from buying (s.18)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import ECHO_LIMIT, connective, day, head_count, keyword, money
from bot.i18n.dlt_probe import in_sms
from bot.i18n.public.sms_fit import in_parts
from bot.i18n.sms_keyword import or_form
from domain.errors import (
    BarredBuyerError,
    BuyerNotDeclaredError,
    DomainError,
    DuesUnmetError,
    EnoughSoldError,
    NotAuctionDayError,
)
from domain.money import Money
from domain.s18_buyers import DEFAULT_BARRED_CLASSES

__all__ = ["barred_class", "barred_classes", "declared_button", "sale_refusal"]

_CLASSES: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: s.18 — a class of person who may not buy at a pound sale.
    "police_officer": lambda tr: tr.gettext("a police officer"),
    # TRANSLATORS: s.18 — an officer (employee) of the local authority (panchayat).
    "officer": lambda tr: tr.gettext("an officer of the local authority"),
    # TRANSLATORS: s.18 — an elected member of the local authority (ward member).
    "member": lambda tr: tr.gettext("a member of the local authority"),
    # TRANSLATORS: s.18 — the keeper of a cattle pound, of any pound.
    "pound_keeper": lambda tr: tr.gettext("a pound-keeper"),
}


def barred_class(code: str, tr: Translator) -> str:
    """A barred class in words: ``a police officer``."""
    render = _CLASSES.get(code)
    return render(tr) if render else code.replace("_", " ")


def barred_classes(classes: Sequence[str], tr: Translator) -> str:
    """The barred classes, as the buyer declares them: ``a police officer; ...``."""
    return "; ".join(barred_class(code, tr) for code in classes)


def declared_button(classes: Sequence[str], tr: Translator) -> str:
    """The label of Telegram's button that records the buyer's declaration (s.18)."""
    # TRANSLATORS: s.18 — a button the officer presses once the buyer has declared;
    # %(classes)s lists who may not buy ("a police officer; ...").
    text = tr.gettext("The buyer declared they are not %(classes)s")
    return text % {"classes": barred_classes(classes, tr)}


def _not_auction_day(exc: NotAuctionDayError, tr: Translator) -> str:
    values = {
        "auction": or_form(tr, keyword("auction", tr.lang), "auction"),
        "on": connective("on", tr.lang),
        "date": day(exc.fixed_on, tr) if exc.fixed_on else "",
        "figures": exc.fixed_on.strftime("%d-%m-%Y") if exc.fixed_on else "",
        "place": exc.place[:ECHO_LIMIT],
    }
    if exc.fixed_on is None:
        # TRANSLATORS: s.13(3), s.15(1) — SOLD/UNSOLD with no auction fixed; %(auction)s
        # is the AUCTION command word.
        text = tr.gettext(
            "No auction is fixed for this case: fix its day and place first with %(auction)s."
        )
    else:
        # TRANSLATORS: s.13(3), s.15(1) — SOLD/UNSOLD on a day other than the day the
        # auction was fixed for. %(on)s is the ON word, %(figures)s the day in figures.
        text = tr.gettext(
            "The auction is fixed for %(date)s at %(place)s: lots are sold there on that "
            "day. A lot sold that day is entered with %(on)s %(figures)s; for another day, "
            "fix the auction again with %(auction)s."
        )
    return text % values


def _enough_sold(tr: Translator) -> str:
    values = {"settle": or_form(tr, keyword("settle", tr.lang), "settle")}
    # TRANSLATORS: s.15(1), s.15(3) — the owner refused to pay: once the proceeds meet
    # the dues and the expected expenses of sale, no more cattle are sold.
    text = tr.gettext(
        "Enough is sold: the proceeds meet the dues and the expected expenses of sale. "
        "Settle with %(settle)s; the remaining cattle go back to the owner."
    )
    return text % values


def _dues_unmet(exc: DuesUnmetError, tr: Translator) -> str:
    sms = in_sms() or exc.short is None  # no facts: the probe of every wording, by SMS
    values = {
        "proceeds": money(exc.proceeds or Money.zero(), tr, sms),
        "short": money(exc.short or Money.zero(), tr, sms),
        "heads": head_count(exc.heads, tr),
        "auction": or_form(tr, keyword("auction", tr.lang), "auction"),
        "paid": or_form(tr, keyword("paid", tr.lang), "paid"),
    }
    # TRANSLATORS: s.15(1), s.15(2) — SETTLE on the owner's route while the proceeds
    # leave the dues and the expenses of sale unmet and cattle remain in the pound: as
    # many as necessary are sold, so the sale is not settled.
    short = tr.gettext(
        "Not settled: the proceeds of %(proceeds)s leave %(short)s of the dues and the "
        "expenses of sale unmet, and %(heads)s remain to be offered."
    )
    # TRANSLATORS: s.15(1), s.12 — after "Not settled": what may be done instead.
    # %(auction)s is the AUCTION word (another auction for the cattle left), %(paid)s
    # the PAID word (the owner pays what remains and takes them).
    then = tr.gettext(
        "Fix another auction for them with %(auction)s, or the owner pays %(short)s and "
        "takes them (%(paid)s)."
    )
    return in_parts([short % values, then % values])  # by SMS two SMS


def _not_declared(exc: BuyerNotDeclaredError, tr: Translator) -> str:
    values = {
        "declared": connective("declared", tr.lang),
        "classes": barred_classes(exc.classes or DEFAULT_BARRED_CLASSES, tr),
    }
    # TRANSLATORS: s.18 — a sale entered without the buyer's declaration. %(classes)s
    # lists who may not buy; %(declared)s is the DECLARED word, put at the end of the line.
    text = tr.gettext(
        "The buyer must declare that they are not %(classes)s. When they have, send the "
        "line again with %(declared)s at the end."
    )
    return text % values


def _barred(exc: BarredBuyerError, tr: Translator) -> str:
    values = {"matched": exc.matched[:ECHO_LIMIT], "class": barred_class(exc.barred_as, tr)}
    if exc.by_title:
        # TRANSLATORS: s.18 — the buyer's description names an office whose holder may
        # not buy; %(matched)s is that word, %(class)s the class ("a police officer").
        text = tr.gettext(
            "'%(matched)s' names %(class)s, who may not buy at a pound sale. Record the "
            "sale to another buyer."
        )
    elif exc.matched:
        # TRANSLATORS: s.18 — the buyer's name or phone matches a registered keeper or
        # officer, or a listed member; %(matched)s is that person's name.
        text = tr.gettext(
            "The buyer matches %(matched)s, %(class)s, who may not buy at a pound sale. "
            "Record the sale to another buyer."
        )
    else:
        # TRANSLATORS: s.18 — a buyer of a class that may not buy at a pound sale.
        text = tr.gettext("The buyer is %(class)s, who may not buy at a pound sale.")
    return text % values


def sale_refusal(exc: DomainError, tr: Translator) -> str | None:
    """The reason a sale step is refused and what to do instead, or None for an error
    this module does not explain (the provision is appended by the caller)."""
    if isinstance(exc, NotAuctionDayError):
        return _not_auction_day(exc, tr)
    if isinstance(exc, EnoughSoldError):
        return _enough_sold(tr)
    if isinstance(exc, DuesUnmetError):
        return _dues_unmet(exc, tr)
    if isinstance(exc, BuyerNotDeclaredError):
        return _not_declared(exc, tr)
    if isinstance(exc, BarredBuyerError) and exc.barred_as:
        return _barred(exc, tr)
    return None
