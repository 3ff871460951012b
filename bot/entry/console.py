"""``poundbot console``: a terminal chat with the running configuration and database.

It goes through the same parsing, use cases and rendering as the real channels
(``bot.conversation.reply.handle_text``, with every line stored in the inbox like an SMS); only
the transport differs. Line editing and history come from ``readline`` where the
terminal has it.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.languages import LANGUAGES

if TYPE_CHECKING:  # the stack is imported when the console runs, not by `poundbot --help`
    from bot.services.runtime import App
    from bot.store.tx import Tx

__all__ = ["add_console_command", "run_console"]

log = logging.getLogger("poundbot.console")

PROMPTS = {"keeper": "keeper> ", "officer": "officer> ", "owner": "owner> "}
#: What the console calls who it speaks as (the public it speaks for are owners).
ROLE_NAMES = {"public": "owner"}
LANGUAGE_NAMES = {"en": "English", "ml": "Malayalam", "ta": "Tamil", "kn": "Kannada"}
BYE = ("quit", "exit", "bye")


def _caller(args: argparse.Namespace, app: App) -> Caller:
    """Who the console speaks as (a registered user with --phone takes precedence)."""
    if args.role == "keeper":
        pound = args.pound or next(iter(app.config.pounds))
        return Caller(
            role=KEEPER,
            channel="console",
            pound=pound,
            authority=app.config.pounds[pound].authority,
            phone=args.phone,
            lang=args.lang,
            name="console",
        )
    if args.role == "officer":
        authority = args.authority or next(iter(app.config.authorities))
        return Caller(
            role=OFFICER,
            channel="console",
            authority=authority,
            phone=args.phone,
            lang=args.lang,
            name="console",
        )
    return Caller.public("console", phone=args.phone or "+910000000000", lang=args.lang)


async def run_console(
    app: App,
    caller: Caller,
    *,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    prompt: str = "> ",
) -> int:
    """Read lines until end of input or "quit"; answer each as the channels would."""
    import uuid

    from bot.channels.identity import caller_for_phone
    from bot.conversation.reply import handle_text
    from bot.i18n import render, reply_language, translator
    from bot.store.messages import Inbound, process_inbound
    from bot.support.clean import clean_text

    out = out or sys.stdout
    why = "--lang" if caller.lang else ""
    if caller.phone and caller.role == "public":
        async with app.store.transaction() as tx:
            registered = await caller_for_phone(
                tx, caller.phone, "console", region=app.config.phone_region
            )
        # A registered user's number speaks as that user; any other as given, in E.164.
        if registered.role != "public":
            why = why or ("the language chosen for this user" if registered.lang else "")
            caller = replace(registered, lang=caller.lang or registered.lang)
        else:
            caller = replace(caller, phone=registered.phone)
    print(
        f"poundbot console as {ROLE_NAMES.get(caller.role, caller.role)}"
        + (f" of {caller.pound or caller.authority}" if caller.pound or caller.authority else "")
        + f". {_answers_in(app, caller, why)} Type HELP for the words, quit to leave.",
        file=out,
    )
    while True:
        try:
            line = await _ask(read, prompt)
        except EOFError:
            print(file=out)
            return 0
        line = clean_text(line)
        if line.strip().lower() in BYE:
            return 0
        if not line.strip():
            continue
        message = Inbound(
            "console",
            uuid.uuid4().hex,
            caller.phone or "console",
            line,
            {"line": line, "role": caller.role},
        )

        async def handle(tx: Tx, line: str = line, caller: Caller = caller) -> str:
            return (await handle_text(tx, app.deps, caller, line, sms=False)).text

        try:
            print(await process_inbound(app.store, message, handle), file=out)
            # LANG: the console's own caller answers in the language chosen from now on
            # (a keeper or officer of the console has no number or user to keep it on).
            caller = replace(caller, lang=_chosen(app, line) or caller.lang)
        except Exception:  # the line stays in the inbox, unprocessed; the console goes on
            log.exception("console: could not process line %s", message.provider_id)
            print(
                render.try_again_later(translator(reply_language(caller.lang, text=""))), file=out
            )


def _answers_in(app: App, caller: Caller, why: str) -> str:
    """The console's first line says in which language it answers, and why: ``--lang``,
    the user's own choice, the script typed (an owner), or the first language of the
    keeper's pound or of the officer's authority."""
    other = "LANG en" if caller.lang != "en" else "LANG ml"
    if caller.lang:
        return f"Answers in {LANGUAGE_NAMES[caller.lang]} ({why}; {other} chooses another)."
    pound = app.config.pounds.get(caller.pound or "")
    authority = app.config.authorities.get(caller.authority or "")
    if pound is not None:
        lang, source = pound.languages[0], f"the first language of pound {pound.code}"
    elif authority is not None:
        lang, source = authority.default_language, f"the language of {authority.code}"
    else:
        return (
            "Answers in the language of what you type (English for Latin letters; "
            "--lang, or LANG ml, chooses one)."
        )
    return (
        f"Answers in {LANGUAGE_NAMES[lang]}, {source} "
        f"(--lang, or LANG {'en' if lang != 'en' else 'ml'}, chooses another)."
    )


def _chosen(app: App, line: str) -> str | None:
    """The language a LANG line chooses, or None for any other line."""
    from bot.conversation.commands import ParseError, parse
    from bot.conversation.orders import Lang

    try:
        command = parse(line, app.config, app.deps.today())
    except ParseError:
        return None
    return command.choice if isinstance(command, Lang) else None


async def _ask(read: Callable[[str], str], prompt: str) -> str:
    """``read(prompt)`` on a daemon thread: Ctrl-C ends the console at the first press,
    without waiting for a line that will never come (``asyncio.to_thread`` would)."""
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if answer.done():  # the console was left meanwhile
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result or "")

    def work() -> None:
        try:
            line = read(prompt)
        except BaseException as exc:  # EOFError and the like go to the loop as they are
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, line, None)

    threading.Thread(target=work, name="console-input", daemon=True).start()
    return await answer


def _command(args: argparse.Namespace) -> int:
    import asyncio

    from bot.bootstrap import open_app

    async def main() -> int:
        async with open_app() as app:
            return await run_console(app, _caller(args, app), prompt=PROMPTS[args.role])

    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    try:
        return asyncio.run(main())
    except KeyboardInterrupt:  # Ctrl-C: leave at once, as "quit" does, with no traceback
        # The database is closed by now (open_app's exit ran when the loop was cancelled).
        # The input thread is still blocked reading the terminal, and an interpreter
        # shutting down with it would abort, so leave without the shutdown.
        print(file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)


def add_console_command(sub: Any) -> None:
    """``poundbot console --as keeper|officer|owner [--phone] [--lang] [--pound|--authority]``."""
    console = sub.add_parser("console", help="chat with poundbot in the terminal")
    console.add_argument(
        "--as", dest="role", choices=sorted(PROMPTS), default="owner", help="who you speak as"
    )
    console.add_argument(
        "--phone", help="speak as this number (a registered user's, or an owner's)"
    )
    console.add_argument("--lang", choices=LANGUAGES, help="the language of the answers")
    console.add_argument("--pound", help="the keeper's pound (default: the first configured)")
    console.add_argument("--authority", help="the officer's authority (default: the first)")
    console.set_defaults(func=_command)
