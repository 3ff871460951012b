"""``poundbot demo``: the whole Act, through the real channels, exits 0 only when every
step did what the Act requires. Its runs through Exotel and Mobile Seva, under DLT, are
tests/e2e/test_dlt_cycle.py's."""

from __future__ import annotations

import asyncio
import io
import re
import threading
from datetime import date
from pathlib import Path

import pytest

from bot.demo import refusal, sale
from bot.demo.story import run
from bot.entry.cli import main

#: The header of each statutory step, by provision.
HEADERS = {
    "s.7": "── s.7 intake",
    "s.12": "── s.12 claim",
    "s.13(1)": "── s.13(1) report of unclaimed cattle",
    "s.13(2)": "── s.13(2) notice affixed",
    "s.13(3)": "── s.13(3), s.18 sale by public auction",
    "s.15(2), s.16": "── s.15(2), s.16 settlement",
    "s.16(3)": "── s.16(3) three months in deposit",
    "s.17(1)": "── s.17(1) the unclaimed proceeds are credited to the fund",
    # The second story: owners who refuse to pay.
    "s.15(1) refusal": "── s.15(1) owners who refuse to pay: two cows each",
    "s.15(1) necessary": "── s.15(1) as many sold as necessary: one cow of each",
    "s.15(4)": "── s.15(3), s.15(4) KNM-3: the rest go back to the owner",
    "s.15(5)": "── s.15(5) KNM-4: the owner refuses the account; the cow is unclaimed",
    "s.13 again": "── s.13(1), s.13(2) KNM-4: the refused cow reported and noticed",
    "s.13(3) proviso": "── s.13(3) proviso KNM-4: unsold, disposed of by the Director's order",
}
LEDGER = [
    ("2026-03-03", "KNM-1", "fines", "750.00", "s.12"),
    ("2026-03-03", "KNM-1", "keeper_feeding", "361.50", "s.16(2)"),
    ("2026-03-03", "KNM-1", "fines", "-750.00", "s.17(1)"),
    ("2026-03-03", "KNM-1", "fund", "750.00", "s.17(1)"),
    ("2026-03-18", "KNM-2", "sale_expenses", "500.00", "s.15(2)"),
    ("2026-03-18", "KNM-2", "keeper_feeding", "2700.00", "s.16(2)"),
    ("2026-03-18", "KNM-2", "fines", "700.00", "s.16(1)"),
    ("2026-03-18", "KNM-2", "surplus_deposit", "14900.00", "s.16(3)"),
    ("2026-03-18", "KNM-2", "fines", "-700.00", "s.17(1)"),
    ("2026-03-18", "KNM-2", "fund", "700.00", "s.17(1)"),
    ("2026-06-19", "KNM-2", "surplus_deposit", "-14900.00", "s.17(1)"),
    ("2026-06-19", "KNM-2", "fund", "14900.00", "s.17(1)"),
]
TOTALS = {
    "fines": "0.00",
    "keeper_feeding": "3061.50",
    "sale_expenses": "500.00",
    "surplus_deposit": "0.00",
    "fund": "16350.00",
    "all accounts": "19911.50",
}


def assert_the_whole_story(output: str) -> None:
    for provision, header in HEADERS.items():
        assert header in output, provision
    for number in ("KNM-1", "KNM-2", "KNM-3", "KNM-4"):
        assert number in output
    ledger = output[output.index("── Ledger of KNM-GP") :]
    rows = [tuple(line.split()) for line in ledger.splitlines() if line.startswith("2026-")]
    assert rows == LEDGER
    for account, rupees in TOTALS.items():
        assert re.search(rf"^  {account} +{re.escape(rupees)}$", ledger, re.M), account
    assert "✗" not in output
    assert re.search(r"All \d+ checks passed", output)


def test_the_demo_in_english_runs_the_act_from_intake_to_the_fund_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo"]) == 0
    output = capsys.readouterr().out
    assert output.startswith("poundbot demo (en)")
    assert_the_whole_story(output)
    # Each role speaks, and is answered on its channel.
    for line in (
        "KEEPER → poundbot: /seize 1 cow AT Kunnamangalam market OWNER",
        "poundbot → KEEPER (Telegram): Case KNM-1 recorded: 1 cow.",
        "OWNER → poundbot: DUES KNM-1",
        "poundbot → OWNER (SMS reply): Case KNM-1: Rs 991 due on 2 Mar 2026",
        "poundbot → OWNER (WhatsApp reply): ",  # the same owner, on WhatsApp (FIND)
        "OFFICER → poundbot: /notice KNM-2",
        "poundbot → OFFICER (Telegram): Case KNM-2: ₹14,900 of unclaimed proceeds credited",
    ):
        assert line in output
    # The reminders, on their day: s.13(1), the s.13(3) eve, the auction day (once fixed,
    # it replaces the lawful-day reminder), s.17(1).
    reminders = re.findall(r"\[(\w{3} \d\d \w{3} 2026 08:00)\] poundbot → (\w+)", output)
    assert reminders == [
        ("Mon 09 Mar 2026 08:00", "KEEPER"),
        ("Mon 16 Mar 2026 08:00", "OFFICER"),
        ("Wed 18 Mar 2026 08:00", "OFFICER"),
        ("Fri 19 Jun 2026 08:00", "OFFICER"),
        # The second story: the owners' auction day (two cases), the report of the cow
        # the owner refused (s.15(5), s.13(1)), and its auction day.
        ("Fri 26 Jun 2026 08:00", "OFFICER"),
        ("Fri 26 Jun 2026 08:00", "OFFICER"),
        ("Tue 30 Jun 2026 08:00", "KEEPER"),
        ("Wed 08 Jul 2026 08:00", "OFFICER"),
    ]
    # The first line names the months the story runs through, as docs/try-it.md does.
    months = re.findall(r"^\[\w{3} \d\d (\w{3}) 2026", output, re.M)
    names = {"Mar": "March", "Jun": "June", "Jul": "July"}
    span = f"{names[months[0]]} to {names[months[-1]]} 2026"
    assert span in output.splitlines()[0]
    try_it = (Path(__file__).parents[2] / "docs" / "try-it.md").read_text(encoding="utf-8")
    assert f"Cases under the Act, {span}," in try_it
    for line in (
        "OFFICER → poundbot: /noreceipt KNM-4",
        "they are deemed unclaimed (s.15(5))",
        "OFFICER → poundbot: /dispose KNM-4 1 1 1500 BY Director REF DO-4/2026 HOW goshala",
        "(s.13(3) proviso)",
        "Case KNM-4: sale settled; proceeds ₹1,500 (s.15(2))",
    ):
        assert line in output


async def test_a_sale_that_does_not_meet_the_dues_fails_the_second_story_and_exits_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(refusal, "_PRICE", "100")  # no balance for the owner (s.15(3))
    out = io.StringIO()
    assert await run("en", out) == 1
    output = out.getvalue()
    assert "✗ CHECK FAILED (s.15(1), s.15(2), s.16(1), s.17(1), s.15(3)): KNM-3" in output
    assert "exit status 1" in output


def _threads() -> set[str]:
    """The threads running, but the photo worker: one thread for the process, started
    with the first photo whichever test sends it (``bot.adapters.photo_store``)."""
    return {t.name for t in threading.enumerate() if not t.name.startswith("poundbot-photo")}


async def test_the_demo_in_malayalam_speaks_malayalam_and_leaves_nothing_running() -> None:
    threads = _threads()
    out = io.StringIO()
    assert await run("ml", out) == 0
    output = out.getvalue()
    assert_the_whole_story(output)
    assert "OWNER → poundbot: കുടിശ്ശിക KNM-1" in output
    assert "KEEPER → poundbot: /seize 1 പശു സ്ഥലം കുന്ദമംഗലം ചന്ത" in output
    assert "poundbot → KEEPER (Telegram): കേസ് KNM-1 രേഖപ്പെടുത്തി" in output
    # The servers, the fake APIs and the database are gone with the story.
    assert asyncio.all_tasks() == {asyncio.current_task()}
    assert _threads() == threads


async def test_an_auction_fixed_before_it_is_lawful_is_refused_and_the_demo_exits_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sale, "AUCTION_ON", date(2026, 3, 16))  # lawful from 17 March
    out = io.StringIO()
    assert await run("en", out) == 1
    output = out.getvalue()
    asked = output.index("OFFICER → poundbot: /auction KNM-2 ON 16-03-2026")
    refusal = output[asked:].splitlines()[1]
    assert refusal.startswith("[Mon 16 Mar 2026 10:00] poundbot → OFFICER (Telegram):")
    assert "s.13(3)" in refusal
    assert "✗ CHECK FAILED (s.13(3)): the auction is fixed for 16 March" in output
    assert "exit status 1" in output
    assert "── Ledger of KNM-GP" not in output  # the story stops at the failed step


#: The headers of the story under the Cattle-trespass Act, 1871: each step cited by that
#: Act's own section; no s.15(5), so KNM-4's owner takes the cow and the balance.
HEADERS_1871 = {
    "s.8": "── s.8 intake",
    "s.13": "── s.13 claim",
    "s.14 para 1": "── s.14 para 1 report of unclaimed cattle",
    "s.14 para 2": "── s.14 para 2 notice affixed at the office and proclaimed by beat of drum",
    "s.14 para 3": "── s.14 para 3, s.19 sale by public auction",
    "s.16 para 2, s.17": "── s.16 para 2, s.17 settlement",
    "s.17 para 3": "── s.17 para 3 the unclaimed proceeds are credited to the fund",
    "s.16 para 1": "── s.16 para 1 owners who refuse to pay: two cows each",
    "s.16 para 4": "── s.16 para 3, s.16 para 4 KNM-3: the rest go back to the owner",
    "no s.15(5)": "── s.15(5) (Kerala) KNM-4: no such step under the Cattle-trespass Act, 1871",
}


def test_the_demo_under_the_1871_act_cites_its_sections_and_has_no_unclaimed_account(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--act", "cattle-trespass-1871"]) == 0
    output = capsys.readouterr().out
    assert "poundbot demo (en, cattle-trespass-1871)" in output
    for provision, header in HEADERS_1871.items():
        assert header in output, provision
    assert "── s.13(1)" not in output  # no Kerala citation where the 1871 Act has its own
    assert "disposed of by the Director's order" not in output  # no second round
    assert "✓ s.16 para 4: KNM-4: the owner took the other cow" in output
    assert "✗" not in output
    # The money is the same as under the Kerala Act: the same rates, the same book.
    ledger = output[output.index("── Ledger of KNM-GP") :]
    rows = [tuple(line.split()) for line in ledger.splitlines() if line.startswith("2026-")]
    assert [row[:4] for row in rows] == [row[:4] for row in LEDGER]


def test_the_demo_under_the_amended_act_proclaims_without_drum_and_the_authority_disposes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--act", "kerala-1961-amended"]) == 0
    output = capsys.readouterr().out
    assert "poundbot demo (en, kerala-1961-amended)" in output
    assert "── s.13(2) notice affixed at the office and proclaimed ──" in output
    assert "beat of drum in the village and at the market place" not in output
    # The amended s.13(3): the local authority decides another disposal, not the Director.
    assert "OFFICER → poundbot: /dispose KNM-4 1 1 1500 BY LOCAL-AUTHORITY" in output
    assert "── s.13(3) proviso KNM-4: unsold, disposed of by Local authority's order ──" in output
    assert_the_whole_story(output.replace("Local authority's", "the Director's"))
