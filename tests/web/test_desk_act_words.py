"""The web desk in the words of each case's Act, with Kunnamangalam under the Kerala
Act until 4 March 2026 and under the Cattle-trespass Act, 1871 from 5 March: a case's
page, its forms and the answer to a step, its account, Today's lines and the ledger's,
each in its own case's words; nothing of a 1871 case cites a Kerala section that Act
writes otherwise."""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from pathlib import Path
from types import MappingProxyType

from bot.config import Config
from bot.config.model import ActInForce
from bot.i18n import translator
from bot.i18n.common import cite
from bot.store.models import User
from domain.profiles import CATTLE_TRESPASS_1871, KERALA_1961
from tests.act_forms import kerala_left, page_text
from tests.web.rig import Rig, rig, step_form

#: The day Kunnamangalam's Act changes.
SINCE = date(2026, 3, 5)


def _from_the_5th(config: Config) -> Config:
    """KNM-GP under the Kerala Act until 4 March, under the 1871 Act from 5 March."""
    authority = config.authorities["KNM-GP"]
    changed = authority._replace(acts=(ActInForce(SINCE, CATTLE_TRESPASS_1871.key),))
    authorities = {**config.authorities, "KNM-GP": changed}
    return config._replace(authorities=MappingProxyType(authorities))


def _configured(r: Rig) -> None:
    config = _from_the_5th(r.app.config)
    r.app.config = config
    r.app.deps = dataclasses.replace(r.app.deps, config=config)


async def _two_cases(r: Rig) -> tuple[User, User]:
    """KNM-1 brought on 3 March (Kerala), KNM-2 on 5 March (1871), by SEIZE; the keeper
    and an officer."""
    _configured(r)
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    officer = await r.user("officer", authority="KNM-GP")
    r.clock.advance(days=5)  # 6 March
    for on in ("03-03-2026", "05-03-2026"):
        said = await r.say(keeper, f"SEIZE 1 cow AT Kunnamangalam market ON {on}")
        assert "recorded" in said, said
    async with r.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.profile is KERALA_1961
        assert (await tx.load_case("KNM-2")).case.profile is CATTLE_TRESPASS_1871
    return keeper, officer


async def test_a_1871_cases_page_its_forms_and_its_answers_are_in_that_acts_words(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper, _ = await _two_cases(r)
        r.clock.advance(days=8)  # 14 March: KNM-2's report is due (on 13 March)
        await r.sign_in(keeper)
        pages = {
            lang: (await r.client.get(f"/web/cases/KNM-2?lang={lang}")).text
            for lang in ("ml", "en", "ta", "kn")
        }
        # A step from its form: its answer shown on the page after it.
        sent = await r.client.post(
            "/web/cases/KNM-2/report", data={**step_form(pages["en"]), "on": ""}
        )
        assert sent.status_code == 303
        answered = (await r.client.get("/web/cases/KNM-2?lang=en")).text
        kerala = (await r.client.get("/web/cases/KNM-1?lang=en")).text
    for lang, page in pages.items():
        text = page_text(page)
        assert kerala_left(text, lang) == [], (lang, text)
        tr = translator(lang).under(CATTLE_TRESPASS_1871)
        # The REPORT step's title and the fines, as the 1871 Act cites them.
        assert cite("s.13(1)", tr) in text, lang
        assert cite("s.11", tr) in text, lang
    # Reported, under the 1871 Act, to the officer in charge of the nearest police station.
    police = "the officer in charge of the nearest police station"
    assert f"Report unclaimed to {police} (s.14, para 1)" in pages["en"]
    answer = page_text(answered).split("Steps you may take now")[0]
    assert f"reported unclaimed to {police} on 14 Mar 2026 (s.14, para 1)" in answer
    assert kerala_left(page_text(answered), "en") == []
    # The Kerala case beside it keeps the Kerala Act's words.
    assert "Report unclaimed to the local authority (s.13(1))" in kerala
    assert "(s.14, para 1)" not in kerala


async def test_today_cites_each_cases_deadline_under_its_own_act(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper, _ = await _two_cases(r)
        r.clock.advance(days=8)  # 14 March: both reports due, one overdue
        await r.sign_in(keeper)
        today = (await r.client.get("/web/?lang=en")).text
    rows = {
        number: row.split("</tr>")[0]
        for row in today.split("<tr>")[1:]
        for number in re.findall(r'href="/web/cases/(KNM-\d)"', row)[:1]
    }
    assert ">s.14, para 1<" in rows["KNM-2"]
    assert kerala_left(page_text(rows["KNM-2"]), "en") == []
    assert ">s.13(1)<" in rows["KNM-1"]


async def test_the_account_of_a_1871_case_is_in_that_acts_words(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper, officer = await _two_cases(r)
        paid = await r.say(keeper, "PAID KNM-1")  # the Kerala case: the owner pays
        assert "(s.12)" in paid, paid
        await r.say(keeper, "REFUSED KNM-2")
        await r.say(officer, "AUCTION KNM-2 ON 09-03-2026 AT Kunnamangalam market")
        r.clock.advance(days=3)  # 9 March
        await r.say(officer, "SOLD KNM-2 1 1 20000 TO Mammu, Kunnamangalam DECLARED")
        settled = await r.say(officer, "SETTLE KNM-2 500")
        assert kerala_left(settled, "en") == [], settled
        await r.sign_in(officer)
        account = (await r.client.get("/web/documents/account/KNM-2")).text
        ledger = (await r.client.get("/web/documents/ledger?month=2026-03")).text
    text = page_text(account)
    for lang in ("ml", "en"):  # KNM's languages
        assert kerala_left(text, lang) == [], (lang, text)
        assert cite("s.15(3)", translator(lang).under(CATTLE_TRESPASS_1871)) in text, lang
    # The ledger, by provision: KNM-2's entries under the 1871 Act's (the expenses of its
    # sale, s.15(2): 1871 s.16, para 2), KNM-1's under the Kerala Act's (the fines paid,
    # s.12), the feeding charges paid to the keeper in both (s.16(2): 1871 s.17, para 2).
    headings = dict(re.findall(r'<h2 id="provision-([^"]+)">([^<]*)</h2>', ledger))
    assert headings["s.15(2)"] == "s.16, para 2", headings
    assert headings["s.12"] == "s.12", headings
    assert set(headings["s.16(2)"].split(" / ")) == {"s.16(2)", "s.17, para 2"}, headings
