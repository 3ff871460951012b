"""From a line of text to a reply: parse, call one use case, render. Shared by every channel.

SMS, the one-line Telegram commands and the console all come through ``handle_text``;
only the transport differs. Bad input and refused steps become translated replies
and change nothing (each command runs in a savepoint that a refusal rolls back).

Why it is long: every command's handler, one short function each, beside the table that
dispatches them and the context they share.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, time
from typing import Any, NamedTuple

from bot.adapters.photo_store import first_photos
from bot.adapters.whatsapp_route import Template
from bot.conversation import orders as o
from bot.conversation.commands import Parsed, ParseError, read_line
from bot.conversation.photos import photo_target
from bot.conversation.seizure import (
    person_of,
    report_seizure,
    tell_owner,
    tell_owner_auction_cancelled,
)
from bot.i18n import Translator, render, reply_language, translator
from bot.i18n.common import keyword
from bot.i18n.dlt_probe import probing, rendering_sms
from bot.i18n.keepers import photos as render_photos
from bot.i18n.public.sms_fit import in_parts
from bot.notifications.case_messages import ACCOUNT, AUCTION, REPORT
from bot.notifications.notify import notify_officers, notify_phone
from bot.services import keeper as keeping
from bot.services import officer as officering
from bot.services import public, web_signin
from bot.services.base import (
    CaseRef,
    Deps,
    figures_for,
    load_for_step,
    require_officer,
    statement_of,
)
from bot.store.case_lookups import newest_case_of_owner
from bot.store.contacts import contact, contact_lang
from bot.store.messages import About, enqueue, set_contact
from bot.store.models import CaseRow
from bot.store.rows import savepoint
from bot.store.tx import LoadedCase, Tx
from bot.store.users import user as user_row
from bot.support.caller import KEEPER, PUBLIC, Caller
from bot.support.errors import AppError, NotAllowedError
from bot.support.links import SOURCE_PATH, board_path, signin_path
from domain.errors import DomainError
from domain.kinds import Kinds
from domain.ledger import Postings
from domain.money import Money
from domain.s07_seizure import Lot, Person, Seizure
from domain.s13_unclaimed import check_notice_printable
from domain.s15_3_account import Account, receipt_for

__all__ = ["Refusal", "Reply", "handle_text", "language_for", "run_command"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a message changed nothing: the stable code of what refused it, the provision
    it enforces (None: not a rule of the Act) and the reason's key, if it gives one."""

    code: str
    provision: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    """The outcome of one message: the answer in words, the language it is in, and what
    the step did. A channel renders this; it never reads the case again to learn it."""

    text: str
    lang: str
    #: The case the step was taken on, as it is after the step (as it was, if refused);
    #: None for a word that is not a step on one case.
    loaded: LoadedCase | None = None
    #: Why the step was refused; None if it was not.
    refusal: Refusal | None = None
    #: The ledger postings the step wrote, event by event (``domain.ledger``).
    postings: tuple[Postings, ...] = ()
    #: The idempotency keys of the messages the step queued (the outbox).
    queued: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        return self.refusal is not None


class _Done(NamedTuple):
    """What a step's handler returns: its answer and the case after it."""

    text: str
    loaded: LoadedCase


@dataclass(frozen=True, slots=True)
class _Ctx:
    tx: Tx
    deps: Deps
    caller: Caller
    tr: Translator
    sms: bool
    #: The case the channel already read for this step (for update), if it did.
    loaded: LoadedCase | None = None

    def case(self, command: o.CaseOrder) -> CaseRef:
        """The case ``command`` is a step on: as the channel read it, or its number."""
        if self.loaded is not None and self.loaded.row.number == command.case:
            return self.loaded
        return _case(command)

    @property
    def kinds(self) -> Kinds:
        return self.deps.config.kinds

    def default_lang(self, pound: str) -> str:
        return reply_language(pound=self.deps.config.pounds.get(pound))


#: A handler takes the order of its command (``_HANDLERS``: each its own).
Handler = Callable[[_Ctx, Any], Awaitable[str | _Done]]


async def _number_lang(tx: Tx, caller: Caller) -> str | None:
    """The language a member of the public chose for their number (``LANG``), if any."""
    if caller.lang or not caller.phone or caller.role != "public":
        return None
    chosen = caller.number_lang
    if chosen is None:  # not read with the caller
        chosen = await contact_lang(tx, caller.phone)
    return chosen or None


async def language_for(tx: Tx, deps: Deps, caller: Caller, text: str) -> str:
    """The language to answer ``text`` in (``bot.i18n.language``): the caller's choice, or
    their number's for a member of the public, before the script of the text."""
    return reply_language(
        caller.lang,
        await _number_lang(tx, caller),
        text=text,
        pound=deps.config.pounds.get(caller.pound or ""),
        authority=deps.config.authorities.get(caller.authority or ""),
    )


async def handle_text(tx: Tx, deps: Deps, caller: Caller, text: str, *, sms: bool) -> Reply:
    """Answer one line from ``caller``: never raises for anything the user typed.

    A word in Malayalam (or Tamil, Kannada) gets a reply in that language. The first
    reply to a number of the public that wrote a Malayalam word in Latin letters
    (``pizha KNM-1``) sets Malayalam for the number and says how to change it (``LANG
    en``); a word read as the one-letter-away command word says so. Both notes are left
    out of an SMS that must match a DLT template (``[dlt]``): the registered texts have
    no room for them."""
    lang = await language_for(tx, deps, caller, text)
    try:
        parsed = read_line(text, deps.config, deps.today())
    except ParseError as exc:
        with rendering_sms(sms):  # by SMS on Mobile Seva, the example has the keyword
            text = render.parse_error(exc.code, exc.facts, translator(lang))
        return Reply(text, lang, refusal=Refusal(exc.code))
    command = parsed.order
    # A keyword in Malayalam gets a Malayalam reply; in Latin letters (``pizha``), unless
    # the number chose a language.
    if (
        not caller.lang
        and command.lang != "en"
        and (not parsed.typed.isascii() or await _number_lang(tx, caller) is None)
    ):
        lang = command.lang
    more = 0
    if isinstance(command, o.CaseOrder) and not command.case:
        found = await _own_case(tx, caller)
        if found is None:  # staff, or no telephone number: the case number is needed
            with rendering_sms(sms):
                text = render.parse_error("missing_case", {}, translator(lang))
            return Reply(text, lang, refusal=Refusal("missing_case"))
        if not found[0]:
            with rendering_sms(sms):
                return Reply(render.no_case_for_number(translator(lang)), lang)
        command, more = replace(command, case=found[0][0]), found[1] - 1
    reply = await run_command(tx, deps, caller, command, lang, sms=sms)
    if more and not reply.refused:
        with rendering_sms(sms):
            others = render.more_cases_for_number(more, translator(reply.lang))
        reply = replace(reply, text=in_parts([reply.text, others]))
    return await _with_notes(tx, deps, caller, parsed, reply, sms=sms)


async def _own_case(tx: Tx, caller: Caller) -> tuple[list[str], int] | None:
    """An owner's question without a case number (``DUES``) is about the newest open
    case that names the sender's number: that case (and how many name it in all), no
    case, or None for staff and a sender without a telephone number, who must name
    the case."""
    if caller.role != PUBLIC or caller.phone is None:
        return None
    return await tx.open_cases_naming(caller.phone, 1)


async def _with_notes(
    tx: Tx, deps: Deps, caller: Caller, parsed: Parsed, reply: Reply, *, sms: bool
) -> Reply:
    """``reply`` with what the word was read as, and, to a number of the public that
    wrote Malayalam in Latin letters and chose no language, Malayalam set for it."""
    notes: list[str] = []
    # An SMS under DLT carries registered texts only (WhatsApp has no DLT).
    free = not sms or not deps.config.dlt.enforced or caller.channel == "whatsapp"
    with rendering_sms(sms):
        tr = translator(reply.lang)
        if parsed.read_as is not None and free:
            notes.append(render.read_as(parsed.typed, parsed.order.name, tr))
        manglish = (
            parsed.in_latin_letters
            and parsed.order.name != "lang"
            and not reply.refused
            and caller.role == "public"
            and caller.phone is not None
            and await _number_lang(tx, caller) is None
        )
        text = in_parts([*notes, reply.text])
        if manglish:
            assert caller.phone is not None
            await set_contact(tx, caller.phone, lang="ml", channel=caller.channel)
            # A registered text, with LANG as the sender writes it: "send LANG en".
            hint = render.lang_set(tr, command=keyword("lang", "en"))
            text = in_parts([text, hint])
    return replace(reply, text=text) if text != reply.text else reply


async def run_command(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    command: o.Order,
    lang: str,
    *,
    sms: bool,
    loaded: LoadedCase | None = None,
    trial: bool = False,
) -> Reply:
    """Run a parsed command (from a line of text, or a form of the web desk) and answer
    in ``lang``: the same use case, the same refusals, whatever the channel. ``loaded``:
    the case of the step, if the channel has already read it for update. ``trial``: the
    step is run and then undone, refused or not (nothing written, nothing queued): its
    refusal, if it has one, or the answer it would have had, the case as it was."""
    with rendering_sms(sms):  # by SMS, names are shortened to fit DLT variables
        return await _run(
            tx,
            deps,
            caller,
            command,
            _Ctx(tx, deps, caller, translator(lang), sms, loaded),
            trial=trial,
        )


async def _run(
    tx: Tx, deps: Deps, caller: Caller, command: o.Order, ctx: _Ctx, *, trial: bool
) -> Reply:
    loaded = ctx.loaded
    handler = _HANDLERS[command.name]
    posted, queued = len(tx.posted), len(tx.queued)
    refusal: Refusal | None = None
    try:
        if command.name in _READ_ONLY:
            done = await handler(ctx, command)
        else:  # a refusal rolls back whatever the step had written; a trial, always
            async with savepoint(tx) as step:
                done = await handler(ctx, command)
                if trial:
                    await step.rollback()
    except DomainError as exc:
        text = render.error(exc, ctx.tr, ctx.deps.config.proviso_offices)
        done, refusal = text, Refusal(exc.code, exc.provision, exc.reason)
    except AppError as exc:
        done, refusal = render.app_error(exc, ctx.tr), Refusal(exc.code)
    if refusal is not None or trial:  # rolled back: nothing was written nor queued
        del tx.posted[posted:], tx.queued[queued:]
    after: LoadedCase | None = loaded
    if isinstance(done, _Done):
        text = done.text
        if not trial:  # a trial leaves the case as it was
            after = done.loaded
    else:
        text = done
    return Reply(
        text,
        ctx.tr.lang,
        loaded=after,
        refusal=refusal,
        postings=tuple(tx.posted[posted:]),
        queued=tuple(tx.queued[queued:]),
    )


# --- anyone --------------------------------------------------------------------------


async def _help(ctx: _Ctx, command: o.Help) -> str:
    source = f"{ctx.deps.public_url}{SOURCE_PATH}" if ctx.deps.public_url else ""
    example = await _example_case(ctx)
    return render.help_text(ctx.caller.role, ctx.tr, ctx.sms, source_url=source, example=example)


async def _example_case(ctx: _Ctx) -> str:
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


async def _dues(ctx: _Ctx, command: o.Dues) -> str:
    answer = await public.dues_today(ctx.tx, ctx.deps, _case(command))

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


async def _deposit(ctx: _Ctx, command: o.Deposit) -> str:
    answer = await public.deposit_quote(ctx.tx, ctx.deps, _case(command))
    return render.deposit_reply(answer.deposit, answer.case, ctx.tr, ctx.sms, kinds=ctx.kinds)


async def _status(ctx: _Ctx, command: o.Status) -> str:
    answer = await public.outcome(ctx.tx, ctx.deps, _case(command))
    return render.status_reply(answer, ctx.tr, ctx.sms, kinds=ctx.kinds)


async def _find(ctx: _Ctx, command: o.Find) -> str:
    found = await public.find_cases(ctx.tx, ctx.deps, list(command.words))
    text = render.search_results(found, ctx.tr, ctx.sms, kinds=ctx.kinds)
    photo_url = ctx.deps.photo_url
    if ctx.sms and photo_url is not None and found:
        # Never a picture by SMS: a link to the first photo of the first case that has one
        # (Telegram shows the pictures themselves: ``bot.channels.telegram.photos.after_find``).
        photos = await first_photos(ctx.tx, [c.number for c in found])
        for number, row in list(photos.items())[:1]:
            text = in_parts([text, render_photos.photo_link(number, photo_url(row.id), ctx.tr)])
    base = ctx.deps.public_url
    if not base or not found:
        return text
    # The notice boards of the authorities whose cases were found (bot.web.board).
    boards = dict.fromkeys(ctx.deps.authority_of(case.pound) for case in found)
    links = [base + board_path(authority) for authority in boards]
    return render.with_board_links(text, links, ctx.tr, ctx.sms)


async def _web(ctx: _Ctx, command: o.Web) -> str:
    """A single-use sign-in link of the web desk, for a registered keeper, officer, admin."""
    token = await web_signin.issue_link(ctx.tx, ctx.caller)
    if not ctx.deps.public_url:
        return render.web_link_unavailable(ctx.tr)
    return render.web_link(ctx.deps.public_url + signin_path(token), ctx.tr)


async def _lang(ctx: _Ctx, command: o.Lang) -> str:
    chosen = command.choice
    config = ctx.deps.config
    if ctx.sms and config.dlt.enforced and chosen not in config.sms_languages:
        # Under DLT an SMS goes out only as a template registered here: none is in a
        # language no authority of this installation uses, so the choice is refused.
        return render.lang_not_sent(config.sms_languages, ctx.tr)
    await _set_contact(ctx, lang=chosen)
    return render.lang_set(translator(chosen))


async def _stop(ctx: _Ctx, command: o.Stop) -> str:
    await _set_contact(ctx, opted_out=True)
    caller = ctx.caller
    if caller.user_id is None or caller.phone is None:
        return render.stopped(ctx.tr)
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
            body=render.staff_stopped_elsewhere(caller.channel, ctx.tr),
            purpose="answer",
        )
        return render.staff_stopped(caller.channel, on_telegram=True, tr=ctx.tr)
    return render.staff_stopped(caller.channel, on_telegram=False, tr=ctx.tr)


async def _start(ctx: _Ctx, command: o.Start) -> str:
    await _set_contact(ctx, opted_out=False)
    return render.started(ctx.tr)


async def _set_contact(
    ctx: _Ctx, *, lang: str | None = None, opted_out: bool | None = None
) -> None:
    """Remember a language or an opt-out, for a registered user or a telephone number."""
    tx, caller = ctx.tx, ctx.caller
    if caller.user_id is not None and lang is not None:
        user = await user_row(tx, caller.user_id)
        if user is not None:
            user.lang = lang
    if caller.phone is not None:
        await set_contact(tx, caller.phone, lang=lang, opted_out=opted_out, channel=caller.channel)


def _case(command: o.CaseOrder) -> str:
    return command.case


# --- pound-keepers ---------------------------------------------------------------------


async def _seize(ctx: _Ctx, command: o.Seize) -> _Done:
    caller, deps = ctx.caller, ctx.deps
    if caller.role != KEEPER or caller.pound is None:
        raise NotAllowedError("only a pound-keeper reports a seizure")
    now = deps.local_now()
    day = command.on or now.date()
    # Without an hour, a report of today is taken as brought now; of an earlier day, the
    # hour is unknown and not shown.
    hour_known = command.at is not None or day == now.date()
    hour = command.at or (now.time() if day == now.date() else time())
    seizure = Seizure(
        pound=caller.pound,
        lots=tuple(Lot(lot.kind, lot.count, lot.description) for lot in command.lots),
        place_seized=command.place,
        brought_at=datetime.combine(day, hour.replace(second=0, microsecond=0)),
        seizer=person_of(command.seizer),
        owner=person_of(command.owner),
        seized_on=command.seized_on,
        hour_known=hour_known,
    )
    seized = await report_seizure(ctx.tx, deps, caller, seizure, command.owner_phone)
    text = render.seizure_ack(
        seized.case,
        seized.dues,
        seized.daily,
        ctx.tr,
        ctx.sms,
        kinds=ctx.kinds,
        pound_name=seized.pound_name,
        owner_sms=seized.owner_sms,
    )
    return _Done(text, seized.loaded)


def _corrected(seizure: Seizure, command: o.Correct) -> Seizure:
    """The seizure report with the one fact ``command`` corrects (s.7)."""
    field = command.fact
    if field == "cattle":
        # A lot written without a description keeps the one it had, if of the same kind.
        old = seizure.lots
        lots = tuple(
            Lot(
                lot.kind,
                lot.count,
                lot.description
                or (old[i].description if i < len(old) and old[i].kind == lot.kind else ""),
            )
            for i, lot in enumerate(command.lots)
        )
        return replace(seizure, lots=lots)
    if field == "place":
        return replace(seizure, place_seized=command.text)
    if field == "brought":
        assert command.on is not None
        brought = datetime.combine(command.on, command.at or time())
        return replace(seizure, brought_at=brought, hour_known=command.at is not None)
    if field == "seized":
        return replace(seizure, seized_on=command.seized_on)
    if field == "seizer":
        return replace(seizure, seizer=person_of(command.text))
    return replace(seizure, owner=person_of(command.owner) or seizure.owner)


async def _correct(ctx: _Ctx, command: o.Correct) -> _Done:
    loaded = await load_for_step(ctx.tx, ctx.case(command))
    seizure = _corrected(loaded.case.seizure, command)
    recorded = await keeping.correct_seizure(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        loaded,
        seizure,
        command.reason,
        owner_phone=command.owner_phone,
    )
    text = render.correction_recorded(statement_of(ctx.deps, recorded.case), ctx.tr, ctx.sms)
    cancelled = await tell_owner_auction_cancelled(ctx.tx, ctx.deps, recorded.loaded)
    if cancelled is not None:  # the notice superseded, the auction fixed on it cancelled
        with rendering_sms(ctx.sms):
            text = in_parts([text, render.owner_sms_line(cancelled, ctx.tr)])
    if command.owner_phone is None:
        return _Done(text, recorded.loaded)
    case = recorded.case
    key = f"intake:{case.number}:{command.owner_phone}"
    told = await tell_owner(ctx.tx, ctx.deps, case, recorded.dues, command.owner_phone, key)
    # By SMS what the owner is told is an SMS of its own (a template of its own).
    with rendering_sms(ctx.sms):
        text = in_parts([text, render.owner_sms_line(told, ctx.tr)])
    return _Done(text, recorded.loaded)


async def _void(ctx: _Ctx, command: o.Void) -> _Done:
    loaded = await keeping.void_case(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), command.reason
    )
    return _Done(render.case_voided(statement_of(ctx.deps, loaded.case), ctx.tr), loaded)


async def _paid(ctx: _Ctx, command: o.Paid) -> _Done:
    recorded = await keeping.record_payment(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on, amount=command.amount
    )
    stated = statement_of(ctx.deps, recorded.case, recorded.dues.on)
    if stated.account is None or not stated.account.paid or recorded.case.deemed_unclaimed:
        text = render.payment_recorded(recorded.case, recorded.dues, ctx.tr, ctx.sms)
        return _Done(text, recorded.loaded)
    # The rest paid after a part sale (s.12, s.15(1)): the owner gets the account (s.15(3)).
    await _tell_owner_account(ctx, recorded.loaded.row, stated.account)
    text = render.paid_after_part_sale(stated, ctx.tr, ctx.sms)
    return _Done(text, recorded.loaded)


async def _deposited(ctx: _Ctx, command: o.Deposited) -> _Done:
    recorded = await keeping.record_deposit(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on, amount=command.amount
    )
    by = statement_of(ctx.deps, recorded.case).complaint_by
    text = render.deposit_recorded(
        recorded.case, recorded.dues, by, ctx.tr, ctx.sms, today=ctx.deps.today()
    )
    return _Done(text, recorded.loaded)


async def _report(ctx: _Ctx, command: o.Report) -> _Done:
    recorded = await keeping.report_unclaimed(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    case = recorded.case
    pound = ctx.deps.config.pounds[case.seizure.pound]
    reported_on = case.reported_on or ctx.deps.today()
    authority = ctx.deps.authority_of(pound.code)
    await notify_officers(
        ctx.tx,
        authority,
        f"report:{case.number}",
        lambda tr: render.report_to_officer(case, pound.name, reported_on, tr),
        ctx.deps.config.authorities[authority].default_language,
        ctx.deps.config.whatsapp_templates,
        about=About(REPORT, case.number, ""),
    )
    return _Done(render.report_sent(statement_of(ctx.deps, case), ctx.tr, ctx.sms), recorded.loaded)


async def _refused(ctx: _Ctx, command: o.Refused) -> _Done:
    recorded = await keeping.record_owner_refusal(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    text = render.owner_refusal_recorded(statement_of(ctx.deps, recorded.case), ctx.tr, ctx.sms)
    return _Done(text, recorded.loaded)


async def _cases(ctx: _Ctx, command: o.Cases) -> str:
    items = await keeping.list_open_cases(ctx.tx, ctx.deps, ctx.caller)
    return render.open_cases(items, ctx.tr, ctx.sms, kinds=ctx.kinds)


# --- officers ----------------------------------------------------------------------------


async def _notice(ctx: _Ctx, command: o.Notice) -> str | _Done:
    deps, tx = ctx.deps, ctx.tx
    if not command.places and command.on is None:  # the notice to print, not a record
        loaded = await tx.load_case(_case(command))
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
        if ctx.sms:  # by SMS what the notice says in brief, and the link to print it
            url = deps.notice_url(loaded.row.number, on) if deps.notice_url else None
            return render.notice_ready(loaded.case, on, url, ctx.tr)
        figures = figures_for(deps, loaded.case)
        parts = [
            render.notice_text(loaded.case, authority, pound, on, ctx.tr, figures=figures),
            render.proclamation_script(loaded.case, authority, pound, on, ctx.tr, figures=figures),
        ]
        if deps.notice_url is not None:
            parts.append(deps.notice_url(loaded.row.number, on))
        return "\n\n".join(parts)
    recorded = await officering.record_notice(
        tx, deps, ctx.caller, ctx.case(command), proclaimed_at=command.places, on=command.on
    )
    return _Done(render.notice_recorded(recorded.case, ctx.tr), recorded.loaded)


async def _auction(ctx: _Ctx, command: o.Auction) -> _Done:
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
    row, fixed = recorded.loaded.row, recorded.case.scheduled_auction
    if fixed and row.owner_phone and command.on >= ctx.deps.today():  # not one already held
        number, day, place = row.number, command.on, fixed.place  # as the step recorded it
        await notify_phone(
            ctx.tx,
            row.owner_phone,
            f"auction:{number}:{day.isoformat()}",
            lambda tr: render.auction_sms(number, day, place, tr),
            ctx.default_lang(row.pound_code),
            ctx.deps.config.reminders,
            template=lambda tr: Template(
                "owner_auction", render.auction_values(number, day, place, tr)
            ),
            templates=ctx.deps.config.whatsapp_templates,
            about=About(AUCTION, number, "", day.isoformat()),
        )
    return _Done(render.auction_scheduled(recorded.case, ctx.tr), recorded.loaded)


async def _sold(ctx: _Ctx, command: o.Sold | o.Unsold) -> _Done:
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
    text = render.lot_recorded(statement_of(ctx.deps, recorded.case), progress, ctx.tr)
    return _Done(text, recorded.loaded)


async def _settle(ctx: _Ctx, command: o.Settle) -> _Done:
    settled = await officering.settle_sale(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        expenses=command.expenses or Money.zero(),
        on=command.on,
    )
    if isinstance(settled, officering.ShortOfDues):
        text = render.sale_short(settled.recorded.case, settled.expenses, settled.short, ctx.tr)
        return _Done(text, settled.recorded.loaded)
    await _tell_owner_account(ctx, settled.recorded.loaded.row, settled.account)
    return _Done(
        render.settled_reply(settled.settlement, settled.account, ctx.tr), settled.recorded.loaded
    )


async def _tell_owner_account(ctx: _Ctx, row: CaseRow, account: Account) -> None:
    """The owner, if their number is known, gets the s.15(3) account of the sale."""
    if not row.owner_phone:
        return
    await notify_phone(
        ctx.tx,
        row.owner_phone,
        f"account:{row.number}",
        lambda tr: render.account_sms(account, tr),
        ctx.default_lang(row.pound_code),
        ctx.deps.config.reminders,
        template=lambda tr: Template("owner_account", (row.number,)),
        templates=ctx.deps.config.whatsapp_templates,
        about=About(ACCOUNT, row.number, ""),
    )


async def _receipt(ctx: _Ctx, command: o.Receipt) -> _Done:
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
    text = render.receipt_text(receipt_for(settled[1], command.received_by, day), ctx.tr)
    return _Done(text, recorded.loaded)


async def _account_refused(ctx: _Ctx, command: o.AccountRefused) -> _Done:
    recorded = await officering.record_account_refused(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    text = render.account_refused_reply(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _claim(ctx: _Ctx, command: o.Claim) -> _Done:
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
    text = render.claim_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _claimed(ctx: _Ctx, command: o.Claimed) -> _Done:
    recorded = await officering.record_claim_preferred(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), claimant=command.claimant, on=command.on
    )
    text = render.claim_preferred_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _reject(ctx: _Ctx, command: o.Reject) -> _Done:
    recorded = await officering.record_claim_rejected(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        reference=command.reference,
        claimant=command.claimant,
        on=command.on,
    )
    text = render.claim_rejected_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _dispose(ctx: _Ctx, command: o.Dispose) -> _Done:
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
    offices = ctx.deps.config.proviso_offices
    stated = statement_of(ctx.deps, recorded.case)
    return _Done(render.other_disposal_recorded(stated, ctx.tr, offices), recorded.loaded)


async def _outcome(ctx: _Ctx, command: o.Outcome) -> _Done:
    recorded = await officering.record_deposit_outcome(
        ctx.tx,
        ctx.deps,
        ctx.caller,
        ctx.case(command),
        returned=command.outcome == "illegal",
        reference=command.reference,
        on=command.on,
    )
    text = render.deposit_outcome_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _refunded(ctx: _Ctx, command: o.Refunded) -> _Done:
    recorded = await officering.record_refund(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    text = render.refund_recorded(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _fund(ctx: _Ctx, command: o.Fund) -> _Done:
    recorded = await officering.credit_deposit_to_fund(
        ctx.tx, ctx.deps, ctx.caller, ctx.case(command), on=command.on
    )
    text = render.fund_credited(statement_of(ctx.deps, recorded.case), ctx.tr)
    return _Done(text, recorded.loaded)


async def _due(ctx: _Ctx, command: o.Due) -> str:
    items = await officering.deadlines_due(ctx.tx, ctx.deps, ctx.caller)
    # By SMS under DLT, the case numbers under each heading: one of a few templates.
    compact = ctx.sms and ctx.deps.config.dlt.enforced
    return render.digest(items, ctx.deps.today(), ctx.tr, compact=compact)


async def _register(ctx: _Ctx, command: o.Register) -> str:
    entries = await officering.deposit_register(ctx.tx, ctx.deps, ctx.caller)
    return render.deposit_register_text(entries, ctx.deps.today(), ctx.tr)


async def _photo(ctx: _Ctx, command: o.Photo) -> str:
    """PHOTO <case> [lot] with no picture: checked, and the keeper told how to send one
    (a picture that came with it is kept by ``bot.conversation.photos``)."""
    target = await photo_target(ctx.tx, ctx.deps, ctx.caller, _case(command), command.lot, ctx.tr)
    if isinstance(target, str):
        return target
    return render_photos.photo_missing(target.loaded.case.number, ctx.tr)


#: Commands that write nothing: no savepoint needed around them.
_READ_ONLY = frozenset(
    {"help", "dues", "deposit", "status", "find", "cases", "due", "register", "photo"}
)

_HANDLERS: dict[str, Handler] = {
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
