"""Each benchmark of ``bench/`` run small: it must still measure what it says (every
DUES answered with the dues, every Telegram update recorded, every page shown) and
reach its targets' lines. The figures of a small run on a shared machine mean nothing
and are not checked: ``make bench`` checks them, at full size."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    *args: Any,
    **sizes: int,
) -> str:
    """Run ``bench/<name>.py``'s main at ``sizes`` (its constants), on SQLite; its output."""
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.delenv("POUNDBOT_TEST_PG_URL", raising=False)  # SQLite is enough here
    __import__(name)
    module = sys.modules[name]
    for constant, value in sizes.items():
        monkeypatch.setattr(module, constant, value)
    asyncio.run(module.main(*args))
    return capsys.readouterr().out


def test_the_sms_benchmark_has_every_dues_answered(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # More than ten requests, all answered (one number would be silenced past ten); an
    # unanswered DUES raises SystemExit ("errors on ...").
    # The long case small too: 12 events against 5.
    sizes = {"SECONDS": 1, "RATE": 40, "CLOSED_REQUESTS": 80, "CLIENTS": 4, "LONG_CASE": 12}
    out = _run(monkeypatch, capsys, "sms_webhook", **sizes)
    assert "target (SQLite) throughput DUES / floor" in out
    assert "target (SQLite) DUES CPU, case of 12 events / of 5" in out


def test_the_telegram_benchmark_records_every_update(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 130 updates from one keeper: past the 60 answers a keeper gets in ten minutes.
    out = _run(monkeypatch, capsys, "telegram_updates", ROUNDS=2, PER_ROUND=40)
    assert "recorded" not in out, out  # "webhook path recorded N cases ... of M"
    assert "no longer writes" not in out, out
    assert "target updates/s, webhook path / floor" in out


def test_the_web_benchmark_shows_every_page(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A page that is not 200 fails an assertion of the benchmark.
    out = _run(monkeypatch, capsys, "web_pages", [], CASES=500, ROUNDS=20)
    assert "seeded 500 cases" in out
    assert "target Cases list p95 / bare page p95" in out
