"""What an owner who gives a missed call is told when open cases name their number: the
status of each of the newest, an SMS each, and how many more there are.

Each SMS of the answer is one DLT template (``sms_fit.in_parts``), whichever of them an
answer has; the answer when no case names the number is ``anyone.no_case_for_number``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n.catalogs import Translator
from bot.i18n.common import KindMap, keyword
from bot.i18n.dlt_probe import literal, rendering_sms
from bot.i18n.public.anyone import status_reply
from bot.i18n.public.sms_fit import in_parts

if TYPE_CHECKING:
    from bot.config.model import ProvisoOffice
    from bot.services.public import Outcome

__all__ = ["cases_for_number", "more_cases_for_number"]


def cases_for_number(
    outcomes: Sequence[Outcome],
    more: int,
    tr: Translator,
    kinds: KindMap | None = None,
    offices: Sequence[ProvisoOffice] = (),
) -> str:
    """The status of each of ``outcomes`` (the newest cases that name the number) as an
    SMS of its own, then, when ``more`` cases were left out, one SMS saying how many and
    how to ask about one. Each status in the words of its case's Act; who ordered a
    disposal otherwise named in the language by ``offices`` (the configured offices of
    the s.13(3) proviso)."""
    statuses = [
        status_reply(
            o, tr.under(o.case.profile) if o.case else tr, True, kinds=kinds, offices=offices
        )
        for o in outcomes
    ]
    with rendering_sms():
        return in_parts([*statuses, more_cases_for_number(more, tr) if more else ""])


def more_cases_for_number(n: int, tr: Translator) -> str:
    """The last SMS of the answer when ``n`` more open cases name the number than it
    gives the status of: how to ask about one. Within one SMS."""
    # TRANSLATORS: SMS — after a missed call, the status of each of the newest open
    # cases that name the caller's telephone number came in an SMS of its own; this
    # last SMS says how many more there are. %(word)s is the STATUS keyword. Keep it
    # short.
    text = tr.ngettext(
        "And %(n)d more open case names this number. To ask about it, send %(word)s and "
        "its case number.",
        "And %(n)d more open cases name this number. To ask about one, send %(word)s and "
        "its case number.",
        n,
    )
    return text % {"n": n, "word": literal(tr, keyword("status", tr.lang))}
