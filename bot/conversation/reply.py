"""From a line of text to a reply: parse, run one step, word its outcome. Shared by
every channel.

SMS, the one-line Telegram commands and the console come through ``handle_text``; the
web desk's forms and the guided Telegram report send their orders to ``run_command``;
only the transport differs. The step runs on the bus (``bot.conversation.bus``: one use
case in a savepoint, and the notifications of its outcome that the composition root
registered); the answer is worded from its outcome (``bot.conversation.rendering``) in
the caller's language. Bad input and refused steps become translated replies and change
nothing (a refusal rolls the step back, with what it queued).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.config.model import ProvisoOffice
from bot.conversation import orders as o
from bot.conversation.bus import Ran, run_step
from bot.conversation.commands import Parsed, ParseError, read_line
from bot.conversation.photos import Target
from bot.conversation.rendering import RENDERERS
from bot.conversation.seizure import seizure_of
from bot.conversation.steps import Ctx, NoticeToPrint
from bot.i18n import render, reply_language, translator
from bot.i18n.catalogs import Translator
from bot.i18n.common import keyword
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.public.sms_fit import in_parts
from bot.i18n.sms_keyword import on_desk
from bot.services import public
from bot.services.base import Deps, act_of_caller, proviso_offices_of, under_its_act
from bot.store.contacts import contact_lang
from bot.store.messages import set_contact
from bot.store.tx import LoadedCase, Tx, parse_case_number
from bot.support.caller import PUBLIC, Caller
from bot.support.errors import AppError, BadInputError, UnknownCaseError
from domain.accounts import Postings
from domain.errors import DomainError
from domain.profiles import Profile

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


async def _refused_case(ctx: Ctx, command: o.Order, loaded: LoadedCase | None) -> LoadedCase | None:
    """The case a refused step was on, in whose words its refusal is and whose offices it
    names: as the channel read it, else read again (the step read it in the savepoint its
    refusal rolled back, and a refusal carries no case). None for a step on no case."""
    if not isinstance(command, o.CaseOrder) or not command.case:
        return None
    # The case's own number: the row may be expired by the rollback of the refused step.
    if loaded is not None and loaded.case.number == command.case:
        return loaded
    try:
        return await ctx.tx.load_case(command.case)
    except AppError:  # no such case: refused before the Act was asked
        return None


def _act_of(ctx: Ctx, command: o.Order, refused: LoadedCase | None) -> Profile:
    """The Act of a refused step, in whose words its refusal is: its case's. A seizure
    report opens no case: the Act the intake would give it (``under_its_act``); a step on
    no case, the Act in force today for the caller's authority."""
    if isinstance(command, o.Seize):
        return _act_of_report(ctx, command)
    if refused is not None:
        return refused.case.profile
    return act_of_caller(ctx.deps, ctx.caller)


def _act_of_report(ctx: Ctx, command: o.Seize) -> Profile:
    """The Act a seizure report would open its case under (``under_its_act``)."""
    try:
        seizure = seizure_of(command, ctx.caller, ctx.deps.local_now())
        return under_its_act(ctx.deps, seizure).profile
    except (AppError, KeyError):  # not a keeper's, or of no pound configured
        return act_of_caller(ctx.deps, ctx.caller)


def _answer_act(ctx: Ctx, ran: Ran) -> Profile:
    """The Act in whose words the answer to a step is: its case's (the case of the step,
    or the one its outcome tells of); for an answer about no one case (a list of cases,
    whose lines are each in their own case's words), the Act in force today for the
    caller's authority."""
    outcome = ran.outcome
    if ran.loaded is not None:
        return ran.loaded.case.profile
    if isinstance(outcome, NoticeToPrint | Target):
        return outcome.loaded.case.profile
    asked = public.DuesAnswer | public.DepositAnswer | public.Outcome
    if isinstance(outcome, asked) and outcome.case is not None:
        return outcome.case.profile
    return act_of_caller(ctx.deps, ctx.caller)


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
        # A line about no case yet: in the words of the Act in force for the caller's
        # authority today.
        tr = translator(lang).under(act_of_caller(deps, caller))
        with rendering_sms(sms):  # by SMS on Mobile Seva, the example has the keyword
            text = render.parse_error(exc.code, exc.facts, tr)
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
    tx.about_case = _about(command, reply)
    if more and not reply.refused:
        with rendering_sms(sms):
            others = render.more_cases_for_number(more, translator(reply.lang))
        reply = replace(reply, text=in_parts([reply.text, others]))
    return await _with_notes(tx, deps, caller, parsed, reply, sms=sms)


def _about(command: o.Order, reply: Reply) -> str | None:
    """The case a line was about (``KNM-17``): the case of its step, else the case it
    named or was taken to ask of, unless no case has that number."""
    if reply.loaded is not None:
        return reply.loaded.row.number
    if not isinstance(command, o.CaseOrder) or not command.case:
        return None
    if reply.refusal is not None and reply.refusal.code == UnknownCaseError.code:
        return None
    try:
        pound, seq = parse_case_number(command.case)
    except BadInputError:
        return None
    return f"{pound}-{seq}"


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


def _offices(
    ctx: Ctx, command: o.Order, exc: DomainError, refused: LoadedCase | None
) -> Sequence[ProvisoOffice]:
    """The offices a refusal names: for a DISPOSE whose BY names none of those that may
    order another disposal of its case (s.13(3) proviso), those of the office the case's
    Act gives the power to."""
    if exc.reason != "not_director" or not isinstance(command, o.Dispose) or refused is None:
        return ctx.deps.config.proviso_offices
    return proviso_offices_of(ctx.deps, refused.case)


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
    desk: Callable[[str, Translator], str] | None = None,
) -> Reply:
    """Run a parsed command (from a line of text, or a form of the web desk) and answer
    in ``lang``: the same use case, the same refusals, whatever the channel. ``loaded``:
    the case of the step, if the channel has already read it for update. ``trial``: the
    step is run and then undone, refused or not (nothing written, nothing queued): its
    refusal, if it has one, or the answer it would have had, the case as it was.
    ``desk``: the answer is shown on the web desk, naming a step's form (as ``desk`` words
    it) where a chat answer names the command to send; what the step tells others is not."""
    with rendering_sms(sms):  # by SMS, names are shortened to fit DLT variables
        ctx = Ctx(tx, deps, caller, translator(lang), sms, loaded)
        ran = await run_step(ctx, command, trial=trial)
    with rendering_sms(sms), on_desk(desk):
        exc, refusal = ran.refusal, None
        # The answer in the words of the Act of the case it is about (s.14, para 1 under
        # the Cattle-trespass Act, 1871).
        if isinstance(exc, DomainError):
            refused = await _refused_case(ctx, command, ran.loaded)
            tr = ctx.tr.under(_act_of(ctx, command, refused))
            text = render.error(exc, tr, _offices(ctx, command, exc, refused))
            refusal = Refusal(exc.code, exc.provision, exc.reason)
        elif isinstance(exc, AppError):
            refused = await _refused_case(ctx, command, ran.loaded)
            tr = ctx.tr.under(_act_of(ctx, command, refused))
            text, refusal = render.app_error(exc, tr), Refusal(exc.code)
        else:
            tr = ctx.tr.under(_answer_act(ctx, ran))
            answering = replace(ctx, tr=tr, told=ran.told)
            text = RENDERERS[command.name](answering, command, ran.outcome)
    return Reply(
        text,
        ctx.tr.lang,
        loaded=ran.loaded,
        refusal=refusal,
        postings=ran.postings,
        queued=ran.queued,
    )
