"""A case under each Act, through the public use cases: the dates and the money are the
same under the three profiles; what differs is what each Act has (the 1871 Act has no
counterpart of Kerala's s.15(5)) and who may not buy (the amended Kerala s.18 names its
four classes whatever the configuration's policy says)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

import pytest

from bot.config import Config, parse_config, sample_config_path
from bot.i18n import translator
from bot.i18n.common import reported_to
from bot.services import keeper as k
from bot.services import officer as o
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.models import LedgerEntry
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.deadline import DeadlineKind
from domain.deadlines import deadlines
from domain.errors import BarredBuyerError, TooEarlyError, TransitionRefusedError
from domain.money import Money
from domain.profiles import PROFILES, Office, Power
from domain.s07_seizure import Person
from domain.stages import Stage
from tests.service.helpers import seizure, to_notice

KNM_GP_END = 'markets.Chathamangalam = { en = "Chathamangalam Market", ml = "ചാത്തമംഗലം മാർക്കറ്റ്" }\n'
BARRED = 'barred_buyers = ["police_officer", "officer", "member", "pound_keeper"]\n'


def _book(entries: list[LedgerEntry]) -> list[tuple[str, str, int]]:
    return [(e.account, e.provision, e.amount_paise) for e in entries]


def at(day: int, month: int = 3) -> datetime:
    return datetime(2026, month, day, 11, 0, tzinfo=LOCAL_TZ)


def _config(act: str, *, barred: str = BARRED, settings: str = "") -> Config:
    """The sample, KNM-GP applying ``act`` from 1 January 2026 with the lines
    ``settings`` of its entry (the values the Act leaves open, a s.31 notification), and
    the s.18 policy ``barred``."""
    text = sample_config_path().read_text(encoding="utf-8")
    assert KNM_GP_END in text
    assert BARRED in text
    acts = f'\n[[authorities.acts]]\nact = "{act}"\nfrom = 2026-01-01\n{settings}'
    text = text.replace(KNM_GP_END, KNM_GP_END + acts, 1).replace(BARRED, barred, 1)
    return parse_config(text, f"{act}.toml")


@pytest.fixture(params=sorted(PROFILES), scope="module")
def config(request: pytest.FixtureRequest) -> Config:
    """Each Act in turn; or, given (act, barred), that Act and that s.18 policy; or,
    given (act, settings), that Act with those lines in its entry."""
    if isinstance(request.param, tuple):
        act, lines = request.param
        if lines.startswith("barred_buyers"):
            return _config(act, barred=lines)
        return _config(act, settings=lines)
    return _config(request.param)


async def test_the_unclaimed_chain_keeps_its_days_and_its_money_under_every_act(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    config: Config,
) -> None:
    act = config.authorities["KNM-GP"].act_on(date(2026, 3, 1)).act
    await to_notice(case_store, deps, keeper, officer, clock)  # type: ignore[arg-type]
    async with case_store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.profile.key == act
        with pytest.raises(TooEarlyError):  # seven days from the notice (GCA)
            await o.schedule_auction(
                tx, deps, officer, "KNM-1", auction_on=at(17).date(), place="m"
            )
    async with case_store.transaction() as tx:
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=at(18).date(), place="m")
    clock.set(at(18))
    for lot, count, price in ((0, 2, 40000), (1, 1, 30000)):
        async with case_store.transaction() as tx:
            await o.record_lot(
                tx,
                deps,
                officer,
                "KNM-1",
                lot=lot,
                count=count,
                price=Money.rupees(price),
                buyer=Person("Mammu"),
                buyer_role=None,
                declared_not_barred=True,
            )
    async with case_store.transaction() as tx:
        settled = await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(1500))
        register = await o.deposit_register(tx, deps, officer)
    assert isinstance(settled, o.Settled)
    assert settled.recorded.case.stage is Stage.IN_DEPOSIT
    assert settled.account.proceeds == Money.rupees(70000)
    # Three months of deposit (s.16(3); the 1871 Act's s.17, third paragraph).
    assert [(e.number, e.window_end) for e in register] == [("KNM-1", date(2026, 6, 18))]
    held = register[0].amount
    assert held == settled.settlement.balance
    clock.set(at(19, 6))
    async with case_store.transaction() as tx:
        await o.credit_deposit_to_fund(tx, deps, officer, "KNM-1")
        entries = await o.ledger(tx, deps, officer)
    assert sum(e.amount_paise for e in entries) == Money.rupees(70000).paise


async def _account_due(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """KNM-1's owner refused to pay (s.15(1)); one lot sold met the dues; the sale is
    settled and the account awaits the owner (s.15(3))."""
    await _owners_auction_day(case_store, deps, keeper, officer, clock)
    async with case_store.transaction() as tx:
        await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=1,
            count=1,
            price=Money.rupees(25000),
            buyer=Person("Beeran"),
            buyer_role=None,
            declared_not_barred=True,
        )
        settled = await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
    assert settled.recorded.case.stage is Stage.ACCOUNT_DUE


async def test_a_refused_account_is_unclaimed_under_kerala_and_refused_under_1871(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    config: Config,
) -> None:
    await _account_due(case_store, deps, keeper, officer, clock)
    act = PROFILES[config.authorities["KNM-GP"].act_on(date(2026, 3, 1)).act]
    if act.refused_account_unclaimed:
        async with case_store.transaction() as tx:
            refused = await o.record_account_refused(tx, deps, officer, "KNM-1")
        assert refused.case.stage is Stage.DEEMED_UNCLAIMED  # s.15(5)
        return
    async with case_store.transaction() as tx:
        before = await tx.load_case("KNM-1")
        ledger_before = _book(await o.ledger(tx, deps, officer))
    with pytest.raises(TransitionRefusedError) as no:
        async with case_store.transaction() as tx:
            await o.record_account_refused(tx, deps, officer, "KNM-1")
    assert (no.value.reason, no.value.provision) == ("no_counterpart", "s.15(5)")
    assert no.value.facts == {"act": "cattle-trespass-1871"}
    async with case_store.transaction() as tx:  # nothing changed: held for the owner
        after = await tx.load_case("KNM-1")
        assert after.case.events == before.case.events
        assert after.case.stage is Stage.ACCOUNT_DUE
        assert _book(await o.ledger(tx, deps, officer)) == ledger_before
    async with case_store.transaction() as tx:  # the owner takes them with the account
        delivered = await o.record_account_delivered(
            tx, deps, officer, "KNM-1", received_by="Kunhammed P."
        )
    assert delivered.case.stage is Stage.CLOSED


ONLY_POLICE = 'barred_buyers = ["police_officer"]\n'


@pytest.mark.parametrize(
    ("config", "barred"),
    [
        (("kerala-1961", ONLY_POLICE), False),
        (("kerala-1961-amended", ONLY_POLICE), True),
        (("cattle-trespass-1871", ONLY_POLICE), False),
    ],
    indirect=["config"],
    ids=["kerala-1961", "kerala-1961-amended", "cattle-trespass-1871"],
)
async def test_a_member_of_the_authority_may_not_buy_where_the_act_names_members(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    config: Config,
    barred: bool,
) -> None:
    """The policy bars only police officers; the amended s.18(1) names members of the
    local authority too, and its words hold for its cases."""
    await _owners_auction_day(case_store, deps, keeper, officer, clock)
    member = config.authorities["KNM-GP"].members[0]

    async def buy() -> None:
        async with case_store.transaction() as tx:
            await o.record_lot(
                tx,
                deps,
                officer,
                "KNM-1",
                lot=1,
                count=1,
                price=Money.rupees(25000),
                buyer=Person(member),
                buyer_role=None,
                declared_not_barred=True,
            )

    if barred:
        with pytest.raises(BarredBuyerError) as refused:
            await buy()
        assert refused.value.provision == "s.18"
    else:
        await buy()


async def _owners_auction_day(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    """KNM-1's owner refused to pay; the auction is on 6 March, today."""
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(at(3))
    async with case_store.transaction() as tx:
        await k.record_owner_refusal(tx, deps, keeper, "KNM-1")
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=at(6).date(), place="m")
    clock.set(at(6))


# -- the Act as in force: the values the configuration sets, and a s.31 transfer ---------

#: The 1871 Act with the time limit of its s.20 and the months of its s.17 as a State's
#: Gazette might set them.
FIFTEEN_DAYS_SIX_MONTHS = ("cattle-trespass-1871", "complaint_days = 15\nsurplus_months = 6\n")


async def _deposit(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, clock: FixedClock, day: int
) -> None:
    """The owner of a case brought in on 1 March disputes the seizure on ``day`` March."""
    clock.set(at(day))
    async with case_store.transaction() as tx:
        await k.record_deposit(tx, deps, keeper, "KNM-1")


@pytest.mark.parametrize(
    ("config", "day", "taken"),
    [
        (FIFTEEN_DAYS_SIX_MONTHS, 16, True),  # the 15th day from the seizure: the last
        (FIFTEEN_DAYS_SIX_MONTHS, 17, False),  # the 16th: over
        (("cattle-trespass-1871", ""), 11, True),  # none set: the Kerala Act's ten days
        (("cattle-trespass-1871", ""), 12, False),
    ],
    indirect=["config"],
    ids=["s.20 day 15 of 15", "s.20 day 16 of 15", "s.20 day 10 of 10", "s.20 day 11 of 10"],
)
async def test_the_deposit_under_protest_is_taken_within_the_days_to_complain_configured(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    config: Config,
    day: int,
    taken: bool,
) -> None:
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    if taken:
        await _deposit(case_store, deps, keeper, clock, day)
        async with case_store.transaction() as tx:
            assert (await tx.load_case("KNM-1")).case.stage is Stage.ON_DEPOSIT
    else:
        with pytest.raises(TransitionRefusedError) as refused:
            await _deposit(case_store, deps, keeper, clock, day)
        assert refused.value.reason == "complaint_time_over"
        assert refused.value.facts["date"] == at(day - 1).date()


@pytest.mark.parametrize("config", [FIFTEEN_DAYS_SIX_MONTHS], indirect=True, ids=["1871"])
async def test_the_surplus_is_held_for_the_months_configured(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    config: Config,
) -> None:
    """s.17 (Kerala s.16(3)): six months from the sale on 18 March, to 18 September; the
    fund only after them."""
    await to_notice(case_store, deps, keeper, officer, clock)  # type: ignore[arg-type]
    async with case_store.transaction() as tx:
        await o.schedule_auction(tx, deps, officer, "KNM-1", auction_on=at(18).date(), place="m")
    clock.set(at(18))
    async with case_store.transaction() as tx:
        await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=0,
            count=2,
            price=Money.rupees(70000),
            buyer=Person("Mammu"),
            buyer_role=None,
            declared_not_barred=True,
        )
        await o.record_lot(
            tx,
            deps,
            officer,
            "KNM-1",
            lot=1,
            count=1,
            price=Money.rupees(30000),
            buyer=Person("Mammu"),
            buyer_role=None,
            declared_not_barred=True,
        )
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(1500))
        register = await o.deposit_register(tx, deps, officer)
        case = (await tx.load_case("KNM-1")).case
    assert [(e.number, e.window_end) for e in register] == [("KNM-1", date(2026, 9, 18))]
    assert [d.due_on for d in deadlines(case) if d.kind is DeadlineKind.DEPOSIT_WINDOW_ENDS] == [
        date(2026, 9, 18)
    ]
    clock.set(at(18, 9))
    async with case_store.transaction() as tx:
        with pytest.raises(TooEarlyError):
            await o.credit_deposit_to_fund(tx, deps, officer, "KNM-1")
    clock.set(at(19, 9))
    async with case_store.transaction() as tx:
        await o.credit_deposit_to_fund(tx, deps, officer, "KNM-1")


@pytest.mark.parametrize("config", [FIFTEEN_DAYS_SIX_MONTHS], indirect=True, ids=["1871"])
async def test_a_later_change_of_the_configuration_leaves_an_open_case_as_it_was(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    config: Config,
) -> None:
    """The case opened while fifteen days were configured keeps them when the entry is
    edited to say nothing (the profile's ten days); a case opened after has ten."""
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    changed = replace(deps, config=_config("cattle-trespass-1871"))
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, changed, keeper, seizure())
        first, second = (await tx.load_case("KNM-1")).case, (await tx.load_case("KNM-2")).case
    assert (first.profile.complaint_days, first.profile.surplus_months) == (15, 6)
    assert (second.profile.complaint_days, second.profile.surplus_months) == (10, 3)
    assert first.profile.configured == ("complaint_days", "surplus_months")
    await _deposit(case_store, changed, keeper, clock, 16)  # day 15: still within its time
    async with case_store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage is Stage.ON_DEPOSIT
        with pytest.raises(TransitionRefusedError):
            await k.record_deposit(tx, changed, keeper, "KNM-2")


@pytest.mark.parametrize(
    "config",
    [
        (
            "cattle-trespass-1871",
            'transferred = ["receive_report"]\nnotification = "G.O.(P) No. 12/2026/LSGD"\n',
        )
    ],
    indirect=True,
    ids=["1871 s.31"],
)
async def test_a_report_transferred_by_a_s31_notification_goes_to_the_local_authority(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    clock: FixedClock,
    config: Config,
) -> None:
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    async with case_store.transaction() as tx:
        case = (await tx.load_case("KNM-1")).case
    assert case.profile.office_for(Power.RECEIVE_REPORT) is Office.LOCAL_AUTHORITY
    assert case.profile.office_for(Power.SELL) is Office.POLICE_STATION
    tr = translator("en")
    assert reported_to(tr.under(case.profile)) == "to the local authority"
    assert reported_to(tr.under(PROFILES["cattle-trespass-1871"])) != "to the local authority"
