"""The desk's steps of an owner on their own lots (s.7, s.12, s.14, s.15(1)): on the case
page of cattle of more than one owner, PAID, DEPOSITED and REFUSED take the lot whose
owner it is, as LOT n does in a chat line."""

from __future__ import annotations

import re
from pathlib import Path

from bot.web.session import FLASH_COOKIE
from domain.stages import Stage
from tests.web.rig import Rig, rig, step_form

TWO_OWNERS = (
    "SEIZE 1 cow (brown) OWNER Kunhammed 9847012345 1 goat (white) OWNER Ayisha 9847012346 "
    "AT Kunnamangalam market"
)
REPLY = re.compile(r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', re.S)


def _lot_select(page: str, step: str) -> str | None:
    """The lot chooser of the form of ``step``, if the page shows one."""
    form = re.search(rf'action="/web/cases/KNM-1/{step}"(.*?)</form>', page, re.S)
    assert form, step
    found = re.search(r'<select id="' + step + r'-lot" name="lot">(.*?)</select>', form.group(1))
    return found.group(1) if found else None


async def _stage(r: Rig, number: str) -> Stage:
    async with r.app.store.transaction() as tx:
        return (await tx.load_case(number)).case.stage


async def test_the_owner_of_one_lot_pays_for_it_on_the_desk(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, TWO_OWNERS)
        await r.sign_in(keeper)
        page = await r.client.get("/web/cases/KNM-1")
        for step in ("paid", "deposited", "refused"):
            options = _lot_select(page.text, step)
            assert options is not None, step
            assert '<option value="">All the cattle of the case</option>' in options
            assert '<option value="2">2: 1 goat</option>' in options
        done = await r.client.post(
            "/web/cases/KNM-1/paid", data={**step_form(page.text), "lot": "2"}
        )
        assert done.status_code == 303
        # The answer is shown on the page of the case the step was taken on: the goat's.
        assert done.headers["location"] == "/web/cases/KNM-2#reply"
        shown = await r.client.get("/web/cases/KNM-2")
        reply = REPLY.search(shown.text)
        assert reply, shown.text[-1500:]
        assert "New case KNM-2 for the owner of the 1 goat of case KNM-1" in reply.group(1)
        assert await _stage(r, "KNM-2") is Stage.RELEASED
        assert await _stage(r, "KNM-1") is Stage.IMPOUNDED
        # KNM-1 is now Kunhammed's alone: no lot to choose.
        first = await r.client.get("/web/cases/KNM-1")
        assert _lot_select(first.text, "paid") is None
        assert FLASH_COOKIE not in r.client.cookies


async def test_the_whole_case_when_no_lot_is_chosen_and_no_chooser_for_one_owner(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, TWO_OWNERS)
        await r.say(keeper, "SEIZE 2 cow AT Pathimangalam OWNER Ravi 9847012347")
        await r.sign_in(keeper)
        one = await r.client.get("/web/cases/KNM-2")
        assert 'name="lot"' not in one.text.split('action="/web/cases/KNM-2/paid"')[1][:2000]
        page = await r.client.get("/web/cases/KNM-1")
        await r.client.post("/web/cases/KNM-1/paid", data={**step_form(page.text), "lot": ""})
        assert await _stage(r, "KNM-1") is Stage.RELEASED
