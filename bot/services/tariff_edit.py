"""The tariffs changed on the web desk: the dated fines (s.11) and feeding rates (s.4) of
a tariff, a row added or a row not yet in force withdrawn, by its authority's
administrators (a tariff of pounds of several authorities: a state administrator's).

A rate or fine once used to count money is never changed in place: a new dated row is
added (``domain.tariff``). A row from today or later goes straight in. A row dated back
before today changes the figures of the cases it counts: the open ones are listed, and
the row goes in only when the administrator has confirmed each of them; the closed ones
keep the figures they were settled on (the row names them, ``closed``, and
``Tariff.for_case`` leaves it out for them). Only a row from after today, used by no
case yet, may be withdrawn.

Each change is written through ``bot.services.config_edit.apply_edit`` (who, why, the
version it was made on, the audit of each value).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import date
from typing import Any, Final, NamedTuple

import tomlkit
from tomlkit.items import Array
from tomlkit.toml_document import TOMLDocument

from bot.config import Config
from bot.config.edit import Change, shown
from bot.services.base import Deps
from bot.services.config_edit import Written, apply_edit, may_change
from bot.store.tariff_reads import cases_counted_since
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.errors import BadInputError, ConfigRefusedError, NotAllowedError
from domain.errors import DomainError
from domain.money import Money
from domain.stages import OPEN_STAGES
from domain.statement import statement
from domain.tariff import DatedRate, RateTable, Tariff

__all__ = [
    "ENTITIES",
    "SCHEDULES",
    "CasesToConfirmError",
    "NewRates",
    "RateInForceError",
    "TariffOf",
    "Touched",
    "UnknownTariffError",
    "add_rates",
    "tariff_of",
    "tariffs_of",
    "touched_by",
    "withdraw_rate",
]

#: The two schedules of a tariff, as the configuration names them, and the entity the
#: audit names a row of each by.
SCHEDULES: Final = ("fines", "feeding")
ENTITIES: Final = {"fines": "fine", "feeding": "feeding"}
#: The longest notification a row names.
_SOURCE: Final = 300


class UnknownTariffError(BadInputError):
    """No pound applies a tariff of that name."""

    code = "unknown_tariff"


class CasesToConfirmError(BadInputError):
    """A row dated back changes the figures of open cases not all confirmed (``cases``:
    every open case it changes, to be confirmed one by one)."""

    code = "cases_to_confirm"


class RateInForceError(BadInputError):
    """A row from today or before may have counted money: it is never withdrawn (a new
    row is added instead)."""

    code = "rate_in_force"


class TariffOf(NamedTuple):
    """A tariff: its name, the authority whose administrators change it (None: pounds of
    several authorities apply it, a state administrator's), the pounds that apply it."""

    name: str
    authority: str | None
    pounds: tuple[str, ...]
    tariff: Tariff


class NewRates(NamedTuple):
    """Rows to add to one schedule of a tariff, from one day, by one notification: the
    amount for each kind given (a kind left out gets no row)."""

    schedule: str
    applies_from: date
    amounts: Mapping[str, Money]
    source: str


class Touched(NamedTuple):
    """The cases whose figures rows dated back would change today: the open ones (by
    number, to be confirmed), and the closed ones of each kind (they keep theirs)."""

    open: tuple[str, ...]
    closed: Mapping[str, tuple[str, ...]]


def _tariffs(config: Config) -> dict[str, TariffOf]:
    pounds: dict[str, list[str]] = {}
    for code, pound in config.pounds.items():
        pounds.setdefault(pound.tariff, []).append(code)
    found = {}
    for name, codes in sorted(pounds.items()):
        authorities = {config.pounds[code].authority for code in codes}
        authority = authorities.pop() if len(authorities) == 1 else None
        found[name] = TariffOf(name, authority, tuple(codes), config.tariffs[codes[0]])
    return found


def tariffs_of(config: Config, caller: Caller) -> list[TariffOf]:
    """The tariffs ``caller`` may change, by name (an administrator's only)."""
    if not caller.is_admin:
        raise NotAllowedError("only an administrator changes the tariffs")
    return [t for t in _tariffs(config).values() if may_change(caller, t.authority)]


def tariff_of(config: Config, caller: Caller, name: str) -> TariffOf:
    """The tariff ``name``, if ``caller`` may change it."""
    if not caller.is_admin:
        raise NotAllowedError("only an administrator changes the tariffs")
    found = _tariffs(config).get(name)
    if found is None:
        raise UnknownTariffError("no such tariff", tariff=name[:40])
    if not may_change(caller, found.authority):
        raise NotAllowedError("not an administrator of it", authority=found.authority)
    return found


def _with(tariff: Tariff, schedule: str, rows: Mapping[str, DatedRate]) -> Tariff:
    """``tariff`` with ``rows`` (by kind) added to ``schedule``."""
    tables = dict(tariff.fines if schedule == "fines" else tariff.feeding)
    for kind, row in rows.items():
        tables[kind] = RateTable.of([*tables[kind].rows, row])
    if schedule == "fines":
        return tariff._replace(fines=tables)
    return tariff._replace(feeding=tables)


def _checked(config: Config, found: TariffOf, rates: NewRates) -> dict[str, DatedRate]:
    """The rows ``rates`` adds, by kind, each checked; ``BadInputError`` (``what``: the
    field at fault) for the first that is not a row the schedule can take."""
    if rates.schedule not in SCHEDULES:
        raise BadInputError("no such schedule", what="schedule")
    source = " ".join(rates.source.split())
    if not source or len(source) > _SOURCE:
        raise BadInputError("the notification is required", what="source")
    if not rates.amounts:
        raise BadInputError("no amount given", what="amount")
    tables: Mapping[str, RateTable] = getattr(found.tariff, rates.schedule)
    rows = {}
    for kind, amount in rates.amounts.items():
        if kind not in config.kinds or kind not in tables:
            raise BadInputError("no such kind", what="kind", kind=kind[:40])
        if amount.paise <= 0:
            raise BadInputError("an amount is more than nothing", what="amount", kind=kind)
        if any(row.applies_from == rates.applies_from for row in tables[kind].rows):
            raise BadInputError("a row from that day", what="from", kind=kind)
        rows[kind] = DatedRate(rates.applies_from, amount, source)
    return rows


async def touched_by(store: Store, deps: Deps, found: TariffOf, rates: NewRates) -> Touched:
    """The cases whose figures on today the rows of ``rates`` would change: each case of
    the pounds applying the tariff that the rows may count, counted again with the row
    of each kind and without (a case that cannot be counted either way is counted as
    changed)."""
    rows = _checked(deps.config, found, rates)
    today = deps.today()
    order = deps.config.deduction_order
    opened: list[str] = []
    closed: dict[str, list[str]] = {kind: [] for kind in rows}
    async with store.reading() as tx:
        stages = [stage.value for stage in OPEN_STAGES]
        numbers = await cases_counted_since(
            tx, found.pounds, list(rows), rates.applies_from, stages
        )
        for number in numbers:
            case = (await tx.load_case(number)).case
            tariff = deps.tariff_of(case)
            for kind, row in rows.items():
                if not any(lot.kind == kind for lot in case.seizure.lots):
                    continue
                try:
                    before = statement(case, tariff, today, order)
                    changed = statement(
                        case, _with(tariff, rates.schedule, {kind: row}), today, order
                    )
                    same = before == changed
                except DomainError:
                    same = False
                if same:
                    continue
                if case.stage in OPEN_STAGES:
                    if number not in opened:
                        opened.append(number)
                else:
                    closed[kind].append(number)
    return Touched(tuple(opened), {kind: tuple(numbers) for kind, numbers in closed.items()})


def _row_item(row: DatedRate, closed: Collection[str]) -> Any:
    """A row as the configuration writes it (an inline table, as the sample's are)."""
    parts = [
        f"from = {row.applies_from.isoformat()}",
        f"rupees = {tomlkit.string(_rupees(row.amount)).as_string()}",
        f"source = {tomlkit.string(row.source).as_string()}",
    ]
    if closed:
        parts.append(f"closed = {tomlkit.item(sorted(closed)).as_string()}")
    return tomlkit.parse("row = { " + ", ".join(parts) + " }")["row"]


def _rupees(amount: Money) -> str:
    """Rupees as the configuration writes them: ``"500"``, ``"37.50"``."""
    whole, paise = divmod(amount.paise, 100)
    return f"{whole}.{paise:02d}" if paise else str(whole)


def _rows_of(document: TOMLDocument, name: str, schedule: str, kind: str) -> Array:
    """The array of rows of ``kind`` in ``[tariffs.NAME.SCHEDULE]``."""
    found: Any = document
    for part in ("tariffs", name, schedule, kind):
        found = found.get(part) if isinstance(found, Mapping) else None
    if not isinstance(found, Array):  # not reached: the version in force was read so
        raise ConfigRefusedError("the tariff's rows are not a list", faults=[])
    return found


async def add_rates(
    store: Store,
    deps: Deps,
    caller: Caller,
    *,
    based_on: int,
    name: str,
    rates: NewRates,
    reason: str,
    confirmed: Collection[str] = (),
) -> Written:
    """Add the rows of ``rates`` to tariff ``name``, on version ``based_on``, for
    ``reason``. From before today: refused (``CasesToConfirmError``, with every open
    case the rows change) unless each such case is among ``confirmed``; the closed
    cases they would change keep their figures (each row names them)."""
    found = tariff_of(deps.config, caller, name)
    rows = _checked(deps.config, found, rates)
    closed: Mapping[str, tuple[str, ...]] = {}
    if rates.applies_from <= deps.today():
        touched = await touched_by(store, deps, found, rates)
        unconfirmed = [n for n in touched.open if n not in set(confirmed)]
        if rates.applies_from < deps.today() and unconfirmed:
            raise CasesToConfirmError("confirm the open cases", cases=list(touched.open))
        closed = touched.closed
    entity = ENTITIES[rates.schedule]

    def edit(document: TOMLDocument) -> list[Change]:
        made = []
        for kind, row in rows.items():
            item = _row_item(row, closed.get(kind, ()))
            array = _rows_of(document, name, rates.schedule, kind)
            array.append(item)
            array.multiline(True)
            key = f"{name}.{kind}"
            new = shown(item)
            made.append(
                Change(found.authority, entity, key, row.applies_from.isoformat(), None, new)
            )
        return made

    return await apply_edit(store, caller, based_on=based_on, edit=edit, reason=reason)


async def withdraw_rate(
    store: Store,
    deps: Deps,
    caller: Caller,
    *,
    based_on: int,
    name: str,
    schedule: str,
    kind: str,
    applies_from: date,
    reason: str,
) -> Written:
    """Withdraw the row of ``kind`` from ``applies_from`` in ``schedule`` of tariff
    ``name``: only a row from after today (no money counted by it yet)."""
    found = tariff_of(deps.config, caller, name)
    if schedule not in SCHEDULES:
        raise BadInputError("no such schedule", what="schedule")
    tables: Mapping[str, RateTable] = getattr(found.tariff, schedule)
    if kind not in tables or not any(r.applies_from == applies_from for r in tables[kind].rows):
        raise BadInputError("no such row", what="row")
    if applies_from <= deps.today():
        raise RateInForceError("a row in force is kept", applies_from=applies_from.isoformat())
    entity = ENTITIES[schedule]

    def edit(document: TOMLDocument) -> list[Change]:
        array = _rows_of(document, name, schedule, kind)
        for index, row in enumerate(array):
            if isinstance(row, Mapping) and row.get("from") == applies_from:
                old = shown(row)
                del array[index]
                day = applies_from.isoformat()
                return [Change(found.authority, entity, f"{name}.{kind}", day, old, None)]
        return []

    return await apply_edit(store, caller, based_on=based_on, edit=edit, reason=reason)
