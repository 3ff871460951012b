"""Intake records the Act in force for the pound's authority on the impounding day
(``[[authorities.acts]]``): the case keeps it as it is stored and read back."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

import pytest

from bot.config import Config, parse_config, sample_config_path
from bot.services import keeper as k
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.support.caller import Caller
from tests.service.helpers import seizure

#: KNM-GP applies the Cattle-trespass Act, 1871 from 1 March 2026 (the clock's day), two
#: of its powers transferred by a State's s.31 notification.
ACTS = """
[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2026-03-01
transferred = ["receive_report", "sell"]
notification = "G.O.(P) No. 7/2026/LSGD"
"""
KNM_GP_END = 'markets.Chathamangalam = { en = "Chathamangalam Market", ml = "ചാത്തമംഗലം മാർക്കറ്റ്" }\n'


@pytest.fixture(scope="module")
def config() -> Config:
    """The sample, with KNM-GP changing its Act on 1 March 2026 (over the session's)."""
    sample = sample_config_path().read_text(encoding="utf-8")
    assert KNM_GP_END in sample
    return parse_config(sample.replace(KNM_GP_END, KNM_GP_END + ACTS, 1), "acts.toml")


async def test_a_case_is_opened_under_the_act_in_force_on_its_impounding_day(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, config: Config
) -> None:
    assert deps.today() == date(2026, 3, 1)
    before = seizure(at=datetime(2026, 2, 28, 17, 40))  # an intake dated back a day
    after = seizure(at=datetime(2026, 3, 1, 9, 15))
    async with case_store.transaction() as tx:
        first = await k.record_seizure(tx, deps, keeper, before)
        second = await k.record_seizure(tx, deps, keeper, after)
    assert (first.case.number, first.case.profile.key) == ("KNM-1", "kerala-1961")
    assert (second.case.number, second.case.profile.key) == ("KNM-2", "cattle-trespass-1871")
    async with case_store.transaction() as tx:  # as stored, read back
        assert (await tx.load_case("KNM-1")).case.profile.key == "kerala-1961"
        assert (await tx.load_case("KNM-2")).case.profile.key == "cattle-trespass-1871"
        assert (await tx.load_case("KNM-2")).case.seizure.act == "cattle-trespass-1871"
    assert config.authorities["KNM-GP"].act_on(date(2026, 2, 28)).act == "kerala-1961"


async def test_the_act_a_seizure_comes_with_is_not_the_one_recorded(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller
) -> None:
    """The Act is the configuration's for the day, whatever the report carries."""
    claimed = dataclasses.replace(seizure(), act="kerala-1961-amended")
    async with case_store.transaction() as tx:
        recorded = await k.record_seizure(tx, deps, keeper, claimed)
    assert recorded.case.profile.key == "cattle-trespass-1871"


async def test_another_authoritys_pounds_keep_the_kerala_act(
    case_store: Store | MemoryStore, deps: Deps, other_keeper: Caller
) -> None:
    async with case_store.transaction() as tx:
        recorded = await k.record_seizure(tx, deps, other_keeper, seizure(pound="ENM"))
    assert recorded.case.profile.key == "kerala-1961"
