"""The forms of the configuration's places and kinds on the web desk: a change saved is
the next version, used by the running poundbot within seconds and kept in the audit
(shown on the desk, and as CSV per authority); an authority's administrator changes
their own authority and its pounds only; nobody else changes anything; a stale form, a
form without its reason, one that changes nothing or would fail the checks saves
nothing and comes back filled in with why. Pounds in bulk from a CSV file: a dry run,
then one version. Over HTTP into the app, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from tomlkit.toml_document import TOMLDocument

from bot.bootstrap import open_app
from bot.config.edit import Change, set_fields, table_of
from bot.config.names import local
from bot.services.config_edit import apply_edit
from bot.services.config_versions import current, history
from bot.store.models import User
from bot.support.caller import ADMIN, Caller
from tests.conftest import ENGINES
from tests.integration.test_config_versions import _within
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, csrf_of, rig

_BASED_ON = re.compile(r'name="based_on" value="(\d+)"')


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: the rig's own SQLite file; or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as found:
        yield found


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        yield r


async def _as(r: Rig, user: User) -> None:
    r.client.cookies.clear()
    assert (await r.sign_in(user)).status_code in (200, 303)


async def _form(r: Rig, path: str) -> tuple[dict[str, str], str]:
    """The hidden fields of the form of ``path`` (its CSRF token and version), and the page."""
    page = await r.client.get(path)
    assert page.status_code == 200, (path, page.status_code)
    found = _BASED_ON.search(page.text)
    assert found, "no based_on on the form"
    return {"csrf": csrf_of(page.text), "based_on": found.group(1)}, page.text


def _fields(html: str) -> dict[str, str]:
    """The text inputs and selected options of a page's main form, as filled in."""
    form = html[html.index('<form class="step user place"') :]
    form = form[: form.index("</form>")]
    found = {
        m.group(1): m.group(2).replace("&#34;", '"').replace("&amp;", "&")
        for m in re.finditer(r'<input id="[^"]*" name="([^"]+)"[^>]*value="([^"]*)"', form)
    }
    for select in re.finditer(r'name="([^"]+)">(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(2))
        found[select.group(1)] = chosen.group(1) if chosen else ""
    for area in re.finditer(
        r'<textarea id="[^"]*" name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S
    ):
        found[area.group(1)] = area.group(2)
    return found


async def _versions(r: Rig) -> int:
    return len(await history(r.app.store))


async def test_a_state_admin_changes_a_pound_and_poundbot_uses_it_within_seconds(
    desk: Rig,
) -> None:
    r = desk
    suma = await r.user("admin", name="Suma")
    await _as(r, suma)
    hidden, page = await _form(r, "/web/config/pounds/KNM")
    assert "A code is never changed" in page
    fields = _fields(page)
    assert fields["phone"] == "0495 280 0000"
    assert fields["lang.1"] == "ml"
    fields |= {"phone": "0495 280 1234", "hours.ml": "എല്ലാ ദിവസവും", "reason": "new line"}
    before = await _versions(r)
    sent = await r.client.post("/web/config/pounds/KNM", data={**fields, **hidden})
    assert sent.status_code == 303
    assert sent.headers["location"].startswith("/web/config/pounds/KNM?saved=")
    assert await _versions(r) == before + 1
    shown = await r.client.get(sent.headers["location"])
    assert "Every part of poundbot uses it" in shown.text
    assert 'value="0495 280 1234"' in shown.text
    await _within(5, lambda: r.app.config.pounds["KNM"].phone == "0495 280 1234")
    assert local(r.app.config.pounds["KNM"].hours, "ml") == "എല്ലാ ദിവസവും"
    row = await current(r.app.store)
    assert row is not None
    assert "# no `tariff`: applies [tariffs.KNM-GP]" in row.text  # its comments kept

    config = await r.client.get("/web/config")
    assert "Recent changes" in config.text
    assert "new line" in config.text
    assert "0495 280 1234" in config.text
    assert 'href="/web/config/authorities"' in config.text
    places = await r.client.get("/web/config/authorities")
    assert "Pound KNM" in places.text
    assert 'href="/web/config/authorities/ENM-GP"' in places.text


async def test_an_authority_admin_changes_their_own_authority_only(desk: Rig) -> None:
    r = desk
    latheef = await r.user("admin", authority="KNM-GP", name="Latheef")
    await _as(r, latheef)
    config = await r.client.get("/web/config")
    assert config.status_code == 303
    assert config.headers["location"] == "/web/config/authorities"
    places = await r.client.get("/web/config/authorities")
    assert places.status_code == 200
    assert 'href="/web/config/pounds/KNM"' in places.text
    assert "/web/config/pounds/ENM" not in places.text
    assert "/web/config/authorities/ENM-GP" not in places.text
    assert "/web/config/kinds/" not in places.text
    assert "/web/config/authorities/new" not in places.text

    hidden, page = await _form(r, "/web/config/authorities/KNM-GP")
    fields = _fields(page) | {
        "members": "Jameela Beevi\nMohanan Pillai\nRadha K",
        "reason": "new member",
    }
    sent = await r.client.post("/web/config/authorities/KNM-GP", data={**fields, **hidden})
    assert sent.status_code == 303
    await _within(5, lambda: "Radha K" in r.app.config.authorities["KNM-GP"].members)

    before = await _versions(r)
    csrf = {"csrf": hidden["csrf"]}
    for path in (
        "/web/config/pounds/ENM",
        "/web/config/authorities/ENM-GP",
        "/web/config/authorities/new",
        "/web/config/kinds/cow",
        "/web/config/kinds/new",
        "/web/config/pounds/import",
    ):
        got = await r.client.get(path)
        assert got.status_code == 403, path
        assert "Perla" not in got.text
        posted = await r.client.post(path, data={**csrf, "based_on": str(before), "reason": "x"})
        assert posted.status_code == 403, path
    # A new pound of another authority: refused, nothing written.
    new = {**csrf, "based_on": str(before), "code": "PRL", "authority": "ENM-GP"}
    new |= {"name.en": "Perla 2", "address.en": "Perla", "lang.1": "ml", "reason": "x"}
    assert (await r.client.post("/web/config/pounds/new", data=new)).status_code == 403
    assert await _versions(r) == before

    csv_own = await r.client.get("/web/config/changes.csv?authority=KNM-GP")
    assert csv_own.status_code == 200
    assert "Radha K" in csv_own.text
    assert (await r.client.get("/web/config/changes.csv?authority=ENM-GP")).status_code == 403
    assert (await r.client.get("/web/config/changes.csv")).status_code == 200  # their own


async def test_nobody_but_an_admin_changes_the_configuration(desk: Rig) -> None:
    r = desk
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    officer = await r.user("officer", authority="KNM-GP", name="Latha")
    before = await _versions(r)
    for user in (keeper, officer):
        await _as(r, user)
        csrf = csrf_of((await r.client.get("/web/")).text)
        for path in (
            "/web/config/authorities",
            "/web/config/pounds/KNM",
            "/web/config/changes.csv",
        ):
            assert (await r.client.get(path)).status_code == 403, path
        data = {"csrf": csrf, "based_on": str(before), "phone": "1", "reason": "x"}
        assert (await r.client.post("/web/config/pounds/KNM", data=data)).status_code == 403
    assert await _versions(r) == before


async def test_a_form_refused_saves_nothing_and_comes_back_filled_in(desk: Rig) -> None:
    r = desk
    suma = await r.user("admin", name="Suma")
    await _as(r, suma)
    hidden, page = await _form(r, "/web/config/pounds/PTM")
    fields = _fields(page)
    before = await _versions(r)

    no_reason = await r.client.post(
        "/web/config/pounds/PTM", data={**fields, **hidden, "phone": "0495 1", "reason": " "}
    )
    assert no_reason.status_code == 400
    assert "Give the reason" in no_reason.text
    assert 'value="0495 1"' in no_reason.text  # kept

    same = await r.client.post("/web/config/pounds/PTM", data={**fields, **hidden, "reason": "r"})
    assert same.status_code == 400
    assert "Nothing was changed" in same.text

    no_name = {**fields, **hidden, "name.en": "", "phone": "0495 2", "reason": "r"}
    faulty = await r.client.post("/web/config/pounds/PTM", data=no_name)
    assert faulty.status_code == 400
    assert "would fail its checks" in faulty.text
    assert "needs its English form" in faulty.text
    assert 'value="0495 2"' in faulty.text

    village = {**fields, **hidden, "market.village.0": "Kallumpuram", "reason": "r"}
    no_market = await r.client.post("/web/config/pounds/PTM", data=village)
    assert no_market.status_code == 400
    assert "Give the market place of Kallumpuram" in no_market.text
    assert await _versions(r) == before

    # Someone else saves meanwhile: the form again on the new version.
    row = await current(r.app.store)
    assert row is not None

    def other(document: TOMLDocument) -> list[Change]:
        table = table_of(document, "pounds", "PTM")
        assert table is not None
        return set_fields(
            table, {"phone": "0495 999"}, authority="KNM-GP", entity="pound", key="PTM"
        )

    await apply_edit(
        r.app.store, Caller(role=ADMIN, channel="web"), based_on=row.id, edit=other, reason="o"
    )
    stale = await r.client.post(
        "/web/config/pounds/PTM", data={**fields, **hidden, "phone": "0495 3", "reason": "mine"}
    )
    assert stale.status_code == 409
    assert "changed by someone else meanwhile" in stale.text
    assert 'value="0495 999"' in stale.text  # the new version's
    assert f'name="based_on" value="{row.id + 1}"' in stale.text
    assert 'value="mine"' in stale.text
    assert await _versions(r) == before + 1

    expired = await r.client.post("/web/config/pounds/PTM", data={**fields, "csrf": "x"})
    assert expired.status_code == 403
    assert await _versions(r) == before + 1


async def test_a_state_admin_adds_an_authority_and_a_pound_of_it(desk: Rig) -> None:
    r = desk
    suma = await r.user("admin", name="Suma")
    await _as(r, suma)
    hidden, _ = await _form(r, "/web/config/authorities/new")
    authority = {
        "code": "mvr-gp",
        "name.en": "Mavoor Grama Panchayat",
        "name.ml": "മാവൂർ ഗ്രാമപഞ്ചായത്ത്",
        "kind": "grama_panchayat",
        "district": "Kozhikode",
        "default_language": "ml",
        "office_address.en": "Mavoor Panchayat Office",
        "village.en": "Mavoor",
        "market_place.en": "Mavoor Market",
        "reason": "new panchayat",
    }
    bad = await r.client.post(
        "/web/config/authorities/new", data={**authority, **hidden, "code": "M"}
    )
    assert bad.status_code == 400
    assert "2 to 16 capital letters" in bad.text
    taken = await r.client.post(
        "/web/config/authorities/new", data={**authority, **hidden, "code": "KNM-GP"}
    )
    assert taken.status_code == 400
    assert "The code KNM-GP is taken already" in taken.text
    sent = await r.client.post("/web/config/authorities/new", data={**authority, **hidden})
    assert sent.status_code == 303, sent.text
    assert sent.headers["location"].startswith("/web/config/authorities/MVR-GP")
    await _within(5, lambda: "MVR-GP" in r.app.config.authorities)

    hidden, _ = await _form(r, "/web/config/pounds/new")
    pound = {
        "code": "mvr",
        "authority": "MVR-GP",
        "name.en": "Mavoor Cattle Pound",
        "address.en": "Mavoor",
        "lang.1": "ml",
        "lang.2": "en",
        "reason": "its pound",
    }
    untariffed = await r.client.post("/web/config/pounds/new", data={**pound, **hidden})
    assert untariffed.status_code == 400
    assert "no [tariffs.MVR-GP] table" in untariffed.text
    assert 'value="Mavoor Cattle Pound"' in untariffed.text
    sent = await r.client.post(
        "/web/config/pounds/new", data={**pound, **hidden, "tariff": "KNM-GP"}
    )
    assert sent.status_code == 303, sent.text
    await _within(5, lambda: "MVR" in r.app.config.pounds)
    assert r.app.config.pounds["MVR"].tariff == "KNM-GP"
    assert r.app.config.pounds["MVR"].languages == ("ml", "en")


async def test_a_state_admin_changes_the_words_of_a_kind_and_adds_one_with_its_rates(
    desk: Rig,
) -> None:
    r = desk
    suma = await r.user("admin", name="Suma")
    await _as(r, suma)
    hidden, page = await _form(r, "/web/config/kinds/cow")
    fields = _fields(page)
    fields["words.ml"] = fields["words.ml"] + "\nപൈക്കൾ"
    sent = await r.client.post(
        "/web/config/kinds/cow", data={**fields, **hidden, "reason": "a word keepers use"}
    )
    assert sent.status_code == 303
    await _within(5, lambda: "പൈക്കൾ" in r.app.config.kind_words["ml"])

    hidden, page = await _form(r, "/web/config/kinds/new")
    kind = {"code": "yak", "name.en": "yak", "words.en": "yak\nyaks", "reason": "new kind"}
    refused = await r.client.post("/web/config/kinds/new", data={**kind, **hidden})
    assert refused.status_code == 400
    assert "no rate for kind &#39;yak&#39;" in refused.text
    rates = {"from": "01-04-2026", "source": "G.O. 1/2026"}
    for name in ("KNM-GP", "ENM", "VTV-GP"):
        rates |= {f"fine.{name}": "800", f"feeding.{name}": "150"}
    sent = await r.client.post("/web/config/kinds/new", data={**kind, **hidden, **rates})
    assert sent.status_code == 303, sent.text
    await _within(5, lambda: "yak" in r.app.config.kinds)


def _csv(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


async def test_pounds_from_a_csv_file_a_dry_run_then_one_version(desk: Rig) -> None:
    r = desk
    suma = await r.user("admin", name="Suma")
    await _as(r, suma)
    hidden, _ = await _form(r, "/web/config/pounds/import")
    header = ["code", "authority", "name_en", "name_ml", "address_en", "phone", "languages"]
    bad = _csv(
        [
            header,
            ["KVR", "KNM-GP", "Karanthur Pound", "കാരന്തൂർ പൗണ്ട്", "Karanthur", "", "ml en"],
            ["PTM", "", "", "", "", "0495 111", ""],
            ["ENM", "KNM-GP", "", "", "", "", ""],
            ["x1", "KNM-GP", "X", "", "X", "", "ml"],
            ["ABC", "NOPE", "A", "", "A", "", "ml"],
        ]
    )
    before = await _versions(r)
    files = {"file": ("pounds.csv", bad, "text/csv")}
    checked = await r.client.post(
        "/web/config/pounds/import", data={**hidden, "step": "check"}, files=files
    )
    assert checked.status_code == 200
    assert "to be added" in checked.text
    assert "to be changed: Phone number" in checked.text
    assert "a pound&#39;s local authority is never changed" in checked.text
    assert "2 to 6 capital letters" in checked.text
    assert "no local authority has the code NOPE" in checked.text
    assert 'id="apply"' not in checked.text  # nothing saved from a file with a refused line

    good = _csv([header, *[_row for _row in [
        ["KVR", "KNM-GP", "Karanthur Pound", "കാരന്തൂർ പൗണ്ട്", "Karanthur", "", "ml en"],
        ["PTM", "", "", "", "", "0495 111", ""],
    ]]])  # fmt: skip
    files = {"file": ("pounds.csv", good, "text/csv")}
    checked = await r.client.post(
        "/web/config/pounds/import",
        data={**hidden, "step": "check", "reason": "the new pounds"},
        files=files,
    )
    assert 'id="apply"' in checked.text
    assert await _versions(r) == before
    text = re.search(r'<textarea name="text" hidden>(.*?)</textarea>', checked.text, re.S)
    assert text
    apply = {**hidden, "step": "apply", "text": text.group(1).replace("&#34;", '"')}
    done = await r.client.post(
        "/web/config/pounds/import", data={**apply, "reason": "the new pounds"}
    )
    assert done.status_code == 303, done.text
    assert await _versions(r) == before + 1
    await _within(5, lambda: "KVR" in r.app.config.pounds)
    assert r.app.config.pounds["PTM"].phone == "0495 111"
    assert local(r.app.config.pounds["KVR"].name, "ml") == "കാരന്തൂർ പൗണ്ട്"
    audit = await r.client.get("/web/config/changes.csv?authority=KNM-GP")
    lines = list(csv.reader(io.StringIO(audit.text)))
    assert lines[0] == [
        "at", "version", "authority", "by", "entity", "key", "field", "old", "new", "reason"
    ]  # fmt: skip
    assert {(line[5], line[6]) for line in lines[1:]} >= {("KVR", "code"), ("PTM", "phone")}
    assert all(line[2] == "KNM-GP" and line[3] == "Suma" for line in lines[1:])
    assert all(line[9] == "the new pounds" for line in lines[1:])
