"""PTB handlers of the Telegram channel: one ``async def verb(update, context)`` each.

Routing, first match wins (private chats only)::

    /start [code]            start            bind an invite, or explain to a stranger
    /lang [code], lang:*     language         the four languages as buttons
    /seize                   seize            the guided report (seize)
    /seize <line>            seize            the one-line form, through the dispatcher
    /photo <case> [lot]      photo_command    the photos that follow are of that case
    /cancel                  cancel           drop the report being written
    seize:* buttons          report_button    the guided report
    sold:declared:*          declared_button  SOLD again with the buyer's declaration (s.18)
    other buttons            stale_button
    a location               location         the report in progress
    a photo, a document      photo            the report in progress, else the case its
                                              caption or /photo names (photos)
    text                     text_message     the report in progress, else the reply
    any other /command       command          the reply (``bot.conversation.reply``)

Each handler reaches the update's transaction and caller through ``context.turn``;
``on_error`` keeps a handler's exception so the webhook rolls the update back.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import replace
from typing import Any, Final

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.channels.identity import caller_of
from bot.channels.limits import WRONG_INVITE
from bot.channels.telegram import photos
from bot.channels.telegram import seize as report
from bot.channels.telegram.menus import menu
from bot.channels.telegram.outbox import Button, Keyboard
from bot.channels.telegram.sender import CHANNEL
from bot.channels.telegram.turn import PoundContext, Turn, current_turn
from bot.config.names import local
from bot.conversation.reply import Reply, handle_text
from bot.i18n import LANGUAGES, render, translator
from bot.i18n.chrome import telegram as text
from bot.i18n.refusals import sale as refusals
from bot.services.admin import accept_invite
from bot.services.base import act_of_caller
from bot.store.rows import savepoint
from bot.store.senders import set_user_lang
from bot.support.caller import KEEPER, OFFICER
from bot.support.errors import InviteInvalidError
from domain.errors import BuyerNotDeclaredError

__all__ = ["add_handlers", "to_line", "wanted_photo"]

log = logging.getLogger("poundbot.telegram")

#: Telegram commands whose word means something else to the one-line parser:
#: /due lists an officer's deadlines, while "DUE?" asks what is owed on a case.
_ALIASES: Final = {"due": "DEADLINES"}


def to_line(typed: str) -> str:
    """A Telegram command as a one-line command: ``/case@poundbot KNM-1`` -> ``case KNM-1``."""
    first, _, rest = typed.strip().partition(" ")
    if not first.startswith("/"):
        return typed.strip()
    word = first[1:].split("@", 1)[0]
    word = _ALIASES.get(word.lower(), word)
    return f"{word} {rest.strip()}".strip()


#: The chat state of a SOLD line waiting for the buyer's declaration (s.18).
DECLARE_FLOW: Final = "sold"


async def _dispatch(turn: Turn, line: str) -> None:
    reply = await handle_text(turn.tx, turn.deps, turn.caller, line, sms=False)
    await turn.send(reply.text, inline=await _declaration_asked(turn, line, reply))
    await photos.after_find(turn, line)  # a FIND answer shows the cases' photos


async def _declaration_asked(turn: Turn, line: str, reply: Reply) -> Keyboard:
    """A SOLD refused for want of the buyer's declaration (s.18): keep the line, and
    offer a button that confirms the declaration, listing who may not buy."""
    if reply.refusal is None or reply.refusal.code != BuyerNotDeclaredError.code:
        return ()
    tr, classes = translator(reply.lang), turn.deps.config.barred_buyers
    (await turn.chat()).put(DECLARE_FLOW, {"line": line})
    data = f"{DECLARE_FLOW}:declared:{_line_key(line)}"
    return ((Button(refusals.declared_button(classes, tr), data),),)


def _line_key(line: str) -> str:
    """A short key of a kept line: a button confirms only the line it was offered for."""
    return hashlib.sha256(line.encode()).hexdigest()[:12]


def _place(turn: Turn) -> str:
    """The caller's pound or authority, named in the caller's language."""
    config, caller = turn.deps.config, turn.caller
    pound = config.pounds.get(caller.pound or "")
    authority = config.authorities.get(caller.authority or "")
    if caller.role == KEEPER and pound is not None:
        return local(pound.name, turn.tr.lang)
    if caller.role == OFFICER and authority is not None:
        return local(authority.name, turn.tr.lang)
    return ""


# --- onboarding ------------------------------------------------------------------------


async def start(update: Update, context: PoundContext) -> None:
    """/start [invite code]: bind an invited account, else say who you are to poundbot."""
    turn, user = context.turn, update.effective_user
    if user is None:
        return
    if context.args:
        try:
            async with savepoint(turn.tx):
                account = await accept_invite(
                    turn.tx,
                    turn.deps,
                    context.args[0][:64],
                    telegram_id=user.id,
                    name=user.full_name,
                    lang=turn.caller.lang,
                )
        except InviteInvalidError:
            turn.penalty += WRONG_INVITE - 1  # guessing codes is slowed down
            await turn.send(text.invite_refused(user.id, turn.tr))
            return
        turn.caller = replace(caller_of(account, CHANNEL), lang=account.lang or turn.caller.lang)
        await turn.send(text.welcome(account.role, account.name, _place(turn), turn.tr))
        await turn.menu(_menu(turn, account.role))
        return
    if turn.caller.user_id is None:
        await turn.send(text.stranger(user.id, turn.tr))
    else:
        await turn.send(text.registered(turn.caller.role, _place(turn), turn.tr))


def _menu(turn: Turn, role: str) -> list[tuple[str, str]]:
    """The menu of ``role`` in the caller's language, in the words of the Act in force
    for their authority (whom a keeper reports unclaimed cattle to)."""
    return menu(role, turn.tr.under(act_of_caller(turn.deps, turn.caller)))


def _language_buttons() -> tuple[tuple[Button, ...], ...]:
    buttons = [Button(name, f"lang:{code}") for code, name in text.LANGUAGE_NAMES.items()]
    return (tuple(buttons[:2]), tuple(buttons[2:]))


async def _set_language(turn: Turn, lang: str) -> None:
    if turn.caller.user_id is not None:
        await set_user_lang(turn.tx, turn.caller.user_id, lang)
    else:
        (await turn.chat()).set_lang(lang)
    turn.set_lang(lang)
    await turn.menu(_menu(turn, turn.caller.role))


async def language(update: Update, context: PoundContext) -> None:
    """/lang [ml|en|ta|kn]: set the language, or offer the four as buttons."""
    turn = context.turn
    choice = context.args[0][:2].lower() if context.args else ""
    if choice in LANGUAGES:
        await _set_language(turn, choice)
        await turn.send(render.lang_set(turn.tr))
        return
    await turn.send(text.choose_language(turn.tr), inline=_language_buttons())


async def language_chosen(update: Update, context: PoundContext) -> None:
    """A language button: remember the choice and answer in that language."""
    turn, query = context.turn, update.callback_query
    assert query is not None
    choice = (query.data or "").partition(":")[2]
    if choice not in LANGUAGES:
        await turn.answer(query.id, text.stale_button(turn.tr))
        return
    await turn.answer(query.id)
    await _set_language(turn, choice)
    if query.message is not None:
        await turn.edit(query.message.message_id, render.lang_set(turn.tr))
    else:
        await turn.send(render.lang_set(turn.tr))


# --- the report and the one-line commands -----------------------------------------------


async def seize(update: Update, context: PoundContext) -> None:
    """/seize: the guided report; /seize <cattle> at <place> ...: the one-line form."""
    turn, message = context.turn, update.effective_message
    if context.args and message is not None and message.text:
        await _dispatch(turn, to_line(message.text))
        return
    await report.begin(turn)


async def cancel(update: Update, context: PoundContext) -> None:
    """/cancel: drop the report being written."""
    turn = context.turn
    if not await report.cancel(turn):
        await turn.send(text.nothing_to_cancel(turn.tr))


async def report_button(update: Update, context: PoundContext) -> None:
    """A button of the guided report."""
    query = update.callback_query
    assert query is not None
    message = query.message
    shown = getattr(message, "text", None) or ""  # an inaccessible message has no text
    message_id = message.message_id if message is not None else None
    await report.on_button(context.turn, query.id, query.data or "", message_id, shown)


async def declared_button(update: Update, context: PoundContext) -> None:
    """The buyer declared they are not barred (s.18): the kept SOLD line, with DECLARED."""
    turn, query = context.turn, update.callback_query
    assert query is not None
    chat = await turn.chat()
    kept = chat.data(DECLARE_FLOW)
    line = kept.get("line") if kept else None
    if not isinstance(line, str) or query.data != f"{DECLARE_FLOW}:declared:{_line_key(line)}":
        await turn.answer(query.id, text.stale_button(turn.tr))
        return
    chat.end()
    await turn.answer(query.id)
    shown = getattr(query.message, "text", None)
    if query.message is not None and shown:
        await turn.edit(query.message.message_id, shown)  # the button is gone
    await _dispatch(turn, f"{line} DECLARED")


async def stale_button(update: Update, context: PoundContext) -> None:
    """A button poundbot no longer knows."""
    query = update.callback_query
    assert query is not None
    await context.turn.answer(query.id, text.stale_button(context.turn.tr))


async def location(update: Update, context: PoundContext) -> None:
    """A shared location: the place of seizure of the report in progress."""
    turn, message = context.turn, update.effective_message
    if message is None or message.location is None:
        return
    if (await turn.chat()).flow != report.FLOW:
        return
    await report.on_location(turn, message.location.latitude, message.location.longitude)


async def photo(update: Update, context: PoundContext) -> None:
    """A photo (or a file sent as a document): downloaded and kept with the report in
    progress, or with the case its caption (``/photo KNM-17``) or the ``/photo`` before
    it names."""
    turn, message = context.turn, update.effective_message
    sent = photos.Sent.of(message) if message is not None else None
    if message is None or sent is None:
        return
    chat = await turn.chat()
    if chat.flow == report.FLOW:
        if photos.in_report(chat.data(report.FLOW) or {}, sent):
            await report.on_photo(turn, photos.already(sent))  # not downloaded again
            return
        await report.on_photo(turn, await photos.picture(turn, sent, store=True))
        return
    await photos.on_photo(turn, sent, message.caption or "")


async def wanted_photo(turn: Turn, update: Update) -> photos.Sent | None:
    """The picture ``photo`` will want downloaded for ``update``, found by reading what
    decides it (the report in progress, ``photos.destination``), not by handling it:
    one for the report that it does not hold yet, or one a case is named for."""
    message = update.effective_message
    sent = photos.Sent.of(message) if message is not None else None
    if message is None or sent is None or not _PHOTOS.check_update(update):
        return None
    chat = await turn.chat()
    if chat.flow == report.FLOW:
        return None if photos.in_report(chat.data(report.FLOW) or {}, sent) else sent
    where = await photos.destination(turn, sent, message.caption or "")
    return None if isinstance(where, str) else sent


async def photo_command(update: Update, context: PoundContext) -> None:
    """``/photo KNM-17 [lot]``: the photos that follow are of that case."""
    turn, message = context.turn, update.effective_message
    if message is None or not message.text:
        return
    line = to_line(message.text)
    if (await turn.chat()).flow == report.FLOW or not await photos.begin(turn, line):
        await _dispatch(turn, line)


async def text_message(update: Update, context: PoundContext) -> None:
    """Typed text: an answer to the report in progress, else a one-line command."""
    turn, message = context.turn, update.effective_message
    if message is None or not message.text:
        return
    chat = await turn.chat()
    if chat.flow == report.FLOW:
        await report.on_text(turn, message.text)
    else:
        if chat.flow == photos.FLOW:  # typing ends a run of photos for one case
            chat.end()
        await _dispatch(turn, message.text)


async def command(update: Update, context: PoundContext) -> None:
    """Any other /command: the shared dispatcher (the parser knows the English words)."""
    message = update.effective_message
    if message is not None and message.text:
        await _dispatch(context.turn, to_line(message.text))


async def on_error(update: object, context: PoundContext) -> None:
    """Keep a handler's exception: the webhook rolls the update back and says so."""
    try:
        turn = current_turn()
    except RuntimeError:
        log.error("Telegram handler failed outside an update", exc_info=context.error)
        return
    turn.error = context.error


#: The messages ``photo`` handles (no handler before it takes one).
_PHOTOS: Final = filters.ChatType.PRIVATE & (filters.PHOTO | filters.Document.ALL)


def add_handlers(application: Application[Any, PoundContext, Any, Any, Any, Any]) -> None:
    """Register the handlers above, in the order of the table in this module's docstring."""
    private = filters.ChatType.PRIVATE
    application.add_handlers(
        [
            CommandHandler("start", start, filters=private),
            CommandHandler("lang", language, filters=private),
            CommandHandler("seize", seize, filters=private),
            CommandHandler("cancel", cancel, filters=private),
            CommandHandler("photo", photo_command, filters=private),
            CallbackQueryHandler(language_chosen, pattern=r"^lang:"),
            CallbackQueryHandler(report_button, pattern=r"^seize:"),
            CallbackQueryHandler(declared_button, pattern=r"^sold:declared:"),
            CallbackQueryHandler(stale_button),
            MessageHandler(private & filters.LOCATION, location),
            MessageHandler(_PHOTOS, photo),
            MessageHandler(private & filters.TEXT & ~filters.COMMAND, text_message),
            MessageHandler(private & filters.COMMAND, command),
        ]
    )
    application.add_error_handler(on_error)
