"""Alerts to the administrators about poundbot itself (not about a case)."""

from __future__ import annotations

from datetime import datetime

from bot.i18n.catalogs import Translator
from bot.i18n.fmt import clock_time
from bot.i18n.public.sms_fit import in_parts

__all__ = ["answers_held_back"]


def answers_held_back(window: str, limit: int, until: datetime, tr: Translator) -> str:
    """To the administrators, once in the ``window`` (``hour`` or ``day``) it happened:
    the ceiling of answers to numbers that are not staff is reached
    (``bot.notifications.spending``); until ``until`` (local) such answers are held back."""
    values = {"count": limit, "time": clock_time(until, tr.lang)}
    if window == "hour":
        # TRANSLATORS: to the administrators. poundbot has sent, this hour, as many SMS
        # or WhatsApp answers to members of the public (numbers that are not staff) as the
        # configuration allows; the next such answers are not sent until %(time)s (a local
        # clock time such as 11:00 AM).
        said = tr.gettext(
            "poundbot has sent %(count)d answers to the public this hour, its limit. "
            "Answers to the public are held back until %(time)s."
        )
    else:
        # TRANSLATORS: the same for the whole day: %(count)d answers to the public today;
        # held back until %(time)s (midnight, local time).
        said = tr.gettext(
            "poundbot has sent %(count)d answers to the public today, its limit. "
            "Answers to the public are held back until %(time)s."
        )
    # TRANSLATORS: after the alert that answers to the public are held back (the next SMS).
    still = tr.gettext(
        "Notices to owners and answers to staff still go. The limits are in the "
        "configuration, [limits]."
    )
    return in_parts([said % values, still])
