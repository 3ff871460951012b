"""What the officer is told about money held after a sale or a deposit: the owner's
refusal of the account (s.15(5)), the three months in deposit (s.16(3)), the credit to
the fund (s.17(1)), the outcome of a s.14 deposit, and the deposit register."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from bot.i18n.catalogs import Translator
from bot.i18n.common import (
    credited_to,
    day,
    fines_to,
    head_count,
    holder,
    keyword,
    money,
    sms_name,
    to_office,
)
from bot.i18n.officers.officer import case_line
from bot.i18n.public.sms_fit import in_parts, join
from bot.i18n.sms_keyword import or_form
from domain.events import Event
from domain.money import Money, total

if TYPE_CHECKING:
    from bot.services.officer import DepositEntry
    from domain.statement import Statement

__all__ = [
    "account_refused_reply",
    "claim_preferred_recorded",
    "claim_recorded",
    "claim_rejected_recorded",
    "deposit_outcome_recorded",
    "deposit_register_text",
    "fund_credited",
    "refund_recorded",
]


def _on(stated: Statement, event: Event | None) -> date:
    """The day of the step ``event`` recorded; without it, the latest day of the case."""
    return event.on if event is not None else stated.recorded.latest_on


def account_refused_reply(stated: Statement, tr: Translator) -> str:
    """The owner refused the remaining cattle and the balance: deemed unclaimed (s.15(5));
    the balance goes into deposit (s.16(3)). Figures and dates from the statement."""
    case = stated.case
    balance = stated.rounds[-1].balance if stated.rounds else Money.zero()
    values = {
        "case": case.number,
        "date": day(_on(stated, stated.recorded.account_refused), tr),
        "amount": money(balance, tr),
        "heads": head_count(case.heads_remaining, tr),
        "until": day(stated.window_end, tr) if stated.window_end else "",
        "to_office": to_office(holder(tr), tr),
        "months": tr.act.surplus_months,
    }
    # TRANSLATORS: s.15(5) — the owner refused what the account delivered: the cattle
    # and the proceeds are deemed unclaimed.
    refused = tr.gettext(
        "Case %(case)s: on %(date)s the owner refused the remaining cattle and the "
        "balance; they are deemed unclaimed (s.15(5))."
    )
    lines = [refused % values]
    if values["until"]:
        # TRANSLATORS: s.16(3) — the balance held in deposit; claims until the date.
        # %(to_office)s is the office that holds it, as "to the local authority" is
        # translated.
        held = tr.gettext(
            "Send the balance of %(amount)s %(to_office)s to hold in deposit; a "
            "claim may be preferred until %(until)s (s.16(3))."
        )
        lines.append(held % values)
    if case.heads_remaining:
        # TRANSLATORS: s.15(5) — the remaining cattle are dealt with as unclaimed cattle.
        lines.append(tr.gettext("%(heads)s are dealt with as unclaimed cattle (s.15(5)).") % values)
        # TRANSLATORS: s.15(5), s.13 — the refused cattle go the way of unclaimed cattle:
        # the keeper's report, the notice and the public auction; %(report)s is a command.
        report = tr.gettext(
            "The pound-keeper reports them with %(report)s (s.13(1)); the notice and the "
            "public auction follow (s.13(2), s.13(3))."
        )
        lines.append(
            report
            % {"report": or_form(tr, f"{keyword('report', tr.lang)} {case.number}", "report")}
        )
        if balance:
            # TRANSLATORS: s.15(5), s.16(3) — the refused balance is held in deposit with
            # the balance of the sale of the rest; the months for claims (%(months)d:
            # three under the Kerala Act) run from that sale. %(to_office)s: as above.
            held = tr.ngettext(
                "Send the balance of %(amount)s %(to_office)s to hold in deposit; the "
                "%(months)d month for claims runs from the settlement of the rest (s.16(3)).",
                "Send the balance of %(amount)s %(to_office)s to hold in deposit; the "
                "%(months)d months for claims run from the settlement of the rest (s.16(3)).",
                tr.act.surplus_months,
            )
            lines.append(held % values)
    return in_parts(lines)  # by SMS each sentence an SMS, whichever of them apply


def claim_preferred_recorded(stated: Statement, tr: Translator) -> str:
    """A claim to the deposit preferred, not yet established: no credit to the fund
    until it is established or rejected (s.16(3))."""
    case = stated.case
    event = stated.recorded.claim_preferred
    if event is None:
        return case_line(case, tr)
    values = {
        "case": case.number,
        "name": sms_name(event.claimant),
        "date": day(event.preferred, tr),
        "amount": money(stated.held_in_deposit, tr),
        "claim": or_form(tr, keyword("claim", tr.lang), "claim"),
        "reject": or_form(tr, keyword("reject", tr.lang), "reject"),
        "to_fund": credited_to(tr, short=True),
    }
    # TRANSLATORS: s.16(3) — a claim to the deposit was preferred in time; the deposit
    # stays until it is established (CLAIM) or rejected (REJECT); command words kept.
    # %(to_fund)s is where it would go, as "to the fund" (or "to State revenue") is
    # translated.
    text = tr.gettext(
        "Case %(case)s: claim of %(name)s to the deposit of %(amount)s preferred on "
        "%(date)s (s.16(3)). Nothing goes %(to_fund)s until it is established (%(claim)s) "
        "or rejected (%(reject)s)."
    )
    return text % values


def claim_rejected_recorded(stated: Statement, tr: Translator) -> str:
    """A claim pending was not established; the deposit stays held (s.16(3)); the
    claims still pending; the last day for claims, said as past once it is."""
    case = stated.case
    event = stated.recorded.claim_rejected
    if event is None:
        return case_line(case, tr)
    values = {
        "case": case.number,
        "ref": sms_name(event.reference),
        "date": day(event.on, tr),
        "name": sms_name(event.claimant),
    }
    if event.claimant:
        # TRANSLATORS: s.16(3) — the claim of a named claimant to the deposit was rejected.
        text = tr.gettext(
            "Case %(case)s: the claim of %(name)s to the deposit was rejected on %(date)s "
            "(ref. %(ref)s; s.16(3)). The deposit stays held."
        )
    else:
        # TRANSLATORS: s.16(3) — the claim preferred to the deposit was rejected.
        text = tr.gettext(
            "Case %(case)s: the claim to the deposit was rejected on %(date)s (ref. %(ref)s; "
            "s.16(3)). The deposit stays held."
        )
    lines = [text % values]
    pending = case.pending_claims
    if pending:
        # TRANSLATORS: s.16(3) — the claims to the deposit still to be decided (names).
        still = tr.gettext("Still pending: the claims of %(names)s (s.16(3)).")
        lines.append(still % {"names": ", ".join(sms_name(c.claimant) for c in pending)})
    if stated.window_end is not None:
        end = stated.window_end
        until = {"until": day(end, tr), "to_fund": credited_to(tr, short=True)}
        if end < stated.on:
            # TRANSLATORS: s.16(3), s.17(1) — the three months for claims are over;
            # once no claim is pending, the deposit goes to the fund (%(to_fund)s, as
            # "to the fund" or "to State revenue" is translated).
            more = tr.gettext(
                "The time to claim ended on %(until)s; once no claim is pending it goes "
                "%(to_fund)s (s.17(1))."
            )
        else:
            # TRANSLATORS: s.16(3), s.17(1) — the last day for claims; after it, the fund
            # (%(to_fund)s, as "to the fund" or "to State revenue" is translated).
            more = tr.gettext(
                "Claims may be preferred until %(until)s; after that it goes %(to_fund)s (s.17(1))."
            )
        lines.append(more % until)
    return in_parts(lines)  # by SMS each sentence an SMS: claims named or pending alike


def claim_recorded(stated: Statement, tr: Translator) -> str:
    """A claim to the deposit, preferred within three months, established (s.16(3))."""
    case = stated.case
    event = stated.recorded.claim_established
    if event is None:
        return case_line(case, tr)
    values = {
        "case": case.number,
        "name": sms_name(event.claimant),
        "amount": money(stated.paid_to_claimant, tr),
        "preferred": day(event.preferred_on, tr),
        "ref": sms_name(event.reference),
        "date": day(event.on, tr),
    }
    # TRANSLATORS: s.16(3) — the claim, preferred within three months, was established:
    # pay the deposit to the claimant against a receipt.
    text = tr.gettext(
        "Case %(case)s: the claim of %(name)s to the deposit of %(amount)s, preferred on "
        "%(preferred)s (ref. %(ref)s), established on %(date)s (s.16(3)). Pay it against a "
        "receipt. The case is closed."
    )
    return text % values


def fund_credited(stated: Statement, tr: Translator) -> str:
    """The unclaimed surplus credited to the fund of the local authority (s.17(1))."""
    values = {
        "case": stated.case.number,
        "amount": money(stated.credited_to_fund, tr),
        "date": day(_on(stated, stated.recorded.credited), tr),
    }
    # TRANSLATORS: s.17(1) — the months for claims passed with no claim: the unclaimed
    # proceeds are credited to the fund of the local authority (or, under the
    # Cattle-trespass Act, 1871, to State revenue); %(to_fund)s is where, as "to the
    # fund of the local authority" is translated.
    text = tr.gettext(
        "Case %(case)s: %(amount)s of unclaimed proceeds credited %(to_fund)s "
        "on %(date)s (s.17(1)). The case is closed."
    )
    return text % (values | {"to_fund": credited_to(tr)})


def deposit_outcome_recorded(stated: Statement, tr: Translator) -> str:
    """What became of a s.14 deposit after the s.19 complaint: returned, or applied."""
    case = stated.case
    event, deposit = stated.recorded.deposit_outcome, stated.recorded.deposit
    if event is None:
        return case_line(case, tr)
    amount = deposit.deposited if deposit is not None else Money.zero()
    values = {"case": case.number, "amount": money(amount, tr), "ref": event.reference}
    if event.returned:
        # TRANSLATORS: s.14, s.19 — the seizure was found illegal: the deposit goes back
        # to the owner.
        text = tr.gettext(
            "Case %(case)s: the seizure was found illegal; refund the deposit of %(amount)s "
            "to the owner (ref. %(ref)s; s.14, s.19). The case is closed."
        )
        # TRANSLATORS: s.19 — after the order to refund: how to record the refund paid;
        # %(refunded)s is the command line.
        then = tr.gettext("Once it is paid back, send %(refunded)s.")
        line = f"{keyword('refunded', tr.lang)} {case.number}"
        return in_parts([text % values, then % {"refunded": line}])  # by SMS: 2 SMS
    else:
        # TRANSLATORS: s.14, s.19, s.17(1), s.16(2) — the seizure was upheld: the deposit
        # pays the fines (%(fines_to)s: where the Act sends them, as "to the fund" or "to
        # the District Magistrate" is translated) and the feeding charges (to the
        # pound-keeper).
        text = tr.gettext(
            "Case %(case)s: the seizure was upheld; the deposit of %(amount)s is applied as "
            "the fines, %(fines_to)s (s.17(1)), and the feeding charges, to the "
            "pound-keeper (s.16(2)) (ref. %(ref)s; s.14, s.19). The case is closed."
        )
        values |= {"fines_to": fines_to(tr, short=True)}
    return text % values


def refund_recorded(stated: Statement, tr: Translator) -> str:
    """The deposit ordered refunded was paid back to the owner (s.19)."""
    case, deposit = stated.case, stated.recorded.deposit
    amount = deposit.deposited if deposit is not None else Money.zero()
    on = case.refunded_on or stated.recorded.latest_on
    values = {"case": case.number, "amount": money(amount, tr), "date": day(on, tr)}
    # TRANSLATORS: s.14, s.19 — the deposit, ordered refunded when the seizure was found
    # illegal, was paid back to the owner on the date.
    text = tr.gettext(
        "Case %(case)s: the deposit of %(amount)s was refunded to the owner on %(date)s "
        "(s.14, s.19)."
    )
    return text % values


def deposit_register_text(entries: Sequence[DepositEntry], today: date, tr: Translator) -> str:
    """The surplus held in deposit (s.16(3)): each case, amount, since, claims until,
    and, once the three months are over, the day from which to credit the fund."""
    # TRANSLATORS: s.16(3) — heading of the register of surplus proceeds held in deposit.
    heading = tr.gettext("Deposit register, %(date)s (s.16(3)):") % {"date": day(today, tr)}
    if not entries:
        # TRANSLATORS: s.16(3) — nothing is held in deposit.
        return join([heading, tr.gettext("Nothing is held in deposit.")], sms=False)
    lines = [heading]
    for entry in entries:
        row = tr.under(entry.act)  # each line in the words of its case's Act
        values = {
            "case": entry.number,
            "amount": money(entry.amount, row),
            "deposited": day(entry.deposited_on, row),
        }
        if entry.window_end is None or entry.credit_from is None:
            # TRANSLATORS: s.15(5), s.16(3) — one line of the register: the balance of a
            # refused account, held since the date; the rest of the cattle are still to
            # be sold, and the months for claims (%(months)d: three under the Kerala
            # Act) run from that settlement.
            line = row.ngettext(
                "%(case)s: %(amount)s, in deposit since %(deposited)s; the %(months)d "
                "month for claims runs from the settlement of the rest (s.15(5)).",
                "%(case)s: %(amount)s, in deposit since %(deposited)s; the %(months)d "
                "months for claims run from the settlement of the rest (s.15(5)).",
                row.act.surplus_months,
            )
            lines.append(line % (values | {"months": row.act.surplus_months}))
            continue
        values |= {"until": day(entry.window_end, row), "from": day(entry.credit_from, row)}
        # TRANSLATORS: s.16(3) — one line of the register: case, amount, the day it went
        # into deposit, the last day a claim may be preferred.
        line = row.gettext(
            "%(case)s: %(amount)s, in deposit since %(deposited)s; claims until %(until)s."
        )
        if entry.pending is not None:
            claim = {
                "name": sms_name(entry.pending.claimant),
                "date": day(entry.pending.preferred, row),
            }
            # TRANSLATORS: s.16(3) — a claim preferred on the date, not yet decided: the
            # deposit may not go to the fund meanwhile.
            pending = row.gettext("Claim of %(name)s pending since %(date)s (s.16(3)).")
            text = f"{line % values} {pending % claim}"
        elif today > entry.window_end:
            # TRANSLATORS: s.16(3), s.17(1) — one line of the register once the three
            # months are over: the day claims ended; it is to be credited to the fund
            # (%(to_fund)s, as "to the fund" or "to State revenue" is translated).
            line = row.gettext(
                "%(case)s: %(amount)s, in deposit since %(deposited)s; claims ended on "
                "%(until)s: credit it %(to_fund)s, lawful since %(from)s (s.17(1))."
            )
            text = line % (values | {"to_fund": credited_to(row, short=True)})
        else:
            text = line % values
        lines.append(text)
    held = money(total([e.amount for e in entries]), tr)
    # TRANSLATORS: s.16(3) — the total held in deposit.
    lines.append(tr.gettext("Total held: %(total)s.") % {"total": held})
    return in_parts(lines)  # by SMS the heading, each case and the total each an SMS
