"""The figures behind the charts of a year, for whoever may read them (an officer or an
authority admin their authority, a keeper their pound, a state admin every pound):
heads impounded per month by kind (s.7), days in the pound (s.15(3)(b)), money per month
by account with its provision (the ledger), and how many s.13(1) reports and s.13(2)
notices were on time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.adapters.export import LedgerLine, ledger_lines
from bot.services.base import Deps, figures_for
from bot.services.documents import scope_of
from bot.store.port import UnitOfWork
from bot.support.caller import Caller
from domain.case import Case
from domain.figures import Figures
from domain.record import Timeliness, notice_timeliness, report_timeliness
from domain.stages import Stage

__all__ = [
    "MONEY_ACCOUNTS",
    "STAY_BINS",
    "Series",
    "YearFigures",
    "figures",
    "year_figures",
]

#: Days in the pound, grouped: 1-7 (claimed before the s.13(1) report), 8-14, ... 31+.
STAY_BINS: tuple[tuple[int, int | None], ...] = (
    (1, 7),
    (8, 14),
    (15, 21),
    (22, 30),
    (31, 60),
    (61, None),
)

#: The accounts the money chart shows first, in this order; any other account the
#: ledger credits follows, so a new kind of entry appears without a change here.
MONEY_ACCOUNTS = ("fines", "keeper_feeding", "protest_deposit", "surplus_deposit", "fund")

#: Ledger accounts that pass money back out rather than receive it (not charted).
_NOT_CHARTED = frozenset({"owner_balance", "sale_expenses"})


@dataclass(frozen=True, slots=True)
class Series:
    """One series of a chart: its key (a kind, an account, a timeliness) and values."""

    key: str
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class YearFigures:
    """Everything the four charts of a year draw."""

    year: int
    authority: str | None
    heads_by_kind: tuple[Series, ...]  # 12 values each, heads brought per month
    cases_per_month: tuple[int, ...]
    stays: tuple[Series, ...]  # "left" / "still", one value per STAY_BINS
    money: tuple[Series, ...]  # paise received per month, one series per account
    timeliness: tuple[Series, ...]  # on_time / late / overdue: [s.13(1), s.13(2)]
    #: The figures of the cases of the year the charts count, in the order counted.
    cases: tuple[Figures, ...] = ()


def _stay_bin(days: int) -> int:
    for i, (low, high) in enumerate(STAY_BINS):
        if days >= low and (high is None or days <= high):
            return i
    return 0


def figures(
    cases: Sequence[tuple[Case, Figures]], lines: Sequence[LedgerLine], year: int, today: date
) -> YearFigures:
    """The figures of the cases impounded in ``year`` (each with its figures of ``today``:
    the days impounded, ``domain.figures``) and the ledger entries dated in it."""
    counted = [(c, f) for c, f in cases if c.seizure.impounded_on.year == year]
    in_year = [c for c, _ in counted]
    heads: dict[str, list[int]] = {}
    per_month = [0] * 12
    for case in in_year:
        month = case.seizure.impounded_on.month - 1
        if case.stage is not Stage.VOIDED:
            per_month[month] += 1
            for lot in case.seizure.lots:
                heads.setdefault(lot.kind, [0] * 12)[month] += lot.count
    left, still = [0] * len(STAY_BINS), [0] * len(STAY_BINS)
    for _case, of_case in counted:
        days = of_case.days_impounded
        if days is not None:
            (still if of_case.remaining else left)[_stay_bin(days)] += 1
    money: dict[str, list[int]] = {}
    for line in lines:
        if line.on.year == year and line.amount_paise > 0 and line.account not in _NOT_CHARTED:
            money.setdefault(line.account, [0] * 12)[line.on.month - 1] += line.amount_paise
    order = [a for a in MONEY_ACCOUNTS if a in money] + sorted(set(money) - set(MONEY_ACCOUNTS))
    timely = {t: [0, 0] for t in Timeliness}
    for case in in_year:
        judged = (report_timeliness(case, today), notice_timeliness(case, today))
        for i, timeliness in enumerate(judged):
            if timeliness is not None:
                timely[timeliness][i] += 1
    return YearFigures(
        year=year,
        authority=None,
        heads_by_kind=tuple(Series(kind, tuple(v)) for kind, v in heads.items()),
        cases_per_month=tuple(per_month),
        stays=(Series("left", tuple(left)), Series("still", tuple(still))),
        money=tuple(Series(account, tuple(money[account])) for account in order),
        timeliness=tuple(Series(t.value, tuple(v)) for t, v in timely.items()),
        cases=tuple(f for _, f in counted),
    )


async def year_figures(
    tx: UnitOfWork, deps: Deps, caller: Caller, year: int, authority: str | None = None
) -> YearFigures:
    """The figures of ``year`` for the caller's pounds (narrowed to ``authority``)."""
    scope = scope_of(deps, caller, authority)
    start, end = date(year, 1, 1), date(year + 1, 1, 1)
    today = deps.today()
    cases = [
        (loaded.case, figures_for(deps, loaded.case, today))
        for loaded in await tx.cases_impounded(list(scope.pounds), start, end)
    ]
    lines = await ledger_lines(
        tx, authority=scope.authority, pounds=scope.pounds, start=start, end=end
    )
    out = figures(cases, lines, year, today)
    return YearFigures(
        out.year,
        scope.authority,
        out.heads_by_kind,
        out.cases_per_month,
        out.stays,
        out.money,
        out.timeliness,
        out.cases,
    )
