"""The command menus Telegram shows: by role, in the reader's language.

The default menu (every chat, per client language) lists what anyone may ask; once an
invite is accepted, or the language chosen, the chat gets its own menu for its role
(``BotCommandScopeChat``), queued to the outbox with the reply.
"""

from __future__ import annotations

import logging
from typing import Final

from telegram import Bot, BotCommand
from telegram.error import TelegramError

from bot.i18n import LANGUAGES, Translator, translator
from bot.i18n.chrome import telegram as text
from bot.support.caller import ADMIN, KEEPER, OFFICER

__all__ = ["commands_of", "menu", "set_default_menus"]

log = logging.getLogger("poundbot.telegram")

_PUBLIC: Final = ("help", "dues", "deposit", "case", "find", "lang", "start")
_BY_ROLE: Final[dict[str, tuple[str, ...]]] = {
    KEEPER: (
        "seize",
        "photo",
        "cases",
        "case",
        "paid",
        "deposited",
        "report",
        "refused",
        "correct",
        "void",
        "cancel",
        "find",
        "web",
        "lang",
        "help",
    ),
    OFFICER: (
        "due",
        "notice",
        "auction",
        "sold",
        "unsold",
        "dispose",
        "settle",
        "receipt",
        "noreceipt",
        "outcome",
        "claimed",
        "reject",
        "claim",
        "fund",
        "register",
        "refused",
        "correct",
        "void",
        "case",
        "web",
        "lang",
        "help",
    ),
    ADMIN: (*_PUBLIC, "web"),
}


def commands_of(role: str) -> tuple[str, ...]:
    """The commands in the menu of ``role`` (a member of the public for any other)."""
    return _BY_ROLE.get(role, _PUBLIC)


def menu(role: str, tr: Translator) -> list[tuple[str, str]]:
    """(command, description) pairs of the menu of ``role``, in ``tr``'s language."""
    return [(name, text.command_description(name, tr)) for name in commands_of(role)]


async def set_default_menus(bot: Bot) -> None:
    """The menu of a chat with no menu of its own: one per language, English otherwise.

    A failure is logged, not raised: the menu is a convenience, the commands work.
    """
    try:
        for lang in LANGUAGES:
            commands = [BotCommand(c, d) for c, d in menu("public", translator(lang))]
            await bot.set_my_commands(commands, language_code=lang)
        english = [BotCommand(c, d) for c, d in menu("public", translator("en"))]
        await bot.set_my_commands(english)
    except TelegramError as exc:
        log.warning("Telegram: the default command menus were not set: %s", exc)
