"""The console goes through the same parsing, use cases and rendering as the channels."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.bootstrap import open_app
from bot.entry.cli import main
from bot.entry.console import run_console
from bot.store.models import CaseRow, InboxRow
from bot.support.caller import KEEPER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.integration.test_migrations import ENGINES, fresh_pg_database


def lines(*typed: str) -> Iterator[str]:
    yield from typed


def reader(typed: Iterator[str]):  # type: ignore[no-untyped-def]
    def read(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return read


async def test_a_keeper_session_records_a_seizure_and_an_owner_session_reads_its_dues(
    tmp_path: Path,
) -> None:
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
    async with open_app(url=url, clock=clock) as app:
        keeper = Caller(role=KEEPER, channel="console", pound="KNM", authority="KNM-GP")
        out = io.StringIO()
        typed = lines("SEIZE 2 cow AT Kunnamangalam market; brown", "CASES", "", "quit")
        assert await run_console(app, keeper, read=reader(typed), out=out) == 0
        text = out.getvalue()
        assert "KNM-1" in text
        owner = Caller.public("console", phone="+919847000001")
        out = io.StringIO()
        await run_console(app, owner, read=reader(lines("DUES KNM-1", "nonsense words")), out=out)
        answers = out.getvalue()
        assert "KNM-1" in answers
        assert "DUES" in answers  # the help for a line it did not understand names the words
        async with app.store.transaction() as tx:
            cases = await tx.session.scalar(select(func.count()).select_from(CaseRow))
            inbox = await tx.session.scalar(select(func.count()).select_from(InboxRow))
    assert cases == 1
    assert inbox == 4  # every line is kept, like an SMS


async def test_an_owner_typing_malayalam_gets_malayalam(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
    async with open_app(url=url) as app:
        out = io.StringIO()
        owner = Caller.public("console", phone="+919847000002")
        await run_console(app, owner, read=reader(lines("സഹായം")), out=out)
    assert any("\u0d00" <= ch <= "\u0d7f" for ch in out.getvalue().split(".", 1)[1])


def test_the_console_command_reads_standard_input(
    tmp_path: Path,
    monkeypatch,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    from bot.entry.cli import main

    monkeypatch.setenv("POUNDBOT_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'c.sqlite3'}")
    monkeypatch.setattr("sys.stdin", io.StringIO("HELP\nquit\n"))
    assert main(["console", "--as", "owner"]) == 0
    assert "DUES" in capsys.readouterr().out


async def test_a_line_that_crashes_is_apologised_for_and_the_console_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def crash(*args: object, **kwargs: object) -> object:
        raise RuntimeError("database went away")

    url = f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
    async with open_app(url=url) as app:
        monkeypatch.setattr("bot.conversation.reply.handle_text", crash)
        out = io.StringIO()
        owner = Caller.public("console", phone="+919847000003", lang="en")
        status = await run_console(app, owner, read=reader(lines("DUES KNM-1", "HELP")), out=out)
        async with app.store.transaction() as tx:
            kept = await tx.session.scalar(select(func.count()).select_from(InboxRow))
    assert status == 0
    from bot.i18n import render, translator

    assert out.getvalue().count(render.try_again_later(translator("en"))) == 2
    assert kept == 2  # both lines are kept, unprocessed: nothing is lost


def test_ctrl_c_leaves_the_console_at_the_first_press_without_a_traceback(
    tmp_path: Path,
) -> None:
    import os
    import signal
    import subprocess
    import sys

    env = {**os.environ, "POUNDBOT_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'c.sqlite3'}"}
    console = subprocess.Popen(
        [sys.executable, "-m", "bot.entry.cli", "console", "--as", "keeper"],
        stdin=subprocess.PIPE,  # kept open: the console waits for a line
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        # As at a terminal: a test run started in the background (``make test &``)
        # has Ctrl-C ignored, and its children would inherit that.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    with console:
        assert console.stdout is not None
        assert "poundbot console as keeper" in console.stdout.readline()
        console.send_signal(signal.SIGINT)  # one press
        try:
            status = console.wait(timeout=20)
        finally:
            console.kill()
        _, err = console.communicate()
    assert status == 130
    assert "Traceback" not in err
    assert "Fatal" not in err


async def test_the_console_is_not_limited_per_sender(tmp_path: Path) -> None:
    # The SMS and Telegram limits (10 answers in 10 minutes for the public) are for
    # messages that cost money or Telegram's rate; the console answers every line.
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
    async with open_app(url=url, clock=clock) as app:
        owner = Caller.public("console", phone="+919847000001")
        out = io.StringIO()
        await run_console(app, owner, read=reader(lines(*["HELP"] * 15)), out=out)
    assert out.getvalue().count("DUES") >= 15
    assert "You have sent many messages" not in out.getvalue()


def _malayalam(text: str) -> bool:
    return any("\u0d00" <= ch <= "\u0d7f" for ch in text)


@pytest.fixture(params=ENGINES)
def database(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The URL of a new database: a SQLite file, or a PostgreSQL database migrated."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
        return
    with fresh_pg_database() as url:
        monkeypatch.setenv("POUNDBOT_DATABASE_URL", url)
        assert main(["migrate"]) == 0
        yield url


async def test_a_keeper_is_told_why_the_answers_are_in_malayalam_and_lang_en_changes_them(
    database: str,
) -> None:
    async with open_app(url=database) as app:
        keeper = Caller(role=KEEPER, channel="console", pound="KNM", authority="KNM-GP")
        out = io.StringIO()
        typed = lines("SEIZE 1 cow AT Kunnamangalam market; brown", "CASES", "LANG en", "CASES")
        answers: list[str] = []

        def read(prompt: str) -> str:
            answers.append(out.getvalue())
            return reader(typed)(prompt)

        await run_console(app, keeper, read=read, out=out)
        answers.append(out.getvalue())
    header = answers[0]
    assert "console as keeper of KNM" in header
    assert "Answers in Malayalam, the first language of pound KNM" in header
    assert "LANG en" in header
    replies = [after[len(before) :] for before, after in itertools.pairwise(answers)]
    _seized, cases, lang_set, cases_after = replies[:4]
    assert _malayalam(cases)
    assert "KNM-1" in cases_after
    assert not _malayalam(lang_set)
    assert not _malayalam(cases_after), cases_after


async def test_the_console_as_an_owner_says_owner(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.sqlite3'}"
    async with open_app(url=url) as app:
        out = io.StringIO()
        owner = Caller.public("console", phone="+919847000003")
        await run_console(app, owner, read=reader(lines()), out=out)
    first = out.getvalue().splitlines()[0]
    assert first.startswith("poundbot console as owner.")
    assert "public" not in first
    assert "Answers in the language of what you type" in first
