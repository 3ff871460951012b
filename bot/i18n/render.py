"""Replies from domain facts: pure functions of (facts, Translator) -> str.

The domain computes (``Dues``, ``Deposit``, ``report_due_on``); these functions only
choose the words, through gettext, and format amounts and dates through ``fmt``.
Msgids are English with named placeholders; a ``TRANSLATORS:`` comment names the
provision a statutory text implements. Citations are written in the msgids ("s.11")
and translated as the language writes them (``cite`` does the same for a provision
known only at run time).

``sms=True`` gives the short form: sentences on one line, ``Rs`` in English so it
stays in GSM-7. Every owner-facing SMS fits 2 GSM-7 segments in English and 3 UCS-2
segments in Malayalam, Tamil and Kannada on worst-case data (tested).
``sms=False`` gives the chat form: one fact a line, with the lines of the dues.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, timedelta
from typing import Final

from bot.i18n import fmt
from bot.i18n.catalogs import Translator
from bot.sms_segments import segments
from domain.calendar import period_end
from domain.case import Case, Lot, Stage, auction_allowed_from, deposit_window_end, report_due_on
from domain.dues import Deposit, Dues, DuesItem, DuesLine
from domain.errors import DomainError, UnknownKindError
from domain.kinds import Kind
from domain.money import Money

__all__ = [
    "SMS_SEGMENT_BUDGET",
    "bad_count",
    "cattle",
    "cite",
    "deposit_reply",
    "dues_reply",
    "error",
    "fits_sms",
    "kind_count",
    "not_allowed",
    "seizure_ack",
    "unknown_case",
    "unknown_command",
]

# What names the kinds: ``domain.kinds.Kinds`` or any mapping of code to Kind.
_KindMap = Mapping[str, Kind]
_Render = Callable[[Translator, int], str]

# One entry per kind in domain.kinds.DEFAULT_KINDS (a test keeps them in step).
_KIND_COUNTS: Final[dict[str, _Render]] = {
    # TRANSLATORS: s.2(1) — a number of cattle of one kind, as in "3 cows".
    "cow": lambda tr, n: tr.ngettext("%(n)d cow", "%(n)d cows", n),
    # TRANSLATORS: s.2(1) — an ox is a castrated bull, used for draught.
    "ox": lambda tr, n: tr.ngettext("%(n)d ox", "%(n)d oxen", n),
    "bull": lambda tr, n: tr.ngettext("%(n)d bull", "%(n)d bulls", n),
    # TRANSLATORS: s.2(1) — the young of a cow.
    "calf": lambda tr, n: tr.ngettext("%(n)d calf", "%(n)d calves", n),
    "buffalo": lambda tr, n: tr.ngettext("%(n)d buffalo", "%(n)d buffaloes", n),
    "buffalo_calf": lambda tr, n: tr.ngettext("%(n)d buffalo calf", "%(n)d buffalo calves", n),
    "goat": lambda tr, n: tr.ngettext("%(n)d goat", "%(n)d goats", n),
    # TRANSLATORS: s.2(1) — the young of a goat.
    "kid": lambda tr, n: tr.ngettext("%(n)d kid", "%(n)d kids", n),
    "sheep": lambda tr, n: tr.ngettext("%(n)d sheep", "%(n)d sheep", n),
    "lamb": lambda tr, n: tr.ngettext("%(n)d lamb", "%(n)d lambs", n),
    "pig": lambda tr, n: tr.ngettext("%(n)d pig", "%(n)d pigs", n),
    "horse": lambda tr, n: tr.ngettext("%(n)d horse", "%(n)d horses", n),
    "pony": lambda tr, n: tr.ngettext("%(n)d pony", "%(n)d ponies", n),
    # TRANSLATORS: s.2(1) — the young of a horse.
    "colt": lambda tr, n: tr.ngettext("%(n)d colt", "%(n)d colts", n),
    "mule": lambda tr, n: tr.ngettext("%(n)d mule", "%(n)d mules", n),
    # TRANSLATORS: s.2(1) — a donkey (the Act says "asses").
    "ass": lambda tr, n: tr.ngettext("%(n)d ass", "%(n)d asses", n),
    "camel": lambda tr, n: tr.ngettext("%(n)d camel", "%(n)d camels", n),
    "elephant": lambda tr, n: tr.ngettext("%(n)d elephant", "%(n)d elephants", n),
}

# Stages in which the cattle are still in the pound and feeding charges still run.
_IN_POUND: Final = frozenset(
    {Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING}
)

_CITATION: Final = re.compile(r"s\.(?P<section>\d+[A-Z]?(?:\([0-9a-z]+\))*)(?P<proviso> proviso)?")

#: Segments an owner-facing SMS may take: 2 in English (GSM-7, 306 characters), 3 in
#: the Indian scripts (UCS-2, 201 UTF-16 units).
SMS_SEGMENT_BUDGET: Final[Mapping[str, int]] = {"en": 2, "ml": 3, "ta": 3, "kn": 3}

_ECHO_LIMIT: Final = 20  # characters of a user's text echoed back in an error


def _join(parts: Iterable[str], sms: bool) -> str:
    return (" " if sms else "\n").join(p for p in parts if p)


# --- citations, cattle, amounts -----------------------------------------------------


def cite(provision: str, tr: Translator) -> str:
    """A provision as the language cites it: ``s.13(1)`` -> ``വകുപ്പ് 13(1)``."""
    general = provision.startswith("GCA ")
    match = _CITATION.fullmatch(provision.removeprefix("GCA "))
    if match is None:
        return provision
    section = match["section"]
    if general:
        # TRANSLATORS: the general clauses law on counting periods; keep "%(section)s".
        return tr.gettext("General Clauses Act s.%(section)s") % {"section": section}
    if match["proviso"]:
        # TRANSLATORS: the proviso to a section of the Act, e.g. "s.13(3) proviso".
        return tr.gettext("s.%(section)s proviso") % {"section": section}
    # TRANSLATORS: a section of the Kerala Cattle Trespass Act, e.g. "s.13(1)". Every
    # message that cites a section must write it the same way as this one (tested).
    return tr.gettext("s.%(section)s") % {"section": section}


def _kind_name(kind: str, kinds: _KindMap | None) -> str:
    if kinds is not None:
        try:
            return kinds[kind].name
        except (KeyError, UnknownKindError):
            pass
    return kind


def kind_count(kind: str, n: int, tr: Translator, kinds: _KindMap | None = None) -> str:
    """``n`` head of ``kind`` in words: ``3 പശുക്കൾ``.

    The default kinds (s.2(1)) are translated; a kind configured locally falls back to
    its configured name (or its code when the configuration is not given).
    """
    render = _KIND_COUNTS.get(kind)
    if render is not None:
        return render(tr, n) % {"n": n}
    # TRANSLATORS: a number of cattle of a kind configured by the pound, whose name
    # is shown as configured (untranslated), as in "2 mithun".
    return tr.gettext("%(n)d %(kind)s") % {"n": n, "kind": _kind_name(kind, kinds)}


def cattle(lots: Sequence[Lot], tr: Translator, kinds: _KindMap | None = None) -> str:
    """The cattle of a case by kind, in the order first seized: ``3 cows, 1 goat``."""
    heads: dict[str, int] = {}
    for lot in lots:
        heads[lot.kind] = heads.get(lot.kind, 0) + lot.count
    return ", ".join(kind_count(kind, n, tr, kinds) for kind, n in heads.items())


def _money(amount: Money, tr: Translator, sms: bool) -> str:
    return fmt.money(amount, tr.lang, sms=sms)


def _date(day: date, tr: Translator) -> str:
    return fmt.date(day, tr.lang)


# --- seizure ------------------------------------------------------------------------


def seizure_ack(
    case: Case,
    dues: Dues,
    daily_charge: Money,
    tr: Translator,
    sms: bool,
    *,
    kinds: _KindMap | None = None,
    pound_name: str | None = None,
) -> str:
    """What was recorded on a seizure (s.7): cattle, fines (s.11), the daily feeding
    charge (s.4) and the day the unclaimed report falls due (s.13(1)).

    ``daily_charge`` is what one more day costs for all the heads (s.4);
    ``pound_name`` names the pound in the chat form (its code when not given).
    """
    seizure = case.seizure
    values = {
        "case": case.number,
        "cattle": cattle(seizure.lots, tr, kinds),
        "fines": _money(dues.fines, tr, sms),
        "daily": _money(daily_charge, tr, sms),
        "report": _date(report_due_on(seizure.impounded_on), tr),
    }
    if sms:
        # TRANSLATORS: SMS after a seizure is recorded: the cattle, the fines (s.11)
        # and the feeding and watering charge per day (s.4); the s.13(1) date follows.
        # Keep it short: with three kinds of cattle the SMS must fit 3 segments (201
        # characters in ml/ta/kn).
        core = tr.gettext(
            "Case %(case)s: %(cattle)s impounded. Fines %(fines)s, feeding %(daily)s a day."
        )
        steps = _report_steps(seizure.impounded_on, seizure.impounded_on, tr)
        return _shortest_fit(tr, ([core % values, step] for step in steps))
    # TRANSLATORS: s.7 — first line of the chat reply after a seizure is recorded.
    recorded = tr.gettext("Case %(case)s recorded: %(cattle)s.")
    # TRANSLATORS: s.7 — the pound, the day and hour the cattle were brought, and the
    # place where they were seized.
    brought = tr.gettext("Brought to %(pound)s on %(when)s; seized at %(place)s.")
    # TRANSLATORS: s.11 — the fines for all the cattle of the case.
    fines = tr.gettext("Fines (s.11): %(amount)s.")
    # TRANSLATORS: s.4 — feeding and watering charge for all the cattle, per day.
    daily = tr.gettext("Feeding and watering (s.4): %(amount)s a day.")
    # TRANSLATORS: s.12 — how the owner gets the cattle back.
    claim = tr.gettext("The owner gets the cattle back on paying the fines and charges (s.12).")
    # TRANSLATORS: s.13(1) — day the unclaimed report is due.
    report = tr.gettext(
        "If they are not claimed within seven days, the pound-keeper reports them to "
        "the local authority on %(date)s (s.13(1))."
    )
    return _join(
        [
            recorded % values,
            brought
            % {
                "pound": pound_name or seizure.pound,
                "when": fmt.datetime(seizure.brought_at, tr.lang),
                "place": seizure.place_seized,
            },
            fines % {"amount": values["fines"]},
            daily % {"amount": values["daily"]},
            claim,
            report % {"date": values["report"]},
        ],
        sms=False,
    )


# --- dues ---------------------------------------------------------------------------


def _feeding_days(lines: Iterable[DuesLine]) -> int:
    """Distinct days charged for feeding and watering across the lines."""
    days: set[date] = set()
    for line in lines:
        if line.item is DuesItem.FEEDING and line.first_day and line.last_day:
            days.update(
                line.first_day + timedelta(days=i)
                for i in range((line.last_day - line.first_day).days + 1)
            )
    return len(days)


def _daily_now(dues: Dues, case: Case) -> Money:
    """The feeding charge per day still running on the dues' day (zero once they left)."""
    if case.stage not in _IN_POUND:
        return Money.zero()
    return Money(
        sum(
            line.rate.paise * line.heads
            for line in dues.lines
            if line.item is DuesItem.FEEDING and line.last_day == dues.on
        )
    )


def _line(line: DuesLine, tr: Translator, kinds: _KindMap | None) -> str:
    values = {
        "cattle": kind_count(line.kind, line.heads, tr, kinds),
        "rate": _money(line.rate, tr, sms=False),
        "amount": _money(line.amount, tr, sms=False),
        "days": line.days,
    }
    if line.item is DuesItem.FINE:
        # TRANSLATORS: s.11 — one line of the dues: heads x fine per head = amount.
        return tr.gettext("Fine (s.11): %(cattle)s × %(rate)s = %(amount)s") % values
    if line.item is DuesItem.FEEDING:
        # TRANSLATORS: s.4 — one line of the dues: heads x days x charge per head per
        # day = amount.
        text = tr.ngettext(
            "Feeding and watering (s.4): %(cattle)s × %(days)d day × %(rate)s = %(amount)s",
            "Feeding and watering (s.4): %(cattle)s × %(days)d days × %(rate)s = %(amount)s",
            line.days,
        )
        return text % values
    # TRANSLATORS: s.15(2) — the expenses of the sale, deducted from its proceeds.
    return tr.gettext("Expenses of sale (s.15(2)): %(amount)s") % values


def _report_steps(impounded: date, on: date, tr: Translator) -> tuple[str, ...]:
    """The s.13(1) report date as of ``on``: fullest wording first, then the shortest."""
    due = {"date": _date(report_due_on(impounded), tr)}
    # TRANSLATORS: s.13(1) — the day the unclaimed report is due, as briefly as possible
    # (an SMS falls back to this when the fuller wording does not fit).
    short = tr.gettext("Report due %(date)s (s.13(1)).") % due
    if on <= period_end(impounded, 7):
        # TRANSLATORS: s.13(1) — day the pound-keeper reports unclaimed cattle to the
        # local authority (still ahead).
        return (tr.gettext("If unclaimed, reported on %(date)s (s.13(1)).") % due, short)
    # TRANSLATORS: s.13(1) — seven days have passed unclaimed: the report is due (or was
    # due) on that day.
    return (tr.gettext("Unclaimed: report due %(date)s (s.13(1)).") % due, short)


def _next_step(case: Case, on: date, tr: Translator) -> tuple[str, ...]:
    """What happens next in the case, and when, as of ``on``: the fullest wording first,
    then shorter ones an SMS may fall back to."""
    impounded = case.seizure.impounded_on
    stage = case.stage
    auction = case.scheduled_auction
    if stage is Stage.IMPOUNDED:
        return _report_steps(impounded, on, tr)
    if stage is Stage.REPORTED:
        # TRANSLATORS: s.13(1), s.13(2) — reported unclaimed to the local authority; the
        # notice and the proclamation by beat of drum come next.
        text = tr.gettext(
            "Reported unclaimed on %(date)s (s.13(1)); notice and beat of drum next (s.13(2))."
        )
        # TRANSLATORS: s.13(2) — the same, shorter (for an SMS).
        short = tr.gettext("Notice and beat of drum next (s.13(2)).")
        return (text % {"date": _date(case.reported_on or on, tr)}, short)
    if auction is not None and stage in _IN_POUND:
        values = {"date": _date(auction.auction_on, tr), "place": auction.place}
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
    if stage is Stage.NOTICE_POSTED and case.notice is not None:
        # TRANSLATORS: s.13(3) — first day of the public auction of unclaimed cattle,
        # seven days after the notice.
        text = tr.gettext("If unclaimed, public auction from %(date)s (s.13(3)).")
        return (text % {"date": _date(auction_allowed_from(case.notice.on), tr)},)
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
    if stage is Stage.IN_DEPOSIT and case.deposited_on is not None:
        # TRANSLATORS: s.16(3) — last day to claim the surplus held in deposit.
        text = tr.gettext("Surplus held in deposit; claim it by %(date)s (s.16(3)).")
        return (text % {"date": _date(deposit_window_end(case.deposited_on), tr)},)
    if stage is Stage.ON_DEPOSIT:
        # TRANSLATORS: s.14 — the cattle were delivered on a deposit.
        return (tr.gettext("Cattle delivered on deposit (s.14)."),)
    if stage is Stage.RELEASED:
        # TRANSLATORS: s.12 — paid and released.
        return (tr.gettext("Paid and released (s.12)."),)
    # TRANSLATORS: the case is over; nothing more will happen.
    return (tr.gettext("This case is closed."),)


def fits_sms(text: str, lang: str) -> bool:
    """Whether ``text`` fits the SMS budget of ``lang`` (``SMS_SEGMENT_BUDGET``)."""
    return segments(text).segment_count <= SMS_SEGMENT_BUDGET.get(lang, 3)


def _shortest_fit(tr: Translator, candidates: Iterable[Sequence[str]]) -> str:
    """The first candidate (richest first) whose sentences fit the SMS budget, else the last."""
    text = ""
    for parts in candidates:
        text = _join(parts, sms=True)
        if fits_sms(text, tr.lang):
            break
    return text


def dues_reply(
    dues: Dues, case: Case, tr: Translator, sms: bool, *, kinds: _KindMap | None = None
) -> str:
    """What is owed and why (s.11, s.4, s.15(2)), and what happens next and when.

    The SMS gives the total with fines and feeding (and sale expenses), what the dues
    grow by each day and the next step; on long data it drops the daily growth, then
    the place of an auction, to stay within the budget.
    """
    values: dict[str, object] = {
        "case": case.number,
        "total": _money(dues.total, tr, sms),
        "date": _date(dues.on, tr),
    }
    next_steps = _next_step(case, dues.on, tr)
    if not sms:
        # TRANSLATORS: heading of the chat reply listing the dues of a case on a day.
        heading = tr.gettext("Case %(case)s: dues on %(date)s") % values
        lines = [_line(line, tr, kinds) for line in dues.lines]
        # TRANSLATORS: the total of the dues listed above.
        footer = tr.gettext("Total: %(total)s") % values
        return _join([heading, *lines, footer, next_steps[0]], sms=False)
    days = _feeding_days(dues.lines)
    values |= {
        "fines": _money(dues.fines, tr, sms),
        "feeding": _money(dues.feeding, tr, sms),
        "expenses": _money(dues.sale_expenses, tr, sms),
        "days": days,
    }
    if dues.sale_expenses:
        # TRANSLATORS: SMS: the total owed on a day, made of fines (s.11), feeding and
        # watering for a number of days (s.4) and the expenses of sale (s.15(2)).
        text = tr.ngettext(
            "Case %(case)s: %(total)s due on %(date)s (fines %(fines)s, feeding %(days)d "
            "day %(feeding)s, sale expenses %(expenses)s).",
            "Case %(case)s: %(total)s due on %(date)s (fines %(fines)s, feeding %(days)d "
            "days %(feeding)s, sale expenses %(expenses)s).",
            days,
        )
    else:
        # TRANSLATORS: SMS: the total owed on a day, made of fines (s.11) and feeding
        # and watering for a number of days (s.4). Keep it short: 3 SMS segments in all.
        text = tr.ngettext(
            "Case %(case)s: %(total)s due on %(date)s (fines %(fines)s, feeding %(days)d "
            "day %(feeding)s).",
            "Case %(case)s: %(total)s due on %(date)s (fines %(fines)s, feeding %(days)d "
            "days %(feeding)s).",
            days,
        )
    core = text % values
    daily = _daily_now(dues, case)
    # TRANSLATORS: s.4 — SMS: the dues grow by this much each further day.
    more = tr.gettext("%(amount)s more each day.") % {"amount": _money(daily, tr, sms)}
    candidates: list[list[str]] = []
    for step in next_steps:
        if daily:
            candidates.append([core, more, step])
        candidates.append([core, step])
    return _shortest_fit(tr, candidates)


# --- deposit under s.14 -------------------------------------------------------------


def deposit_reply(
    deposit: Deposit, case: Case, tr: Translator, sms: bool, *, kinds: _KindMap | None = None
) -> str:
    """The s.14 deposit that delivers the cattle to an owner disputing the seizure, and
    the s.19 last day to complain; or, once that day is past, that it is too late."""
    dues = deposit.dues
    values = {
        "case": case.number,
        "amount": _money(deposit.amount, tr, sms),
        "date": _date(dues.on, tr),
        "complain_by": _date(deposit.complaint_by, tr),
    }
    if deposit.complaint_by < dues.on:
        # TRANSLATORS: s.19, s.14, s.12 — the ten days to complain are over, so no
        # deposit under protest; the owner can still pay and take the cattle.
        text = tr.gettext(
            "Case %(case)s: the time to complain ended on %(complain_by)s (s.19), so no "
            "deposit (s.14). Pay %(amount)s to release the cattle (s.12)."
        )
        return text % values
    # TRANSLATORS: s.14 — the owner disputes the seizure: on depositing the fines and
    # charges due on the date shown, the cattle are delivered to them.
    offer = tr.gettext(
        "Case %(case)s: to dispute the seizure, deposit %(amount)s (dues on %(date)s) and "
        "take the cattle (s.14)."
    )
    # TRANSLATORS: s.19 — last day to complain of the illegal seizure.
    complain = tr.gettext("Last day to complain: %(complain_by)s (s.19).")
    if sms:
        return _join([offer % values, complain % values], sms=True)
    lines = [_line(line, tr, kinds) for line in dues.lines]
    return _join([offer % values, *lines, complain % values], sms=False)


# --- errors -------------------------------------------------------------------------

_ERRORS: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: s.4, s.11 — no dated rate covers the day asked.
    "rate_not_in_force": lambda tr: tr.gettext(
        "No rate is in force on that day. Ask the local authority to enter the rate "
        "that applied then."
    ),
    # TRANSLATORS: s.2(1) — a kind of cattle not configured for this pound.
    "unknown_kind": lambda tr: tr.gettext(
        "That kind of cattle is not on this pound's list. Use a listed kind, or ask "
        "the local authority to add it."
    ),
    # TRANSLATORS: s.7 — a seizure report that cannot be recorded as sent.
    "invalid_case": lambda tr: tr.gettext(
        "The report is incomplete or wrong. Check the number and kinds of cattle and "
        "the place of seizure, and send it again."
    ),
    "future_date": lambda tr: tr.gettext(
        "That date is after today. Give the day it actually happened."
    ),
    "backwards_date": lambda tr: tr.gettext(
        "That date is before the last step recorded in this case. Check the date."
    ),
    "transition_refused": lambda tr: tr.gettext(
        "This step is not allowed at the present stage of the case. Check the case first."
    ),
    # TRANSLATORS: a period the Act sets (seven days, three months) has not yet run.
    "too_early": lambda tr: tr.gettext(
        "Too early: the period the Act sets has not yet run. Try again after it ends."
    ),
    # TRANSLATORS: s.18 — officers, pound-keepers and members may not buy.
    "barred_buyer": lambda tr: tr.gettext(
        "The buyer must declare that they are not barred from buying at a pound sale."
    ),
}


def error(exc: DomainError, tr: Translator) -> str:
    """What the Act refuses, and what to do instead, citing ``exc.provision``."""
    render = _ERRORS.get(exc.code)
    # TRANSLATORS: a step refused for a reason not listed separately.
    text = render(tr) if render else tr.gettext("That cannot be done under the Act.")
    if exc.provision:
        # TRANSLATORS: appended to an error: the provision that refuses the step.
        under = tr.gettext("(%(provision)s)") % {"provision": cite(exc.provision, tr)}
        text = f"{text} {under}"
    return text


def unknown_case(number: str, tr: Translator) -> str:
    """No case has that number."""
    # TRANSLATORS: the case number sent matches no case.
    text = tr.gettext("There is no case %(case)s. Check the number and send it again.")
    return text % {"case": number[:_ECHO_LIMIT]}


def bad_count(text: str, tr: Translator) -> str:
    """A count of cattle that is not a whole number from 1 up."""
    # TRANSLATORS: s.7 — the number of cattle sent is not a whole number.
    template = tr.gettext("'%(text)s' is not a number of cattle. Send a whole number, like 3.")
    return template % {"text": text[:_ECHO_LIMIT]}


def not_allowed(tr: Translator) -> str:
    """The sender's role does not allow the command."""
    # TRANSLATORS: the sender's role (owner, pound-keeper, officer) cannot do this.
    return tr.gettext("Your role does not allow this. Ask the pound-keeper or the local authority.")


def unknown_command(commands: Sequence[str], tr: Translator) -> str:
    """A command the bot does not know, with the ones it does (not translated: typed)."""
    # TRANSLATORS: %(commands)s is a list of command words, which stay in English.
    text = tr.gettext("Unknown command. Send one of: %(commands)s")
    return text % {"commands": ", ".join(commands)}
