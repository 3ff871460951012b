"""What the owner and the officers are told of a step: the handlers of its outcome.

Each handler takes the transaction of the step, the use cases' dependencies and the
outcome (``bot.services.outcomes``) and queues its messages in the outbox, each with an
idempotency key; it returns what the caller's answer says of an SMS to the owner
(``Told``), if it says anything. The composition root (``bot.bootstrap.subscribers``)
registers each for the outcomes it handles; the dispatcher runs them after the step, in
its savepoint, so that a refused or trial step queues nothing.
"""

from __future__ import annotations

from bot.adapters.whatsapp_route import Template
from bot.i18n import render, reply_language
from bot.notifications.case_messages import ACCOUNT, AUCTION, CANCELLED, IMPOUNDED, REPORT
from bot.notifications.notify import notify_officers, notify_phone
from bot.services import keeper as keeping
from bot.services.base import Deps, statement_of
from bot.services.outcomes import (
    AuctionScheduled,
    Corrected,
    PaidAfterPartSale,
    Reported,
    Seized,
    Settled,
)
from bot.services.owners import lots_of_phone, owners_lots, owners_part
from bot.services.subscribers import AUCTION_CANCELLED, INTAKE, OwnerSms, OwnerTold, Told
from bot.store.messages import About
from bot.store.tx import LoadedCase, Tx
from domain.case import Case
from domain.profiles import Power
from domain.s04_s11_dues import Dues

__all__ = [
    "tell_officers_of_report",
    "tell_owner_auction_cancelled",
    "tell_owner_of_account",
    "tell_owner_of_auction",
    "tell_owner_of_correction",
    "tell_owner_of_intake",
]


async def tell_owner_of_intake(tx: Tx, deps: Deps, seized: Seized) -> Told:
    """Cattle brought in (s.7): the owner gets the intake SMS (never at night). In a case
    of more than one owner, each owner with a number gets the intake SMS of their own
    lots alone (their fines and charges), never naming the other owner."""
    case = seized.case
    owners = owners_lots(case.seizure, seized.lot_phones, seized.owner_phone)
    if len(owners) < 2 or not case.seizure.owned_apart:  # one owner, or none known
        phone = owners[0][1] if len(owners) == 1 else seized.owner_phone
        key = f"intake:{case.number}"
        return Told(INTAKE, await _intake_sms(tx, deps, case, seized.dues, phone, key))
    told: list[OwnerTold] = []
    for lots, phone in owners:
        sms = await _owners_intake_sms(tx, deps, case, seized.dues, lots, phone)
        told.append((tuple(i + 1 for i in lots), sms))
    return Told(INTAKE, _together(told), tuple(told))


async def tell_owner_of_correction(tx: Tx, deps: Deps, corrected: Corrected) -> Told | None:
    """A correction that gives the owner's number: the owner gets the intake SMS, once
    for that number. A lot's owner corrected (OWNER LOT n) in a case of more than one
    owner: that owner gets the intake SMS of their own lots alone."""
    phone = corrected.owner_phone
    if phone is None:
        return None
    loaded = corrected.recorded.loaded
    case, dues = loaded.case, corrected.recorded.dues
    if corrected.lot is None or not case.seizure.owned_apart:
        key = f"intake:{case.number}:{phone}"
        return Told(INTAKE, await _intake_sms(tx, deps, case, dues, phone, key))
    phones = await tx.lot_phones(loaded)
    lots = lots_of_phone(case.seizure, phones, loaded.row.owner_phone, phone)
    sms = await _owners_intake_sms(tx, deps, case, dues, lots, phone)
    return Told(INTAKE, sms, ((tuple(i + 1 for i in lots), sms),))


async def _owners_intake_sms(
    tx: Tx, deps: Deps, case: Case, dues: Dues, lots: tuple[int, ...], phone: str | None
) -> OwnerSms:
    """The intake SMS of the lots at ``lots``, one owner's, to that owner's number: the
    case those lots would make on their own (``owners_part``), else the whole case's."""
    part = owners_part(case, lots, deps.today())
    if part is not None:
        case, dues = part, statement_of(deps, part).dues
    return await _intake_sms(tx, deps, case, dues, phone, f"intake:{case.number}:{phone}")


def _together(told: list[OwnerTold]) -> OwnerSms:
    """What became of the owners' SMS, in one word: queued when one of them was."""
    found = {sms for _, sms in told}
    return "queued" if "queued" in found else "opted_out" if "opted_out" in found else "no_number"


async def _intake_sms(
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
        act=case.profile,
    )
    return "queued" if queued else "opted_out"


async def tell_owner_auction_cancelled(tx: Tx, deps: Deps, corrected: Corrected) -> Told | None:
    """When the correction superseded the notice (s.13(2)) and cancelled an auction still
    to come (s.13(3)): the owner is told so by SMS, if their number is known (never at
    night). None when no auction to come was cancelled by this step."""
    loaded = corrected.recorded.loaded
    case, row = loaded.case, loaded.row
    cancelled = case.cancelled_auction
    if case.superseding is not case.events[-1] or cancelled is None:
        return None
    if cancelled.auction_on < deps.today():
        return None  # a day already gone: nothing to call off
    owners = await _owners_numbers(tx, loaded)
    if not owners:
        return Told(AUCTION_CANCELLED, "no_number")
    number, day = row.number, cancelled.auction_on
    lot_phones = await tx.lot_phones(loaded)
    told: list[OwnerTold] = []
    for phone, own_key in owners:
        queued = await notify_phone(
            tx,
            phone,
            f"auction-cancelled:{number}:{day.isoformat()}{own_key}",
            lambda owner_tr: render.auction_cancelled_sms(number, day, owner_tr),
            deps.config.pounds[row.pound_code].languages[0],
            deps.config.reminders,
            about=About(CANCELLED, number, "", day.isoformat()),
            act=case.profile,
        )
        lots = lots_of_phone(case.seizure, lot_phones, row.owner_phone, phone)
        told.append((tuple(i + 1 for i in lots), "queued" if queued else "opted_out"))
    if len(told) == 1:
        return Told(AUCTION_CANCELLED, told[0][1])
    # Each owner of some of the cattle: the keeper's answer names their lots.
    return Told(AUCTION_CANCELLED, _together(told), tuple(told))


async def _owners_numbers(tx: Tx, loaded: LoadedCase) -> tuple[tuple[str, str], ...]:
    """The numbers a case's own messages to its owner go to (the auction fixed or called
    off, s.13(3)), each with what ends its key: the case owner's (its key as ever); in
    a case of more than one owner, each lot owner's number too, once (their key ends with
    the number). The messages name no lot and no owner."""
    phones = dict.fromkeys(
        phone for phone in (loaded.row.owner_phone, *await tx.lot_phones(loaded)) if phone
    )
    return tuple(
        (phone, "" if phone == loaded.row.owner_phone else f":{phone}") for phone in phones
    )


async def tell_officers_of_report(tx: Tx, deps: Deps, reported: Reported) -> None:
    """The keeper's report of cattle unclaimed (s.13(1)) goes to the officers of the
    pound's authority who hold the office the case's Act has receive it (the local
    authority; under the 1871 Act the officer in charge of the police station): to every
    officer when none of them holds it."""
    case = reported.recorded.case
    authority = deps.authority_of(case.seizure.pound)
    await notify_officers(
        tx,
        authority,
        f"report:{case.number}",
        lambda tr: render.report_to_officer(case, reported.pound_name, reported.on, tr),
        deps.config.authorities[authority].default_language,
        deps.config.whatsapp_templates,
        about=About(REPORT, case.number, ""),
        act=case.profile,
        power=Power.RECEIVE_REPORT,
    )


async def tell_owner_of_auction(tx: Tx, deps: Deps, scheduled: AuctionScheduled) -> None:
    """The owner, if their number is known, is told of the auction fixed (s.13(3)),
    unless its day is already gone (an auction recorded as held); in a case of more than
    one owner, each owner with a number."""
    loaded, fixed = scheduled.recorded.loaded, scheduled.recorded.case.scheduled_auction
    if not fixed or scheduled.on < deps.today():
        return
    row = loaded.row
    number, day, place = row.number, scheduled.on, fixed.place  # as the step recorded it
    for phone, own_key in await _owners_numbers(tx, loaded):
        await notify_phone(
            tx,
            phone,
            f"auction:{number}:{day.isoformat()}{own_key}",
            lambda tr: render.auction_sms(number, day, place, tr),
            reply_language(pound=deps.config.pounds.get(row.pound_code)),
            deps.config.reminders,
            template=lambda tr: Template(
                "owner_auction", render.auction_values(number, day, place, tr)
            ),
            templates=deps.config.whatsapp_templates,
            about=About(AUCTION, number, "", day.isoformat()),
            act=scheduled.recorded.case.profile,
        )


async def tell_owner_of_account(tx: Tx, deps: Deps, outcome: Settled | PaidAfterPartSale) -> None:
    """The owner, if their number is known, gets the account of the sale (s.15(3)): when
    it is settled, or when the rest is paid after a part sale."""
    row = outcome.recorded.loaded.row
    account = outcome.account if isinstance(outcome, Settled) else outcome.statement.account
    if not row.owner_phone or account is None:
        return
    await notify_phone(
        tx,
        row.owner_phone,
        f"account:{row.number}",
        lambda tr: render.account_sms(account, tr),
        reply_language(pound=deps.config.pounds.get(row.pound_code)),
        deps.config.reminders,
        template=lambda tr: Template("owner_account", (row.number,)),
        templates=deps.config.whatsapp_templates,
        about=About(ACCOUNT, row.number, ""),
        act=outcome.recorded.case.profile,
    )
