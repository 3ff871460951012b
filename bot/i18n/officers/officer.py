"""What the officer of the local authority is told up to the sale: the s.13(1) report
of unclaimed cattle, the s.13(2) notice posted, the auction fixed (s.13(3), s.15(1))."""

from __future__ import annotations

from datetime import date

from bot.config.names import local
from bot.i18n.catalogs import Translator
from bot.i18n.common import (
    NAME_LIMIT,
    connective,
    day,
    described_cattle,
    keyword,
    money,
    shorten,
    sms_name,
)
from bot.i18n.dlt_probe import URL_SLOT, in_sms, leaf
from bot.i18n.documents.notice import notice_days
from bot.i18n.public.next_step import auction_steps
from bot.i18n.public.sms_fit import in_parts, join
from bot.i18n.sms_keyword import desk_form, to_send
from domain.case import Case
from domain.statement import dates_of

__all__ = ["auction_scheduled", "case_line", "notice_recorded", "report_to_officer"]


def case_line(case: Case, tr: Translator) -> str:
    """``Case KNM-17.``: the first line of a reply about one case."""
    # TRANSLATORS: the case a reply is about (its first line, or an SMS's first words).
    return tr.gettext("Case %(case)s.") % {"case": case.number}


def report_to_officer(case: Case, pound_name: str, reported_on: date, tr: Translator) -> str:
    """The pound-keeper's s.13(1) report as the officer receives it: the case, the
    cattle, where seized, impounded since; the s.13(2) notice is due now, and its
    proclamation (by beat of drum where the case's Act says so, ``tr.act.drum``)."""
    seizure = case.seizure
    values = {
        "case": case.number,
        "pound": sms_name(local(pound_name, tr.lang)),
        "cattle": described_cattle(seizure.lots, tr),
        "place": sms_name(seizure.place_seized),
        "date": day(seizure.impounded_on, tr),
        "reported": day(reported_on, tr),
        "command": to_send(
            tr, f"{keyword('notice', tr.lang)} {case.number}", data=True, form="notice"
        ),
    }
    # TRANSLATORS: s.13(1) — heading of the report of unclaimed cattle to the local
    # authority: the case and the pound.
    heading = tr.gettext("Unclaimed cattle reported (s.13(1)): case %(case)s, %(pound)s.")
    # TRANSLATORS: s.13(2)(a) — the number and description of the cattle.
    cattle = tr.gettext("Cattle: %(cattle)s.")
    # TRANSLATORS: s.13(1), s.13(2)(b) — where seized, since when impounded.
    since = tr.gettext(
        "Seized at %(place)s; impounded on %(date)s and not claimed within seven days."
    )
    if tr.act.drum:
        # TRANSLATORS: s.13(2) — the notice is due "thereupon": affix it at the office and
        # have it proclaimed by beat of drum; %(command)s is the NOTICE command to send.
        due = tr.gettext(
            "Reported on %(reported)s. The notice is due now: affix it at your office and "
            "have it proclaimed by beat of drum in the village and the nearest market place "
            "(s.13(2)). Then send %(command)s."
        )
    else:
        # TRANSLATORS: s.13(2) as amended — the same, under an Act whose proclamation is
        # made in the village and the market place with no beat of drum (the Kerala Act
        # as amended): do not name a drum.
        due = tr.gettext(
            "Reported on %(reported)s. The notice is due now: affix it at your office and "
            "have it proclaimed in the village and the nearest market place (s.13(2)). "
            "Then send %(command)s."
        )
    # By SMS in three parts, each an SMS: the case and its cattle, where and since
    # when, then what is due now.
    first = join([heading % values, cattle % values], sms=False)
    return in_parts([first, since % values, due % values])


def _places(places: tuple[str, ...], tr: Translator) -> str:
    """Where the notice was proclaimed. In an SMS, two DLT variables side by side: each
    name shortened (``shorten``) and the list kept to the whole names that fit."""
    if not in_sms():
        return ", ".join(places)
    names = ", ".join(shorten(p, NAME_LIMIT - 1) for p in places)
    return leaf(tr, shorten(names, 2 * NAME_LIMIT), "places+")


def notice_recorded(case: Case, tr: Translator) -> str:
    """The s.13(2) notice posted and proclaimed (by beat of drum where the case's Act
    says so, ``tr.act.drum``); the s.13(3) day the auction is lawful."""
    notice = case.notice
    if notice is None:
        return case_line(case, tr)
    dates = dates_of(case)
    assert dates.notice_until is not None
    assert dates.auction_from is not None
    values = {
        "case": case.number,
        "office": sms_name(local(notice.office, tr.lang)),
        "date": day(notice.on, tr),
        "places": _places(tuple(local(p, tr.lang) for p in notice.proclaimed_at), tr),
        "last": day(dates.notice_until, tr),
        "from": day(dates.auction_from, tr),
        "command": to_send(tr, keyword("auction", tr.lang), data=True, form="auction"),
    }
    # TRANSLATORS: s.13(2) — the notice affixed at the office on the date.
    posted = tr.gettext("Case %(case)s: notice affixed at %(office)s on %(date)s (s.13(2)).")
    if notice.proclaimed_at and tr.act.drum:
        # TRANSLATORS: s.13(2) — the places where it was proclaimed by beat of drum.
        proclaimed = tr.gettext("Proclaimed by beat of drum at %(places)s (s.13(2)).")
    elif notice.proclaimed_at:
        # TRANSLATORS: s.13(2) as amended — the places where it was proclaimed, under an
        # Act with no beat of drum (the Kerala Act as amended): do not name a drum.
        proclaimed = tr.gettext("Proclaimed at %(places)s (s.13(2)).")
    elif tr.act.drum:
        # TRANSLATORS: s.13(2) — no place of proclamation was given: it is still due.
        proclaimed = tr.gettext(
            "Have it proclaimed by beat of drum in the village and the nearest market "
            "place (s.13(2))."
        )
    else:
        # TRANSLATORS: s.13(2) as amended — the same, under an Act with no beat of drum
        # (the Kerala Act as amended): do not name a drum.
        proclaimed = tr.gettext(
            "Have it proclaimed in the village and the nearest market place (s.13(2))."
        )
    # TRANSLATORS: s.13(3) — seven days from the notice: the last day to claim, and the
    # first day the public auction is lawful; %(command)s is the AUCTION command word.
    lawful = tr.gettext(
        "If the cattle are not claimed by %(last)s, the public auction is lawful from "
        "%(from)s (s.13(3)). Fix its day and place with %(command)s."
    )
    # By SMS each sentence an SMS (within the staff budget in every script).
    return in_parts([posted % values, proclaimed % values, lawful % values])


def notice_ready(case: Case, notice_on: date, url: str | None, tr: Translator) -> str:
    """NOTICE <case> by SMS: the notice itself is a document to print, not an SMS. The
    case, the notice's day, the last day to claim and the first day the auction is lawful
    (s.13(2), s.13(3)), then the link to print it (or how to get to the web desk)."""
    values = notice_days(case, notice_on, tr)
    # TRANSLATORS: s.13(2), s.13(3) — NOTICE by SMS: the notice of the date is ready to
    # print and affix; not claimed by %(last)s, the auction is lawful from %(from)s.
    ready = tr.gettext(
        "Case %(case)s: notice of %(date)s ready to print (s.13(2)). Claims until %(last)s; "
        "auction lawful from %(from)s (s.13(3))."
    )
    if url is not None:
        # TRANSLATORS: NOTICE by SMS: the link to the printable notice. Keep %(url)s.
        link = tr.gettext("Print it from %(url)s") % {"url": leaf(tr, url, URL_SLOT)}
    else:
        # TRANSLATORS: NOTICE by SMS when the server has no public address: print the
        # notice from the web desk; %(web)s is the WEB command word.
        link = tr.gettext("Print it from the web desk (send %(web)s for a sign-in link).")
        link %= {"web": keyword("web", tr.lang)}
    return in_parts([ready % values, link])  # by SMS: two SMS, a template each


def auction_scheduled(case: Case, tr: Translator) -> str:
    """The public auction fixed: day and place; what to record at it."""
    steps = auction_steps(case, tr)
    values = {
        "sold": keyword("sold", tr.lang),
        "unsold": keyword("unsold", tr.lang),
        "to": connective("to", tr.lang),
        "declared": connective("declared", tr.lang),
        "expenses": money(case.expected_expenses, tr),
    }
    if case.owner_appeared:
        # TRANSLATORS: s.15(1) — on the owner's refusal only as many as needed are sold.
        how = tr.gettext(
            "Sell only as many of the cattle as are needed to meet the dues (s.15(1))."
        )
    else:
        # TRANSLATORS: s.13(3) — unclaimed cattle are all sold.
        how = tr.gettext("Unclaimed cattle are all sold (s.13(3)).")
    # TRANSLATORS: s.15(2) — the expenses of sale expected when the auction was fixed;
    # they count in what is still owed after each lot.
    expected = tr.gettext(
        "Expected expenses of sale %(expenses)s, counted in what is still owed (s.15(2))."
    )
    # TRANSLATORS: s.18 — how to record each lot on the auction day. %(sold)s, %(unsold)s,
    # %(to)s and %(declared)s are the words of the command, sent as they are: keep the
    # command line in quotes, "..." standing for the case, lot, heads and price; translate
    # "name" and "place". English stays GSM-7 (three dots, not an ellipsis): it goes by SMS.
    record = tr.gettext(
        'On that day record each lot as "%(sold)s ... %(to)s name, place %(declared)s" '
        "(%(declared)s: the buyer's declaration that they are not barred from buying, "
        's.18); if it is not sold, "%(unsold)s".'
    )
    sold, unsold = desk_form(tr, "sold"), desk_form(tr, "unsold")
    if sold is not None and unsold is not None:
        # TRANSLATORS: s.18 — on the web desk, how to record each lot on the auction day;
        # %(sold_form)s and %(unsold_form)s name the desk's forms ("the form “Lot sold”
        # below").
        record = tr.gettext(
            "On that day record each lot sold with %(sold_form)s, with the buyer's "
            "declaration that they are not barred from buying (s.18); a lot not sold, "
            "with %(unsold_form)s."
        )
        values |= {"sold_form": sold, "unsold_form": unsold}
    first = join([case_line(case, tr), *steps[:1], how], sms=False)
    return in_parts([first, expected % values, record % values])  # by SMS: 3 SMS
