"""Each benchmark of ``bench/`` run small: it must still measure what it says (every
DUES answered with the dues, every Telegram update recorded, every page shown) and
reach its targets' lines. The figures of a small run on a shared machine mean nothing
and are not checked: ``make bench`` checks them, at full size."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.delenv("POUNDBOT_TEST_PG_URL", raising=False)  # SQLite is enough here


def _module(name: str) -> ModuleType:
    __import__(name)
    return sys.modules[name]


def test_the_sms_benchmark_has_every_dues_answered(
    bench: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sms = _module("sms_webhook")
    for name, value in (("SECONDS", 1), ("RATE", 40), ("CLOSED_REQUESTS", 80), ("CLIENTS", 4)):
        monkeypatch.setattr(sms, name, value)
    # More than ten requests, all answered: one number would be silenced past ten.
    asyncio.run(sms.main())  # an unanswered DUES raises SystemExit ("errors on ...")
    out = capsys.readouterr().out
    assert "target (SQLite) throughput DUES / floor" in out


def test_the_telegram_benchmark_records_every_update(
    bench: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    telegram = _module("telegram_updates")
    monkeypatch.setattr(telegram, "ROUNDS", 2)
    monkeypatch.setattr(telegram, "PER_ROUND", 40)  # 130 updates: past a keeper's 60
    asyncio.run(telegram.main())
    out = capsys.readouterr().out
    assert "recorded" not in out, out  # "webhook path recorded N cases ... of M"
    assert "no longer writes" not in out, out
    assert "target updates/s, webhook path / floor" in out


def test_the_web_benchmark_shows_every_page(
    bench: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    web = _module("web_pages")
    monkeypatch.setattr(web, "CASES", 500)
    monkeypatch.setattr(web, "ROUNDS", 20)
    asyncio.run(web.main([]))  # a page that is not 200 fails an assertion
    out = capsys.readouterr().out
    assert "seeded 500 cases" in out
    assert "target Cases list p95 / bare page p95" in out
