"""What happens next in a case, and when: the sentence that ends a dues reply.

Each function returns its wordings fullest first; an SMS falls back to a shorter one
when the fuller does not fit.
"""

from __future__ import annotations

from datetime import date

from bot.config.names import local
from bot.i18n.catalogs import Translator
from bot.i18n.common import day, money, sms_name
from bot.support.public_text import public_words
from domain.case import Case
from domain.stages import IN_POUND_STAGES, Stage
from domain.statement import CaseDates, Statement, dates_of

__all__ = ["auction_steps", "deposit_steps", "next_step", "report_steps", "second_round_payment"]


def report_steps(dates: CaseDates, on: date, tr: Translator) -> tuple[str, ...]:
    """The s.13(1) report date as of ``on``: fullest wording first, then the shortest."""
    due = {"date": day(dates.report_on, tr)}
    # TRANSLATORS: s.13(1) — the day the unclaimed report is due, as briefly as possible
    # (an SMS falls back to this when the fuller wording does not fit).
    short = tr.gettext("Report due %(date)s (s.13(1)).") % due
    if on <= dates.unclaimed_until:
        # TRANSLATORS: s.13(1) — day the pound-keeper reports unclaimed cattle to the
        # local authority (still ahead).
        return (tr.gettext("If unclaimed, reported on %(date)s (s.13(1)).") % due, short)
    # TRANSLATORS: s.13(1) — seven days have passed unclaimed: the report is due (or was
    # due) on that day.
    return (tr.gettext("Unclaimed: report due %(date)s (s.13(1)).") % due, short)


def auction_steps(case: Case, tr: Translator, on: date | None = None) -> tuple[str, ...]:
    """The scheduled public auction: with its place (no name of the owner or the seizer
    in it), then without (for a short SMS); a day already past as of ``on`` reads as
    past, never as ahead."""
    auction = case.scheduled_auction
    if auction is None:
        return ()
    place = local(public_words(auction.place, case.seizure), tr.lang)
    values = {"date": day(auction.auction_on, tr), "place": sms_name(place)}
    if on is not None and auction.auction_on < on:
        if case.owner_appeared:
            # TRANSLATORS: s.15(1) — the day fixed for the auction is past.
            past = tr.gettext("The public auction was fixed for %(date)s (s.15(1)).")
        else:
            # TRANSLATORS: s.13(3) — the day fixed for the auction is past.
            past = tr.gettext("The public auction was fixed for %(date)s (s.13(3)).")
        return (past % values,)
    if case.owner_appeared:
        # TRANSLATORS: s.15(1) — the owner did not pay; day and place of the auction.
        at = tr.gettext("Public auction on %(date)s at %(place)s (s.15(1)).")
        # TRANSLATORS: s.15(1) — the same, without the place (for a short SMS).
        on_day = tr.gettext("Public auction on %(date)s (s.15(1)).")
    else:
        # TRANSLATORS: s.13(3) — unclaimed cattle; day and place of the auction.
        at = tr.gettext("Public auction on %(date)s at %(place)s (s.13(3)).")
        # TRANSLATORS: s.13(3) — the same, without the place (for a short SMS).
        on_day = tr.gettext("Public auction on %(date)s (s.13(3)).")
    return (at % values, on_day % values)


def deposit_steps(deposited: date, until: date, on: date, tr: Translator) -> tuple[str, ...]:
    """The surplus in deposit (s.16(3)): held since when, and claims ``until`` when; once
    the three months are over, that they ended."""
    values = {"since": day(deposited, tr), "date": day(until, tr)}
    if until < on:
        # TRANSLATORS: s.16(3), s.17(1) — the surplus has been in deposit since a day;
        # the three months to claim it ended on another.
        text = tr.gettext(
            "Surplus in deposit since %(since)s; the time to claim it ended on %(date)s (s.16(3))."
        )
    else:
        # TRANSLATORS: s.16(3) — the surplus is in deposit since a day; a claim may be
        # preferred until the last day shown.
        text = tr.gettext("Surplus in deposit since %(since)s; claims until %(date)s (s.16(3)).")
    return (text % values,)


def next_step(case: Case, on: date, tr: Translator) -> tuple[str, ...]:
    """What happens next in the case, and when, as of ``on``: the fullest wording first,
    then shorter ones an SMS may fall back to."""
    dates = dates_of(case)
    stage = case.stage
    if stage is Stage.IMPOUNDED:
        return report_steps(dates, on, tr)
    if stage is Stage.DEEMED_UNCLAIMED:
        # TRANSLATORS: s.15(5), s.13(1) — the owner refused the account: the remaining
        # cattle are unclaimed and are reported to the local authority next.
        text = tr.gettext(
            "Refused by the owner: deemed unclaimed (s.15(5)); report to the local authority "
            "next (s.13(1))."
        )
        # TRANSLATORS: s.13(1) — the same, shorter (for an SMS that already says the
        # cattle are deemed unclaimed): the keeper's report comes next.
        short = tr.gettext("Report next (s.13(1)).")
        return (text, short)
    if stage is Stage.REPORTED and tr.act.drum:
        # TRANSLATORS: s.13(1), s.13(2) — reported unclaimed to the local authority; the
        # notice and the proclamation by beat of drum come next.
        text = tr.gettext(
            "Reported unclaimed on %(date)s (s.13(1)); notice and beat of drum next (s.13(2))."
        )
        # TRANSLATORS: s.13(2) — the same, shorter (for an SMS).
        short = tr.gettext("Notice and beat of drum next (s.13(2)).")
        return (text % {"date": day(case.reported_on or on, tr)}, short)
    if stage is Stage.REPORTED:
        # TRANSLATORS: s.13(1), s.13(2) as amended — the same, under an Act whose
        # proclamation has no beat of drum (the Kerala Act as amended): do not name a drum.
        text = tr.gettext(
            "Reported unclaimed on %(date)s (s.13(1)); notice and proclamation next (s.13(2))."
        )
        # TRANSLATORS: s.13(2) as amended — the same, shorter (for an SMS).
        short = tr.gettext("Notice and proclamation next (s.13(2)).")
        return (text % {"date": day(case.reported_on or on, tr)}, short)
    if case.scheduled_auction is not None and stage in IN_POUND_STAGES:
        return auction_steps(case, tr, on)
    if stage is Stage.NOTICE_POSTED and dates.auction_from is not None:
        lawful = dates.auction_from
        if lawful < on:
            # TRANSLATORS: s.13(3) — the seven days after the notice have run: the public
            # auction of the unclaimed cattle has been lawful since that day.
            text = tr.gettext("Unclaimed: public auction lawful since %(date)s (s.13(3)).")
        else:
            # TRANSLATORS: s.13(3) — first day of the public auction of unclaimed cattle,
            # seven days after the notice.
            text = tr.gettext("If unclaimed, public auction from %(date)s (s.13(3)).")
        return (text % {"date": day(lawful, tr)},)
    if stage is Stage.OWNER_REFUSED:
        # TRANSLATORS: s.15(1) — the owner refused or omitted to pay.
        return (tr.gettext("Not paid: the cattle will be sold by public auction (s.15(1))."),)
    if stage is Stage.SELLING:
        # TRANSLATORS: s.15(2) — the auction is under way.
        return (tr.gettext("Sale under way; the dues come out of the proceeds (s.15(2))."),)
    if stage is Stage.ACCOUNT_DUE:
        # TRANSLATORS: s.15(3), s.15(4) — the owner collects the remaining cattle and
        # the balance with an account, and gives a receipt.
        text = tr.gettext(
            "Collect the remaining cattle and the balance with the account, and give a "
            "receipt (s.15(4))."
        )
        return (text,)
    if stage is Stage.IN_DEPOSIT and case.deposited_on and dates.claims_until:
        return deposit_steps(case.deposited_on, dates.claims_until, on, tr)
    if stage is Stage.ON_DEPOSIT:
        # TRANSLATORS: s.14 — the cattle were delivered on a deposit.
        return (tr.gettext("Cattle delivered on deposit (s.14)."),)
    if stage is Stage.RELEASED:
        # TRANSLATORS: s.12 — paid and released.
        return (tr.gettext("Paid and released (s.12)."),)
    # TRANSLATORS: the case is over; nothing more will happen.
    return (tr.gettext("This case is closed."),)


def second_round_payment(stated: Statement, tr: Translator, sms: bool) -> tuple[str, ...]:
    """Cattle deemed unclaimed after a refused account (s.15(5)), while the owner may
    still take them (until a head of their sale is sold, s.13(3), s.12): what to pay
    and why, and the first sale's balance in deposit (s.16(3)); then a shorter wording
    for an SMS. Empty when the owner can no longer pay."""
    if not (stated.case.deemed_unclaimed and stated.payable and stated.heads_in_pound):
        return ()
    values = {
        "unmet": money(stated.unmet, tr, sms),
        "met": money(stated.met_by_sale, tr, sms),
        "date": day(stated.on, tr),
    }
    # TRANSLATORS: s.15(5), s.13(3), s.12, s.15(2) — cattle the owner refused after a
    # sale in part are sold as unclaimed; until a head of that sale is sold the owner may
    # still pay what is owed on the date (the dues less what the earlier sale met) and
    # take them back.
    owed = tr.gettext(
        "%(unmet)s due on %(date)s: the dues less %(met)s met by the earlier sale "
        "(s.15(2)). Until a head of this sale is sold, the owner may pay it and take the "
        "cattle back (s.12)."
    )
    # TRANSLATORS: s.16(3) — the balance of the earlier sale, refused by the owner, stays
    # in deposit until claimed.
    held = tr.gettext("The balance of the earlier sale is held in deposit (s.16(3)).")
    # TRANSLATORS: s.12 — SMS, short: until a head is sold the owner may pay the amount
    # and take the cattle back.
    short = tr.gettext(
        "Until a head is sold, the owner may pay %(unmet)s and take the cattle back (s.12)."
    )
    return (owed % values, held, short % values)
