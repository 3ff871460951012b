"""The migration ``0020`` on SQLite and (with ``POUNDBOT_TEST_PG_URL``) PostgreSQL: every
existing admin becomes a state admin (an authority an invite had given them is dropped,
and the change written to the audit of users), as does an admin's invite not yet used;
officers and keepers keep their authority."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, text

from bot.config import load_config, sample_config_path
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.migrate import upgrade
from bot.store.models import Invite, User, UserChange
from bot.store.tx import Store, sync_places
from bot.support.clock import FixedClock
from tests.integration.test_migrations import ENGINES, fresh_pg_database

NOW = datetime(2026, 12, 8, 4, 30, tzinfo=UTC)


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'scopes.sqlite3'}"
        return
    with fresh_pg_database() as url:
        yield url


async def test_every_existing_admin_becomes_a_state_admin_and_the_audit_says_so(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    config = load_config(sample_config_path())
    engine = make_engine(database_url)
    try:
        await upgrade(engine, "0019")  # the revision before admin scopes
        store = Store(make_sessionmaker(engine), FixedClock(NOW))
        async with store.transaction() as tx:
            await sync_places(
                tx,
                {code: a.name for code, a in config.authorities.items()},
                {code: (p.authority, p.name) for code, p in config.pounds.items()},
            )
        async with engine.begin() as conn:
            # By the columns of 0017, which the later revisions keep.
            for uid, role, pound, authority, active in (
                (1, "admin", None, "KNM-GP", True),
                (2, "admin", None, None, True),
                (3, "officer", None, "KNM-GP", True),
                (4, "keeper", "ENM", "ENM-GP", True),
                (5, "admin", None, "ENM-GP", False),
            ):
                await conn.execute(
                    text(
                        "INSERT INTO users (id, role, pound_code, authority_code, name,"
                        " active, created_at)"
                        " VALUES (:id, :role, :pound, :authority, '', :active, :at)"
                    ),
                    {
                        "id": uid,
                        "role": role,
                        "pound": pound,
                        "authority": authority,
                        "active": active,
                        "at": NOW,
                    },
                )
            for code, role, authority, used in (
                ("unused-admin", "admin", "KNM-GP", None),
                ("used-admin", "admin", "KNM-GP", NOW),
                ("unused-officer", "officer", "KNM-GP", None),
            ):
                await conn.execute(
                    text(
                        "INSERT INTO invites (code, role, authority_code, name, created_at,"
                        " expires_at, used_at) VALUES (:code, :role, :authority, '', :at,"
                        " :expires, :used)"
                    ),
                    {
                        "code": code,
                        "role": role,
                        "authority": authority,
                        "at": NOW,
                        "expires": NOW + timedelta(days=7),
                        "used": used,
                    },
                )
        await upgrade(engine)
        async with store.transaction() as tx:
            users = dict((await tx.session.execute(select(User.id, User.authority_code))).all())
            invites = dict(
                (await tx.session.execute(select(Invite.code, Invite.authority_code))).all()
            )
            audit = [
                (c.user_id, c.field, c.old, c.new, c.by_user_id, c.authority_code)
                for c in await tx.session.scalars(select(UserChange).order_by(UserChange.user_id))
            ]
    finally:
        await engine.dispose()
    assert users == {1: None, 2: None, 3: "KNM-GP", 4: "ENM-GP", 5: None}
    assert invites == {
        "unused-admin": None,
        "used-admin": "KNM-GP",  # used: what it made is the user's row above
        "unused-officer": "KNM-GP",
    }
    assert audit == [
        (1, "authority_code", "KNM-GP", None, None, None),
        (5, "authority_code", "ENM-GP", None, None, None),
    ]
