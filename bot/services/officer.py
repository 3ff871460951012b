"""Use cases of the officer of the local authority: notice, auction, settlement, deposits.

Why it is long: the officer's use cases, one per step of ss.13 to 17, with the checks
they share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.config import Authority, Pound
from bot.config.model import spellings
from bot.services.base import (
    STEP_POWERS,
    CaseRef,
    Deps,
    load_for_step,
    proviso_offices_of,
    require_office,
    require_officer,
    statement_of,
)
from bot.services.keeper import Recorded
from bot.services.postings import write_postings
from bot.store.models import LedgerEntry
from bot.store.port import CaseStore, LedgerReads
from bot.store.tx import LoadedCase, named_places
from bot.support.caller import OFFICER, Caller
from bot.support.errors import NotAllowedError
from bot.support.words import BUYER_TITLES_ALL
from domain.case import Case
from domain.deadlines import Deadline, Role
from domain.events import (
    AuctionScheduled,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DepositClaimed,
    DepositOutcome,
    DepositRefunded,
    DisposedOtherwise,
    Event,
    LotOffered,
    NoticePosted,
    SaleClosed,
)
from domain.figures import Figures, figures_of
from domain.money import Money
from domain.profiles import KERALA_1961, Profile
from domain.s07_seizure import Person
from domain.s13_3_proviso import dispose_otherwise
from domain.s13_unclaimed import proclamation_places, village_and_market
from domain.s15_3_account import Account, deliver_account, refuse_account
from domain.s15_sale import SaleProgress, Settlement, offer_lot, settle_or_state_expenses
from domain.s16_s17_proceeds import credit_to_fund, establish_claim, same_claimant
from domain.s18_buyers import BarredMatch, KnownPerson, barred_match
from domain.stages import Stage

__all__ = [
    "DeadlinesDue",
    "DepositEntry",
    "Settled",
    "ShortOfDues",
    "account_of",
    "claim_deposit",
    "credit_deposit_to_fund",
    "deadlines_due",
    "deposit_entries",
    "deposit_register",
    "ledger",
    "record_account_delivered",
    "record_account_refused",
    "record_claim_preferred",
    "record_claim_rejected",
    "record_deposit_outcome",
    "record_lot",
    "record_notice",
    "record_other_disposal",
    "record_refund",
    "schedule_auction",
    "settle_sale",
    "statement_of",
    "village_and_market_of",
]


async def _load_for_officer(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, step: type[Event] | None = None
) -> tuple[LoadedCase, str]:
    """The case, locked, and its authority: only an officer of it, and for a step that
    records ``step`` under a power (``STEP_POWERS``) only a holder of the office the
    case's Act gives it to, when an officer of the authority holds that office
    (``require_office``)."""
    loaded = await load_for_step(tx, number)
    authority = require_officer(deps, caller, loaded)
    power = STEP_POWERS.get(step) if step is not None else None
    if power is not None:
        await require_office(tx, caller, authority, loaded.case, power)
    return loaded, authority


async def _apply(
    tx: CaseStore, deps: Deps, caller: Caller, loaded: LoadedCase, after: Case
) -> Recorded:
    await tx.append_events(loaded, after, caller)
    return Recorded(LoadedCase(loaded.row, after), statement_of(deps, after).dues)


def village_and_market_of(
    authority: Authority, place_seized: str, pound: Pound | None = None
) -> tuple[str, str]:
    """The village and market place nearest to ``place_seized`` (s.13(2)) from the lists
    of the pound and of the authority, else the authority's own."""
    return village_and_market(
        place_seized,
        (pound.markets if pound else {}, authority.markets),
        (authority.village, authority.market_place),
    )


async def record_notice(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    proclaimed_at: tuple[str, ...],
    office: str | None = None,
    on: date | None = None,
) -> Recorded:
    """The notice was affixed at the office and proclaimed by beat of drum in the village
    and at the market place (s.13(2))."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number, NoticePosted)
    config = deps.config.authorities[authority]
    where = office or config.office_address
    today = deps.today()
    village, market = village_and_market_of(
        config, loaded.case.seizure.place_seized, deps.config.pounds[loaded.pound]
    )
    typed = deps.config.place_names.regroup(proclaimed_at)  # a name may hold a comma
    places = proclamation_places(typed, village, market)
    event = named_places(
        NoticePosted(on=on or today, office=where, proclaimed_at=places), deps.config.place_names
    )
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


async def schedule_auction(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    auction_on: date,
    place: str,
    expected_expenses: Money | None = None,
    on: date | None = None,
) -> Recorded:
    """Fix the day and place of the public auction (s.13(3), s.15(1)), with the
    expenses of sale expected (s.15(2); by default the authority's configured figure).

    An auction day already past records an auction held then, from paper records:
    the fixing is dated that day (or the last step recorded, if later)."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number, AuctionScheduled)
    today = deps.today()
    if expected_expenses is None:
        expected_expenses = deps.config.authorities[authority].expected_sale_expenses
    fixed_on = on or max(loaded.case.last_event_on, min(auction_on, today))
    event = AuctionScheduled(
        on=fixed_on,
        auction_on=auction_on,
        place=deps.config.place_names(place),
        expected_expenses=expected_expenses,
    )
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


async def record_lot(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    lot: int,
    count: int,
    price: Money | None,
    buyer: Person | None,
    buyer_role: str | None,
    declared_not_barred: bool,
    buyer_phone: str | None = None,
    on: date | None = None,
) -> tuple[Recorded, SaleProgress]:
    """Heads of a lot offered: sold or not (s.13(3), s.15(1), s.18); then what is still owed."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number, LotOffered)
    today = deps.today()
    day = on or today
    barred: BarredMatch | str | None = buyer_role
    if buyer is not None and price is not None and buyer_role is None:
        barred = await _barred(tx, deps, buyer, buyer_phone, loaded.case.profile)
    after = offer_lot(
        loaded.case,
        lot=lot,
        count=count,
        price=price,
        buyer=buyer,
        buyer_role=barred,
        declared_not_barred=declared_not_barred,
        on=day,
        today=today,
        tariff=deps.tariff_of(loaded.case),
        barred_classes=_barred_classes(deps, loaded.case.profile),
    )
    recorded = await _apply(tx, deps, caller, loaded, after)
    await tx.record_sale_lot(loaded, after)
    progress = statement_of(deps, after, day).sale
    assert progress is not None  # a lot offered: the case is selling
    return recorded, progress


def _barred_classes(deps: Deps, act: Profile) -> tuple[str, ...]:
    """s.18: the classes barred from buying: as the case's Act names them, or, where its
    text was not found, as the configuration's policy says."""
    return act.barred_buyers or deps.config.barred_buyers


async def _barred(
    tx: CaseStore, deps: Deps, buyer: Person, phone: str | None, act: Profile
) -> BarredMatch | None:
    """s.18: the barred class the buyer falls in: a registered keeper or officer of any
    pound or authority, a member listed for any authority, or an office named in the
    buyer's description (the barred classes and their words)."""
    config = deps.config
    known = await tx.registered_keepers_and_officers()
    known += [
        KnownPerson("member", name)
        for authority in config.authorities.values()
        for name in authority.members
    ]
    return barred_match(
        buyer, phone, classes=_barred_classes(deps, act), known=known, titles=BUYER_TITLES_ALL
    )


async def record_other_disposal(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    lot: int,
    count: int,
    manner: str,
    ordered_by: str,
    order_reference: str,
    proceeds: Money,
    on: date | None = None,
) -> Recorded:
    """Disposal by the order of the office the case's Act gives the power to (the
    Director under the Kerala Act as enacted), with who ordered it and the reference
    (proviso): ``ordered_by`` names one of the offices configured as that office, or
    poundbot's where none is (its code, or its full or short name in any language),
    recorded by its name; any other is refused."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number, DisposedOtherwise)
    today = deps.today()
    offices = proviso_offices_of(deps, loaded.case)
    after = dispose_otherwise(
        loaded.case,
        lot=lot,
        count=count,
        manner=manner,
        ordered_by=ordered_by,
        order_reference=order_reference,
        proceeds=proceeds,
        on=on or today,
        today=today,
        offices=spellings(offices),
    )
    recorded = await _apply(tx, deps, caller, loaded, after)
    await tx.record_sale_lot(loaded, after)
    return recorded


@dataclass(frozen=True, slots=True)
class Settled:
    """A settled sale: the case, where the money went and the s.15(3) account."""

    recorded: Recorded
    settlement: Settlement
    account: Account


@dataclass(frozen=True, slots=True)
class ShortOfDues:
    """Not settled: the actual expenses leave the dues unmet while heads remain; they
    are recorded, and one more head may be sold (s.15(1), s.15(2))."""

    recorded: Recorded
    expenses: Money
    short: Money


_ACCOUNTS = {
    "sale_expenses": "sale_expenses",
    "local_authority": "fines",
    "pound_keeper": "keeper_feeding",
    "owner": "owner_balance",
    "deposit": "surplus_deposit",
}


async def settle_sale(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    expenses: Money,
    on: date | None = None,
) -> Settled | ShortOfDues:
    """Close the sale and settle its money (s.15(2), s.16); every paisa in the ledger.
    On the owner's route, actual expenses that leave the dues unmet while heads remain
    are recorded instead, and one more head may be sold (s.15(1))."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number, SaleClosed)
    today = deps.today()
    day = on or today
    after, settled, short = settle_or_state_expenses(
        loaded.case,
        deps.tariff_of(loaded.case),
        on=day,
        expenses=expenses,
        today=today,
        order=deps.config.deduction_order,
    )
    if settled is None:
        return ShortOfDues(await _apply(tx, deps, caller, loaded, after), expenses, short)
    settlement = settled
    (event_row,) = await tx.append_events(loaded, after, caller)
    await write_postings(tx, deps, loaded, after, day, event_row)
    await tx.record_settlement(loaded, event_row, settlement, day)
    recorded = Recorded(LoadedCase(loaded.row, after), settlement.dues)
    account = statement_of(deps, after, day).account
    assert account is not None
    return Settled(recorded, settlement, account)


def account_of(deps: Deps, case: Case) -> tuple[Settlement, Account] | None:
    """The last settlement of a settled case and the s.15(3) account of every round."""
    stated = statement_of(deps, case)
    settled = [r.settlement for r in stated.rounds if r.settlement is not None]
    if not settled or stated.account is None:
        return None
    return settled[-1], stated.account


async def record_account_delivered(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    received_by: str,
    on: date | None = None,
) -> Recorded:
    """The owner took the remaining cattle and the balance and gave a receipt (s.15(4))."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    after = deliver_account(loaded.case, received_by=received_by, on=on or today, today=today)
    return await _apply(tx, deps, caller, loaded, after)


async def record_account_refused(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, *, on: date | None = None
) -> Recorded:
    """The owner refused: deemed unclaimed, the balance into deposit (s.15(5), s.16(3))."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    after = refuse_account(loaded.case, on=day, today=today)
    recorded = await _apply(tx, deps, caller, loaded, after)
    await write_postings(tx, deps, loaded, after, day)
    return recorded


async def claim_deposit(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    claimant: str,
    preferred_on: date | None,
    reference: str,
    on: date | None = None,
) -> Recorded:
    """A claim to the deposit, preferred within three months, established (s.16(3)).

    Without a day it was preferred: that of the claim pending, else the day established.
    """
    loaded, _ = await _load_for_officer(tx, deps, caller, number, DepositClaimed)
    today = deps.today()
    day = on or today
    pending = next(
        (c for c in loaded.case.pending_claims if same_claimant(c.claimant, claimant)),
        loaded.case.pending_claim,
    )
    after = establish_claim(
        loaded.case,
        claimant=claimant,
        preferred_on=preferred_on or (pending.preferred if pending else day),
        reference=reference,
        on=day,
        today=today,
    )
    recorded = await _apply(tx, deps, caller, loaded, after)
    await write_postings(tx, deps, loaded, after, day)
    return recorded


async def credit_deposit_to_fund(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, *, on: date | None = None
) -> Recorded:
    """Unclaimed three months: the deposit is credited to the authority's fund (s.17(1))."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number, CreditedToFund)
    today = deps.today()
    day = on or today
    after = credit_to_fund(loaded.case, on=day, today=today)
    recorded = await _apply(tx, deps, caller, loaded, after)
    await write_postings(tx, deps, loaded, after, day)
    return recorded


async def record_deposit_outcome(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    returned: bool,
    reference: str,
    on: date | None = None,
) -> Recorded:
    """What became of a s.14 deposit after the s.19 proceedings.

    The seizure found illegal (``returned``): the deposit is refunded to the owner.
    The seizure upheld: the Act is silent; poundbot's stated policy (docs/the-act.md,
    configuration) applies the deposit as what it was taken for, the fines (to the
    local authority's fund, s.17(1)) and the feeding charges (to the keeper, s.16(2)).
    """
    loaded, _ = await _load_for_officer(tx, deps, caller, number, DepositOutcome)
    today = deps.today()
    day = on or today
    after = loaded.case.apply(DepositOutcome(on=day, returned=returned, reference=reference), today)
    recorded = await _apply(tx, deps, caller, loaded, after)
    await write_postings(tx, deps, loaded, after, day)
    return recorded


async def record_refund(
    tx: CaseStore, deps: Deps, caller: Caller, number: CaseRef, *, on: date | None = None
) -> Recorded:
    """The deposit ordered refunded (the seizure found illegal) was paid back to the
    owner (s.19). The ledger counted the refund owed when the outcome was recorded."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    event = DepositRefunded(on=on or today)
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


async def record_claim_preferred(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    claimant: str,
    on: date | None = None,
) -> Recorded:
    """A claim to the deposit preferred within three months, not yet established: the
    deposit is not credited to the fund while it is pending (s.16(3)). Any number may
    be pending. A claim preferred on a day before the last step recorded (entered late)
    is entered today, with the day it was preferred."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number, ClaimPreferred)
    today = deps.today()
    day = on or today
    if day < loaded.case.last_event_on:
        event = ClaimPreferred(on=today, claimant=claimant, preferred_on=day)
    else:
        event = ClaimPreferred(on=day, claimant=claimant)
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


async def record_claim_rejected(
    tx: CaseStore,
    deps: Deps,
    caller: Caller,
    number: CaseRef,
    *,
    reference: str,
    claimant: str = "",
    on: date | None = None,
) -> Recorded:
    """A claim pending to the deposit was not established (s.16(3)): ``claimant``'s, or
    the only one pending."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number, ClaimRejected)
    today = deps.today()
    event = ClaimRejected(on=on or today, reference=reference, claimant=claimant)
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


@dataclass(frozen=True, slots=True)
class DepositEntry:
    """A line of the deposit register (s.16(3)): what is held, since when, until when.

    ``window_end`` and ``credit_from`` are None while the rest of a refused account is
    still to be sold: the three months run from its settlement (s.15(5), s.16(3)).
    """

    number: str
    amount: Money
    deposited_on: date
    window_end: date | None
    credit_from: date | None
    pending: ClaimPreferred | None = None  # a claim preferred, not yet decided
    #: The case's figures of the day.
    figures: Figures | None = None
    #: The Act the case is under: its line is in that Act's words.
    act: Profile = KERALA_1961


async def deposit_register(tx: CaseStore, deps: Deps, caller: Caller) -> list[DepositEntry]:
    """Surplus proceeds the caller's authority holds in deposit (s.16(3))."""
    if caller.role != OFFICER or caller.authority is None:
        raise NotAllowedError("only an officer reads the deposit register")
    pounds = [p.code for p in deps.config.pounds.values() if p.authority == caller.authority]
    return await deposit_entries(tx, deps, pounds)


#: The stages in which a case may hold money in deposit: in deposit (s.16(3)), and the
#: first round's balance of a refused account while the rest go the s.13 way (s.15(5)).
_HOLDING_STAGES = (
    Stage.IN_DEPOSIT,
    Stage.DEEMED_UNCLAIMED,
    Stage.REPORTED,
    Stage.NOTICE_POSTED,
    Stage.SELLING,
)


async def deposit_entries(tx: CaseStore, deps: Deps, pounds: list[str]) -> list[DepositEntry]:
    """What the cases of ``pounds`` hold in deposit (s.16(3), s.15(5)), by pound and
    number, as their statements give it."""
    out = []
    for loaded in await tx.cases_in_stage(pounds, [s.value for s in _HOLDING_STAGES]):
        stated = statement_of(deps, loaded.case)
        if not stated.held_in_deposit or stated.held_since is None:
            continue
        out.append(
            DepositEntry(
                loaded.row.number,
                stated.held_in_deposit,
                stated.deposited_on or stated.held_since,
                stated.window_end,
                stated.credit_from,
                loaded.case.pending_claim,
                figures_of(stated),
                loaded.case.profile,
            )
        )
    return out


async def ledger(tx: LedgerReads, deps: Deps, caller: Caller) -> list[LedgerEntry]:
    """The ledger of the caller's authority, oldest first."""
    if caller.role != OFFICER or caller.authority is None:
        raise NotAllowedError("only an officer reads the ledger")
    return await tx.ledger_of(caller.authority)


@dataclass(frozen=True, slots=True)
class DeadlinesDue:
    """DUE: the deadlines due today or overdue, each with its case's number, earliest
    first; and the Act each of those cases is under (its deadlines cite that Act)."""

    items: list[tuple[str, Deadline]]
    acts: dict[str, Profile]


async def deadlines_due(tx: CaseStore, deps: Deps, caller: Caller) -> DeadlinesDue:
    """Deadlines of the caller's authority due today or overdue, earliest first."""
    if caller.role != OFFICER or caller.authority is None:
        raise NotAllowedError("only an officer lists the deadlines of an authority")
    today = deps.today()
    pounds = [p.code for p in deps.config.pounds.values() if p.authority == caller.authority]
    open_stages = [s.value for s in Stage if s not in (Stage.RELEASED, Stage.CLOSED, Stage.VOIDED)]
    cases = await tx.cases_in_stage(pounds, open_stages)
    due = [
        (loaded.row.number, deadline)
        for loaded in cases
        for deadline in statement_of(deps, loaded.case, today).deadlines
        if deadline.due_on <= today and deadline.who is not Role.OWNER
    ]
    items = sorted(due, key=lambda item: (item[1].due_on, item[0]))
    return DeadlinesDue(items, {loaded.row.number: loaded.case.profile for loaded in cases})
