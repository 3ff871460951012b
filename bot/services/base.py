"""What every use case needs: the configuration, the clock, and the role checks."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from bot.config import Config
from bot.config.model import ProvisoOffice
from bot.services.subscribers import Subscribers
from bot.store.port import CaseStore
from bot.store.tx import LoadedCase
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.clock import Clock, local_today
from bot.support.errors import NotAllowedError, NotHolderError, UnknownPoundError
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.events import (
    AuctionScheduled,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DepositClaimed,
    DepositOutcome,
    DisposedOtherwise,
    Event,
    LotOffered,
    NoticePosted,
    SaleClosed,
)
from domain.figures import Figures, figures_of
from domain.profiles import DEFAULT_ACT, Office, Power, Profile, profile
from domain.s07_seizure import ActSettings, Seizure
from domain.statement import Statement, statement
from domain.tariff import Tariff

if TYPE_CHECKING:
    from bot.adapters.photo_store import PhotoStore

__all__ = [
    "STEP_POWERS",
    "CaseRef",
    "Deps",
    "act_in_force",
    "act_of_caller",
    "act_of_case",
    "figures_for",
    "load_for_step",
    "may_take",
    "proviso_offices_of",
    "require_keeper",
    "require_office",
    "require_officer",
    "statement_of",
    "under_its_act",
]

#: A case named by its number, or already read for update in this transaction by the
#: channel that calls the use case (the web desk reads the case it shows once).
CaseRef = str | LoadedCase


@dataclass(frozen=True, slots=True)
class Deps:
    """The configuration and the clock, injected into every use case."""

    config: Config
    clock: Clock
    #: Builds the signed link of a case's printable notice (None: no public URL).
    notice_url: Callable[[str, date], str] | None = None
    #: POUNDBOT_PUBLIC_URL, where the web desk and the notice boards are ("": not set).
    public_url: str = ""
    #: Where photos of the cattle are kept (None: the data folder's ``photos/``).
    photos: PhotoStore | None = None
    #: The largest photo kept, in bytes (``POUNDBOT_PHOTO_MAX_MB``; None: 10 MB).
    photo_max_bytes: int | None = None
    #: Builds the signed public link of a kept photo (None: no public URL).
    photo_url: Callable[[int], str] | None = None
    #: Who is told of what a step did (the owner, the officers): registered by the
    #: composition root (``bot.bootstrap.subscribers``); by default nobody.
    subscribers: Subscribers = field(default_factory=Subscribers)

    def photo_store(self) -> PhotoStore:
        from bot.adapters.photo_store import default_store

        return self.photos if self.photos is not None else default_store()

    def max_photo_bytes(self) -> int:
        from bot.adapters.photo_store import max_bytes_from_env

        return self.photo_max_bytes if self.photo_max_bytes is not None else max_bytes_from_env()

    def today(self) -> date:
        return local_today(self.clock)

    def local_now(self) -> datetime:
        return self.clock.now().astimezone(LOCAL_TZ)

    def tariff(self, pound: str) -> Tariff:
        try:
            return self.config.tariffs[pound]
        except KeyError:
            raise UnknownPoundError("unknown pound", pound=pound) from None

    def tariff_of(self, case: Case) -> Tariff:
        """The tariff ``case`` is counted by: its pound's, without a row dated back past
        it when it was closed (``Tariff.for_case``: it keeps its settled figures)."""
        return self.tariff(case.seizure.pound).for_case(case.number)

    def authority_of(self, pound: str) -> str:
        try:
            return self.config.pounds[pound].authority
        except KeyError:
            raise UnknownPoundError("unknown pound", pound=pound) from None


def under_its_act(deps: Deps, seizure: Seizure) -> Seizure:
    """The ``seizure`` under the Act in force for its pound's authority on its impounding
    day (``[[authorities.acts]]``), with the values that entry sets and the powers its
    s.31 notification transfers: a case opened from it keeps that Act so, whatever the
    configuration says later (an intake dated back before a change gets the Act before
    it)."""
    act = act_of_case(deps.config, seizure.pound, seizure.impounded_on)
    return replace(seizure, act=act.key, act_settings=ActSettings.of(act))


def proviso_offices_of(deps: Deps, case: Case) -> tuple[ProvisoOffice, ...]:
    """The offices that may order another disposal of ``case`` (s.13(3) proviso): those
    of the office its Act gives the power to, as its pound's authority had that Act on
    the impounding day, with what a s.31 notification had transferred then (the case
    keeps it: ``Case.profile``)."""
    return deps.config.proviso_offices_of(case.profile.office_for(Power.ORDER_DISPOSAL))


def act_of_case(config: Config, pound: str, impounded_on: date) -> Profile:
    """The Act a case of ``pound`` impounded on ``impounded_on`` is opened under
    (``under_its_act``): the one in force for the pound's authority that day, as the
    configuration says now. A case once opened keeps its own (``Case.profile``; read for
    a list of rows by ``case_acts``): this is for a report not yet a case, and for a row
    whose case is not found. A pound no longer configured: the default Act."""
    found = config.pounds.get(pound)
    return act_in_force(config, found.authority if found is not None else None, impounded_on)


def act_in_force(config: Config, authority: str | None, day: date) -> Profile:
    """The Act in force for ``authority`` on ``day`` (the default Act for none), with the
    values the configuration sets of its gaps and the powers a s.31 notification
    transfers (``ActInForce.profile``): what a text about no one case of it says (a
    heading of a list of its cases)."""
    found = config.authorities.get(authority or "")
    return found.act_on(day).profile() if found is not None else profile(DEFAULT_ACT)


def act_of_caller(deps: Deps, caller: Caller) -> Profile:
    """The Act in force today for the caller's authority (a keeper's: their pound's)."""
    authority = caller.authority
    if authority is None and caller.pound in deps.config.pounds:
        authority = deps.config.pounds[caller.pound or ""].authority
    return act_in_force(deps.config, authority, deps.today())


def statement_of(deps: Deps, case: Case, on: date | None = None) -> Statement:
    """The statement of a case on ``on`` (by default today), with its pound's tariff and
    the configured order of deductions: what every answer reads its figures from. Kept
    with the case (``Case.kept``): a case whose fold is kept (``bot.store.case_cache``)
    is asked about again as the same object."""
    tariff = deps.tariff_of(case)
    day = on or deps.today()
    order = deps.config.deduction_order
    return case.kept(
        ("statement", day, order), (tariff,), lambda: statement(case, tariff, day, order)
    )


def figures_for(deps: Deps, case: Case, on: date | None = None) -> Figures:
    """The figures of a case on ``on`` (by default today), read from its statement: what
    every view of the case gives of its cattle, money and days (``domain.figures``)."""
    return figures_of(statement_of(deps, case, on))


async def load_for_step(tx: CaseStore, case: CaseRef) -> LoadedCase:
    """The case a step is taken on, locked for the step: read now, or as the channel
    already read it (for update, in this transaction)."""
    if isinstance(case, LoadedCase):
        return case
    return await tx.load_case(case, for_update=True)


def require_keeper(caller: Caller, pound: str) -> None:
    """Only the keeper of this pound."""
    if caller.role != KEEPER or caller.pound != pound:
        raise NotAllowedError("not the keeper of this pound", pound=pound)


def require_officer(deps: Deps, caller: Caller, loaded_or_pound: LoadedCase | str) -> str:
    """Only an officer of the authority the pound belongs to; returns that authority."""
    pound = loaded_or_pound if isinstance(loaded_or_pound, str) else loaded_or_pound.pound
    authority = deps.authority_of(pound)
    if caller.role != OFFICER or caller.authority != authority:
        raise NotAllowedError("not an officer of this authority", authority=authority)
    return authority


#: The power each officer's step is taken under, by the event it records: the office the
#: case's Act gives that power to takes the step (``require_office``). A step not named
#: here (the account delivered or refused, a refund, a correction) is for no one office.
STEP_POWERS: Final[Mapping[type[Event], Power]] = MappingProxyType(
    {
        NoticePosted: Power.POST_NOTICE,  # s.13(2)
        AuctionScheduled: Power.FIX_CONDITIONS,  # s.13(3): place, time and conditions
        LotOffered: Power.SELL,  # s.13(3), s.15(1): the auction held
        SaleClosed: Power.SELL,
        DisposedOtherwise: Power.ORDER_DISPOSAL,  # s.13(3) proviso
        ClaimPreferred: Power.HOLD_SURPLUS,  # s.16(3)
        ClaimRejected: Power.HOLD_SURPLUS,
        DepositClaimed: Power.HOLD_SURPLUS,
        CreditedToFund: Power.HOLD_SURPLUS,  # s.17(1)
        DepositOutcome: Power.HEAR_COMPLAINT,  # s.19
    }
)


def may_take(caller: Caller, case: Case, power: Power, held: Collection[Office]) -> bool:
    """Whether ``caller`` may take a step of ``power`` on ``case`` when the active officers
    of its authority hold the offices ``held`` (``CaseStore.offices_held``): a holder of
    the office the case's Act gives the power to may; anyone else only when no officer
    holds that office (``bot.support.offices``). What the step's refusal applies
    (``require_office``) and what the desk offers (``bot.web.actions.forms_for``)."""
    office = case.profile.office_for(power)
    return caller.holds(office) or office not in held


async def require_office(
    tx: CaseStore, caller: Caller, authority: str, case: Case, power: Power
) -> None:
    """A step of ``power`` is for the office the case's Act gives it to: when an active
    officer of the ``authority`` holds that office, only a holder takes it; when none
    does, any officer (``may_take``)."""
    if not may_take(caller, case, power, await tx.offices_held(authority)):
        office = case.profile.office_for(power)
        raise NotHolderError(
            "the step is for the office another officer holds", office=office.value
        )
