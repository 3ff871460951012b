"""What a pound-keeper is told after each step: seizure (s.7), payment (s.12), deposit
(s.14), report (s.13(1)), refusal (s.15(1)), correction, and the list of open cases.

Why it is long: every reply to a pound-keeper, one per step."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Literal

from bot.config.names import local
from bot.i18n.catalogs import Translator
from bot.i18n.common import (
    CATTLE_WIDTH,
    NAME_LIMIT,
    KindMap,
    cattle,
    day,
    described_cattle,
    fines_to,
    head_count,
    keyword,
    moment,
    money,
    reported_to,
    shorten,
    sms_name,
)
from bot.i18n.dlt_probe import leaf, offer, plain, probing
from bot.i18n.documents.account import account_summary, account_text
from bot.i18n.public.dues import dues_lines
from bot.i18n.public.next_step import report_steps
from bot.i18n.public.sms_fit import (
    STAFF_SMS_SEGMENTS,
    fit_list,
    fits_sms,
    in_parts,
    join,
    shortest_fit,
)
from bot.i18n.sms_keyword import or_form
from domain.case import Case
from domain.money import Money
from domain.profiles import Profile
from domain.s04_s11_dues import Dues
from domain.s07_seizure import Lot, Seizure
from domain.stages import Stage
from domain.statement import Statement, dates_of

if TYPE_CHECKING:
    from bot.services.keeper import OpenCase

#: Whether the owner is told of an impounding by SMS: queued, the number asked for no
#: SMS (STOP), or no number was given.
OwnerSms = Literal["queued", "opted_out", "no_number"]
#: What became of the SMS of one owner of some of a case's cattle: the numbers (from 1)
#: of their lots, and their SMS.
OwnerTold = tuple[tuple[int, ...], OwnerSms]

__all__ = [
    "OwnerSms",
    "OwnerTold",
    "brought_when",
    "case_voided",
    "correction_recorded",
    "deposit_recorded",
    "open_cases",
    "owner_refusal_recorded",
    "owner_sms_line",
    "owners_sms_lines",
    "paid_after_part_sale",
    "payment_recorded",
    "report_sent",
    "seizure_ack",
]


def brought_when(seizure: Seizure, tr: Translator) -> str:
    """The day brought, with the hour only when it was given (s.7)."""
    if seizure.hour_known:
        return moment(seizure.brought_at, tr)
    return day(seizure.impounded_on, tr)


def owner_sms_line(owner_sms: OwnerSms, tr: Translator) -> str:
    """Whether the owner will be told of the impounding by SMS."""
    if owner_sms == "queued":
        # TRANSLATORS: the owner's number was given: the owner gets an SMS of the case.
        return tr.gettext("The owner will be told by SMS.")
    if owner_sms == "no_number":
        # TRANSLATORS: no owner's number was given (OWNER <name> <number>): no SMS.
        return tr.gettext("No owner's number: the owner is not told by SMS.")
    # TRANSLATORS: the owner's number asked for no SMS (STOP): tell them another way.
    return tr.gettext("The owner's number asked for no SMS: tell the owner in person.")


def owners_sms_lines(owners: Sequence[OwnerTold], tr: Translator) -> str:
    """Whether each owner of some of the cattle will be told of their own lots by SMS,
    naming their lots by number (never the owner)."""
    return " ".join(_owner_of_lots_line(lots, sms, tr) for lots, sms in owners)


def _owner_of_lots_line(lots: tuple[int, ...], owner_sms: OwnerSms, tr: Translator) -> str:
    values = {"lots": ", ".join(str(lot) for lot in lots)}
    if owner_sms == "queued":
        # TRANSLATORS: s.7 — cattle of more than one owner: the owner of these lots (by
        # number: "1, 3") gets an SMS of their own cattle alone.
        text = tr.ngettext(
            "The owner of lot %(lots)s will be told by SMS of their cattle.",
            "The owner of lots %(lots)s will be told by SMS of their cattle.",
            len(lots),
        )
    elif owner_sms == "no_number":
        # TRANSLATORS: s.7 — cattle of more than one owner: no number was given for the
        # owner of these lots (OWNER <name> <number>): that owner gets no SMS.
        text = tr.ngettext(
            "No number for the owner of lot %(lots)s: that owner is not told by SMS.",
            "No number for the owner of lots %(lots)s: that owner is not told by SMS.",
            len(lots),
        )
    else:
        # TRANSLATORS: s.7 — cattle of more than one owner: the number of the owner of
        # these lots asked for no SMS (STOP): tell that owner another way.
        text = tr.ngettext(
            "The number of the owner of lot %(lots)s asked for no SMS: tell that owner in person.",
            "The number of the owner of lots %(lots)s asked for no SMS: tell that owner in person.",
            len(lots),
        )
    return text % values


def seizure_ack(
    case: Case,
    dues: Dues,
    daily_charge: Money,
    tr: Translator,
    sms: bool,
    *,
    kinds: KindMap | None = None,
    pound_name: str | None = None,
    owner_sms: OwnerSms | None = None,
    owners: Sequence[OwnerTold] = (),
) -> str:
    """What was recorded on a seizure (s.7): cattle, fines (s.11), the daily feeding
    charge (s.4) and the day the unclaimed report falls due (s.13(1)).

    ``daily_charge`` is what one more day costs for all the heads (s.4) at the rate in
    force on the day brought; ``pound_name`` names the pound in the chat form (its code
    when not given); ``owner_sms`` says whether the owner will be told by SMS
    (``owner_sms_line``; left out when not given); ``owners``, in a case of more than
    one owner, whether each will be told of their own lots (``owners_sms_lines``).
    """
    told = owners_sms_lines(owners, tr) if owners else ""
    told = told or (owner_sms_line(owner_sms, tr) if owner_sms else "")
    seizure = case.seizure
    values = {
        "case": case.number,
        "cattle": cattle(seizure.lots, tr, kinds),
        "fines": money(dues.fines, tr, sms),
        "daily": money(daily_charge, tr, sms),
        "report": day(dates_of(case).report_on, tr),
    }
    if sms:
        # TRANSLATORS: SMS after a seizure is recorded: the cattle, the fines (s.11)
        # and the feeding and watering charge per day (s.4); the s.13(1) date follows.
        # Keep it short: with three kinds of cattle the SMS must fit 3 segments (201
        # characters in ml/ta/kn).
        core = tr.gettext(
            "Case %(case)s: %(cattle)s impounded. Fines %(fines)s, feeding %(daily)s a day."
        )
        steps = report_steps(dates_of(case), seizure.impounded_on, tr)
        # What the owner is told, in the same SMS when it fits the staff budget; what each
        # owner of some of the cattle is told, in an SMS of its own (its own template).
        if told and not owners:
            joined = [join([core % values, step, told], sms=True) for step in steps]
            for text in joined:
                offer(text)
            fit = next((t for t in joined if fits_sms(t, tr.lang, STAFF_SMS_SEGMENTS)), None)
            if fit is not None and not probing():
                return fit
        # Else it is an SMS of its own: a few templates whatever the cattle.
        candidates = [[core % values, step] for step in steps]
        return in_parts([shortest_fit(tr, candidates, STAFF_SMS_SEGMENTS), told])
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
    # TRANSLATORS: s.13(1) — day the unclaimed report is due; %(to_office)s is whom it is
    # made to, with its ending ("to the local authority"; under the Cattle-trespass Act,
    # 1871 "to the officer in charge of the nearest police station").
    report = tr.gettext(
        "If they are not claimed within seven days, the pound-keeper reports them "
        "%(to_office)s on %(date)s (s.13(1))."
    )
    where = {
        "pound": sms_name(local(pound_name, tr.lang) if pound_name else seizure.pound),
        "when": brought_when(seizure, tr),
        "place": sms_name(seizure.place_seized),
    }
    return join(
        [
            recorded % values,
            *owners_of_lots(seizure, tr, kinds),
            brought % where,
            _seized_line(seizure, dates_of(case).complaint_by, tr),
            fines % {"amount": values["fines"]},
            daily % {"amount": values["daily"]},
            claim,
            report % {"date": values["report"], "to_office": reported_to(tr)},
            told,
        ],
        sms=False,
    )


def owners_of_lots(seizure: Seizure, tr: Translator, kinds: KindMap | None = None) -> list[str]:
    """Each lot, by its number, with its owner, where the lots are of more than one owner
    (s.7): the number an owner's step names (``LOT 2``). None for a case of one owner."""
    if not seizure.owned_apart:
        return []
    lines = []
    for index, lot in enumerate(seizure.lots):
        owner = seizure.owner_of(index)
        values = {"lot": index + 1, "cattle": cattle([lot], tr, kinds)}
        if owner is None:
            # TRANSLATORS: s.7 — a lot of a case whose cattle are of more than one owner,
            # by its number (LOT 2 names it), whose owner is not known.
            lines.append(tr.gettext("Lot %(lot)d: %(cattle)s, owner not known.") % values)
            continue
        # TRANSLATORS: s.7 — a lot of a case whose cattle are of more than one owner, by
        # its number (LOT 2 names it), and its owner's name.
        text = tr.gettext("Lot %(lot)d: %(cattle)s, owner %(owner)s.")
        lines.append(text % {**values, "owner": sms_name(owner.name)})
    return lines


def _seized_line(seizure: Seizure, complaint_by: date, tr: Translator) -> str:
    """The day of seizure when it was before the day brought, and the s.19 last day."""
    if seizure.seizure_day == seizure.impounded_on:
        return ""
    values = {
        "seized": day(seizure.seizure_day, tr),
        "date": day(complaint_by, tr),
    }
    # TRANSLATORS: s.19 — the cattle were seized before the day they were brought in;
    # the ten days to complain count from the day of seizure.
    text = tr.gettext(
        "Seized on %(seized)s: a complaint of illegal seizure may be made until %(date)s (s.19)."
    )
    return text % values


def lots_separated(from_number: str, lots: Sequence[Lot], number: str, tr: Translator) -> str:
    """One owner's cattle of a case of more than one owner went into a case of their own
    for that owner's step (s.7): which, and the case they are now."""
    values = {"cattle": cattle(lots, tr), "from": from_number, "case": number}
    # TRANSLATORS: s.7 — cattle of two owners were brought in as one case; one owner's
    # cattle (%(cattle)s) now make a case of their own, %(case)s, for that owner's step
    # (paying, depositing, refusing); case %(from)s goes on for the other owner's cattle.
    text = tr.gettext(
        "New case %(case)s for the owner of the %(cattle)s of case %(from)s; case %(from)s "
        "goes on for the rest."
    )
    return text % values


def payment_recorded(case: Case, dues: Dues, tr: Translator, sms: bool) -> str:
    """The owner paid and took the cattle (s.12): the amount, the release, the receipt."""
    values = {
        "case": case.number,
        "amount": money(dues.total, tr, sms),
        "fines": money(dues.fines, tr, sms),
        "feeding": money(dues.feeding, tr, sms),
        "date": day(dues.on, tr),
        "cattle": cattle(case.lots_remaining, tr),
    }
    # TRANSLATORS: s.12 — the owner claimed the cattle and paid the fines and charges.
    paid = tr.gettext("Case %(case)s: %(amount)s paid on %(date)s; %(cattle)s released (s.12).")
    # TRANSLATORS: s.12, s.11, s.4 — the line of the receipt the pound-keeper gives.
    receipt = tr.gettext(
        "Give the owner a receipt: case %(case)s, %(amount)s received on %(date)s "
        "(fines %(fines)s, s.11; feeding and watering %(feeding)s, s.4)."
    )
    # TRANSLATORS: s.17(1), s.16(2) — where the money goes: the fines to the fund of the
    # local authority (under the Cattle-trespass Act, 1871 to the District Magistrate;
    # %(fines_to)s is where, as "to the fund of the local authority" or "to the District
    # Magistrate" is translated), the feeding charges to the pound-keeper.
    split = tr.gettext(
        "The fines go %(fines_to)s (s.17(1)); the pound-keeper "
        "keeps the feeding and watering charges (s.16(2))."
    ) % {"fines_to": fines_to(tr)}
    cancelled = _auction_cancelled(case, tr)
    if sms:  # each sentence an SMS, within the staff budget in every script
        return in_parts([paid % values, *cancelled, receipt % values])
    return join(
        [paid % values, *cancelled, *dues_lines(dues, tr), receipt % values, split], sms=False
    )


def paid_after_part_sale(stated: Statement, tr: Translator, sms: bool) -> str:
    """The owner paid what the proceeds of a part sale left owed and took the rest
    (s.12, s.15(1)): what the sale met, what was paid, the cattle delivered, the
    receipts (s.15(4)), then the s.15(3) account (by SMS, its summary)."""
    case, account = stated.case, stated.account
    assert account is not None
    values = {
        "case": case.number,
        "proceeds": money(account.proceeds, tr, sms),
        "amount": money(account.paid, tr, sms),
        "date": day(stated.stage_since, tr),
        "cattle": cattle(case.lots_remaining, tr),
    }
    # TRANSLATORS: s.15(2), s.12, s.15(3) — part of the cattle were sold on the owner's
    # route; the proceeds met part of the dues and the owner paid the rest and took the
    # cattle not sold.
    paid = tr.gettext(
        "Case %(case)s: the proceeds of the sale, %(proceeds)s, met part of the dues "
        "(s.15(2)); the owner paid the rest, %(amount)s, on %(date)s and took %(cattle)s "
        "(s.12, s.15(3))."
    )
    # TRANSLATORS: s.15(4), s.12 — the receipts: the owner's for the cattle delivered,
    # the pound-keeper's for the money paid.
    receipt = tr.gettext(
        "Take the owner's receipt for %(cattle)s and give a receipt for %(amount)s "
        "received (s.15(4))."
    )
    if sms:  # each sentence an SMS (the cattle as a count when their list is too long)
        brief = values | {"cattle": head_count(case.heads_remaining, tr)}
        parts = [
            shortest_fit(tr, [[text % values], [text % brief]], STAFF_SMS_SEGMENTS)
            for text in (paid, receipt)
        ]
        return in_parts([*parts, account_summary(account, tr, True)])
    return join([paid % values, receipt % values], sms=False) + "\n\n" + account_text(account, tr)


def _auction_cancelled(case: Case, tr: Translator) -> list[str]:
    """The auction fixed, cancelled by a payment (s.12) or a deposit (s.14) made before
    any head was sold; nothing when none was fixed."""
    fixed = case.scheduled_auction
    if fixed is None:
        return []
    # TRANSLATORS: s.12, s.14, s.13(3), s.15(1) — the owner paid or deposited before any
    # head was sold: the auction that was fixed will not be held.
    text = tr.gettext("The auction fixed for %(auction)s is cancelled.")
    return [text % {"auction": day(fixed.auction_on, tr)}]


def deposit_recorded(
    case: Case,
    dues: Dues,
    complaint_by: date,
    tr: Translator,
    sms: bool,
    *,
    today: date | None = None,
) -> str:
    """The owner disputed the seizure, deposited the dues and took the cattle (s.14);
    the s.19 last day to complain, said as past when it is before ``today`` (a deposit
    entered late)."""
    values = {
        "case": case.number,
        "amount": money(dues.total, tr, sms),
        "date": day(dues.on, tr),
        "cattle": cattle(case.seizure.lots, tr),
        "complain_by": day(complaint_by, tr),
    }
    # TRANSLATORS: s.14 — the owner, disputing the seizure, deposited the fines and
    # charges and the cattle were delivered to them.
    deposited = tr.gettext(
        "Case %(case)s: %(amount)s deposited on %(date)s by the owner disputing the "
        "seizure; %(cattle)s delivered (s.14)."
    )
    # TRANSLATORS: s.19 — the owner may complain until this day; the outcome of the
    # deposit is recorded when the complaint is decided.
    complain = tr.gettext(
        "The owner may complain until %(complain_by)s (s.19). Give a receipt for the "
        "deposit; the officer records what becomes of it."
    )
    if today is not None and complaint_by < today:
        # TRANSLATORS: s.19 — a deposit entered late: the ten days to complain are over
        # already; the officer records what becomes of the deposit.
        complain = tr.gettext(
            "The time to complain ended on %(complain_by)s (s.19). Give a receipt for the "
            "deposit; the officer records what becomes of it."
        )
    cancelled = _auction_cancelled(case, tr)
    if sms:  # each sentence an SMS, within the staff budget in every script
        return in_parts([deposited % values, *cancelled, complain % values])
    return join(
        [deposited % values, *cancelled, *dues_lines(dues, tr), complain % values], sms=False
    )


def report_sent(stated: Statement, tr: Translator, sms: bool) -> str:
    """The unclaimed cattle were reported to the office the case's Act names (s.13(1));
    the notice and its proclamation (by beat of drum where that Act says so) are next."""
    case = stated.case
    values = {
        "case": case.number,
        "date": day(case.reported_on or stated.recorded.latest_on, tr),
        "to_office": reported_to(tr),
    }
    if tr.act.drum:
        # TRANSLATORS: s.13(1), s.13(2) — the pound-keeper reported the unclaimed cattle;
        # the notice and proclamation are the officer's next step. %(to_office)s is whom
        # the report was made to, with its ending ("to the local authority"; under the
        # Cattle-trespass Act, 1871 "to the officer in charge of the nearest police
        # station").
        text = tr.gettext(
            "Case %(case)s: reported unclaimed %(to_office)s on %(date)s (s.13(1)). The "
            "officer now posts the notice and has it proclaimed by beat of drum (s.13(2))."
        )
    else:
        # TRANSLATORS: s.13(1), s.13(2) as amended — the same, under an Act whose
        # proclamation is made in the village and the market place with no beat of drum
        # (the Kerala Act as amended): do not name a drum.
        text = tr.gettext(
            "Case %(case)s: reported unclaimed %(to_office)s on %(date)s (s.13(1)). The "
            "officer now posts the notice and has it proclaimed in the village and the "
            "nearest market place (s.13(2))."
        )
    return text % values


def owner_refusal_recorded(stated: Statement, tr: Translator, sms: bool) -> str:
    """The owner appeared and refused or omitted to pay (s.15(1))."""
    event = stated.recorded.owner_refusal
    on = event.on if event is not None else stated.recorded.latest_on
    values = {"case": stated.case.number, "date": day(on, tr)}
    # TRANSLATORS: s.15(1) — the owner appeared and refused or omitted to pay: as many
    # of the cattle as are needed are sold by public auction, on a day the officer fixes.
    text = tr.gettext(
        "Case %(case)s: the owner refused or omitted to pay on %(date)s. As many of the "
        "cattle as are needed will be sold by public auction; the officer fixes the day "
        "(s.15(1))."
    )
    return text % values


def correction_recorded(stated: Statement, tr: Translator, sms: bool) -> str:
    """The intake facts were corrected; the reason is kept (s.7); the s.13(1) day as it
    now stands while the report is still to come."""
    case = stated.case
    seizure = case.seizure
    event = stated.recorded.correction
    values = {
        "case": case.number,
        "cattle": described_cattle(seizure.lots, tr),
        "place": sms_name(seizure.place_seized),
        "when": brought_when(seizure, tr),
        "reason": sms_name(event.reason) if event is not None else "",
    }
    # TRANSLATORS: s.7 — the seizure record after a correction: cattle, place, day and
    # hour brought in.
    corrected = tr.gettext(
        "Case %(case)s corrected: %(cattle)s, seized at %(place)s, brought in on %(when)s (s.7)."
    )
    # TRANSLATORS: the reason given for the correction, kept with the record.
    reason = tr.gettext("Reason recorded: %(reason)s")
    report = ""
    if case.stage is Stage.IMPOUNDED:
        report = report_steps(stated.dates, seizure.impounded_on, tr)[-1]
    old = case.superseded_notice
    if event is not None and event.supersedes_notice and old is not None:
        report = _notice_superseded(case, old.on, tr)
    lines = [
        corrected % values,
        _seized_line(seizure, stated.dates.complaint_by, tr),
        report,
        reason % values if values["reason"] else "",
    ]
    # By SMS each sentence an SMS: one template for each, whichever of them apply.
    return in_parts(lines) if sms else join(lines, sms)


def _notice_superseded(case: Case, posted: date, tr: Translator) -> str:
    """A correction of what the posted notice stated (the cattle, their description, the
    place of seizure) before any head was offered on it: that notice no longer stands,
    a new one is to be posted, and the auction fixed on it, if any, is cancelled
    (s.13(2), s.13(3))."""
    values = {
        "date": day(posted, tr),
        "notice": or_form(tr, f"{keyword('notice', tr.lang)} {case.number}", "notice"),
    }
    cancelled = case.cancelled_auction
    if cancelled is None:
        # TRANSLATORS: s.13(2), s.13(3) — a correction of what the posted notice states:
        # that notice no longer stands; a new one is posted and the auction may be fixed
        # seven days after it; %(notice)s is the command that records the new notice.
        text = tr.gettext(
            "The notice of %(date)s no longer stands: post a new notice (%(notice)s); the "
            "auction is lawful seven days after it (s.13(2), s.13(3))."
        )
        return text % values
    # TRANSLATORS: s.13(2), s.13(3) — a correction of what the posted notice states:
    # that notice no longer stands, the auction fixed on it is cancelled, and a new
    # notice is posted; %(notice)s is the command that records it.
    text = tr.gettext(
        "The notice of %(date)s no longer stands: post a new notice (%(notice)s); the "
        "auction fixed for %(auction)s is cancelled (s.13(2), s.13(3))."
    )
    return text % (values | {"auction": day(cancelled.auction_on, tr)})


def case_voided(stated: Statement, tr: Translator) -> str:
    """A case entered by mistake was voided, with its reason; its number stays used."""
    event = stated.recorded.voiding
    values = {
        "case": stated.case.number,
        "reason": sms_name(event.reason) if event is not None else "",
    }
    # TRANSLATORS: a case entered by mistake is withdrawn from every list; the
    # voiding and its reason stay in the case's history, and the number is not reused.
    return (
        tr.gettext(
            "Case %(case)s voided as entered by mistake: %(reason)s. It is on no list now; "
            "its history keeps the record and the number is not used again."
        )
        % values
    )


def _open_case(item: OpenCase, tr: Translator, sms: bool, kinds: KindMap | None) -> str:
    case = item.loaded.case
    tr = tr.under(case.profile)  # the line in the words of its case's Act
    figures = item.figures
    days = figures.days_impounded or 0
    values = {
        "case": case.number,
        "cattle": cattle(item.lots, tr, kinds),
        "days": days,
        "total": money(figures.unmet, tr, sms),
    }
    # TRANSLATORS: one open case in the pound-keeper's list: the cattle still in the
    # pound, whole days in the pound (s.15(3)(b)), and the dues still to be met today
    # (s.11, s.4, s.15(2)).
    line = tr.ngettext(
        "%(case)s: %(cattle)s, %(days)d day in the pound, dues %(total)s.",
        "%(case)s: %(cattle)s, %(days)d days in the pound, dues %(total)s.",
        days,
    )
    text = line % values
    due = dates_of(case).report_on
    today = figures.on
    if case.stage is Stage.IMPOUNDED and due <= today:
        due_values = {
            "date": day(due, tr),
            "command": f"{keyword('report', tr.lang)} {case.number}",
        }
        if due == today:
            # TRANSLATORS: s.13(1) — marker on a case in the list: report it today.
            mark = tr.gettext("Report due today (s.13(1)): send %(command)s.")
        else:
            # TRANSLATORS: s.13(1) — marker on a case in the list: the report is late.
            mark = tr.gettext("REPORT OVERDUE since %(date)s (s.13(1)): send %(command)s.")
        text = f"{text} {mark % due_values}"
    return text


def _sms_case(item: OpenCase, tr: Translator, kinds: KindMap | None) -> str:
    """One open case in the SMS list: data only, one wording for every case. The cattle
    by kind while they fit one DLT variable, else the number of head (in the same
    variables: the list stays one template)."""
    case = item.loaded.case
    lots = item.lots
    listed = plain(cattle(lots, tr, kinds))
    if len(listed) > NAME_LIMIT:
        listed = plain(head_count(sum(lot.count for lot in lots), tr))
    values = {
        "case": case.number,
        "cattle": leaf(tr, listed, "cattle" + "+" * (CATTLE_WIDTH - 1)),
        "days": leaf(tr, _days(item.figures.days_impounded or 0, tr), "days"),
        "total": money(item.figures.unmet, tr, True),
    }
    # TRANSLATORS: SMS — one open case in the pound-keeper's list: the cattle still in
    # the pound, the days in the pound (e.g. "31 days", s.15(3)(b)), and the dues still
    # to be met today (s.11, s.4, s.15(2)).
    return tr.gettext("%(case)s: %(cattle)s, %(days)s in the pound, dues %(total)s.") % values


def _days(n: int, tr: Translator) -> str:
    # TRANSLATORS: a number of days (the days in the pound, s.15(3)(b)).
    return tr.ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def _report_marks(items: Sequence[OpenCase], tr: Translator) -> list[str]:
    """SMS — the cases whose s.13(1) report is overdue, then those due today, each set
    named once before the list (their numbers are data: DLT variables); a set of cases
    under another Act (an Act that changed with time) named apart, in its words."""
    overdue: dict[Profile, list[str]] = {}
    today: dict[Profile, list[str]] = {}
    for item in items:
        case = item.loaded.case
        due = dates_of(case).report_on
        if case.stage is Stage.IMPOUNDED and due <= item.figures.on:
            found = today if due == item.figures.on else overdue
            found.setdefault(case.profile, []).append(case.number)
    marks = []
    for act, numbers in overdue.items():
        # TRANSLATORS: SMS — s.13(1): the cases (numbers) whose report is late; "REPORT"
        # is the command word, as in "REPORT OVERDUE since ...".
        text = tr.under(act).gettext("REPORT OVERDUE (s.13(1)): %(cases)s.")
        marks.append(text % {"cases": _numbers(numbers, tr)})
    for act, numbers in today.items():
        # TRANSLATORS: SMS — s.13(1): the cases (numbers) to report today.
        text = tr.under(act).gettext("Report due today (s.13(1)): %(cases)s.")
        marks.append(text % {"cases": _numbers(numbers, tr)})
    return marks


def _numbers(numbers: Sequence[str], tr: Translator) -> str:
    """Case numbers in an SMS: the DLT variables of a list (``CATTLE_WIDTH``), whole
    numbers only."""
    listed = shorten(", ".join(numbers), CATTLE_WIDTH * NAME_LIMIT)
    return leaf(tr, listed, "cases" + "+" * (CATTLE_WIDTH - 1))


#: Cases an SMS lists at most (then "And N more"): a list by SMS is one of a few DLT
#: templates, never a sentence a case.
SMS_LIST_MOST = 4


def open_cases(
    items: Sequence[OpenCase], tr: Translator, sms: bool, kinds: KindMap | None = None
) -> str:
    """The cases with cattle in the keeper's pound: number, the cattle still there, days
    in the pound, the dues still to be met, and a marker on those whose s.13(1) report
    is due or overdue. By SMS: the cases whose
    report is overdue or due today first, then each case in one wording (its cattle,
    since when, its dues), at most ``SMS_LIST_MOST``."""
    if not items:
        # TRANSLATORS: the pound-keeper's list of open cases is empty.
        return tr.gettext("No open cases in your pound.")
    # TRANSLATORS: heading of the pound-keeper's list of open cases.
    head = tr.ngettext("%(n)d open case:", "%(n)d open cases:", len(items)) % {"n": len(items)}
    if not sms:
        lines = [_open_case(item, tr, sms, kinds) for item in items]
        return join([head, *lines], sms=False)

    def more(n: int) -> str:
        # TRANSLATORS: SMS — the list was cut short; the rest are in the chat.
        return tr.ngettext("And %(n)d more.", "And %(n)d more.", n) % {"n": n}

    lines = [_sms_case(item, tr, kinds) for item in items[:SMS_LIST_MOST]]
    hidden = len(items) - len(lines)
    marks = _report_marks(items, tr)
    return fit_list(tr, [*marks, head], lines, more, STAFF_SMS_SEGMENTS, hidden=hidden)
