"""What the printable documents read, for whoever may read it: an officer or an
authority admin the pounds of their authority, a keeper their own pound, a state admin
every pound.

The s.15(3) account and the s.15(4) receipt of a case; the deposit register (s.16(3));
the monthly register of cases (s.7); the ledger by provision. The web calls these as
SMS and Telegram call the officer's use cases: it never reads the store itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date

from bot.adapters.export import LedgerLine, ledger_lines
from bot.services.base import Deps, figures_for
from bot.services.officer import DepositEntry, account_of, deposit_entries
from bot.store.port import CaseStore, LedgerReads
from bot.store.tx import LoadedCase
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.errors import BadInputError, NoAccountError, NoReceiptError, NotAllowedError
from domain.case import Case
from domain.events import AccountDelivered
from domain.figures import Figures
from domain.profiles import Profile
from domain.s15_3_account import Account, Receipt, receipt_for
from domain.s15_sale import Settlement

__all__ = [
    "AccountDocument",
    "LedgerDocument",
    "ProvisionTotal",
    "RegisterRow",
    "Scope",
    "account_document",
    "by_provision",
    "case_for",
    "case_register",
    "deposit_register_for",
    "ledger_document",
    "month_range",
    "receipt_document",
    "scope_of",
]


@dataclass(frozen=True, slots=True)
class Scope:
    """The pounds a person may read, and the authority they belong to (None: all)."""

    authority: str | None
    pounds: tuple[str, ...]


def scope_of(deps: Deps, caller: Caller, authority: str | None = None) -> Scope:
    """The caller's pounds, narrowed to ``authority`` when given; another authority's
    pounds are refused, an authority that does not exist is bad input."""
    config = deps.config
    if authority is not None and authority not in config.authorities:
        raise BadInputError("unknown authority", authority=authority)
    if caller.is_state_admin:
        pounds = tuple(
            code for code, p in config.pounds.items() if authority in (None, p.authority)
        )
        return Scope(authority, pounds)
    if caller.role in (OFFICER, ADMIN) and caller.authority in config.authorities:
        if authority not in (None, caller.authority):
            raise NotAllowedError("not of this authority", authority=authority)
        pounds = tuple(code for code, p in config.pounds.items() if p.authority == caller.authority)
        return Scope(caller.authority, pounds)
    if caller.role == KEEPER and caller.pound is not None and caller.pound in config.pounds:
        own = deps.authority_of(caller.pound)
        if authority not in (None, own):
            raise NotAllowedError("not a keeper of this authority", authority=authority)
        return Scope(own, (caller.pound,))
    raise NotAllowedError("only officers, keepers and admins read the documents")


def month_range(year: int, month: int) -> tuple[date, date]:
    """The first day of the month and the first day of the next one."""
    try:
        start = date(year, month, 1)
    except ValueError:
        raise BadInputError("not a month", year=year, month=month) from None
    return start, date(year + month // 12, month % 12 + 1, 1)


async def case_for(tx: CaseStore, deps: Deps, caller: Caller, number: str) -> LoadedCase:
    """A case the caller may read (unknown: ``UnknownCaseError``; another's: refused)."""
    loaded = await tx.load_case(number)
    if loaded.pound not in scope_of(deps, caller).pounds:
        raise NotAllowedError("a case of another pound", number=loaded.row.number)
    return loaded


@dataclass(frozen=True, slots=True)
class AccountDocument:
    """A settled case, its settlement, its s.15(3) account and, once the owner took the
    cattle and the balance, the s.15(4) receipt (None: not yet delivered)."""

    loaded: LoadedCase
    settlement: Settlement
    account: Account
    receipt: Receipt | None
    #: The case's figures of the day (what it comes to now; the account, as of its
    #: settlement).
    figures: Figures | None = None

    @property
    def case(self) -> Case:
        return self.loaded.case


async def account_document(
    tx: CaseStore, deps: Deps, caller: Caller, number: str
) -> AccountDocument:
    """The s.15(3) account and the s.15(4) receipt of a settled case; a case not settled
    is refused (there is no account before the sale is closed, s.15(3))."""
    loaded = await case_for(tx, deps, caller, number)
    settled = account_of(deps, loaded.case)
    if settled is None:
        raise NoAccountError("no account before the sale is settled", number=loaded.row.number)
    settlement, account = settled
    delivered = loaded.case.last(AccountDelivered)
    receipt = (
        receipt_for(account, delivered.receipt_by, delivered.on)
        if isinstance(delivered, AccountDelivered)
        else None
    )
    return AccountDocument(loaded, settlement, account, receipt, figures_for(deps, loaded.case))


async def receipt_document(
    tx: CaseStore, deps: Deps, caller: Caller, number: str
) -> AccountDocument:
    """The account behind the s.15(4) receipt: only on the s.15 route, where the owner
    appeared and takes the remaining cattle and the balance; cattle sold unclaimed
    (s.13(3)) leave no one to give a receipt, their balance goes into deposit (s.16(3))."""
    document = await account_document(tx, deps, caller, number)
    if not document.case.owner_appeared:
        raise NoReceiptError("sold unclaimed: no owner's receipt", number=document.case.number)
    return document


async def deposit_register_for(
    tx: CaseStore, deps: Deps, caller: Caller, authority: str | None = None
) -> list[DepositEntry]:
    """What is held in deposit (s.16(3)) for the caller's pounds, with the day each
    deposit's three months end and the day the fund may be credited (s.17(1))."""
    return await deposit_entries(tx, deps, list(scope_of(deps, caller, authority).pounds))


@dataclass(frozen=True, slots=True)
class RegisterRow:
    """A case of the register (s.7) with its figures of the day: the days impounded
    (s.15(3)(b)), the heads sold and those disposed of otherwise, counted apart."""

    loaded: LoadedCase
    figures: Figures

    @property
    def case(self) -> Case:
        return self.loaded.case


async def case_register(
    tx: CaseStore, deps: Deps, caller: Caller, start: date, end: date, authority: str | None = None
) -> list[RegisterRow]:
    """The cases brought to the caller's pounds from ``start`` to before ``end`` (s.7),
    voided ones included (the register keeps every number), with their figures today."""
    pounds = list(scope_of(deps, caller, authority).pounds)
    return [
        RegisterRow(loaded, figures_for(deps, loaded.case))
        for loaded in await tx.cases_impounded(pounds, start, end)
    ]


@dataclass(frozen=True, slots=True)
class ProvisionTotal:
    """The entries under one provision, their totals per account and in all (paise)."""

    provision: str
    lines: tuple[LedgerLine, ...]
    accounts: tuple[tuple[str, int], ...]
    total: int


@dataclass(frozen=True, slots=True)
class LedgerDocument:
    """The ledger of a period by provision, with the totals per account and in all; the
    Act of each case of its lines, by number (its entries are in that Act's words)."""

    lines: tuple[LedgerLine, ...]
    provisions: tuple[ProvisionTotal, ...]
    accounts: tuple[tuple[str, int], ...]
    total: int
    acts: Mapping[str, Profile] = field(default_factory=dict)


def _sums(lines: tuple[LedgerLine, ...]) -> tuple[tuple[str, int], ...]:
    sums: dict[str, int] = {}
    for line in lines:
        sums[line.account] = sums.get(line.account, 0) + line.amount_paise
    return tuple(sorted(sums.items()))


def by_provision(lines: list[LedgerLine]) -> LedgerDocument:
    """Group ledger entries by their provision (in the Act's order of sections), with
    totals; whatever provisions and accounts the entries carry appear."""
    groups: dict[str, list[LedgerLine]] = {}
    for line in lines:
        groups.setdefault(line.provision, []).append(line)
    provisions = tuple(
        ProvisionTotal(
            provision,
            tuple(group),
            _sums(tuple(group)),
            sum(line.amount_paise for line in group),
        )
        for provision, group in sorted(groups.items(), key=lambda item: _provision_key(item[0]))
    )
    every = tuple(lines)
    return LedgerDocument(every, provisions, _sums(every), sum(x.amount_paise for x in every))


def _provision_key(provision: str) -> tuple[tuple[int, str], ...]:
    # "s.16(2)" < "s.16(3)" < "s.17(1)" < "s.9": numbers compare as numbers.
    parts = provision.removeprefix("s.").replace(")", "").replace("(", " ").split()
    return tuple((int(p), "") if p.isdecimal() else (10**6, p) for p in parts)


async def ledger_document(
    tx: LedgerReads,
    deps: Deps,
    caller: Caller,
    start: date,
    end: date,
    authority: str | None = None,
) -> LedgerDocument:
    """The ledger of the caller's scope from ``start`` to before ``end``, by provision,
    with the Act of each case of its lines, as the case keeps it (``case_acts``, read in
    one query)."""
    scope = scope_of(deps, caller, authority)
    lines = await ledger_lines(
        tx, authority=scope.authority, pounds=scope.pounds, start=start, end=end
    )
    acts = await tx.case_acts({line.case_number for line in lines})
    return replace(by_provision(lines), acts=acts)
