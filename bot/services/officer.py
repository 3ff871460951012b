"""Use cases of the officer of the local authority: notice, auction, settlement, deposits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from bot.caller import OFFICER, Caller
from bot.errors import NotAllowedError
from bot.services.base import Deps, require_officer
from bot.services.keeper import Recorded
from bot.store.models import LedgerEntry
from bot.store.tx import LoadedCase, Tx
from domain.case import (
    AuctionScheduled,
    Case,
    DepositOutcome,
    NoticePosted,
    Person,
    SaleClosed,
    Stage,
    deposit_window_end,
    fund_credit_from,
)
from domain.deadlines import Deadline, Role, deadlines
from domain.dues import DuesItem, dues_on
from domain.money import Money
from domain.sale import (
    Account,
    SaleProgress,
    Settlement,
    account_for,
    close_sale,
    credit_to_fund,
    deliver_account,
    dispose_otherwise,
    establish_claim,
    offer_lot,
    refuse_account,
    sale_progress,
    settle,
)

__all__ = [
    "DepositEntry",
    "Settled",
    "account_of",
    "balance_of",
    "claim_deposit",
    "credit_deposit_to_fund",
    "deadlines_due",
    "deposit_entries",
    "deposit_register",
    "ledger",
    "record_account_delivered",
    "record_account_refused",
    "record_deposit_outcome",
    "record_lot",
    "record_notice",
    "record_other_disposal",
    "schedule_auction",
    "settle_sale",
]


async def _load_for_officer(
    tx: Tx, deps: Deps, caller: Caller, number: str
) -> tuple[LoadedCase, str]:
    loaded = await tx.load_case(number, for_update=True)
    return loaded, require_officer(deps, caller, loaded)


async def _apply(tx: Tx, deps: Deps, caller: Caller, loaded: LoadedCase, after: Case) -> Recorded:
    await tx.append_events(loaded, after, caller)
    return Recorded(
        LoadedCase(loaded.row, after), dues_on(after, deps.tariff(loaded.pound), deps.today())
    )


async def record_notice(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    number: str,
    *,
    proclaimed_at: tuple[str, ...],
    office: str | None = None,
    on: date | None = None,
) -> Recorded:
    """The notice was affixed at the office and proclaimed by beat of drum (s.13(2))."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number)
    where = office or deps.config.authorities[authority].office_address
    today = deps.today()
    event = NoticePosted(on=on or today, office=where, proclaimed_at=proclaimed_at)
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


async def schedule_auction(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    number: str,
    *,
    auction_on: date,
    place: str,
    on: date | None = None,
) -> Recorded:
    """Fix the day and place of the public auction (s.13(3), s.15(1))."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    event = AuctionScheduled(on=on or today, auction_on=auction_on, place=place)
    return await _apply(tx, deps, caller, loaded, loaded.case.apply(event, today))


async def record_lot(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    number: str,
    *,
    lot: int,
    count: int,
    price: Money | None,
    buyer: Person | None,
    buyer_role: str | None,
    declared_not_barred: bool,
    on: date | None = None,
) -> tuple[Recorded, SaleProgress]:
    """Heads of a lot offered: sold or not (s.13(3), s.15(1), s.18); then what is still owed."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    if buyer is not None and price is not None and buyer_role is None:
        buyer_role = await tx.barred_role_of(buyer.name, deps.authority_of(loaded.pound))
    after = offer_lot(
        loaded.case,
        lot=lot,
        count=count,
        price=price,
        buyer=buyer,
        buyer_role=buyer_role,
        declared_not_barred=declared_not_barred,
        on=day,
        today=today,
    )
    recorded = await _apply(tx, deps, caller, loaded, after)
    await tx.record_sale_lot(loaded, after)
    return recorded, sale_progress(after, deps.tariff(loaded.pound), day)


async def record_other_disposal(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    number: str,
    *,
    lot: int,
    count: int,
    manner: str,
    ordered_by: str,
    order_reference: str,
    proceeds: Money,
    on: date | None = None,
) -> Recorded:
    """Disposal by the Director's order, with who ordered it and the reference (proviso)."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
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


_ACCOUNTS = {
    "sale_expenses": "sale_expenses",
    "local_authority": "fines",
    "pound_keeper": "keeper_feeding",
    "owner": "owner_balance",
    "deposit": "surplus_deposit",
}


async def settle_sale(
    tx: Tx, deps: Deps, caller: Caller, number: str, *, expenses: Money, on: date | None = None
) -> Settled:
    """Close the sale and settle its money (s.15(2), s.16); every paisa in the ledger."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    after, settlement = close_sale(
        loaded.case,
        deps.tariff(loaded.pound),
        on=day,
        expenses=expenses,
        today=today,
        order=deps.config.deduction_order,
    )
    (event_row,) = await tx.append_events(loaded, after, caller)
    for part in settlement.disbursements:
        tx.ledger(
            authority=authority,
            loaded=loaded,
            event_row=event_row,
            account=_ACCOUNTS[part.payee.value],
            amount=part.amount.paise,
            provision=part.provision,
            on=day,
        )
    await tx.record_settlement(loaded, event_row, settlement, day)
    recorded = Recorded(LoadedCase(loaded.row, after), settlement.dues)
    return Settled(recorded, settlement, account_for(after, settlement, day))


def account_of(deps: Deps, case: Case) -> tuple[Settlement, Account] | None:
    """The s.15(3) account of a settled case, recomputed from its events."""
    closed = case.last(SaleClosed)
    if not isinstance(closed, SaleClosed):
        return None
    settlement = settle(
        case.proceeds,
        dues_on(case, deps.tariff(case.seizure.pound), closed.on),
        closed.owner_appeared,
        deps.config.deduction_order,
    )
    return settlement, account_for(case, settlement, closed.on)


async def record_account_delivered(
    tx: Tx, deps: Deps, caller: Caller, number: str, *, received_by: str, on: date | None = None
) -> Recorded:
    """The owner took the remaining cattle and the balance and gave a receipt (s.15(4))."""
    loaded, _ = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    after = deliver_account(loaded.case, received_by=received_by, on=on or today, today=today)
    return await _apply(tx, deps, caller, loaded, after)


async def record_account_refused(
    tx: Tx, deps: Deps, caller: Caller, number: str, *, on: date | None = None
) -> Recorded:
    """The owner refused: deemed unclaimed, the balance into deposit (s.15(5), s.16(3))."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    after = refuse_account(loaded.case, on=day, today=today)
    recorded = await _apply(tx, deps, caller, loaded, after)
    balance = after.deposited_on and balance_of(after)
    if balance:
        event_row = await tx.last_event_row(loaded)
        for account, sign in (("owner_balance", -1), ("surplus_deposit", 1)):
            tx.ledger(
                authority=authority,
                loaded=loaded,
                event_row=event_row,
                account=account,
                amount=sign * balance.paise,
                provision="s.15(5)",
                on=day,
            )
    return recorded


def balance_of(case: Case) -> Money:
    """The balance of a settled sale: to the owner (s.15(3)) or in deposit (s.16(3))."""
    closed = case.last(SaleClosed)
    return closed.to_owner_or_deposit if isinstance(closed, SaleClosed) else Money.zero()


async def claim_deposit(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    number: str,
    *,
    claimant: str,
    preferred_on: date,
    reference: str,
    on: date | None = None,
) -> Recorded:
    """A claim to the deposit, preferred within three months, established (s.16(3))."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    after = establish_claim(
        loaded.case,
        claimant=claimant,
        preferred_on=preferred_on,
        reference=reference,
        on=day,
        today=today,
    )
    recorded = await _apply(tx, deps, caller, loaded, after)
    await _move_deposit(tx, loaded, authority, balance_of(after), "owner_balance", "s.16(3)", day)
    return recorded


async def credit_deposit_to_fund(
    tx: Tx, deps: Deps, caller: Caller, number: str, *, on: date | None = None
) -> Recorded:
    """Unclaimed three months: the deposit is credited to the authority's fund (s.17(1))."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    after = credit_to_fund(loaded.case, on=day, today=today)
    recorded = await _apply(tx, deps, caller, loaded, after)
    await _move_deposit(tx, loaded, authority, balance_of(after), "fund", "s.17(1)", day)
    return recorded


async def _move_deposit(
    tx: Tx, loaded: LoadedCase, authority: str, amount: Money, to: str, provision: str, day: date
) -> None:
    event_row = await tx.last_event_row(loaded)
    for account, sign in (("surplus_deposit", -1), (to, 1)):
        tx.ledger(
            authority=authority,
            loaded=loaded,
            event_row=event_row,
            account=account,
            amount=sign * amount.paise,
            provision=provision,
            on=day,
        )


async def record_deposit_outcome(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    number: str,
    *,
    returned: bool,
    reference: str,
    on: date | None = None,
) -> Recorded:
    """What became of a s.14 deposit after the s.19 proceedings (returned or applied)."""
    loaded, authority = await _load_for_officer(tx, deps, caller, number)
    today = deps.today()
    day = on or today
    after = loaded.case.apply(DepositOutcome(on=day, returned=returned, reference=reference), today)
    recorded = await _apply(tx, deps, caller, loaded, after)
    deposited = await tx.deposit_amount(loaded)
    event_row = await tx.last_event_row(loaded)
    tx.ledger(
        authority=authority,
        loaded=loaded,
        event_row=event_row,
        account="protest_deposit",
        amount=-deposited.paise,
        provision="s.14",
        on=day,
    )
    if not returned:
        dues = dues_on(loaded.case, deps.tariff(loaded.pound), loaded.case.last_event_on)
        for account, item, provision in (
            ("fines", DuesItem.FINE, "s.17(1)"),
            ("keeper_feeding", DuesItem.FEEDING, "s.16(2)"),
        ):
            tx.ledger(
                authority=authority,
                loaded=loaded,
                event_row=event_row,
                account=account,
                amount=dues.of(item).paise,
                provision=provision,
                on=day,
            )
    return recorded


@dataclass(frozen=True, slots=True)
class DepositEntry:
    """A line of the deposit register (s.16(3)): what is held, since when, until when."""

    number: str
    amount: Money
    deposited_on: date
    window_end: date
    credit_from: date


async def deposit_register(tx: Tx, deps: Deps, caller: Caller) -> list[DepositEntry]:
    """Surplus proceeds the caller's authority holds in deposit (s.16(3))."""
    if caller.role != OFFICER or caller.authority is None:
        raise NotAllowedError("only an officer reads the deposit register")
    pounds = [p.code for p in deps.config.pounds.values() if p.authority == caller.authority]
    return await deposit_entries(tx, pounds)


async def deposit_entries(tx: Tx, pounds: list[str]) -> list[DepositEntry]:
    """What the cases of ``pounds`` hold in deposit (s.16(3)), by pound and number."""
    out = []
    for loaded in await tx.cases_in_stage(pounds, [Stage.IN_DEPOSIT.value]):
        deposited = loaded.case.deposited_on
        assert deposited is not None
        out.append(
            DepositEntry(
                loaded.row.number,
                balance_of(loaded.case),
                deposited,
                deposit_window_end(deposited),
                fund_credit_from(deposited),
            )
        )
    return out


async def ledger(tx: Tx, deps: Deps, caller: Caller) -> list[LedgerEntry]:
    """The ledger of the caller's authority, oldest first."""
    if caller.role != OFFICER or caller.authority is None:
        raise NotAllowedError("only an officer reads the ledger")
    rows = await tx.session.execute(
        select(LedgerEntry)
        .where(LedgerEntry.authority_code == caller.authority)
        .order_by(LedgerEntry.on, LedgerEntry.id)
    )
    return list(rows.scalars())


async def deadlines_due(tx: Tx, deps: Deps, caller: Caller) -> list[tuple[str, Deadline]]:
    """Deadlines of the caller's authority due today or overdue, earliest first."""
    if caller.role != OFFICER or caller.authority is None:
        raise NotAllowedError("only an officer lists the deadlines of an authority")
    today = deps.today()
    pounds = [p.code for p in deps.config.pounds.values() if p.authority == caller.authority]
    open_stages = [s.value for s in Stage if s not in (Stage.RELEASED, Stage.CLOSED, Stage.VOIDED)]
    due = [
        (loaded.row.number, deadline)
        for loaded in await tx.cases_in_stage(pounds, open_stages)
        for deadline in deadlines(loaded.case)
        if deadline.due_on <= today and deadline.who is not Role.OWNER
    ]
    return sorted(due, key=lambda item: (item[1].due_on, item[0]))
