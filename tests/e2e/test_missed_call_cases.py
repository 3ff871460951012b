"""A missed call from an owner with several open cases, through Exotel's Passthru webhook
(the one provider that carries missed calls): one SMS a case for the newest three, each
its own DLT template, then one SMS saying how many more there are and how to ask about
them. Under DLT every one of them is sent with the id of the template it matches, none
failed; without DLT they read as four plain SMS."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.store.messages import Inbound, store_inbound
from bot.store.models import OutboxRow
from bot.support.dlt import DltPolicy, registry
from bot.support.words import KEYWORDS
from tests.conftest import ENGINES
from tests.e2e.india_harness import KEEPER_PHONE, IndiaRig, database, india_rig

ENTITY = "1201160000000000000"
#: A different id for every template, so that the id sent names the template matched.
IDS = {t.name: f"1207{n:015d}" for n, t in enumerate(sorted(registry(), key=lambda t: t.name))}
BY_ID = {v: k for k, v in IDS.items()}
OWNER, OWNER_LOCAL = "+919847099999", "09847099999"
#: The first day a case was brought in (the rig's clock stands at 1 March 2026), and how
#: many days they span: each case's s.13(1) report is still to come.
FIRST, DAYS = date(2026, 2, 22), 8
KINDS = ("cow", "buffalo", "goat", "ox")
#: "More" in each language's SMS: the count is followed by it.
MORE = {"en": "more", "ml": "കൂടി", "ta": "மேலும்", "kn": "ಇನ್ನೂ"}


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as found:
        yield found


def _brought(n: int, count: int) -> date:
    """The day case ``n`` (of ``count``) was brought in: not in the order of their
    numbers, so that "newest" is the day brought, not the case number."""
    return FIRST + timedelta(days=(n * 3) % min(count, DAYS))


async def _seize(rig: IndiaRig, count: int) -> list[str]:
    """``count`` cases naming the owner's number, recorded by the keeper's SMS; their
    numbers, newest first (by the day brought, then the latest recorded)."""
    for n in range(1, count + 1):
        on = _brought(n, count).strftime("%d-%m-%Y")
        kind = KINDS[n % len(KINDS)]
        line = f"SEIZE 1 {kind} AT Mavoor ON {on} OWNER Kunhammed 9847099999; tag {n}"
        assert (await rig.say(KEEPER_PHONE, line, f"seize-{n}")).status_code == 200
    order = sorted(range(1, count + 1), key=lambda n: (_brought(n, count), n), reverse=True)
    return [f"KNM-{n}" for n in order]


async def _finished(rig: IndiaRig) -> list[OutboxRow]:
    """Every message of the outbox once none is left queued: delivered by this test or
    by the server's own loop, which may still be marking one it sent (bounded wait)."""
    for _ in range(600):
        async with rig.app.store.transaction() as tx:
            found = await tx.session.scalars(select(OutboxRow).order_by(OutboxRow.id))
            rows = list(found.all())
        if all(r.status not in ("queued", "sending") for r in rows):
            return rows
        await rig.deliver(len(rows), seconds=0.1)
        await asyncio.sleep(0.05)
    raise AssertionError("the outbox did not finish")


async def _answer(rig: IndiaRig, sid: str, expected: int) -> list[OutboxRow]:
    """The SMS that answered call ``sid``, in the order they go, once the outbox has
    delivered everything queued (the keeper's answers, the owner's notices too)."""
    rows = await _finished(rig)
    assert [(r.status, r.last_error, r.body) for r in rows if r.status != "sent"] == []
    assert len(rig.sent()) == len(rows)  # every SMS queued was taken by the provider
    key = f"sms-reply:exotel-call:{sid}"
    answer = [r for r in rows if r.idempotency_key.split("#")[0] == key]
    assert len(answer) == expected
    assert [r.idempotency_key for r in answer] == [
        key if n == 0 else f"{key}#{n + 1}" for n in range(expected)
    ]
    assert {r.recipient for r in answer} == {OWNER}
    return answer


def _under_its_template(rig: IndiaRig, rows: list[OutboxRow]) -> None:
    """Each SMS went with the DLT entity and the id of the template its text matches."""
    by_text = {rig.text_of(m): m for m in rig.sent()}
    for row in rows:
        sent = by_text[row.body]
        assert sent["DltEntityId"] == ENTITY
        assert BY_ID[sent["DltTemplateId"]] == row.template
        template = registry().get(row.template or "")
        assert template is not None
        assert template.problem(row.body, 30) is None


def _more(rows: list[OutboxRow], left: int, lang: str) -> None:
    """The last SMS says how many more cases there are, and how to ask about one."""
    last = rows[-1].body
    assert re.findall(r"KNM-\d+", last) == []
    assert re.search(rf"\b{left}\b", last)
    assert MORE[lang] in last
    assert KEYWORDS["status"][lang][0] in last  # the language's own STATUS word


@pytest.mark.parametrize(
    ("count", "lang"),
    [
        pytest.param(1, "en", id="one case"),
        pytest.param(3, "en", id="three cases"),
        pytest.param(4, "ml", id="four cases, Malayalam"),
        pytest.param(10, "en", id="ten cases"),
        pytest.param(10, "ml", id="ten cases, Malayalam"),
        pytest.param(10, "ta", id="ten cases, Tamil"),
        pytest.param(10, "kn", id="ten cases, Kannada"),
    ],
)
async def test_under_dlt_each_of_the_newest_three_cases_is_an_sms_under_its_template(
    tmp_path: Path, url: str, count: int, lang: str
) -> None:
    async with india_rig(tmp_path, "exotel", url, dlt=DltPolicy(ENTITY, IDS)) as rig:
        newest = await _seize(rig, count)
        if lang != "en":
            await rig.exotel_sms(OWNER_LOCAL, f"LANG {lang}", "owner-lang")
        assert (await rig.exotel_call(OWNER_LOCAL, "call-1")).status_code == 200
        assert (await rig.exotel_call(OWNER_LOCAL, "call-1")).status_code == 200  # a retry
        shown = newest[:3]
        left = count - len(shown)
        rows = await _answer(rig, "call-1", len(shown) + (1 if left else 0))
        _under_its_template(rig, rows)
        for row, number in zip(rows, shown, strict=False):
            assert re.findall(r"KNM-\d+", row.body) == [number]  # one case an SMS
        if left:
            _more(rows, left, lang)


async def test_without_dlt_the_answer_to_ten_cases_reads_as_four_plain_sms(
    tmp_path: Path, url: str
) -> None:
    async with india_rig(tmp_path, "exotel", url) as rig:
        assert not rig.app.config.dlt.enforced
        newest = await _seize(rig, 10)
        assert (await rig.exotel_call(OWNER_LOCAL, "call-plain")).status_code == 200
        rows = await _answer(rig, "call-plain", 4)
        for row, number in zip(rows, newest[:3], strict=False):
            assert row.body.startswith(f"Case {number} (")
            assert re.findall(r"KNM-\d+", row.body) == [number]
        for row in rows:
            assert row.body == row.body.strip()
            assert not re.search(r"[\x00-\x09\x0b-\x1f]", row.body)  # no marker, no form feed
            assert "\n" not in row.body
        assert rows[-1].body.startswith("And 7 more open cases name this number")
        _more(rows, 7, "en")


async def test_a_missed_call_answered_by_the_sweep_is_the_same_sms_under_their_templates(
    tmp_path: Path, url: str
) -> None:
    """A call stored and not acted on (the server stopped) is answered by the crash
    sweep: the same four SMS, each under its template."""
    async with india_rig(tmp_path, "exotel", url, dlt=DltPolicy(ENTITY, IDS)) as rig:
        newest = await _seize(rig, 5)
        await rig.advance_clock(minutes=-5)
        call = Inbound("call", "exotel-call:lost", OWNER, "", {"CallSid": "lost"})
        await store_inbound(rig.app.store, call)
        await rig.advance_clock(minutes=5)
        await rig.server.state.sms_sweep.once()
        assert (await rig.exotel_call(OWNER_LOCAL, "lost")).status_code == 200  # no more
        rows = await _answer(rig, "lost", 4)
        _under_its_template(rig, rows)
        assert [re.findall(r"KNM-\d+", row.body) for row in rows[:3]] == [[n] for n in newest[:3]]
        _more(rows, 2, "en")
