"""Recording a seizure from any channel: the use case and the owner's SMS, with what
was done (``Seized``: the dispatcher renders the keeper's reply from it); and the
owner's SMS when a correction of the seizure report cancels the auction."""

from __future__ import annotations

from typing import NamedTuple

from bot.adapters.whatsapp_route import Template
from bot.i18n import render
from bot.i18n.keepers.keeper import OwnerSms
from bot.notifications.case_messages import CANCELLED, IMPOUNDED
from bot.notifications.notify import notify_phone
from bot.services import keeper as keeping
from bot.services.base import Deps
from bot.store.messages import About
from bot.store.tx import LoadedCase, Tx
from bot.support.caller import Caller
from domain.case import Case
from domain.money import Money
from domain.s04_s11_dues import Dues
from domain.s07_seizure import Person, Seizure

__all__ = ["Seized", "person_of", "report_seizure", "tell_owner", "tell_owner_auction_cancelled"]


def person_of(text: str) -> Person | None:
    """``"Rajan, Pathimangalam"`` -> a person with a residence (s.7); blank -> None."""
    if not text.strip():
        return None
    name, _, residence = text.partition(",")
    return Person(name.strip(), residence.strip())


class Seized(NamedTuple):
    """A seizure recorded: the case it opened, its fines (s.11), what one more day costs
    at the rate of the day brought (s.4), the pound's name, and what became of the
    owner's SMS (queued, refused by the number, no number)."""

    loaded: LoadedCase
    dues: Dues
    daily: Money
    pound_name: str
    owner_sms: OwnerSms

    @property
    def case(self) -> Case:
        return self.loaded.case


async def report_seizure(
    tx: Tx, deps: Deps, caller: Caller, seizure: Seizure, owner_phone: str | None
) -> Seized:
    """Record cattle brought in (s.7); tell the owner by SMS when their number is known
    (never at night); what was recorded (``render.seizure_ack`` words the keeper's reply:
    case number, fines, daily charge, s.13(1) date)."""
    recorded = await keeping.record_seizure(tx, deps, caller, seizure, owner_phone=owner_phone)
    case = recorded.case
    pound = deps.config.pounds[seizure.pound]
    # The rate in force on the day brought (s.4), not today's: a report entered late
    # quotes what the days in the pound were charged at.
    daily = keeping.daily_charge(deps, case, seizure.impounded_on)
    owner_sms = await tell_owner(
        tx, deps, case, recorded.dues, owner_phone, f"intake:{case.number}"
    )
    return Seized(recorded.loaded, recorded.dues, daily, pound.name, owner_sms)


async def tell_owner(
    tx: Tx, deps: Deps, case: Case, dues: Dues, owner_phone: str | None, key: str
) -> OwnerSms:
    """Queue the intake SMS to the owner's number, if there is one (never at night);
    whether it was queued, refused by the number (STOP) or there is no number."""
    if not owner_phone:
        return "no_number"
    pound = deps.config.pounds[case.seizure.pound]
    daily = keeping.daily_charge(deps, case, case.seizure.impounded_on)
    queued = await notify_phone(
        tx,
        owner_phone,
        key,
        lambda owner_tr: render.intake_sms(case, dues, daily, pound.name, owner_tr),
        pound.languages[0],
        deps.config.reminders,
        template=lambda owner_tr: Template(
            "owner_impounded", render.intake_values(case, dues, pound.name, owner_tr)
        ),
        templates=deps.config.whatsapp_templates,
        about=About(IMPOUNDED, case.number, ""),
    )
    return "queued" if queued else "opted_out"


async def tell_owner_auction_cancelled(tx: Tx, deps: Deps, loaded: LoadedCase) -> OwnerSms | None:
    """When the step just recorded on ``loaded`` is a correction that superseded the
    notice (s.13(2)) and cancelled an auction still to come (s.13(3)): queue the SMS
    telling the owner so, if their number is known (never at night); whether it was
    queued, refused by the number (STOP) or there is no number. None when no auction to
    come was cancelled by this step."""
    case, row = loaded.case, loaded.row
    cancelled = case.cancelled_auction
    if case.superseding is not case.events[-1] or cancelled is None:
        return None
    if cancelled.auction_on < deps.today():
        return None  # a day already gone: nothing to call off
    if not row.owner_phone:
        return "no_number"
    number, day = row.number, cancelled.auction_on
    queued = await notify_phone(
        tx,
        row.owner_phone,
        f"auction-cancelled:{number}:{day.isoformat()}",
        lambda owner_tr: render.auction_cancelled_sms(number, day, owner_tr),
        deps.config.pounds[row.pound_code].languages[0],
        deps.config.reminders,
        about=About(CANCELLED, number, "", day.isoformat()),
    )
    return "queued" if queued else "opted_out"
