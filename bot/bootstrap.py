"""The composition root: the one place where concrete objects are built and wired."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.adapters.send_checks import StoppedSince
from bot.adapters.send_gate import Gate
from bot.config import (
    Config,
    ConfigError,
    config_path,
    load_config,
    parse_config,
    read_config_text,
)
from bot.notifications import handlers as tell
from bot.notifications.case_messages import CaseMessages
from bot.notifications.spending import Ceiling
from bot.services.base import Deps
from bot.services.config_versions import config_of, current, settle
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

__all__ = [
    "App",
    "config_path",
    "file_fault",
    "from_database",
    "load",
    "open_app",
    "send_gate",
    "subscribers",
]

log = logging.getLogger("poundbot")


def load() -> Config:
    """The configuration in force (raises ``ConfigError`` listing every fault)."""
    return load_config(config_path())


def is_embedded(url: str) -> bool:
    """True for the embedded SQLite database."""
    return parse_url(url).get_backend_name() == "sqlite"


def send_gate(deps: Callable[[], Deps]) -> Gate:
    """The checks every message passes when it is sent (``bot.adapters.outbox.Gate``), in
    order: a STOP said since it was queued; a message about a case that the case has
    moved past (``bot.notifications.case_messages``, which also renders the messages about a
    case from its statement of the day); the ceiling of answers to numbers that are not
    staff (``bot.notifications.spending``), last, so that it counts only what goes. Each
    reads ``deps()`` when a message is sent: the configuration in force then."""
    about_cases = CaseMessages(deps)
    ceiling = Ceiling(lambda: deps().config)
    return Gate((StoppedSince(), about_cases, ceiling), compose=about_cases.compose)


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


async def from_database(store: Store, path: str) -> tuple[Config, int]:
    """The configuration in force in the database, and its version: the file at
    ``path`` imported as the first version when the database has none yet
    (``bot.services.config_versions.settle``). When the file says otherwise than the
    version in force, or cannot be read, a warning says so and how to import it; a file
    with faults is never imported (raises ``ConfigError``, or ``OSError``, when the
    database has no version to start with either)."""
    text, fault = "", None
    try:
        text = read_config_text(path)
        parse_config(text, path)
    except (ConfigError, OSError) as exc:
        fault = exc
    if fault is None:
        settled = await settle(store, text, path)
        row = settled.row
        if settled.imported:
            log.info("Configuration: %s imported into the database as version %d", path, row.id)
        elif settled.file_differs:
            log.warning(
                "Configuration: version %d of the database is in force; the file %s differs "
                "from it and is not read (to put it in force: poundbot config import %s)",
                row.id,
                path,
                path,
            )
        else:
            log.info("Configuration: version %d of the database in force", row.id)
    else:
        found = await current(store)
        if found is None:
            raise fault
        row = found
        log.warning(
            "Configuration: version %d of the database is in force; the file %s %s, and is "
            "not read (poundbot config check %s)",
            row.id,
            path,
            file_fault(fault),
            path,
        )
    return config_of(row), row.id


#: How many of a file's faults a warning names (``poundbot config check`` lists them all).
BRIEF_FAULTS = 3


def file_fault(fault: ConfigError | OSError) -> str:
    """What is wrong with a configuration file, in brief: "cannot be read (No such file
    or directory)", or "has 2 faults (line 4: ...; line 9: ...)", naming the first
    ``BRIEF_FAULTS``."""
    if not isinstance(fault, ConfigError):
        return f"cannot be read ({fault.strerror or fault})"
    named = "; ".join(f"line {f.line}: {f.message}" for f in fault.faults[:BRIEF_FAULTS])
    more = len(fault.faults) - BRIEF_FAULTS
    named += f"; {more} more" if more > 0 else ""
    count = len(fault.faults)
    return f"has {count} fault{'s' if count != 1 else ''} ({named})"


@asynccontextmanager
async def open_app(
    *,
    config: Config | None = None,
    url: str | None = None,
    clock: Clock | None = None,
    migrate: bool | None = None,
    file: str | None = None,
) -> AsyncIterator[App]:
    """Build the app: engine (migrated when embedded), store, configuration, use-case
    deps. The configuration is the database's version in force (``from_database``: the
    configuration ``file``, by default ``POUNDBOT_CONFIG`` or the sample, imported at the
    first start), unless ``config`` is given (the demo, a test): then that one, and the
    database's versions are not read."""
    url = url or database_url()
    clock = clock or SystemClock()
    engine = make_engine(url)
    try:
        if migrate if migrate is not None else is_embedded(url):
            await upgrade(engine)
        store = Store(make_sessionmaker(engine), clock, serialize=is_embedded(url))
        version = None
        if config is None:
            config, version = await from_database(store, file or config_path())
        store.use_places(config.place_names)
        async with store.transaction() as tx:
            await sync_places(
                tx,
                {code: a.name for code, a in config.authorities.items()},
                {code: (p.authority, p.name) for code, p in config.pounds.items()},
            )
        deps = Deps(config, clock, subscribers=subscribers())
        app = App(config, engine, store, deps, version=version)
        app.gate = send_gate(lambda: app.deps)
        yield app
    finally:
        await engine.dispose()
