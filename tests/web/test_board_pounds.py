"""The public notice board names the authority and its pounds in the reader's language,
says where each pound is, its phone and its hours, and shows no operator's command; the
sign-in page does not show the administrator's command line to the public."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config.names import local
from tests.web.rig import rig


@pytest.mark.parametrize("lang", ["ml", "en"])
async def test_the_board_names_the_authority_and_its_pounds_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    async with rig(tmp_path) as r:
        config = r.app.config
        page = await r.client.get(f"/notices/KNM-GP?lang={lang}")
        assert page.status_code == 200
        text = page.text
        authority = config.authorities["KNM-GP"]
        assert "<h1>" in text
        assert local(authority.name, lang) in text.split("<h1>")[1].split("</h1>")[0]
        for code in ("KNM", "PTM"):
            pound = config.pounds[code]
            assert local(pound.name, lang) in text
            assert local(pound.address, lang) in text
        knm = config.pounds["KNM"]
        assert knm.phone in text
        assert f'href="tel:{knm.phone.replace(" ", "")}"' in text
        assert local(knm.hours, lang) in text
        assert "ENM" not in text  # the pounds of another authority are not listed
        for command in ("poundbot ", "web-link", "--user", "config ", "migrate"):
            assert command not in text, command
        if lang == "ml":
            assert "Kunnamangalam Grama Panchayat" not in text


async def test_the_sign_in_page_shows_the_public_no_administrators_command(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        for lang in ("en", "ml"):
            page = await r.client.get(f"/web/signin?lang={lang}")
            assert page.status_code == 200
            assert "web-link" not in page.text
            assert "--user" not in page.text
        english = await r.client.get("/web/signin?lang=en")
        assert "Ask the administrator of poundbot" in english.text
