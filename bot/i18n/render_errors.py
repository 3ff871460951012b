"""What poundbot refuses, and what to do instead: the Act's refusals (``DomainError``,
citing the provision) and the application's (``AppError``: roles, unknown numbers,
invites, input that is not a command); and the apology when something unexpected
stops a message from being processed (``try_again_later``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from bot.i18n.catalogs import Translator
from bot.i18n.render_parse import PARSE_CODES, parse_error
from bot.i18n.render_sale_refusals import sale_refusal
from bot.i18n.words_text import ECHO_LIMIT, cite, day
from domain.errors import DomainError

if TYPE_CHECKING:
    from bot.errors import AppError

__all__ = [
    "app_error",
    "bad_count",
    "error",
    "not_allowed",
    "try_again_later",
    "unknown_case",
    "unknown_command",
]

_ERRORS: Final[dict[str, Callable[[Translator], str]]] = {
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
    # TRANSLATORS: s.18 — officers, pound-keepers and members may not buy.
    "barred_buyer": lambda tr: tr.gettext(
        "The buyer must declare that they are not barred from buying at a pound sale."
    ),
}


def error(exc: DomainError, tr: Translator) -> str:
    """What the Act refuses, and what to do instead, citing ``exc.provision``."""
    render = _ERRORS.get(exc.code)
    # TRANSLATORS: a step refused for a reason not listed separately.
    text = render(tr) if render else tr.gettext("That cannot be done under the Act.")
    text = sale_refusal(exc, tr) or text  # s.13(3), s.15(1), s.18: the reason, in full
    if exc.lawful_from is not None:
        # TRANSLATORS: a step taken before the period the Act sets has run; the date is
        # the first day the step is lawful (s.13(1) report, s.13(3) auction, s.17(1)).
        text = tr.gettext("Too early: this step is lawful from %(date)s.") % {
            "date": day(exc.lawful_from, tr)
        }
    if exc.provision:
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


def unknown_command(commands: Sequence[str], tr: Translator) -> str:
    """A command the bot does not know, with the ones it does (not translated: typed)."""
    # TRANSLATORS: %(commands)s is a list of command words, which stay in English.
    text = tr.gettext("Unknown command. Send one of: %(commands)s")
    return text % {"commands": ", ".join(commands)}


_APP_ERRORS: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: a pound code that names no pound.
    "unknown_pound": lambda tr: tr.gettext(
        "That pound is not known. Check the pound code and send it again."
    ),
    # TRANSLATORS: a person poundbot has no record of (an administrator's command).
    "unknown_user": lambda tr: tr.gettext(
        "That person is not registered. Ask the local authority to register them."
    ),
    # TRANSLATORS: an invite code to register as a pound-keeper or officer.
    "invite_invalid": lambda tr: tr.gettext(
        "That invite code is unknown, already used or expired. Ask the local authority "
        "for a new one."
    ),
}


def app_error(exc: AppError, tr: Translator) -> str:
    """What the application refuses and what to do instead; a line that is not a
    command gets ``parse_error``; an unknown code a generic sentence."""
    code = exc.code
    if code in PARSE_CODES:
        return parse_error(code, exc.facts, tr)
    if code == "not_allowed":
        return not_allowed(tr)
    if code == "unknown_case":
        return unknown_case(str(exc.facts.get("number", "")), tr)
    render = _APP_ERRORS.get(code)
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
