"""Each order's step: one use case, and what it did as a typed outcome (no text).

The dispatcher (``bot.conversation.bus``) runs a step in a savepoint and tells those who
are told of its outcome (``bot.services.subscribers``); the answer is worded from the
outcome afterwards (``bot.conversation.rendering``). A step on a case returns ``Done``:
its outcome and the case after it.

Why it is long: one short step per order, beside the table of them and the context they
share; the outcomes of the steps that no one else is told of sit with them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, NamedTuple

from bot.adapters.photo_store import first_photos
from bot.config import Authority, Pound
from bot.conversation import orders as o
from bot.conversation.photos import Target, photo_target
from bot.conversation.seizure import corrected, report_seizure, seizure_of
from bot.i18n import Translator, reply_language
from bot.i18n import render as words
from bot.services import keeper as keeping
from bot.services import officer as officering
from bot.services import public, web_signin
from bot.services.base import CaseRef, Deps, load_for_step, require_officer, statement_of
from bot.services.keeper import Recorded
from bot.services.outcomes import AuctionScheduled, Corrected, PaidAfterPartSale, Reported
from bot.services.subscribers import Told
from bot.store.case_lookups import newest_case_of_owner
from bot.store.contacts import contact
from bot.store.messages import enqueue, set_contact
from bot.store.tx import LoadedCase, Tx
from bot.store.users import user as user_row
from bot.support.caller import PUBLIC, Caller
from bot.support.links import SOURCE_PATH, board_path, signin_path
from domain.kinds import Kinds
from domain.money import Money
from domain.s07_seizure import Person
from domain.s13_unclaimed import check_notice_printable
from domain.s15_3_account import Receipt, receipt_for
from domain.s15_sale import SaleProgress

__all__ = ["READ_ONLY", "STEPS", "Ctx", "Done"]


@dataclass(frozen=True, slots=True)
class Ctx:
    """What a step and the wording of its answer share: the transaction, the use cases'
    dependencies, who asked, the language and channel of the answer."""

    tx: Tx
    deps: Deps
    caller: Caller
    tr: Translator
    sms: bool
    #: The case the channel already read for this step (for update), if it did.
    loaded: LoadedCase | None = None
    #: What the subscribers of the step's outcome told the owner (for the answer).
    told: tuple[Told, ...] = ()

    def case(self, command: o.CaseOrder) -> CaseRef:
        """The case ``command`` is a step on: as the channel read it, or its number."""
        if self.loaded is not None and self.loaded.row.number == command.case:
            return self.loaded
        return command.case

    @property
    def kinds(self) -> Kinds:
        return self.deps.config.kinds

    def default_lang(self, pound: str) -> str:
        return reply_language(pound=self.deps.config.pounds.get(pound))


class Done(NamedTuple):
    """What a step on a case returns: its outcome and the case after it."""

    outcome: object
    loaded: LoadedCase


#: A step takes the order of its command (``STEPS``: each its own).
Step = Callable[[Ctx, Any], Awaitable[object]]


# --- the outcomes no one beside the caller is told of --------------------------------


@dataclass(frozen=True, slots=True)
class HelpAsked:
    """HELP: the link to the source code (or ""), and a case number for its examples."""

    source: str
    example: str


@dataclass(frozen=True, slots=True)
class Found:
    """The cases FIND found; by SMS, a link to the first photo (its case number and URL);
    the links to the notice boards of their authorities."""

    cases: list[public.PublicCase]
    photo: tuple[str, str] | None
    boards: list[str]


@dataclass(frozen=True, slots=True)
class LangChosen:
    """LANG: the language chosen; ``sent`` False when an SMS under DLT cannot be sent in
    it (the choice refused)."""

    chosen: str
    sent: bool


@dataclass(frozen=True, slots=True)
class Stopped:
    """STOP: for a keeper, officer or admin, whether they are told on Telegram too
    (None: a number of the public)."""

    staff_on_telegram: bool | None


@dataclass(frozen=True, slots=True)
class NoticeToPrint:
    """The notice of a case to print (s.13(2)), not a record of it being posted."""

    loaded: LoadedCase
    authority: Authority
    pound: Pound
    on: date
    url: str | None


@dataclass(frozen=True, slots=True)
class LotRecorded:
    """A lot sold or not sold, and how the sale stands."""

    recorded: Recorded
    progress: SaleProgress


@dataclass(frozen=True, slots=True)
class ReceiptGiven:
    """The account delivered, and the receipt for it (s.15(4))."""

    recorded: Recorded
    receipt: Receipt


# --- anyone --------------------------------------------------------------------------


async def _help(ctx: Ctx, command: o.Help) -> HelpAsked:
    source = f"{ctx.deps.public_url}{SOURCE_PATH}" if ctx.deps.public_url else ""
    return HelpAsked(source, await _example_case(ctx))


async def _example_case(ctx: Ctx) -> str:
    """The case number HELP's example names: the newest case that names the sender's
    number; else one of the sender's pound (a keeper's), or of the first pound of their
    authority (an officer's), or of the first pound configured."""
    caller, pounds = ctx.caller, ctx.deps.config.pounds
    if caller.phone and caller.pound is None:
        newest = await newest_case_of_owner(ctx.tx, caller.phone)
        if newest:
            return newest
    of_authority = (code for code, p in pounds.items() if p.authority == caller.authority)
    pound = caller.pound or next(of_authority, None) or next(iter(pounds), "")
    return f"{pound}-17" if pound else ""


def _owners_number(ctx: Ctx) -> str | None:
    """The number a member of the public asks from: an owner of some of a case's cattle
    is answered of their own lots (``public.owners_view``)."""
    return ctx.caller.phone if ctx.caller.role == PUBLIC else None


async def _dues(ctx: Ctx, command: o.Dues) -> public.DuesAnswer:
    return await public.dues_today(ctx.tx, ctx.deps, command.case, _owners_number(ctx))


async def _deposit(ctx: Ctx, command: o.Deposit) -> public.DepositAnswer:
    return await public.deposit_quote(ctx.tx, ctx.deps, command.case, _owners_number(ctx))


async def _status(ctx: Ctx, command: o.Status) -> public.Outcome:
    return await public.outcome(ctx.tx, ctx.deps, command.case, _owners_number(ctx))


async def _find(ctx: Ctx, command: o.Find) -> Found:
    found = await public.find_cases(ctx.tx, ctx.deps, list(command.words))
    photo: tuple[str, str] | None = None
    photo_url = ctx.deps.photo_url
    if ctx.sms and photo_url is not None and found:
        # Never a picture by SMS: a link to the first photo of the first case that has one
        # (Telegram shows the pictures themselves: ``bot.channels.telegram.photos.after_find``).
        photos = await first_photos(ctx.tx, [c.number for c in found])
        for number, row in list(photos.items())[:1]:
            photo = (number, photo_url(row.id))
    base = ctx.deps.public_url
    boards: list[str] = []
    if base and found:  # the notice boards of the authorities whose cases were found
        authorities = dict.fromkeys(ctx.deps.authority_of(case.pound) for case in found)
        boards = [base + board_path(authority) for authority in authorities]
    return Found(found, photo, boards)


async def _web(ctx: Ctx, command: o.Web) -> str | None:
    """A single-use sign-in link of the web desk, for a registered keeper, officer, admin
    (None: no public URL to put it under)."""
    token = await web_signin.issue_link(ctx.tx, ctx.caller)
    if not ctx.deps.public_url:
        return None
    return ctx.deps.public_url + signin_path(token)


async def _lang(ctx: Ctx, command: o.Lang) -> LangChosen:
    chosen = command.choice
    config = ctx.deps.config
    if ctx.sms and config.dlt.enforced and chosen not in config.sms_languages:
        # Under DLT an SMS goes out only as a template registered here: none is in a
        # language no authority of this installation uses, so the choice is refused.
        return LangChosen(chosen, sent=False)
    await _set_contact(ctx, lang=chosen)
    return LangChosen(chosen, sent=True)


async def _stop(ctx: Ctx, command: o.Stop) -> Stopped:
    await _set_contact(ctx, opted_out=True)
    caller = ctx.caller
    if caller.user_id is None or caller.phone is None:
        return Stopped(None)
    # A keeper, an officer or an admin: their duties' messages stop on this channel too.
    user = await user_row(ctx.tx, caller.user_id)
    if user is not None and user.telegram_id is not None:
        number = await contact(ctx.tx, caller.phone)
        since = number and (
            number.whatsapp_stopped_at if caller.channel == "whatsapp" else number.opted_out_at
        )
        await enqueue(  # once for this STOP (a STOP again keeps its first day)
            ctx.tx,
            key=f"stopped:{caller.channel}:u{user.id}:{since.isoformat() if since else ''}",
            channel="telegram",
            recipient=str(user.telegram_id),
            body=words.staff_stopped_elsewhere(caller.channel, ctx.tr),
            purpose="answer",
        )
        return Stopped(True)
    return Stopped(False)


async def _start(ctx: Ctx, command: o.Start) -> None:
    await _set_contact(ctx, opted_out=False)


async def _set_contact(ctx: Ctx, *, lang: str | None = None, opted_out: bool | None = None) -> None:
    """Remember a language or an opt-out, for a registered user or a telephone number."""
    tx, caller = ctx.tx, ctx.caller
    if caller.user_id is not None and lang is not None:
        user = await user_row(tx, caller.user_id)
        if user is not None:
            user.lang = lang
    if caller.phone is not None:
        await set_contact(tx, caller.phone, lang=lang, opted_out=opted_out, channel=caller.channel)


# --- pound-keepers ---------------------------------------------------------------------


async def _seize(ctx: Ctx, command: o.Seize) -> Done:
    seizure = seizure_of(command, ctx.caller, ctx.deps.local_now())
    phones = tuple(lot.owner_phone for lot in command.lots)
    seized = await report_seizure(
        ctx.tx, ctx.deps, ctx.caller, seizure, command.owner_phone, phones
    )
    return Done(seized, seized.loaded)


async def _correct(ctx: Ctx, command: o.Correct) -> Done:
    loaded = await load_for_step(ctx.tx, ctx.case(command))
    seizure = corrected(loaded.case.seizure, command)
    lot = None if command.lot is None else seizure.index_of_lot(command.lot)
    recorded = await keeping.correct_seizure(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        loaded,
        seizure,
        command.reason,
        owner_phone=command.owner_phone,
        lot=lot,
    )
    return Done(Corrected(recorded, command.owner_phone, lot), recorded.loaded)


async def _void(ctx: Ctx, command: o.Void) -> Done:
    loaded = await keeping.void_case(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), command.reason
    )
    return Done(loaded, loaded)


async def _owners_case(
    ctx: Ctx, command: o.Paid | o.Deposited | o.Refused
) -> tuple[CaseRef, keeping.Separation | None]:
    """The case an owner's step is on: with LOT n, that lot's owner's lots, separated
    into a case of their own when the case has cattle of another owner too (s.7)."""
    if command.lot is None:
        return ctx.case(command), None
    return await keeping.separate_owners_lots(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), command.lot, on=command.on
    )


async def _paid(ctx: Ctx, command: o.Paid) -> Done:
    case, separated = await _owners_case(ctx, command)
    recorded = await keeping.record_payment(
        ctx.tx, ctx.deps, ctx.caller, case, on=command.on, amount=command.amount
    )
    recorded = replace(recorded, separated=separated)
    stated = statement_of(ctx.deps, recorded.case, recorded.dues.on)
    if stated.account is None or not stated.account.paid or recorded.case.deemed_unclaimed:
        return Done(recorded, recorded.loaded)
    # The rest paid after a part sale (s.12, s.15(1)): the owner gets the account (s.15(3)).
    return Done(PaidAfterPartSale(recorded, stated), recorded.loaded)


async def _deposited(ctx: Ctx, command: o.Deposited) -> Done:
    case, separated = await _owners_case(ctx, command)
    recorded = await keeping.record_deposit(
        ctx.tx, ctx.deps, ctx.caller, case, on=command.on, amount=command.amount
    )
    recorded = replace(recorded, separated=separated)
    return Done(recorded, recorded.loaded)


async def _report(ctx: Ctx, command: o.Report) -> Done:
    recorded = await keeping.report_unclaimed(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    case = recorded.case
    pound = ctx.deps.config.pounds[case.seizure.pound]
    reported = Reported(recorded, pound.name, case.reported_on or ctx.deps.today())
    return Done(reported, recorded.loaded)


async def _refused(ctx: Ctx, command: o.Refused) -> Done:
    case, separated = await _owners_case(ctx, command)
    recorded = await keeping.record_owner_refusal(ctx.tx, ctx.deps, ctx.caller, case, on=command.on)
    recorded = replace(recorded, separated=separated)
    return Done(recorded, recorded.loaded)


async def _cases(ctx: Ctx, command: o.Cases) -> list[keeping.OpenCase]:
    return await keeping.list_open_cases(ctx.tx, ctx.deps, ctx.caller)


async def _photo(ctx: Ctx, command: o.Photo) -> Target | str:
    """PHOTO <case> [lot] with no picture: checked (a picture that came with it is kept by
    ``bot.conversation.photos``); the case, or the reply refusing it."""
    return await photo_target(ctx.tx, ctx.deps, ctx.caller, command.case, command.lot, ctx.tr)


# --- officers ----------------------------------------------------------------------------


async def _notice(ctx: Ctx, command: o.Notice) -> NoticeToPrint | Done:
    deps, tx = ctx.deps, ctx.tx
    if not command.places and command.on is None:  # the notice to print, not a record
        loaded = await tx.load_case(command.case)
        authority_code = require_officer(deps, ctx.caller, loaded)
        pound = deps.config.pounds[loaded.pound]
        village, market = officering.village_and_market_of(
            deps.config.authorities[authority_code], loaded.case.seizure.place_seized, pound
        )  # s.13(2): the village and the market nearest to the place of seizure
        authority = deps.config.authorities[authority_code]._replace(
            village=village, market_place=market
        )
        check_notice_printable(loaded.case, deps.today())
        posted = loaded.case.notice
        on = posted.on if posted is not None else deps.today()
        url = deps.notice_url(loaded.row.number, on) if deps.notice_url else None
        return NoticeToPrint(loaded, authority, pound, on, url)
    recorded = await officering.record_notice(
        tx, deps, ctx.caller, ctx.case(command), proclaimed_at=command.places, on=command.on
    )
    return Done(recorded, recorded.loaded)


async def _auction(ctx: Ctx, command: o.Auction) -> Done:
    assert command.on is not None
    recorded = await officering.schedule_auction(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        auction_on=command.on,
        place=command.place,
        expected_expenses=command.expenses,
    )
    return Done(AuctionScheduled(recorded, command.on), recorded.loaded)


async def _sold(ctx: Ctx, command: o.Sold | o.Unsold) -> Done:
    sold = command if isinstance(command, o.Sold) else None
    # s.18: the buyer's declaration is explicit (DECLARED); name and residence recorded.
    recorded, progress = await officering.record_lot(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        lot=command.lot - 1,
        count=command.count,
        price=sold.price if sold else None,
        buyer=Person(sold.buyer, sold.residence) if sold else None,
        buyer_role=None,
        declared_not_barred=sold is not None and sold.declared,
        buyer_phone=sold.buyer_phone if sold else None,
        on=command.on,
    )
    return Done(LotRecorded(recorded, progress), recorded.loaded)


async def _settle(ctx: Ctx, command: o.Settle) -> Done:
    settled = await officering.settle_sale(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        expenses=command.expenses or Money.zero(),
        on=command.on,
    )
    return Done(settled, settled.recorded.loaded)


async def _receipt(ctx: Ctx, command: o.Receipt) -> Done:
    recorded = await officering.record_account_delivered(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        received_by=command.received_by,
        on=command.on,
    )
    settled = officering.account_of(ctx.deps, recorded.case)
    assert settled is not None
    day = command.on or ctx.deps.today()
    receipt = receipt_for(settled[1], command.received_by, day)
    return Done(ReceiptGiven(recorded, receipt), recorded.loaded)


async def _account_refused(ctx: Ctx, command: o.AccountRefused) -> Done:
    recorded = await officering.record_account_refused(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    return Done(recorded, recorded.loaded)


async def _claim(ctx: Ctx, command: o.Claim) -> Done:
    recorded = await officering.claim_deposit(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        claimant=command.claimant,
        preferred_on=command.preferred_on,
        reference=command.reference,
        on=command.on,
    )
    return Done(recorded, recorded.loaded)


async def _claimed(ctx: Ctx, command: o.Claimed) -> Done:
    recorded = await officering.record_claim_preferred(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), claimant=command.claimant, on=command.on
    )
    return Done(recorded, recorded.loaded)


async def _reject(ctx: Ctx, command: o.Reject) -> Done:
    recorded = await officering.record_claim_rejected(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        reference=command.reference,
        claimant=command.claimant,
        on=command.on,
    )
    return Done(recorded, recorded.loaded)


async def _dispose(ctx: Ctx, command: o.Dispose) -> Done:
    recorded = await officering.record_other_disposal(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        lot=command.lot - 1,
        count=command.count,
        manner=command.manner,
        ordered_by=command.ordered_by,
        order_reference=command.reference,
        proceeds=command.proceeds or Money.zero(),
        on=command.on,
    )
    return Done(recorded, recorded.loaded)


async def _outcome(ctx: Ctx, command: o.Outcome) -> Done:
    recorded = await officering.record_deposit_outcome(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        returned=command.outcome == "illegal",
        reference=command.reference,
        on=command.on,
    )
    return Done(recorded, recorded.loaded)


async def _refunded(ctx: Ctx, command: o.Refunded) -> Done:
    recorded = await officering.record_refund(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    return Done(recorded, recorded.loaded)


async def _fund(ctx: Ctx, command: o.Fund) -> Done:
    recorded = await officering.credit_deposit_to_fund(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    return Done(recorded, recorded.loaded)


async def _due(ctx: Ctx, command: o.Due) -> officering.DeadlinesDue:
    return await officering.deadlines_due(ctx.tx, ctx.deps, ctx.caller)


async def _register(ctx: Ctx, command: o.Register) -> list[officering.DepositEntry]:
    return await officering.deposit_register(ctx.tx, ctx.deps, ctx.caller)


#: Commands that write nothing: no savepoint needed around them.
READ_ONLY = frozenset(
    {"help", "dues", "deposit", "status", "find", "cases", "due", "register", "photo"}
)

STEPS: dict[str, Step] = {
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
