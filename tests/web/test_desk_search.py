"""The search box of the desk: a case number in any spelling opens the case; words find
cases by description, place or the owner's name; a phone number finds an owner's cases
for staff, scoped as the list of cases is; the filter of the list and its pages keep the
search; the public notice board has no box and shows no owner."""

from __future__ import annotations

import re
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


async def _owners(r: Rig) -> None:
    """KNM-1 of Kunhammed P., KNM-2 of ബഷീർ (both of KNM-GP's pound KNM), PTM-1 of
    Kunhammed K. (KNM-GP's pound PTM), ENM-1 of Kunhammed Haji (ENM-GP)."""
    knm = await r.user("keeper", pound="KNM", phone="+919847000010")
    ptm = await r.user("keeper", pound="PTM", phone="+919847000012")
    enm = await r.user("keeper", pound="ENM", phone="+919847000011")
    await r.say(
        knm, "SEIZE 1 cow (brown) AT Kunnamangalam market OWNER Kunhammed P., Chathamangalam"
    )
    await r.say(knm, "SEIZE 1 goat (black) AT Chathamangalam junction OWNER ബഷീർ, Kunnamangalam")
    await r.say(ptm, "SEIZE 1 cow (white) AT Pathimangalam OWNER Kunhammed K., Pathimangalam")
    await r.say(
        enm, "SEIZE 1 cow (brown) AT Eranhimangalam road OWNER Kunhammed Haji, Eranhimangalam"
    )


def _listed(html: str) -> list[str]:
    """The case numbers the list links, in its order."""
    return re.findall(r'<td class="case"[^>]*><a href="/web/cases/([A-Z]+-\d+)"', html)


async def test_staff_find_cases_by_the_owners_name_within_their_pounds(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _owners(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        for query in ("kunhammed", "KUNHAMMED", "Kunhammed P", "hammed"):
            listing = await r.client.get("/web/cases", params={"q": query})
            assert listing.status_code == 200
            assert _listed(listing.text) == ["PTM-1", "KNM-1"], query
        for query in ("ബഷീർ", "ബഷീ"):
            listing = await r.client.get("/web/cases", params={"q": query})
            assert _listed(listing.text) == ["KNM-2"], query
        # The name is searched, not shown: the list's columns are as they were.
        listing = await r.client.get("/web/cases", params={"q": "kunhammed"})
        assert "Kunhammed P." not in listing.text
        # A keeper: his pound's only.
        r.client.cookies.clear()
        await r.sign_in(await r.user("keeper", pound="KNM", phone="+919847000013"))
        listing = await r.client.get("/web/cases", params={"q": "kunhammed"})
        assert _listed(listing.text) == ["KNM-1"]
        # Another authority's officer: theirs only.
        r.client.cookies.clear()
        await r.sign_in(await r.user("officer", authority="ENM-GP"))
        listing = await r.client.get("/web/cases", params={"q": "kunhammed"})
        assert _listed(listing.text) == ["ENM-1"]
        listing = await r.client.get("/web/cases", params={"q": "ബഷീർ"})
        assert _listed(listing.text) == []
        assert "No case matches." in listing.text


async def test_a_corrected_owners_name_is_found_under_the_new_name(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _owners(r)
        officer = await r.user("officer", authority="KNM-GP", phone="+919447000013")
        answer = await r.say(
            officer, "CORRECT KNM-1 OWNER Abdul Rasheed, Chathamangalam BECAUSE misnamed"
        )
        assert "KNM-1" in answer
        await r.sign_in(officer)
        found = await r.client.get("/web/cases", params={"q": "rasheed"})
        assert _listed(found.text) == ["KNM-1"]
        old = await r.client.get("/web/cases", params={"q": "kunhammed"})
        assert _listed(old.text) == ["PTM-1"]


async def test_no_name_is_searched_without_signing_in_nor_on_the_board(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _owners(r)
        anonymous = await r.client.get("/web/cases", params={"q": "kunhammed"})
        assert anonymous.status_code == 303
        assert "/web/cases/KNM-1" not in anonymous.text
        for query in ("kunhammed", "ബഷീർ"):
            board = await r.client.get("/notices/KNM-GP", params={"q": query, "lang": "en"})
            assert board.status_code == 200
            assert "Kunhammed" not in board.text
            assert "ബഷീർ" not in board.text


async def test_the_filter_and_the_pages_keep_the_search(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        for n in range(23):  # more than a page of Kunhammed's cows
            await r.say(
                keeper, f"SEIZE 1 cow (brown) AT market {n} OWNER Kunhammed P., Chathamangalam"
            )
        await r.say(keeper, "SEIZE 1 goat (black) AT junction OWNER Kunhammed P., Chathamangalam")
        await r.say(keeper, "SEIZE 1 cow (white) AT junction OWNER Mini, Kunnamangalam")
        await r.sign_in(await r.user("officer", authority="KNM-GP"))
        first = await r.client.get("/web/cases", params={"q": "kunhammed"})
        assert len(_listed(first.text)) == 20
        assert "KNM-25" not in _listed(first.text)
        # The filter's form carries the text searched, in a field of its own, labelled.
        form = first.text.split('<form class="filter', 1)[1].split("</form>", 1)[0]
        assert re.search(r'<label>Search<input type="search" name="q" value="kunhammed"', form)
        # Folded while no filter is chosen.
        assert '<details class="filters">' in first.text
        older = re.search(r'<a href="(/web/cases\?[^"]*page=2[^"]*)">Older</a>', first.text)
        assert older is not None
        assert "q=kunhammed" in older.group(1)
        second = await r.client.get(older.group(1).replace("&amp;", "&"))
        assert _listed(second.text) == ["KNM-4", "KNM-3", "KNM-2", "KNM-1"]
        # The filter sent with the text kept: both narrow the list.
        goats = await r.client.get("/web/cases", params={"q": "kunhammed", "kind": "goat"})
        assert _listed(goats.text) == ["KNM-24"]
        assert '<details class="filters" open>' in goats.text
        assert 'name="q" value="kunhammed"' in goats.text
        newer = await r.client.get(
            "/web/cases", params={"q": "kunhammed", "kind": "cow", "page": "2"}
        )
        assert _listed(newer.text) == ["KNM-3", "KNM-2", "KNM-1"]
        assert re.search(r'href="/web/cases\?q=kunhammed&amp;kind=cow&amp;page=1"', newer.text)
