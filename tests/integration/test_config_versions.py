"""The configuration in the database: imported once at the first start whichever number
of servers start at once, imported again only when checked and changed, exported as it
was imported, followed by every running instance within seconds; on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack
from datetime import date
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.config import sample_config_path
from bot.entry.app import build_app
from bot.entry.cli import main
from bot.entry.workers import adopt
from bot.services.config_versions import history, import_text
from bot.services.runtime import App
from bot.store import config_versions as store_versions
from bot.store.config_versions import add_version, version
from bot.store.engine import make_engine
from bot.store.migrate import upgrade
from domain.money import Money
from tests.conftest import ENGINES
from tests.databases import migrated_url
from tests.integration.test_cli import run
from tests.integration.test_migrations import fresh_pg_database

SAMPLE = sample_config_path().read_text(encoding="utf-8")
OLD_COW = (
    '    { from = 2025-04-01, rupees = "750", source = "SAMPLE figure, not law: replace from '
    'the revised s.11 scale as notified" },\n'
)
NEW_COW = OLD_COW + '    { from = 2026-06-01, rupees = "900", source = "G.O. 12/2026" },\n'
JULY = date(2026, 7, 1)


def with_new_fine() -> str:
    """The sample with a new dated fine for a cow in Kunnamangalam: ₹900 from June 2026."""
    assert SAMPLE.count(OLD_COW) == 1
    return SAMPLE.replace(OLD_COW, NEW_COW)


def cow_fine(app: App) -> Money:
    return app.deps.tariff("KNM").fine_per_head("cow", JULY).amount


async def _migrate(url: str) -> None:
    engine = make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


@pytest.fixture(params=ENGINES)
def url(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A migrated database without a configuration version, the commands' database too."""
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    if request.param == "sqlite":
        found = migrated_url(tmp_path / "poundbot.sqlite3")
        monkeypatch.setenv("POUNDBOT_DATABASE_URL", found)
        yield found
        return
    with fresh_pg_database() as pg:
        asyncio.run(_migrate(pg))
        monkeypatch.setenv("POUNDBOT_DATABASE_URL", pg)
        yield pg


async def _within(seconds: float, done: Callable[[], bool]) -> None:
    """Wait until ``done()``, failing after ``seconds`` (a bound, not a measure)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not done():
        assert loop.time() < deadline, f"not done within {seconds} s"
        await asyncio.sleep(0.02)


async def _started(url: str) -> int | None:
    async with open_app(url=url, migrate=False) as app:
        return app.version


async def test_the_first_start_imports_the_file_once_however_many_servers_start_at_once(
    url: str,
) -> None:
    versions = await asyncio.gather(*(_started(url) for _ in range(3)))
    assert versions == [1, 1, 1]
    async with open_app(url=url, migrate=False) as app:
        rows = await history(app.store)
        assert [(r.id, r.source) for r in rows] == [(1, "file")]
        assert f"the first start, from {sample_config_path()}" == rows[0].reason
        async with app.store.reading() as tx:
            row = await version(tx)
        assert row is not None
        assert row.text == SAMPLE


async def test_a_writer_that_read_before_another_wrote_takes_the_other_version(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_app(url=url, migrate=False) as app:
        assert app.version == 1

        async def stale(_tx: object) -> None:  # read before the first start's insert
            return None

        monkeypatch.setattr(store_versions, "latest_id", stale)
        async with app.store.transaction() as tx:
            assert await add_version(tx, "x = 1\n", source="cli", reason="late") is None
        monkeypatch.undo()
        assert [r.id for r in await history(app.store)] == [1]


async def test_the_database_is_in_force_after_the_first_start_and_a_changed_file_is_warned_of(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with open_app(url=url, migrate=False) as app:
        assert cow_fine(app) == Money.rupees(750)
    edited = tmp_path / "poundbot.toml"
    edited.write_text(with_new_fine(), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="poundbot"):
        async with open_app(url=url, migrate=False, file=str(edited)) as app:
            assert (app.version, cow_fine(app)) == (1, Money.rupees(750))
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert f"the file {edited} differs from it" in warning
    assert f"poundbot config import {edited}" in warning


def test_import_checks_the_file_as_config_check_and_stores_only_a_change(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(SAMPLE + "\n[limits]\nanswers_per_day = 1\n", encoding="utf-8")
    check = run(capsys, "config", "check", str(bad))
    status, out, err = run(capsys, "config", "import", str(bad))
    assert (status, out) == (1, "")
    assert err.startswith(check[2])  # the faults config check gives, word for word
    assert f"{bad}: not imported" in err
    assert run(capsys, "config", "export")[0] == 1  # nothing stored

    sample = str(sample_config_path())
    status, out, _ = run(capsys, "config", "import", sample, "--reason", "the sample")
    assert status == 0
    assert f"imported {sample} as version 1" in out
    status, out, _ = run(capsys, "config", "import", sample)
    assert (status, out.splitlines()[-1]) == (
        0,
        f"{sample} is version 1, in force already: nothing imported",
    )
    new = tmp_path / "new.toml"
    new.write_text(with_new_fine(), encoding="utf-8")
    assert run(capsys, "config", "import", str(new), "--reason", "G.O. 12/2026")[0] == 0
    status, out, _ = run(capsys, "config", "history")
    assert status == 0
    header, second, first = (line.split("\t") for line in out.splitlines())
    assert header == ["id", "when", "who", "source", "reason"]
    assert (second[0], second[2:]) == ("2", ["command line", "cli", "G.O. 12/2026"])
    assert (first[0], first[3:]) == ("1", ["cli", "the sample"])
    status, out, _ = run(capsys, "config", "diff", "1", "2")
    assert status == 0
    assert "--- version 1\n+++ version 2\n" in out
    assert '\n+    { from = 2026-06-01, rupees = "900", source = "G.O. 12/2026" },\n' in out
    assert run(capsys, "config", "diff", "1", "7")[0] == 1


def test_export_gives_back_the_text_imported(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new.toml"
    new.write_text(with_new_fine(), encoding="utf-8")
    assert run(capsys, "config", "import", str(new))[0] == 0
    status, out, _ = run(capsys, "config", "export")
    assert (status, out) == (0, with_new_fine())
    back = tmp_path / "back.toml"
    assert run(capsys, "config", "export", "--out", str(back))[0] == 0
    assert back.read_bytes() == new.read_bytes()


def test_config_check_without_a_file_checks_the_version_in_force(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new.toml"
    new.write_text(with_new_fine(), encoding="utf-8")
    assert run(capsys, "config", "import", str(new))[0] == 0
    status, out, err = run(capsys, "config", "check")
    assert status == 0
    assert out.startswith("configuration version 1: OK (")
    assert (
        f"note: version 1 of the database is in force; the file {sample_config_path()} "
        f"differs from it and is not read (to put it in force: poundbot config import "
        f"{sample_config_path()})"
    ) in err


async def test_a_new_version_is_in_force_on_every_instance_within_seconds(
    url: str, tmp_path: Path
) -> None:
    """Two servers on one database; a new dated rate imported by the command line."""
    async with AsyncExitStack() as stack:
        servers = []
        for _ in range(2):
            asgi = build_app(lambda: open_app(url=url, migrate=False), config_watch=0.05)
            await stack.enter_async_context(asgi.router.lifespan_context(asgi))
            servers.append(asgi.state.poundbot)
        first, second = servers
        assert [cow_fine(a) for a in servers] == [Money.rupees(750)] * 2
        new = tmp_path / "new.toml"
        new.write_text(with_new_fine(), encoding="utf-8")
        status = await asyncio.to_thread(main, ["config", "import", str(new)])
        assert status == 0
        await _within(5, lambda: all(cow_fine(a) == Money.rupees(900) for a in servers))
        assert (first.version, second.version) == (2, 2)
        assert first.deps.config is first.config  # the use cases read the new one too


async def test_a_version_that_fails_to_load_leaves_the_one_in_force(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with open_app(url=url, migrate=False) as app:
        async with app.store.transaction() as tx:
            assert await add_version(tx, "x = ", source="cli", reason="broken") == 2
            row = await version(tx)
        assert row is not None
        with caplog.at_level(logging.ERROR, logger="poundbot.config"):
            assert not await adopt(app, row)
        assert (app.version, cow_fine(app)) == (1, Money.rupees(750))
        assert "configuration version 2 refused (1 fault(s)); keeping version 1" in caplog.text


async def test_import_through_the_service_refuses_a_configuration_that_does_not_load(
    url: str,
) -> None:
    from bot.config import ConfigError

    async with open_app(url=url, migrate=False) as app:
        with pytest.raises(ConfigError):
            await import_text(app.store, "x = ", source="cli", reason="broken")
        assert [r.id for r in await history(app.store)] == [1]
        done = await import_text(app.store, with_new_fine(), source="web", reason="new fine")
        assert (done.id, done.new) == (2, True)


def test_dlt_import_writes_a_version_when_the_database_holds_the_configuration(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.support.dlt import registry
    from tests import dlt_exports
    from tests.integration.test_dlt_import import ENTITY, malayalam_and_english

    path = malayalam_and_english(tmp_path)  # DLT off until the ids are in
    off = path.read_text(encoding="utf-8").replace(f'entity_id = "{ENTITY}"', "# entity_id")
    path.write_text(off, encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    assert run(capsys, "config", "import", str(path))[0] == 0
    wanted = [t for t in registry() if t.lang in ("ml", "en")]
    sheet = dlt_exports.standard_csv(tmp_path / "approved.csv", wanted)
    status, out, err = run(capsys, "dlt", "import", str(sheet))
    assert (status, err) == (0, "")
    assert "version 2, in force on every instance within seconds" in out
    assert "note: [dlt] entity_id is not set" in out
    assert path.read_text(encoding="utf-8") == before  # the file is not written
    status, out, _ = run(capsys, "config", "history")
    newest = out.splitlines()[1].split("\t")
    assert (newest[0], newest[3]) == ("2", "dlt")
    assert newest[4].startswith("dlt import ")
    exported = run(capsys, "config", "export")[1]
    from bot.config import parse_config

    ids = parse_config(exported).dlt.template_ids
    rejected, pending = sorted(t.name for t in wanted)[-2:]
    assert set(ids) >= {t.name for t in wanted} - {rejected, pending}
    # The same export again changes nothing: no version.
    status, out, _ = run(capsys, "dlt", "import", str(sheet))
    assert status == 0
    assert "nothing stored" in out
    assert len(run(capsys, "config", "history")[1].splitlines()) == 3


# -- what reads the configuration in force: serve, config show ------------------------


def _serve(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> tuple[int, str]:
    """``poundbot serve`` up to the server itself (not started): status, and what it
    logged at warning and above."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: None)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="poundbot"):
        status = main(["serve"])
    return status, "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)


def _broken(tmp_path: Path) -> Path:
    """The sample with two faults, at lines 2 and 3."""
    broken = tmp_path / "broken.toml"
    broken.write_text(
        "# edited\n[nonsense]\nx = 1\n"
        + SAMPLE.replace('timezone = "Asia/Kolkata"', 'timezone = "Mars"', 1),
        encoding="utf-8",
    )
    return broken


async def test_serve_starts_on_the_version_in_force_beside_a_file_with_faults(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken = _broken(tmp_path)
    monkeypatch.setenv("POUNDBOT_CONFIG", str(broken))
    # No version yet: nothing to run on, and a file with faults is not imported.
    status, logged = await asyncio.to_thread(_serve, monkeypatch, caplog)
    assert status == 2
    assert f"refusing to start: the configuration {broken} is not valid" in logged
    assert f"{broken}:2: " in logged
    assert await asyncio.to_thread(_in_force) is None
    # Once the database holds a version, it is what starts; the file is only warned of.
    monkeypatch.delenv("POUNDBOT_CONFIG")
    assert await _started(url) == 1
    monkeypatch.setenv("POUNDBOT_CONFIG", str(broken))
    status, logged = await asyncio.to_thread(_serve, monkeypatch, caplog)
    assert (status, logged.count("refusing")) == (0, 0)
    assert "Configuration: 3 authorities, 4 pounds (KNM, PTM, ENM, VTV)" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="poundbot"):
        async with open_app(url=url, migrate=False, file=str(broken)) as app:
            assert (app.version, cow_fine(app)) == (1, Money.rupees(750))
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.startswith(
        f"Configuration: version 1 of the database is in force; the file {broken} has "
        "2 faults (line 2: "
    )
    assert f"and is not read (poundbot config check {broken})" in warning


async def test_serve_starts_on_the_version_in_force_beside_a_file_that_differs(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert await _started(url) == 1
    other = tmp_path / "other.toml"
    other.write_text(with_new_fine(), encoding="utf-8")
    monkeypatch.setenv("POUNDBOT_CONFIG", str(other))
    status, logged = await asyncio.to_thread(_serve, monkeypatch, caplog)
    assert (status, logged.count("refusing")) == (0, 0)
    assert "Configuration: 3 authorities, 4 pounds (KNM, PTM, ENM, VTV)" in caplog.text


def _in_force() -> int | None:
    """The id of the version in force in the commands' database (None: none)."""
    from bot.entry.config_store import database_version

    found = database_version()
    return None if found is None else found.id


def test_config_show_shows_the_version_in_force_else_the_file(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = tmp_path / "edited.toml"
    edited.write_text(SAMPLE.replace("sms_per_second = 1", "sms_per_second = 2", 1), "utf-8")
    monkeypatch.setenv("POUNDBOT_CONFIG", str(edited))
    status, out, err = run(capsys, "config", "show")  # no version yet: the file in use
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == (
        f"# the configuration in force: {edited} (POUNDBOT_CONFIG; the database holds none)"
    )
    assert "reminders.sms_per_second = 2 " in out
    new = tmp_path / "new.toml"
    new.write_text(with_new_fine(), encoding="utf-8")
    assert run(capsys, "config", "import", str(new))[0] == 0
    status, out, err = run(capsys, "config", "show")
    assert status == 0
    assert out.splitlines()[0] == (
        "# the configuration in force: configuration version 1 (the database's version in "
        "force: poundbot config history)"
    )
    assert "reminders.sms_per_second = 1 " in out
    assert 'tariffs.KNM-GP.fines.cow[2].rupees = "900" ' in out
    assert f"note: version 1 of the database is in force; the file {edited} differs" in err
    # A file named is shown as it is, whatever the database holds.
    status, out, err = run(capsys, "config", "show", str(edited))
    assert (status, err) == (0, "")
    assert (
        out.splitlines()[0] == f"# the configuration in force: {edited} (named on the command line)"
    )
    assert "reminders.sms_per_second = 2 " in out


async def test_an_import_made_on_a_version_is_refused_once_another_is_in_force(url: str) -> None:
    """The DLT export's import is made on the version its dry run read: a version stored
    between the two is not written over."""
    from bot.support.errors import ConfigChangedError

    async with open_app(url=url, migrate=False) as app:
        done = await import_text(app.store, with_new_fine(), source="cli", reason="new fine")
        assert done.id == 2
        with pytest.raises(ConfigChangedError):
            await import_text(
                app.store, SAMPLE + "\n# made on 1\n", source="dlt", reason="ids", based_on=1
            )
        assert [r.id for r in await history(app.store)] == [2, 1]
        made = await import_text(
            app.store, with_new_fine() + "\n# on 2\n", source="dlt", reason="ids", based_on=2
        )
        assert (made.id, made.new) == (3, True)
