"""A missed call: an owner rings the SMS number and hangs up; poundbot answers by SMS with
the status of the open cases that name the caller's number, in the caller's language
(none: one SMS saying so, and how to ask by case number).

The call is stored in the inbox on the channel ``call``, keyed by the provider's call id
(Exotel's ``CallSid``): a repeated callback for one call is the same row, acted on once,
so one call is answered once. Acting on it counts against the caller's limit of SMS answers
(``bot.channels.limits``, the ``sms`` channel: a call is one more message to answer), and the SMS
goes through the outbox like any answer (``bot.channels.sms.inbound``). The answer is
``render.cases_for_number``: the status STATUS gives (``render.status_reply``) of each of
the newest ``MAX_CASES`` cases, most recent first, an SMS each (each its own DLT template),
then, when more cases name the number, one SMS saying how many more and how to ask.
"""

from __future__ import annotations

from bot.channels.identity import sender_of
from bot.channels.limits import admit
from bot.conversation.reply import language_for
from bot.i18n import render, translator
from bot.services import public
from bot.services.runtime import App
from bot.store.messages import Handler
from bot.store.tx import Tx

__all__ = ["CHANNEL", "MAX_CASES", "call_handler"]

#: The inbox channel of missed calls (the crash sweep answers one stored and not acted
#: on, by SMS, as it does an SMS).
CHANNEL = "call"
#: The most cases one missed call is told the status of (the newest), an SMS each; the
#: rest are counted in one more SMS.
MAX_CASES = 3


def call_handler(app: App, caller_number: str) -> Handler:
    """What acting on a missed call from ``caller_number`` is: the answer's text (""
    for none: past the caller's limit, once told)."""

    async def handle(tx: Tx) -> str:
        found = await sender_of(tx, caller_number, "sms", region=app.config.phone_region)
        caller = found.caller
        phone = caller.phone or caller_number
        allowed = await admit(tx, app.config.limits, "sms", phone[:64], caller.role)
        tr = translator(await language_for(tx, app.deps, caller, ""))
        if not allowed.answer:
            return render.too_many_messages(allowed.until, tr) if allowed.tell else ""
        # The newest cases, and how many there are in all (counted before the limit).
        numbers, total = await tx.open_cases_naming(phone, MAX_CASES)
        if not numbers:
            return render.no_case_for_number(tr)
        # Each case as its owner with this number sees it: their own lots alone.
        outcomes = [await public.outcome(tx, app.deps, number, phone) for number in numbers]
        more = total - len(numbers)
        offices = app.config.proviso_offices
        return render.cases_for_number(outcomes, more, tr, kinds=app.config.kinds, offices=offices)

    return handle
