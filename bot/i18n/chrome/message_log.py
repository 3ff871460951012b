"""The web desk's log of messages, in words: a message sent again and by whom, the row
that sends one again, a message purged after the retention period, and the refusals of
``Send again`` (``bot.services.messages.resend``)."""

from __future__ import annotations

from bot.i18n.catalogs import Translator
from bot.i18n.refusals.errors import app_error
from bot.support.errors import AppError

__all__ = [
    "already_resent",
    "purged_after",
    "resend_of",
    "resend_queued",
    "resend_refusal",
    "resent_by",
]


def resent_by(name: str, when: str, tr: Translator) -> str:
    """Under a failed message: who sent it again, and when (``when``: day and time)."""
    # TRANSLATORS: web desk, the log of messages — under a failed message: someone
    # pressed "Send again"; %(name)s is their name, %(when)s a day and a time.
    return tr.gettext("sent again by %(name)s on %(when)s") % {"name": name, "when": when}


def resend_of(message: int, tr: Translator) -> str:
    """Under a message queued by ``Send again``: the number of the failed message it
    sends again."""
    # TRANSLATORS: web desk, the log of messages — this message was queued by "Send
    # again" for the failed message numbered %(id)s.
    return tr.gettext("a second sending of #%(id)s") % {"id": message}


def purged_after(days: int, tr: Translator) -> str:
    """In place of the text of a message whose text and number were purged."""
    # TRANSLATORS: web desk, the log of messages — the text and the phone number of this
    # message were deleted %(days)d days after it was sent or received (the retention
    # of personal data); the row is kept for the counts.
    return tr.ngettext("purged after %(days)d day", "purged after %(days)d days", days) % {
        "days": days
    }


def resend_queued(message: int, tr: Translator) -> str:
    """Above the log, after ``Send again``: the new message is queued, and checked again
    when it is sent."""
    # TRANSLATORS: web desk, the log of messages — after "Send again": a new message
    # numbered %(id)s is queued; when it goes out it is checked again (the number may
    # have sent STOP since, the day's limit of answers may be reached, DLT may refuse it).
    return tr.gettext(
        "Queued to be sent again as #%(id)s. It is checked again when it goes out: a STOP "
        "sent since, the limit of answers and DLT can still hold it back."
    ) % {"id": message}


def already_resent(name: str, when: str, tr: Translator) -> str:
    """``Send again`` pressed for a message sent again already (a second click, another
    tab): nothing is sent, and who sent it again, when."""
    # TRANSLATORS: web desk — "Send again" pressed a second time (or in another tab):
    # nothing more is sent. %(name)s is who sent it again, %(when)s a day and a time.
    text = tr.gettext(
        "This message was already sent again by %(name)s on %(when)s. Nothing more was sent."
    )
    return text % {"name": name, "when": when}


def resend_refusal(exc: AppError, tr: Translator) -> str:
    """Why ``Send again`` was refused."""
    if exc.code == "unknown_message":
        # TRANSLATORS: web desk — "Send again" for a message number that does not exist.
        return tr.gettext("There is no such message.")
    if exc.code == "not_failed":
        # TRANSLATORS: web desk — "Send again" for a message that did not fail (it was
        # sent, is still waiting to be sent, or was held back on purpose).
        return tr.gettext("Only a message that failed can be sent again.")
    if exc.code == "purged_message":
        # TRANSLATORS: web desk — "Send again" for a message whose text and phone number
        # were deleted after the retention period.
        return tr.gettext(
            "The text and number of this message were purged after the retention period: "
            "it cannot be sent again."
        )
    return app_error(exc, tr)
