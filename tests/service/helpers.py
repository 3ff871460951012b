"""Builders for use-case tests."""

from __future__ import annotations

from datetime import datetime

from bot.services import keeper as k
from bot.services import officer as o
from bot.services.base import Deps
from bot.services.keeper import Recorded
from bot.store.tx import Store, Tx
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.s07_seizure import Lot, Person, Seizure


def seizure(
    pound: str = "KNM",
    lots: tuple[Lot, ...] = (
        Lot("cow", 2, "brown, white patch"),
        Lot("buffalo", 1, "cut left ear"),
    ),
    place: str = "Kunnamangalam market",
    at: datetime | None = None,
) -> Seizure:
    """A realistic s.7 report."""
    return Seizure(
        pound=pound,
        lots=lots,
        place_seized=place,
        brought_at=(at or datetime(2026, 3, 1, 9, 15)).replace(tzinfo=None),
        seizer=Person("Rajan K.", "Pathimangalam"),
        owner=Person("Kunhammed P.", "Chathamangalam"),
    )


async def to_notice(
    store: Store,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    clock: FixedClock,
    places: tuple[str, ...] = ("Kunnamangalam", "Kunnamangalam market"),
) -> Recorded:
    """KNM-1 brought on 1 March 2026, reported unclaimed on the 9th and its notice posted
    and proclaimed at ``places`` on the 10th (s.13(1), s.13(2)); the notice's step."""
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())
    clock.set(datetime(2026, 3, 9, 11, 0, tzinfo=LOCAL_TZ))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    clock.set(datetime(2026, 3, 10, 11, 0, tzinfo=LOCAL_TZ))
    async with store.transaction() as tx:
        return await o.record_notice(tx, deps, officer, "KNM-1", proclaimed_at=places)


async def open_as_given(tx: Tx, deps: Deps, caller: Caller, seized: Seizure) -> None:
    """The next case of ``seized``'s pound, opened as intake opens one and stored with the
    Act ``seized`` carries, whatever Act the configuration names for its authority that
    day (``record_seizure`` takes that one)."""
    seq = await tx.next_case_seq(seized.pound)
    case = Case.open(f"{seized.pound}-{seq}", seized, deps.config.kinds, deps.today())
    await tx.add_case(case, seq, caller, None)
