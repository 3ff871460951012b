"""The web desk's page of users, in words: who a user is (a state administrator, the
administrator or an officer of an authority, the keeper of a pound), the fields of the
audit of users, the notes after a change, the invite shown once, and why an
administrator's change was refused (``bot.services.admin``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.chrome.web_names import role_name
from bot.i18n.refusals.errors import app_error
from bot.support.errors import AppError

__all__ = [
    "audit_field",
    "audit_value",
    "change_refused",
    "done_note",
    "invite_lines",
    "post",
    "refusal_reasons",
]


def post(role: str, place: str, tr: Translator) -> str:
    """Who a user is: ``state administrator``, ``administrator of PLACE``, ``officer of
    PLACE`` (an authority's name), ``pound-keeper of PLACE`` (a pound's name)."""
    if role == "keeper":
        # TRANSLATORS: web desk, the page of users — a pound-keeper and their pound's name.
        return tr.gettext("pound-keeper of %(pound)s") % {"pound": place}
    if role == "officer":
        # TRANSLATORS: web desk, the page of users — an officer and their local authority.
        return tr.gettext("officer of %(authority)s") % {"authority": place}
    if place:
        # TRANSLATORS: web desk, the page of users — the administrator of one local
        # authority (its users, pounds, cases and messages only).
        return tr.gettext("administrator of %(authority)s") % {"authority": place}
    # TRANSLATORS: web desk, the page of users — an administrator of every local
    # authority of the state.
    return tr.gettext("state administrator")


_FIELDS: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: web desk, the history of a user — the field that was changed.
    "role": lambda tr: tr.gettext("Role"),
    "pound_code": lambda tr: tr.gettext("Pound"),
    "authority_code": lambda tr: tr.gettext("Local authority"),
    "phone": lambda tr: tr.gettext("Phone number"),
    # TRANSLATORS: web desk, the history of a user — their Telegram account (its number).
    "telegram_id": lambda tr: tr.gettext("Telegram account"),
    "name": lambda tr: tr.gettext("Name"),
    "lang": lambda tr: tr.gettext("Language"),
    # TRANSLATORS: web desk, the page of users — the offices a user holds under the Act
    # (the Secretary, the officer in charge of the nearest police station, ...).
    "offices": lambda tr: tr.gettext("Offices"),
    # TRANSLATORS: web desk, the history of a user — enabled or disabled.
    "active": lambda tr: tr.gettext("Enabled"),
    # TRANSLATORS: web desk, the history of a user — an invite to Telegram was made.
    "invite": lambda tr: tr.gettext("Invite"),
}


def audit_field(field: str, tr: Translator) -> str:
    """A field of the audit of users in words (one not known, as it is stored)."""
    name = _FIELDS.get(field)
    return name(tr) if name is not None else field


def audit_value(field: str, value: str | None, tr: Translator) -> str:
    """A value of the audit in words: enabled or not, a role; the rest as stored."""
    if value is None:
        return "—"
    if field == "active":
        # TRANSLATORS: web desk, the history of a user — the value "enabled: yes / no".
        return tr.gettext("yes") if value == "true" else tr.gettext("no")
    if field == "role":
        return role_name(value, tr)
    return value


def done_note(done: str, tr: Translator) -> str:
    """The note at the top of a user's page after a change went through."""
    if done == "added":
        # TRANSLATORS: web desk, the page of users — a user was added.
        return tr.gettext("The user was added.")
    if done == "disabled":
        # TRANSLATORS: web desk — a user was disabled: signed out of the desk at once,
        # their phone number and Telegram account freed (the history keeps them).
        return tr.gettext(
            "The user was disabled: they are signed out at once, and their phone number "
            "and Telegram account are free again (the history keeps them)."
        )
    if done == "enabled":
        # TRANSLATORS: web desk — a disabled user was enabled again, without a phone
        # number or a Telegram account: give them one.
        return tr.gettext(
            "The user was enabled again. Give them a phone number, or invite them again."
        )
    if done == "invited":
        # TRANSLATORS: web desk — a new invite to Telegram was made for a user; the ones
        # given them before no longer work.
        return tr.gettext("A new invite was made; the earlier ones no longer work.")
    # TRANSLATORS: web desk, the page of users — a user's changes were saved.
    return tr.gettext("The changes were saved.")


def invite_lines(code: str, when: str, link: str, tr: Translator) -> list[str]:
    """The invite, shown once: its code, until when it works, and how to give it (the
    bot's link, or the command to send the bot)."""
    # TRANSLATORS: web desk — an invite to join poundbot on Telegram, shown only once.
    lines = [
        tr.gettext("Invite code: %(code)s") % {"code": code},
        # TRANSLATORS: web desk — the invite works once, until %(when)s (a day and a time).
        tr.gettext("It works once, until %(when)s.") % {"when": when},
    ]
    if link:
        # TRANSLATORS: web desk — the link that opens the bot in Telegram with the invite.
        lines.append(tr.gettext("Give the person this link: %(url)s") % {"url": link})
    else:
        # TRANSLATORS: web desk — without the bot's name configured, the person opens
        # the bot in Telegram and sends "/start" and the code (typed as it is).
        lines.append(
            tr.gettext("In Telegram, the person opens the bot and sends /start %(code)s")
            % {"code": code}
        )
    # TRANSLATORS: web desk — the invite code is not stored where it can be read again.
    lines.append(tr.gettext("This is shown only once: give it to the person now."))
    return lines


#: The refusals of the administrator's use cases (``bot.services.admin``) by their
#: reason (``AppError.reason``), each with what to do instead; those without one by
#: their code (``change_refused``).
_REFUSALS: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: web desk, the page of users — a change was sent without its reason.
    "reason_required": lambda tr: tr.gettext(
        "Give the reason for the change: it is kept in the history."
    ),
    # TRANSLATORS: web desk, the page of users — the phone number (or Telegram account)
    # is registered to another user, enabled or disabled.
    "already_registered": lambda tr: tr.gettext(
        "This phone number is already registered to another user."
    ),
    # TRANSLATORS: web desk, the page of users — a pound-keeper added without a pound.
    "keeper_pound": lambda tr: tr.gettext("Choose the pound of the pound-keeper."),
    # TRANSLATORS: web desk, the page of users — an officer added without a local
    # authority.
    "officer_authority": lambda tr: tr.gettext("Choose the local authority of the officer."),
    # TRANSLATORS: web desk, the page of users — a local authority not among those
    # offered.
    "admin_authority": lambda tr: tr.gettext("Choose a local authority from the list."),
    "unknown_authority": lambda tr: tr.gettext("Choose a local authority from the list."),
    # TRANSLATORS: web desk, the page of users — a role that is not one of those offered.
    "unknown_role": lambda tr: tr.gettext("Choose a role."),
    # TRANSLATORS: web desk, the page of users — a language not among those offered.
    "unknown_language": lambda tr: tr.gettext("Choose a language from the list."),
    # TRANSLATORS: web desk, the page of users — an office a user in this role may
    # not hold (a pound-keeper holds only the pound-keeper's).
    "office_refused": lambda tr: tr.gettext("A user in this role cannot hold that office."),
    "unknown_office": lambda tr: tr.gettext("A user in this role cannot hold that office."),
    # TRANSLATORS: web desk, the page of users — an edit that changed nothing.
    "nothing_to_change": lambda tr: tr.gettext("Nothing was changed."),
    # TRANSLATORS: web desk, the page of users — a pound given to a user who is not a
    # pound-keeper.
    "keeper_only_pound": lambda tr: tr.gettext("Only a pound-keeper has a pound."),
    # TRANSLATORS: web desk, the page of users — a local authority given to a
    # pound-keeper (whose authority is that of their pound).
    "no_own_authority": lambda tr: tr.gettext(
        "A pound-keeper's local authority is that of their pound: choose the pound."
    ),
    # TRANSLATORS: web desk, the page of users — an officer or an authority's
    # administrator made a state administrator.
    "state_admin_only": lambda tr: tr.gettext(
        "Only an administrator can be made a state administrator."
    ),
    # TRANSLATORS: web desk, the page of users — enabling a user who is enabled.
    "already_active": lambda tr: tr.gettext("This user is already enabled."),
}


def refusal_reasons() -> tuple[str, ...]:
    """The reasons of the administrator's refusals that have words of their own."""
    return tuple(_REFUSALS)


def change_refused(exc: AppError, tr: Translator) -> str:
    """Why a change to a user was refused, and what to do instead, by the refusal's
    reason; a refusal without one by its code (a phone number that is not a mobile
    number, a role that may not be given: as the chat says it)."""
    if exc.code == "unknown_user":
        # TRANSLATORS: web desk, the page of users — no such user, or a disabled user
        # edited (enable them first).
        return tr.gettext("There is no such enabled user. A disabled user is enabled first.")
    text = _REFUSALS.get(exc.reason or "")
    if text is not None:
        return text(tr)
    return app_error(exc, tr)
