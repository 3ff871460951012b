"""What an owner is told: the dues (s.11, s.4, s.12), the s.14 deposit, the SMS on
impounding and before the auction.

``sms=True`` gives the short form: sentences on one line, ``Rs`` in English so it
stays in GSM-7, within ``SMS_SEGMENT_BUDGET`` on worst-case data (tested).
``sms=False`` gives the chat form: one fact a line, with the lines of the dues.

Why it is long: DUES at every stage of a case (in the pound, during a sale, deemed
unclaimed, settled), the deposit, and the owner's SMS, which share their sentences.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from bot.config.names import local
from bot.i18n.catalogs import Translator
from bot.i18n.common import KindMap, cattle, cattle_slot, clip, day, head_count, money, shorten
from bot.i18n.documents.account import account_summary
from bot.i18n.officers.officer import case_line
from bot.i18n.public.dues import dues_lines
from bot.i18n.public.next_step import next_step, report_steps, second_round_payment
from bot.i18n.public.sms_fit import join, same_facts, shortest_fit
from bot.i18n.stage_text import case_sentence
from domain.events import DeliveredOnDeposit
from domain.figures import figures_of
from domain.money import Money
from domain.s04_s11_dues import Dues
from domain.s14_deposit import Deposit
from domain.stages import IN_POUND_STAGES, Stage
from domain.statement import Statement, dates_of

if TYPE_CHECKING:
    from domain.case import Case

__all__ = ["auction_cancelled_sms", "auction_sms", "deposit_reply", "dues_reply", "intake_sms"]


@same_facts
def dues_reply(
    dues: Dues,
    case: Case,
    tr: Translator,
    sms: bool,
    *,
    kinds: KindMap | None = None,
    stated: Statement | None = None,
) -> str:
    """What is owed and why (s.11, s.4, s.15(2)), and what happens next and when.

    With the case's ``stated`` statement, its figures are used: the account of every
    round, and for cattle deemed unclaimed (s.15(5)) what the owner may still pay to
    take them until a head of their sale is sold, or else what the sale met and what
    the sale of the rest must meet.

    The SMS gives the total with fines and feeding (and sale expenses), what the dues
    grow by each day and the next step; on long data it drops the daily growth, then
    the place of an auction, and last the amounts (keeping the case and the next
    step), to stay within the budget. Once the cattle have left the pound nothing is
    due: the reply says, from the statement (required then), what was paid or deposited
    and when (s.12, s.14), or what the sale settled (its account, s.15(2), s.15(3)).
    """
    if case.stage not in IN_POUND_STAGES:
        if stated is None:
            raise TypeError("DUES once the cattle have left the pound reads the statement")
        return _dues_settled(stated, tr, sms)
    if stated is not None and case.deemed_unclaimed:
        return _dues_deemed_unclaimed(stated, tr, sms)
    sale = stated.sale if stated is not None else None
    if stated is not None and sale is not None and sale.provision == "s.15(1)" and sale.proceeds:
        return _dues_during_sale(stated, tr, sms)
    values: dict[str, object] = {
        "case": case.number,
        "total": money(dues.total, tr, sms),
        "date": day(dues.on, tr),
    }
    next_steps = next_step(case, dues.on, tr)
    if not sms:
        # TRANSLATORS: heading of the chat reply listing the dues of a case on a day.
        heading = tr.gettext("Case %(case)s: dues on %(date)s") % values
        # TRANSLATORS: the total of the dues listed above.
        footer = tr.gettext("Total: %(total)s") % values
        return join([heading, *dues_lines(dues, tr, kinds), footer, next_steps[0]], sms=False)
    days = dues.days_charged
    values |= {
        "fines": money(dues.fines, tr, sms),
        "feeding": money(dues.feeding, tr, sms),
        "expenses": money(dues.sale_expenses, tr, sms),
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
    daily = stated.per_day if stated is not None else dues.per_day
    more = _more_each_day(daily, tr, sms)
    candidates: list[list[str]] = []
    for step in next_steps:
        if daily:
            candidates.append([core, more, step])
        candidates.append([core, step])
    # After a sale the breakdown (with the expenses of sale) and a statutory next step
    # that has no shorter wording (s.15(4), s.16(3)) can overflow 3 UCS-2 segments on
    # long data; the next step matters more than the breakdown the account already gave.
    candidates.append([case_line(case, tr), next_steps[-1]])
    return shortest_fit(tr, candidates)


def _dues_deemed_unclaimed(stated: Statement, tr: Translator, sms: bool) -> str:
    """DUES of cattle deemed unclaimed (s.15(5)): until a head of their sale is sold the
    owner may pay what the earlier sale left unmet and take them (s.12, s.13(3)); once
    one is, the owner can pay nothing: the sale met part of the dues and the sale of the
    rest meets what is left (s.15(2))."""
    case = stated.case
    payment = second_round_payment(stated, tr, sms)
    if payment:
        # TRANSLATORS: s.15(5), s.13 — DUES after the owner refused the account: the
        # remaining cattle are deemed unclaimed and go the way of unclaimed cattle.
        head = tr.gettext(
            "Case %(case)s: deemed unclaimed (s.15(5)), to be sold as unclaimed (s.13)."
        )
        head %= {"case": case.number}
        owed, held, short = payment
        steps = next_step(case, stated.on, tr)
        return _fit(
            tr,
            sms,
            [
                [head, owed, held, steps[0]],
                [head, owed, steps[-1]],
                [head, short, steps[-1]],
                [head, short],
            ],
        )
    figures = figures_of(stated)
    values = {
        "case": case.number,
        "met": money(figures.met_from_proceeds, tr, sms),
        "unmet": money(figures.unmet, tr, sms),
        "date": day(stated.on, tr),
    }
    # TRANSLATORS: s.15(5), s.15(2) — DUES after the owner refused the account: the
    # remaining cattle are deemed unclaimed, so the owner cannot pay; the proceeds of the
    # sale met part of the dues on the date, the sale of the rest meets the remainder.
    text = tr.gettext(
        "Case %(case)s: deemed unclaimed (s.15(5)); the owner can pay nothing. The sale "
        "met %(met)s of the dues; %(unmet)s due on %(date)s is met from the sale of the "
        "rest (s.15(2))."
    )
    steps = next_step(case, stated.on, tr)
    core = text % values
    return _fit(tr, sms, [[core, steps[0]], [core, steps[-1]], [core]])


def _dues_during_sale(stated: Statement, tr: Translator, sms: bool) -> str:
    """DUES while a sale on the owner's refusal is under way (s.15(1)): what the proceeds
    so far meet of the dues and the expenses of sale (s.15(2)); once they meet them, that
    nothing is owed and the owner cannot pay instead (the sale is to be settled, s.15(3));
    until then, what remains to pay to take the rest (s.12)."""
    case, sale = stated.case, stated.sale
    assert sale is not None
    values = {
        "case": case.number,
        "proceeds": money(sale.proceeds, tr, sms),
        "met": money(sale.met, tr, sms),
        "short": money(sale.still_owed, tr, sms),
        "owed": money(sale.still_owed, tr, sms),  # what the owner pays (s.12)
        "date": day(stated.on, tr),
        "cattle": head_count(sale.heads_remaining, tr),
    }
    if not sale.still_owed:
        # TRANSLATORS: s.15(2), s.15(1), s.15(3) — DUES once the proceeds of the cattle
        # sold on the owner's refusal meet the dues and the expenses of sale: nothing is
        # owed, the owner cannot pay instead; the sale is settled with the account.
        text = tr.gettext(
            "Case %(case)s: the proceeds of the sale, %(proceeds)s, meet the dues and the "
            "expenses of sale, %(met)s (s.15(2)). Nothing is owed, and the owner cannot pay "
            "instead: the sale is to be settled, with the account (s.15(3))."
        )
        return _fit(tr, sms, [[text % values]])
    if not sale.heads_remaining:
        # TRANSLATORS: s.15(2) — DUES when every head was sold on the owner's refusal and
        # the proceeds did not meet all the dues: what they met, what they did not.
        text = tr.gettext(
            "Case %(case)s: every head is sold; the proceeds, %(proceeds)s, meet %(met)s of "
            "the dues and the expenses of sale, and %(short)s is not met (s.15(2))."
        )
        return _fit(tr, sms, [[text % values]])
    # TRANSLATORS: s.15(2), s.12 — DUES while the sale on the owner's refusal is under way
    # and the proceeds so far do not meet the dues and the expenses of sale: what they
    # met, and what the owner pays on the date to take the cattle not sold.
    text = tr.gettext(
        "Case %(case)s: the proceeds of the sale so far, %(proceeds)s, met %(met)s of the "
        "dues and the expenses of sale (s.15(2)). Pay %(owed)s on %(date)s to take the "
        "remaining %(cattle)s (s.12)."
    )
    core = text % values
    more = _more_each_day(stated.per_day, tr, sms) if stated.per_day else ""
    steps = next_step(case, stated.on, tr)
    return _fit(tr, sms, [[core, more, steps[0]], [core, more, steps[-1]], [core, more], [core]])


def _dues_settled(stated: Statement, tr: Translator, sms: bool) -> str:
    """DUES once the cattle have left the pound: what was paid, deposited or settled."""
    case, account, recorded = stated.case, stated.account, stated.recorded
    steps = next_step(case, stated.dues.on, tr)
    paid, deposited, closed = recorded.payment, recorded.deposit, recorded.sale_closed
    if paid is not None:
        # TRANSLATORS: s.12 — DUES after release: what the owner paid and when.
        text = tr.gettext(
            "Case %(case)s: %(amount)s paid on %(date)s and the cattle released (s.12). "
            "Nothing is due."
        )
        head = text % {
            "case": case.number,
            "amount": money(paid.paid, tr, sms),
            "date": day(paid.on, tr),
        }
        return join([head], sms)
    if deposited is not None:
        # TRANSLATORS: s.14 — DUES after a deposit under protest: what was deposited and
        # when; the cattle were delivered.
        text = tr.gettext(
            "Case %(case)s: %(amount)s deposited on %(date)s and the cattle delivered "
            "(s.14). Nothing is due."
        )
        values = {
            "case": case.number,
            "amount": money(deposited.deposited, tr, sms),
            "date": day(deposited.on, tr),
        }
        # Once the deposit's outcome is recorded, the next step says the case is closed.
        after = steps[0] if case.stage is Stage.CLOSED else ""
        return _fit(tr, sms, [[text % values, after], [text % values]])
    if closed is not None:
        # TRANSLATORS: s.15(2) — DUES after the sale: the dues came out of the proceeds.
        text = tr.gettext(
            "Case %(case)s: the dues were settled from the proceeds of the sale on "
            "%(date)s (s.15(2))."
        )
        head = text % {"case": case.number, "date": day(closed.on, tr)}
        summary = account_summary(account, tr, sms) if account is not None else ""
        return _fit(
            tr,
            sms,
            [
                [head, summary, steps[0]],
                [head, summary, steps[-1]],
                [head, steps[-1]],
                [case_line(case, tr), steps[-1]],
            ],
        )
    return join([case_line(case, tr), steps[0]], sms)


def _fit(tr: Translator, sms: bool, candidates: list[list[str]]) -> str:
    """The fullest candidate in a chat; in an SMS the fullest that fits the budget."""
    return shortest_fit(tr, candidates) if sms else join(candidates[0], sms=False)


def _more_each_day(daily: Money, tr: Translator, sms: bool) -> str:
    # TRANSLATORS: s.4 — SMS: the dues grow by this much each further day.
    return tr.gettext("%(amount)s more each day.") % {"amount": money(daily, tr, sms)}


@same_facts
def deposit_reply(
    deposit: Deposit, case: Case, tr: Translator, sms: bool, *, kinds: KindMap | None = None
) -> str:
    """The s.14 deposit that delivers the cattle to an owner disputing the seizure, and
    the s.19 last day to complain; or, once that day is past, that it is too late; or,
    once the cattle have left the pound, a head is sold or the account was refused, why
    no deposit is possible now (offered only while s.14 allows one)."""
    dues = deposit.dues
    # As the Act allows it on the day, or on the s.19 last day when that is past (the
    # reply then says the time to complain ended).
    if not case.lawful_today(DeliveredOnDeposit, min(dues.on, deposit.complaint_by)):
        return _no_deposit(deposit, case, tr, sms)
    values = {
        "case": case.number,
        "amount": money(deposit.amount, tr, sms),
        "date": day(dues.on, tr),
        "complain_by": day(deposit.complaint_by, tr),
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
        return join([offer % values, complain % values], sms=True)
    return join([offer % values, *dues_lines(dues, tr, kinds), complain % values], sms=False)


def _no_deposit(deposit: Deposit, case: Case, tr: Translator, sms: bool) -> str:
    """DEPOSIT when s.14 no longer allows one: where the case stands, since when."""
    # TRANSLATORS: s.14 — a deposit under protest is not possible at this stage; the
    # sentence after it says why.
    text = tr.gettext("Case %(case)s: no deposit is possible now (s.14).")
    parts = [text % {"case": case.number}, case_sentence(case, tr)]
    if case.stage is Stage.ON_DEPOSIT:
        complain_by = {"complain_by": day(deposit.complaint_by, tr)}
        if deposit.complaint_by < deposit.dues.on:
            # TRANSLATORS: s.19 — the last day to complain of the seizure is past.
            parts.append(
                tr.gettext("The time to complain ended on %(complain_by)s (s.19).") % complain_by
            )
        else:
            parts.append(tr.gettext("Last day to complain: %(complain_by)s (s.19).") % complain_by)
    return _fit(tr, sms, [parts, parts[:2]])


@same_facts
def intake_sms(case: Case, dues: Dues, daily_charge: Money, pound_name: str, tr: Translator) -> str:
    """The SMS to an owner whose number is known, on impounding: what was impounded and
    where, the dues today and per day (s.11, s.4), how to claim (pay, s.12; or deposit
    while disputing, s.14) and the s.13(1) report date."""
    seizure = case.seizure
    full = {
        "case": case.number,
        "cattle": cattle_slot(seizure.lots, tr),
        "pound": shorten(local(pound_name, tr.lang)),
        "date": day(seizure.impounded_on, tr),
        "total": money(dues.total, tr, sms=True),
    }
    short = full | {"cattle": head_count(seizure.head_count, tr)}
    # TRANSLATORS: s.7 — SMS to the owner: what was impounded, in which pound, when.
    impounded = tr.gettext("Case %(case)s: %(cattle)s impounded at %(pound)s on %(date)s.")
    # TRANSLATORS: s.11, s.4 — SMS to the owner: the fines and charges due today.
    due = tr.gettext("Due today %(total)s.")
    # TRANSLATORS: s.12, s.14 — SMS to the owner: how to take the cattle back; to
    # dispute the seizure, the same amount is deposited instead of paid.
    claim = tr.gettext(
        "Pay at the pound to take them back (s.12); to dispute the seizure, deposit it "
        "instead (s.14)."
    )
    # TRANSLATORS: s.12, s.14 — the same, as briefly as possible.
    claim_short = tr.gettext("Pay (s.12) or deposit (s.14) at the pound.")
    more = _more_each_day(daily_charge, tr, sms=True) if daily_charge else ""
    report = report_steps(dates_of(case), dues.on, tr)
    return shortest_fit(
        tr,
        [
            [impounded % full, due % full, more, claim, report[0]],
            [impounded % full, due % full, claim_short, report[-1]],
            [impounded % short, due % short, more, claim_short, report[-1]],
            [impounded % short, due % short, claim_short, report[-1]],
            [impounded % short, due % short, claim_short],
        ],
    )


def intake_values(case: Case, dues: Dues, pound_name: str, tr: Translator) -> tuple[str, ...]:
    """The values of the ``owner_impounded`` WhatsApp template (``bot.adapters.whatsapp_route``):
    case,
    cattle, pound, date impounded, dues today (s.7, s.11, s.4)."""
    seizure = case.seizure
    return (
        case.number,
        cattle(seizure.lots, tr),
        clip(local(pound_name, tr.lang), 80),
        day(seizure.impounded_on, tr),
        money(dues.total, tr, sms=True),
    )


def auction_values(
    case_number: str, auction_on: date, place: str, tr: Translator
) -> tuple[str, ...]:
    """The values of the ``owner_auction`` WhatsApp template: case, day and place of the
    public auction (s.13(3), s.15(1))."""
    return case_number, day(auction_on, tr), clip(local(place, tr.lang), 80)


@same_facts
def auction_cancelled_sms(case_number: str, auction_on: date, tr: Translator) -> str:
    """The SMS to the owner when a correction of what the notice stated cancelled the
    auction fixed on it: a new notice comes first (s.13(2), s.13(3))."""
    values = {"case": case_number, "date": day(auction_on, tr)}
    # TRANSLATORS: s.13(2), s.13(3) — SMS to the owner: the public auction fixed for a day
    # is cancelled because the notice was corrected; a new notice is posted first and the
    # auction cannot be held until seven days after it.
    text = tr.gettext(
        "Case %(case)s: the auction of the impounded cattle fixed for %(date)s is "
        "cancelled. The notice is corrected and posted again; the auction can be held "
        "only seven days after it (s.13(2), s.13(3))."
    )
    return text % values


@same_facts
def auction_sms(case_number: str, auction_on: date, place: str, tr: Translator) -> str:
    """The SMS to the owner when the public auction is fixed (s.13(3), s.15(1))."""
    place = shorten(local(place, tr.lang))
    values = {"case": case_number, "date": day(auction_on, tr), "place": place}
    # TRANSLATORS: s.13(3), s.15(1) — SMS to the owner: the day and place of the public
    # auction of the impounded cattle.
    fixed = tr.gettext(
        "Case %(case)s: the impounded cattle will be sold by public auction on %(date)s at "
        "%(place)s."
    )
    # TRANSLATORS: s.15(2) — SMS to the owner: the dues are deducted from the proceeds of
    # the sale; what is left over belongs to the owner, who can claim it.
    before = tr.gettext(
        "The dues are deducted from the proceeds and the owner can claim the balance (s.15(2))."
    )
    return shortest_fit(
        tr,
        [
            [fixed % values, before],
            [fixed % values],
        ],
    )
