"""What poundbot refuses, and what to do instead: the Act's refusals (``DomainError``,
citing the provision) and the application's (``AppError``: roles, unknown numbers,
invites, input that is not a command); and the apology when something unexpected
stops a message from being processed (``try_again_later``).

Why it is long: the text of every refusal, the Act's and the application's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Final

from bot.config.model import DEFAULT_PROVISO_OFFICES
from bot.i18n.catalogs import Translator
from bot.i18n.common import (
    ECHO_LIMIT,
    act_title,
    cite,
    credited_to,
    day,
    money,
    office_name,
    office_title,
    sms_name,
)
from bot.i18n.fmt import clock_time
from bot.i18n.public.dues import dues_lines
from bot.i18n.refusals.parse import PARSE_CODES, parse_error
from bot.i18n.refusals.sale import sale_refusal
from bot.i18n.stage_text import stage_sentence
from domain.errors import AmountNotDueError, DomainError, Fact
from domain.profiles import PROFILES, Office, Profile
from domain.s04_s11_dues import Dues
from domain.stages import Stage

if TYPE_CHECKING:
    from bot.config.model import ProvisoOffice
    from bot.support.errors import AppError

__all__ = [
    "app_error",
    "bad_count",
    "error",
    "not_allowed",
    "not_holder",
    "reasons",
    "too_many_messages",
    "try_again_later",
    "unknown_case",
    "unknown_command",
]

#: Every refusal's text by its code, the Act's (``domain.errors``) and the application's
#: (``bot.support.errors``): the one mapping from a code to its words. A refusal that
#: gives a reason with its facts is told by the reason (``_REASONS``) instead.
_BY_CODE: Final[dict[str, Callable[[Translator], str]]] = {
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
    # TRANSLATORS: s.7, s.19 — the day of seizure given is after the day the cattle
    # were brought to the pound.
    "seized_after_brought": lambda tr: tr.gettext(
        "The day of seizure is after the day the cattle were brought in. Check the dates."
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
    # TRANSLATORS: s.7 — a correction of the seizure record that would make a step
    # already recorded unlawful (a report made too early, a step before the cattle
    # were brought in, money counted on the old facts); nothing was changed.
    "correction_refused": lambda tr: tr.gettext(
        "Not corrected: with that change a step already recorded in this case would "
        "become unlawful. Check the date or count."
    ),
    # TRANSLATORS: a case on which money was paid, deposited or raised by sale cannot
    # be voided as entered by mistake; its facts can still be corrected.
    "void_refused": lambda tr: tr.gettext(
        "Not voided: money has moved on this case. Correct its facts with the "
        "correction command instead."
    ),
    # TRANSLATORS: s.12, s.14 — a payment or deposit of an amount that is not the fines
    # and charges due: nothing recorded.
    "amount_not_due": lambda tr: tr.gettext(
        "Not recorded: that amount is not the amount due. Send it again with the whole "
        "amount due, or with no amount."
    ),
    # TRANSLATORS: s.18 — officers, pound-keepers and members may not buy.
    "barred_buyer": lambda tr: tr.gettext(
        "The buyer must declare that they are not barred from buying at a pound sale."
    ),
    # --- the application's refusals ---
    # TRANSLATORS: a pound code that names no pound.
    "unknown_pound": lambda tr: tr.gettext(
        "That pound is not known. Check the pound code and send it again."
    ),
    # TRANSLATORS: a person poundbot has no record of (an administrator's command).
    "unknown_user": lambda tr: tr.gettext(
        "That person is not registered. Ask the local authority to register them."
    ),
    # TRANSLATORS: s.15(3) — the account of a case asked for before its sale is settled.
    "no_account": lambda tr: tr.gettext(
        "That case has no account yet: its sale is not settled (s.15(3))."
    ),
    # TRANSLATORS: s.15(4), s.16(3) — a receipt asked for a case whose cattle were sold
    # unclaimed: no owner takes anything, the balance is held in deposit.
    "no_receipt": lambda tr: tr.gettext(
        "That case has no owner's receipt: its cattle were sold unclaimed and the balance "
        "is held in deposit (s.15(4), s.16(3))."
    ),
    # TRANSLATORS: someone else recorded a step on the same case at the
    # same moment, so this step was not recorded; look at the case again.
    "case_changed": lambda tr: tr.gettext(
        "Not recorded: another step on this case was recorded at the same moment. Check "
        "the case, and send it again if it is still needed."
    ),
    # TRANSLATORS: an invite code to register as a pound-keeper or officer.
    "invite_invalid": lambda tr: tr.gettext(
        "That invite code is unknown, already used or expired. Ask the local authority "
        "for a new one."
    ),
}


_REASONS: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: s.7 — a seizure report (or its correction) giving an hour of today
    # later than the time now (shown, hh:mm); nothing was recorded.
    "future_time": lambda tr: tr.gettext(
        "That time is later than now (%(now)s): give the hour the cattle were actually brought in."
    ),
    # TRANSLATORS: s.19, s.14 — a deposit under protest refused: the days from the
    # seizure to complain of it (%(days)d: ten under the Kerala Act) are over.
    "complaint_time_over": lambda tr: tr.ngettext(
        "The %(days)d day to complain ended on %(date)s, so no deposit under protest.",
        "The %(days)d days to complain ended on %(date)s, so no deposit under protest.",
        tr.act.complaint_days,
    ),
    # TRANSLATORS: s.16(3) — a claim to the deposit dated before the balance went into
    # deposit.
    "before_deposit": lambda tr: tr.gettext(
        "That date is before the deposit, made on %(date)s. Check the date."
    ),
    # TRANSLATORS: s.16(3) — a claim to the deposit preferred after the months it is
    # held (%(months)d: three under the Kerala Act).
    "claim_time_over": lambda tr: tr.ngettext(
        "The %(months)d month to claim the deposit ended on %(date)s.",
        "The %(months)d months to claim the deposit ended on %(date)s.",
        tr.act.surplus_months,
    ),
    # TRANSLATORS: s.16(3) — CLAIMED for a claimant whose claim is already pending.
    "claim_already_pending": lambda tr: tr.gettext(
        "The claim of %(name)s, preferred on %(date)s, is already pending."
    ),
    # TRANSLATORS: s.16(3) — REJECT when no claim to the deposit is pending.
    "no_claim_pending": lambda tr: tr.gettext("No claim to the deposit is pending."),
    # TRANSLATORS: s.16(3) — REJECT without saying whose claim, with several pending;
    # %(names)s lists the claimants. BY is the command word, kept in English.
    "which_claim": lambda tr: tr.gettext(
        "Say whose claim is rejected, with BY and the name: pending are the claims of %(names)s."
    ),
    # TRANSLATORS: s.16(3), s.17(1) — FUND while claims to the deposit are pending;
    # %(to_fund)s is where it goes, as "to the fund" (or "to State revenue") is translated.
    "claims_pending": lambda tr: tr.gettext(
        "The claims of %(names)s are pending: the deposit goes %(to_fund)s only once each "
        "is established or rejected."
    ),
    # TRANSLATORS: s.16(3) — CLAIM (established) while other claims are pending.
    "other_claims_pending": lambda tr: tr.gettext(
        "The claims of %(names)s are pending too: reject them before the deposit is paid "
        "on this claim."
    ),
    # TRANSLATORS: s.16(3) — the day a claim is established is before it was preferred.
    "established_before_preferred": lambda tr: tr.gettext(
        "A claim is established on or after the day it is preferred (%(date)s)."
    ),
    # TRANSLATORS: a step dated before the last step recorded in the case (its date).
    "before_last_step": lambda tr: tr.gettext(
        "That date is before the last step recorded in this case, on %(date)s. Check the date."
    ),
    # TRANSLATORS: s.13(3), s.15(1) — the auction fixed for a day before the day fixing it.
    "auction_before_fixing": lambda tr: tr.gettext(
        "The auction cannot be held before the day it is fixed, %(date)s."
    ),
    # TRANSLATORS: s.13(2) — no notice posted, so no auction yet.
    "no_notice": lambda tr: tr.gettext("No notice has been posted for this case yet."),
    # TRANSLATORS: s.7 — a seizure report with no cattle in it.
    "no_cattle": lambda tr: tr.gettext(
        "The report names no cattle. Give the number and kind, like 2 cow."
    ),
    # TRANSLATORS: s.7 — a number of cattle out of range (1 to 10,000).
    "bad_count": lambda tr: tr.gettext(
        "%(count)d is not a number of cattle: give a number from 1 to 10,000."
    ),
    # TRANSLATORS: s.7 — the place of seizure was left out of the report.
    "no_place": lambda tr: tr.gettext(
        "The place where the cattle were seized is missing. Add it and send the report again."
    ),
    # TRANSLATORS: s.7, s.19 — the day of seizure given is after the day brought in.
    "seized_after_brought": lambda tr: tr.gettext(
        "The day of seizure, %(seized)s, is after the day the cattle were brought in, %(date)s."
    ),
    # TRANSLATORS: s.15(4) — a receipt needs the name of who received.
    "receipt_without_name": lambda tr: tr.gettext(
        "A receipt needs the name of the person who received the cattle and the balance."
    ),
    # TRANSLATORS: s.12, s.15(1), s.13(3) — PAID once a head has been sold: the sale
    # goes on and is settled; the owner gets the account and the balance.
    "head_sold": lambda tr: tr.gettext(
        "A head was sold on %(date)s: the sale goes on and is settled, and the owner gets "
        "the account and the balance."
    ),
    # TRANSLATORS: s.15(1), s.15(2), s.15(3) — PAID on the owner's route once the proceeds
    # of the cattle sold meet the dues and the expenses of sale: nothing is owed, the
    # owner cannot pay instead; the sale is settled and the rest go back with the account.
    "sale_met_dues": lambda tr: tr.gettext(
        "The proceeds of the sale meet the dues and the expenses of sale: nothing is owed, "
        "and the owner cannot pay instead. The sale is settled, and the remaining cattle "
        "and the balance go to the owner with the account."
    ),
    # TRANSLATORS: s.13(3), s.16(3) — PAID once a head of unclaimed cattle has been sold:
    # the sale goes on; the balance goes into deposit, where the owner may claim it.
    "unclaimed_head_sold": lambda tr: tr.gettext(
        "A head was sold on %(date)s: the sale goes on, and the balance goes into deposit, "
        "where the owner may claim it (s.16(3))."
    ),
    # TRANSLATORS: s.13(2), s.13(3) — an auction, sale or disposal after a correction of
    # what the notice stated: the old notice no longer stands; a new one comes first.
    "notice_superseded": lambda tr: tr.gettext(
        "The notice of %(date)s was superseded by the correction of %(corrected)s: post a "
        "new notice first; the auction is lawful seven days after it."
    ),
    # TRANSLATORS: s.13(2), s.13(3) — CORRECT of what a posted notice states (the number
    # and description of the cattle, the place seized, the pound) once cattle were
    # offered for sale on it: refused at every later stage; other facts may be corrected.
    "notice_offered": lambda tr: tr.gettext(
        "Not corrected: the cattle were offered for sale on the notice of %(date)s, so the "
        "number and description of the cattle and the places of seizure and impounding "
        "stay as it states them."
    ),
    # TRANSLATORS: s.19 — REFUNDED on a case where no refund of a deposit was ordered.
    "no_refund": lambda tr: tr.gettext(
        "No refund of a deposit was ordered in this case: the seizure was not found illegal."
    ),
    # TRANSLATORS: s.19 — REFUNDED a second time.
    "already_refunded": lambda tr: tr.gettext("The deposit was refunded on %(date)s already."),
    # TRANSLATORS: s.15(5), s.13(1) — a notice, auction, sale or settlement of cattle
    # deemed unclaimed before the pound-keeper's report; the report is due from the date.
    "report_first": lambda tr: tr.gettext(
        "The cattle are deemed unclaimed (s.15(5)): the pound-keeper's report comes first, "
        "due from %(date)s; then the notice and the sale."
    ),
    # TRANSLATORS: s.13(3) proviso — DISPOSE BY someone other than the office that holds
    # the power (the Director): %(office)s is that office's name (configured), %(who)s
    # what was typed after BY, %(code)s the office's code to type after BY.
    "not_director": lambda tr: tr.gettext(
        "Not recorded: another disposal is by the order of %(office)s alone, of the "
        "opinion that the cattle will not fetch a fair price; '%(who)s' is not that "
        "office. Write BY %(code)s."
    ),
    # TRANSLATORS: s.15(1), s.13(3) — SETTLE when no head has been sold or disposed of:
    # there are no proceeds to settle; the cattle stay in the pound.
    "nothing_sold": lambda tr: tr.gettext(
        "No head has been sold yet, so there is no sale to settle: record the sale "
        "first, or fix the auction again."
    ),
    # TRANSLATORS: s.13(3) — a lot number the case does not have.
    "no_lot": lambda tr: tr.gettext("There is no lot %(lot)d in this case."),
    # TRANSLATORS: s.13(3) — more heads than the lot has left.
    "heads_left": lambda tr: tr.gettext("Lot %(lot)d has %(count)d head left."),
}


def reasons() -> tuple[str, ...]:
    """The reasons of a refusal a reply explains in words of its own (beside ``stage``,
    ``heads_unsold`` and ``no_counterpart``, which take their facts in other shapes)."""
    return tuple(_REASONS)


def _reason(
    exc: DomainError,
    tr: Translator,
    offices: Sequence[ProvisoOffice] = DEFAULT_PROVISO_OFFICES,
) -> str | None:
    """The reason of a refusal, with its dates and counts, in the words of the
    translator's Act; None when it gave none."""
    facts = exc.facts
    if exc.reason == "no_counterpart":
        return _no_counterpart(exc.provision, tr.act, tr)
    if exc.reason == "not_director":  # who may order it: the configured offices (s.13(3))
        facts = {**facts, **_offices(offices, tr), "who": sms_name(str(facts.get("who", "")))}
    if exc.reason == "stage":
        stage, since, sale = facts.get("stage"), facts.get("date"), facts.get("sale")
        if isinstance(stage, str) and isinstance(since, date):
            # TRANSLATORS: after the sentence saying where the case stands and since when.
            after = tr.gettext("This step is not possible now.")
            route = sale if isinstance(sale, str) else None
            return f"{stage_sentence(Stage(stage), since, tr, route)} {after}"
        return None
    if exc.reason == "heads_unsold":
        count = facts.get("count", 0)
        n = count if isinstance(count, int) else 0
        # TRANSLATORS: s.13(3) — unclaimed cattle are all sold before the sale is settled.
        text = tr.ngettext(
            "%(count)d head is still unsold: unclaimed cattle are all sold or disposed of first.",
            "%(count)d head are still unsold: unclaimed cattle are all sold or disposed of first.",
            n,
        )
        return text % {"count": n}
    render = _REASONS.get(exc.reason or "")
    if render is None:
        return None
    values = {key: _fact(value, tr) for key, value in facts.items()}
    return render(tr) % {**_act_words(tr), **values}


def _act_words(tr: Translator) -> dict[str, object]:
    """What of the case's Act (``tr.act``) a reason may say: the days to complain
    (s.19), the months the surplus is held (s.16(3)) and where it goes then (s.17(1))."""
    act = tr.act
    return {
        "days": act.complaint_days,
        "months": act.surplus_months,
        "to_fund": credited_to(tr, short=True),
    }


def _no_counterpart(provision: str | None, act: Profile, tr: Translator) -> str:
    """A step the case's Act has no counterpart of (``domain.profiles.require_counterpart``):
    the Act has no such step; for the owner's refusal of the account (Kerala's s.15(5)),
    what that Act does instead."""
    # TRANSLATORS: a step refused because the Act the case is under has no such step
    # (the Cattle-trespass Act, 1871 has nothing like s.15(5) of the Kerala Act);
    # %(act)s is the Act's short title, as you translate it.
    text = tr.gettext("The %(act)s has no such step.") % {"act": act_title(act, tr)}
    if provision != "s.15(5)":
        return text
    # TRANSLATORS: s.15(5) — after "The Cattle-trespass Act, 1871 has no such step.":
    # under that Act the owner's refusal of the account does not deem the cattle
    # unclaimed (as the Kerala Act's s.15(5) does); the remaining cattle and the
    # balance stay for the owner to take.
    instead = tr.gettext(
        "Under it, an owner who refuses the account does not make the cattle unclaimed: "
        "the remaining cattle and the balance are held for the owner."
    )
    return f"{text} {instead}"


def _act_of(exc: DomainError, act: Profile) -> Profile:
    """The Act a refusal is told under: the one it names (the Act that has no such step:
    ``facts["act"]``), else ``act``, the case's."""
    named = exc.facts.get("act")
    return PROFILES.get(named, act) if isinstance(named, str) else act


def _offices(offices: Sequence[ProvisoOffice], tr: Translator) -> dict[str, str]:
    """The offices that may order another disposal (s.13(3) proviso), by name (short in
    an SMS, each one variable) and by the code an officer types after BY."""
    named = " / ".join(office_name(o, tr) for o in offices)
    codes = " / ".join(o.code for o in offices)
    return {"office": sms_name(named), "code": sms_name(codes)}


def _fact(value: Fact, tr: Translator) -> object:
    return day(value, tr) if isinstance(value, date) else value


def amount_not_due(exc: AmountNotDueError, tr: Translator) -> str:
    """A payment (s.12) or deposit (s.14) of a part of the dues: nothing recorded; the
    dues of the day, line by line, and what to send instead."""
    assert isinstance(exc.dues, Dues)
    assert exc.tendered is not None
    values = {
        "given": money(exc.tendered, tr),
        "due": money(exc.dues.total, tr),
        "date": day(exc.dues.on, tr),
    }
    if exc.owed is not None and exc.proceeds is not None:
        values |= {"due": money(exc.owed, tr), "proceeds": money(exc.proceeds, tr)}
        # TRANSLATORS: s.12, s.15(1), s.15(2) — part of the cattle were sold on the owner's
        # route: a payment of an amount that is not what the proceeds left owed of the
        # dues and the expenses of sale: nothing recorded; the lines of the dues follow.
        text = tr.gettext(
            "Not recorded: %(given)s is not the amount due. The proceeds of %(proceeds)s "
            "leave %(due)s owed on %(date)s of these dues, and the remaining cattle are "
            "delivered on payment of all of it:"
        )
    elif exc.provision == "s.14":
        # TRANSLATORS: s.14 — a deposit under protest of an amount that is not the fines
        # and charges due: nothing recorded; the lines of the dues follow.
        text = tr.gettext(
            "Not recorded: %(given)s is not the amount due. %(due)s is due on %(date)s, "
            "and the cattle are delivered on deposit of all of it:"
        )
    else:
        # TRANSLATORS: s.12 — a payment of an amount that is not the fines and charges
        # due (a part payment): nothing recorded; the lines of the dues follow.
        text = tr.gettext(
            "Not recorded: %(given)s is not the amount due. %(due)s is due on %(date)s, "
            "and the cattle are released on payment of all of it:"
        )
    # TRANSLATORS: after a refused part payment or deposit: how to record it.
    again = tr.gettext("Send it again with that amount, or with no amount.")
    lines = "; ".join(dues_lines(exc.dues, tr))
    return f"{text % values} {lines}. {again}"


def error(
    exc: DomainError,
    tr: Translator,
    offices: Sequence[ProvisoOffice] = DEFAULT_PROVISO_OFFICES,
    act: Profile | None = None,
) -> str:
    """What the Act refuses, and why (the dates and counts of the reason, where the
    refusal gives them), and what to do instead, in the words of ``act``, the Act of the
    case (by default the translator's: ``tr.under(case.profile)``), citing
    ``exc.provision`` as it cites it. A step that Act has no counterpart of is refused
    under the Act the refusal names, citing nothing: the refusal names the Act instead
    (the Kerala section it would have been is not the case's). ``offices``: those that
    may order another disposal (s.13(3) proviso), as configured."""
    act = _act_of(exc, tr.act if act is None else act)
    tr = tr.under(act)
    if (
        isinstance(exc, AmountNotDueError)
        and isinstance(exc.dues, Dues)
        and exc.tendered is not None
    ):
        cited = cite(exc.provision or "", tr)
        under = tr.gettext("(%(provision)s)") % {"provision": cited}
        return f"{amount_not_due(exc, tr)} {under}"
    render = _BY_CODE.get(exc.code)
    # TRANSLATORS: a step refused for a reason not listed separately.
    text = render(tr) if render else tr.gettext("That cannot be done under the Act.")
    reason = sale_refusal(exc, tr) or _reason(exc, tr, offices)  # s.13(3), s.15(1), s.18
    if reason is not None:
        text = reason
    elif exc.lawful_from is not None:
        # TRANSLATORS: a step taken before the period the Act sets has run; the date is
        # the first day the step is lawful (s.13(1) report, s.13(3) auction, s.17(1)).
        text = tr.gettext("Too early: this step is lawful from %(date)s.") % {
            "date": day(exc.lawful_from, tr)
        }
    if exc.provision and exc.reason != "no_counterpart":  # that Act has no section to cite
        # TRANSLATORS: appended to an error: the provision that refuses the step.
        under = tr.gettext("(%(provision)s)") % {"provision": cite(exc.provision, tr)}
        text = f"{text} {under}"
    return text


def unknown_case(number: str, tr: Translator) -> str:
    """No case has that number."""
    # TRANSLATORS: the case number sent matches no case.
    text = tr.gettext("There is no case %(case)s. Check the number and send it again.")
    return text % {"case": number[:ECHO_LIMIT]}


def bad_count(text: str, tr: Translator) -> str:
    """A count of cattle that is not a whole number from 1 up."""
    # TRANSLATORS: s.7 — the number of cattle sent is not a whole number.
    template = tr.gettext("'%(text)s' is not a number of cattle. Send a whole number, like 3.")
    return template % {"text": text[:ECHO_LIMIT]}


def not_allowed(tr: Translator) -> str:
    """The sender's role does not allow the command."""
    # TRANSLATORS: the sender's role (owner, pound-keeper, officer) cannot do this.
    return tr.gettext("Your role does not allow this. Ask the pound-keeper or the local authority.")


def not_holder(office: Office, tr: Translator) -> str:
    """The step is for an office another officer of the authority holds: the office, as
    the language names it."""
    # TRANSLATORS: an officer tried a step that the Act of the case gives to an office
    # held by another officer of the local authority; %(office)s names that office, as
    # "the pound-keeper" and the others are translated (for example "the District
    # Magistrate", "the officer in charge of the nearest police station").
    text = tr.gettext(
        "Under the Act of this case this step is for %(office)s. Ask the officer who "
        "holds that office to record it."
    )
    return text % {"office": office_title(office, tr)}


def unknown_command(commands: Sequence[str], tr: Translator) -> str:
    """A command the bot does not know, with the ones it does (not translated: typed)."""
    # TRANSLATORS: %(commands)s is a list of command words, which stay in English.
    text = tr.gettext("Unknown command. Send one of: %(commands)s")
    return text % {"commands": ", ".join(commands)}


def app_error(exc: AppError, tr: Translator) -> str:
    """What the application refuses and what to do instead; a line that is not a
    command gets ``parse_error``; an unknown code a generic sentence."""
    code = exc.code
    if code in PARSE_CODES:
        return parse_error(code, exc.facts, tr)
    if code == "not_allowed":
        return not_allowed(tr)
    if code == "not_holder":
        held = {office.value: office for office in Office}.get(str(exc.facts.get("office")))
        return not_holder(held, tr) if held is not None else not_allowed(tr)
    if code == "unknown_case":
        return unknown_case(str(exc.facts.get("number", "")), tr)
    if code == "voided_case":
        # TRANSLATORS: s.7 — DUES or DEPOSIT of a case voided as entered by mistake.
        text = tr.gettext(
            "Case %(case)s was entered by mistake and voided: nothing is due on it (s.7)."
        )
        return text % {"case": str(exc.facts.get("number", ""))[:ECHO_LIMIT]}
    render = _BY_CODE.get(code)
    if render is not None:
        return render(tr)
    if code == "bad_input":
        return parse_error(code, exc.facts, tr)
    # TRANSLATORS: something went wrong for a reason not listed separately.
    return tr.gettext("That could not be done. Try again later, or ask the local authority.")


def try_again_later(tr: Translator) -> str:
    """An apology: the message could not be processed now; send it again in a few
    minutes. The SMS webhook, Telegram and the console answer with it when an
    unexpected error stops a message (an SMS: within ``SMS_SEGMENT_BUDGET``)."""
    # TRANSLATORS: an unexpected fault on our side stopped the person's message; they
    # should send it again in a few minutes. It goes out as an SMS: keep it short.
    return tr.gettext(
        "Sorry, we could not process your message just now. Please send it again in a few minutes."
    )


def too_many_messages(until: datetime, tr: Translator) -> str:
    """The one answer to a sender past their limit of messages (``bot.channels.limits``): when
    they will be answered again (local time). Within ``SMS_SEGMENT_BUDGET``."""
    # TRANSLATORS: the sender has sent more messages than are answered in a while; the
    # next ones get no answer until %(time)s (a local clock time such as 11:40 AM).
    # It goes out as an SMS: keep it short.
    return tr.gettext("You have sent many messages. We will answer again after %(time)s.") % {
        "time": clock_time(until, tr.lang)
    }
