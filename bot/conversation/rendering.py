"""The answer to each order, worded from the outcome of its step (``bot.conversation.steps``)
in the caller's language (``bot.i18n``): no query, no write.

Why it is long: one short wording per order, beside the table of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.conversation import orders as o
from bot.conversation.photos import Target
from bot.conversation.steps import (
    Ctx,
    Found,
    HelpAsked,
    LangChosen,
    LotRecorded,
    NoticeToPrint,
    ReceiptGiven,
    Stopped,
)
from bot.i18n import render, translator
from bot.i18n.dlt_probe import probing, rendering_sms
from bot.i18n.keepers import photos as render_photos
from bot.i18n.public.sms_fit import in_parts
from bot.services import keeper as keeping
from bot.services import officer as officering
from bot.services import public
from bot.services.base import figures_for, proviso_offices_of, statement_of
from bot.services.keeper import Recorded
from bot.services.outcomes import (
    AuctionScheduled,
    Corrected,
    PaidAfterPartSale,
    Reported,
    Seized,
    Settled,
)
from bot.services.subscribers import AUCTION_CANCELLED, INTAKE, OwnerSms, Told
from bot.store.tx import LoadedCase

__all__ = ["RENDERERS", "Renderer"]

#: A wording takes the context, the order and the outcome of its step.
Renderer = Callable[[Ctx, Any, Any], str]


def _told(ctx: Ctx, what: str) -> OwnerSms | None:
    """What became of the owner's SMS ``what`` that the step's subscribers queued."""
    told = _told_all(ctx, what)
    return told.sms if told is not None else None


def _told_all(ctx: Ctx, what: str) -> Told | None:
    """The owner's SMS ``what`` that the step's subscribers queued, with each owner's
    in a case of more than one owner."""
    return next((told for told in ctx.told if told.what == what), None)


# --- anyone --------------------------------------------------------------------------


def _help(ctx: Ctx, command: o.Help, asked: HelpAsked) -> str:
    return render.help_text(
        ctx.caller.role, ctx.tr, ctx.sms, source_url=asked.source, example=asked.example
    )


def _dues(ctx: Ctx, command: o.Dues, answer: public.DuesAnswer) -> str:
    def rendered() -> str:
        return render.dues_reply(
            answer.dues,
            answer.case,
            ctx.tr,
            ctx.sms,
            kinds=ctx.kinds,
            stated=answer.stated,
        )

    if probing():  # the DLT registry collects every wording: render each time
        return rendered()
    # Kept with the case, as its statement (``statement_of``): asked again the same day,
    # a case's dues are read (made again from another statement, kinds or catalog).
    made_from = (answer.stated, ctx.kinds, ctx.tr.translations)
    return answer.case.kept(("DUES reply", ctx.tr.lang, ctx.sms), made_from, rendered)


def _deposit(ctx: Ctx, command: o.Deposit, answer: public.DepositAnswer) -> str:
    return render.deposit_reply(answer.deposit, answer.case, ctx.tr, ctx.sms, kinds=ctx.kinds)


def _status(ctx: Ctx, command: o.Status, answer: public.Outcome) -> str:
    # Who ordered a disposal otherwise is named in the language (s.13(3) proviso).
    offices = ctx.deps.config.proviso_offices
    return render.status_reply(answer, ctx.tr, ctx.sms, kinds=ctx.kinds, offices=offices)


def _find(ctx: Ctx, command: o.Find, found: Found) -> str:
    text = render.search_results(found.cases, ctx.tr, ctx.sms, kinds=ctx.kinds)
    if found.photo is not None:
        text = in_parts([text, render_photos.photo_link(*found.photo, ctx.tr)])
    if not found.boards:
        return text
    # The notice boards of the authorities whose cases were found (bot.web.board).
    return render.with_board_links(text, found.boards, ctx.tr, ctx.sms)


def _web(ctx: Ctx, command: o.Web, url: str | None) -> str:
    if url is None:
        return render.web_link_unavailable(ctx.tr)
    return render.web_link(url, ctx.tr)


def _lang(ctx: Ctx, command: o.Lang, chosen: LangChosen) -> str:
    if not chosen.sent:
        return render.lang_not_sent(ctx.deps.config.sms_languages, ctx.tr)
    return render.lang_set(translator(chosen.chosen))


def _stop(ctx: Ctx, command: o.Stop, stopped: Stopped) -> str:
    if stopped.staff_on_telegram is None:
        return render.stopped(ctx.tr)
    channel = ctx.caller.channel
    return render.staff_stopped(channel, on_telegram=stopped.staff_on_telegram, tr=ctx.tr)


def _start(ctx: Ctx, command: o.Start, _: None) -> str:
    return render.started(ctx.tr)


# --- pound-keepers ---------------------------------------------------------------------


def _seize(ctx: Ctx, command: o.Seize, seized: Seized) -> str:
    return render.seizure_ack(
        seized.case,
        seized.dues,
        seized.daily,
        ctx.tr,
        ctx.sms,
        kinds=ctx.kinds,
        pound_name=seized.pound_name,
        owner_sms=_told(ctx, INTAKE) or "no_number",
        owners=told.owners if (told := _told_all(ctx, INTAKE)) else (),
    )


def _correct(ctx: Ctx, command: o.Correct, corrected: Corrected) -> str:
    text = render.correction_recorded(
        statement_of(ctx.deps, corrected.recorded.case), ctx.tr, ctx.sms
    )
    # By SMS what the owner is told is an SMS of its own (a template of its own).
    for what in (AUCTION_CANCELLED, INTAKE):  # the auction called off; the intake SMS
        told = _told_all(ctx, what)
        if told is not None:
            with rendering_sms(ctx.sms):
                line = (
                    render.owners_sms_lines(told.owners, ctx.tr)
                    if told.owners
                    else render.owner_sms_line(told.sms, ctx.tr)
                )
                text = in_parts([text, line])
    return text


def _void(ctx: Ctx, command: o.Void, loaded: LoadedCase) -> str:
    return render.case_voided(statement_of(ctx.deps, loaded.case), ctx.tr)


def _separated(ctx: Ctx, recorded: Recorded, text: str) -> str:
    """An owner's step on their own lots: first, which cattle now make their case."""
    separated = recorded.separated
    if separated is None:
        return text
    lots, number = separated.lots, recorded.case.number
    return f"{render.lots_separated(separated.from_number, lots, number, ctx.tr)}\n{text}"


def _paid(ctx: Ctx, command: o.Paid, paid: Recorded | PaidAfterPartSale) -> str:
    if isinstance(paid, PaidAfterPartSale):
        return render.paid_after_part_sale(paid.statement, ctx.tr, ctx.sms)
    return _separated(ctx, paid, render.payment_recorded(paid.case, paid.dues, ctx.tr, ctx.sms))


def _deposited(ctx: Ctx, command: o.Deposited, recorded: Recorded) -> str:
    by = statement_of(ctx.deps, recorded.case).complaint_by
    today = ctx.deps.today()
    text = render.deposit_recorded(recorded.case, recorded.dues, by, ctx.tr, ctx.sms, today=today)
    return _separated(ctx, recorded, text)


def _report(ctx: Ctx, command: o.Report, reported: Reported) -> str:
    return render.report_sent(statement_of(ctx.deps, reported.recorded.case), ctx.tr, ctx.sms)


def _refused(ctx: Ctx, command: o.Refused, recorded: Recorded) -> str:
    text = render.owner_refusal_recorded(statement_of(ctx.deps, recorded.case), ctx.tr, ctx.sms)
    return _separated(ctx, recorded, text)


def _cases(ctx: Ctx, command: o.Cases, items: list[keeping.OpenCase]) -> str:
    return render.open_cases(items, ctx.tr, ctx.sms, kinds=ctx.kinds)


def _photo(ctx: Ctx, command: o.Photo, target: Target | str) -> str:
    """The keeper told how to send a photo (or why not)."""
    if isinstance(target, str):
        return target
    return render_photos.photo_missing(target.loaded.case.number, ctx.tr)


# --- officers ----------------------------------------------------------------------------


def _notice(ctx: Ctx, command: o.Notice, notice: NoticeToPrint | Recorded) -> str:
    if isinstance(notice, Recorded):
        return render.notice_recorded(notice.case, ctx.tr)
    case, authority, pound, on = notice.loaded.case, notice.authority, notice.pound, notice.on
    if ctx.sms:  # by SMS what the notice says in brief, and the link to print it
        return render.notice_ready(case, on, notice.url, ctx.tr)
    figures = figures_for(ctx.deps, case)
    parts = [
        render.notice_text(case, authority, pound, on, ctx.tr, figures=figures),
        render.proclamation_script(case, authority, pound, on, ctx.tr, figures=figures),
    ]
    if notice.url is not None:
        parts.append(notice.url)
    return "\n\n".join(parts)


def _auction(ctx: Ctx, command: o.Auction, scheduled: AuctionScheduled) -> str:
    return render.auction_scheduled(scheduled.recorded.case, ctx.tr)


def _sold(ctx: Ctx, command: o.Sold | o.Unsold, lot: LotRecorded) -> str:
    return render.lot_recorded(statement_of(ctx.deps, lot.recorded.case), lot.progress, ctx.tr)


def _settle(ctx: Ctx, command: o.Settle, settled: Settled | officering.ShortOfDues) -> str:
    if isinstance(settled, officering.ShortOfDues):
        return render.sale_short(settled.recorded.case, settled.expenses, settled.short, ctx.tr)
    return render.settled_reply(settled.settlement, settled.account, ctx.tr)


def _receipt(ctx: Ctx, command: o.Receipt, given: ReceiptGiven) -> str:
    return render.receipt_text(given.receipt, ctx.tr)


def _account_refused(ctx: Ctx, command: o.AccountRefused, recorded: Recorded) -> str:
    return render.account_refused_reply(statement_of(ctx.deps, recorded.case), ctx.tr)


def _claim(ctx: Ctx, command: o.Claim, recorded: Recorded) -> str:
    return render.claim_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)


def _claimed(ctx: Ctx, command: o.Claimed, recorded: Recorded) -> str:
    return render.claim_preferred_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)


def _reject(ctx: Ctx, command: o.Reject, recorded: Recorded) -> str:
    return render.claim_rejected_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)


def _dispose(ctx: Ctx, command: o.Dispose, recorded: Recorded) -> str:
    offices = proviso_offices_of(ctx.deps, recorded.case)  # the case's Act's (s.13(3))
    return render.other_disposal_recorded(statement_of(ctx.deps, recorded.case), ctx.tr, offices)


def _outcome(ctx: Ctx, command: o.Outcome, recorded: Recorded) -> str:
    return render.deposit_outcome_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)


def _refunded(ctx: Ctx, command: o.Refunded, recorded: Recorded) -> str:
    return render.refund_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)


def _fund(ctx: Ctx, command: o.Fund, recorded: Recorded) -> str:
    return render.fund_credited(statement_of(ctx.deps, recorded.case), ctx.tr)


def _due(ctx: Ctx, command: o.Due, due: officering.DeadlinesDue) -> str:
    # By SMS under DLT, the case numbers under each heading: one of a few templates.
    compact = ctx.sms and ctx.deps.config.dlt.enforced
    return render.digest(due.items, ctx.deps.today(), ctx.tr, compact=compact, acts=due.acts)


def _register(ctx: Ctx, command: o.Register, entries: list[officering.DepositEntry]) -> str:
    return render.deposit_register_text(entries, ctx.deps.today(), ctx.tr)


RENDERERS: dict[str, Renderer] = {
    "help": _help,
    "dues": _dues,
    "deposit": _deposit,
    "status": _status,
    "find": _find,
    "lang": _lang,
    "stop": _stop,
    "start": _start,
    "seize": _seize,
    "photo": _photo,
    "paid": _paid,
    "deposited": _deposited,
    "report": _report,
    "refused": _refused,
    "cases": _cases,
    "correct": _correct,
    "void": _void,
    "notice": _notice,
    "auction": _auction,
    "sold": _sold,
    "unsold": _sold,
    "settle": _settle,
    "receipt": _receipt,
    "account_refused": _account_refused,
    "claim": _claim,
    "claimed": _claimed,
    "reject": _reject,
    "dispose": _dispose,
    "outcome": _outcome,
    "refunded": _refunded,
    "fund": _fund,
    "due": _due,
    "register": _register,
    "web": _web,
}
