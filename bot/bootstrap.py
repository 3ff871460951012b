"""The composition root: the one place where concrete objects are built and wired."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.adapters.send_checks import StoppedSince
from bot.adapters.send_gate import Gate
from bot.config import Config, config_path, load_config
from bot.notifications import handlers as tell
from bot.notifications.case_messages import CaseMessages
from bot.notifications.spending import Ceiling
from bot.services.base import Deps
from bot.services.outcomes import (
    AuctionScheduled,
    Corrected,
    PaidAfterPartSale,
    Reported,
    Seized,
    Settled,
)
from bot.services.runtime import App
from bot.services.subscribers import Subscribers
from bot.store.engine import database_url, make_engine, make_sessionmaker, parse_url
from bot.store.migrate import upgrade
from bot.store.tx import Store, sync_places
from bot.support.clock import Clock, SystemClock

__all__ = ["App", "config_path", "load", "open_app", "send_gate", "subscribers"]

log = logging.getLogger("poundbot")


def load() -> Config:
    """The configuration in force (raises ``ConfigError`` listing every fault)."""
    return load_config(config_path())


def is_embedded(url: str) -> bool:
    """True for the embedded SQLite database."""
    return parse_url(url).get_backend_name() == "sqlite"


def send_gate(deps: Deps) -> Gate:
    """The checks every message passes when it is sent (``bot.adapters.outbox.Gate``), in
    order: a STOP said since it was queued; a message about a case that the case has
    moved past (``bot.notifications.case_messages``, which also renders the messages about a
    case from its statement of the day); the ceiling of answers to numbers that are not
    staff (``bot.notifications.spending``), last, so that it counts only what goes."""
    about_cases = CaseMessages(deps)
    return Gate((StoppedSince(), about_cases, Ceiling(deps.config)), compose=about_cases.compose)


def subscribers() -> Subscribers:
    """Who is told of what a step did, beside the one who asked (``bot.notifications.handlers``),
    in the order their messages are queued: the owner of the cattle brought in (s.7), of
    a correction that gives their number or calls off the auction (s.13(3)), of the
    auction fixed, of the account of the sale (s.15(3)); the officers of the keeper's
    report (s.13(1))."""
    return Subscribers(
        {
            Seized: (tell.tell_owner_of_intake,),
            Corrected: (tell.tell_owner_auction_cancelled, tell.tell_owner_of_correction),
            Reported: (tell.tell_officers_of_report,),
            AuctionScheduled: (tell.tell_owner_of_auction,),
            Settled: (tell.tell_owner_of_account,),
            PaidAfterPartSale: (tell.tell_owner_of_account,),
        }
    )


@asynccontextmanager
async def open_app(
    *,
    config: Config | None = None,
    url: str | None = None,
    clock: Clock | None = None,
    migrate: bool | None = None,
) -> AsyncIterator[App]:
    """Build the app: configuration, engine (migrated when embedded), store, use-case deps."""
    config = config or load()
    url = url or database_url()
    clock = clock or SystemClock()
    engine = make_engine(url)
    try:
        if migrate if migrate is not None else is_embedded(url):
            await upgrade(engine)
        store = Store(
            make_sessionmaker(engine),
            clock,
            serialize=is_embedded(url),
            places=config.place_names,
        )
        async with store.transaction() as tx:
            await sync_places(
                tx,
                {code: a.name for code, a in config.authorities.items()},
                {code: (p.authority, p.name) for code, p in config.pounds.items()},
            )
        deps = Deps(config, clock, subscribers=subscribers())
        yield App(config, engine, store, deps, send_gate(deps))
    finally:
        await engine.dispose()
