"""What anyone may be told: a search of open cases, what became of a case, and the
confirmations of LANG, STOP and START.

Public replies carry the public facts of a case only (``PublicCase``): kinds, counts,
place of seizure, pound and dates; never a name or a telephone number.

Why it is long: every reply the public may be given, so that the rule of no names is
checked in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Final

from bot.config.names import local
from bot.i18n.catalogs import Translator
from bot.i18n.chrome.telegram import LANGUAGE_NAMES
from bot.i18n.common import (
    ECHO_LIMIT,
    KindMap,
    cattle,
    cattle_slot,
    clip,
    credited_to,
    day,
    head_count,
    keys,
    keyword,
    office_title,
    ordered_by,
    reported_to,
    shorten,
    sms_name,
)
from bot.i18n.dlt_probe import in_sms, offer, probing
from bot.i18n.documents.account import account_summary, account_time, collect_line
from bot.i18n.public.next_step import auction_steps, deposit_steps, second_round_payment
from bot.i18n.public.sms_fit import choose, fit_list, fits_sms, join, same_facts, shortest_fit
from bot.i18n.stage_text import stage_sentence
from domain.events import (
    AccountDelivered,
    CreditedToFund,
    DepositClaimed,
    DepositOutcome,
    DepositRefunded,
)
from domain.profiles import Power
from domain.s15_3_account import Account
from domain.stages import Stage
from domain.statement import Statement, dates_of

if TYPE_CHECKING:
    from bot.config.model import ProvisoOffice
    from bot.services.public import Outcome, PublicCase

__all__ = [
    "lang_not_sent",
    "lang_set",
    "no_case_for_number",
    "read_as",
    "search_results",
    "started",
    "status_reply",
    "stopped",
]


def _found(
    case: PublicCase, tr: Translator, kinds: KindMap | None, short: bool, sms: bool = False
) -> str:
    heads = sum(lot.count for lot in case.lots)
    values = {
        "case": case.number,
        "cattle": head_count(heads, tr)
        if short
        else (cattle_slot(case.lots, tr, kinds) if sms else cattle(case.lots, tr, kinds)),
        "place": shorten(case.place_seized) if sms else clip(case.place_seized, 120),
        "pound": shorten(local(case.pound_name, tr.lang))
        if sms
        else clip(local(case.pound_name, tr.lang), 120),
        "date": day(case.impounded_on, tr),
    }
    # TRANSLATORS: s.7 — one case found by a search: its cattle, where they were seized,
    # the pound they are in and the day they were impounded (public facts only).
    text = tr.gettext("%(case)s: %(cattle)s seized at %(place)s, in %(pound)s since %(date)s.")
    return text % values


@same_facts
def search_results(
    cases: Sequence[PublicCase], tr: Translator, sms: bool, kinds: KindMap | None = None
) -> str:
    """Open cases matching a search, with their public facts; in an SMS as many as fit,
    then "and N more"."""
    if not cases:
        # TRANSLATORS: a search found no open case; suggest other words.
        return tr.gettext(
            "No open case matches. Try other words: the kind of cattle or the place seized."
        )
    # TRANSLATORS: heading of the cases a search found.
    head = tr.ngettext("%(n)d open case found:", "%(n)d open cases found:", len(cases))
    head = head % {"n": len(cases)}
    if not sms:
        return join([head, *(_found(c, tr, kinds, short=False) for c in cases)], sms=False)
    full = [_found(c, tr, kinds, short=False, sms=True) for c in cases]
    short = [_found(c, tr, kinds, short=True, sms=True) for c in cases]

    def more(n: int) -> str:
        # TRANSLATORS: SMS — more cases matched than fit; more words narrow the search.
        text = tr.ngettext("And %(n)d more: add words.", "And %(n)d more: add words.", n)
        return text % {"n": n}

    every = join([head, *full], sms=True)
    if probing():
        offer(every)
    if choose(0 if fits_sms(every, tr.lang) else 1, 2) == 0:
        return every
    return fit_list(tr, [head], short, more)


def _sold_under(stated: Statement | None) -> frozenset[str]:
    """The provisions the heads of the case were sold under: s.13(3) unclaimed, s.15(1)
    on the owner's refusal (both when a refused account sent the rest the s.13 way,
    s.15(5))."""
    return stated.recorded.sold_under if stated is not None else frozenset()


def _outcome_of(account: Account) -> str:
    """What became of the cattle, as the account counts them (sold and disposed of
    otherwise apart, s.15(3)(d), s.13(3) proviso)."""
    if account.cattle_remaining:
        return "partly_sold"
    if account.cattle_disposed:
        return "sold_and_disposed" if account.cattle_sold else "disposed_otherwise"
    return "sold"


def _sale_outcome(
    stated: Statement | None,
    outcome: Outcome,
    tr: Translator,
    offices: Sequence[ProvisoOffice] = (),
) -> str:
    """Sold, partly sold or disposed of otherwise, citing the route of each sale; who
    ordered a disposal otherwise as recorded (``offices``: the configured, to name it
    in the language)."""
    account = outcome.account
    case = stated.case if stated is not None else None
    how = case.sale_outcome if case is not None else None
    if how is None and account is not None:
        how = _outcome_of(account)
    under = _sold_under(stated)
    if how == "sold" and under == {"s.13(3)"}:
        # TRANSLATORS: s.13(3) — every head, unclaimed, was sold by public auction.
        return tr.gettext("The cattle were sold by public auction (s.13(3)).")
    if how == "sold" and under == {"s.15(1)"}:
        # TRANSLATORS: s.15(1) — the owner refused or omitted to pay: every head was sold
        # by public auction.
        return tr.gettext("The cattle were sold by public auction (s.15(1)).")
    if how == "sold":
        # TRANSLATORS: s.13(3), s.15(1) — every head was sold by public auction: part on
        # the owner's refusal to pay, the rest as unclaimed after a refused account.
        return tr.gettext("The cattle were sold by public auction (s.13(3), s.15(1)).")
    if how == "partly_sold" and stated is not None and _paid_after_refused_account(stated):
        # TRANSLATORS: s.15(5), s.12 — part were sold; the owner refused the account, then
        # paid what was still owed and took the rest back before any was sold again.
        return tr.gettext(
            "Part of the cattle were sold by public auction (s.15(1)); the owner refused "
            "the account, then paid what was still owed and took the rest back (s.15(5), "
            "s.12)."
        )
    if how == "partly_sold" and case is not None and case.deemed_unclaimed:
        # TRANSLATORS: s.15(5), s.13(3) — part were sold; the owner refused the rest,
        # which are sold by public auction as unclaimed cattle.
        return tr.gettext(
            "Part of the cattle were sold by public auction (s.15(1)); the owner refused "
            "the rest, which are sold as unclaimed cattle (s.15(5), s.13(3))."
        )
    if how == "partly_sold":
        # TRANSLATORS: s.15(1), s.15(3) — only as many as needed were sold; the rest are
        # delivered to the owner.
        return tr.gettext(
            "Part of the cattle were sold by public auction (s.15(1)); the rest go back "
            "to the owner (s.15(3))."
        )
    if how in ("sold_and_disposed", "disposed_otherwise"):
        return _disposed(how, under, stated, tr, offices)
    return ""


def _disposed(
    how: str,
    under: frozenset[str],
    stated: Statement | None,
    tr: Translator,
    offices: Sequence[ProvisoOffice],
) -> str:
    """Heads disposed of otherwise by order of the office the case's Act gives that
    power (s.13(3) proviso), some sold before (s.13(3), s.15(1)). A chat names who
    ordered it (``_ordered_by``); an SMS does not, as the name would cost the owner a
    segment more."""
    if in_sms() and how == "sold_and_disposed" and under == {"s.13(3)"}:
        # TRANSLATORS: s.13(3) and its proviso — unclaimed cattle: some head were sold by
        # public auction, the others disposed of otherwise by order of the office the
        # case's Act gives that power (the Director, the local authority, the District
        # Magistrate), not named (an SMS).
        return tr.gettext(
            "Part sold by public auction (s.13(3)), the rest disposed of by order "
            "(s.13(3) proviso)."
        )
    if in_sms() and how == "sold_and_disposed":
        # TRANSLATORS: s.15(1), s.13(3) proviso — the same, part sold on the owner's
        # refusal to pay (s.15(1)); the office not named (an SMS).
        return tr.gettext(
            "Part sold by public auction (s.15(1)), the rest disposed of by order "
            "(s.13(3) proviso)."
        )
    if in_sms():
        # TRANSLATORS: s.13(3) proviso — every head disposed of otherwise by order of the
        # office the case's Act gives that power, not named (an SMS).
        return tr.gettext("The cattle were disposed of otherwise, by order (s.13(3) proviso).")
    values = {"by": _ordered_by(stated, tr, offices)}
    if how == "sold_and_disposed" and under == {"s.13(3)"}:
        # TRANSLATORS: s.13(3) and its proviso — unclaimed cattle: some head were sold by
        # public auction, the others disposed of otherwise by order of the office the
        # case's Act gives that power (the Director, the local authority, the District
        # Magistrate); %(by)s is that office as recorded: a name, no ending after it.
        text = tr.gettext(
            "Part sold by public auction (s.13(3)), the rest disposed of otherwise by order "
            "of %(by)s (s.13(3) proviso)."
        )
    elif how == "sold_and_disposed":
        # TRANSLATORS: s.15(1), s.13(3) proviso — some head were sold by public auction,
        # the others disposed of otherwise by order of the office recorded, %(by)s (a
        # name, no ending after it).
        text = tr.gettext(
            "Part sold by public auction (s.15(1)), the rest disposed of otherwise by order "
            "of %(by)s (s.13(3) proviso)."
        )
    else:
        # TRANSLATORS: s.13(3) proviso — the office recorded, %(by)s (a name, no ending
        # after it), ordered another manner of disposal.
        text = tr.gettext(
            "The cattle were disposed of otherwise, by order of %(by)s (s.13(3) proviso)."
        )
    return text % values


def _ordered_by(stated: Statement | None, tr: Translator, offices: Sequence[ProvisoOffice]) -> str:
    """Who ordered the disposal otherwise (s.13(3) proviso): the office as the order was
    recorded (``DisposedOtherwise.ordered_by``; in the language when ``offices``, the
    configured, name it), else the office the case's Act gives that power (``tr.act``)."""
    event = stated.recorded.disposal if stated is not None else None
    if event is not None and event.ordered_by.strip():
        return ordered_by(event.ordered_by, offices, tr)
    return sms_name(office_title(tr.act.office_for(Power.ORDER_DISPOSAL), tr))


def _paid_after_refused_account(stated: Statement) -> bool:
    """The owner refused the account (s.15(5)) and then paid and took the rest (s.12)."""
    refused, paid = stated.recorded.account_refused, stated.recorded.payment
    return refused is not None and paid is not None and paid.on >= refused.on


def _stage(
    outcome: Outcome,
    stated: Statement | None,
    tr: Translator,
    offices: Sequence[ProvisoOffice] = (),
) -> list[str]:
    """What became of the case, in plain words, with dates where the case gives them;
    a day already past (as of ``outcome.on``) reads as past, never as ahead."""
    facts = outcome.facts
    stage = facts.stage
    case = stated.case if stated is not None else None
    if stated is not None and outcome.on is not None:
        dated = _dated_stage(outcome, stated, outcome.on, tr, offices)
        if dated is not None:
            return dated
    if stage is Stage.IMPOUNDED:
        # TRANSLATORS: s.12, s.13(1) — the cattle are in the pound; the owner can pay
        # and take them; unclaimed, they are reported on the date.
        text = tr.gettext(
            "In the pound. The owner can take the cattle back on paying the dues (s.12); "
            "if unclaimed, they are reported on %(date)s (s.13(1))."
        )
        return [text % {"date": day(facts.report_due_on, tr)}]
    if stage is Stage.RELEASED:
        # TRANSLATORS: s.12 — the owner paid and took the cattle.
        return [tr.gettext("Released to the owner on payment of the dues (s.12).")]
    if stage is Stage.ON_DEPOSIT:
        # TRANSLATORS: s.14 — delivered to the owner who deposited the dues while
        # disputing the seizure.
        text = tr.gettext("Delivered to the owner on a deposit, the seizure being disputed (s.14).")
        return [text]
    if stage is Stage.DEEMED_UNCLAIMED:
        # TRANSLATORS: s.15(5), s.13(1) — the owner refused the remaining cattle and the
        # account: they are unclaimed, and are reported, noticed and auctioned.
        text = tr.gettext(
            "The owner refused the remaining cattle: they are deemed unclaimed (s.15(5)) "
            "and will be reported, noticed and sold by public auction (s.13)."
        )
        return [text]
    if stage is Stage.REPORTED and tr.act.drum:
        # TRANSLATORS: s.13(1), s.13(2) — reported unclaimed; notice and proclamation next.
        # %(to_office)s is whom the report was made to, with its ending ("to the local
        # authority"; under the Cattle-trespass Act, 1871 "to the officer in charge of the
        # nearest police station").
        text = tr.gettext(
            "Reported unclaimed %(to_office)s (s.13(1)); a notice and a proclamation by "
            "beat of drum follow (s.13(2))."
        )
        return [text % {"to_office": reported_to(tr)}]
    if stage is Stage.REPORTED:
        # TRANSLATORS: s.13(1), s.13(2) as amended — the same, under an Act whose
        # proclamation has no beat of drum (the Kerala Act as amended): do not name a drum.
        text = tr.gettext(
            "Reported unclaimed %(to_office)s (s.13(1)); a notice and a proclamation "
            "follow (s.13(2))."
        )
        return [text % {"to_office": reported_to(tr)}]
    if stage is Stage.NOTICE_POSTED:
        notice = case.notice if case is not None else None
        if case is None or notice is None:
            # TRANSLATORS: s.13(2), s.13(3) — the notice is posted; the auction can follow
            # seven days after it.
            text = tr.gettext(
                "Notice posted (s.13(2)); if unclaimed within seven days of it, the "
                "cattle are sold by public auction (s.13(3))."
            )
            return [text]
        # TRANSLATORS: s.13(2), s.13(3) — the day of the notice and the first day on which
        # the public auction is lawful.
        text = tr.gettext(
            "Notice posted on %(notice_on)s (s.13(2)); if unclaimed, public auction lawful "
            "from %(date)s (s.13(3))."
        )
        lawful = dates_of(case).auction_from or notice.on
        values = {"notice_on": day(notice.on, tr), "date": day(lawful, tr)}
        return [text % values, *auction_steps(case, tr)[:1]]
    if stage is Stage.OWNER_REFUSED:
        # TRANSLATORS: s.15(1) — the owner did not pay: as many as needed are auctioned.
        text = tr.gettext(
            "The owner did not pay: as many of the cattle as are needed will be sold by "
            "public auction (s.15(1))."
        )
        return [text, *(auction_steps(case, tr)[:1] if case else ())]
    if stage is Stage.VOIDED:
        # TRANSLATORS: s.7 — the case was entered by mistake and voided: nothing is due
        # on it and nothing more will happen.
        return [tr.gettext("Entered by mistake and voided: nothing is due on this case (s.7).")]
    if stage is Stage.SELLING:
        # TRANSLATORS: s.15(2) — the auction is under way.
        return [tr.gettext("Sale under way; the dues come out of the proceeds (s.15(2)).")]
    sold = _sale_outcome(stated, outcome, tr, offices)
    if stage is Stage.ACCOUNT_DUE:
        return [sold]
    if stage is Stage.IN_DEPOSIT:
        deposited = case.deposited_on if case is not None else None
        until = dates_of(case).claims_until if case is not None else None
        if deposited is None or until is None:
            # TRANSLATORS: s.16(3) — the balance is held in deposit for the months of the
            # Act (%(months)d: three under the Kerala Act).
            held = tr.ngettext(
                "The balance is held in deposit for %(months)d month (s.16(3)).",
                "The balance is held in deposit for %(months)d months (s.16(3)).",
                tr.act.surplus_months,
            )
            return [sold, held % {"months": tr.act.surplus_months}]
        return [sold, *deposit_steps(deposited, until, outcome.on or deposited, tr)]
    closed = _closed(stated, tr)
    if stated is not None and isinstance(stated.recorded.last_step, DepositClaimed):
        return [closed, sold]  # what is owed now, and to whom, first: it says its day
    if case is not None and outcome.on is not None:
        return [sold, closed, stage_sentence(Stage.CLOSED, case.stage_since, tr)]
    return [sold, closed]


def _dated_stage(
    outcome: Outcome,
    stated: Statement,
    on: date,
    tr: Translator,
    offices: Sequence[ProvisoOffice] = (),
) -> list[str] | None:
    """The stages before a sale, each dated: in the pound since, released on, deposit
    held since (and the s.19 days to complain), reported on, notice posted on; None for
    the stages ``_stage`` dates itself."""
    case = stated.case
    stage, since = case.stage, case.stage_since
    dates = dates_of(case)
    if stage is Stage.IMPOUNDED:
        due = dates.report_on
        # TRANSLATORS: s.12 — in the pound since a day; the owner can pay and take them.
        held = tr.gettext(
            "In the pound since %(since)s; the owner can take the cattle back on paying "
            "the dues (s.12)."
        )
        if due < on:
            # TRANSLATORS: s.13(1) — the seven days have run unclaimed: the report was
            # due on the date shown (a day already past).
            report = tr.gettext("Unclaimed, the report was due on %(date)s (s.13(1)).")
        else:
            report = tr.gettext("If unclaimed, reported on %(date)s (s.13(1)).")
        values = {"since": day(case.seizure.impounded_on, tr), "date": day(due, tr)}
        return [held % values, report % values]
    if stage is Stage.RELEASED:
        return [stage_sentence(stage, since, tr)]
    if stage is Stage.ON_DEPOSIT:
        # TRANSLATORS: s.14 — delivered to the owner who deposited the dues while
        # disputing the seizure; the deposit is held since that day.
        held = tr.gettext(
            "Delivered to the owner on a deposit, the seizure being disputed; the deposit "
            "is held since %(date)s (s.14)."
        )
        by = dates.complaint_by
        complain = {"complain_by": day(by, tr)}
        if by < on:
            # TRANSLATORS: s.19 — the last day to complain of the seizure is past.
            ended = tr.gettext("The time to complain ended on %(complain_by)s (s.19).")
        else:
            ended = tr.gettext("Last day to complain: %(complain_by)s (s.19).")
        return [held % {"date": day(since, tr)}, ended % complain]
    if stage is Stage.REPORTED:
        values = {"date": day(since, tr), "to_office": reported_to(tr)}
        if tr.act.drum:
            # TRANSLATORS: s.13(1), s.13(2) — reported unclaimed on a day; notice and
            # proclamation next. %(to_office)s is whom the report was made to, with its
            # ending ("to the local authority"; under the Cattle-trespass Act, 1871 "to
            # the officer in charge of the nearest police station").
            text = tr.gettext(
                "Reported unclaimed %(to_office)s on %(date)s (s.13(1)); a notice and a "
                "proclamation by beat of drum follow (s.13(2))."
            )
        else:
            # TRANSLATORS: s.13(1), s.13(2) as amended — the same, under an Act whose
            # proclamation has no beat of drum (the Kerala Act as amended): do not name
            # a drum.
            text = tr.gettext(
                "Reported unclaimed %(to_office)s on %(date)s (s.13(1)); a notice and a "
                "proclamation follow (s.13(2))."
            )
        return [text % values]
    if stage is Stage.NOTICE_POSTED and case.notice is not None:
        notice, lawful = case.notice.on, dates.auction_from or case.notice.on
        values = {"notice_on": day(notice, tr), "date": day(lawful, tr)}
        if lawful < on:
            # TRANSLATORS: s.13(2), s.13(3) — the day of the notice; the seven days after
            # it have run: the public auction has been lawful since the date shown.
            text = tr.gettext(
                "Notice posted on %(notice_on)s (s.13(2)); unclaimed, public auction lawful "
                "since %(date)s (s.13(3))."
            )
        else:
            text = tr.gettext(
                "Notice posted on %(notice_on)s (s.13(2)); if unclaimed, public auction lawful "
                "from %(date)s (s.13(3))."
            )
        return [text % values, *auction_steps(case, tr, on)[:1]]
    if stage is Stage.OWNER_REFUSED:
        refused_on = stated.recorded.owner_first_refused_on
        text = stage_sentence(stage, refused_on or since, tr)
        return [text, *auction_steps(case, tr, on)[:1]]
    if stage is Stage.SELLING:
        under_way = tr.gettext("Sale under way; the dues come out of the proceeds (s.15(2)).")
        return [stage_sentence(stage, since, tr, case.sale_provision), under_way]
    if stage is Stage.ACCOUNT_DUE:
        return [_sale_outcome(stated, outcome, tr, offices), stage_sentence(stage, since, tr)]
    return None


def _closed(stated: Statement | None, tr: Translator) -> str:
    last = stated.recorded.last_step if stated is not None else None
    if isinstance(last, CreditedToFund):
        # TRANSLATORS: s.17(1) — the unclaimed balance was credited to the fund of the
        # local authority (or, under the Cattle-trespass Act, 1871, to State revenue);
        # %(to_fund)s is where, as "to the fund of the local authority" is translated.
        text = tr.gettext("The unclaimed balance was credited %(to_fund)s (s.17(1)).")
        return text % {"to_fund": credited_to(tr)}
    if isinstance(last, DepositClaimed):
        # TRANSLATORS: s.16(3) — a claim to the balance held in deposit was established:
        # it is owed to the claimant (not named: anyone may ask) from that day.
        text = tr.gettext(
            "The balance is due to the claimant since %(date)s, when the claim to it was "
            "established (ref. %(ref)s) (s.16(3))."
        )
        return text % {"date": day(last.on, tr), "ref": last.reference[:ECHO_LIMIT]}
    if isinstance(last, DepositRefunded):
        # TRANSLATORS: s.14, s.19 — the seizure found illegal, the deposit was refunded.
        text = tr.gettext(
            "The seizure was found illegal and the deposit was refunded to the owner on "
            "%(date)s (s.14, s.19)."
        )
        return text % {"date": day(last.on, tr)}
    if isinstance(last, AccountDelivered):
        # TRANSLATORS: s.15(4) — the owner took the cattle and balance and gave a receipt.
        return tr.gettext(
            "The owner took the remaining cattle and the balance, and gave a receipt (s.15(4))."
        )
    if isinstance(last, DepositOutcome):
        if last.returned:
            # TRANSLATORS: s.14, s.19 — the seizure was found illegal and the deposit
            # ordered refunded; its refund is not yet recorded.
            text = tr.gettext(
                "The seizure was found illegal (ref. %(ref)s): the deposit is to be refunded "
                "to the owner; the refund is not yet recorded (s.14, s.19)."
            )
            return text % {"ref": last.reference[:ECHO_LIMIT]}
        # TRANSLATORS: s.14, s.19 — the deposit was applied to the fines and charges.
        return tr.gettext("The deposit was applied to the fines and charges (s.14, s.19).")
    # TRANSLATORS: the case is over; nothing more will happen.
    return tr.gettext("This case is closed.")


@same_facts
def status_reply(
    outcome: Outcome,
    tr: Translator,
    sms: bool,
    kinds: KindMap | None = None,
    *,
    stated: Statement | None = None,
    offices: Sequence[ProvisoOffice] = (),
) -> str:
    """What became of a case, in plain words per stage, with the s.15(3) account
    summary once there is one. The case's statement ``stated`` (optional, else
    ``outcome.stated``) gives the dates of each step and how a closed case ended (who
    ordered a disposal otherwise named in the language when ``offices``, the configured
    offices of the proviso, name it); with
    ``outcome.on`` a day already past reads as past."""
    if stated is None:
        stated = outcome.stated
    facts = outcome.facts
    heads = sum(lot.count for lot in facts.lots)
    listed = cattle_slot(facts.lots, tr, kinds) if sms else cattle(facts.lots, tr, kinds)
    values = {"case": facts.number, "cattle": listed}
    # TRANSLATORS: first line of the status of a case: its number and cattle.
    head = tr.gettext("Case %(case)s (%(cattle)s):")
    stage = [s for s in _stage(outcome, stated, tr, offices) if s]
    # Cattle of a refused account: what the owner may still pay to take them (s.12).
    payment = second_round_payment(outcome.stated, tr, sms) if outcome.stated else ()
    # In an SMS, the short wording first: what the owner may do outlives a shortening.
    stage = [*stage, *payment[:2]] if not sms else [*payment[2:], *stage]
    account = outcome.account
    summary = account_summary(account, tr, sms) if account is not None else ""
    # The time impounded (s.15(3)(b)) in a chat; an SMS leaves it to the account's SMS.
    time = account_time(account, tr) if account is not None and not sms else ""
    collect = (
        collect_line(account, tr, sms)
        if account is not None and facts.stage is Stage.ACCOUNT_DUE
        else ""
    )
    if not sms:
        return join([head % values, *stage, summary, time, collect], sms=False)
    short = head % (values | {"cattle": head_count(heads, tr)})
    # TRANSLATORS: SMS — the case a status is of, when its cattle do not fit.
    bare = tr.gettext("Case %(case)s.") % values
    # Shortened by one rule in every language: the cattle, then what to collect; for a
    # surplus in deposit the account summary (the settlement gave it in full) goes
    # before the days of the deposit, since claims run to a statutory day (s.16(3)).
    dated = [[bare, *stage]] if facts.stage is Stage.IN_DEPOSIT and len(stage) > 1 else []
    return shortest_fit(
        tr,
        [
            [head % values, *stage, summary, collect],
            [short, *stage, summary, collect],
            [bare, *stage, summary],
            *dated,
            [bare, *stage[:1], summary],
            [bare, *stage[:1]],
        ],
    )


def lang_set(tr: Translator, command: str | None = None) -> str:
    """Confirmation, in the new language, that replies will now be in it; it names the
    LANG word of the language, or ``command`` (``LANG`` to one who writes in Latin
    letters)."""
    # TRANSLATORS: confirmation after LANG: replies come in this language from now on.
    # %(command)s is the LANG command word; name the other three languages.
    text = tr.gettext("Replies will now be in English. To change, send %(command)s ml, ta or kn.")
    return text % {"command": command or keyword("lang", tr.lang)}


#: The languages by their English names, for a reply in English.
_ENGLISH_NAMES: Final = {"ml": "Malayalam", "en": "English", "ta": "Tamil", "kn": "Kannada"}


def lang_not_sent(langs: Sequence[str], tr: Translator) -> str:
    """LANG for a language this installation's SMS are not sent in (under DLT only the
    languages of its authorities are registered): the languages they are sent in."""
    # TRANSLATORS: LANG by SMS asked for a language no SMS of this office is sent in.
    # %(languages)s names those they are sent in (each in its own script, e.g. "English,
    # മലയാളം"); %(command)s is the LANG word; %(codes)s their codes ("en, ml").
    text = tr.gettext(
        "SMS from here go out only in these languages: %(languages)s. To change, send "
        "%(command)s and the code (%(codes)s)."
    )
    # Each language by its own name; in English by its English one (an SMS in Latin
    # letters stays in the GSM alphabet, a third the cost of one in Unicode).
    names = _ENGLISH_NAMES if tr.lang == "en" else LANGUAGE_NAMES
    return text % {
        "languages": ", ".join(names[lang] for lang in langs),
        "command": keyword("lang", tr.lang),
        "codes": ", ".join(langs),
    }


def read_as(typed: str, command: str, tr: Translator) -> str:
    """A word one letter away from a command word, and the command it was read as."""
    # TRANSLATORS: a word the sender typed, one letter away from a command word; the
    # reply that follows is that command's. %(word)s is the command's words ("DUES /
    # കുടിശ്ശിക"). Keep the quotes of %(typed)s as your language writes them.
    text = tr.gettext("'%(typed)s' was read as %(word)s.")
    return text % {"typed": typed[:ECHO_LIMIT], "word": keys(command, tr.lang)}


def stopped(tr: Translator) -> str:
    """Confirmation of STOP: no more messages except replies; START resumes."""
    # TRANSLATORS: confirmation of STOP. START stays in English: SMS carriers read it.
    return tr.gettext(
        "You will get no more messages from the pound, only replies to yours. Send START "
        "to receive them again."
    )


def _channel_name(channel: str, tr: Translator) -> str:
    # TRANSLATORS: the name of a channel in "... by %(channel)s": SMS, or WhatsApp.
    return tr.gettext("WhatsApp") if channel == "whatsapp" else tr.gettext("SMS")


def staff_stopped(channel: str, *, on_telegram: bool, tr: Translator) -> str:
    """STOP from a keeper's, an officer's or an admin's number: their duties' messages
    (reminders of the Act's deadlines, reports) stop on that channel too."""
    values = {"channel": _channel_name(channel, tr)}
    if on_telegram:
        # TRANSLATORS: confirmation of STOP to a pound-keeper or officer whose Telegram is
        # linked. START stays in English: SMS carriers read it.
        return (
            tr.gettext(
                "You will get no more messages by %(channel)s, only replies to yours. Reminders "
                "of the Act's deadlines and reports come on Telegram. Send START to have them "
                "by %(channel)s again."
            )
            % values
        )
    # TRANSLATORS: confirmation of STOP to a pound-keeper or officer without Telegram:
    # they will not be reminded of deadlines any more. START stays in English.
    return (
        tr.gettext(
            "You will get no more messages by %(channel)s, only replies to yours: not even "
            "reminders of the Act's deadlines or reports. Send START to receive them again."
        )
        % values
    )


def staff_stopped_elsewhere(channel: str, tr: Translator) -> str:
    """On Telegram, once, to a keeper, officer or admin whose number sent STOP."""
    # TRANSLATORS: on Telegram, to a pound-keeper or officer whose phone number sent STOP
    # by SMS or WhatsApp. START stays in English.
    return tr.gettext(
        "Your number sent STOP by %(channel)s: nothing more is sent to it there. "
        "Reminders of the Act's deadlines and reports come here on Telegram. Send START "
        "by %(channel)s to have them there again."
    ) % {"channel": _channel_name(channel, tr)}


def started(tr: Translator) -> str:
    """Confirmation of START."""
    # TRANSLATORS: confirmation of START. STOP stays in English: SMS carriers read it.
    return tr.gettext("Messages about your cases will come again. Send STOP to stop them.")


def no_case_for_number(tr: Translator) -> str:
    """The answer to a missed call from a number no open case names: how to ask by case
    number instead. Within one SMS."""
    # TRANSLATORS: SMS — the person gave a missed call and no open case names their
    # telephone number. %(word)s is the STATUS keyword; KNM-1 is an example case number.
    # Keep it short.
    text = tr.gettext(
        "No open case names this number. To ask about a case, send %(word)s and its "
        "number, e.g. %(word)s KNM-1."
    )
    return text % {"word": keyword("status", tr.lang)}
