"""Recording a seizure from any channel: the use case, the owner's SMS, the reply."""

from __future__ import annotations

from bot.caller import Caller
from bot.i18n import Translator, render
from bot.notify import notify_phone
from bot.services import keeper as keeping
from bot.services.base import Deps
from bot.store.tx import Tx
from domain.case import Person, Seizure

__all__ = ["person_of", "report_seizure"]


def person_of(text: str) -> Person | None:
    """``"Rajan, Pathimangalam"`` -> a person with a residence (s.7); blank -> None."""
    if not text.strip():
        return None
    name, _, residence = text.partition(",")
    return Person(name.strip(), residence.strip())


async def report_seizure(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    seizure: Seizure,
    owner_phone: str | None,
    tr: Translator,
    *,
    sms: bool,
) -> str:
    """Record cattle brought in (s.7); tell the owner by SMS when their number is known
    (never at night); the keeper's reply: case number, fines, daily charge, s.13(1) date."""
    recorded = await keeping.record_seizure(tx, deps, caller, seizure, owner_phone=owner_phone)
    case = recorded.case
    pound = deps.config.pounds[seizure.pound]
    daily = keeping.daily_charge(deps, case, deps.today())
    if owner_phone:
        await notify_phone(
            tx,
            owner_phone,
            f"intake:{case.number}",
            lambda owner_tr: render.intake_sms(case, recorded.dues, daily, pound.name, owner_tr),
            pound.languages[0],
            deps.config.reminders,
        )
    return render.seizure_ack(
        case, recorded.dues, daily, tr, sms, kinds=deps.config.kinds, pound_name=pound.name
    )
