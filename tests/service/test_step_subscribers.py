"""Who is told of a step is registered in the composition root: a step queues what the
owner and the officers are sent only through the handlers registered for its outcome,
in the step's own savepoint, so that a refused or trial step queues nothing."""

from __future__ import annotations

import dataclasses

from sqlalchemy import func, select

from bot.bootstrap import open_app, subscribers
from bot.conversation.orders import Seize, SeizeLot
from bot.conversation.reply import handle_text, run_command
from bot.notifications import handlers as tell
from bot.services.base import Deps
from bot.services.outcomes import (
    AuctionScheduled,
    Corrected,
    PaidAfterPartSale,
    Reported,
    Seized,
    Settled,
)
from bot.services.subscribers import Subscribers, Told
from bot.store.models import OutboxRow
from bot.store.tx import Store, Tx
from bot.support.caller import Caller
from bot.support.errors import BadInputError

SEIZE = "SEIZE 1 cow AT Kunnamangalam market OWNER Kunhammed 9847012345"


async def _outbox(store: Store) -> int:
    async with store.transaction() as tx:
        return (await tx.session.execute(select(func.count()).select_from(OutboxRow))).scalar_one()


def test_the_composition_root_registers_who_is_told_of_each_step() -> None:
    registered = subscribers()
    assert registered.types() == {
        Seized,
        Corrected,
        Reported,
        AuctionScheduled,
        Settled,
        PaidAfterPartSale,
    }
    assert registered.of(object()) == ()
    # The owner told of a correction that calls the auction off before the intake SMS.
    assert registered.of(_blank(Corrected)) == (
        tell.tell_owner_auction_cancelled,
        tell.tell_owner_of_correction,
    )
    assert registered.of(_blank(Reported)) == (tell.tell_officers_of_report,)
    assert registered.of(_blank(Seized)) == (tell.tell_owner_of_intake,)
    assert registered.of(_blank(AuctionScheduled)) == (tell.tell_owner_of_auction,)
    assert registered.of(_blank(Settled)) == (tell.tell_owner_of_account,)
    assert registered.of(_blank(PaidAfterPartSale)) == (tell.tell_owner_of_account,)


def _blank(kind: type) -> object:
    """An outcome of type ``kind`` (its fields unset: only its type is looked at)."""
    return object.__new__(kind)


async def test_the_running_app_is_handed_the_registered_subscribers() -> None:
    async with open_app(url="sqlite+aiosqlite://") as app:
        assert app.deps.subscribers.types() == subscribers().types()


async def test_with_no_subscriber_a_seizure_queues_no_sms_to_the_owner(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    keeper = dataclasses.replace(keeper, lang="en")
    silent = dataclasses.replace(deps, subscribers=Subscribers())
    async with store.transaction() as tx:
        untold = await handle_text(tx, silent, keeper, SEIZE, sms=True)
    assert not untold.refused
    assert untold.queued == ()
    assert await _outbox(store) == 0
    async with store.transaction() as tx:
        told = await handle_text(tx, deps, keeper, SEIZE, sms=True)
    assert told.queued == ("intake:KNM-2",)
    assert "The owner will be told by SMS." in told.text
    assert await _outbox(store) == 1


async def test_what_a_subscriber_queued_is_undone_with_a_step_refused_after_it(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    """A handler that refuses after the owner's SMS was queued: the step is refused, and
    neither the case nor the SMS is written."""
    keeper = dataclasses.replace(keeper, lang="en")

    async def refuse(tx: Tx, deps: Deps, seized: Seized) -> Told | None:
        assert tx.queued == ["intake:KNM-1"]  # queued by the handler before this one
        raise BadInputError("refused after the SMS was queued")

    refusing = dataclasses.replace(
        deps, subscribers=Subscribers({Seized: (tell.tell_owner_of_intake, refuse)})
    )
    async with store.transaction() as tx:
        refused = await handle_text(tx, refusing, keeper, SEIZE, sms=True)
        assert tx.queued == []
    assert refused.refused
    assert refused.queued == ()
    assert refused.loaded is None
    assert await _outbox(store) == 0


async def test_a_trial_step_runs_its_subscribers_and_queues_nothing(
    store: Store, deps: Deps, keeper: Caller
) -> None:
    order = Seize(
        lang="en",
        lots=(SeizeLot(1, "cow"),),
        place="Kunnamangalam market",
        owner="Kunhammed",
        owner_phone="+919847012345",
    )
    async with store.transaction() as tx:
        tried = await run_command(tx, deps, keeper, order, "en", sms=False, trial=True)
    assert not tried.refused
    assert "The owner will be told by SMS." in tried.text  # what the step would say
    assert tried.queued == ()
    assert await _outbox(store) == 0
