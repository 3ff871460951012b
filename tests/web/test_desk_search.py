"""The search box of the desk: a case number in any spelling opens the case; words find
cases by description or place; a phone number finds an owner's cases for staff, scoped as
the list of cases is; the public notice board has no box and shows no owner."""

from __future__ import annotations

from pathlib import Path

from tests.web.rig import Rig, rig

SEIZE = "SEIZE 2 cow (brown, white forehead) 1 goat AT Kunnamangalam market OWNER Ravi 9847012345"


async def _cases(r: Rig) -> None:
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    enm = await r.user("keeper", pound="ENM", phone="+919847000011")
    await r.say(keeper, SEIZE)
    await r.say(keeper, "SEIZE 1 buffalo (black, broken horn) AT Chathamangalam junction")
    await r.say(enm, "SEIZE 1 cow (brown) AT Eranhimangalam road OWNER Mini 9847055555")


async def test_a_case_number_in_any_spelling_opens_the_case(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _cases(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        for spelling in ("KNM-2", "knm 2", "KNM2", " knm-2 "):
            found = await r.client.get("/web/cases", params={"q": spelling})
            assert found.status_code == 303, spelling
            assert found.headers["location"] == "/web/cases/KNM-2"
        # Another authority's number is not confirmed: the list, with nothing in it.
        other = await r.client.get("/web/cases", params={"q": "ENM-1"})
        assert other.status_code == 200
        assert "/web/cases/ENM-1" not in other.text
        assert "No case matches." in other.text
        assert 'value="ENM-1"' in other.text


async def test_words_find_cases_by_description_or_place(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _cases(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        for query, seen, unseen in (
            ("horn", ["KNM-2"], ["KNM-1"]),
            ("BROKEN black", ["KNM-2"], ["KNM-1"]),
            ("kunnamangalam", ["KNM-1"], ["KNM-2"]),
            ("forehead market", ["KNM-1"], ["KNM-2"]),
            ("brown", ["KNM-1"], ["KNM-2", "ENM-1"]),
        ):
            listing = await r.client.get("/web/cases", params={"q": query})
            assert listing.status_code == 200
            for number in seen:
                assert f"/web/cases/{number}" in listing.text, query
            for number in unseen:
                assert f"/web/cases/{number}" not in listing.text, query
        none = await r.client.get("/web/cases", params={"q": "elephant"})
        assert "No case matches." in none.text
        assert 'value="elephant"' in none.text


async def test_an_owners_phone_finds_the_case_for_its_authority_only(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _cases(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        for spelling in ("9847012345", "+919847012345", "098470 12345"):
            listing = await r.client.get("/web/cases", params={"q": spelling})
            assert "/web/cases/KNM-1" in listing.text, spelling
            assert "/web/cases/KNM-2" not in listing.text, spelling
        r.client.cookies.clear()
        await r.sign_in(await r.user("officer", authority="ENM-GP"))
        listing = await r.client.get("/web/cases", params={"q": "9847012345"})
        assert "/web/cases/KNM-1" not in listing.text
        assert "No case matches." in listing.text


async def test_a_query_too_short_or_only_punctuation_is_answered(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _cases(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        for query in ("a", "?!", "%", "_", "  "):
            page = await r.client.get("/web/cases", params={"q": query})
            assert page.status_code == 200, query
            if query.strip():
                assert "Type at least two letters or digits to search." in page.text
                assert "/web/cases/KNM-1" not in page.text


async def test_the_box_is_on_every_desk_page_and_not_on_the_board(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _cases(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        box = '<input type="search" name="q"'
        for path in (
            "/web/",
            "/web/cases",
            "/web/cases/KNM-1",
            "/web/documents/",
            "/web/charts/",
            "/web/messages",
        ):
            page = await r.client.get(path)
            assert page.status_code == 200, path
            assert box in page.text, path
        # The board searches nothing: a query shows no owner, by name or by number.
        for query, owner in (("9847012345", "Ravi"), ("Ravi", "98470")):
            board = await r.client.get("/notices/KNM-GP", params={"q": query, "lang": "en"})
            assert board.status_code == 200
            assert box not in board.text
            assert owner not in board.text


async def test_the_box_speaks_malayalam(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _cases(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP", lang="ml"))
        page = await r.client.get("/web/cases", params={"q": "a"})
        assert "Type at least two letters" not in page.text
        assert ">Search<" not in page.text
        assert "തിരയുക" in page.text
