"""A change to the configuration made on the web desk: made on the version in force, its
comments kept, checked, written as the next version with who and why, each value it
changed kept for the audit, refused whole (nothing written) when it is not the caller's
to make, is stale, changes nothing or fails the checks; and read through a second
instance within seconds. On SQLite and PostgreSQL."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest
from tomlkit.toml_document import TOMLDocument

from bot.bootstrap import open_app
from bot.config.edit import Change, add_table, set_fields, table_of
from bot.entry.app import build_app
from bot.services.config_edit import Edit, apply_edit, audit
from bot.services.config_versions import current, history
from bot.support.caller import ADMIN, OFFICER, Caller
from bot.support.errors import (
    BadInputError,
    ConfigChangedError,
    ConfigRefusedError,
    NotAllowedError,
    NothingChangedError,
)
from tests.integration.test_config_versions import _within, url

__all__ = ["url"]

STATE_ADMIN = Caller(role=ADMIN, channel="web")
KNM_ADMIN = Caller(role=ADMIN, channel="web", authority="KNM-GP")
ENM_ADMIN = Caller(role=ADMIN, channel="web", authority="ENM-GP")


def phone(number: str) -> Edit:
    """The change: Kunnamangalam pound's phone set to ``number``."""

    def edit(document: TOMLDocument) -> list[Change]:
        table = table_of(document, "pounds", "KNM")
        assert table is not None
        return set_fields(table, {"phone": number}, authority="KNM-GP", entity="pound", key="KNM")

    return edit


async def test_a_change_is_the_next_version_with_its_comments_and_its_audit(url: str) -> None:
    async with open_app(url=url, migrate=False) as app:
        first = await current(app.store)
        assert first is not None
        done = await apply_edit(
            app.store, KNM_ADMIN, based_on=first.id, edit=phone("0495 280 1234"), reason="new line"
        )
        assert done.version_id == first.id + 1
        row = await current(app.store)
        assert row is not None
        assert (row.source, row.reason) == ("web", "new line")
        assert 'phone = "0495 280 1234"' in row.text
        assert row.text.replace('"0495 280 1234"', '"0495 280 0000"') == first.text
        shown = await audit(app.store, KNM_ADMIN, "KNM-GP")
        assert [(c.entity, c.key, c.field, c.old, c.new, c.reason) for c in shown] == [
            ("pound", "KNM", "phone", "0495 280 0000", "0495 280 1234", "new line")
        ]
        assert await audit(app.store, STATE_ADMIN, None)
        with pytest.raises(NotAllowedError):
            await audit(app.store, ENM_ADMIN, "KNM-GP")


async def test_a_change_refused_writes_nothing(url: str) -> None:
    async with open_app(url=url, migrate=False) as app:
        first = await current(app.store)
        assert first is not None
        refusals: list[tuple[type[Exception], Caller, int, str, str]] = [
            (NotAllowedError, ENM_ADMIN, first.id, "0495 1", "theirs"),
            (
                NotAllowedError,
                Caller(role=OFFICER, channel="web", authority="KNM-GP"),
                first.id,
                "0495 1",
                "x",
            ),
            (BadInputError, KNM_ADMIN, first.id, "0495 1", "  "),
            (ConfigChangedError, KNM_ADMIN, first.id + 5, "0495 1", "stale"),
            (NothingChangedError, KNM_ADMIN, first.id, "0495 280 0000", "same"),
        ]
        for error, caller, based_on, number, reason in refusals:
            with pytest.raises(error):
                await apply_edit(
                    app.store, caller, based_on=based_on, edit=phone(number), reason=reason
                )

        def unknown_authority(document: TOMLDocument) -> list[Change]:
            return add_table(
                document,
                "pounds",
                {
                    "code": "NEW",
                    "name": "New pound",
                    "authority": "NOPE",
                    "address": "x",
                    "languages": ["ml"],
                },
                authority=None,
                entity="pound",
            )

        with pytest.raises(ConfigRefusedError) as refused:
            await apply_edit(
                app.store, STATE_ADMIN, based_on=first.id, edit=unknown_authority, reason="new"
            )
        faults = refused.value.facts["faults"]
        assert isinstance(faults, list)
        assert any("NOPE" in fault for fault in faults)
        assert [r.id for r in await history(app.store)] == [first.id]
        assert await audit(app.store, STATE_ADMIN, None) == []


async def test_a_change_on_one_instance_is_read_through_another_within_seconds(url: str) -> None:
    async with AsyncExitStack() as stack:
        servers = []
        for _ in range(2):
            asgi = build_app(lambda: open_app(url=url, migrate=False), config_watch=0.05)
            await stack.enter_async_context(asgi.router.lifespan_context(asgi))
            servers.append(asgi.state.poundbot)
        first, second = servers
        assert first.version is not None
        await apply_edit(
            first.store, STATE_ADMIN, based_on=first.version, edit=phone("0495 777"), reason="r"
        )
        await _within(5, lambda: second.config.pounds["KNM"].phone == "0495 777")


async def test_a_version_written_after_one_already_followed_is_refused(url: str) -> None:
    """A change is written as the version after the one it was made on: once another
    change has taken that place, it is refused (None), not written after it."""
    from bot.store.config_versions import add_version

    async with open_app(url=url, migrate=False) as app:
        first = await current(app.store)
        assert first is not None
        async with app.store.transaction() as tx:
            made = await add_version(tx, first.text + "\n# one\n", source="web", reason="a")
        assert made == first.id + 1
        async with app.store.transaction() as tx:
            late = await add_version(
                tx, first.text + "\n# two\n", source="web", reason="b", after=first.id
            )
        assert late is None
        assert [r.id for r in await history(app.store)] == [first.id + 1, first.id]
