"""What the officer is told during and after the sale: each lot (s.13(3), s.15(1)),
other disposal (s.13(3) proviso), and where every paisa went (s.15(2), s.16)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n.catalogs import Translator
from bot.i18n.common import (
    head_count,
    holder,
    keyword,
    kind_count,
    money,
    ordered_by,
    sms_name,
    to_office,
)
from bot.i18n.dlt_probe import in_sms, leaf
from bot.i18n.documents.account import (
    account_summary,
    account_text,
    account_time,
    disbursement_line,
)
from bot.i18n.officers.officer import case_line
from bot.i18n.public.sms_fit import in_parts, join
from bot.i18n.sms_keyword import or_form, to_send
from domain.case import Case
from domain.events import LotOffered
from domain.money import Money
from domain.s15_3_account import Account
from domain.s15_sale import Payee, SaleProgress, Settlement

if TYPE_CHECKING:
    from bot.config.model import ProvisoOffice
    from domain.statement import Statement

__all__ = ["lot_recorded", "other_disposal_recorded", "sale_short", "settled_reply"]


def _settle_command(case: Case, tr: Translator) -> str:
    """``SETTLE KNM-17 <expenses>`` in the language of ``tr``."""
    # (A gettext call inside an f-string is not extracted by pybabel: keep it outside.)
    # TRANSLATORS: s.15(2) — what follows SETTLE and a case: the expenses of sale in
    # rupees. Keep the brackets.
    expenses = tr.gettext("<expenses>")
    # The case number is data (a slot) though code joins it in.
    line = f"{keyword('settle', tr.lang)} {leaf(tr, case.number, 'case')} {expenses}"
    return to_send(tr, line, form="settle")


def _progress(case: Case, progress: SaleProgress, tr: Translator) -> list[str]:
    values = {
        "proceeds": money(progress.proceeds, tr),
        "owed": money(progress.still_owed, tr),
        "heads": head_count(progress.heads_remaining, tr),
        "command": _settle_command(case, tr),
    }
    # TRANSLATORS: s.15(1), s.15(2) — after a lot: the proceeds so far, what the dues
    # (with the expected expenses of sale) still need, and the heads not yet sold.
    so_far = tr.gettext("Proceeds so far %(proceeds)s; still owed %(owed)s; %(heads)s remaining.")
    if progress.provision == "s.15(1)":
        if not progress.stop:
            # TRANSLATORS: s.15(1) — go on selling, but only as many as are needed.
            go = tr.gettext(
                "Go on: sell only as many as are needed to meet what is owed (s.15(1))."
            )
        elif progress.still_owed:
            # TRANSLATORS: s.15(1), s.15(2) — every head sold, the dues not all met.
            go = tr.gettext("No cattle remain to sell. Settle the sale: %(command)s (s.15(2)).")
        else:
            # TRANSLATORS: s.15(1), s.15(3) — the dues are met: stop; the rest go back.
            go = tr.gettext(
                "The dues are met: stop selling; the remaining cattle go back to the owner "
                "(s.15(1), s.15(3)). Settle the sale: %(command)s."
            )
    elif progress.stop:
        # TRANSLATORS: s.13(3) — every unclaimed head is sold or disposed of.
        go = tr.gettext(
            "All the cattle are sold or disposed of (s.13(3)). Settle the sale: %(command)s."
        )
    else:
        # TRANSLATORS: s.13(3) — unclaimed cattle are all sold: go on.
        go = tr.gettext("Go on: unclaimed cattle are all sold (s.13(3)).")
    return [so_far % values, go % values]


def _buyer(event: LotOffered) -> str:
    """The buyer's name and residence, as recorded (s.18)."""
    if event.buyer is None:
        return ""
    return ", ".join(p for p in (event.buyer.name, event.buyer.residence) if p)


def lot_recorded(stated: Statement, progress: SaleProgress, tr: Translator) -> str:
    """After each lot: what was sold to whom, the proceeds so far, what is still owed,
    the heads remaining, and whether to stop (s.15(1)) or go on (s.13(3))."""
    case, event = stated.case, stated.recorded.lot_offered
    lines = [case_line(case, tr)]
    if event is not None:
        kind = case.seizure.lots[event.lot].kind
        values = {
            "lot": event.lot + 1,
            "cattle": kind_count(kind, event.count, tr),
            "price": money(event.price, tr) if event.price is not None else "",
            "buyer": sms_name(_buyer(event)),
        }
        if event.sold:
            # TRANSLATORS: s.13(3), s.18 — heads of a lot sold: price and buyer.
            text = tr.gettext("Lot %(lot)d: %(cattle)s sold for %(price)s to %(buyer)s.")
        else:
            # TRANSLATORS: s.13(3) — heads of a lot offered and not sold.
            text = tr.gettext("Lot %(lot)d: %(cattle)s offered and not sold.")
        lines.append(text % values)
    # By SMS the lot, the proceeds so far and what to do next are each an SMS (a fixed
    # template each, whichever way the sale goes).
    return in_parts([join(lines, sms=False), *_progress(case, progress, tr)])


def other_disposal_recorded(
    stated: Statement, tr: Translator, offices: Sequence[ProvisoOffice] = ()
) -> str:
    """Heads disposed of otherwise by the Director's order (s.13(3) proviso); the office
    that ordered it by its short form in an SMS, its full name elsewhere (``offices``,
    the configured)."""
    case, event = stated.case, stated.recorded.disposal
    lines = [case_line(case, tr)]
    if event is not None:
        values = {
            "lot": event.lot + 1,
            "cattle": kind_count(case.seizure.lots[event.lot].kind, event.count, tr),
            "manner": sms_name(event.manner),
            "by": ordered_by(event.ordered_by, offices, tr),
            "ref": sms_name(event.order_reference),
            "amount": money(event.proceeds, tr),
        }
        # TRANSLATORS: s.13(3) proviso — the Director, of the opinion that the cattle
        # would not fetch a fair price, ordered another manner of disposal.
        text = tr.gettext(
            "Lot %(lot)d: %(cattle)s disposed of otherwise (%(manner)s) by order of %(by)s, "
            "ref. %(ref)s; proceeds %(amount)s (s.13(3) proviso)."
        )
        lines = [join([*lines, text % values], sms=False)]
    left = {"heads": head_count(case.heads_remaining, tr), "command": _settle_command(case, tr)}
    if case.heads_remaining:
        # TRANSLATORS: s.13(3) — heads still to be sold or disposed of.
        lines.append(tr.gettext("%(heads)s remaining to be sold (s.13(3)).") % left)
    else:
        # TRANSLATORS: s.13(3) — every head is sold or disposed of.
        done = tr.gettext(
            "All the cattle are sold or disposed of (s.13(3)). Settle the sale: %(command)s."
        )
        lines.append(done % left)
    return in_parts(lines)  # by SMS: the disposal, then what remains, each an SMS


def sale_short(case: Case, expenses: Money, short: Money, tr: Translator) -> str:
    """Not settled: with the actual expenses the proceeds fall short of the dues while
    heads remain; they are recorded, and one more head may be sold, or the owner pays
    the rest (s.15(1), s.15(2), s.12)."""
    values = {
        "expenses": money(expenses, tr),
        "proceeds": money(case.proceeds, tr),
        "short": money(short, tr),
        "heads": head_count(case.heads_remaining, tr),
        "sold": or_form(tr, keyword("sold", tr.lang), "sold"),
        "command": to_send(
            tr,
            f"{keyword('settle', tr.lang)} {case.number} {rupees_figure(expenses)}",
            data=True,
            form="settle",
        ),
    }
    # TRANSLATORS: s.15(1), s.15(2) — SETTLE with expenses higher than expected: the
    # proceeds no longer meet the dues, and cattle remain.
    short_of = tr.gettext(
        "Not settled: with expenses of %(expenses)s, the proceeds of %(proceeds)s fall "
        "short of the dues by %(short)s, and %(heads)s remain."
    )
    # TRANSLATORS: s.15(1), s.15(2), s.12 — after "Not settled": what the officer may do.
    # %(sold)s is the SOLD word, %(command)s the SETTLE line to send once enough is sold.
    then = tr.gettext(
        "One more head may be sold at the auction (%(sold)s), then settle with "
        "%(command)s; or the owner pays what remains and takes the rest (s.15(1), s.15(2))."
    )
    first = join([case_line(case, tr), short_of % values], sms=False)
    return in_parts([first, then % values])  # by SMS: two SMS


def rupees_figure(amount: Money) -> str:
    """An amount as typed in a command: ``1500`` or ``1500.50``."""
    rupees, paise = divmod(amount.paise, 100)
    return f"{rupees}.{paise:02d}" if paise else str(rupees)


def settled_reply(settlement: Settlement, account: Account, tr: Translator) -> str:
    """Where every paisa of the proceeds went (s.15(2), s.16(1), s.16(2), and the
    balance under s.15(3) or s.16(3)), then the s.15(3) account (by SMS, its summary)."""
    values = {
        "case": account.case_number,
        "proceeds": money(settlement.proceeds, tr),
        "unmet": money(settlement.unmet, tr),
    }
    # TRANSLATORS: s.15(2) — the sale is closed and its proceeds divided as follows.
    lines = [tr.gettext("Case %(case)s: sale settled; proceeds %(proceeds)s (s.15(2)):") % values]
    bullet = "" if in_sms() else "  - "  # by SMS each part of the proceeds an SMS
    lines += [bullet + disbursement_line(part, tr) for part in settlement.disbursements]
    if settlement.unmet:
        # TRANSLATORS: s.15(2) — dues the proceeds did not cover.
        lines.append(tr.gettext("Not met by the proceeds: %(unmet)s (s.15(2)).") % values)
    if settlement.to(Payee.OWNER) or account.cattle_remaining:
        # TRANSLATORS: s.15(3), s.15(4) — deliver cattle and balance with the account.
        deliver = tr.gettext(
            "Deliver the remaining cattle and the balance to the owner with the account "
            "below, and take a receipt (s.15(3), s.15(4))."
        )
        lines.append(deliver)
    if settlement.to(Payee.DEPOSIT):
        # TRANSLATORS: s.16(3) — the surplus unclaimed proceeds go to the office that
        # holds them in deposit for the months of the Act (%(months)d: three under the
        # Kerala Act); %(to_office)s is that office, as "to the local authority" is
        # translated.
        send = tr.ngettext(
            "Send the surplus %(to_office)s to hold in deposit for %(months)d month (s.16(3)).",
            "Send the surplus %(to_office)s to hold in deposit for %(months)d months (s.16(3)).",
            tr.act.surplus_months,
        )
        held = {"to_office": to_office(holder(tr), tr), "months": tr.act.surplus_months}
        lines.append(send % held)
    if in_sms():  # by SMS the account in one sentence (the full account is a document)
        # Each sentence an SMS: one template for each, whichever payees the sale has.
        summary = account_summary(account, tr, sms=True)
        return in_parts([*lines, summary, account_time(account, tr)])
    return join(lines, sms=False) + "\n\n" + account_text(account, tr)
