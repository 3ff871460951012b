"""No name of the owner or the seizer in what the public reads, whatever ending it takes.

A keeper writes the place of seizure as the sentence needs it: ``കുഞ്ഞമ്മദിന്റെ പറമ്പ്``
(Kunhammed's field, the Malayalam genitive of the owner's name), ``Kunhammed-Haji's
field``, ``രാഘവന്റെ പടിക്കൽ`` (the seizer's gate), ``ರಾಮನ ಹೊಲ``. Seized by signed SMS
into the running app, noticed, then read as the public reads them: the notice board over
HTTP, the printable notice at its signed link, the notice and its proclamation as the
officer gets them in a chat, FIND and STATUS by SMS from a stranger. A town that merely
begins with the name (``Ramanattukara``, ``രാമനാട്ടുകര``, ``ರಾಮನಗರ`` for an owner Raman,
``രാമൻ``, ``ರಾಮ``) stays: s.13(2)(b) needs the place.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from itertools import groupby
from pathlib import Path
from urllib.parse import urlparse

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.conversation.reply import handle_text
from bot.store.models import User
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig
from tests.integration.test_migrations import ENGINES, fresh_pg_database

#: What the keeper sends, what the public reads of the place seized, and the words of
#: the names (as written there or in the SEIZE) that must appear nowhere in public.
CASES = [
    (
        "SEIZE 1 cow (കുഞ്ഞമ്മദിന്റെ കറുത്ത പശു) AT കുഞ്ഞമ്മദിന്റെ പറമ്പ് OWNER കുഞ്ഞമ്മദ് ഹാജി 9847099999",
        "പറമ്പ്",
        ("കുഞ്ഞമ്മദിന്റെ", "കുഞ്ഞമ്മദ്", "ഹാജി"),
    ),
    (
        "SEIZE 1 buffalo AT Kunhammed-Haji's field OWNER Kunhammed Haji",
        "field",
        ("Kunhammed", "Haji"),
    ),
    (
        "SEIZE 1 cow AT രാഘവന്റെ പടിക്കൽ, രാമനാട്ടുകര BY രാഘവൻ നായർ OWNER രാമൻ",
        "പടിക്കൽ, രാമനാട്ടുകര",
        ("രാഘവന്റെ", "രാഘവൻ", "നായർ", "രാമൻ"),
    ),
    (
        "SEIZE 1 cow AT Raman's field near Ramanattukara OWNER Raman",
        "field near Ramanattukara",
        ("Raman",),
    ),
    (
        "SEIZE 1 cow AT ರಾಮನ ಹೊಲ, ರಾಮನಗರ OWNER ರಾಮ",
        "ಹೊಲ, ರಾಮನಗರ",
        ("ರಾಮನ", "ರಾಮ"),
    ),
    (
        "SEIZE 1 cow AT முருகனின் வயல், முருகன்பாளையம் BY முருகன்",
        "வயல், முருகன்பாளையம்",
        ("முருகனின்", "முருகன்"),
    ),
]
#: Parts of names that are in no word the public reads.
NEVER = ("Kunhammed", "കുഞ്ഞമ്മദ", "രാഘവ")
NUMBERS = [f"KNM-{n}" for n in range(1, len(CASES) + 1)]


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'names.sqlite3'}"
        return
    with fresh_pg_database() as found:
        yield found


@pytest.fixture
async def rig(tmp_path: Path, url: str) -> AsyncIterator[SmsRig]:
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    async with open_app(url=url, clock=clock, migrate=True):
        pass
    async with sms_rig(tmp_path, url) as rig:
        yield rig


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    return html.unescape(match.group(1)) if match else ""


async def text(rig: SmsRig, sender: str, body: str, sid: str) -> str:
    response = await rig.sms(sender, body, sid)
    assert response.status_code == 200, response.text
    return message_of(response.text)


async def stranger(rig: SmsRig, n: int, body: str) -> str:
    """``body`` sent by a member of the public (a new number each, under every limit)."""
    return await text(rig, f"+9198470111{n:02d}", body, f"SM-public-{n}")


async def chat(rig: SmsRig, phone: str, line: str) -> str:
    """``line`` from the user with ``phone`` in a chat (the longer answers of Telegram
    and the console: NOTICE gives the notice and the proclamation in full)."""
    async with rig.app.store.transaction() as tx:
        user = (await tx.session.execute(select(User).where(User.phone == phone))).scalar_one()
        reply = await handle_text(tx, rig.app.deps, caller_of(user, "telegram"), line, sms=False)
    return reply.text


def words_in(text: str) -> set[str]:
    """The words of a text: runs of letters, vowel signs, viramas and digits."""
    return {
        "".join(chars)
        for word, chars in groupby(text, lambda c: unicodedata.category(c)[0] in "LMN")
        if word
    }


def assert_no_names(printed: str, names: tuple[str, ...], where: str) -> None:
    found = words_in(printed) & set(names)
    assert not found, (where, found, printed)
    for part in NEVER:
        assert part not in printed, (where, part, printed)


async def noticed(rig: SmsRig) -> None:
    """The cases seized on 1 March, reported and noticed on 9 March."""
    for n, (seize, _, _) in enumerate(CASES, start=1):
        assert f"KNM-{n}" in await text(rig, KEEPER_PHONE, seize, f"SM-seize-{n}")
    await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    for n, number in enumerate(NUMBERS, start=1):
        assert number in await text(rig, KEEPER_PHONE, f"REPORT {number}", f"SM-report-{n}")
        posted = await text(rig, OFFICER_PHONE, f"NOTICE {number} AT Kunnamangalam", f"SM-n-{n}")
        assert number in posted, posted


def board_places(page: str) -> dict[str, str]:
    """The place seized of each notice on the board."""
    found = re.findall(r'<h2 id="n-([^"]+)">.*?Place seized</dt><dd>(.*?)</dd>', page, re.S)
    return {number: html.unescape(place) for number, place in found}


async def test_the_board_shows_the_places_without_the_names_in_any_ending(rig: SmsRig) -> None:
    await noticed(rig)
    board = await rig.http.get("/notices/KNM-GP?lang=en")
    assert board.status_code == 200
    places = board_places(board.text)
    assert places == {number: place for number, (_, place, _) in zip(NUMBERS, CASES, strict=True)}
    everything = html.unescape(board.text)
    for _, _, names in CASES:
        assert_no_names(everything, names, "board")
    assert "കറുത്ത പശു" in everything  # the description, without its owner's name


async def test_the_place_of_the_auction_is_shown_without_the_names(rig: SmsRig) -> None:
    await noticed(rig)
    await rig.set_clock(datetime(2026, 3, 17, 10, 0, tzinfo=LOCAL_TZ))
    fixed = "AUCTION KNM-2 ON 20-03-2026 AT Kunhammed Haji's yard, Kunnamangalam"
    assert "KNM-2" in await text(rig, OFFICER_PHONE, fixed, "SM-auction")
    board = html.unescape((await rig.http.get("/notices/KNM-GP?lang=en")).text)
    assert "20 Mar 2026, yard, Kunnamangalam (s.13(3))" in board, board
    status = await stranger(rig, 1, "STATUS KNM-2")
    assert "yard, Kunnamangalam" in status, status
    for printed in (board, status):
        assert_no_names(printed, CASES[1][2], "the auction's place")


async def test_the_printable_notice_and_the_proclamation_print_no_name(rig: SmsRig) -> None:
    await noticed(rig)
    for n, (number, (_, place, names)) in enumerate(zip(NUMBERS, CASES, strict=True), start=1):
        brief = await text(rig, OFFICER_PHONE, f"NOTICE {number}", f"SM-print-{n}")
        link = next(word for word in brief.split() if word.startswith("https://"))
        printable = await rig.http.get(urlparse(link).path)
        assert printable.status_code == 200
        page = html.unescape(printable.text)
        assert place in page, (number, page)
        assert_no_names(page, names, f"printable notice {number}")
        assert_no_names(brief, names, f"notice by SMS {number}")
        full = await chat(rig, OFFICER_PHONE, f"NOTICE {number}")
        assert f"Place of seizure: {place}." in full, full  # the proclamation
        assert f"(b) Place where they were seized: {place}" in full, full
        assert_no_names(full, names, f"notice and proclamation {number}")


async def test_find_and_status_by_sms_show_no_name_and_find_none_by_a_name(rig: SmsRig) -> None:
    await noticed(rig)
    asked = 0

    async def ask(body: str) -> str:
        nonlocal asked
        asked += 1
        return await stranger(rig, asked, body)

    # A case is not found by a name of its owner or seizer, alone or with an ending.
    for words in (
        "കുഞ്ഞമ്മദിന്റെ",
        "കുഞ്ഞമ്മദിൻ്റെ",  # the same, as recent keyboards write ന്റ
        "കുഞ്ഞമ്മദ്",
        "Kunhammed",
        "Haji's",
        "രാഘവന്റെ",
        "രാഘവൻ",
        "Raman's",
        "முருகனின்",
    ):
        reply = await ask(f"FIND {words}")
        assert not re.search(r"KNM-\d", reply), (words, reply)
    # It is found by what the public reads, and the answer holds no name.
    for words, number in (
        ("പറമ്പ്", "KNM-1"),
        ("പടിക്കൽ", "KNM-3"),
        ("Ramanattukara", "KNM-4"),
        ("ರಾಮನಗರ", "KNM-5"),
        ("வயல்", "KNM-6"),
    ):
        reply = await ask(f"FIND {words}")
        assert number in reply, (words, reply)
        for _, _, names in CASES:
            assert_no_names(reply, names, f"FIND {words}")
    for number, (_, _, names) in zip(NUMBERS, CASES, strict=True):
        reply = await ask(f"STATUS {number}")
        assert number in reply, reply
        assert_no_names(reply, names, f"STATUS {number}")
