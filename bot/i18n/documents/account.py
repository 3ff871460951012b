"""The s.15(3) account of a sale, items (a) to (f); where the proceeds went (s.15(2),
s.16); and the s.15(4) receipt the owner signs.

The clause letters (a) to (f) stay as the Act labels them, in every language, so an
account can be read against the Act.
"""

from __future__ import annotations

from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import KindMap, day, head_count, holder, money, office_title, to_office
from bot.i18n.public.dues import dues_lines
from bot.i18n.public.sms_fit import in_parts, join, same_facts, shortest_fit
from domain.profiles import Office, Power
from domain.s15_3_account import Account, Left, Receipt, Stay
from domain.s15_sale import Disbursement, Payee

__all__ = [
    "account_sms",
    "account_summary",
    "account_text",
    "account_time",
    "collect_line",
    "disbursement_line",
    "receipt_text",
]

_INDENT: Final = "  - "
_SIGNATURE_LINE: Final = "______________________________"


def disbursement_line(part: Disbursement, tr: Translator, sms: bool = False) -> str:
    """Where one part of the proceeds went, with its provision."""
    values = {"amount": money(part.amount, tr, sms)}
    if part.payee is Payee.SALE_EXPENSES:
        # TRANSLATORS: s.15(2) — the part of the proceeds that met the expenses of sale.
        return tr.gettext("Expenses of sale met (s.15(2)): %(amount)s") % values
    if part.payee is Payee.LOCAL_AUTHORITY:
        # TRANSLATORS: s.16(1) — the fines deducted from the proceeds, which the officer
        # who made the sale sends to the local authority (the District Magistrate under
        # the Cattle-trespass Act, 1871); %(to_office)s is that office, as "to the local
        # authority" is translated.
        text = tr.gettext("Fines, sent %(to_office)s (s.16(1)): %(amount)s")
        return text % (values | {"to_office": to_office(_fines_office(tr), tr)})
    if part.payee is Payee.POUND_KEEPER:
        # TRANSLATORS: s.16(2) — the feeding and watering charges deducted from the
        # proceeds, paid over to the pound-keeper.
        text = tr.gettext("Feeding and watering, paid to the pound-keeper (s.16(2)): %(amount)s")
        return text % values
    if part.payee is Payee.OWNER:
        # TRANSLATORS: s.15(3) — the balance of the proceeds, delivered to the owner.
        return tr.gettext("Balance, delivered to the owner (s.15(3)): %(amount)s") % values
    # TRANSLATORS: s.16(3) — the surplus unclaimed proceeds, sent to the local authority
    # (the District Magistrate under the Cattle-trespass Act, 1871), which holds them in
    # deposit; %(office)s is that office, as "the local authority" is translated.
    text = tr.gettext("Surplus, held in deposit by %(office)s (s.16(3)): %(amount)s")
    return text % (values | {"office": office_title(holder(tr), tr)})


def _fines_office(tr: Translator) -> Office:
    """The office the fines are sent to under the translator's Act (s.16(1))."""
    return tr.act.office_for(Power.RECEIVE_FINES)


def _stay_line(stay: Stay, tr: Translator) -> str:
    """One lot's time impounded (s.15(3)(b)): how many heads, how and when they left."""
    values = {"cattle": head_count(stay.heads, tr), "until": day(stay.until, tr), "days": stay.days}
    if stay.left is Left.SOLD:
        # TRANSLATORS: s.15(3)(b) — heads of one lot, sold at the auction on a day, and
        # their days in the pound, the first and the last both counted.
        text = tr.ngettext(
            "%(cattle)s sold on %(until)s: %(days)d day",
            "%(cattle)s sold on %(until)s: %(days)d days",
            stay.days,
        )
    elif stay.left is Left.DISPOSED:
        # TRANSLATORS: s.15(3)(b), s.13(3) proviso — heads disposed of otherwise by order
        # on a day, and their days in the pound.
        text = tr.ngettext(
            "%(cattle)s disposed of otherwise on %(until)s: %(days)d day",
            "%(cattle)s disposed of otherwise on %(until)s: %(days)d days",
            stay.days,
        )
    elif stay.left is Left.DELIVERED:
        # TRANSLATORS: s.15(3)(b), s.15(3) — heads delivered to the owner on a day, and
        # their days in the pound.
        text = tr.ngettext(
            "%(cattle)s delivered to the owner on %(until)s: %(days)d day",
            "%(cattle)s delivered to the owner on %(until)s: %(days)d days",
            stay.days,
        )
    else:
        # TRANSLATORS: s.15(3)(b), s.15(5) — heads still in the pound on the day of the
        # account (the owner refused them), and their days in the pound to that day.
        text = tr.ngettext(
            "%(cattle)s still in the pound on %(until)s: %(days)d day",
            "%(cattle)s still in the pound on %(until)s: %(days)d days",
            stay.days,
        )
    return text % values


def _impounded_lines(account: Account, tr: Translator) -> list[str]:
    """Item (b): one line when every head left the pound the same day; else a line for
    each lot that left, with its own days (s.15(3)(b))."""
    values = {
        "from": day(account.impounded_from, tr),
        "until": day(account.impounded_until, tr),
        "days": account.days_impounded,
    }
    if account.left_together:
        # TRANSLATORS: s.15(3)(b) — the time during which the cattle were impounded, the
        # first and the last day both counted. Keep "(b)".
        text = tr.ngettext(
            "(b) Time impounded: %(from)s to %(until)s, %(days)d day",
            "(b) Time impounded: %(from)s to %(until)s, %(days)d days",
            account.days_impounded,
        )
        return [text % values]
    # TRANSLATORS: s.15(3)(b) — the heads left the pound on different days: the lines
    # that follow give each lot's days, counted from the day brought in. Keep "(b)".
    heading = tr.gettext("(b) Time impounded, from %(from)s:") % values
    return [heading, *(_INDENT + _stay_line(stay, tr) for stay in account.stays)]


def account_time(account: Account, tr: Translator) -> str:
    """Item (b) in one sentence: the days in the pound to the day the last head left;
    from the first lot's to the last's when they left on different days."""
    values = {"days": account.days_impounded, "least": min(s.days for s in account.stays)}
    if account.left_together:
        # TRANSLATORS: s.15(3)(b) — the days the cattle were impounded, the first and
        # the last day both counted.
        text = tr.ngettext(
            "Time impounded: %(days)d day (s.15(3)(b)).",
            "Time impounded: %(days)d days (s.15(3)(b)).",
            account.days_impounded,
        )
    else:
        # TRANSLATORS: s.15(3)(b) — the heads left the pound on different days: the
        # fewest days of a lot, then the most (that of the last head to leave).
        text = tr.gettext("Time impounded: %(least)d to %(days)d days (s.15(3)(b)).")
    return text % values


def account_text(account: Account, tr: Translator, kinds: KindMap | None = None) -> str:
    """The full s.15(3) account delivered to the owner, items (a) to (f)."""
    values: dict[str, object] = {
        "case": account.case_number,
        "seized": account.cattle_seized,
        "sold": account.cattle_sold,
        "disposed": account.cattle_disposed,
        "charges": money(account.fines_and_charges, tr),
        "proceeds": money(account.proceeds, tr),
    }
    # TRANSLATORS: s.15(3) — heading of the account delivered to the owner with the
    # remaining cattle and the balance of the proceeds of sale.
    heading = tr.gettext("Account of case %(case)s (s.15(3))") % values
    # TRANSLATORS: s.15(3)(a) — keep the clause letter "(a)" as the Act labels it.
    seized = tr.gettext("(a) Number of cattle seized: %(seized)d") % values
    # TRANSLATORS: s.15(3)(c) — the amount of fines and charges incurred. Keep "(c)".
    charges = tr.gettext("(c) Fines and charges incurred: %(charges)s") % values
    # TRANSLATORS: s.15(3)(d) — keep "(d)".
    sold = tr.gettext("(d) Number of cattle sold: %(sold)d") % values
    # TRANSLATORS: s.13(3) proviso — after item (d): the heads not sold but disposed of
    # otherwise by order of the office the case's Act gives that power (the Director, the
    # local authority, the District Magistrate), counted apart from those sold.
    disposed = tr.gettext(
        "Disposed of otherwise by order, not sold (s.13(3) proviso): %(disposed)d"
    )
    # TRANSLATORS: s.15(3)(e) — keep "(e)".
    proceeds = tr.gettext("(e) Proceeds of sale: %(proceeds)s") % values
    # TRANSLATORS: s.15(3)(f) — the manner in which the proceeds were disposed of;
    # the lines that follow say to whom. Keep "(f)".
    disposal = tr.gettext("(f) How the proceeds were disposed of:")
    lines = [
        heading,
        seized,
        *_impounded_lines(account, tr),
        charges,
        *(_INDENT + line for line in dues_lines(account.dues, tr, kinds)),
        sold,
        *([disposed % values] if account.cattle_disposed else []),
        proceeds,
        disposal,
        *(_INDENT + disbursement_line(part, tr) for part in account.disposal),
    ]
    if not account.disposal:
        # TRANSLATORS: s.15(3)(f) — there were no proceeds to dispose of.
        lines.append(_INDENT + tr.gettext("No proceeds."))
    if account.paid:
        # TRANSLATORS: s.12, s.15(1) — after item (f): the proceeds did not meet all the
        # dues; the owner paid the rest to take the cattle not sold.
        rest = tr.gettext("Paid by the owner, the dues the proceeds did not meet (s.12): %(paid)s")
        lines.append(rest % {"paid": money(account.paid, tr)})
    if any(part.payee is Payee.DEPOSIT for part in account.disposal):
        # TRANSLATORS: s.16(3) — unclaimed cattle were sold: the balance is not delivered
        # to anyone but kept in deposit by the local authority (the District Magistrate
        # under the Cattle-trespass Act, 1871); %(office)s: as "the local authority".
        held = tr.gettext("Held in deposit by %(office)s: %(balance)s (s.16(3)).")
        balance = money(account.balance, tr)
        lines.append(held % {"balance": balance, "office": office_title(holder(tr), tr)})
        return join(lines, sms=False)
    # TRANSLATORS: s.15(3) — what is delivered to the owner with this account.
    delivered = tr.gettext("Delivered with this account: %(cattle)s and %(balance)s.")
    lines.append(
        delivered
        % {
            "cattle": head_count(account.cattle_remaining, tr),
            "balance": money(account.balance, tr),
        }
    )
    return join(lines, sms=False)


def collect_line(account: Account, tr: Translator, sms: bool) -> str:
    """What the owner collects at the pound with the account (s.15(3), s.15(4)); for
    unclaimed cattle sold, where the balance is held instead (s.16(3))."""
    values: dict[str, object] = {
        "cattle": head_count(account.cattle_remaining, tr),
        "balance": money(account.balance, tr, sms),
        "paid": money(account.paid, tr, sms),
    }
    if account.paid:
        # TRANSLATORS: s.12, s.15(3), s.15(4) — the proceeds did not meet all the dues:
        # the owner paid the rest and took the cattle not sold, giving a receipt.
        text = tr.gettext(
            "The owner paid the rest of the dues, %(paid)s, and took %(cattle)s (s.12, s.15(4))."
        )
    elif any(part.payee is Payee.DEPOSIT for part in account.disposal):
        # TRANSLATORS: s.16(3) — unclaimed cattle were sold: the balance is not at the
        # pound but held in deposit by the local authority (the District Magistrate under
        # the Cattle-trespass Act, 1871; %(office)s: as "the local authority"), and can
        # be claimed there within the months of the Act (%(months)d: three in Kerala).
        text = tr.ngettext(
            "The balance of %(balance)s is held in deposit by %(office)s; claim "
            "it there within %(months)d month (s.16(3)).",
            "The balance of %(balance)s is held in deposit by %(office)s; claim "
            "it there within %(months)d months (s.16(3)).",
            tr.act.surplus_months,
        )
        values |= {"office": office_title(holder(tr), tr), "months": tr.act.surplus_months}
    elif account.cattle_remaining and account.balance:
        # TRANSLATORS: s.15(3), s.15(4) — the owner collects the remaining cattle and the
        # balance at the pound, with the account, and gives a receipt.
        text = tr.gettext(
            "Collect %(cattle)s and %(balance)s at the pound; give a receipt (s.15(4))."
        )
    elif account.cattle_remaining:
        # TRANSLATORS: s.15(3), s.15(4) — only cattle remain to be collected.
        text = tr.gettext("Collect %(cattle)s at the pound; give a receipt (s.15(4)).")
    elif account.balance:
        # TRANSLATORS: s.15(3), s.15(4) — only the balance remains to be collected.
        text = tr.gettext("Collect %(balance)s at the pound; give a receipt (s.15(4)).")
    else:
        # TRANSLATORS: s.15(3) — every head was sold and the proceeds met only the dues.
        text = tr.gettext("Nothing is left to collect (s.15(3)).")
    return text % values


def account_summary(account: Account, tr: Translator, sms: bool) -> str:
    """The account in one or two sentences: sold, proceeds, deductions, balance."""
    values = {
        "case": account.case_number,
        "sold": account.cattle_sold,
        "disposed": account.cattle_disposed,
        "seized": account.cattle_seized,
        "proceeds": money(account.proceeds, tr, sms),
        "deducted": money(account.proceeds - account.balance, tr, sms),
        "balance": money(account.balance, tr, sms),
    }
    if account.cattle_disposed:
        # TRANSLATORS: s.15(3), s.13(3) proviso, s.15(2) — the account in one sentence:
        # of the heads seized, how many were sold and how many disposed of otherwise by
        # order (counted apart), the proceeds of both, what was deducted for fines and
        # charges, the balance.
        text = tr.ngettext(
            "Account (s.15(3)): of %(seized)d head, %(sold)d sold and %(disposed)d disposed "
            "of otherwise (s.13(3) proviso), for %(proceeds)s; %(deducted)s deducted for "
            "fines and charges (s.15(2)); balance %(balance)s.",
            "Account (s.15(3)): of %(seized)d head, %(sold)d sold and %(disposed)d disposed "
            "of otherwise (s.13(3) proviso), for %(proceeds)s; %(deducted)s deducted for "
            "fines and charges (s.15(2)); balance %(balance)s.",
            account.cattle_seized,
        )
        return text % values
    # TRANSLATORS: s.15(3), s.15(2) — the account in one sentence: heads sold out of
    # heads seized, the proceeds, what was deducted for fines and charges, the balance.
    text = tr.ngettext(
        "Account (s.15(3)): %(sold)d of %(seized)d head sold for %(proceeds)s; "
        "%(deducted)s deducted for fines and charges (s.15(2)); balance %(balance)s.",
        "Account (s.15(3)): %(sold)d of %(seized)d head sold for %(proceeds)s; "
        "%(deducted)s deducted for fines and charges (s.15(2)); balance %(balance)s.",
        account.cattle_seized,
    )
    return text % values


@same_facts
def account_sms(account: Account, tr: Translator) -> str:
    """The s.15(3) account in an SMS to the owner: sold, proceeds, deductions, balance,
    the time impounded, and what to collect where."""
    # TRANSLATORS: SMS — the case the account below is of.
    case = tr.gettext("Case %(case)s.") % {"case": account.case_number}
    summary = account_summary(account, tr, sms=True)
    time = account_time(account, tr)
    collect = collect_line(account, tr, True)
    return shortest_fit(
        tr,
        [
            [case, summary, time, collect],
            [case, summary, collect],
            [case, summary, time],
            [case, summary],
        ],
    )


def receipt_text(receipt: Receipt, tr: Translator) -> str:
    """The s.15(4) receipt the owner (or agent) signs for the cattle and the balance."""
    values = {
        "case": receipt.case_number,
        "name": receipt.received_by,
        "cattle": head_count(receipt.cattle_received, tr),
        "balance": money(receipt.balance_received, tr),
        "date": day(receipt.on, tr),
    }
    # TRANSLATORS: s.15(4) — heading of the receipt the owner or agent gives.
    heading = tr.gettext("Receipt (s.15(4)), case %(case)s") % values
    # TRANSLATORS: s.15(4), s.15(3) — the receipt itself, in the first person of the
    # owner or agent who signs it.
    body = tr.gettext(
        "I, %(name)s, the owner of the cattle of case %(case)s or the owner's agent, have "
        "received, according to the account delivered to me under s.15(3):"
    )
    # TRANSLATORS: s.15(4) — the cattle delivered (a count of head of cattle).
    cattle_line = tr.gettext("the remaining cattle: %(cattle)s;")
    # TRANSLATORS: s.15(4) — the balance of the proceeds of sale paid.
    balance_line = tr.gettext("the balance of the proceeds of sale: %(balance)s.")
    # TRANSLATORS: s.15(4) — where the date and the signature go.
    signed = tr.gettext("Date: %(date)s")
    # TRANSLATORS: s.15(4) — the line the owner or agent signs on.
    signature = tr.gettext("Signature of the owner or agent:")
    lines = [
        join([heading % values, body % values], sms=False),
        join([_INDENT + cattle_line % values, _INDENT + balance_line % values], sms=False),
        join([signed % values, f"{signature} {_SIGNATURE_LINE}"], sms=False),
    ]
    return in_parts(lines)  # by SMS three SMS, each within the staff budget
