"""The data migration ``0005`` on SQLite and (with ``POUNDBOT_TEST_PG_URL``)
PostgreSQL: numbers stored before libphonenumber read them are rewritten in E.164, the
unreadable are left and logged masked, and the public search descriptions lose the
owner's name and number (issue 13, items 10 and 11)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert, select, text

from bot.config import load_config, sample_config_path
from bot.services.base import Deps
from bot.services.keeper import record_seizure
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.migrate import upgrade
from bot.store.models import CaseLot, CaseRow, Contact, OutboxRow, User
from bot.store.tx import Store, sync_places
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.s07_seizure import Lot, Person
from tests.integration.test_migrations import ENGINES, fresh_pg_database, later_case_columns
from tests.service.helpers import seizure

KEEPER = Caller(role="keeper", channel="test", pound="KNM", authority="KNM-GP")
NOW = datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ)


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'phones.sqlite3'}"
        return
    with fresh_pg_database() as url:
        yield url


async def test_stored_numbers_are_rewritten_in_e164_and_the_unreadable_kept_and_logged_masked(
    database_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    config = load_config(sample_config_path())
    engine = make_engine(database_url)
    try:
        await upgrade(engine, "0004")  # the schema as the old code wrote to it
        store = Store(make_sessionmaker(engine), FixedClock(NOW))
        async with later_case_columns(engine), store.transaction() as tx:
            await sync_places(
                tx,
                {code: a.name for code, a in config.authorities.items()},
                {code: (p.authority, p.name) for code, p in config.pounds.items()},
            )
            leaky = seizure(lots=(Lot("buffalo", 1, "black buffalo OWNER Kunhammed 9847012345"),))
            await record_seizure(tx, Deps(config=config, clock=FixedClock(NOW)), KEEPER, leaky)
        async with engine.begin() as conn:
            # What the old code stored: the description whole in the search, numbers by hand.
            await conn.execute(
                text(
                    "UPDATE case_lots SET description = 'black buffalo OWNER Kunhammed 9847012345'"
                )
            )
            await conn.execute(text("UPDATE cases SET owner_phone = '+9847012345'"))
            now = NOW.astimezone(UTC)
            await conn.execute(  # by the columns of 0004: the model has gained some since
                text(
                    "INSERT INTO users (id, role, phone, name, active, created_at)"
                    " VALUES (:id, :role, :phone, '', :active, :created_at)"
                ),
                [
                    {
                        "id": i + 1,
                        "role": "admin",
                        "phone": phone,
                        "active": True,
                        "created_at": now,
                    }
                    for i, phone in enumerate(
                        [
                            "+9847012345",
                            "+919847000001",
                            "+914952370000",
                            "9847000002",
                            "+919847000003",
                        ]
                    )
                ],
            )
            await conn.execute(
                insert(Contact),
                [
                    {"phone": phone, "updated_at": now}
                    for phone in ["+9847099999", "console", "+919847011111", "09847011111"]
                ],
            )
            await conn.execute(
                insert(OutboxRow),
                [
                    {
                        "idempotency_key": f"k{i}",
                        "channel": "sms",
                        "recipient": phone,
                        "body": "x",
                        "status": status,
                        "attempts": 0,
                        "next_attempt_at": now,
                        "created_at": now,
                    }
                    for i, (status, phone) in enumerate(
                        [("queued", "+9847012345"), ("sent", "+9847012345"), ("queued", "+1 415")]
                    )
                ],
            )
        with caplog.at_level(logging.INFO, logger="poundbot.migrations"):
            await upgrade(engine)
        async with store.transaction() as tx:
            users = (await tx.session.execute(select(User.phone).order_by(User.id))).scalars()
            owners = (await tx.session.execute(select(CaseRow.owner_phone))).scalars()
            contacts = (await tx.session.execute(select(Contact.phone))).scalars()
            outbox = (
                await tx.session.execute(select(OutboxRow.recipient).order_by(OutboxRow.id))
            ).scalars()
            lots = (await tx.session.execute(select(CaseLot.description))).scalars()
            assert list(users) == [
                "+919847012345",  # "+" + the ten digits: India, not +98 Iran
                "+919847000001",
                "+914952370000",  # a landline: left as it is, logged
                "+919847000002",
                "+919847000003",
            ]
            assert list(owners) == ["+919847012345"]
            # "09847011111" is "+919847011111", which another contact holds: left, logged.
            assert sorted(contacts) == sorted(
                ["+919847099999", "console", "+919847011111", "09847011111"]
            )
            assert list(outbox) == ["+919847012345", "+9847012345", "+1 415"]
            assert list(lots) == ["black buffalo"]
    finally:
        await engine.dispose()
    logged = caplog.text
    assert "+91******0000" in logged  # the landline, masked
    for full in ("4952370000", "9847011111", "+1 415"):
        assert full not in logged


async def test_the_migration_derives_the_owner_and_seizer_names_out_of_the_search(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    config = load_config(sample_config_path())
    engine = make_engine(database_url)
    try:
        await upgrade(engine, "0004")
        store = Store(make_sessionmaker(engine), FixedClock(NOW))
        async with later_case_columns(engine), store.transaction() as tx:
            await sync_places(
                tx,
                {code: a.name for code, a in config.authorities.items()},
                {code: (p.authority, p.name) for code, p in config.pounds.items()},
            )
            named = seizure(lots=(Lot("cow", 2, "brown, Kunhammed's cows, tag 4471"),))
            assert named.owner == Person("Kunhammed P.", "Chathamangalam")
            await record_seizure(tx, Deps(config=config, clock=FixedClock(NOW)), KEEPER, named)
        async with engine.begin() as conn:
            await conn.execute(
                text("UPDATE case_lots SET description = 'brown, Kunhammed''s cows, tag 4471'")
            )
        await upgrade(engine)
        async with store.transaction() as tx:
            lots = list((await tx.session.execute(select(CaseLot.description))).scalars())
            owners = list((await tx.session.execute(select(CaseRow.owner_name))).scalars())
        assert lots == ["brown, cows, tag 4471"]
        # Out of the public search, into the staff's (0018): the name the facts state.
        assert owners == ["Kunhammed P."]
    finally:
        await engine.dispose()
