"""Properties that hold for any amounts, rates and dates, checked with hypothesis.

- s.15(2) / s.16: a settlement accounts for every paisa of the proceeds, and the dues
  met plus the dues unmet are the dues.
- The one place that splits money gives parts that sum to the whole, each within a
  paisa of its exact share.
- s.4 / s.11: what is owed never goes down as the days pass.
- No deadline falls before the event it counts from, whatever path a case took.
- GCA s.8: a calendar month never runs past the end of the target month, and a later
  start never gives an earlier end.
"""

from __future__ import annotations

import calendar
import itertools
from dataclasses import replace
from datetime import date, timedelta

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from domain.calendar import add_months, day_after_period, period_end
from domain.case import Case
from domain.deadlines import deadlines
from domain.errors import DomainError
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    ClaimedAndPaid,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    Event,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SeizureCorrected,
)
from domain.kinds import DEFAULT_KINDS
from domain.money import Money, total
from domain.provisions import PROVISIONS
from domain.s04_s11_dues import DuesItem, dues_on
from domain.s13_unclaimed import auction_allowed_from, report_due_on
from domain.s14_deposit import complaint_last_day
from domain.s15_sale import Payee, settle
from domain.s16_s17_proceeds import deposit_window_end
from domain.stages import Stage
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff
from tests.unit.domain_fixtures import disposal, dues_of, notice, open_case, sale, unsold

PROPERTY = settings(max_examples=200, deadline=None)
WALK = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

paise = st.integers(min_value=0, max_value=10**9)
some_dates = st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31))
KIND_CODES = sorted(DEFAULT_KINDS)


# --- s.15(2) / s.16: conservation ----------------------------------------------------------


@PROPERTY
@given(
    proceeds=paise,
    fines=paise,
    feeding=paise,
    expenses=paise,
    order=st.permutations(list(DuesItem)).map(tuple),
    owner_appeared=st.booleans(),
)
def test_a_settlement_accounts_for_every_paisa_of_the_proceeds(
    proceeds: int,
    fines: int,
    feeding: int,
    expenses: int,
    order: tuple[DuesItem, ...],
    owner_appeared: bool,
) -> None:
    items = order
    dues = dues_of(Money(fines), Money(feeding), Money(expenses))
    settlement = settle(Money(proceeds), dues, owner_appeared, items)

    assert total([d.amount for d in settlement.disbursements]) == Money(proceeds)
    met = total(
        [
            settlement.to(payee)
            for payee in (Payee.SALE_EXPENSES, Payee.POUND_KEEPER, Payee.LOCAL_AUTHORITY)
        ]
    )
    assert met + settlement.unmet == dues.total
    assert settlement.balance == Money(max(0, proceeds - dues.total.paise))
    assert settlement.unmet == Money(max(0, dues.total.paise - proceeds))
    assert all(d.amount.paise > 0 for d in settlement.disbursements)
    assert all(d.provision in PROVISIONS for d in settlement.disbursements)
    # Nothing is paid to a head of dues while an earlier one in the order is short.
    paid = {
        DuesItem.SALE_EXPENSES: settlement.to(Payee.SALE_EXPENSES),
        DuesItem.FEEDING: settlement.to(Payee.POUND_KEEPER),
        DuesItem.FINE: settlement.to(Payee.LOCAL_AUTHORITY),
    }
    for earlier, later in itertools.pairwise(items):
        if paid[earlier] < dues.of(earlier):
            assert paid[later] == Money(0)
    # The balance goes to the owner who appeared (s.15(3)), else into deposit (s.16(3)).
    assert settlement.to(Payee.OWNER if not owner_appeared else Payee.DEPOSIT) == Money(0)


# --- splitting money -----------------------------------------------------------------------


# --- s.4 / s.11: dues never decrease -------------------------------------------------------


@st.composite
def rate_tables(draw: st.DrawFn, first_on: date) -> RateTable:
    rows = [DatedRate(first_on, Money(draw(st.integers(0, 100_000))), "row 0")]
    later = draw(st.lists(st.integers(1, 400), max_size=3, unique=True))
    for i, offset in enumerate(later, start=1):
        rows.append(
            DatedRate(
                first_on + timedelta(offset), Money(draw(st.integers(0, 100_000))), f"row {i}"
            )
        )
    return RateTable.of(rows)


@st.composite
def cases_with_tariffs(draw: st.DrawFn) -> tuple[Case, Tariff]:
    impounded = draw(st.dates(min_value=date(2000, 1, 1), max_value=date(2080, 12, 31)))
    kinds = draw(st.lists(st.sampled_from(KIND_CODES), min_size=1, max_size=3))
    lots = tuple((kind, draw(st.integers(1, 20))) for kind in kinds)
    case = open_case(on=impounded, lots=lots)
    first_on = impounded - timedelta(draw(st.integers(0, 400)))
    tariff = Tariff(
        fines={k: draw(rate_tables(first_on)) for k in set(kinds)},
        feeding={k: draw(rate_tables(first_on)) for k in set(kinds)},
        feeding_days=draw(st.sampled_from(list(FeedingDays))),
    )
    path = draw(st.sampled_from(["impounded", "released", "owner refused and sold"]))
    day = impounded + timedelta(draw(st.integers(0, 30)))
    if path == "released":
        case = case.apply(ClaimedAndPaid(on=day, paid=Money(1)), today=day)
    elif path == "owner refused and sold":
        case = case.apply(OwnerRefusedToPay(on=day), today=day)
        for index, (_, count) in enumerate(lots):
            day += timedelta(draw(st.integers(0, 10)))
            sold = draw(st.integers(0, count))
            if sold:
                case = case.apply(sale(index, sold, Money(100_000), day), today=day)
        if draw(st.booleans()) and case.stage is Stage.SELLING:
            day += timedelta(draw(st.integers(0, 5)))
            closed = SaleClosed(
                on=day,
                expenses=Money(draw(st.integers(0, 10_000))),
                to_owner_or_deposit=Money(0),
                owner_appeared=True,
            )
            case = case.apply(closed, today=day)
    return case, tariff


@PROPERTY
@given(case_and_tariff=cases_with_tariffs(), a=st.integers(-3, 150), b=st.integers(-3, 150))
def test_what_is_owed_never_goes_down_as_the_days_pass(
    case_and_tariff: tuple[Case, Tariff], a: int, b: int
) -> None:
    case, tariff = case_and_tariff
    impounded = case.seizure.impounded_on
    earlier, later = sorted((impounded + timedelta(a), impounded + timedelta(b)))
    before, after = dues_on(case, tariff, earlier), dues_on(case, tariff, later)
    assert before.total <= after.total
    assert before.fines == after.fines  # s.11: on the scale of the day of impounding
    assert before.feeding <= after.feeding
    for line in after.lines:
        assert line.amount == line.rate * (line.heads * line.days if line.days else 1)


# --- no deadline before the event it counts from -------------------------------------------


def _candidates(case: Case, draw: st.DrawFn) -> list[Event]:
    """Events a case might be given next, lawful or not; the domain decides."""
    start = case.last_event_on + timedelta(draw(st.integers(0, 20)))
    stage = case.stage
    lots = case.seizure.lots
    lot = draw(st.integers(0, len(lots) - 1))
    count = draw(st.integers(1, lots[lot].count))
    shift = timedelta(draw(st.integers(-10, 30)))
    out: list[Event] = []
    if stage in (Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED):
        out += [
            ClaimedAndPaid(on=start, paid=Money(100)),
            DeliveredOnDeposit(on=start, deposited=Money(100)),
            OwnerRefusedToPay(on=start),
        ]
    recount = tuple(replace(x, count=draw(st.integers(1, x.count + 1))) for x in lots)
    out.append(
        SeizureCorrected(on=start, seizure=replace(case.seizure, lots=recount), reason="recount")
    )
    if stage is Stage.IMPOUNDED:
        out.append(ReportedUnclaimed(on=max(start, report_due_on(case.seizure.impounded_on))))
        out.append(ReportedUnclaimed(on=start))
    if stage is Stage.REPORTED:
        out.append(notice(start))
    if stage in (Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING):
        notice_event = case.notice
        lawful = auction_allowed_from(notice_event.on) if notice_event else start
        on = max(start, lawful) if draw(st.booleans()) else start
        out += [
            AuctionScheduled(on=start, auction_on=start + shift, place="market"),
            AuctionScheduled(on=start, auction_on=max(start, lawful) + shift, place="market"),
            sale(lot, count, Money(draw(st.integers(1, 10**7))), on),
            unsold(lot, count, on),
            disposal(lot, count, on, Money(draw(st.integers(0, 10**5)))),
        ]
    if stage is Stage.SELLING:
        out.append(
            SaleClosed(
                on=start,
                expenses=Money(draw(st.integers(0, 10**5))),
                to_owner_or_deposit=Money(draw(st.integers(0, 10**7))),
                owner_appeared=case.owner_appeared,
            )
        )
    if stage is Stage.ACCOUNT_DUE:
        out += [AccountDelivered(on=start, receipt_by="Ramesh"), AccountRefused(on=start)]
    if stage is Stage.IN_DEPOSIT:
        deposited = case.deposited_on
        assert deposited is not None
        preferred = deposited + timedelta(draw(st.integers(-5, 100)))
        out += [
            DepositClaimed(
                on=max(start, preferred), claimant="Ramesh", preferred_on=preferred, reference="R"
            ),
            CreditedToFund(on=start + timedelta(draw(st.integers(0, 120)))),
        ]
    if stage is Stage.ON_DEPOSIT:
        out.append(DepositOutcome(on=start, returned=draw(st.booleans()), reference="CC"))
    return out


@st.composite
def walks(draw: st.DrawFn) -> list[Case]:
    """A case taken through up to 12 random steps; every case along the way."""
    impounded = draw(st.dates(min_value=date(2000, 1, 1), max_value=date(2080, 12, 31)))
    seized_on = impounded - timedelta(draw(st.integers(0, 3)))
    lots = draw(
        st.lists(
            st.tuples(st.sampled_from(["cow", "goat", "calf"]), st.integers(1, 4)),
            min_size=1,
            max_size=3,
        )
    )
    case = open_case(on=impounded, lots=lots, seized_on=seized_on)
    seen = [case]
    for _ in range(12):
        if case.stage in (Stage.RELEASED, Stage.CLOSED):
            break
        event = draw(st.sampled_from(_candidates(case, draw)))
        try:
            case = case.apply(event, today=event.on)
        except DomainError:
            continue
        seen.append(case)
    return seen


@WALK
@given(seen=walks())
def test_no_deadline_falls_before_the_event_it_counts_from(seen: list[Case]) -> None:
    for case in seen:
        note(f"{case.stage.value}: {[type(e).__name__ for e in case.events]}")
        shown = deadlines(case)
        for deadline in shown:
            assert deadline.counts_from <= deadline.due_on, deadline
            assert deadline.provision in PROVISIONS
            assert deadline.counts_from >= case.seizure.seizure_day
        assert shown == sorted(shown, key=lambda d: (d.due_on, d.kind.value))


@WALK
@given(seen=walks())
def test_replaying_any_accepted_history_rebuilds_the_case(seen: list[Case]) -> None:
    for case in seen:
        assert Case.replay(case.number, case.events) == case
        assert case.heads_remaining >= 0
        assert all(case.remaining_heads(i) >= 0 for i in range(len(case.seizure.lots)))


@PROPERTY
@given(day=some_dates)
def test_each_period_of_days_counts_from_the_day_after_its_event(day: date) -> None:
    assert report_due_on(day) == day + timedelta(8)  # s.13(1): 7 days, then due
    assert auction_allowed_from(day) == day + timedelta(8)  # s.13(3)
    assert complaint_last_day(day, 10) == day + timedelta(10)  # s.19: the 10th day is in
    assert period_end(day, 7) < day_after_period(day, 7)
    assert day < deposit_window_end(day, 3) <= day + timedelta(92)  # s.16(3): three months


# --- GCA s.8: calendar months -------------------------------------------------------------


@PROPERTY
@given(start=some_dates, months=st.integers(0, 240))
def test_adding_months_never_runs_past_the_end_of_the_target_month(
    start: date, months: int
) -> None:
    end = add_months(start, months)
    index = start.month - 1 + months
    assert (end.year, end.month) == (start.year + index // 12, index % 12 + 1)
    last = calendar.monthrange(end.year, end.month)[1]
    assert end.day == min(start.day, last)
    assert end >= start


@PROPERTY
@given(a=some_dates, b=some_dates, months=st.integers(0, 240))
def test_a_later_start_never_gives_an_earlier_end(a: date, b: date, months: int) -> None:
    early, late = sorted((a, b))
    assert add_months(early, months) <= add_months(late, months)


@PROPERTY
@given(start=some_dates, months=st.integers(0, 120))
def test_adding_months_one_at_a_time_never_ends_later_than_all_at_once(
    start: date, months: int
) -> None:
    stepwise = start
    for _ in range(months):
        stepwise = add_months(stepwise, 1)
    assert stepwise <= add_months(start, months)
